"""The parameter rules (PARAM001-PARAM005) and the prose reader they share.

Fixture files pin down located findings; these tests pin down the pieces: which value lists are
read out of a description (and which look like lists but are not), how schemas with anyOf and
$ref are read, what the messages propose, how options change the result, that the name-
consistency check stays linear, and how the rules fare on the labelled real servers.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mcplint.checks._paramtext import (
    declares_closed_set,
    effective_types,
    is_stringish,
    listed_values,
)
from mcplint.config import Config
from mcplint.engine.linter import Linter, Selection
from mcplint.findings import Finding
from mcplint.loaders.jsonsource import Document, parse_json
from mcplint.loaders.manifest import build_manifest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
LEAD_INS = ["one of", "valid values", "allowed values", "options", "either", "must be"]


def lint(tools: list[dict[str, Any]], code: str, **options: Any) -> list[Finding]:
    doc = parse_json(json.dumps({"tools": tools}))
    assert isinstance(doc, Document)
    manifest, errors = build_manifest("test.json", doc)
    assert manifest is not None and not errors
    config = Config(path=None, root=ROOT, rules={code: options} if options else {})
    return list(Linter(config, Selection(select=(code,))).lint(manifest).findings)


def tool(name: str, props: dict[str, Any], description: str = "Does one thing well.",
         **schema: Any) -> dict[str, Any]:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": props, **schema}}


# --- reading value lists out of prose -----------------------------------------------------------

@pytest.mark.parametrize(("text", "values", "examples"), [
    ("Sort direction: 'asc' or 'desc'.", ("asc", "desc"), False),
    ('Valid values: "pod", "node", "container".', ("pod", "node", "container"), False),
    ("Operation to perform: generate, deploy, describe, or delete.",
     ("generate", "deploy", "describe", "delete"), False),
    ("HTTP method to use (GET, POST, PUT, DELETE)", ("GET", "POST", "PUT", "DELETE"), False),
    ("Sort order asc|desc", ("asc", "desc"), False),
    ("Statistic:\n - Average: mean\n - Sum: total", ("Average", "Sum"), False),
    ("Output mode: 'summary' (default) or 'raw' for all fields", ("summary", "raw"), False),
    ("Filter by alert state (one of: new, acknowledged, resolved)",
     ("new", "acknowledged", "resolved"), False),
    ("Kind of resource (e.g., 'Pod', 'Service', 'Deployment').",
     ("Pod", "Service", "Deployment"), True),
    ("Examples: 'stash' (Bitbucket Server), 'bitbucket', 'GitHub'",
     ("stash", "bitbucket", "GitHub"), True),
])
def test_listed_values(text: str, values: tuple[str, ...], examples: bool) -> None:
    listing = listed_values(text, LEAD_INS, 20)
    assert listing is not None
    assert listing.values == values
    assert listing.examples is examples


@pytest.mark.parametrize("text", [
    "The unique identifier (ID or name) of the project.",  # forms of a value, not values
    "Version string: branch name, tag name, or commit SHA.",  # multi-word kinds
    "Token from a previous call. Used for: list_plans, list_suites.",  # other operations
    "'touch' and 'mobile' to emulate mobile devices.",  # flags within a format
    'The value to fill in. "true" or "false" for checkboxes.',  # booleans
    "Account nickname. Required for 'add' and 'remove'.",  # another parameter's values
    'Date filter: "YYYY-MM-DD", "today", "yesterday"',  # a format with shortcuts
    "Each step as '1. Step one|Expected result one\n2. Step two|Expected two'.",  # a format
    "The action, i.e. 'Click the sign in button' or 'Type hello into the box'.",  # sentences
    "A key, e.g. \"Enter\". Modifiers: Control, Shift, Alt",  # a list about something else
    '{"dateTime": "2025-01-01T10:00:00", "timeZone": "UTC"}',  # JSON keys and dates
    "Returns name, email, and role",
])
def test_not_a_value_list(text: str) -> None:
    assert listed_values(text, LEAD_INS, 20) is None


def test_sibling_parameters_are_not_values() -> None:
    text = "You must provide either github_url or owner_repo."
    assert listed_values(text, LEAD_INS, 20) is not None
    assert listed_values(text, LEAD_INS, 20, exclude=["github_url", "owner_repo"]) is None


def test_too_many_values_are_not_a_closed_set() -> None:
    text = "One of: " + ", ".join(f"v{i}" for i in range(30))
    assert listed_values(text, LEAD_INS, 20) is None


# --- reading schemas ------------------------------------------------------------------------------

def test_schema_reading_follows_anyof_and_refs() -> None:
    root = {"$defs": {"Sort": {"type": "string", "enum": ["asc", "desc"]}}}
    optional = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert effective_types(optional) == {"string"}
    assert is_stringish(optional)
    assert is_stringish({"type": "array", "items": {"type": "string"}})
    assert not is_stringish({"type": ["string", "integer"]})
    assert not declares_closed_set(optional)
    assert declares_closed_set({"$ref": "#/$defs/Sort"}, root)
    assert declares_closed_set({"anyOf": [{"$ref": "#/$defs/Sort"}, {"type": "null"}]}, root)
    assert declares_closed_set({"type": "array", "items": {"enum": ["a", "b"]}})
    # A broken or cyclic $ref is read as an unknown schema, not an error.
    cyclic = {"$defs": {"A": {"$ref": "#/$defs/A"}}}
    assert not declares_closed_set({"$ref": "#/$defs/A"}, cyclic)
    assert effective_types({"$ref": "#/$defs/Missing"}, {}) == set()


# --- PARAM001 -------------------------------------------------------------------------------------

def test_closed_set_suggestion_proposes_the_enum() -> None:
    findings = lint([tool("list_orders", {"sort": {"type": "string",
                                                   "description": "'asc' or 'desc'"}})],
                    "PARAM001")
    assert [f.pointer for f in findings] == ["/tools/0/inputSchema/properties/sort"]
    assert findings[0].suggestion == 'Add "enum": ["asc", "desc"] to the schema of "sort".'


def test_closed_set_name_only_and_vocabulary_options() -> None:
    props = {"priority": {"type": "string", "description": "Priority level"},
             "flavor": {"type": "string", "description": "Ice cream flavor"}}
    tools = [tool("create_order", props)]
    assert [f.pointer.rsplit("/", 1)[1] for f in lint(tools, "PARAM001")] == ["priority"]
    assert lint(tools, "PARAM001", **{"name-only": False}) == []
    extended = lint(tools, "PARAM001", **{"extend-names": ["flavor"]})
    assert sorted(f.pointer.rsplit("/", 1)[1] for f in extended) == ["flavor", "priority"]


def test_closed_set_ignores_non_strings_and_free_form_names() -> None:
    props = {"mode": {"type": "integer", "description": "Mode: 1, 2 or 3"},
             "state_id": {"type": "string", "description": "One of: a, b, c"},
             "format": {"type": "string", "description": "Open set, e.g. 'csv' or a custom one"}}
    assert lint([tool("export", props)], "PARAM001") == []


# --- PARAM002 / PARAM003 ----------------------------------------------------------------------

def test_undocumented_parameter_names_the_path() -> None:
    props = {"filter": {"type": "object", "description": "Filters.",
                        "properties": {"data": {"type": "string"}}}}
    findings = lint([tool("search_orders", props)], "PARAM002")
    assert [f.pointer for f in findings] == [
        "/tools/0/inputSchema/properties/filter/properties/data"]
    assert '"filter.data"' in findings[0].message


def test_opaque_format_kinds_are_options() -> None:
    props = {"kunnr": {"type": "string", "description": "Customer number."}}
    tools = [tool("get_customer", props)]
    assert lint(tools, "PARAM003") == []
    kinds = {"id": {"words": ["kunnr"], "shape": r"digit|e\.g\.", "ask": "its format"}}
    findings = lint(tools, "PARAM003", **{"extra-kinds": kinds})
    assert [f.pointer.rsplit("/", 1)[1] for f in findings] == ["kunnr"]
    assert 'takes a value of kind "id"' in findings[0].message
    # extra-kinds adds to the built-in kinds; setting kinds replaces them.
    dated = [tool("plan", {"startDate": {"type": "string", "description": "Start."}})]
    assert len(lint(dated, "PARAM003", **{"extra-kinds": kinds})) == 1
    assert lint(dated, "PARAM003", kinds=kinds) == []


# --- PARAM004 -------------------------------------------------------------------------------------

def test_inconsistent_names_relate_to_the_main_spelling() -> None:
    tools = [tool("get_paper", {"paper_id": {"type": "string"}}),
             tool("get_citations", {"paper_id": {"type": "string"}}),
             tool("get_references", {"paperId": {"type": "string"}})]
    findings = lint(tools, "PARAM004")
    assert [(f.tool, f.pointer) for f in findings] == [
        ("get_references", "/tools/2/inputSchema/properties/paperId")]
    assert [(r.tool, r.pointer) for r in findings[0].related] == [
        ("get_paper", "/tools/0/inputSchema/properties/paper_id")]


def test_inconsistent_names_tie_goes_to_the_servers_usual_case() -> None:
    # Two tools each way: the first tool's spelling used to win; the server writes camelCase.
    camel = {"pageSize": {"type": "integer"}, "dashboardUid": {"type": "string"}}
    tools = [tool("list_rules", {"folder_uid": {"type": "string"}}),
             tool("get_rule", {"folder_uid": {"type": "string"}}),
             tool("search_dashboards", {"folderUid": {"type": "string"}, **camel}),
             tool("list_panels", {"folderUid": {"type": "string"}, **camel})]
    findings = lint(tools, "PARAM004")
    assert [(f.tool, f.pointer.rsplit("/", 1)[1]) for f in findings] == [
        ("list_rules", "folder_uid"), ("get_rule", "folder_uid")]
    assert 'is called "folderUid" on 2 other tool(s)' in findings[0].message


def test_inconsistent_names_synonyms_are_options() -> None:
    tools = [tool("find_a", {"ticket": {"type": "string"}}),
             tool("find_b", {"ticket": {"type": "string"}}),
             tool("find_c", {"issue": {"type": "string"}})]
    assert lint(tools, "PARAM004") == []
    findings = lint(tools, "PARAM004", **{"extend-synonyms": [["ticket", "issue"]]})
    assert [f.tool for f in findings] == ["find_c"]


def test_inconsistent_names_is_linear() -> None:
    tools = [tool(f"get_thing{i}", {f"thing{i % 500}_id": {"type": "string"},
                                    f"thing{i % 500}Id" if i % 7 == 0 else "query":
                                        {"type": "string"}})
             for i in range(4000)]
    started = time.perf_counter()
    lint(tools, "PARAM004")
    assert time.perf_counter() - started < 20


# --- PARAM005 -------------------------------------------------------------------------------------

def test_required_unclear_both_directions() -> None:
    tools = [tool("a", {"x": {"type": "string", "description": "The x. Required."}}),
             tool("b", {"x": {"type": "string", "description": "(optional) The x."}},
                  required=["x"]),
             tool("c", {"x": {"type": "string", "description": "Required when y is set."}})]
    findings = lint(tools, "PARAM005")
    assert [(f.tool, "required" in f.message.split("says it is ")[1][:10]) for f in findings] == [
        ("a", True), ("b", False)]


# --- the real servers -----------------------------------------------------------------------------

CODES = ("PARAM001", "PARAM002", "PARAM003", "PARAM004", "PARAM005")


@pytest.mark.skipif(not (CORPUS / "real").is_dir(),
                    reason="the shared corpus (../shared/corpus/real) is not available")
def test_corpus_runs_clean() -> None:
    from mcplint.loaders.files import Source, load

    linter = Linter(Config(path=None, root=ROOT), Selection(select=CODES))
    counts = dict.fromkeys(CODES, 0)
    for path in sorted((CORPUS / "real").glob("*.json")):
        loaded = load(Source(str(path)))
        assert loaded.manifest is not None, path
        for finding in linter.lint(loaded.manifest).findings:
            counts[finding.code] += 1
            assert finding.line >= 1 and finding.tool
    assert all(counts[code] for code in ("PARAM001", "PARAM002", "PARAM003", "PARAM004"))


@pytest.mark.skipif(not (CORPUS / "labels" / "score.py").is_file(),
                    reason="the labelled set (../shared/corpus/labels) is not available")
def test_labelled_parameter_categories(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression floor on the labelled set: precision and recall of CLOSEDSET and OPAQUE."""
    spec = importlib.util.spec_from_file_location("labels_score", CORPUS / "labels" / "score.py")
    assert spec and spec.loader
    score = importlib.util.module_from_spec(spec)
    # Its dataclasses look their module up in sys.modules while being defined.
    monkeypatch.setitem(sys.modules, "labels_score", score)
    spec.loader.exec_module(score)
    bench = importlib.util.spec_from_file_location("score_labels", ROOT / "bench" /
                                                   "score_labels.py")
    assert bench and bench.loader
    runner = importlib.util.module_from_spec(bench)
    monkeypatch.setitem(sys.modules, "score_labels", runner)
    bench.loader.exec_module(runner)
    gold = score.load_gold(str(CORPUS / "labels"))
    categories = {code: runner.CATEGORIES[code] for code in ("PARAM001", "PARAM002", "PARAM003")}
    pred = runner.predict(CORPUS / "real", categories)
    for category, floor in (("CLOSEDSET", 0.75), ("OPAQUE", 0.65)):
        items = {f"{key}/{label.split(':', 1)[1]}"
                 for key, labels in pred["tools"].items() if key in gold.labelled
                 for label in labels if label.startswith(category + ":")}
        hits = len(items & gold.items[category])
        precision = hits / len(items)
        recall = hits / len(gold.items[category])
        assert 2 * precision * recall / (precision + recall) >= floor, (category, items)
