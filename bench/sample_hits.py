"""Draw random findings for a precision audit, each with what a reader needs to judge it.

A precision audit reads random hits of each rule on servers the rules were not tuned on and
counts the share that is right (bench/README.md, "Precision audits").  This draws up to N hits
per rule and severity, seeded, and writes each with its tool's definition (description,
parameters, annotations), the server's other tool names and, for a pair finding, the other
tool, so the reader judges from what the agent would see and nothing else.

    python bench/sample_hits.py DIR OUT.jsonl [--per 20] [--seed 1] [--codes SAFE001,PARAM001]
        [--severities error,warning]

Each line of OUT.jsonl is one hit: {"key", "code", "severity", "file", "tool", "pointer",
"message", "definition", "related", "siblings"}.  ``key`` is stable across runs with the same
seed and inputs, so judgements can be joined back.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any


def _findings(folder: Path) -> list[dict[str, Any]]:
    run = subprocess.run([sys.executable, "-m", "mcplint", "check", "--select", "ALL",
                          "--fail-on", "never", "--output-format", "json", str(folder)],
                         capture_output=True, text=True, check=False)
    if run.returncode not in (0, 1):
        raise SystemExit(f"mcplint failed on {folder}: {run.stderr.strip()}")
    findings: list[dict[str, Any]] = json.loads(run.stdout)["findings"]
    return findings


def _tools(path: str, cache: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    if path not in cache:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        tools = data.get("tools") if isinstance(data, dict) else None
        cache[path] = [t for t in tools or () if isinstance(t, dict)]
    return cache[path]


def _definition(tool: dict[str, Any]) -> dict[str, Any]:
    return {key: tool[key] for key in ("name", "title", "description", "inputSchema",
                                       "outputSchema", "annotations") if key in tool}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder of manifests (snapshots)")
    parser.add_argument("out", type=Path, help="where to write the sampled hits (JSON lines)")
    parser.add_argument("--per", type=int, default=20, help="hits per rule and severity")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--codes", default="", help="comma-separated rule codes (default all)")
    parser.add_argument("--severities", default="error,warning",
                        help="comma-separated severities to sample (default error,warning)")
    args = parser.parse_args(argv)
    codes = {c for c in args.codes.split(",") if c}
    severities = {s for s in args.severities.split(",") if s}
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for finding in _findings(args.folder):
        if (codes and finding["code"] not in codes) or finding["severity"] not in severities:
            continue
        groups[(finding["code"], finding["severity"])].append(finding)
    rng = random.Random(args.seed)
    cache: dict[str, list[dict[str, Any]]] = {}
    lines = []
    for (code, severity), found in sorted(groups.items()):
        for finding in rng.sample(found, min(args.per, len(found))):
            tools = _tools(finding["file"], cache)
            by_name = {t.get("name"): t for t in tools}
            tool = by_name.get(finding.get("tool"))
            related = [by_name[r["tool"]] for r in finding.get("related", ())
                       if isinstance(r, dict) and r.get("tool") in by_name]
            lines.append({
                "key": f'{code}/{severity}/{Path(finding["file"]).stem}/{finding["pointer"]}',
                "code": code, "severity": severity, "file": Path(finding["file"]).name,
                "tool": finding.get("tool"), "pointer": finding["pointer"],
                "message": finding["message"],
                "definition": _definition(tool) if tool else None,
                "related": [_definition(t) for t in related],
                "siblings": [t.get("name") for t in tools if t is not tool],
            })
    args.out.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    counts = {f"{c} {s}": len(v) for (c, s), v in sorted(groups.items())}
    print(f"wrote {len(lines)} hits to {args.out}; hits per rule and severity: {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
