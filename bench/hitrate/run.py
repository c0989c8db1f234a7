#!/usr/bin/env python3
"""Hit rate of real servers under every retriever, and whether the rules' confusable pairs
are the ones a search confuses.

    python3 bench/hitrate/run.py            # the servers with an intents file here
    python3 bench/hitrate/run.py --top-k 5

Each ``bench/hitrate/<server>.json`` holds requests written as a user would ask, for the
manifest of the same name in the shared corpus (``../shared/corpus/real``). For each server
the script runs ``mcplint hitrate --format json`` and ``mcplint check --select
DESC004,NAME001 --format json``, prints one row per server and retriever, then compares the
top-1 hit rate of the requests for tools the rules pair as confusable with that of the
others, and how many of the pairs a search confuses the rules flagged. Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
MCPLINT = [sys.executable, "-c", "from mcplint.cli import main; main()"]


def _json(*args: str) -> Any:
    done = subprocess.run([*MCPLINT, *args], capture_output=True, text=True, cwd=ROOT)
    if done.returncode not in (0, 1):
        raise SystemExit(f"mcplint {' '.join(args)} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def flagged_pairs(manifest: Path) -> dict[frozenset[str], set[str]]:
    """Pairs of tools DESC004 or NAME001 call confusable → the rules that do."""
    report = _json("check", str(manifest), "--select", "DESC004,NAME001", "--format", "json")
    pairs: dict[frozenset[str], set[str]] = {}
    for finding in report["findings"]:
        for related in finding["related"]:
            pair = frozenset({finding["tool"], related["tool"]})
            pairs.setdefault(pair, set()).add(finding["code"])
    return pairs


def _rate(hits: int, total: int) -> str:
    return f"{hits / total:.0%} ({hits}/{total})" if total else "–"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top-k", type=int, default=3)
    args = parser.parse_args()
    servers = sorted(p.stem for p in HERE.glob("*.json"))
    print(f"| server | tools | requests | retriever | top-1 | top-{args.top_k} | MRR "
          "| not-violations | unreachable |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    totals: dict[str, list[float]] = {}
    comparison = []
    for server in servers:
        manifest = CORPUS / f"{server}.json"
        report = _json("hitrate", str(manifest), "--intents", str(HERE / f"{server}.json"),
                       "--format", "json", "--top-k", str(args.top_k))
        for r in report["retrievers"]:
            print(f"| {server} | {report['tools']} | {r['requests']} | {r['name']} | "
                  f"{r['top1']:.1%} | {r['topk']:.1%} | {r['mrr']:.3f} | "
                  f"{len(r['not_violations'])} | {len(r['unreachable'])} |")
            totals.setdefault(r["name"], []).extend(
                [1.0 if o["rank"] == 1 else 0.0 for o in r["outcomes"]])
        comparison.append((server, report, flagged_pairs(manifest)))
    print()
    print("| retriever | requests | top-1, all servers |")
    print("| --- | ---: | ---: |")
    for name, hits in totals.items():
        print(f"| {name} | {len(hits)} | {sum(hits) / len(hits):.1%} |")
    print()
    print("Requests for tools that DESC004 or NAME001 pair as confusable, against the others "
          "(top-1 under each retriever), and the pairs a search confuses (BM25) that the rules "
          "flagged:")
    print()
    print("| server | flagged pairs | retriever | top-1, flagged tools | top-1, other tools "
          "| BM25-confused pairs flagged |")
    print("| --- | ---: | --- | ---: | ---: | ---: |")
    grand: dict[str, list[int]] = {}
    for server, report, pairs in comparison:
        flagged_tools = {tool for pair in pairs for tool in pair}
        for r in report["retrievers"]:
            inside = [o for o in r["outcomes"] if o["tool"] in flagged_tools]
            outside = [o for o in r["outcomes"] if o["tool"] not in flagged_tools]
            hit_in = sum(o["rank"] == 1 for o in inside)
            hit_out = sum(o["rank"] == 1 for o in outside)
            counts = grand.setdefault(r["name"], [0, 0, 0, 0])
            counts[0] += hit_in
            counts[1] += len(inside)
            counts[2] += hit_out
            counts[3] += len(outside)
            confused = {frozenset({c["expected"]["tool"], c["chosen"]["tool"]})
                        for c in r["confusions"]}
            caught = (f"{len(confused & set(pairs))}/{len(confused)}"
                      if r["name"] == "bm25" else "")
            print(f"| {server} | {len(pairs)} | {r['name']} | {_rate(hit_in, len(inside))} | "
                  f"{_rate(hit_out, len(outside))} | {caught} |")
    for name, (hit_in, n_in, hit_out, n_out) in grand.items():
        print(f"| all | | {name} | {_rate(hit_in, n_in)} | {_rate(hit_out, n_out)} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
