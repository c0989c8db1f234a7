"""Apply fixes to a file's text: pick the ones that do not collide, apply, re-lint, repeat.

Like Ruff, fixes are applied in rounds: two fixes that touch the same place (two members added
to one object) cannot both be applied from one lint's positions, so the second waits for the
next round, when it is recomputed from the new text.  Every round must still parse and must
differ from the last only by the members its fixes add; anything else is a bug, reported as
such, and the text is left as it was.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mcplint import regex_cache as rx
from mcplint.findings import Fix, TextEdit
from mcplint.fixes.insert import resolve_pointer
from mcplint.loaders.jsonsource import Document, ParseError, parse_json

# Python's universal newlines, which the loader reads with: positions count lines this way.
_LINE_BREAK = rx.compile(r"\r\n|\r|\n")
MAX_ROUNDS = 10

_Point = tuple[int, int]


class EditError(ValueError):
    """Text edits that cannot be applied: out of the text, or overlapping."""


def newline_of(text: str) -> str:
    """The line ending the text uses most, for the lines a fix adds."""
    counts = {"\r\n": 0, "\n": 0, "\r": 0}
    for match in _LINE_BREAK.finditer(text):
        counts[match.group()] += 1
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] else "\n"


def normalize(text: str) -> str:
    """The text as the loader sees it (read with universal newlines)."""
    return _LINE_BREAK.sub("\n", text)


def _touch(a: tuple[_Point, _Point], b: tuple[_Point, _Point]) -> bool:
    # Overlapping or adjacent spans (two inserts at one point included) conflict: their
    # combined result depends on order.
    return max(a[0], b[0]) <= min(a[1], b[1])


def _span(edit: TextEdit) -> tuple[_Point, _Point]:
    return (edit.line, edit.column), (edit.end_line, edit.end_column)


def select(fixes: Iterable[Fix]) -> list[Fix]:
    """The fixes, in order, that touch no place an earlier chosen fix touches."""
    chosen: list[Fix] = []
    taken: list[tuple[_Point, _Point]] = []
    for fix in fixes:
        spans = [_span(edit) for edit in fix.text_edits]
        if not spans or any(_touch(a, b) for a in spans for b in taken):
            continue
        taken.extend(spans)
        chosen.append(fix)
    return chosen


def apply_text_edits(text: str, edits: Sequence[TextEdit], newline: str = "\n") -> str:
    """Apply edits located by 1-based line and character column; "\\n" in the inserted text
    becomes ``newline``.  Existing line endings are kept as they are."""
    starts = [0]
    ends = []  # end of each line's content, before its line break
    for match in _LINE_BREAK.finditer(text):
        ends.append(match.start())
        starts.append(match.end())
    ends.append(len(text))

    def offset(line: int, column: int) -> int:
        if not 1 <= line <= len(starts) or not 1 <= column <= ends[line - 1] - starts[line - 1] + 1:
            raise EditError(f"position {line}:{column} is outside the text")
        return starts[line - 1] + column - 1

    located = sorted(
        (offset(e.line, e.column), offset(e.end_line, e.end_column), e.text) for e in edits)
    for (_, end, _), (next_start, _, _) in itertools.pairwise(located):
        if end >= next_start:
            raise EditError("text edits overlap or touch")
    for start, end, _ in located:
        if end < start:
            raise EditError("a text edit ends before it starts")
    parts: list[str] = []
    last = 0
    for start, end, inserted in located:
        parts.append(text[last:start])
        parts.append(inserted.replace("\n", newline))
        last = end
    parts.append(text[last:])
    return "".join(parts)


@dataclass(frozen=True)
class Fixed:
    """The outcome of fixing one text."""

    text: str  # the fixed text, or the original when nothing applied or on error
    applied: tuple[Fix, ...]
    error: str | None = None

    @property
    def changed(self) -> bool:
        return bool(self.applied) and self.error is None


def fix_text(text: str, fixes_for: Callable[[Document], Sequence[Fix]],
             max_rounds: int = MAX_ROUNDS) -> Fixed:
    """Apply the fixes ``fixes_for`` finds, in rounds, until none is left.

    ``text`` is the file's text as read (any line endings); ``fixes_for`` lints a parsed
    document and returns its findings' fixes.  Text that does not parse to begin with comes
    back unchanged with no error: the lint reports it.
    """
    newline = newline_of(text)
    parsed = parse_json(normalize(text))
    if isinstance(parsed, ParseError):
        return Fixed(text, ())
    current, document = text, parsed
    applied: list[Fix] = []
    for _ in range(max_rounds):
        chosen = select(fixes_for(document))
        if not chosen:
            break
        try:
            updated = apply_text_edits(
                current, [edit for fix in chosen for edit in fix.text_edits], newline)
        except EditError as exc:
            return Fixed(text, (), _bug(f"a fix could not be applied ({exc})"))
        reparsed = parse_json(normalize(updated))
        if isinstance(reparsed, ParseError):
            where = reparsed.position
            return Fixed(text, (), _bug(
                f"the fixed text would not parse ({reparsed.message} at "
                f"{where.line}:{where.column})"))
        if not _only_adds(document.data, reparsed.data, chosen):
            return Fixed(text, (), _bug("a fix changed more than the members it adds"))
        if updated == current:
            break
        applied.extend(chosen)
        current, document = updated, reparsed
    return Fixed(current, tuple(applied))


def _bug(what: str) -> str:
    return f"{what}; the file was left unchanged. This is a bug in mcplint, please report it"


def _only_adds(before: Any, after: Any, fixes: Sequence[Fix]) -> bool:
    """Whether ``after`` is ``before`` plus exactly the members the fixes add."""
    remaining = copy.deepcopy(after)
    for fix in fixes:
        for edit in fix.edits:
            target = resolve_pointer(before, edit.pointer)
            if not isinstance(target, dict) or edit.key in target:
                continue  # produced no text edit
            added = resolve_pointer(remaining, edit.pointer)
            if not isinstance(added, dict) or edit.key not in added:
                return False
            if _canonical(added.pop(edit.key)) != _canonical(json.loads(edit.value_json)):
                return False
    return _canonical(remaining) == _canonical(before)


def _canonical(value: Any) -> str:
    # JSON text, not Python equality, so true and 1 differ; key order does not matter.
    return json.dumps(value, sort_keys=True)
