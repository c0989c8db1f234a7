"""Literal prefilters: the words a regular expression cannot match without.

Most of a rule's patterns match none of the texts they are tried on, and a regex search in
Python walks the whole text trying every branch at every position.  Most patterns name words
(``\\b(fails?|raises?)\\b``): a text that contains none of them cannot match, and ``in`` on a
lower-cased string says so in C at memchr speed.  ``required`` reads the parsed pattern and
returns such a set of literal strings, or None where it cannot prove one (a pattern that starts
with a character class, say).  It only ever skips searches that would have failed, so findings
do not change; a pattern it cannot read is simply always searched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

try:
    import ahocorasick
except ImportError:  # pragma: no cover - the fallback is tested by forcing it
    ahocorasick = None

try:  # Python 3.11+; the modules are private, so any surprise falls back to no prefilter.
    from re import _constants as _sre  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre
    import sre_parse as _sre_parse

BRANCH, CATEGORY, CATEGORY_DIGIT = _sre.BRANCH, _sre.CATEGORY, _sre.CATEGORY_DIGIT
IN, LITERAL, SUBPATTERN = _sre.IN, _sre.LITERAL, _sre.SUBPATTERN
MAX_REPEAT, MIN_REPEAT = _sre.MAX_REPEAT, _sre.MIN_REPEAT
POSSESSIVE_REPEAT = getattr(_sre, "POSSESSIVE_REPEAT", MAX_REPEAT)  # 3.11 added it

Literals = frozenset[str]

_DIGITS = frozenset("0123456789")


def _better(a: Literals | None, b: Literals | None) -> Literals | None:
    """The more selective of two requirements: the one whose shortest literal is longer."""
    if a is None or not a:
        return b
    if b is None or not b:
        return a
    return a if min(map(len, a)) >= min(map(len, b)) else b


# Exact sets bigger than this are not worth their ``in`` checks.
_MAX_EXACT = 64


def _product(left: Literals, right: Literals) -> Literals | None:
    if len(left) * len(right) > _MAX_EXACT:
        return None
    return frozenset(a + b for a in left for b in right)


def _exact(op: Any, arg: Any) -> Literals | None:
    """Every string one item matches, where that is a small finite set of literals."""
    if op is LITERAL:
        return frozenset({chr(arg).lower()})
    if op is SUBPATTERN:
        return _exact_sequence(arg[-1])
    if op is BRANCH:
        return union(_exact_sequence(alternative) for alternative in arg[1])
    if op is IN:
        if all(member is LITERAL for member, _ in arg):
            return frozenset(chr(code).lower() for _, code in arg)  # [sS], or a|b as sre has it
        if arg == [(CATEGORY, CATEGORY_DIGIT)]:
            return _DIGITS  # \d: in ASCII text, one of ten characters
    if op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT) and arg[0] == 0 and arg[1] == 1:
        inner = _exact_sequence(arg[2])
        return None if inner is None else inner | {""}
    return None


def _exact_sequence(items: Iterable[tuple[Any, Any]]) -> Literals | None:
    result: Literals | None = frozenset({""})
    for op, arg in items:
        found = _exact(op, arg)
        if found is None or result is None:
            return None
        result = _product(result, found)
    return result


def _sequence(items: Iterable[tuple[Any, Any]]) -> Literals | None:
    """Strings one of which every match of the sequence contains (None: no such set known).

    Runs of exactly-known items (``fail`` + ``s?``) are multiplied out, as sre factors common
    prefixes out of alternations (``max|maximum`` parses as ``ma`` + ``(x|ximum)``).
    """
    best: Literals | None = None
    run: Literals = frozenset({""})
    for op, arg in items:
        found = _exact(op, arg)
        if found is not None:
            product = _product(run, found)
            if product is not None:
                run = product
                continue
            best = _better(best, run)
            run = found
            continue
        best = _better(best, run)
        run = frozenset({""})
        if op is SUBPATTERN:
            best = _better(best, _sequence(arg[-1]))
        elif op is BRANCH:
            best = _better(best, _branch(arg[1]))
        elif op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT) and arg[0] >= 1:
            best = _better(best, _sequence(arg[2]))
        # Anything else (classes, anchors, lookarounds, back-references) requires nothing
        # that can be named, and ends the literal run.
    return _better(best, run)


def _branch(alternatives: Iterable[Any]) -> Literals | None:
    return union(_sequence(alternative) for alternative in alternatives)


def _parse(pattern: str, flags: int) -> Literals | None:
    try:
        found = _sequence(_sre_parse.parse(pattern, flags))
    except Exception:  # a parser this module does not know: search everything
        return None
    if not found or "" in found or not all(s.isascii() for s in found):
        return None
    return found


@lru_cache(maxsize=1024)
def _required(pattern: str, flags: int) -> Literals | None:
    memo = _memo()
    key = f"{flags}\0{pattern}"
    if key in memo.known:
        stored = memo.known[key]
        return None if stored is None else frozenset(stored)
    found = _parse(pattern, flags)
    memo.known[key] = None if found is None else sorted(found)
    memo.changed = True
    return found


def remembered(pattern: str, flags: int) -> tuple[Literals | None, bool]:
    """What ``required_by`` said of this source and these flags on an earlier run, and
    whether it was asked: the patterns asked about had compiled, so a remembered one need not
    be compiled to be known good."""
    memo = _memo()
    key = f"{flags}\0{pattern}"
    if key not in memo.known:
        return None, False
    stored = memo.known[key]
    return (None if stored is None else frozenset(stored)), True


def required_by(pattern: str, flags: int) -> Literals | None:
    """``required`` for a pattern's source and the flags it is (or will be) compiled with."""
    return _required(pattern, flags)


def required(pattern: re.Pattern[str]) -> Literals | None:
    """Lower-case strings one of which every match of ``pattern`` contains, or None."""
    return _required(pattern.pattern, pattern.flags)


# Reading a pattern's parse tree costs about as much as compiling it: a tenth of a small lint
# for the built-in packs' few hundred patterns.  The answers are kept between runs in the user's
# cache directory, in a file named for this module's own source and the Python version (whose
# parser builds the tree), so a changed extraction or interpreter never reads stale answers.
# Like the pack cache, it is only an optimisation: any trouble with the file is ignored.

@dataclass
class _Memo:
    path: Path | None
    known: dict[str, list[str] | None] = field(default_factory=dict)
    changed: bool = False


_MEMO: _Memo | None = None


def _memo() -> _Memo:
    global _MEMO
    if _MEMO is None:
        _MEMO = _load_memo()
    return _MEMO


def _load_memo() -> _Memo:
    from mcplint.engine.pack_cache import keyed_file

    path = keyed_file("literals", __file__, ".json")
    if path is None:
        return _Memo(None)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return _Memo(path)
    if not isinstance(data, dict):
        return _Memo(path)
    known = {k: v for k, v in data.items() if isinstance(k, str)
             and (v is None or (isinstance(v, list) and all(isinstance(x, str) for x in v)))}
    return _Memo(path, known)


def save_memo() -> None:
    """Store the requirements read in this run that the cache did not hold yet."""
    memo = _MEMO
    if memo is None or not memo.changed or memo.path is None:
        return
    from mcplint.engine.pack_cache import store_json

    if store_json(memo.path, memo.known, prefix=".literals-"):
        memo.changed = False


def union(sets: Iterable[Literals | None]) -> Literals | None:
    """One requirement for an alternation of patterns: None if any of them has none."""
    joined: set[str] = set()
    for found in sets:
        if found is None:
            return None
        joined |= found
    return frozenset(joined)


class LiteralIndex:
    """Which of a list of patterns could match a text, found in one pass over it.

    Each pattern's required literals go into one Aho–Corasick automaton (``pyahocorasick``),
    so a text is read once for all of them, however many words the patterns name; a pattern
    with no known requirement is always a candidate.  Without the library, each literal is
    looked for with ``in``: the same answer, slower.
    """

    def __init__(self, requirements: Sequence[Literals | None]) -> None:
        self.size = len(requirements)
        self.always = frozenset(i for i, need in enumerate(requirements) if need is None)
        owners: dict[str, set[int]] = {}
        for i, need in enumerate(requirements):
            for literal in need or ():
                owners.setdefault(literal, set()).add(i)
        self._owners = {literal: frozenset(ids) for literal, ids in owners.items()}
        self._automaton: Any = None
        if ahocorasick is not None and self._owners:
            automaton = ahocorasick.Automaton()
            for literal, ids in self._owners.items():
                automaton.add_word(literal, ids)
            automaton.make_automaton()
            self._automaton = automaton

    def candidates(self, text: str) -> list[int]:
        """Indices, in order, of the patterns that could match ``text``."""
        if not text.isascii():
            return list(range(self.size))  # see possible(): folding reaches past str.lower
        lowered = text.lower()
        found = set(self.always)
        if self._automaton is not None:
            for _, ids in self._automaton.iter(lowered):
                found |= ids
        else:
            for literal, ids in self._owners.items():
                if literal in lowered:
                    found |= ids
        return sorted(found)
