"""Parse JSON (and JSONC) text into values plus a JSON-pointer → source-position index.

The values come from the C ``json`` module, which is fast and gives exact error positions.
Positions come from one regex scan over the tokens.  JSONC comments and trailing commas are
blanked out with spaces before ``json.loads`` sees the text, so every offset stays valid in the
original file and error positions need no translation.
"""

from __future__ import annotations

import bisect
import json
import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

# Strings are unrolled (``[^"\\]*(?:\\.[^"\\]*)*``) so the engine does not alternate per char.
# The JSON (and JSONC) tokens, whitespace skipped: also what mcplint.reporters.regions scans.
TOKEN = re.compile(
    r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
    r"|//[^\n]*"
    r"|/\*.*?\*/"
    r"|[{}\[\]:,]"
    r'|[^\s{}\[\]:,"/]+',
    re.S,
)


def next_token(text: str, start: int) -> re.Match[str] | None:
    """The first token at or after ``start`` that is not a comment (None at the end)."""
    for match in TOKEN.finditer(text, start):
        if not match.group().startswith(("//", "/*")):
            return match
    return None


# Deeper nesting is no tool definition; stopping there keeps the scan, json and every check
# that walks a schema far from Python's recursion limit.
MAX_DEPTH = 512
# Python's own limit for reading an integer (sys.get_int_max_str_digits): past it int() is
# quadratic, and refuses.
MAX_DIGITS = 4300
MAX_DUPLICATES = 20
POINTER_BUDGET_PER_CHAR = 16
POINTER_BUDGET_MIN = 1_000_000
_CONSTANTS = frozenset({"NaN", "Infinity", "-Infinity"})


@dataclass(frozen=True)
class Position:
    """A 1-based line and column (in characters) in a source file."""

    line: int
    column: int


@dataclass(frozen=True)
class ParseError:
    """Why a text is not JSON, located in the original text."""

    message: str
    position: Position
    # False when the text is JSON but past what mcplint reads (too deep, a number too long):
    # then no hint about JSON syntax helps.
    syntax: bool = True


def escape_pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def join_pointer(base: str, token: str | int) -> str:
    return f"{base}/{escape_pointer_token(str(token))}"


@dataclass(frozen=True)
class Document:
    """A parsed JSON document and the source position of every value in it."""

    text: str
    data: Any
    # pointer → offset of the member's key (object members) or of the value (array items, root)
    _offsets: dict[str, int] = field(repr=False, compare=False)
    _line_starts: Sequence[int] = field(repr=False, compare=False)
    # Keys given twice in one object, as (pointer, offset of the repeat): JSON parsers differ
    # on which value counts (Python's json, and so mcplint, keeps the last).
    duplicates: tuple[tuple[str, int], ...] = field(default=(), repr=False, compare=False)

    def offset_of(self, pointer: str) -> int:
        """Offset of the node at ``pointer``, or of its nearest existing ancestor."""
        while True:
            found = self._offsets.get(pointer)
            if found is not None:
                return found
            if not pointer:
                return 0
            pointer = pointer.rsplit("/", 1)[0]

    def position(self, pointer: str) -> Position:
        return position_at(self._line_starts, self.offset_of(pointer))

    @property
    def line_starts(self) -> Sequence[int]:
        """Offsets at which each line begins (index 0: line 1)."""
        return self._line_starts

    def has(self, pointer: str) -> bool:
        return pointer in self._offsets

    def position_of_offset(self, offset: int) -> Position:
        return position_at(self._line_starts, offset)


def line_starts_of(text: str) -> Sequence[int]:
    # An array, not a list: a list holds an int object per line (28 bytes each past 256), which
    # for a gateway-size manifest of a million lines is 30 MB; the array is 8 bytes a line.
    starts = array("q", [0])
    starts.extend(m.end() for m in re.finditer("\n", text))
    return starts


def position_at(line_starts: Sequence[int], offset: int) -> Position:
    line = bisect.bisect_right(line_starts, offset)
    return Position(line, offset - line_starts[line - 1] + 1)


def _decode_key(token: str) -> str:
    if "\\" not in token:
        return token[1:-1]
    try:
        decoded: str = json.loads(token)
    except ValueError:  # a bad escape: json.loads reports it, located, after the scan
        return token[1:-1]
    return decoded


@dataclass
class _Scan:
    offsets: dict[str, int] = field(default_factory=dict)
    blanks: list[tuple[int, int]] = field(default_factory=list)
    duplicates: list[tuple[str, int]] = field(default_factory=list)
    too_deep: int | None = None  # offset of the bracket past MAX_DEPTH
    constant: int | None = None  # offset of the first NaN, Infinity or -Infinity
    long_number: int | None = None  # offset of the first number past MAX_DIGITS


def _scan(text: str) -> _Scan:
    """Index the offsets of all values, find the spans that JSONC lets us blank out, and
    what mcplint will not read (nesting past MAX_DEPTH, NaN, numbers past MAX_DIGITS).

    The scan trusts ``json.loads`` to judge validity afterwards: on malformed text it only has
    to terminate, not to be right.  Pointers are text, so a deep path of long keys makes them
    grow with the square of the file; past a budget of characters the values below are
    located at their nearest indexed ancestor instead (``Document.offset_of``).
    """
    found = _Scan()
    offsets = found.offsets
    budget = POINTER_BUDGET_PER_CHAR * len(text) + POINTER_BUDGET_MIN
    # Each frame: [pointer of the container (None: not indexed), is_object, next array index,
    # pending key pointer, keys seen (objects)]
    stack: list[list[Any]] = []
    pending_comma: tuple[int, int] | None = None
    expect_key = False
    root_seen = False

    def value_pointer() -> str | None:
        nonlocal root_seen, budget
        if not stack:
            if root_seen:
                return None
            root_seen = True
            return ""
        frame = stack[-1]
        if frame[1]:
            pointer: str | None = frame[3]
            frame[3] = None
            return pointer
        index = frame[2]
        frame[2] += 1
        if frame[0] is None or budget <= 0:
            return None
        pointer = f"{frame[0]}/{index}"
        budget -= len(pointer)
        return pointer

    for match in TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        start = match.start()
        if first == "/":
            if token.startswith(("//", "/*")):
                found.blanks.append((start, match.end()))
            continue
        if first in "}]":
            if pending_comma is not None:
                found.blanks.append(pending_comma)
            pending_comma = None
            if stack:
                stack.pop()
            expect_key = False
            continue
        pending_comma = None
        if first == ",":
            pending_comma = (start, match.end())
            expect_key = bool(stack) and stack[-1][1]
            continue
        if first == ":":
            expect_key = False
            continue
        if expect_key and first == '"' and stack[-1][1]:
            frame = stack[-1]
            key = _decode_key(token)
            token_pointer = escape_pointer_token(key)
            if key in frame[4]:
                if len(found.duplicates) < MAX_DUPLICATES:
                    found.duplicates.append(
                        (f"{frame[0]}/{token_pointer}" if frame[0] is not None else "", start))
            else:
                frame[4].add(key)
            key_pointer = None
            if frame[0] is not None and budget > 0:
                key_pointer = f"{frame[0]}/{token_pointer}"
                budget -= len(key_pointer)
                offsets[key_pointer] = start
            frame[3] = key_pointer
            expect_key = False
            continue
        pointer = value_pointer()
        if pointer is not None and (pointer not in offsets or not stack or not stack[-1][1]):
            offsets[pointer] = start
        if first == "{" or first == "[":
            if len(stack) >= MAX_DEPTH:
                found.too_deep = start
                break
            if first == "{":
                stack.append([pointer, True, 0, None, set()])
                expect_key = True
            else:
                stack.append([pointer, False, 0, None, None])
                expect_key = False
        elif first in "NI-" and token in _CONSTANTS:
            if found.constant is None:
                found.constant = start
        elif (len(token) > MAX_DIGITS and found.long_number is None
              and token.removeprefix("-").isdigit()):
            found.long_number = start  # an integer; long fractions read fine as floats
    return found


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for start, end in sorted(spans):
        parts.append(text[last:start])
        # Keep newlines so line numbers in json's error messages stay true.
        parts.append(re.sub(r"[^\n]", " ", text[start:end]))
        last = end
    parts.append(text[last:])
    return "".join(parts)


class _Constant(ValueError):
    """NaN, Infinity or -Infinity: Python reads them, JSON has no such numbers."""


def _reject_constant(name: str) -> Any:
    raise _Constant(name)


def parse_json(text: str) -> Document | ParseError:
    """Parse JSON or JSONC text; errors come back as values, never as exceptions."""
    if text.startswith("\ufeff"):
        # A BOM is not JSON, but editors on Windows write one; a space keeps offsets aligned.
        text = " " + text[1:]
    found = _scan(text)
    line_starts = line_starts_of(text)
    if found.too_deep is not None:
        return ParseError(f"nested more than {MAX_DEPTH} levels deep; mcplint reads at most "
                          f"{MAX_DEPTH} (tool definitions need a handful)",
                          position_at(line_starts, found.too_deep), syntax=False)
    if found.long_number is not None:
        return ParseError(f"an integer of more than {MAX_DIGITS} digits; mcplint reads integers "
                          f"of up to {MAX_DIGITS} digits",
                          position_at(line_starts, found.long_number), syntax=False)
    cleaned = _blank(text, found.blanks)
    try:
        data = json.loads(cleaned, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        return ParseError(
            f"invalid JSON: {exc.msg}", position_at(line_starts, min(exc.pos, len(text)))
        )
    except _Constant as exc:
        return ParseError(f"invalid JSON: {exc} is not a JSON number (write null, or a number)",
                          position_at(line_starts, found.constant or 0))
    except RecursionError:
        return ParseError("invalid JSON: nested too deeply to read", Position(1, 1),
                          syntax=False)
    except ValueError as exc:  # int() refusing a long number the scan did not see as one
        return ParseError(f"cannot read a value: {exc}", Position(1, 1), syntax=False)
    return Document(text, data, found.offsets, line_starts, tuple(found.duplicates))


def iter_pointers(data: Any, base: str = "") -> Iterator[str]:
    """Every pointer in a value, in document order (used by tests and fuzzing)."""
    yield base
    if isinstance(data, dict):
        for key, value in data.items():
            yield from iter_pointers(value, join_pointer(base, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from iter_pointers(value, join_pointer(base, index))
