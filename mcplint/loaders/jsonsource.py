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
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# Strings are unrolled (``[^"\\]*(?:\\.[^"\\]*)*``) so the engine does not alternate per char.
_TOKEN = re.compile(
    r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
    r"|//[^\n]*"
    r"|/\*.*?\*/"
    r"|[{}\[\]:,]"
    r'|[^\s{}\[\]:,"/]+',
    re.S,
)


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
    _line_starts: list[int] = field(repr=False, compare=False)

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

    def has(self, pointer: str) -> bool:
        return pointer in self._offsets


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in re.finditer("\n", text))
    return starts


def position_at(line_starts: list[int], offset: int) -> Position:
    line = bisect.bisect_right(line_starts, offset)
    return Position(line, offset - line_starts[line - 1] + 1)


def _decode_key(token: str) -> str:
    if "\\" not in token:
        return token[1:-1]
    decoded: str = json.loads(token)
    return decoded


def _scan(text: str) -> tuple[dict[str, int], list[tuple[int, int]]]:
    """Index the offsets of all values; return the spans that JSONC lets us blank out.

    The scan trusts ``json.loads`` to judge validity afterwards: on malformed text it only has
    to terminate, not to be right.
    """
    offsets: dict[str, int] = {}
    blanks: list[tuple[int, int]] = []
    # Each frame: [pointer of the container, is_object, next array index, pending key pointer]
    stack: list[list[Any]] = []
    pending_comma: tuple[int, int] | None = None
    expect_key = False
    root_seen = False

    def value_pointer() -> str | None:
        nonlocal root_seen
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
        pointer = f"{frame[0]}/{frame[2]}"
        frame[2] += 1
        return pointer

    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        start = match.start()
        if first == "/":
            if token.startswith(("//", "/*")):
                blanks.append((start, match.end()))
            continue
        if first in "}]":
            if pending_comma is not None:
                blanks.append(pending_comma)
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
        if expect_key and first == '"':
            key_pointer = f"{stack[-1][0]}/{escape_pointer_token(_decode_key(token))}"
            stack[-1][3] = key_pointer
            offsets[key_pointer] = start
            expect_key = False
            continue
        pointer = value_pointer()
        if pointer is not None and (pointer not in offsets or not stack or not stack[-1][1]):
            offsets[pointer] = start
        if first == "{":
            stack.append([pointer or "", True, 0, None])
            expect_key = True
        elif first == "[":
            stack.append([pointer or "", False, 0, None])
    return offsets, blanks


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


def parse_json(text: str) -> Document | ParseError:
    """Parse JSON or JSONC text; errors come back as values, never as exceptions."""
    if text.startswith("\ufeff"):
        # A BOM is not JSON, but editors on Windows write one; a space keeps offsets aligned.
        text = " " + text[1:]
    offsets, blanks = _scan(text)
    cleaned = _blank(text, blanks)
    line_starts = _line_starts(text)
    try:
        data = json.loads(cleaned)
    except json.JSONDecodeError as exc:
        return ParseError(
            f"invalid JSON: {exc.msg}", position_at(line_starts, min(exc.pos, len(text)))
        )
    except RecursionError:
        return ParseError("invalid JSON: nested too deeply to read", Position(1, 1))
    return Document(text, data, offsets, line_starts)


def iter_pointers(data: Any, base: str = "") -> Iterator[str]:
    """Every pointer in a value, in document order (used by tests and fuzzing)."""
    yield base
    if isinstance(data, dict):
        for key, value in data.items():
            yield from iter_pointers(value, join_pointer(base, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from iter_pointers(value, join_pointer(base, index))
