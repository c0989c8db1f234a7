#!/usr/bin/env python3
"""Score mcplint's findings against the hand-labelled development set.

Lints every manifest in the corpus with the built-in rules, turns the findings of the rules in
``CATEGORIES`` into a predictions file in the format of ``labels/score.py`` and scores it:

    python3 bench/score_labels.py                       # in-sample, every labelled server
    python3 bench/score_labels.py --cv 4                # also out-of-fold, folds by server
    python3 bench/score_labels.py --servers dev --show NAMEPAIR
    python3 bench/score_labels.py --gold bench/blind    # another labelled set, same rubric
    python3 bench/score_labels.py --no-score            # only write the predictions

The server of a finding is the manifest's file stem (``real/atlassian.json`` → ``atlassian``),
as in the labels.  Findings of rules not in the table are ignored; rules in the table that are not
(yet) defined are skipped, so the table can name rule families before they exist.

Three figures, and why each exists:

* **in-sample**: the shipped defaults scored on every labelled server.  The rules were written
  with these servers in view, so it flatters them.
* **out-of-fold** (``--cv K``): the labelled servers are split into K folds; for each fold, every
  knob in ``bench/tuning.toml`` (thresholds, and alternative word lists) is set to the value that
  scores best on the *other* folds, and the fold is scored with those settings.  It says how much
  of the in-sample figure is the choice of thresholds fitted to these servers.
* **lockbox** (``--servers lockbox``): the servers in ``bench/lockbox.json`` were set aside before
  a round of rule work and their misses were not read during it; ``--show`` refuses them.  It is
  the closest thing to an unseen server this set has.  ``--gold bench/blind`` and
  ``--gold bench/blind2`` score labelled sets made blind to the rules (see their READMEs);
  ``--gold bench/blind3`` (servers outside the corpus, ``--corpus`` a folder of
  ``bench/fresh_servers.py --batch 2`` snapshots) lets ``--show`` read only its ``read`` half.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import random
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

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
    # A tool with no description at all says nothing, so it states no purpose, return,
    # guidance or limit; the description rules leave it to SPEC004 rather than report it five
    # times.
    "SPEC004": ("VAGUE", "NORETURN", "NOGUIDANCE", "NOLIMITS"),
}

LOCKBOX = ROOT / "bench" / "lockbox.json"
# Hand labels of servers no rule was tuned on, made blind to mcplint's output (see its README).
BLIND = ROOT / "bench" / "blind"
# Every blind set: --show refuses them all.
BLIND_SETS = (BLIND, ROOT / "bench" / "blind2")
TUNING = ROOT / "bench" / "tuning.toml"

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


def predict(corpus: Path, categories: Mapping[str, tuple[str, ...]] = CATEGORIES,
            progress: Callable[[str], None] | None = None,
            config: Config | None = None,
            servers: Iterable[str] | None = None) -> Predictions:
    """Lint every manifest in ``corpus`` (or only ``servers``) and collect the findings as
    label predictions."""
    config = config or Config(path=None, root=ROOT)
    everything = Linter(config, Selection())
    codes = tuple(code for code in categories if code in everything.rules)
    pred: Predictions = {"tools": {}, "pairs": {},
                         "meta": {"rules": list(codes), "corpus": str(corpus)}}
    if not codes:
        return pred
    linter = Linter(config, Selection(select=codes))
    wanted = set(servers) if servers is not None else None
    for path in sorted(corpus.glob("*.json")):
        server = path.stem
        if wanted is not None and server not in wanted:
            continue
        loaded = load(Source(str(path)))
        if loaded.manifest is None:
            if progress:
                progress(f"skipped {path.name}: {loaded.errors or loaded.skipped}")
            continue
        for finding in linter.lint(loaded.manifest).findings:
            for category in categories.get(finding.code, ()):
                _add(pred, server, finding, category)
    for by_category in pred["pairs"].values():
        for pairs in by_category.values():
            pairs.sort()
    return pred


# --- scoring -----------------------------------------------------------------------------------

def held_servers(gold_dir: Path) -> set[str]:
    """The servers of a labelled set whose misses must not be read: its split.json's
    ``held`` half (bench/blind3 is read on one half for classes and measured on the other)."""
    split = gold_dir / "split.json"
    if not split.is_file():
        return set()
    return set(json.loads(split.read_text(encoding="utf-8")).get("held", ()))


def load_scorer(labels: Path) -> ModuleType:
    """The labelled set's own ``score.py`` (from the shared corpus), imported as a module."""
    spec = importlib.util.spec_from_file_location("labels_score", labels / "score.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"no scorer at {labels / 'score.py'}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["labels_score"] = module  # its dataclasses look the module up while defined
    spec.loader.exec_module(module)
    return module


def _server_of(item: Any) -> str:
    return item[0] if isinstance(item, tuple) else str(item).split("/", 1)[0]


def restrict(gold: Any, servers: set[str]) -> Any:
    """The gold set cut down to some servers (items, universes and labelled tools alike)."""
    gold.servers = [s for s in gold.servers if s in servers]
    gold.labelled = {k for k in gold.labelled if _server_of(k) in servers}
    gold.items = {c: {i for i in v if _server_of(i) in servers} for c, v in gold.items.items()}
    gold.candidates = {c: {i for i in v if _server_of(i) in servers}
                       for c, v in gold.candidates.items()}
    return gold


def pair_scope(gold_dir: Path) -> dict[str, frozenset[str]]:
    """Servers whose pairs were labelled only where one of the two tools is a sampled one (a
    labelled set's ``pair-scope.json``, ``{"sampled-only": [server, ...]}``), each with its
    sampled tools (``sample.jsonl``).  A pair of two unsampled tools there was never judged: it
    is neither a miss nor a false alarm."""
    path = gold_dir / "pair-scope.json"
    if not path.is_file():
        return {}
    servers = set(json.loads(path.read_text(encoding="utf-8"))["sampled-only"])
    sampled: dict[str, set[str]] = {s: set() for s in servers}
    for line in (gold_dir / "sample.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if row["server"] in sampled:
                sampled[row["server"]].add(row["tool"])
    return {s: frozenset(tools) for s, tools in sampled.items()}


def _judged(item: Any, scope: Mapping[str, frozenset[str]]) -> bool:
    """Whether a labelled set judged this item: every tool and parameter item, and a pair
    unless its server's pairs were scoped to sampled tools and neither tool is one."""
    if not (isinstance(item, tuple) and len(item) == 3) or item[0] not in scope:
        return True
    return bool({item[1], item[2]} & scope[item[0]])


def scope_pairs(gold: Any, scope: Mapping[str, frozenset[str]]) -> Any:
    """The gold set without the pairs it never judged (see ``pair_scope``)."""
    gold.items = {c: {i for i in v if _judged(i, scope)} for c, v in gold.items.items()}
    gold.candidates = {c: {i for i in v if _judged(i, scope)}
                       for c, v in gold.candidates.items()}
    gold.pair_scope = dict(scope)
    return gold


def _as_sets(pred: Predictions, gold: Any, scorer: ModuleType) -> dict[str, set[Any]]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(pred, handle)
    try:
        sets: dict[str, set[Any]] = scorer.load_predictions(handle.name, gold,
                                                            warn=lambda m: None)
    finally:
        Path(handle.name).unlink()
    servers = set(gold.servers)
    scope = getattr(gold, "pair_scope", {})
    return {c: {i for i in items if _server_of(i) in servers and _judged(i, scope)}
            for c, items in sets.items()}


def lockbox() -> list[str]:
    data = json.loads(LOCKBOX.read_text(encoding="utf-8"))
    return list(data["servers"])


def server_set(name: str, gold: Any) -> set[str]:
    every = set(gold.servers)
    if name == "all":
        return every
    if name == "lockbox":
        return every & set(lockbox())
    if name == "dev":
        return every - set(lockbox())
    return {s.strip() for s in name.split(",") if s.strip()} & every


# --- cross-validation --------------------------------------------------------------------------

@dataclass(frozen=True)
class Knob:
    category: str
    rule: str
    option: str
    values: tuple[Any, ...]


def read_knobs(path: Path = TUNING) -> list[Knob]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [Knob(k["category"], k["rule"], k["option"], tuple(k["values"]))
            for k in data.get("knob", [])]


def folds(servers: Sequence[str], k: int, seed: int = 11) -> list[list[str]]:
    """Servers dealt into k folds at random (seeded), so each fold mixes large and small."""
    order = sorted(servers)
    random.Random(seed).shuffle(order)
    return [order[i::k] for i in range(k)]


def _settings(knobs: Sequence[Knob]) -> list[dict[str, dict[str, Any]]]:
    """Every combination of the knobs' values, as config rule tables."""
    combos = []
    for values in itertools.product(*(k.values for k in knobs)):
        table: dict[str, dict[str, Any]] = {}
        for knob, value in zip(knobs, values, strict=True):
            table.setdefault(knob.rule, {})[knob.option] = value
        combos.append(table)
    return combos


def _counts(pred: set[Any], gold: set[Any], servers: set[str]) -> tuple[int, int, int]:
    p = {i for i in pred if _server_of(i) in servers}
    g = {i for i in gold if _server_of(i) in servers}
    return len(p & g), len(p - g), len(g - p)


def _f1(tp: int, fp: int, fn: int) -> float:
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def cross_validate(real: Path, gold: Any, scorer: ModuleType, k: int,
                   knobs: Sequence[Knob], progress: Callable[[str], None]
                   ) -> tuple[dict[str, set[Any]], list[str]]:
    """Out-of-fold predictions for every category, and a line per fold and category saying
    which setting the other folds chose."""
    servers = list(gold.servers)
    parts = folds(servers, k)
    rules_of: dict[str, list[str]] = {}
    for code, categories in CATEGORIES.items():
        for category in categories:
            rules_of.setdefault(category.rpartition(":")[2], []).append(code)
    oof: dict[str, set[Any]] = {c: set() for c in scorer.CATEGORIES}
    notes: list[str] = []
    for category in scorer.CATEGORIES:
        own = [knob for knob in knobs if knob.category == category]
        codes = rules_of.get(category, [])
        wanted = {code: CATEGORIES[code] for code in codes}
        candidates = _settings(own) if own else [{}]
        predicted = []
        for table in candidates:
            config = Config(path=None, root=ROOT, rules=table)
            pred = predict(real, wanted, config=config, servers=servers)
            predicted.append(_as_sets(pred, gold, scorer)[category])
        for number, held in enumerate(parts):
            train = set(servers) - set(held)
            scores = [_f1(*_counts(p, gold.items[category], train)) for p in predicted]
            # Ties go to the earliest candidate: tuning.toml lists the shipped default first.
            best = max(range(len(candidates)), key=lambda i: (scores[i], -i))
            oof[category] |= {i for i in predicted[best] if _server_of(i) in set(held)}
            if own:
                chosen = ", ".join(f"{r}.{o}={v!r}" for r, t in candidates[best].items()
                                   for o, v in t.items())
                notes.append(f"fold {number + 1} {category}: {chosen} "
                             f"(train F1 {scores[best]:.2f})")
        progress(f"cross-validated {category} over {len(candidates)} setting(s)")
    return oof, notes


# --- command line ------------------------------------------------------------------------------

def _table(rows: Mapping[str, Mapping[str, Any]], categories: Sequence[str]) -> str:
    def cell(s: Mapping[str, Any]) -> str:
        def f(x: float | None) -> str:
            return "–" if x is None else f"{x:.2f}"
        return f"{f(s['f1'])} (P {f(s['precision'])}, R {f(s['recall'])})"
    names = list(rows)
    head = "| category | " + " | ".join(names) + " |"
    lines = [head, "|---|" + "--:|" * len(names)]
    for c in categories:
        lines.append(f"| {c} | " + " | ".join(cell(rows[n][c]) for n in names) + " |")
    lines.append("| **macro F1** | " + " | ".join(f"**{rows[n]['_macro_f1']:.3f}**"
                                                for n in names) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_corpus = ROOT.parent / "shared" / "corpus"
    parser.add_argument("--corpus", type=Path, default=default_corpus,
                        help="the corpus folder, holding real/ and labels/ "
                             "(default: ../shared/corpus from the repository root)")
    parser.add_argument("--gold", type=Path,
                        help="a labelled set to score against (a folder with servers.json, "
                             "labels-*.jsonl and pairs-*.jsonl; default: the corpus's labels/)")
    parser.add_argument("--servers", default="all",
                        help="which labelled servers to score: all, dev (all but the lockbox), "
                             "lockbox, or a comma-separated list")
    parser.add_argument("--cv", type=int, default=0, metavar="K",
                        help="also score out-of-fold with K folds by server, every knob of "
                             "bench/tuning.toml chosen on the other folds")
    parser.add_argument("--out", type=Path,
                        default=Path(tempfile.gettempdir()) / "mcplint-predictions.json",
                        help="where to write the predictions (default %(default)s)")
    parser.add_argument("--config", type=Path,
                        help="an mcplint config file to lint with (default: built-in defaults), "
                             "e.g. to measure a change of rule options")
    parser.add_argument("--show", default="",
                        help="categories whose misses and false alarms to list, e.g. NAMEPAIR "
                             "(never for lockbox servers)")
    parser.add_argument("--no-score", action="store_true",
                        help="write the predictions only")
    args = parser.parse_args(argv)
    corpus: Path = args.corpus
    real = corpus / "real" if (corpus / "real").is_dir() else corpus
    labels = corpus / "labels" if (corpus / "labels").is_dir() else real.parent / "labels"
    if not (labels / "score.py").is_file():
        # Servers outside the shared corpus (bench/blind3's, from bench/fresh_servers.py) are
        # scored by the corpus's own scorer, so every labelled set is counted the same way.
        labels = default_corpus / "labels"
    config = parse_config(args.config) if args.config else None
    progress: Callable[[str], None] = lambda text: print(text, file=sys.stderr)  # noqa: E731
    pred = predict(real, progress=progress, config=config)
    args.out.write_text(json.dumps(pred, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print("predictions:", args.out, file=sys.stderr)
    if args.no_score:
        return 0
    scorer = load_scorer(labels)
    gold_dir = args.gold or labels
    gold = scorer.load_gold(str(gold_dir), str(real))
    chosen = server_set(args.servers, gold)
    if not chosen:
        parser.error(f"--servers {args.servers}: no labelled server of {gold_dir} matches")
    gold = scope_pairs(restrict(gold, chosen), pair_scope(Path(gold_dir)))
    show = [c.strip().upper() for c in args.show.split(",") if c.strip()]
    if show and args.gold is None and chosen & set(lockbox()):
        parser.error("--show would list lockbox servers' items; use --servers dev")
    if show and args.gold is not None and Path(args.gold).resolve() in {
            b.resolve() for b in BLIND_SETS}:
        parser.error("--show would list the blind set's items, which would make it a tuning "
                     "set; score it without --show")
    held = held_servers(Path(gold_dir))
    if show and chosen & held:
        parser.error(f"--show would list the held-out half of {gold_dir}'s items "
                     f"({', '.join(sorted(chosen & held))}); choose --servers from its read "
                     "half (split.json)")
    sets = _as_sets(pred, gold, scorer)
    rows = {"in-sample": scorer.score(sets, gold)}
    notes: list[str] = []
    if args.cv:
        if args.cv < 2:
            parser.error("--cv needs at least 2 folds")
        oof, notes = cross_validate(real, gold, scorer, args.cv, read_knobs(), progress)
        rows[f"out-of-fold ({args.cv} folds)"] = scorer.score(oof, gold)
    print(f"## {gold_dir.name}: {len(gold.servers)} servers, {len(gold.labelled)} labelled "
          f"tools ({args.servers})\n")
    print(scorer.detail_table(rows["in-sample"], gold))
    if args.cv:
        print()
        print(_table(rows, scorer.CATEGORIES))
        print()
        print("\n".join(notes))
    if show:
        print(scorer.show_items(args.servers, sets, gold, show))
    return 0


if __name__ == "__main__":
    sys.exit(main())
