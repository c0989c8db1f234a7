#!/usr/bin/env python3
"""How often each rule fires on the shared corpus of real servers: the corpus-wide hit table.

    python3 bench/corpus_hits.py                 # the default selection
    python3 bench/corpus_hits.py --select ALL    # every rule, the default-off ones too

One row per rule that fired: findings, servers with at least one, tools hit (of all tools), and
the findings per severity.  A rule that fires on most tools of most servers is either finding a
habit of the whole ecosystem or wrong about it; the precision audit (random hits read by hand)
tells which.  Also how many manifests fail the default gate (an error finding).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcplint.config import Config  # noqa: E402
from mcplint.engine.linter import Linter, Selection  # noqa: E402
from mcplint.findings import Severity  # noqa: E402
from mcplint.loaders.files import Source, load  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "real",
                        help="the folder of real manifests (default: ../shared/corpus/real)")
    parser.add_argument("--select", default="", help="rules to run (default: the default set)")
    args = parser.parse_args(argv)
    select = tuple(c.strip() for c in args.select.split(",") if c.strip())
    linter = Linter(Config(path=None, root=ROOT), Selection(select=select or None))
    findings: Counter[str] = Counter()
    servers: dict[str, set[str]] = defaultdict(set)
    tools: dict[str, set[tuple[str, str]]] = defaultdict(set)
    severities: dict[str, Counter[Severity]] = defaultdict(Counter)
    failing = total_tools = manifests = 0
    for path in sorted(args.corpus.glob("*.json")):
        loaded = load(Source(str(path)))
        if loaded.manifest is None:
            why = loaded.errors[0].message if loaded.errors else loaded.skipped
            print(f"skipped {path.name}: {why}", file=sys.stderr)
            continue
        manifests += 1
        total_tools += len(loaded.manifest.tools)
        result = linter.lint(loaded.manifest).findings
        failing += any(f.severity is Severity.ERROR for f in result)
        for finding in result:
            findings[finding.code] += 1
            servers[finding.code].add(path.stem)
            if finding.tool:
                tools[finding.code].add((path.stem, finding.tool))
            severities[finding.code][finding.severity] += 1
    print(f"{manifests} manifests, {total_tools:,} tools; {failing} fail the default gate "
          "(an error finding)\n")
    print("| rule | findings | servers | tools hit | share of tools | error | warning | info |")
    print("| --- | --: | --: | --: | --: | --: | --: | --: |")
    for code in sorted(findings):
        by = severities[code]
        print(f"| {code} | {findings[code]} | {len(servers[code])} | {len(tools[code])} | "
              f"{len(tools[code]) / max(total_tools, 1):.0%} | {by[Severity.ERROR]} | "
              f"{by[Severity.WARNING]} | {by[Severity.INFO]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
