"""Parse JSON (and JSONC) text into values plus a JSON-pointer → source-position index.

The values come from the C ``json`` module, which is fast and gives exact error positions.
A plain JSON file (most are) is read by it alone, and its positions are found lazily, only for
the nodes asked about (``_LazyIndex``).  Anything else (JSONC, a repeated key, nesting or a
number past mcplint's limits, invalid text) goes through one regex scan over the tokens, which
indexes every position and finds what is wrong.  JSONC comments and trailing commas are blanked
out with spaces before ``json.loads`` sees the text, so every offset stays valid in the
original file and error positions need no translation.
"""

from __future__ import annotations

import bisect
import json
import re
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]  # C, not in typeshed
from json.scanner import make_scanner
from typing import Any

from mcplint import regex_cache as rx

# Strings are unrolled (``[^"\\]*(?:\\.[^"\\]*)*``) so the engine does not alternate per char.
# The JSON (and JSONC) tokens, whitespace skipped: also what mcplint.reporters.regions scans.
TOKEN = rx.compile(
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
    # pointer → offset of the member's key (object members) or of the value (array items, root):
    # a dict built by the full scan, or a _LazyIndex that finds only what is asked for.
    _offsets: Mapping[str, int] | _LazyIndex = field(repr=False, compare=False)
    _line_starts: Sequence[int] | None = field(repr=False, compare=False)
    # Keys given twice in one object, as (pointer, offset of the repeat): JSON parsers differ
    # on which value counts (Python's json, and so mcplint, keeps the last).
    duplicates: tuple[tuple[str, int], ...] = field(default=(), repr=False, compare=False)

    def offset_of(self, pointer: str) -> int:
        """Offset of the node at ``pointer``, or of its nearest existing ancestor."""
        if isinstance(self._offsets, _LazyIndex):
            return self._offsets.locate(pointer)[0]
        return _nearest(self._offsets, pointer)

    def position(self, pointer: str) -> Position:
        return position_at(self.line_starts, self.offset_of(pointer))

    @property
    def line_starts(self) -> Sequence[int]:
        """Offsets at which each line begins (index 0: line 1)."""
        if self._line_starts is None:
            # Built on first use: a lint that reports nothing never needs it.
            object.__setattr__(self, "_line_starts", line_starts_of(self.text))
        assert self._line_starts is not None
        return self._line_starts

    def has(self, pointer: str) -> bool:
        if isinstance(self._offsets, _LazyIndex):
            return self._offsets.locate(pointer)[1]
        return pointer in self._offsets

    def position_of_offset(self, offset: int) -> Position:
        return position_at(self.line_starts, offset)


_NEWLINE = rx.compile("\n")


def _nearest(offsets: Mapping[str, int], pointer: str) -> int:
    while True:
        found = offsets.get(pointer)
        if found is not None:
            return found
        if not pointer:
            return 0
        pointer = pointer.rsplit("/", 1)[0]


def line_starts_of(text: str) -> Sequence[int]:
    # An array, not a list: a list holds an int object per line (28 bytes each past 256), which
    # for a gateway-size manifest of a million lines is 30 MB; the array is 8 bytes a line.
    starts = array("q", [0])
    # map over the C method, not a generator: no Python frame per line.
    starts.extend(map(re.Match.end, _NEWLINE.finditer(text)))
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


_WHITESPACE = rx.compile(r"[ \t\n\r]*")


def _skip_whitespace(text: str, at: int) -> int:
    return _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]  # `*` always matches


# The C scanner json.loads itself uses: given a value's offset, it returns the offset past it.
_skip_value = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed: a class
# Skipping re-reads a value once for each level above it that is searched past it; past this
# many characters read per character of text (a hostile nesting), the full scan takes over.
SKIP_BUDGET_PER_CHAR = 8
MAX_REMEMBERED_POINTER = 1000


class _Members:
    """How far one container's members have been read, and where each one starts."""

    __slots__ = ("done", "found", "is_object", "pending", "resume")

    def __init__(self, is_object: bool, after_open: int) -> None:
        self.is_object = is_object
        # key (objects) or index (arrays) → (offset reported for it, offset of its value)
        self.found: dict[str | int, tuple[int, int]] = {}
        self.resume = after_open
        self.pending = False  # True: a value starts at resume, found but not yet stepped over
        self.done = False


class _LazyIndex:
    """The pointer → offset index of a strict JSON text, built only where it is asked.

    The full scan (``_scan``) reads every token in Python, about 1 µs each; a lint asks for
    the positions of a few thousand nodes.  This index reads a container's members only up to
    the one asked for, and steps over the values before it with the C scanner.  It holds for
    texts json.loads has read without a duplicate key (``parse_json`` sends the rest to the
    full scan), so members are unique and every value is well formed.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.root = _skip_whitespace(text, 0)
        self.containers: dict[int, _Members] = {}
        # pointer → (offset reported for it, offset of its value), for the nodes walked through
        self.values: dict[str, tuple[int, int]] = {}
        self.skip_budget = SKIP_BUDGET_PER_CHAR * len(text) + POINTER_BUDGET_MIN
        self.full: dict[str, int] | None = None

    def locate(self, pointer: str) -> tuple[int, bool]:
        """The offset of the node at ``pointer`` (or of its deepest existing ancestor), and
        whether the node itself exists."""
        known = self.values.get(pointer)
        if known is not None:
            return known[0], True
        if self.full is None:
            try:
                found = self._walk(pointer)
            except (ValueError, IndexError, StopIteration, _OverBudget):
                self.full = _scan(self.text).offsets
        if self.full is not None:
            found = (_nearest(self.full, pointer), pointer in self.full)
        return found

    def _walk(self, pointer: str) -> tuple[int, bool]:
        if not pointer:
            return self.root, True
        tokens = pointer.split("/")
        # Pointers come in families (a tool's parameters): starting from the parent's value
        # saves walking down from the root each time.  A long pointer is not worth the
        # prefixes it would store.
        remember = len(pointer) <= MAX_REMEMBERED_POINTER
        node = value = self.root
        prefix, first = "", 1
        if remember:
            parent = pointer.rpartition("/")[0]
            known = self.values.get(parent)
            if known is not None:
                (node, value), prefix, first = known, parent, len(tokens) - 1
        for token in tokens[first:]:
            opener = self.text[value]
            if opener == "{":
                key: str | int = token.replace("~1", "/").replace("~0", "~")
            elif opener == "[" and token.isdigit() and token == str(int(token)):
                key = int(token)
            else:
                return node, False
            member = self._member(value, key)
            if member is None:
                return node, False
            node, value = member
            if remember:
                prefix = f"{prefix}/{token}"
                self.values[prefix] = member
        return node, True

    def _member(self, at: int, key: str | int) -> tuple[int, int] | None:
        members = self.containers.get(at)
        if members is None:
            members = self.containers[at] = _Members(self.text[at] == "{", at + 1)
        while key not in members.found and not members.done:
            self._next(members)
        return members.found.get(key)

    def _next(self, members: _Members) -> None:
        """Read one more member of the container, or find that it has ended."""
        text = self.text
        position = members.resume
        if members.pending:
            position = _skip_value(text, members.resume)[1]
            self.skip_budget -= position - members.resume
            if self.skip_budget < 0:
                raise _OverBudget
            members.pending = False
        position = _skip_whitespace(text, position)
        if text[position] == ",":
            position = _skip_whitespace(text, position + 1)
        if text[position] in "}]":
            members.done = True
            return
        key: str | int
        if members.is_object:
            reported = position
            key, position = scanstring(text, position + 1, True)
            position = _skip_whitespace(text, position)
            if text[position] != ":":
                raise ValueError("expected a colon")
            value = _skip_whitespace(text, position + 1)
        else:
            key = len(members.found)
            reported = value = position
        members.found[key] = (reported, value)
        members.pending = True
        members.resume = value


class _OverBudget(Exception):
    """The lazy index has re-read too much of the text; the full scan is cheaper now."""


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


class _Duplicate(ValueError):
    """A key given twice in one object: the full scan records where."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members = dict(pairs)
    if len(members) != len(pairs):
        raise _Duplicate
    return members


_NOT_STRICT = object()


def _strict(text: str) -> Any:
    """The value of a plain JSON text mcplint reads as it is, else _NOT_STRICT.

    Most files are plain JSON: no comments, no trailing commas, no repeated keys, nesting and
    numbers within mcplint's limits.  They are read by the C parser alone and indexed lazily;
    everything else goes through the full scan, which locates what is wrong.
    """
    try:
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique)
    except (ValueError, RecursionError):
        return _NOT_STRICT
    stack = [(data, 1)] if isinstance(data, (dict, list)) else []
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return _NOT_STRICT
        for child in value.values() if isinstance(value, dict) else value:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return data


def parse_json(text: str) -> Document | ParseError:
    """Parse JSON or JSONC text; errors come back as values, never as exceptions."""
    if text.startswith("\ufeff"):
        # A BOM is not JSON, but editors on Windows write one; a space keeps offsets aligned.
        text = " " + text[1:]
    data = _strict(text)
    if data is not _NOT_STRICT:
        return Document(text, data, _LazyIndex(text), None)
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
