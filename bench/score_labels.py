#!/usr/bin/env python3
"""Score mcplint's findings against the hand-labelled development set.

Lints every manifest in the corpus with the built-in rules, turns the findings of the rules in
``CATEGORIES`` into a predictions file in the format of ``labels/score.py`` and runs the scorer:

    python3 bench/score_labels.py                       # ../shared/corpus, writes /tmp/...
    python3 bench/score_labels.py --out pred.json --show NAMEPAIR
    python3 bench/score_labels.py --no-score            # only write predictions, print the command

The server of a finding is the manifest's file stem (``real/atlassian.json`` → ``atlassian``),
as in the labels.  Findings of rules not in the table are ignored; rules in the table that are not
(yet) defined are skipped, so the table can name rule families before they exist.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcplint.config import Config, parse_config  # noqa: E402
from mcplint.engine.linter import Linter, Selection  # noqa: E402
from mcplint.findings import Finding  # noqa: E402
from mcplint.loaders.files import Source, load  # noqa: E402

# How a rule's finding reads as a label category.  A tool category is a plain string; a pair
# category is marked "pair:"; a parameter category is "param:" and gets the parameter's leaf name
# (``CLOSEDSET:<param>``).  A code absent from the packs is ignored, so codes planned for rule
# families still being written can be listed already.
CATEGORIES: dict[str, tuple[str, ...]] = {
    "NAME001": ("pair:NAMEPAIR",),
    "DESC001": ("VAGUE",),
    "DESC002": ("NORETURN",),
    "DESC003": ("NOGUIDANCE",),
    "DESC004": ("pair:OVERLAP",),
    "DESC005": ("NOLIMITS",),
    "PARAM001": ("param:CLOSEDSET",),
    "PARAM002": ("param:OPAQUE",),
    "PARAM003": ("param:OPAQUE",),
    # A destructive tool writes too, so its finding answers both questions.
    "SAFE001": ("DESTRUCTIVE_UNGUARDED", "UNGUARDED_WRITE"),
    "SAFE002": ("UNGUARDED_WRITE",),
}

Predictions = dict[str, dict]


def _param_leaf(pointer: str) -> str | None:
    """The parameter a pointer is about: the part after the last ``properties``."""
    parts = pointer.split("/")
    after = [i + 1 for i, part in enumerate(parts[:-1]) if part == "properties"]
    return parts[after[-1]].replace("~1", "/").replace("~0", "~") if after else None


def _add(pred: Predictions, server: str, finding: Finding, category: str) -> None:
    kind, _, name = category.rpartition(":")
    if kind == "pair":
        if not finding.tool or not finding.related:
            return
        for other in finding.related:
            pair = sorted((finding.tool, other.tool))
            pairs = pred["pairs"].setdefault(server, {}).setdefault(name, [])
            if pair not in pairs and pair[0] != pair[1]:
                pairs.append(pair)
        return
    if not finding.tool:
        return
    label = name
    if kind == "param":
        leaf = _param_leaf(finding.pointer)
        if leaf is None:
            return
        label = f"{name}:{leaf}"
    labels = pred["tools"].setdefault(f"{server}/{finding.tool}", [])
    if label not in labels:
        labels.append(label)


def predict(corpus: Path, categories: dict[str, tuple[str, ...]] = CATEGORIES,
            progress: Callable[[str], None] | None = None,
            config: Config | None = None) -> Predictions:
    """Lint every manifest in ``corpus`` and collect the findings as label predictions."""
    config = config or Config(path=None, root=ROOT)
    everything = Linter(config, Selection())
    codes = tuple(code for code in categories if code in everything.rules)
    pred: Predictions = {"tools": {}, "pairs": {},
                         "meta": {"rules": list(codes), "corpus": str(corpus)}}
    if not codes:
        return pred
    linter = Linter(config, Selection(select=codes))
    for path in sorted(corpus.glob("*.json")):
        loaded = load(Source(str(path)))
        if loaded.manifest is None:
            if progress:
                progress(f"skipped {path.name}: {loaded.errors or loaded.skipped}")
            continue
        server = path.stem
        for finding in linter.lint(loaded.manifest).findings:
            for category in categories.get(finding.code, ()):
                _add(pred, server, finding, category)
    for by_category in pred["pairs"].values():
        for pairs in by_category.values():
            pairs.sort()
    return pred


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_corpus = ROOT.parent / "shared" / "corpus"
    parser.add_argument("--corpus", type=Path, default=default_corpus,
                        help="the corpus folder, holding real/ and labels/ "
                             "(default: ../shared/corpus from the repository root)")
    parser.add_argument("--out", type=Path,
                        default=Path(tempfile.gettempdir()) / "mcplint-predictions.json",
                        help="where to write the predictions (default %(default)s)")
    parser.add_argument("--config", type=Path,
                        help="an mcplint config file to lint with (default: built-in defaults), "
                             "e.g. to measure a change of rule options")
    parser.add_argument("--show", default="",
                        help="categories whose misses and false alarms to list, e.g. NAMEPAIR")
    parser.add_argument("--no-score", action="store_true",
                        help="write the predictions and print the scoring command only")
    args = parser.parse_args(argv)
    corpus: Path = args.corpus
    real = corpus / "real" if (corpus / "real").is_dir() else corpus
    labels = corpus / "labels" if (corpus / "labels").is_dir() else real.parent / "labels"
    config = parse_config(args.config) if args.config else None
    pred = predict(real, progress=lambda text: print(text, file=sys.stderr), config=config)
    args.out.write_text(json.dumps(pred, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    command = [sys.executable, str(labels / "score.py"), str(args.out)]
    if args.show:
        command += ["--show", args.show]
    print("predictions:", args.out, file=sys.stderr)
    print("score with:", " ".join(command), file=sys.stderr, flush=True)
    if args.no_score:
        return 0
    return subprocess.call(command)


if __name__ == "__main__":
    sys.exit(main())
