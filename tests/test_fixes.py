"""Safe fixes: JSON edits become text edits in the file's own style, and apply cleanly."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplint.cli import main
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
from mcplint.fixes.files import FileFix, unified_diff, write
from mcplint.fixes.insert import resolve_pointer
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


def test_lone_surrogate_is_written_escaped() -> None:
    assert _insert('{"a": 1}', Edit("", "b", '"\\ud800x"')) == '{"a": 1, "b": "\\ud800x"}'


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


KEYS = st.text(alphabet=st.sampled_from('ab/*~"\\ é\n\t{}[]:,'), max_size=6)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=6))
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(KEYS, children, max_size=3)),
    max_leaves=12,
)


def _jsonc(value: Any, indent: str | None, trailing: bool, comments: bool, level: int = 0
           ) -> str:
    """Serialise like a person might: any indentation or one line, with JSONC trailing
    commas and comments after members."""
    if not isinstance(value, dict | list) or not value:
        return json.dumps(value, ensure_ascii=False)
    def inner_value(v: Any) -> str:
        return _jsonc(v, indent, trailing, comments, level + 1)

    items = ([f"{json.dumps(k, ensure_ascii=False)}: {inner_value(v)}" for k, v in value.items()]
             if isinstance(value, dict) else [inner_value(v) for v in value])
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    if indent is None:
        note = " /* c, } */" if comments else ""
        return opening + ", ".join(item + note for item in items) + \
            ("," if trailing else "") + closing
    inner = indent * (level + 1)
    lines = [f"{inner}{item}{',' if i < len(items) - 1 or trailing else ''}"
             f"{' // c, }' if comments else ''}" for i, item in enumerate(items)]
    return opening + "\n" + "\n".join(lines) + "\n" + indent * level + closing


def _objects(value: Any, pointer: str = "") -> list[tuple[str, dict[str, Any]]]:
    found = [(pointer, value)] if isinstance(value, dict) else []
    children = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, child in children:
        token = str(key).replace("~", "~0").replace("/", "~1")
        found.extend(_objects(child, f"{pointer}/{token}"))
    return found


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=4), st.sampled_from([None, "  ", "    ", "\t"]),
       st.booleans(), st.booleans(), st.booleans(), SCALARS | st.lists(SCALARS, max_size=3)
       | st.dictionaries(KEYS, SCALARS, max_size=2))
def test_any_layout_any_object_gets_exactly_the_member(
        data: dict[str, Any], indent: str | None, trailing: bool, comments: bool, crlf: bool,
        value: Any) -> None:
    text = _jsonc(data, indent, trailing, comments) + "\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    for pointer, obj in _objects(data):
        key = "new ✓"
        while key in obj:
            key += "!"
        result = _insert(text, Edit(pointer, key, json.dumps(value)))
        got = _document(result).data
        target = resolve_pointer(got, pointer)
        assert list(target)[-1] == key and target.pop(key) == value
        assert got == data
        assert ("\r\n" in result) is crlf and result.count("\n") >= text.count("\n")
        if crlf:
            assert "\n" not in result.replace("\r\n", "")


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


# --- check --fix and --diff, end to end ------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
FIXES = ROOT / "fixtures" / "fixes"
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
# A long-past mtime: a rewrite within the same clock tick would still be seen.
OLD = 1_000_000_000


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    # Run from an empty folder so no config of this repository is discovered.
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def _copy(name: str, folder: Path, newline: str = "\n", final_newline: bool = True) -> Path:
    text = (FIXES / name).read_text(encoding="utf-8")
    if not final_newline:
        text = text.rstrip("\n")
    path = folder / name
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    os.utime(path, (OLD, OLD))
    return path


def _check(runner: CliRunner, *args: str, stdin: str | None = None) -> Result:
    return runner.invoke(main, ["check", *args], input=stdin)


def _findings(runner: CliRunner, *args: str) -> list[tuple[str, str | None, str]]:
    result = _check(runner, "--format", "json", "--fail-on", "never", *args)
    assert result.exit_code == 0, result.stderr
    return [(f["code"], f["tool"], f["pointer"]) for f in json.loads(result.stdout)["findings"]]


def _patch(diff: str, folder: Path) -> None:
    """Apply a diff with the real ``patch`` tool, failing on any fuzz or reject."""
    done = subprocess.run(["patch", "-p1", "--forward", "--fuzz=0", "--no-backup-if-mismatch"],
                          input=diff.encode("utf-8"), cwd=folder, capture_output=True,
                          check=False)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()


def test_fix_adds_the_enums_the_prose_lists_to_a_hand_kept_manifest(
        runner: CliRunner, tmp_path: Path) -> None:
    path = _copy("orders.json", tmp_path)
    assert [f for f in _findings(runner, "--select", "PARAM001", "orders.json")] == [
        ("PARAM001", "list_orders", "/tools/0/inputSchema/properties/status"),
        ("PARAM001", "list_orders", "/tools/0/inputSchema/properties/sort"),
        ("PARAM001", "get_order", "/tools/1/inputSchema/properties/format"),
        ("PARAM001", "get_order", "/tools/1/inputSchema/properties/include"),
    ]
    result = _check(runner, "--fix", "--select", "PARAM001", "--format", "json", "orders.json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "Fixed 3 problems in 1 file.\n"
    # What is left is reported: "include" takes several values at once, so no enum for it.
    left = json.loads(result.stdout)["findings"]
    assert [(f["code"], f["pointer"], f["line"], f["fix"]) for f in left] == [
        ("PARAM001", "/tools/1/inputSchema/properties/include", 45, None)]
    assert path.read_text(encoding="utf-8") == (FIXES / "orders.param001.json").read_text(
        encoding="utf-8")


def test_fix_twice_changes_nothing_and_does_not_touch_the_file(
        runner: CliRunner, tmp_path: Path) -> None:
    path = _copy("orders.json", tmp_path)
    assert _check(runner, "--fix", "orders.json").exit_code in (0, 1)
    fixed = path.read_bytes()
    os.utime(path, (OLD, OLD))
    inode = path.stat().st_ino
    result = _check(runner, "--fix", "orders.json")
    assert result.stderr.endswith("No safe fixes to apply.\n")
    assert path.read_bytes() == fixed
    assert path.stat().st_mtime_ns == OLD * 10**9 and path.stat().st_ino == inode
    assert sorted(os.listdir(tmp_path)) == ["orders.json"]


def test_fixed_file_lints_clean_for_the_fixed_rules(runner: CliRunner, tmp_path: Path) -> None:
    _copy("orders.json", tmp_path)
    before = _json_report(runner, "orders.json")
    fixable = {(f["code"], f["pointer"]) for f in before if f["fix"]}
    assert fixable, "the fixture must have something to fix"
    assert _check(runner, "--fix", "orders.json").exit_code in (0, 1)
    after = _json_report(runner, "orders.json")
    keyed = {(f["code"], f["pointer"]) for f in after}
    assert not fixable & keyed
    assert not [f for f in after if f["fix"]]
    # Nothing new appears, and only fixed findings disappear.
    assert keyed == {(f["code"], f["pointer"]) for f in before} - fixable


def _json_report(runner: CliRunner, *args: str) -> list[dict[str, Any]]:
    result = _check(runner, "--format", "json", "--fail-on", "never", *args)
    assert result.exit_code == 0, result.stderr
    findings: list[dict[str, Any]] = json.loads(result.stdout)["findings"]
    return findings


@pytest.mark.parametrize(("newline", "final_newline"), [
    ("\n", True), ("\r\n", True), ("\n", False), ("\r\n", False)])
def test_diff_is_a_unified_diff_patch_applies_to_the_fix_result(
        runner: CliRunner, tmp_path: Path, newline: str, final_newline: bool) -> None:
    path = _copy("orders.json", tmp_path, newline, final_newline)
    original = path.read_bytes()
    result = _check(runner, "--diff", "orders.json")
    assert result.exit_code == 1, result.stderr
    assert result.stderr == "Would fix 5 problems in 1 file.\n"
    diff = result.stdout_bytes.decode("utf-8")
    assert diff.startswith("--- a/orders.json\n+++ b/orders.json\n@@ ")
    body = [line for line in diff.split("\n")[:-1] if not line.startswith(("---", "+++", "@@"))]
    assert body and all(line.endswith("\r") is (newline == "\r\n") for line in body)
    # --diff wrote nothing.
    assert path.read_bytes() == original and path.stat().st_mtime_ns == OLD * 10**9
    assert os.listdir(tmp_path) == ["orders.json"]

    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "orders.json").write_bytes(original)
    _patch(diff, copy)

    assert _check(runner, "--fix", "orders.json").exit_code in (0, 1)
    fixed = path.read_bytes()
    assert (copy / "orders.json").read_bytes() == fixed
    expected = (FIXES / "orders.fixed.json").read_text(encoding="utf-8")
    if not final_newline:
        expected = expected.rstrip("\n")
    assert fixed == expected.replace("\n", newline).encode("utf-8")

    again = _check(runner, "--diff", "orders.json")
    assert (again.exit_code, again.stdout) == (0, "")
    assert again.stderr == "No safe fixes to apply.\n"


def test_fix_keeps_the_mode_and_writes_through_a_symlink(
        runner: CliRunner, tmp_path: Path) -> None:
    real = _copy("orders.json", tmp_path)
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real.name)
    assert _check(runner, "--fix", "link.json").exit_code in (0, 1)
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8") == (FIXES / "orders.fixed.json").read_text(
        encoding="utf-8")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["link.json", "orders.json"]


def test_a_file_named_twice_is_fixed_once(runner: CliRunner, tmp_path: Path) -> None:
    path = _copy("orders.json", tmp_path)
    (tmp_path / "link.json").symlink_to(path.name)
    result = _check(runner, "--fix", "--select", "PARAM001", "orders.json", "link.json", ".")
    assert result.exit_code == 0, result.output
    assert result.stderr == "Fixed 3 problems in 1 file.\n"
    assert path.read_text(encoding="utf-8") == (FIXES / "orders.param001.json").read_text(
        encoding="utf-8")


def test_directory_target_fixes_each_manifest_and_skips_other_json(
        runner: CliRunner, tmp_path: Path) -> None:
    _copy("orders.json", tmp_path)
    sub = tmp_path / "sub"
    sub.mkdir()
    _copy("orders.json", sub)
    (tmp_path / "package.json").write_text('{"name": "x"}', encoding="utf-8")
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {}}', encoding="utf-8")
    result = _check(runner, "--fix", "--select", "PARAM001", ".")
    assert result.exit_code == 0, result.output
    assert result.stderr == "Fixed 6 problems in 2 files.\n"
    assert (tmp_path / "tsconfig.json").read_text(encoding="utf-8") == '{"compilerOptions": {}}'


def test_standard_input_is_linted_but_not_fixed(runner: CliRunner, tmp_path: Path) -> None:
    path = _copy("orders.json", tmp_path)
    text = path.read_text(encoding="utf-8")
    result = _check(runner, "--fix", "--select", "PARAM001", "--format", "json", "-",
                    "orders.json", stdin=text)
    assert result.stderr == (
        "mcplint: --fix changes only JSON manifest and snapshot files, not standard input "
        "(linted as usual).\nFixed 3 problems in 1 file.\n")
    report = json.loads(result.stdout)
    assert [(f["file"], f["pointer"]) for f in report["findings"]
            if f["file"] == "<stdin>"][:1] == [
        ("<stdin>", "/tools/0/inputSchema/properties/status")]
    assert result.exit_code == 0


def test_diff_reports_unreadable_files_and_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    _copy("orders.json", tmp_path)
    (tmp_path / "broken.json").write_text('{"tools": [}', encoding="utf-8")
    result = _check(runner, "--diff", "orders.json", "broken.json")
    assert result.exit_code == 2
    assert result.stdout.startswith("--- a/orders.json\n")
    assert "error: broken.json:1:12: invalid JSON" in result.stderr


def test_fix_with_a_broken_file_fixes_the_others_and_exits_2(
        runner: CliRunner, tmp_path: Path) -> None:
    path = _copy("orders.json", tmp_path)
    (tmp_path / "broken.json").write_text('{"tools": [}', encoding="utf-8")
    result = _check(runner, "--fix", "--select", "PARAM001", "orders.json", "broken.json")
    assert result.exit_code == 2
    assert "broken.json:1:12: invalid JSON" in result.output
    assert path.read_text(encoding="utf-8") == (FIXES / "orders.param001.json").read_text(
        encoding="utf-8")


def test_diff_names_outside_the_working_directory_are_plain_paths(tmp_path: Path) -> None:
    outside = str(tmp_path / "m.json")
    fix = FileFix(outside, '{"a": 1}\n', '{"a": 1, "b": 2}\n', 1)
    assert unified_diff(fix).splitlines()[:2] == [f"--- {outside}", f"+++ {outside}"]


def test_diff_splits_lines_only_at_newlines() -> None:
    # U+2028 is valid inside a JSON string; str.splitlines would break the line there.
    fix = FileFix("m.json", '{"a": "x\u2028y"}\n', '{"a": "x\u2028y", "b": 2}\n', 1)
    assert unified_diff(fix) == (
        "--- a/m.json\n+++ b/m.json\n@@ -1 +1 @@\n"
        '-{"a": "x\u2028y"}\n+{"a": "x\u2028y", "b": 2}\n')


def test_fix_declares_the_default_hints_of_destructive_tools(
        runner: CliRunner, tmp_path: Path) -> None:
    path = _copy("orders.json", tmp_path)
    before = [(f["tool"], f["pointer"], f["fix"] is not None)
              for f in _json_report(runner, "--select", "SAFE003", "orders.json")]
    assert before == [
        ("list_orders", "/tools/0/annotations", False),
        ("get_order", "/tools/1", False),
        ("delete_order", "/tools/2/annotations", True),
        ("remove_order_item", "/tools/3", True),
    ]
    result = _check(runner, "--fix", "--select", "SAFE003", "orders.json")
    assert result.stderr == "Fixed 2 problems in 1 file.\n"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["tools"][2]["annotations"] == {
        "title": "Delete order", "readOnlyHint": False, "destructiveHint": True}
    assert list(data["tools"][3]) == ["name", "description", "inputSchema", "annotations"]
    assert data["tools"][3]["annotations"] == {"readOnlyHint": False, "destructiveHint": True}
    # The reads are not certain enough to declare readOnlyHint: true; they stay suggestions.
    after = [(f["tool"], f["fix"]) for f in _json_report(runner, "--select", "SAFE003",
                                                         "orders.json")]
    assert after == [("list_orders", None), ("get_order", None)]


JSONC = """{
  // A hand-kept manifest, with comments and trailing commas.
  "tools": [
    {
      "name": "list_orders", /* the name agents call */
      "description": "List orders, newest first. Returns up to 100 orders; pass the cursor to \
get the next page. Use this to find an order; for one known order use get_order.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "status": {
            "type": "string",
            "description": "Only orders in this status, one of: 'open' or 'paid'.", // ok
          },
          "cursor": {"type": "string", "description": "Cursor from the previous page.",},
        },
      },
    },
  ],
}
""".replace("\\\n", "")


def test_jsonc_manifest_keeps_comments_and_trailing_commas(
        runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "orders.jsonc"
    path.write_text(JSONC, encoding="utf-8")
    result = _check(runner, "--fix", "--select", "PARAM001", "orders.jsonc")
    assert result.stderr == "Fixed 1 problem in 1 file.\n", result.output
    assert path.read_text(encoding="utf-8") == JSONC.replace(
        """"description": "Only orders in this status, one of: 'open' or 'paid'.", // ok
""",
        """"description": "Only orders in this status, one of: 'open' or 'paid'.", // ok
            "enum": ["open", "paid"],
""")


def test_change_on_a_last_line_without_newline_diffs_and_patches(
        runner: CliRunner, tmp_path: Path) -> None:
    text = ('{"tools": [{"name": "get_report", "description": "Get a report as JSON with its '
            'rows. Use this for one known report.", "inputSchema": {"type": "object", '
            '"properties": {"format": {"type": "string", "description": '
            '"Output format, one of: csv, json."}}}}]}')
    path = tmp_path / "one.json"
    path.write_text(text, encoding="utf-8")
    result = _check(runner, "--diff", "--select", "PARAM001", "one.json")
    assert result.exit_code == 1
    diff = result.stdout_bytes.decode("utf-8")
    assert diff == (
        "--- a/one.json\n+++ b/one.json\n@@ -1 +1 @@\n"
        f"-{text}\n\\ No newline at end of file\n"
        f"+{text[:-6]}, \"enum\": [\"csv\", \"json\"]}}}}}}}}]}}\n"
        "\\ No newline at end of file\n")
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "one.json").write_text(text, encoding="utf-8")
    _patch(diff, copy)
    assert _check(runner, "--fix", "--select", "PARAM001", "one.json").exit_code == 0
    assert (copy / "one.json").read_bytes() == path.read_bytes()
    assert not path.read_text(encoding="utf-8").endswith("\n")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the real corpus (../shared) is not present")
def test_corpus_fixes_parse_patch_cleanly_and_add_no_unexplained_findings(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed, patched = tmp_path / "fixed", tmp_path / "patched"
    for folder in (fixed, patched):
        folder.mkdir()
        for source in sorted(CORPUS.glob("*.json")):
            shutil.copyfile(source, folder / source.name)
    monkeypatch.chdir(fixed)
    before = _json_report(runner, ".")
    diff = _check(runner, "--diff", ".")
    assert diff.exit_code == 1, diff.stderr
    result = _check(runner, "--fix", "--format", "json", "--fail-on", "never", ".")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == diff.stderr.replace("Would fix", "Fixed")
    _patch(diff.stdout_bytes.decode("utf-8"), patched)
    changed = 0
    for path in sorted(fixed.iterdir()):
        text = path.read_text(encoding="utf-8")
        assert (patched / path.name).read_text(encoding="utf-8") == text, path.name
        assert not isinstance(parse_json(text), ParseError), path.name
        changed += text != (CORPUS / path.name).read_text(encoding="utf-8")
    assert f"in {changed} files." in result.stderr
    after = json.loads(result.stdout)["findings"]
    assert not [f for f in after if f["fix"]]
    fixable = {(f["file"], f["code"], f["pointer"]) for f in before if f["fix"]}
    old = {(f["file"], f["code"], f["pointer"]) for f in before}
    new = [f for f in after if (f["file"], f["code"], f["pointer"]) not in old]
    # A fix may reveal, never invent: an enum naming "deploy" shows a write to be destructive
    # (SAFE001), and added annotations can take a tool over its token budget (COST003).
    fixed_tools = {(file, pointer.split("/")[2]) for file, _, pointer in fixable}
    for finding in new:
        assert finding["code"] in ("SAFE001", "COST003"), finding
        assert (finding["file"], finding["pointer"].split("/")[2]) in fixed_tools, finding
    assert not fixable & {(f["file"], f["code"], f["pointer"]) for f in after}


def test_client_configs_are_linted_but_not_fixed_and_said_so_once(
        runner: CliRunner, tmp_path: Path) -> None:
    config = '{"mcpServers": {"a": {"url": "http://127.0.0.1:9/mcp"}}}'
    for name in ("one.json", "two.json"):
        (tmp_path / name).write_text(config, encoding="utf-8")
    _copy("orders.json", tmp_path)
    result = _check(runner, "--diff", "one.json", "two.json", "orders.json")
    assert result.stderr.count("client configs") == 1
    assert result.stderr.startswith(
        "mcplint: --diff changes only JSON manifest and snapshot files, not client configs.\n")
    assert result.stdout.count("+++ ") == 1 and result.exit_code == 1
    assert (tmp_path / "one.json").read_text(encoding="utf-8") == config


def test_server_set_snapshot_is_fixed_in_every_part(runner: CliRunner, tmp_path: Path) -> None:
    servers = {
        "a": {"tools": [{"name": "get_x", "description": "Get x.", "inputSchema": {
            "type": "object", "properties": {"mode": {
                "type": "string", "description": "Mode, one of: fast, slow."}}}}]},
        "b": {"tools": [{"name": "delete_y", "description": "Delete y forever.",
                         "inputSchema": {"type": "object"}}]},
    }
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"servers": servers}, indent=2) + "\n", encoding="utf-8")
    result = _check(runner, "--fix", "--select", "PARAM001,SAFE003", "set.json")
    assert "Fixed " in result.stderr, result.output
    data = json.loads(path.read_text(encoding="utf-8"))["servers"]
    assert data["a"]["tools"][0]["inputSchema"]["properties"]["mode"]["enum"] == [
        "fast", "slow"]
    assert data["b"]["tools"][0]["annotations"] == {
        "readOnlyHint": False, "destructiveHint": True}


def test_diff_applies_with_git_apply(runner: CliRunner, tmp_path: Path) -> None:
    path = _copy("orders.json", tmp_path, "\r\n")
    original = path.read_bytes()
    diff = _check(runner, "--diff", "orders.json").stdout_bytes
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "orders.json").write_bytes(original)
    done = subprocess.run(["git", "apply", "--whitespace=nowarn", "-"], input=diff, cwd=copy,
                          capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert (copy / "orders.json").read_bytes() == (FIXES / "orders.fixed.json").read_bytes(
        ).replace(b"\n", b"\r\n")


def test_every_kind_not_fixed_is_named_in_one_note(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "claude.json").write_text(
        '{"mcpServers": {"a": {"url": "http://127.0.0.1:9/mcp"}}}', encoding="utf-8")
    # --diff lints nothing, so the live server is never contacted.
    result = _check(runner, "--diff", "--http", "http://127.0.0.1:9/mcp", "-", "claude.json",
                    stdin="{}")
    assert result.stderr == (
        "mcplint: --diff changes only JSON manifest and snapshot files, not live servers, "
        "standard input or client configs.\nNo safe fixes to apply.\n")
    assert (result.exit_code, result.stdout) == (0, "")


def test_write_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text('{"a": 2}', encoding="utf-8")
    os.utime(path, (OLD, OLD))
    message = write(FileFix(str(path), '{"a": 1}', '{"a": 1, "b": 2}', 1))
    assert message == f"{path}: changed while it was being fixed; not written"
    assert path.read_text(encoding="utf-8") == '{"a": 2}'
    assert path.stat().st_mtime_ns == OLD * 10**9
    assert os.listdir(tmp_path) == ["m.json"]


def test_write_reports_a_missing_file_instead_of_raising(tmp_path: Path) -> None:
    message = write(FileFix(str(tmp_path / "gone.json"), "{}", '{"a": 1}', 1))
    assert message is not None
    assert message.startswith(f"{tmp_path / 'gone.json'}: cannot write the fixed file: ")
