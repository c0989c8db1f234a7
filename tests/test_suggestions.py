"""Suggestions and safe fixes (issue 7): what each mechanical finding proposes, exactly, and
which of those proposals ``check --fix`` may apply by itself.

The rule fixtures pin one suggestion per finding; these tests pin the reasoning on realistic
tools: an enum is applied only when the prose gives the whole set, annotations only when they
cannot make a client less careful, renames and sentences are suggested, never applied, and
rules whose fix is a matter of writing (vague descriptions, missing return values) propose
nothing.  Where the suggestion is text to add, adding it must silence the rule.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from mcplint.config import Config
from mcplint.engine.linter import Linter, Selection
from mcplint.findings import Finding, Fix
from mcplint.fixes.apply import fix_text
from mcplint.fixes.insert import resolve_pointer
from mcplint.loaders.jsonsource import Document, parse_json
from mcplint.loaders.manifest import build_manifest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "rules"
CORPUS = ROOT.parent / "shared" / "corpus" / "real"


@cache
def _linter(codes: tuple[str, ...]) -> Linter:
    return Linter(Config(path=None, root=ROOT), Selection(select=codes))


def _lint_text(text: str, *codes: str) -> list[Finding]:
    doc = parse_json(text)
    assert isinstance(doc, Document), doc
    manifest, errors = build_manifest("tools.json", doc)
    assert manifest is not None and not errors, errors
    return list(_linter(codes).lint(manifest).findings)


def lint(tools: list[dict[str, Any]], *codes: str) -> list[Finding]:
    return _lint_text(json.dumps({"tools": tools}, indent=2), *codes)


def tool(name: str, description: str | None, props: dict[str, Any] | None = None,
         **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if description is not None:
        out["description"] = description
    out["inputSchema"] = {"type": "object", "properties": props or {}}
    return out | extra


def edits(finding: Finding) -> list[tuple[str, str, Any]] | None:
    if finding.fix is None:
        return None
    return [(e.pointer, e.key, json.loads(e.value_json)) for e in finding.fix.edits]


def apply_fixes(text: str, *codes: str) -> str:
    """The text after ``check --fix`` with these rules, through the real fix planner."""

    def fixes_for(document: Document) -> list[Fix]:
        manifest, _ = build_manifest("tools.json", document)
        assert manifest is not None
        return [f.fix for f in _linter(codes).lint(manifest).findings if f.fix is not None]

    fixed = fix_text(text, fixes_for)
    assert fixed.error is None, fixed.error
    return fixed.text


# --- PARAM001: the enum from the prose ---------------------------------------------------------

ALERTS = [
    tool("list_alert_groups", "List alert groups, newest first, 50 per page.", {
        "state": {"type": "string",
                  "description": "Filter by alert group state (one of: new, acknowledged, "
                                 "resolved, silenced)"},
        "board_type": {"type": "string",
                       "description": "Board type, e.g. 'scrum', 'kanban'"},
        "include": {"type": "string",
                    "description": "Comma-separated sections to inline. Supported: all, "
                                   "comments, watchers"},
        "severity": {"type": "string", "description": "Only groups at this severity."},
        "labels": {"type": "array", "items": {"type": "string"},
                   "description": "Labels to match. Valid values: infra, app, security"},
    }),
]


def test_enum_from_a_complete_list_is_suggested_and_applied() -> None:
    by_param = {f.pointer.rsplit("/", 1)[-1]: f for f in lint(ALERTS, "PARAM001")}
    state = by_param["state"]
    assert state.suggestion == ('Add "enum": ["new", "acknowledged", "resolved", "silenced"] '
                                'to the schema of "state".')
    assert edits(state) == [("/tools/0/inputSchema/properties/state", "enum",
                             ["new", "acknowledged", "resolved", "silenced"])]
    assert "Add" not in state.message  # the message says what is wrong; the fix is separate
    labels = by_param["labels"]
    assert labels.suggestion == ('Add "enum": ["infra", "app", "security"] to the "items" of '
                                 '"labels".')
    assert edits(labels) == [("/tools/0/inputSchema/properties/labels/items", "enum",
                              ["infra", "app", "security"])]


def test_examples_are_suggested_but_not_applied() -> None:
    board = next(f for f in lint(ALERTS, "PARAM001") if f.pointer.endswith("/board_type"))
    assert board.suggestion == 'Add "enum": ["scrum", "kanban"] to the schema of "board_type".'
    assert board.fix is None


def test_no_enum_for_a_comma_separated_string_or_a_name_alone() -> None:
    by_param = {f.pointer.rsplit("/", 1)[-1]: f for f in lint(ALERTS, "PARAM001")}
    # An enum would reject "all,comments"; a name alone gives no values to propose.
    assert by_param["include"].suggestion is None and by_param["include"].fix is None
    assert by_param["severity"].suggestion is None and by_param["severity"].fix is None
    assert "…" not in by_param["severity"].message


def test_an_open_list_is_only_suggested() -> None:
    found = lint([tool("evaluate_script", "Run a script in the page and return its result.", {
        "dialog_action": {"type": "string",
                          "description": "Dialogs: \"accept\", \"dismiss\", or a string to "
                                         "type into a prompt."}})], "PARAM001")
    assert [f.suggestion for f in found] == [
        'Add "enum": ["accept", "dismiss"] to the schema of "dialog_action".']
    assert found[0].fix is None


def test_a_default_outside_the_list_keeps_the_enum_a_suggestion() -> None:
    found = lint([tool("list_orders", "List orders, 50 per page.", {
        "sort": {"type": "string", "default": "relevance",
                 "description": "Sort order. One of: newest, oldest"}})], "PARAM001")
    assert [f.suggestion for f in found] == [
        'Add "enum": ["newest", "oldest"] to the schema of "sort".']
    assert found[0].fix is None


def test_pydantic_optional_gets_the_enum_on_its_string_branch() -> None:
    found = lint([tool("query_logs", "Query logs; returns at most 100 lines.", {
        "direction": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None,
                      "description": "Direction: 'forward' or 'backward'"}})], "PARAM001")
    assert found[0].suggestion == ('Add "enum": ["forward", "backward"] to the string '
                                   'alternative of "direction" (anyOf/0).')
    assert edits(found[0]) == [("/tools/0/inputSchema/properties/direction/anyOf/0", "enum",
                                ["forward", "backward"])]


def test_applied_enum_silences_the_rule() -> None:
    text = json.dumps({"tools": ALERTS}, indent=2)
    fixed = apply_fixes(text, "PARAM001")
    data = json.loads(fixed)["tools"][0]["inputSchema"]["properties"]
    assert data["state"]["enum"] == ["new", "acknowledged", "resolved", "silenced"]
    assert data["labels"]["items"]["enum"] == ["infra", "app", "security"]
    assert "enum" not in data["board_type"] and "enum" not in data["include"]
    left = {f.pointer.rsplit("/", 1)[-1] for f in _lint_text(fixed, "PARAM001")}
    assert left == {"board_type", "include", "severity"}
    assert apply_fixes(fixed, "PARAM001") == fixed  # nothing more to apply


# --- SAFE003: annotations with values ----------------------------------------------------------

def _annotations(tools: list[dict[str, Any]]) -> dict[str, Finding]:
    return {f.tool or "": f for f in lint(tools, "SAFE003")}


def test_destructive_write_gets_the_default_hints_applied() -> None:
    found = _annotations([tool("delete_branch", "Delete a git branch.",
                               {"branch": {"type": "string"}})])["delete_branch"]
    assert found.suggestion == ('Add "annotations": {"readOnlyHint": false, '
                                '"destructiveHint": true} to the tool.')
    assert edits(found) == [("/tools/0", "annotations",
                             {"readOnlyHint": False, "destructiveHint": True})]


def test_additive_write_is_suggested_but_never_marked_harmless() -> None:
    found = _annotations([tool("create_branch", "Create a branch from a commit.",
                               {"name": {"type": "string"}},
                               annotations={"title": "Create branch"})])["create_branch"]
    assert found.suggestion == ('Add "readOnlyHint": false, "destructiveHint": false to its '
                                '"annotations".')
    assert found.fix is None  # destructiveHint: false would relax the client's caution


def test_certain_read_gets_readonly_applied_and_others_only_suggested() -> None:
    found = _annotations([
        tool("get_invoice", "Get one invoice: number, date, lines and total.",
             {"invoice_id": {"type": "string"}}, annotations={"title": "Invoice"}),
        tool("get_report", "Get the monthly report and save it to the shared drive.",
             {"month": {"type": "string"}}),
        tool("fetch_page", "Open the page in the browser and return its text.",
             {"url": {"type": "string"}}),
        tool("list_invoices", "List invoices.", {"customer": {"type": "string"}},
             annotations={"readonlyHint": True}),
    ])
    assert found["get_invoice"].suggestion == 'Add "readOnlyHint": true to its "annotations".'
    assert edits(found["get_invoice"]) == [("/tools/0/annotations", "readOnlyHint", True)]
    # "saves" is a write in the tool's own text; "Open" is not a plain read; a misspelt
    # readonlyHint is the author's intent, which SPEC011 reports and a fix must not shadow.
    for name in ("get_report", "fetch_page", "list_invoices"):
        assert found[name].suggestion is not None and found[name].fix is None, name


# --- names -------------------------------------------------------------------------------------

def test_naming_style_suggests_the_conventional_name() -> None:
    tools = [tool(n, "Does one thing.") for n in ("get_user", "list_users", "getTeam",
                                                   "delete_user")]
    assert [f.suggestion for f in lint(tools, "NAME002")] == ['Rename "getTeam" to "get_team".']


def test_no_rename_onto_a_name_that_is_taken() -> None:
    tools = [tool(n, "Does one thing.") for n in ("get_user", "list_users", "getUser",
                                                   "delete_user")]
    found = lint(tools, "NAME002")
    assert [f.tool for f in found] == ["getUser"] and found[0].suggestion is None


def test_portable_and_sanitized_names() -> None:
    found = lint([tool("github.search_repos", "Search repositories by text."),
                  tool("bestellung löschen", "Delete an order by number.")],
                 "SPEC001", "SPEC002")
    assert sorted((f.code, f.suggestion) for f in found) == [
        ("SPEC001", 'Rename it to "bestellung_loschen".'),
        ("SPEC002", 'Rename it to "bestellung_loschen".'),
        ("SPEC002", 'Rename it to "github_search_repos".'),
    ]
    assert all(f.fix is None for f in found)


def test_pair_rules_suggest_the_sentence_for_both_descriptions() -> None:
    tools = [tool("get_invoice", "Get one invoice by id: number, date and total."),
             tool("fetch_invoice", "Fetch one invoice by id: number, date and total.")]
    want = ('Add to the description of "get_invoice": "Use get_invoice when …; use '
            'fetch_invoice when …." and to that of "fetch_invoice": "Use fetch_invoice when …; '
            'use get_invoice when …."')
    found = lint(tools, "NAME001", "DESC004")
    assert sorted((f.code, f.suggestion) for f in found) == [("DESC004", want),
                                                             ("NAME001", want)]


def test_parameter_name_suggests_the_server_majority() -> None:
    tools = [tool("get_paper", "Get a paper.", {"paper_id": {"type": "string"}}),
             tool("get_citations", "Citing papers.", {"paper_id": {"type": "string"}}),
             tool("get_references", "Cited papers.", {"paperId": {"type": "string"}})]
    assert [f.suggestion for f in lint(tools, "PARAM004")] == [
        'Rename parameter "paperId" of "get_references" to "paper_id".']


def test_typos_of_spec_keys_and_string_booleans() -> None:
    found = lint([{"name": "get_user", "descripton": "Get a user by id.",
                   "inputSchema": {"type": "object"},
                   "annotations": {"readonlyHint": True, "destructiveHint": "false"}}],
                 "SPEC010", "SPEC011", "SPEC012")
    assert sorted((f.code, f.suggestion) for f in found) == [
        ("SPEC010", 'Rename "descripton" to "description".'),
        ("SPEC011", 'Rename "readonlyHint" to "readOnlyHint" in its "annotations".'),
        ("SPEC012", 'Change it to "destructiveHint": false.'),
    ]
    assert all(f.fix is None for f in found)


# --- lists -------------------------------------------------------------------------------------

def test_limit_suggestion_follows_the_server() -> None:
    bounded = {"max_results": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10,
                               "description": "How many."}}
    tools = [tool("search_issues", "Search issues by text.", {"query": {"type": "string"},
                                                               **bounded}),
             tool("search_pages", "Search pages by text.", {"query": {"type": "string"},
                                                             **bounded}),
             tool("list_comments", "List the comments on an issue.",
                  {"issue": {"type": "string"}})]
    found = lint(tools, "LIST001")
    assert [f.suggestion for f in found] == [
        'Add "max_results": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10, '
        '"description": "Most items to return (default 10, at most 50)."} to the properties '
        "of its inputSchema, and say in the description how many items come back."]
    assert found[0].fix is None


# --- text to add must silence the rule ---------------------------------------------------------

def _filled(suggestion: str) -> str:
    """The sentence a suggestion proposes, with its gaps filled in as an author would."""
    sentence = suggestion.split(': "', 1)[1].rsplit('"', 1)[0]
    return sentence.replace("…", "a small, known set of records")


@pytest.mark.parametrize(("code", "tools"), [
    ("SAFE001", [tool("delete_customer", "Delete a customer and all their orders.",
                      {"customer_id": {"type": "string"}})]),
    ("SAFE002", [tool("create_invoice", "Create a draft invoice for a customer.",
                      {"customer_id": {"type": "string"}})]),
    ("DESC003", [tool("search_issues", "Search issues by text; returns key and title.",
                      {"query": {"type": "string"}}),
                 tool("get_issue", "Get one issue by key; returns all its fields.",
                      {"key": {"type": "string"}})]),
    ("SAFE005", [tool("prepare_transfer", "Prepare a transfer; returns a preview and an id.",
                      {"amount": {"type": "number"}}),
                 tool("confirm_transfer", "Execute a prepared transfer by its id.",
                      {"transfer_id": {"type": "string"}})]),
])
def test_adding_the_suggested_sentence_silences_the_rule(code: str,
                                                         tools: list[dict[str, Any]]) -> None:
    found = lint(tools, code)
    assert found and all(f.suggestion for f in found)
    for finding in found:
        target = next(t for t in tools if t["name"] == finding.tool)
        target["description"] += " " + _filled(finding.suggestion or "")
    assert lint(tools, code) == []


def test_adding_the_pair_sentences_silences_the_overlap() -> None:
    tools = [tool("list_events", "List calendar events in a date range."),
             tool("search_events", "Search calendar events in a date range.")]
    (finding,) = lint(tools, "DESC004")
    suggestion = finding.suggestion or ""
    first, second = (part.split(': "', 1)[1].split('"', 1)[0]
                     for part in suggestion.split(" and to that of "))
    tools[0]["description"] += " " + first.replace("…", "you know the dates")
    tools[1]["description"] += " " + second.replace("…", "you have words to match")
    assert lint(tools, "DESC004") == []


# --- what is not mechanical --------------------------------------------------------------------

@pytest.mark.parametrize("code", ["DESC001", "DESC002", "DESC005", "PARAM002", "PARAM003",
                                  "SPEC003", "SPEC004", "PRMT002", "SEC001"])
def test_rules_without_a_mechanical_fix_suggest_nothing(code: str) -> None:
    rule = _linter((code,)).rules[code]
    assert rule.suggestion is None
    found = _lint_text(rule.docs.bad, code)
    assert found and all(f.suggestion is None and f.fix is None for f in found)


# --- every fixture fix, applied, removes its finding -------------------------------------------

def _fixture_fixes() -> list[Any]:
    cases = []
    for sidecar in sorted(FIXTURES.glob("*/fail/*.expected.json")):
        expected = json.loads(sidecar.read_text(encoding="utf-8"))
        if any(entry.get("fix") for entry in expected["findings"]):
            code = sidecar.parts[-3]
            path = sidecar.with_name(sidecar.name.replace(".expected.json", ".json"))
            cases.append(pytest.param(code, path, id=f"{code}-{path.stem}"))
    return cases


@pytest.mark.parametrize(("code", "path"), _fixture_fixes())
def test_fixture_fixes_remove_their_findings(code: str, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    before = _lint_text(text, code)
    fixed_pointers = {f.pointer for f in before if f.fix is not None}
    fixed = apply_fixes(text, code)
    after = _lint_text(fixed, code)
    assert fixed_pointers and not fixed_pointers & {f.pointer for f in after}
    # Findings without a fix are untouched: the fix adds, it does not hide anything else.
    assert ({(f.pointer, f.message) for f in after}
            == {(f.pointer, f.message) for f in before if f.fix is None})
    assert apply_fixes(fixed, code) == fixed


# --- the real corpus ---------------------------------------------------------------------------

def _corpus() -> list[Path]:
    return sorted(CORPUS.rglob("*.json")) if CORPUS.is_dir() else []


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus (../shared) is absent")
def test_corpus_enums_hold_only_words_of_the_parameters_own_description() -> None:
    linter = _linter(("PARAM001",))
    applied = 0
    for path in _corpus():
        doc = parse_json(path.read_text(encoding="utf-8"))
        assert isinstance(doc, Document)
        manifest, _ = build_manifest(str(path), doc)
        assert manifest is not None
        for finding in linter.lint(manifest).findings:
            if finding.fix is None:
                continue
            (edit,) = finding.fix.edits
            node = resolve_pointer(doc.data, finding.pointer)
            text = node.get("description") or node.get("items", {}).get("description")
            values = [v for v in json.loads(edit.value_json) if v is not None]
            assert values and all(0 < len(v) <= 40 and v in text for v in values), finding
            applied += 1
    assert applied >= 20  # 26 when this was written; a drop means the reader got stricter


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus (../shared) is absent")
@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.stem)
def test_corpus_fixes_apply_and_stay_applied(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fixed = apply_fixes(text, "ALL")
    assert apply_fixes(fixed, "ALL") == fixed
    fixable = [f for f in _lint_text(fixed, "ALL") if f.fix is not None]
    assert fixable == []
