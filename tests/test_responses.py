"""The response-size rules: unbounded list tools (LIST001) and capped lists with no way to the
rest (LIST002).  Fixture files pin down located findings; these tests pin down which tools count
as list tools, what bounds a result, how the two rules split the work, and the corpus run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcplint.config import Config
from mcplint.engine.linter import Linter, Selection
from mcplint.findings import Finding
from mcplint.loaders.jsonsource import Document, parse_json
from mcplint.loaders.manifest import build_manifest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
QUERY = {"query": {"type": "string", "description": "Words to find."}}


def lint(tools: list[dict[str, Any]], codes: tuple[str, ...] = ("LIST001", "LIST002"),
         **rules: dict[str, Any]) -> list[Finding]:
    doc = parse_json(json.dumps({"tools": tools}))
    assert isinstance(doc, Document)
    manifest, errors = build_manifest("test.json", doc)
    assert manifest is not None and not errors
    config = Config(path=None, root=ROOT, rules=dict(rules))
    return list(Linter(config, Selection(select=codes)).lint(manifest).findings)


def tool(name: str, description: str, props: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": QUERY if props is None else props}}


@pytest.mark.parametrize(("name", "description", "is_list"), [
    ("search_orders", "Search orders by text.", True),
    ("list_users", "List users.", True),
    ("teams-list", "Teams of the workspace.", True),  # verb last
    ("hubspot-list-properties", "Properties of an object type.", True),  # namespaced
    ("get_users", "Get all users of the workspace.", True),  # read verb, plural, "all"
    ("get_stories", "Returns all stories in a project.", True),  # opening
    ("get_users", "Get the users a ticket mentions.", False),  # no "all": a small scoped set
    ("get_user", "Get a user's profile.", False),  # one record
    ("get_form_details", "Get all details of a form.", False),  # plural-looking one record
    ("search_users", "Look up a single user by email.", False),  # says it returns one
    ("create_filter", "Creates a mail filter.", False),  # acts; "filter" is a noun here
    ("cancel_query", "Cancel a running query.", False),
    ("list_colors", "List the colors events can have.", False),  # short by nature
    ("browser_tabs", "List, create, close, or select a browser tab.", False),  # many actions
    ("find_declaration", "Finds the declaration of a symbol.", False),  # one thing found
])
def test_what_is_a_list_tool(name: str, description: str, is_list: bool) -> None:
    findings = lint([tool(name, description)], ("LIST001",))
    assert bool(findings) is is_list, [f.message for f in findings]


@pytest.mark.parametrize("props", [
    {"limit": {"type": "integer"}},
    {"maxResults": {"type": "integer"}},
    {"page_token": {"type": "string"}},
    {"cursor": {"type": "string"}},
    {"top_k": {"type": "integer"}},
    {"params": {"type": "object", "properties": {"page_size": {"type": "integer"}}}},
    {"query": {"type": "string", "description": "Words; at most 50 matches come back."}},
])
def test_bounds(props: dict[str, Any]) -> None:
    assert lint([tool("search_orders", "Search orders.", props)], ("LIST001",)) == []


def test_each_tool_gets_at_most_one_of_the_two() -> None:
    tools = [tool("search_a", "Search a."),  # nothing bounds it: LIST001
             tool("search_b", "Search b.", {"limit": {"type": "integer"}}),  # capped: LIST002
             tool("search_c", "Search c.", {"limit": {"type": "integer"},
                                            "offset": {"type": "integer"}})]  # pages: neither
    found = [(f.code, f.tool, f.severity.label) for f in lint(tools)]
    assert found == [("LIST001", "search_a", "info"), ("LIST002", "search_b", "info")]


def test_large_result_names_the_bound() -> None:
    findings = lint([tool("search_b", "Search b; returns up to 20 matches.")], ("LIST002",))
    assert [f.pointer for f in findings] == ["/tools/0/name"]
    assert "the cap its description states" in findings[0].message
    findings = lint([tool("search_b", "Search b.", {"max_rows": {"type": "integer"}})],
                    ("LIST002",))
    assert '"max_rows"' in findings[0].message


def test_parameterless_lists_are_an_opt_in() -> None:
    tools = [tool("list_sessions", "List the open sessions.", {})]
    assert lint(tools, ("LIST001",)) == []
    assert [f.tool for f in lint(tools, ("LIST001",), LIST001={"min-parameters": 0})] == [
        "list_sessions"]


def test_file_output_is_an_escape() -> None:
    tools = [tool("export_rows", "Export all rows of a table, up to 10000.",
                  {"table": {"type": "string"}, "output_path": {"type": "string"}})]
    assert lint(tools) == []


@pytest.mark.skipif(not (CORPUS / "real").is_dir(),
                    reason="the shared corpus (../shared/corpus/real) is not available")
def test_corpus_runs_clean() -> None:
    from mcplint.loaders.files import Source, load

    linter = Linter(Config(path=None, root=ROOT), Selection(select=("LIST001", "LIST002")))
    seen: dict[str, set[str]] = {"LIST001": set(), "LIST002": set()}
    for path in sorted((CORPUS / "real").glob("*.json")):
        loaded = load(Source(str(path)))
        assert loaded.manifest is not None, path
        for finding in linter.lint(loaded.manifest).findings:
            key = f"{path.stem}/{finding.tool}"
            assert key not in seen["LIST001"] | seen["LIST002"], key  # one rule per tool
            seen[finding.code].add(key)
    assert seen["LIST001"] and seen["LIST002"]
    # Single-record and acting tools seen on real servers stay quiet.
    for quiet in ("github-ref/get_file_contents", "gmail-autoauth/create_filter",
                  "aws-cloudwatch/cancel_logs_insight_query",
                  "filesystem/list_allowed_directories"):
        assert quiet not in seen["LIST001"] | seen["LIST002"]
