"""Turn "add member ``key`` to the object at ``pointer``" into a text edit in the file's style.

The object is found from the document's offsets and scanned to its closing brace by a small
tokenizer that knows strings and JSONC comments.  New members go after the last one, in the
object's own layout: one per line at the siblings' indentation on a multi-line object, ``, ``
separated on a one-line object.  Only additions: a key that already exists is left alone.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from mcplint import regex_cache as rx
from mcplint.findings import Edit, TextEdit
from mcplint.loaders.jsonsource import TOKEN, Document, next_token

_INDENTED_LINE = rx.compile(r"^([ \t]+)\S", re.M)
_KEY_SEPARATOR = rx.compile(r'"\s*:( ?)')
_DEFAULT_UNIT = "  "


class _Object(NamedTuple):
    """What the insertion needs to know about one object's text."""

    open: int  # offset of "{"
    close: int  # offset of "}"
    last_end: int  # end of the last value, or of the trailing comma, or just past "{"
    trailing_comma: bool
    empty: bool
    last_key: int | None  # offset of the last member's key
    item_separator: str  # ", " or "," as written between members (one-line objects)
    key_separator: str | None  # ": " or ":" as written in this object, if it has members


class _Style(NamedTuple):
    unit: str  # one level of indentation in this file
    key_separator: str
    expand_arrays: bool  # whether this file writes arrays of scalars one item per line


def text_edits(document: Document, edits: tuple[Edit, ...]) -> tuple[TextEdit, ...]:
    """The text edits that add each edit's member; none for keys that already exist.

    Edits to the same object become one insertion, so a finding's fix is a single change
    per object.  Edits whose object is missing or whose value is not JSON produce nothing.
    """
    by_pointer: dict[str, list[tuple[str, Any]]] = {}
    for edit in edits:
        target = resolve_pointer(document.data, edit.pointer)
        if not isinstance(target, dict) or edit.key in target:
            continue
        try:
            value = json.loads(edit.value_json)
        except ValueError:
            continue
        members = by_pointer.setdefault(edit.pointer, [])
        if all(key != edit.key for key, _ in members):
            members.append((edit.key, value))
    if not by_pointer:
        return ()
    text = document.text
    # The linter asks once per fixable finding; the file's lines and style are worked out once
    # per document, or a large manifest's fixes would rescan it for each (quadratic).
    line_starts, style = _layout(document)
    result: list[TextEdit] = []
    for pointer, members in by_pointer.items():
        found = _find_object(document, pointer)
        if found is None:
            continue
        for start, end, inserted in _insertions(text, line_starts, found, members, style):
            result.append(_text_edit(line_starts, start, end, inserted))
    return tuple(result)


def resolve_pointer(data: Any, pointer: str) -> Any:
    """The value at a JSON pointer, or None when there is none."""
    if not pointer:
        return data
    node = data
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def _find_object(document: Document, pointer: str) -> _Object | None:
    """Locate the object at ``pointer``: its offset is its key's (a member) or its own."""
    if pointer and not document.has(pointer):
        return None
    text = document.text
    token = next_token(text, document.offset_of(pointer))
    if token is not None and token.group().startswith('"'):
        # A member: skip the key and the colon to reach the value.
        colon = next_token(text, token.end())
        if colon is None or colon.group() != ":":
            return None
        token = next_token(text, colon.end())
    if token is None or token.group() != "{":
        return None
    return _scan_object(text, token.start())


def _scan_object(text: str, open_at: int) -> _Object | None:
    depth = 0
    expect_key = True
    last_end = open_at + 1
    trailing_comma = False
    empty = True
    last_key: int | None = None
    comma_end: int | None = None
    item_separator: str | None = None
    key_separator: str | None = None
    for match in TOKEN.finditer(text, open_at + 1):
        token = match.group()
        first = token[0]
        if token.startswith(("//", "/*")):
            continue
        if depth:
            if first in "{[":
                depth += 1
            elif first in "}]":
                depth -= 1
                if depth == 0:
                    last_end, trailing_comma = match.end(), False
            continue
        if first == "}":
            return _Object(open_at, match.start(), last_end, trailing_comma, empty, last_key,
                           item_separator or ", ", key_separator)
        if first == "]":
            return None  # malformed; the document parsed, so this does not happen
        if first == ",":
            comma_end = match.end()
            last_end, trailing_comma, expect_key = comma_end, True, True
        elif first == ":":
            if key_separator is None:
                key_separator = ": " if text[match.end():match.end() + 1] == " " else ":"
        elif expect_key and first == '"':
            if item_separator is None and comma_end is not None:
                # As written between two members; a trailing comma says nothing.
                item_separator = "," if match.start() == comma_end else ", "
            last_key, expect_key, empty = match.start(), False, False
        elif first in "{[":
            depth = 1
        else:
            last_end, trailing_comma = match.end(), False
    return None


_LAYOUTS: dict[int, tuple[Document, Sequence[int], _Style]] = {}


def _layout(document: Document) -> tuple[Sequence[int], _Style]:
    cached = _LAYOUTS.get(id(document))
    if cached is None or cached[0] is not document:
        if len(_LAYOUTS) > 64:
            _LAYOUTS.clear()
        # The document's own index of line starts: a second list of a million ints for a
        # gateway-size file would cost tens of megabytes.
        cached = _LAYOUTS[id(document)] = (document, document.line_starts, _file_style(document))
    return cached[1], cached[2]


def _file_style(document: Document) -> _Style:
    text = document.text
    indented = _INDENTED_LINE.search(text)
    unit = indented.group(1) if indented else _DEFAULT_UNIT
    separator = _KEY_SEPARATOR.search(text)
    key_separator = ": " if separator is None or separator.group(1) else ":"
    return _Style(unit, key_separator, _expands_arrays(document))


def _expands_arrays(document: Document) -> bool:
    """Whether the first array of two or more scalars in the file spans several lines."""
    stack: list[tuple[str, Any]] = [("", document.data)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((f"{pointer}/{_escape(k)}", v) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            if len(node) >= 2 and not any(isinstance(v, dict | list) for v in node):
                first = document.position(f"{pointer}/0").line
                return document.position(f"{pointer}/1").line != first
            stack.extend((f"{pointer}/{i}", v) for i, v in reversed(list(enumerate(node))))
    return False


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _indent_of_line(text: str, offset: int) -> str:
    start = _line_start(text, offset)
    line = text[start:offset + 1]
    return line[:len(line) - len(line.lstrip(" \t"))]


def _insertions(text: str, line_starts: Sequence[int], obj: _Object,
                members: Sequence[tuple[str, Any]], style: _Style
                ) -> list[tuple[int, int, str]]:
    """The (start, end, text) changes that add ``members`` to ``obj``."""
    key_separator = obj.key_separator or style.key_separator
    multi_line = False
    indent = ""
    if obj.last_key is not None:
        key_line_start = _line_start(text, obj.last_key)
        # Multi-line when the last member starts its own line; its indentation is the siblings'.
        multi_line = not text[key_line_start:obj.last_key].strip()
        indent = text[key_line_start:obj.last_key]
    elif _line_of(line_starts, obj.open) != _line_of(line_starts, obj.close):
        multi_line = True
        indent = _indent_of_line(text, obj.open) + style.unit

    if not multi_line:
        rendered = obj.item_separator.join(
            f"{_dump(key)}{key_separator}{_compact(value, obj.item_separator, key_separator)}"
            for key, value in members)
        if obj.empty:
            pad = " " if text[obj.close - 1:obj.close] == " " else ""
            return [(obj.close, obj.close, rendered + pad)]
        if obj.trailing_comma:
            return [(obj.last_end, obj.last_end, f"{obj.item_separator[1:]}{rendered},")]
        return [(obj.last_end, obj.last_end, obj.item_separator + rendered)]

    lines = ",\n".join(
        f"{indent}{_dump(key)}{key_separator}"
        f"{_expanded(value, indent, style, key_separator)}"
        for key, value in members)
    if obj.empty:
        return [(obj.open + 1, obj.open + 1, "\n" + lines)]
    close_line = _line_start(text, obj.close)
    closes_own_line = close_line > obj.last_end and not text[close_line:obj.close].strip()
    if closes_own_line:
        # After any comments that follow the last member, on a line of its own.
        if obj.trailing_comma:
            return [(close_line, close_line, f"{lines},\n")]
        return [(obj.last_end, obj.last_end, ","), (close_line, close_line, f"{lines}\n")]
    if obj.trailing_comma:
        return [(obj.last_end, obj.last_end, f"\n{lines},")]
    return [(obj.last_end, obj.last_end, f",\n{lines}")]


def _line_of(line_starts: Sequence[int], offset: int) -> int:
    return bisect.bisect_right(line_starts, offset)


def _dump(value: Any) -> str:
    return _compact(value, ", ", ": ")


def _compact(value: Any, item_separator: str, key_separator: str) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(item_separator, key_separator))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (from a "\ud800" escape) cannot be written as UTF-8; escape it.
        text = json.dumps(value, separators=(item_separator, key_separator))
    return text


def _expanded(value: Any, indent: str, style: _Style, key_separator: str) -> str:
    """``value`` laid out like the file: objects one member per line, scalar arrays as the
    file writes them."""
    inner = indent + style.unit
    if isinstance(value, dict) and value:
        members = ",\n".join(
            f"{inner}{_dump(k)}{key_separator}{_expanded(v, inner, style, key_separator)}"
            for k, v in value.items())
        return "{\n" + members + "\n" + indent + "}"
    if isinstance(value, list) and value:
        scalars = not any(isinstance(v, dict | list) for v in value)
        if scalars and not style.expand_arrays:
            return _compact(value, ", ", key_separator)
        items = ",\n".join(f"{inner}{_expanded(v, inner, style, key_separator)}"
                           for v in value)
        return "[\n" + items + "\n" + indent + "]"
    return _compact(value, ", ", key_separator)


def _text_edit(line_starts: Sequence[int], start: int, end: int, text: str) -> TextEdit:
    start_line = _line_of(line_starts, start)
    end_line = _line_of(line_starts, end)
    return TextEdit(start_line, start - line_starts[start_line - 1] + 1,
                    end_line, end - line_starts[end_line - 1] + 1, text)
