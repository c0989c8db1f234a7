"""The position index: every pointer maps to where its key or value starts in the text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplint.loaders.jsonsource import (
    MAX_DEPTH,
    MAX_DIGITS,
    Document,
    ParseError,
    Position,
    _LazyIndex,
    _scan,
    escape_pointer_token,
    iter_pointers,
    parse_json,
)

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"

KEYS = st.text(alphabet=st.sampled_from('ab/~"\\ é\n\t{}[]:,'), max_size=6)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8))
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(KEYS, children, max_size=4)),
    max_leaves=30,
)


def _offset(text: str, position: Position) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[: position.line - 1]) + position.column - 1


def _lookup(data: Any, pointer: str) -> tuple[Any, str | None]:
    """The value at a pointer, and the key it is stored under when its parent is an object."""
    key = None
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(data, list):
            data, key = data[int(token)], None
        else:
            data, key = data[token], token
    return data, key


def _check_positions(text: str, data: Any) -> None:
    doc = parse_json(text)
    assert isinstance(doc, Document), doc
    assert doc.data == data
    for pointer in iter_pointers(data):
        assert doc.has(pointer), pointer
        offset = _offset(text, doc.position(pointer))
        value, key = _lookup(data, pointer)
        parsed, _ = json.JSONDecoder().raw_decode(text, offset)
        # Object members are located at their key, which is what editors highlight.
        assert parsed == (key if key is not None else value), (pointer, text[offset:offset + 30])


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from([None, 0, 1, 2, 4]), st.booleans())
def test_every_pointer_is_located(data: Any, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(data, indent=indent, ensure_ascii=ascii_only)
    _check_positions(text, data)
    _agree(text)


def _to_jsonc(text: str) -> str:
    """Add a comment to every line and a trailing comma before every closing bracket.

    Indented json.dumps output never has a raw newline inside a string, so each line end is
    structural and these edits keep every value where it was.
    """
    lines = text.split("\n")
    out = []
    for index, line in enumerate(lines):
        following = lines[index + 1].lstrip() if index + 1 < len(lines) else ""
        if following[:1] in ("]", "}") and not line.rstrip().endswith(("[", "{")):
            line += ","
        out.append(line + ' // a comment with { [ " , ] } in it')
    return "/* header: { */\n" + "\n".join(out)


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_comments_and_trailing_commas_keep_positions(data: Any) -> None:
    plain = json.dumps(data, indent=2)
    plain_doc = parse_json(plain)
    jsonc_doc = parse_json(_to_jsonc(plain))
    assert isinstance(plain_doc, Document) and isinstance(jsonc_doc, Document), jsonc_doc
    assert jsonc_doc.data == data
    for pointer in iter_pointers(data):
        old, new = plain_doc.position(pointer), jsonc_doc.position(pointer)
        assert (new.line, new.column) == (old.line + 1, old.column), pointer


def test_nested_position_and_missing_pointer_falls_back_to_parent() -> None:
    text = '{\n  "tools": [\n    {"name": "a",\n     "inputSchema": {"type": "object"}}\n  ]\n}'
    doc = parse_json(text)
    assert isinstance(doc, Document)
    assert doc.position("/tools/0") == Position(3, 5)
    assert doc.position("/tools/0/name") == Position(3, 6)
    assert doc.position("/tools/0/inputSchema/type") == Position(4, 22)
    assert doc.position("/tools/0/description") == Position(3, 5)


def test_jsonc_comments_and_trailing_commas() -> None:
    text = '/* header */\n{\n  // a tool\n  "tools": [{"name": "x",},],\n}\n'
    doc = parse_json(text)
    assert isinstance(doc, Document)
    assert doc.data == {"tools": [{"name": "x"}]}
    assert doc.position("/tools/0/name") == Position(4, 14)


def test_error_positions_are_in_the_original_text() -> None:
    error = parse_json('{\n  // fine\n  "a": 1\n  "b": 2\n}')
    assert isinstance(error, ParseError)
    assert error.position == Position(4, 3)
    assert "Expecting ',' delimiter" in error.message


def test_unterminated_string_and_empty_input() -> None:
    assert isinstance(parse_json('{"a": "b'), ParseError)
    empty = parse_json("")
    assert isinstance(empty, ParseError) and empty.position == Position(1, 1)


def test_bom_is_tolerated() -> None:
    doc = parse_json('\ufeff{"tools": []}')
    assert isinstance(doc, Document) and doc.data == {"tools": []}


def test_escaped_keys() -> None:
    text = '{"a/b": {"c~d": 1, "\\u00e9": 2}}'
    doc = parse_json(text)
    assert isinstance(doc, Document)
    pointer = "/" + escape_pointer_token("a/b") + "/" + escape_pointer_token("c~d")
    assert pointer == "/a~1b/c~0d"
    assert doc.position(pointer) == Position(1, 10)
    assert doc.position("/a~1b/é") == Position(1, 20)


def test_duplicate_keys_locate_the_value_json_keeps() -> None:
    doc = parse_json('{"a": 1, "a": 2}')
    assert isinstance(doc, Document)
    assert doc.data == {"a": 2}
    assert doc.position("/a") == Position(1, 10)


def test_duplicate_keys_are_recorded_where_they_repeat() -> None:
    doc = parse_json('{"tools": [{"name": "safe", "name": "delete_all"}], "tools": []}')
    assert isinstance(doc, Document)
    assert [(p, doc.position_of_offset(o)) for p, o in doc.duplicates] == [
        ("/tools/0/name", Position(1, 29)), ("/tools", Position(1, 53))]


def test_nesting_past_the_limit_is_located_not_recursed() -> None:
    error = parse_json("[" * 100_000 + "]" * 100_000)
    assert isinstance(error, ParseError) and not error.syntax
    assert error.position == Position(1, MAX_DEPTH + 1)
    assert isinstance(parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH), Document)


def test_nan_infinity_and_long_integers_are_located() -> None:
    nan = parse_json('{"a": [1, -Infinity]}')
    assert isinstance(nan, ParseError) and nan.position == Position(1, 11)
    assert "-Infinity is not a JSON number" in nan.message
    long = parse_json('{"a": ' + "9" * (MAX_DIGITS + 1) + "}")
    assert isinstance(long, ParseError) and long.position == Position(1, 7)
    # Valid JSON Python reads: a long fraction, a float past the double range (inf).
    assert isinstance(parse_json("[0." + "1" * 5000 + ", 1e999]"), Document)


def test_a_deep_path_of_long_keys_does_not_grow_the_index_quadratically() -> None:
    key = "k" * 10_000
    # A comment sends the text through the full scan, which indexes every pointer it meets.
    text = "// jsonc\n" + ('{"' + key + '": ') * 400 + "1" + "}" * 400
    doc = parse_json(text)
    assert isinstance(doc, Document)
    # The budget, and at most one pointer past it.
    assert sum(len(p) for p in doc._offsets) <= 17 * len(text) + 1_000_000
    assert doc.position("/" + "/".join([key] * 400)).line == 2  # an ancestor, located
    strict = parse_json(text.split("\n", 1)[1])
    assert isinstance(strict, Document)
    assert strict.position("/" + "/".join([key] * 400)) == Position(1, 399 * 10_005 + 2)


def _agree(text: str) -> None:
    """The lazy index of a plain JSON text finds what the full scan finds, for every node and
    for a missing child of each."""
    lazy = parse_json(text)
    assert isinstance(lazy, Document) and isinstance(lazy._offsets, _LazyIndex)
    full = _scan(text).offsets
    for pointer in iter_pointers(lazy.data):
        assert lazy.has(pointer), pointer
        assert lazy.offset_of(pointer) == full[pointer], pointer
        assert not lazy.has(pointer + "/missing~1child")
        assert lazy.offset_of(pointer + "/missing~1child") == full[pointer]


def test_the_lazy_index_agrees_with_the_full_scan() -> None:
    _agree('{"a~b": [1, {"c/d": "x\\"y", "": []}], "e": {}, "f": [[], [true, null]],'
           ' "\\u00e9": -1.5e3}')
    _agree(' [ 1 ,\n\t"two" , { } ]\r\n')
    _agree('"just a string"')
    for path in sorted((ROOT / "fixtures").rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        if not isinstance(parse_json(text), Document) or not isinstance(
                parse_json(text)._offsets, _LazyIndex):
            continue  # JSONC, a duplicate key or an error: the full scan's own case
        _agree(text)


def test_the_lazy_index_agrees_with_the_full_scan_on_the_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not here ({CORPUS}); a user's clone has none")
    for path in sorted(CORPUS.glob("*.json")):
        _agree(path.read_text(encoding="utf-8"))


def test_a_hostile_nesting_hands_the_lazy_index_over_to_the_full_scan() -> None:
    # Each level has a deep first member and a second one: locating every second member makes
    # the lazy index step over the rest of the text again and again.
    depth = 500
    text = '{"a": ' * depth + "0" + ', "b": 1}' * depth
    doc = parse_json(text)
    assert isinstance(doc, Document) and isinstance(doc._offsets, _LazyIndex)
    pointers = ["/a" * level + "/b" for level in range(depth)]
    doc._offsets.skip_budget = 10 * len(text)  # reached well before the last level
    full = _scan(text).offsets
    assert [doc.offset_of(p) for p in pointers] == [full[p] for p in pointers]
    assert doc._offsets.full is not None
