#!/usr/bin/env python3
"""Where the lint time goes: time spent in each rule's check over one generated manifest.

    python3 bench/rule_times.py                  # 2,000 tools, every built-in rule
    python3 bench/rule_times.py --tools 500 --top 15

One process, no workers (the parallel spans are run inline), so each check's time is its own
CPU time plus the server-wide facts it is the first to compute (``Context.memo``): the table
says which consumer pays for a shared analysis, not only which is slow.  Loading and parsing
are timed separately, as the floor the rules add to.  Measured here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import DEFAULT_SEED, generate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcplint.cli import GC_THRESHOLDS  # noqa: E402
from mcplint.config import Config  # noqa: E402
from mcplint.engine import parallel  # noqa: E402
from mcplint.engine.linter import Linter, Selection  # noqa: E402
from mcplint.loaders.files import Source, load  # noqa: E402


def measure(path: Path, repeat: int) -> tuple[float, dict[str, float], float, int]:
    """Median seconds to load, per-rule median seconds, median total lint seconds, tools."""
    parallel.MIN_TOOLS_PER_WORKER = 10**9  # one process: each rule's time is its own
    gc.set_threshold(*GC_THRESHOLDS)  # as the command line runs: a collection's pause would
    # otherwise land on whichever rule happened to allocate past the default threshold
    loads: list[float] = []
    lints: list[float] = []
    per_rule: dict[str, list[float]] = defaultdict(list)
    tools = 0
    for _ in range(repeat):
        start = time.perf_counter()
        loaded = load(Source(str(path), explicit=True))
        loads.append(time.perf_counter() - start)
        manifest = loaded.manifest
        assert manifest is not None, loaded.errors
        tools = len(manifest.tools)
        linter = Linter(Config(path=None, root=ROOT), Selection(select=("ALL",)))
        spent: dict[str, float] = defaultdict(float)
        findings = linter._findings

        # A check's hits are a generator drained while its findings are built, so timing that
        # drain charges each rule with its own work and the building of its findings.
        def timed(manifest: Any, active: Any, hits: Any, tool_filter: bool = False,
                  findings: Any = findings, spent: dict[str, float] = spent) -> list[Any]:
            begun = time.perf_counter()
            built = list(findings(manifest, active, hits, tool_filter=tool_filter))
            spent[active.rule.code] += time.perf_counter() - begun
            return built

        linter._findings = timed  # type: ignore[method-assign]
        start = time.perf_counter()
        linter.lint(manifest)
        lints.append(time.perf_counter() - start)
        for code, seconds in spent.items():
            per_rule[code].append(seconds)
    return (statistics.median(loads), {c: statistics.median(t) for c, t in per_rule.items()},
            statistics.median(lints), tools)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=2000, help="manifest size (default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs (default 3); medians")
    parser.add_argument("--top", type=int, default=0, help="show only the N slowest rules")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        (path,) = generate(Path(work), (args.tools,), DEFAULT_SEED)
        load_s, per_rule, lint_s, tools = measure(path, args.repeat)
    rows = sorted(per_rule.items(), key=lambda item: -item[1])
    if args.top:
        rows = rows[:args.top]
    print(f"{tools:,} tools: load {load_s * 1000:.0f} ms, lint {lint_s * 1000:.0f} ms "
          f"({lint_s / tools * 1e6:.0f} µs a tool), medians of {args.repeat}\n")
    print("| rule (check and its findings) | ms | µs a tool | share of lint |")
    print("| --- | --: | --: | --: |")
    for code, seconds in rows:
        print(f"| {code} | {seconds * 1000:.1f} | {seconds / tools * 1e6:.0f} | "
              f"{seconds / lint_s:.0%} |")
    rest = lint_s - sum(per_rule.values())
    print(f"| (engine: findings, sorting) | {rest * 1000:.1f} | {rest / tools * 1e6:.0f} | "
          f"{rest / lint_s:.0%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
