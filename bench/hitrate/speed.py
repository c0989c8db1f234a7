#!/usr/bin/env python3
"""Time ``mcplint hitrate`` on a generated manifest with many generated intents.

    python3 bench/hitrate/speed.py                     # 500 tools, 1,000 intents
    python3 bench/hitrate/speed.py --tools 2000 --intents 4000

The manifest comes from ``bench/generate.py`` (seeded, from the real corpus); each intent is a
request made of a few words of one tool's description, shuffled, with filler words, and seeded
too, so every run times the same work. The whole command is timed as a user runs it (a fresh
process: start-up, loading, indexing, all three retrievers, the JSON report), best of --repeat.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILLER = ["please", "can you", "I want to", "help me", "quickly", "for my project", "now"]


def intents(manifest: Path, count: int, seed: int) -> list[dict[str, str]]:
    tools = json.loads(manifest.read_text())["tools"]
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        tool = rng.choice(tools)
        words = re.findall(r"[A-Za-z]{3,}", tool.get("description") or tool["name"])
        picked = rng.sample(words, min(len(words), rng.randint(3, 7))) or [tool["name"]]
        request = " ".join([rng.choice(FILLER), *picked])
        made.append({"request": request, "tool": tool["name"]})
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=500)
    parser.add_argument("--intents", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mcplint-hitrate-") as tmp:
        out = Path(tmp)
        subprocess.run([sys.executable, str(ROOT / "bench" / "generate.py"), str(out),
                        "--sizes", str(args.tools)], check=True, stdout=subprocess.DEVNULL)
        manifest = out / f"tools-{args.tools}.json"
        data = json.loads(manifest.read_text())
        # Generated gateways may repeat a name; keep the first tool of each name.
        seen: set[str] = set()
        data["tools"] = [t for t in data["tools"] if not (t["name"] in seen or seen.add(t["name"]))]
        manifest.write_text(json.dumps(data))
        file = out / "intents.json"
        file.write_text(json.dumps(intents(manifest, args.intents, args.seed)))
        command = [sys.executable, "-c", "from mcplint.cli import main; main()", "hitrate",
                   str(manifest), "--intents", str(file), "--format", "json"]
        times = []
        report = {}
        for _ in range(args.repeat):
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
            times.append(time.perf_counter() - start)
            if done.returncode not in (0, 1):
                print(done.stderr, file=sys.stderr)
                return 2
            report = json.loads(done.stdout)
    rates = ", ".join(f"{r['name']} top-1 {r['top1']:.1%}" for r in report["retrievers"])
    print(f"{len(data['tools'])} tools, {args.intents} intents, 3 retrievers: "
          f"best {min(times):.2f} s of {args.repeat} (all: "
          f"{', '.join(f'{t:.2f}' for t in times)}); {rates}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
