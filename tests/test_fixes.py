"""Safe fixes: JSON edits become text edits in the file's own style, and apply cleanly."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from mcplint.findings import Edit, Fix, TextEdit
from mcplint.fixes import text_edits
from mcplint.fixes.apply import (
    EditError,
    apply_text_edits,
    fix_text,
    newline_of,
    normalize,
    select,
)
from mcplint.loaders.jsonsource import Document, ParseError, parse_json


def _document(text: str) -> Document:
    parsed = parse_json(normalize(text))
    assert not isinstance(parsed, ParseError), parsed
    return parsed


def _insert(text: str, *edits: Edit) -> str:
    """Apply the edits the way ``check --fix`` does and check the result still parses."""
    changes = text_edits(_document(text), edits)
    result = apply_text_edits(text, changes, newline_of(text))
    _document(result)
    return result


# --- inserting members -----------------------------------------------------------------------

def test_two_space_object_gets_a_member_at_the_siblings_indentation() -> None:
    text = '{\n  "tools": [\n    {\n      "name": "get",\n      "annotations": {\n' \
           '        "title": "Get"\n      }\n    }\n  ]\n}\n'
    assert _insert(text, Edit("/tools/0/annotations", "readOnlyHint", "true")) == (
        '{\n  "tools": [\n    {\n      "name": "get",\n      "annotations": {\n'
        '        "title": "Get",\n        "readOnlyHint": true\n      }\n    }\n  ]\n}\n')


def test_the_text_edits_are_a_comma_after_the_last_value_and_a_line_before_the_brace() -> None:
    text = '{\n  "a": 1\n}\n'
    assert text_edits(_document(text), (Edit("", "b", "2"),)) == (
        TextEdit(2, 9, 2, 9, ","),
        TextEdit(3, 1, 3, 1, '  "b": 2\n'),
    )


def test_four_space_object_value_is_laid_out_one_member_per_line() -> None:
    text = '{\n    "tools": [\n        {\n            "name": "get"\n        }\n    ]\n}'
    edit = Edit("/tools/0", "annotations", '{"readOnlyHint": true, "openWorldHint": false}')
    assert _insert(text, edit) == (
        '{\n    "tools": [\n        {\n            "name": "get",\n'
        '            "annotations": {\n'
        '                "readOnlyHint": true,\n'
        '                "openWorldHint": false\n'
        '            }\n        }\n    ]\n}')


def test_tab_indented_file_keeps_tabs() -> None:
    text = '{\n\t"tools": [\n\t\t{\n\t\t\t"name": "get"\n\t\t}\n\t]\n}\n'
    edit = Edit("/tools/0", "annotations", '{"readOnlyHint": true}')
    assert _insert(text, edit) == (
        '{\n\t"tools": [\n\t\t{\n\t\t\t"name": "get",\n\t\t\t"annotations": {\n'
        '\t\t\t\t"readOnlyHint": true\n\t\t\t}\n\t\t}\n\t]\n}\n')


def test_one_line_object_gets_comma_space_and_compact_value() -> None:
    text = '{"tools": [{"name": "get", "annotations": {"title": "Get"}}]}'
    assert _insert(text, Edit("/tools/0", "x", '{"a": [1, 2], "b": {}}')) == (
        '{"tools": [{"name": "get", "annotations": {"title": "Get"}, '
        '"x": {"a": [1, 2], "b": {}}}]}')


def test_compact_file_keeps_its_separators() -> None:
    text = '{"tools":[{"name":"get","inputSchema":{"type":"object"}}]}'
    assert _insert(text, Edit("/tools/0", "annotations", '{"readOnlyHint":true,"x":1}')) == (
        '{"tools":[{"name":"get","inputSchema":{"type":"object"},'
        '"annotations":{"readOnlyHint":true,"x":1}}]}')


@pytest.mark.parametrize(("before", "after"), [
    ('{"tools": [{"annotations": {}}]}', '{"tools": [{"annotations": {"readOnlyHint": true}}]}'),
    ('{"tools": [{"annotations": { }}]}',
     '{"tools": [{"annotations": { "readOnlyHint": true }}]}'),
    ('{\n  "tools": [\n    {\n      "annotations": {\n      }\n    }\n  ]\n}\n',
     '{\n  "tools": [\n    {\n      "annotations": {\n        "readOnlyHint": true\n'
     '      }\n    }\n  ]\n}\n'),
])
def test_empty_object(before: str, after: str) -> None:
    assert _insert(before, Edit("/tools/0/annotations", "readOnlyHint", "true")) == after


def test_jsonc_trailing_comma_is_kept_after_the_new_member() -> None:
    text = '{\n  // tools\n  "tools": [\n    {\n      "name": "get",\n    },\n  ],\n}\n'
    assert _insert(text, Edit("/tools/0", "annotations", '{"readOnlyHint": true}')) == (
        '{\n  // tools\n  "tools": [\n    {\n      "name": "get",\n'
        '      "annotations": {\n        "readOnlyHint": true\n      },\n    },\n  ],\n}\n')


def test_one_line_trailing_comma() -> None:
    assert _insert('{"a": 1,}', Edit("", "b", "2")) == '{"a": 1, "b": 2,}'


def test_comments_after_the_last_member_stay_with_it() -> None:
    text = ('{\n  "name": "get", // the name\n  "description": "Get it." /* why */\n'
            '  // about to close\n}\n')
    assert _insert(text, Edit("", "annotations", '{"readOnlyHint": true}')) == (
        '{\n  "name": "get", // the name\n  "description": "Get it.", /* why */\n'
        '  // about to close\n  "annotations": {\n    "readOnlyHint": true\n  }\n}\n')


def test_braces_and_comment_markers_inside_strings_are_not_structure() -> None:
    text = ('{\n  "tools": [\n    {\n      "name": "a}b",\n'
            '      "description": "Use // and /* */ and \\"}\\" freely {"\n    }\n  ]\n}\n')
    assert _insert(text, Edit("/tools/0", "annotations", '{"readOnlyHint": true}')) == (
        '{\n  "tools": [\n    {\n      "name": "a}b",\n'
        '      "description": "Use // and /* */ and \\"}\\" freely {",\n'
        '      "annotations": {\n        "readOnlyHint": true\n      }\n    }\n  ]\n}\n')


def test_brace_on_the_last_value_line() -> None:
    text = '{\n  "tools": [{\n    "name": "get",\n    "title": "Get"}]\n}\n'
    assert _insert(text, Edit("/tools/0", "x", "1")) == (
        '{\n  "tools": [{\n    "name": "get",\n    "title": "Get",\n    "x": 1}]\n}\n')


def test_crlf_file_keeps_crlf_on_every_line() -> None:
    text = '{\r\n  "tools": [\r\n    {\r\n      "name": "get"\r\n    }\r\n  ]\r\n}\r\n'
    result = _insert(text, Edit("/tools/0", "annotations", '{"readOnlyHint": true}'))
    assert result == (
        '{\r\n  "tools": [\r\n    {\r\n      "name": "get",\r\n      "annotations": {\r\n'
        '        "readOnlyHint": true\r\n      }\r\n    }\r\n  ]\r\n}\r\n')
    assert "\n" not in result.replace("\r\n", "")


def test_unicode_before_the_insertion_point_counts_in_characters() -> None:
    text = '{"tools": [{"name": "grüße", "description": "Ünïcödé ✓ 🎉"}]}'
    edit = Edit("/tools/0/", "x", "1")  # the object at /tools/0/ does not exist
    assert text_edits(_document(text), (edit,)) == ()
    result = _insert(text, Edit("/tools/0", "enum", '["ä", "🎉"]'))
    assert result == (
        '{"tools": [{"name": "grüße", "description": "Ünïcödé ✓ 🎉", "enum": ["ä", "🎉"]}]}')
    assert text_edits(_document(text), (Edit("/tools/0", "x", "1"),))[0].column == 58


def test_byte_order_mark_is_kept() -> None:
    text = '\ufeff{\n  "a": 1\n}\n'
    assert _insert(text, Edit("", "b", "true")) == '\ufeff{\n  "a": 1,\n  "b": true\n}\n'


def test_arrays_of_scalars_follow_the_file() -> None:
    one_line = '{\n  "required": ["a", "b"],\n  "properties": {\n    "a": {\n' \
               '      "type": "string"\n    }\n  }\n}\n'
    assert '"enum": ["x", "y"]' in _insert(one_line, Edit("/properties/a", "enum", '["x","y"]'))
    expanded = '{\n  "required": [\n    "a",\n    "b"\n  ],\n  "properties": {\n    "a": {\n' \
               '      "type": "string"\n    }\n  }\n}\n'
    assert _insert(expanded, Edit("/properties/a", "enum", '["x","y"]')).endswith(
        '      "type": "string",\n      "enum": [\n        "x",\n        "y"\n      ]\n'
        '    }\n  }\n}\n')


def test_several_members_for_one_object_are_one_insertion() -> None:
    text = '{\n  "a": 1\n}\n'
    edits = (Edit("", "b", "2"), Edit("", "c", '"x"'), Edit("", "b", "3"))
    assert _insert(text, *edits) == '{\n  "a": 1,\n  "b": 2,\n  "c": "x"\n}\n'
    assert _insert('{"a": 1}', *edits) == '{"a": 1, "b": 2, "c": "x"}'
    assert _insert("{}", *edits) == '{"b": 2, "c": "x"}'


def test_existing_key_missing_object_non_object_or_bad_value_give_no_edit() -> None:
    document = _document('{"a": {"k": 1}, "b": [1], "c": "s"}')
    for edit in (Edit("/a", "k", "2"), Edit("/z", "k", "2"), Edit("/b", "k", "2"),
                 Edit("/c", "k", "2"), Edit("/a", "n", "not json")):
        assert text_edits(document, (edit,)) == (), edit


def test_duplicate_keys_use_the_object_json_keeps() -> None:
    # json keeps the last of duplicate members; the edit must land in that one.
    text = '{"a": {"x": 1}, "a": {"y": 2}}'
    assert _insert(text, Edit("/a", "z", "3")) == '{"a": {"x": 1}, "a": {"y": 2, "z": 3}}'


def test_escaped_key_in_pointer() -> None:
    text = '{"a/b": {"x": 1}}'
    assert _insert(text, Edit("/a~1b", "y", "2")) == '{"a/b": {"x": 1, "y": 2}}'


# --- applying --------------------------------------------------------------------------------

def test_apply_rejects_positions_outside_the_text_and_overlaps() -> None:
    with pytest.raises(EditError):
        apply_text_edits("{}\n", [TextEdit(1, 4, 1, 4, "x")])
    with pytest.raises(EditError):
        apply_text_edits("{}\n", [TextEdit(3, 1, 3, 1, "x")])
    with pytest.raises(EditError):
        apply_text_edits("{}", [TextEdit(1, 2, 1, 2, "a"), TextEdit(1, 2, 1, 2, "b")])


def test_select_keeps_the_first_of_fixes_that_touch() -> None:
    first = Fix("a", (), (TextEdit(1, 5, 1, 5, "a"),))
    same_point = Fix("b", (), (TextEdit(1, 5, 1, 5, "b"),))
    elsewhere = Fix("c", (), (TextEdit(2, 1, 2, 1, "c"),))
    empty = Fix("d", (), ())
    assert select([first, same_point, empty, elsewhere]) == [first, elsewhere]


def _fixes_adding(edits: Sequence[Edit]) -> object:
    """A stand-in linter: one fix per edit, recomputed from each round's document."""
    def fixes_for(document: Document) -> list[Fix]:
        found = []
        for edit in edits:
            changes = text_edits(document, (edit,))
            if changes:
                found.append(Fix(f"add {edit.key}", (edit,), changes))
        return found
    return fixes_for


@pytest.mark.parametrize("text", [
    '{\n  "a": 1\n}\n',
    '{"a": 1}',
    "{}",
    "{\n}\n",
    '{\r\n\t"a": 1, // one\r\n}\r\n',
])
def test_several_fixes_into_one_object_apply_over_rounds(text: str) -> None:
    edits = [Edit("", "b", "2"), Edit("", "c", '{"d": ["e"]}'), Edit("", "f", "null")]
    fixed = fix_text(text, _fixes_adding(edits))  # type: ignore[arg-type]
    assert fixed.error is None
    assert len(fixed.applied) == 3
    data = _document(fixed.text).data
    assert list(data) == (["a"] if '"a"' in text else []) + ["b", "c", "f"]
    assert data["c"] == {"d": ["e"]}
    again = fix_text(fixed.text, _fixes_adding(edits))  # type: ignore[arg-type]
    assert again.applied == () and again.text == fixed.text


def test_text_that_does_not_parse_is_left_to_the_lint() -> None:
    fixed = fix_text("{nope", _fixes_adding([Edit("", "a", "1")]))  # type: ignore[arg-type]
    assert fixed == fix_text("{nope", lambda document: [])
    assert fixed.text == "{nope" and fixed.applied == () and fixed.error is None


def test_a_fix_that_breaks_the_json_is_refused_as_a_bug() -> None:
    broken = Fix("break", (Edit("", "b", "2"),), (TextEdit(1, 2, 1, 2, '"b": 2,,'),))
    fixed = fix_text('{"a": 1}', lambda document: [broken])
    assert fixed.text == '{"a": 1}' and fixed.applied == ()
    assert fixed.error is not None and "would not parse" in fixed.error and "bug" in fixed.error


def test_a_fix_that_changes_more_than_it_adds_is_refused_as_a_bug() -> None:
    sneaky = Fix("sneaky", (Edit("", "b", "2"),), (TextEdit(1, 7, 1, 8, '2, "b": 2'),))
    fixed = fix_text('{"a": 1}', lambda document: [sneaky])
    assert fixed.text == '{"a": 1}' and fixed.applied == ()
    assert fixed.error is not None and "more than the members it adds" in fixed.error
