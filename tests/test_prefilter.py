"""The literal prefilter skips only searches that could not match.

A pattern's required literals are read from its parse tree; the index built from them must
name every pattern that matches a text (it may name more).  Checked on every pattern option of
the built-in packs against the fixtures and, where it is here, the shared corpus.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from mcplint import regex_cache
from mcplint.checks import _prefilter
from mcplint.checks._prefilter import LiteralIndex, required
from mcplint.checks._text import compile_patterns, first_match
from mcplint.engine.packs import load_packs
from mcplint.engine.registry import builtin_checks

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"


@pytest.mark.parametrize(("pattern", "literals"), [
    (r"\b(fails?|raises?)\b", {"fail", "fails", "raise", "raises"}),
    # sre factors the common prefix out of max|maximum; the product puts it back.
    (r"\b(max|maximum) \w", {"max ", "maximum "}),
    (r"\bread[- ]only\b", {"read-only", "read only"}),
    (r"\brequires? (the |a )?(access|admin\w*)",
     {"require ", "requires ", "require the ", "requires the ", "require a ", "requires a "}),
    (r"(?i)DELETE\s+FROM", {"delete"}),
    (r"\d+ (items|rows)", {" items", " rows"}),
    (r"^[a-z]+$", None),  # nothing named: always searched
    (r"(a|\w+)x?", None),  # one branch names nothing
    (r"caf\u00e9", None),  # non-ASCII literal: folding is not str.lower's
])
def test_required_literals(pattern: str, literals: set[str] | None) -> None:
    found = required(re.compile(pattern, re.IGNORECASE))
    assert found == (frozenset(literals) if literals is not None else None)


def _pack_patterns() -> list[str]:
    """Every regular expression in a built-in rule's options."""
    patterns: list[str] = []

    def walk(value: Any, key: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str) and ("pattern" in key or "famil" in key
                                         or key.endswith(("-names", "-descriptions"))):
            patterns.append(value)

    for rule in load_packs(builtin_checks()).values():
        walk(dict(rule.options), "")
    return [p for p in patterns if _compiles(p)]


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern, re.IGNORECASE)
    except re.error:
        return False
    return True


def _texts() -> list[str]:
    texts: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and len(value) > 3:
            texts.append(value)

    files = sorted((ROOT / "fixtures").rglob("*.json"))
    files += sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []
    for path in files:
        try:
            walk(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, UnicodeDecodeError):
            continue
    return texts


def test_index_names_every_pattern_that_matches() -> None:
    patterns = [re.compile(p, re.IGNORECASE) for p in _pack_patterns()]
    assert len(patterns) > 100  # the packs' pattern options were all found
    index = LiteralIndex([required(p) for p in patterns])
    filtered = 0
    texts = _texts()
    # Mixed-case variants of real texts reach the case-folding paths too.
    rng = random.Random(7)
    texts += [t.upper() if rng.random() < 0.5 else t.title() for t in rng.sample(texts, 300)]
    for text in texts:
        candidates = set(index.candidates(text))
        filtered += len(patterns) - len(candidates)
        matching = {i for i, p in enumerate(patterns) if p.search(text)}
        assert matching <= candidates, (text[:80], [patterns[i].pattern for i in
                                                     matching - candidates])
    # The index must actually skip searches, or it is only overhead.
    assert filtered > len(texts) * len(patterns) // 2


def test_first_match_is_the_first_pattern_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    patterns = compile_patterns("t", [r"\bzeta\b", r"\balpha\b", r"\b\d+ rows\b"])
    text = "alpha then 5 rows then zeta"
    # The first pattern in the list that matches wins, not the leftmost match.
    assert first_match(patterns, text).group() == "zeta"  # type: ignore[union-attr]
    assert first_match(patterns, "only beta") is None
    assert first_match(patterns, "ALPHA") .group() == "ALPHA"  # type: ignore[union-attr]


def test_patterns_compile_when_first_searched(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    from mcplint.checks import _text

    sources = [r"\bzeta\b", r"\balpha\b", r"\b\d+ rows\b"]
    _fresh_memo(monkeypatch, tmp_path)
    _text._compile.cache_clear()
    compiled: list[str] = []
    original = regex_cache.compile

    def counting(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return original(pattern, flags)

    monkeypatch.setattr(regex_cache, "compile", counting)
    try:
        # A first run: each pattern is compiled once, to check it, and kept for the searches.
        assert [p.pattern for p in compile_patterns("t", sources)] == sources
        assert compiled == sources
        compiled.clear()
        _text._compile.cache_clear()
        patterns = compile_patterns("t", sources)
        assert compiled == []  # known good from the memo: nothing compiled up front
        assert first_match(patterns, "5 rows") .group() == "5 rows"  # type: ignore[union-attr]
        # Only the pattern the prefilter named was compiled; iterating compiles the rest.
        assert compiled == [sources[2]]
        assert [p.pattern for p in patterns] == sources
        assert compiled == [sources[2], sources[0], sources[1]]
        # A pattern no run has seen is compiled at once, so a bad one names its option.
        with pytest.raises(ValueError, match=r"^u: '\(open' is not a regular expression"):
            compile_patterns("u", ["(open"])
    finally:
        _text._compile.cache_clear()


def test_index_without_the_automaton(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_prefilter, "ahocorasick", None)
    index = LiteralIndex([frozenset({"fail", "fails"}), None, frozenset({"rows"})])
    assert index.candidates("It FAILS on 5 rows") == [0, 1, 2]
    assert index.candidates("nothing here") == [1]
    # Non-ASCII text is never filtered: the long s folds onto "s" in a case-blind search.
    assert index.candidates("5 row\u017f") == [0, 1, 2]


def test_findings_are_the_same_without_the_prefilter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine with the index and the engine that searches every pattern agree, finding for
    finding, on every fixture and (where it is here) the whole shared corpus."""
    from mcplint.checks import _text
    from mcplint.engine.linter import Selection
    from mcplint.run import run

    targets = [str(ROOT / "fixtures" / "rules"), str(ROOT / "fixtures" / "hostile")]
    if CORPUS.is_dir():
        targets.append(str(CORPUS))
    selection = Selection(select=("ALL",))
    with_index = run(targets, selection).findings
    monkeypatch.setattr(_text, "remembered", lambda pattern, flags: (None, False))
    monkeypatch.setattr(_text, "required_by", lambda pattern, flags: None)
    _text._compile.cache_clear()
    try:
        without = run(targets, selection).findings
    finally:
        _text._compile.cache_clear()
    assert len(with_index) > 1000
    assert with_index == without


def _fresh_memo(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setattr(_prefilter, "_MEMO", None)
    _prefilter._required.cache_clear()


def test_requirements_are_kept_between_runs(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    pattern = re.compile(r"\b(fails?|raises?)\b", re.IGNORECASE)
    _fresh_memo(monkeypatch, tmp_path)
    first = required(pattern)
    _prefilter.save_memo()
    (stored,) = (tmp_path / "mcplint").glob("literals-*.json")
    assert json.loads(stored.read_text())[f"{pattern.flags}\0{pattern.pattern}"] == sorted(first)
    # A later run answers from the file, without reading the parse tree again.
    _fresh_memo(monkeypatch, tmp_path)
    monkeypatch.setattr(_prefilter, "_parse", lambda *args: pytest.fail("parsed again"))
    assert required(pattern) == first


def test_a_broken_memo_is_ignored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _fresh_memo(monkeypatch, tmp_path)
    _prefilter._memo()
    path = _prefilter._memo().path
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    _fresh_memo(monkeypatch, tmp_path)
    assert required(re.compile(r"\bdelete\b", re.IGNORECASE)) == {"delete"}


def test_the_memo_is_named_for_the_interpreter(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    # Another Python parses patterns its own way: it must not read this one's answers.
    _fresh_memo(monkeypatch, tmp_path)
    here = _prefilter._memo().path
    _fresh_memo(monkeypatch, tmp_path)
    monkeypatch.setattr(sys, "version", "3.99.0 (other)")
    assert _prefilter._memo().path != here
