#!/usr/bin/env python3
"""Time mcplint as users run it: whole processes, repeated, against the floor of loading the JSON.

    python3 bench/run.py --markdown              # every case, 5 runs each (3 for 10,000 tools)
    python3 bench/run.py --quick                 # CI size: one run, small manifests only
    python3 bench/run.py --cases version,tools-500 --repeat 9

Every run is a fresh child started through a tiny wrapper process, so the wall time covers
interpreter start and the peak memory (``ru_maxrss`` of RUSAGE_CHILDREN) is that one run's alone.
The floor runs in the same session: ``python -c`` that imports json and loads the same files.
Speed is measured here and never asserted in a unit test.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import CORPUS, DEFAULT_SEED, generate

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "fixtures" / "servers"
# Five stdio servers as a client config would list them; one repeats under another name, as
# the same server often does across a team's configs.
CONFIG_SERVERS = {
    "notes": "good_server.py",
    "accounts": "defective_server.py",
    "pager": "paginated_server.py",
    "prompts": "prompts_server.py",
    "notes_mirror": "good_server.py",
}
# Imported by a static lint they must never be; the rest are reported, not judged.
FORBIDDEN_IMPORTS = ("mcp", "jinja2")
NOTABLE_IMPORTS = ("pydantic", "anyio", "httpx", "starlette", "uvicorn", "tiktoken")

# Runs one command, then prints its wall time and peak RSS as JSON. A separate process per run,
# because RUSAGE_CHILDREN keeps the maximum over every child a process ever waited for.
WRAPPER = """
import json, resource, subprocess, sys, threading, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
# A timer kills a run that takes too long; Popen.wait(timeout=) would poll in steps of up to
# 50 ms, and that rounding would swamp the times of the small cases.
timer = threading.Timer(float(sys.argv[1]), child.kill)
timer.start()
code = child.wait()
wall = time.perf_counter() - start
if not timer.is_alive():
    code = "timeout"
timer.cancel()
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"wall": wall, "rss_kb": rss // 1024 if sys.platform == "darwin" else rss,
                  "code": code}))
"""
FLOOR = "import json, sys\nfor p in sys.argv[1:]:\n    json.load(open(p, encoding='utf-8'))"


@dataclass(frozen=True)
class Target:
    """A number from issue 6; ``ratio`` and ``mb`` are limits beside the wall-time one."""

    seconds: float
    ratio: float | None = None
    mb: float | None = None


@dataclass(frozen=True)
class Case:
    name: str
    meaning: str
    args: list[str]
    floor_files: list[str]
    repeat: int
    target: Target | None = None
    ok_codes: tuple[int, ...] = (0, 1)
    # Other linters on the same input, run beside mcplint when installed: (label, command).
    peers: tuple[tuple[str, list[str]], ...] = ()


@dataclass
class Timing:
    walls: list[float] = field(default_factory=list)
    rss_kb: list[int] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)
    timed_out: bool = False

    @property
    def median(self) -> float:
        return statistics.median(self.walls)

    @property
    def peak_mb(self) -> float:
        return max(self.rss_kb) / 1024


@dataclass
class Row:
    case: Case
    launcher: str
    timing: Timing
    floor: Timing
    error: str = ""

    @property
    def ratio(self) -> float:
        return self.timing.median / self.floor.median

    def verdict(self) -> str:
        target = self.case.target
        if self.timing.timed_out:
            return f"miss: timed out (> {self.timing.walls[-1]:.1f} s)"
        if self.error:
            return "error"
        if target is None or self.launcher != "python -m":
            return ""  # peers and the console script are compared, not judged
        misses = []
        if self.timing.median > target.seconds:
            misses.append(f"> {target.seconds:g} s")
        if target.ratio is not None and self.ratio > target.ratio:
            misses.append(f"> {target.ratio:g}x floor")
        if target.mb is not None and self.timing.peak_mb > target.mb:
            misses.append(f"> {target.mb:g} MB")
        return "miss: " + ", ".join(misses) if misses else "met"


def measure(command: list[str], repeat: int, timeout: float) -> Timing:
    timing = Timing()
    for _ in range(repeat):
        # From the repository root, so `python -m mcplint` is this clone's even when not installed.
        out = subprocess.run([sys.executable, "-c", WRAPPER, str(timeout), *command],
                             capture_output=True, text=True, check=True, cwd=ROOT).stdout
        result = json.loads(out)
        timing.walls.append(result["wall"])
        timing.rss_kb.append(result["rss_kb"])
        if result["code"] == "timeout":
            # The wall time is then only a lower bound; more runs would add nothing but minutes.
            timing.timed_out = True
            break
        timing.codes.append(result["code"])
    return timing


def launchers() -> list[tuple[str, list[str]]]:
    """``python -m mcplint`` always, and the console script of this interpreter's environment."""
    found = [("python -m", [sys.executable, "-m", "mcplint"])]
    script = Path(sys.executable).parent / "mcplint"
    if script.is_file() and os.access(script, os.X_OK):
        found.append(("mcplint", [str(script)]))
    return found


def write_config(folder: Path, servers: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        name: {"command": sys.executable, "args": [str(SERVERS / script)]}
        for name, script in servers.items()}}, indent=2) + "\n", encoding="utf-8")
    return config


def build_cases(work: Path, sizes: tuple[int, ...], repeat: int, big_repeat: int | None,
                servers: bool) -> list[Case]:
    # Every rule on, the off-by-default ones too: the targets are for the whole engine.
    lint = ["check", "--fail-on", "never", "-q", "--select", "ALL"]
    schema_peer = _schema_peer(work)
    cases = [Case("version", "`mcplint --version`: interpreter start and CLI import", ["--version"],
                  [], repeat, Target(0.12))]
    for path in generate(work / "manifests", sizes, DEFAULT_SEED):
        size = int(path.stem.split("-")[1])
        target = {500: Target(0.25, ratio=4.0), 10000: Target(3.0, mb=300.0)}.get(size)
        runs = big_repeat if size >= 10000 and big_repeat is not None else repeat
        cases.append(Case(f"tools-{size}", f"one generated manifest of {size:,} tools",
                          [*lint, str(path)], [str(path)], runs, target,
                          peers=tuple((label, [*command, str(path)])
                                      for label, command in schema_peer)))
    corpus_files = sorted(str(p) for p in CORPUS.glob("*.json"))
    if corpus_files:
        cases.append(Case("corpus", f"the shared corpus, {len(corpus_files)} files in one run",
                          [*lint, str(CORPUS)], corpus_files, repeat, Target(1.0)))
    if servers:
        for name, script in CONFIG_SERVERS.items():
            config = write_config(work / "configs" / name, {name: script})
            cases.append(Case(f"server-{name}", f"a config of the one stdio server {script}",
                              [*lint, "--allow-exec", str(config)], [str(config)], repeat,
                              peers=_live_peers(script) if name == "notes" else ()))
        config = write_config(work / "configs" / "all", CONFIG_SERVERS)
        cases.append(Case("config-5", "a client config of 5 stdio fixture servers, read at once",
                          [*lint, "--allow-exec", str(config)], [str(config)], repeat))
    return cases


def _schema_peer(work: Path) -> list[tuple[str, list[str]]]:
    """check-jsonschema with MCP's ListToolsResult schema: a cheap linter from the package
    index that only validates the shape, run on the same generated files."""
    tool = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
    schema = ROOT.parent / "shared" / "schemas" / "mcp-schema-2025-11-25.json"
    if not os.access(tool, os.X_OK) or not schema.is_file():
        return []
    mcp = json.loads(schema.read_text(encoding="utf-8"))
    wrapper = work / "list-tools-result.schema.json"
    wrapper.parent.mkdir(parents=True, exist_ok=True)
    wrapper.write_text(json.dumps({"$schema": mcp["$schema"], "$ref": "#/$defs/ListToolsResult",
                                   "$defs": mcp["$defs"]}), encoding="utf-8")
    return [("check-jsonschema", [tool, "--schemafile", str(wrapper)])]


def _live_peers(script: str) -> tuple[tuple[str, list[str]], ...]:
    """mcp-lint (PyPI), which lints a live server only, on the harmless notes fixture: it
    calls every tool with empty arguments, which mcplint never does, so not on the others."""
    tool = shutil.which("mcp-lint")
    if tool is None:
        return ()
    return (("mcp-lint", [tool, "lint", f"{sys.executable} {SERVERS / script}"]),)


def run_cases(cases: list[Case], progress: Callable[[str], None], timeout: float) -> list[Row]:
    rows = []
    for case in cases:
        floor = measure([sys.executable, "-c", FLOOR, *case.floor_files], case.repeat, timeout)
        runs = [(label, [*command, *case.args], case.ok_codes) for label, command in launchers()]
        # A peer's exit code is its verdict on the input, not a failure of the benchmark.
        runs += [(label, command, ()) for label, command in case.peers]
        for label, command, ok_codes in runs:
            progress(f"{case.name} ({label}) x{case.repeat}")
            timing = measure(command, case.repeat, timeout)
            bad = sorted({c for c in timing.codes if ok_codes and c not in ok_codes})
            error = f"exit code {bad}" if bad else ""
            if timing.timed_out:
                error = f"timed out after {timeout:g} s"
            rows.append(Row(case, label, timing, floor, error))
            progress(f"  median {timing.median:.3f} s, floor {floor.median:.3f} s, "
                     f"peak {timing.peak_mb:.0f} MB {error}".rstrip())
    return rows


def import_check(manifest: str) -> tuple[list[str], list[tuple[str, float]]]:
    """Top-level packages a static lint imports: (forbidden ones found, heaviest by cumulative)."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "mcplint", "check",
                             "--fail-on", "never", "-q", manifest],
                            capture_output=True, text=True, check=False, cwd=ROOT)
    # Self times summed per top-level package: cumulative times nest, so they would count twice.
    spent: dict[str, float] = {}
    pattern = re.compile(r"^import time:\s+(\d+)\s+\|\s+\d+\s+\|\s*(\S+)")
    for line in result.stderr.splitlines():
        match = pattern.match(line)
        if match:
            top = match.group(2).split(".")[0]
            spent[top] = spent.get(top, 0.0) + int(match.group(1)) / 1000
    forbidden = [name for name in FORBIDDEN_IMPORTS if name in spent]
    heaviest = sorted(spent.items(), key=lambda item: -item[1])[:8]
    return forbidden, heaviest


def target_text(target: Target | None) -> str:
    if target is None:
        return ""
    parts = [f"≤ {target.seconds:g} s"]
    if target.ratio is not None:
        parts.append(f"≤ {target.ratio:g}× floor")
    if target.mb is not None:
        parts.append(f"≤ {target.mb:g} MB")
    return ", ".join(parts)


HEADER = ("case", "launcher", "runs", "median s", "min s", "max s", "peak MB", "floor s", "ratio",
          "target", "verdict")


def table(rows: list[Row]) -> list[tuple[str, ...]]:
    return [(row.case.name, row.launcher, str(len(row.timing.walls)),
             ("≥ " if row.timing.timed_out else "") + f"{row.timing.median:.3f}",
             f"{min(row.timing.walls):.3f}",
             f"{max(row.timing.walls):.3f}", f"{row.timing.peak_mb:.0f}",
             f"{row.floor.median:.3f}", f"{row.ratio:.1f}×", target_text(row.case.target),
             row.verdict()) for row in rows]


def concurrency_note(rows: list[Row]) -> str:
    alone = [r for r in rows if r.case.name.startswith("server-") and r.launcher == "python -m"]
    together = [r for r in rows if r.case.name == "config-5" and r.launcher == "python -m"]
    if not alone or not together:
        return ""
    slowest = max(alone, key=lambda r: r.timing.median)
    gap = together[0].timing.median - slowest.timing.median
    verdict = "met" if gap <= 0.2 else "miss"
    return (f"5 servers together: {together[0].timing.median:.3f} s; slowest alone "
            f"({slowest.case.name}): {slowest.timing.median:.3f} s; gap {gap:+.3f} s "
            f"(target ≤ about 0.2 s: {verdict})")


def render(rows: list[Row], markdown: bool, forbidden: list[str],
           heaviest: list[tuple[str, float]]) -> str:
    body = table(rows)
    lines = []
    if markdown:
        lines.append("| " + " | ".join(HEADER) + " |")
        lines.append("| " + " | ".join("---" for _ in HEADER) + " |")
        lines += ["| " + " | ".join(cells) + " |" for cells in body]
    else:
        widths = [max(len(r[i]) for r in [HEADER, *body]) for i in range(len(HEADER))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                  for r in [HEADER, *body]]
    lines.append("")
    note = concurrency_note(rows)
    if note:
        lines += [note, ""]
    state = ", ".join(forbidden) if forbidden else "none"
    lines.append(f"Static lint imports of {'/'.join(FORBIDDEN_IMPORTS)}: {state} "
                 f"({'miss' if forbidden else 'met'}).")
    heavy = ", ".join(f"{name} {ms:.0f} ms" for name, ms in heaviest)
    notable = [name for name, _ in heaviest if name in NOTABLE_IMPORTS]
    lines.append(f"Heaviest top-level imports (-X importtime, self time per package): {heavy}"
                 + (f"; not needed for a static lint: {', '.join(notable)}" if notable else ""))
    commit = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                            capture_output=True, text=True, check=False).stdout.strip()
    if commit:
        lines.append(f"mcplint at commit {commit}.")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    cpus = os.cpu_count()
    if load:
        lines.append(f"Load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
                     f"on {cpus} CPUs; Python {sys.version.split()[0]}.")
    return "\n".join(lines)


def ensure_bytecode() -> None:
    """Compile mcplint's modules first, as a pip install does. An editable install under
    PYTHONDONTWRITEBYTECODE (set in this workplace) never writes .pyc files, so every run
    would compile the whole package from source: about 0.1 s no user pays."""
    spec = importlib.util.find_spec("mcplint")
    if spec is not None and spec.origin:
        compileall.compile_dir(str(Path(spec.origin).parent), quiet=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs per case (default 5, and 3 for the 10,000-tool case)")
    parser.add_argument("--quick", action="store_true",
                        help="CI size: 25 and 500 tools, one run each, no live servers")
    parser.add_argument("--cases", default="",
                        help="comma-separated case names or prefixes to keep (e.g. version,tools)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds before one run is stopped and reported as timed out")
    parser.add_argument("--json", type=Path, help="also write the raw runs to this file")
    parser.add_argument("--work", type=Path,
                        help="where to write manifests and configs (default: a temp dir)")
    args = parser.parse_args(argv)
    if args.repeat is not None and args.repeat < 1:
        parser.error("--repeat must be at least 1")
    repeat = args.repeat or (1 if args.quick else 5)
    big_repeat = None if args.repeat or args.quick else 3
    sizes = (25, 500) if args.quick else (25, 500, 2000, 10000)
    has_mcp = importlib.util.find_spec("mcp") is not None
    servers = has_mcp and not args.quick
    if not has_mcp:
        print("mcp is not importable: the client-config cases are skipped", file=sys.stderr)
    ensure_bytecode()
    work = args.work or Path(tempfile.mkdtemp(prefix="mcplint-bench-"))
    try:
        cases = build_cases(work, sizes, repeat, big_repeat, servers)
        wanted = [w for w in args.cases.split(",") if w]
        if wanted:
            cases = [c for c in cases if any(c.name.startswith(w) for w in wanted)]
        if not cases:
            parser.error(f"no case matches {args.cases!r}")
        rows = run_cases(cases, lambda text: print(text, file=sys.stderr, flush=True),
                         args.timeout)
        # Imports are what is measured here, so the smallest manifest, whichever cases ran.
        forbidden, heaviest = import_check(str(work / "manifests" / f"tools-{min(sizes)}.json"))
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(render(rows, args.markdown, forbidden, heaviest))
    if args.json:
        args.json.write_text(json.dumps([{
            "case": r.case.name, "launcher": r.launcher, "walls": r.timing.walls,
            "rss_kb": r.timing.rss_kb, "codes": r.timing.codes, "floor_walls": r.floor.walls,
            "verdict": r.verdict()} for r in rows], indent=2) + "\n", encoding="utf-8")
    # A timeout is a measurement (a lower bound), not a failure of the benchmark.
    return 1 if any(r.error and not r.timing.timed_out for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
