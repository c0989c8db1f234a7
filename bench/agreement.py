#!/usr/bin/env python3
"""How far two people labelling the same servers agree: the ceiling for a rule's score.

    python3 bench/agreement.py                        # bench/agree against the dev labels
    python3 bench/agreement.py --second bench/agree --first ../shared/corpus/labels

The second labeller's items are scored as if they were a rule's predictions against the first
labeller's, with the labels' own ``score.py``, on the servers (and sampled tools) both labelled.
A category where two careful labellers reach F1 0.76 cannot be asked of a rule at 0.9; one where
they agree at 0.98 and the rules score 0.7 is a gap in the rules, not in the labels.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from score_labels import _as_sets, load_scorer, restrict  # noqa: E402


def as_predictions(gold: Any) -> dict[str, Any]:
    """A labelled set's items in the predictions format of ``score.py``."""
    pred: dict[str, Any] = {"tools": {}, "pairs": {}}
    for category, items in gold.items.items():
        for item in sorted(items, key=str):
            if isinstance(item, tuple):  # a pair: (server, a, b)
                server, a, b = item
                pred["pairs"].setdefault(server, {}).setdefault(category, []).append([a, b])
                continue
            server, tool, *param = str(item).split("/", 2)
            label = f"{category}:{param[0]}" if param else category
            pred["tools"].setdefault(f"{server}/{tool}", []).append(label)
    return pred


def main(argv: list[str] | None = None) -> int:
    corpus = ROOT.parent / "shared" / "corpus"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=Path, default=corpus / "labels",
                        help="the labels taken as gold (default: the shared dev labels)")
    parser.add_argument("--second", type=Path, default=ROOT / "bench" / "agree",
                        help="the labels scored against them (default: bench/agree)")
    parser.add_argument("--real", type=Path, default=corpus / "real",
                        help="the manifests (default: ../shared/corpus/real)")
    args = parser.parse_args(argv)
    scorer = load_scorer(corpus / "labels")
    second = scorer.load_gold(str(args.second), str(args.real))
    first = scorer.load_gold(str(args.first), str(args.real))
    both = set(first.servers) & set(second.servers)
    first = restrict(first, both)
    # Only the tools both labelled count for the tool and parameter categories.
    first.labelled &= second.labelled
    first.items = {c: {i for i in v if isinstance(i, tuple) or
                       "/".join(str(i).split("/")[:2]) in first.labelled}
                   for c, v in first.items.items()}
    sets = _as_sets(as_predictions(restrict(second, both)), first, scorer)
    print(f"## {args.second.name} scored against {args.first.name}: {len(both)} servers, "
          f"{len(first.labelled)} tools labelled by both\n")
    print(scorer.detail_table(scorer.score(sets, first), first))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
