"""The description-quality rules (DESC001-DESC006).  Fixture files cover located findings;
these tests pin down the text helpers, which tool or pair each rule names and why, odd input,
the pair check's cost on a large server, and a run over the shared corpus."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from mcplint.checks._text import named_siblings, sentences, stem, words
from mcplint.checks.base import Context
from mcplint.config import Config
from mcplint.engine.linter import Linter, Selection
from mcplint.findings import Finding
from mcplint.loaders.files import Source, load
from mcplint.loaders.jsonsource import Document, parse_json
from mcplint.loaders.manifest import build_manifest
from mcplint.model import Manifest
from mcplint.tokens import get_counter

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"


def _manifest(tools: list[dict[str, Any]]) -> Manifest:
    doc = parse_json(json.dumps({"tools": tools}))
    assert isinstance(doc, Document)
    manifest, errors = build_manifest("test.json", doc)
    assert manifest is not None and not errors
    return manifest


def _tool(name: str, description: Any = None, **extra: Any) -> dict[str, Any]:
    tool: dict[str, Any] = {"name": name, "inputSchema": {"type": "object"}, **extra}
    if description is not None:
        tool["description"] = description
    return tool


def _lint(code: str, tools: list[dict[str, Any]], **options: Any) -> list[Finding]:
    config = Config(path=None, root=ROOT, rules={code: options} if options else {})
    return list(Linter(config, Selection(select=(code,))).lint(_manifest(tools)).findings)


def _flagged(code: str, tools: list[dict[str, Any]], **options: Any) -> list[str]:
    return [f.tool or "" for f in _lint(code, tools, **options)]


# --- text helpers --------------------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b"), [("creates", "create"), ("creating", "create"),
                                      ("papers", "paper"), ("retrieves", "retrieve")])
def test_stem_equates_inflections(a: str, b: str) -> None:
    assert stem(a) == stem(b)


def test_sentences_split_at_ends_and_lines_but_not_abbreviations() -> None:
    text = "Read a file, e.g. a log. Returns text.\n- item one\n```\ncode. here\n```"
    assert sentences(text) == ["Read a file, e.g. a log.", "Returns text.", "- item one"]


def test_words_lower_case_and_drop_possessives() -> None:
    assert words("Gets the user's Gmail labels") == ["gets", "the", "user", "gmail", "labels"]


def test_named_siblings_needs_one_word_names_set_apart() -> None:
    manifest = _manifest([_tool("get"), _tool("list"), _tool("read_text_file"), _tool("me")])
    me = manifest.tools[3]
    ctx = Context(manifest, get_counter())
    assert named_siblings("Use read_text_file instead.", me, ctx) == ["read_text_file"]
    assert named_siblings("Get the list of keys.", me, ctx) == []
    assert named_siblings("Call `get` or the list tool.", me, ctx) == ["get", "list"]


# --- DESC001 --------------------------------------------------------------------------------------

def test_vague_judges_what_is_left_not_length() -> None:
    flagged = _flagged("DESC001", [
        # Long but only the name, filler and a product name: vague.
        _tool("update_label", "This tool will update an existing Gmail label for the user."),
        _tool("create_label", "Creates a new Gmail label."),
        # Short but saying something the name does not: clear.
        _tool("drag", "Drag one element onto another at x,y pixel coordinates."),
    ])
    assert flagged == ["update_label", "create_label"]


def test_vague_message_says_what_was_left() -> None:
    (finding,) = _lint("DESC001", [_tool("get_stock_splits", "Get stock split history.")])
    assert '"history" is left' in finding.message
    assert finding.pointer == "/tools/0/description"


def test_vague_ignores_usage_sentences_and_argument_sections() -> None:
    flagged = _flagged("DESC001", [
        _tool("get_current_time", "Get the current time. Call this FIRST before scheduling "
                                  "events so that dates resolve against the right day."),
        _tool("create_product", "This tool will create a product in Stripe.\n\nIt takes two "
                                "arguments:\n- name (str): The name of the product shown to "
                                "customers on invoices."),
    ])
    assert flagged == ["get_current_time", "create_product"]


def test_vague_counts_words_shared_by_the_whole_server_as_vocabulary() -> None:
    tools = [_tool(f"{verb}", f"{verb.capitalize()} an element on the page")
             for verb in ("click", "hover", "focus")]
    tools += [_tool(verb, f"{verb.capitalize()} {what} on the page")
              for verb, what in (("select", "an option of a drop-down element"),
                                 ("highlight", "matching text in yellow"),
                                 ("measure", "the pixel width of an element"),
                                 ("count", "links, images and forms"),
                                 ("freeze", "animations and timers"),
                                 ("outline", "headings as a nested tree"),
                                 ("translate", "visible text into another language"))]
    assert _flagged("DESC001", tools) == ["click", "hover", "focus"]


def test_vague_keeps_the_domain_words_of_a_small_server() -> None:
    # Four tools are too few to tell vocabulary from domain: "element on the page" is what
    # each acts on.  Only the gestures whose name implies them (click, hover) restate it.
    tools = [_tool(f"{verb}", f"{verb.capitalize()} an element on the page")
             for verb in ("click", "hover", "focus")]
    tools.append(_tool("select", "Select an option of a drop-down element on the page"))
    assert _flagged("DESC001", tools) == ["click", "hover"]
    assert _flagged("DESC001", tools, **{"server-word-min-tools": 4}) == [
        "click", "hover", "focus"]


def test_synonym_vocabulary_can_be_extended() -> None:
    tools = [_tool("issue_search", "Search tickets by owner.")]
    assert _flagged("DESC001", tools) == []
    assert _flagged("DESC001", tools,
                    **{"extend-synonyms": [["issue", "ticket"]]}) == ["issue_search"]


# --- DESC002 --------------------------------------------------------------------------------------

def test_return_counts_named_output_properties_not_a_generic_wrapper() -> None:
    flagged = _flagged("DESC002", [
        _tool("a", "Assign an issue.", outputSchema={
            "type": "object", "properties": {"result": {"type": "string"}}}),
        _tool("b", "Assign an issue.", outputSchema={
            "type": "object", "properties": {"result": {
                "type": "object", "properties": {"assignee": {"type": "string"}}}}}),
        _tool("c", "Assign an issue.", outputSchema={"type": "object",
                                                     "properties": {"assignee": {}}}),
    ])
    assert flagged == ["a"]


@pytest.mark.parametrize(("description", "stated"), [
    ("Returns the result.", False),
    ("Retrieves a list of projects.", False),
    ("Returns: Success message or error message", False),
    ("Returns the id and title of each project.", True),
    ("Exports the table in CSV format.", True),
    ("Lists projects with their owners.", True),
    ("Echoes back the input string.", True),
    ("Full reports are saved to disk.", True),
])
def test_return_statements(description: str, stated: bool) -> None:
    assert bool(_flagged("DESC002", [_tool("t", description)])) is not stated


# --- DESC003 --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("description", "guided"), [
    ("Search issues by text.", False),
    ("Get an issue. Use the expand parameter to pick fields.", False),
    ("Search issues by text. Use this for free-text questions.", True),
    ("Read a file. Deprecated.", True),
    ("Do not use for binary files.", True),
    ("Search issues; for exact filters run_jql is faster.", True),
])
def test_guidance(description: str, guided: bool) -> None:
    tools = [_tool("search_issues", description), _tool("run_jql", "Run JQL. Use this when "
                                                               "filters are exact.")]
    assert ("search_issues" in _flagged("DESC003", tools)) is not guided


def test_guidance_message_suggests_the_closest_siblings() -> None:
    tools = [_tool("search_issues", "Search issues by text."),
             _tool("get_issue", "Use this when you know the key."),
             _tool("list_users", "Use this to find people.")]
    (finding,) = _lint("DESC003", tools)
    assert '"get_issue"' in finding.message and "list_users" not in finding.message


# --- DESC004 --------------------------------------------------------------------------------------

def test_overlap_names_both_tools_and_points_at_the_later_one() -> None:
    tools = [_tool("list_events", "List events."), _tool("search_events", "Search events.")]
    (finding,) = _lint("DESC004", tools)
    assert finding.tool == "search_events"
    assert finding.pointer == "/tools/1/description"
    assert [(r.tool, r.pointer) for r in finding.related] == [
        ("list_events", "/tools/0/description")]
    assert "Use list_events when …; use search_events when …" in finding.message


def test_overlap_a_name_joining_two_actions_covers_each_of_them() -> None:
    tools = [_tool("create_label", "Create a label."),
             _tool("get_or_create_label", "Ensure a label."),
             _tool("get_label", "Read a label."), _tool("delete_label", "Delete a label.")]
    found = {(f.related[0].tool, f.tool): f.message for f in _lint("DESC004", tools)}
    assert set(found) == {("create_label", "get_or_create_label"),
                          ("get_or_create_label", "get_label")}
    assert '"get_or_create_label" does what "get_label" does (get "label") and more' in \
        found[("get_or_create_label", "get_label")]


def test_overlap_contrast_naming_another_sibling_does_not_settle_this_pair() -> None:
    tools = [_tool("cache_get", "Get one key."),
             _tool("cache_get_multi", "Get several keys (alias for cache_get_many)."),
             _tool("cache_get_many", "Get several keys."),
             _tool("cache_set", "Set one key.")]
    pairs = {(f.related[0].tool, f.tool) for f in _lint("DESC004", tools)}
    assert pairs == {("cache_get", "cache_get_multi"), ("cache_get", "cache_get_many")}


def _schema(*names: str, required: tuple[str, ...] = (), **described: str) -> dict[str, Any]:
    properties: dict[str, Any] = {n: {"type": "string"} for n in names}
    for name, text in described.items():
        properties[name] = {"type": "string", "description": text}
    return {"type": "object", "properties": properties, "required": list(required)}


def test_overlap_a_scoped_read_against_a_search_that_takes_its_scope() -> None:
    search = _tool("stories-search", "Find stories.",
                   inputSchema=_schema("query", "label", "project"))
    scoped = _tool("labels-get-stories", "Stories with one label.",
                   inputSchema=_schema("labelPublicId", required=("labelPublicId",)))
    others = [_tool("stories-get", "One story.", inputSchema=_schema("storyId")),
              _tool("stories-delete", "Delete a story.", inputSchema=_schema("storyId"))]
    (finding,) = _lint("DESC004", [search, *others, scoped])
    assert (finding.related[0].tool, finding.tool) == ("stories-search", "labels-get-stories")
    assert ('both read "stories", and "stories-search" takes every argument of '
            '"labels-get-stories" (labelPublicId)') in finding.message
    # The search cannot be scoped by team: the scoped read is its own request.
    teams = _tool("teams-get-stories", "Stories of one team.", inputSchema=_schema("teamId"))
    assert [f.tool for f in _lint("DESC004", [search, *others, teams])] == []


def test_overlap_a_bare_action_against_the_same_action_with_more_arguments() -> None:
    click = _tool("web_click", "Click an element.", inputSchema=_schema("selector"))
    frame = _tool("web_frame_click", "Click inside a frame.",
                  inputSchema=_schema("frameSelector", "selector"))
    back = _tool("web_back", "Go back.")
    (finding,) = _lint("DESC004", [click, frame, back])
    assert 'both click, and only "frame" sets one apart' in finding.message
    # A bare HTTP method names a request, and a bare verb whose arguments the other does not
    # take has an object of its own.
    get = _tool("web_get", "HTTP GET.", inputSchema=_schema("path"))
    status = _tool("web_get_status", "Whether the site is up.", inputSchema=_schema("path"))
    search = _tool("web_search", "Search pages.", inputSchema=_schema("query"))
    fields = _tool("web_search_fields", "Find form fields.", inputSchema=_schema("keyword"))
    assert _lint("DESC004", [get, status, search, fields, back]) == []


def test_overlap_one_thing_in_two_forms_unless_the_form_is_the_input() -> None:
    text = _tool("get_page_text", "The page as text.", inputSchema=_schema("url"))
    html = _tool("get_page_html", "The page as HTML.", inputSchema=_schema("url", "minify"))
    (finding,) = _lint("DESC004", [text, html])
    assert 'both get "page", one as text and one as html' in finding.message
    xml = _tool("import_chart_xml", "Import a chart.", inputSchema=_schema(
        required=("content",), content="The chart as XML."))
    csv = _tool("import_chart_csv", "Import a chart.", inputSchema=_schema(
        required=("content",), content="The chart as CSV rows."))
    assert _lint("DESC004", [xml, csv]) == []


def test_overlap_add_and_set_with_the_same_arguments_by_what_they_name() -> None:
    add = _tool("add_label", "Label an issue.", inputSchema=_schema("issueId", "label"))
    put = _tool("set_labels", "Label an issue.", inputSchema=_schema("issue_id", "labels"))
    (finding,) = _lint("DESC004", [add, put])
    assert 'add and set "label" with the same arguments (issueId, label)' in finding.message
    other = _tool("set_labels", "Label an issue.", inputSchema=_schema("issueId", "color"))
    assert _lint("DESC004", [add, other]) == []


def test_overlap_is_not_a_pairwise_loop_on_large_servers() -> None:
    # 3,000 tools over 1,000 objects: each object has a get, a list and an update tool, so
    # only get/list pairs share an object and an action group.
    tools = []
    for i in range(1000):
        obj = f"thing{i}"
        tools += [_tool(f"get_{obj}", f"Get one {obj}."), _tool(f"list_{obj}s", f"All {obj}s."),
                  _tool(f"update_{obj}", f"Update a {obj}.")]
    start = time.perf_counter()
    findings = _lint("DESC004", tools)
    assert time.perf_counter() - start < 10
    assert findings == []


# --- DESC005 and DESC006 -------------------------------------------------------------------------

def test_limits_in_a_parameter_description_count() -> None:
    tools = [_tool("search_logs", "Search log lines by text.", inputSchema={
        "type": "object", "properties": {"limit": {"type": "integer",
                                                   "description": "At most 500."}}}),
             _tool("tail_logs", "Show the newest log lines.", inputSchema={
                 "type": "object", "properties": {"count": {"type": "integer",
                                                            "description": "How many."}}})]
    assert _flagged("DESC005", tools) == ["tail_logs"]


def test_description_budget_uses_the_token_counter() -> None:
    (finding,) = _lint("DESC006", [_tool("t", "word " * 700)])
    assert "budget 600" in finding.message
    assert _lint("DESC006", [_tool("t", "word " * 700)], **{"max-tokens": 2000}) == []


def test_tool_budget_advice_is_about_the_part_that_is_large() -> None:
    wordy = _tool("wordy", "word " * 400)
    params = {f"p{i}": {"type": "string", "description": "word " * 30} for i in range(12)}
    schema_heavy = _tool("heavy", "Does one thing.",
                         inputSchema={"type": "object", "properties": params})
    found = {f.tool: f.message for f in _lint("COST003", [wordy, schema_heavy],
                                               **{"warning-above": 300})}
    assert "most of it is its description" in found["wordy"]
    assert "Cut examples and repeated prose from the description" in found["wordy"]
    assert "most of it is its inputSchema" in found["heavy"]
    assert "Shorten the parameters' descriptions" in found["heavy"]
    assert "from the description" not in found["heavy"]


# --- odd input -----------------------------------------------------------------------------

@pytest.mark.parametrize("code", ["DESC001", "DESC002", "DESC003", "DESC004", "DESC005",
                                  "DESC006"])
def test_odd_tools_never_raise(code: str) -> None:
    tools: list[dict[str, Any]] = [
        _tool("no_description"),
        _tool("number_description", 42),
        _tool("", "Empty name."),
        _tool("blank", "   "),
        _tool("x", "((( [[[ ``` unbalanced"),
        _tool("get_x", "Get x.", outputSchema="not a schema"),
        _tool("get_x", "Duplicate name.", inputSchema={"type": "object", "properties": []}),
    ]
    _lint(code, tools)


# --- corpus --------------------------------------------------------------------------------

@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not here ({CORPUS}); "
                                                "it sits beside the repository")
def test_corpus_runs_and_pair_findings_stay_few() -> None:
    linter = Linter(Config(path=None, root=ROOT), Selection(select=("DESC",)))
    counts: dict[str, int] = {}
    tools = 0
    for path in sorted(CORPUS.glob("*.json")):
        loaded = load(Source(str(path)))
        assert loaded.manifest is not None, path
        tools += len(loaded.manifest.tools)
        for finding in linter.lint(loaded.manifest).findings:
            counts[finding.code] = counts.get(finding.code, 0) + 1
    assert set(counts) <= {f"DESC00{i}" for i in range(1, 8)}
    # Overlaps are pairs a person should read; a rule that pairs everything is noise.
    assert counts.get("DESC004", 0) < tools * 0.1
    assert counts.get("DESC006", 0) < tools * 0.05


def test_repeated_passage_reported_once_and_left_out_of_own_text() -> None:
    """A paragraph four tools share is one server finding with its token cost, located at the
    first tool and related to the others."""
    path = ROOT / "fixtures" / "rules" / "DESC007" / "fail" / "auth-paragraph-everywhere.json"
    loaded = load(Source(str(path)))
    assert loaded.manifest is not None
    linter = Linter(Config(path=None, root=ROOT), Selection(select=("DESC007",)))
    repeated = linter.lint(loaded.manifest).findings
    assert len(repeated) == 1
    only = repeated[0]
    assert only.tool is None and only.pointer == "/tools/0/description"
    assert [r.tool for r in only.related] == ["get_shipment", "cancel_shipment", "track_parcel"]
    assert "repeated in 4 tool descriptions" in only.message
    assert "Authentication: each call needs an API key" in only.message


def test_a_template_filled_in_per_tool_is_one_repeated_passage_with_its_slots_open() -> None:
    """Sentences that differ only in an identifier (a permission, a flag, a tool name) are one
    template: reported once with the slot shown as "…", and kept out of each tool's own text."""
    template = ("Permissions: before calling, make sure your role grants the {} permission; "
                "requests without it are rejected with an AccessDenied error and nothing is "
                "changed, so check the role first if you are not sure it has been granted to "
                "you by the account's administrator.")
    tools = [_tool(name, f"{what} {template.format(permission)}")
             for name, what, permission in [
                 ("list_buckets", "List the buckets of the account.", "store:ListBuckets"),
                 ("list_tables", "List the tables of a bucket.", "store:ListTables"),
                 ("create_table", "Create a table in a bucket.", "store:CreateTable"),
                 ("delete_table", "Delete a table and its rows.", "store:DeleteTable")]]
    (repeated,) = _lint("DESC007", tools)
    assert "repeated in 4 tool descriptions" in repeated.message
    assert "grants the … permission" in repeated.message
    assert "store:ListBuckets" not in repeated.message
    # The template's "if you are not sure" is no tool's own guidance.
    assert _flagged("DESC003", tools) == ["list_buckets", "list_tables", "create_table",
                                          "delete_table"]
