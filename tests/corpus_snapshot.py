"""The findings every rule gives on the shared corpus, as a digest per manifest.

A change to the engine (the one-pass analysis, lazy findings, a faster loader) must leave every
finding as it was; a change to a rule changes some on purpose.  The test in ``test_corpus.py``
compares the corpus with ``corpus_findings.json``; after a deliberate rule change, rewrite it
and list the change in the commit:

    python3 tests/corpus_snapshot.py --write

Each manifest keeps a digest of its findings (every field: code, severity, message, pointer,
line, column, related locations, suggestion, fix) and a count per code, so a failure says
which rules moved, not only that something did.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
SNAPSHOT = Path(__file__).resolve().parent / "corpus_findings.json"
sys.path.insert(0, str(ROOT))

from mcplint.config import Config  # noqa: E402
from mcplint.engine.linter import Linter, Selection  # noqa: E402
from mcplint.loaders.files import Source, load  # noqa: E402


def linter() -> Linter:
    # Every rule, including those off by default.
    return Linter(Config(path=None, root=ROOT), Selection(select=("ALL",)))


def digest(path: Path, using: Linter) -> dict[str, Any]:
    """One manifest's findings: their digest and how many each code gave."""
    loaded = load(Source(str(path)))
    assert loaded.manifest is not None, loaded.errors
    findings = using.lint(loaded.manifest).findings
    # The file's path differs between clones; its name does not.
    lines = sorted(repr(dataclasses.replace(f, file=path.name)) for f in findings)
    return {"sha256": hashlib.sha256("\n".join(lines).encode()).hexdigest(),
            "counts": dict(sorted(Counter(f.code for f in findings).items()))}


def snapshot(manifests: list[Path]) -> dict[str, dict[str, Any]]:
    using = linter()
    return {path.name: digest(path, using) for path in manifests}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {SNAPSHOT.name}")
    args = parser.parse_args()
    manifests = sorted(CORPUS.glob("*.json"))
    if not manifests:
        print(f"the shared corpus is not here ({CORPUS})", file=sys.stderr)
        return 2
    taken = snapshot(manifests)
    if args.write:
        SNAPSHOT.write_text(json.dumps(taken, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {SNAPSHOT} ({len(taken)} manifests, "
              f"{sum(sum(d['counts'].values()) for d in taken.values())} findings)")
        return 0
    old = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    moved = [name for name in taken if taken[name] != old.get(name)]
    for name in moved:
        print(name, old.get(name, {}).get("counts"), "->", taken[name]["counts"])
    return 1 if moved else 0


if __name__ == "__main__":
    raise SystemExit(main())
