"""Write-safety rules (SAFE001-SAFE005): how a tool's effect is read, which confirmation paths
count, and how the rules score against the hand labels.  Located findings on small manifests are
in fixtures/rules/SAFE*; these tests pin down the pieces and the behaviour on real servers."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from mcplint.checks._writes import Guards, Vocabulary, read_effect, two_phase_members
from mcplint.config import Config
from mcplint.engine.linter import Linter, Selection
from mcplint.findings import Finding, Severity
from mcplint.loaders.files import Source, load
from mcplint.loaders.jsonsource import Document, parse_json
from mcplint.loaders.manifest import build_manifest
from mcplint.model import Manifest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus" / "real"
LABELS = SHARED / "corpus" / "labels"


def _manifest(tools: list[dict[str, Any]]) -> Manifest:
    doc = parse_json(json.dumps({"tools": tools}, indent=1))
    assert isinstance(doc, Document)
    manifest, errors = build_manifest("test.json", doc)
    assert manifest is not None and not errors
    return manifest


def _tool(name: str, description: str = "", annotations: dict[str, Any] | None = None,
          properties: dict[str, Any] | None = None) -> dict[str, Any]:
    tool: dict[str, Any] = {"name": name, "description": description,
                            "inputSchema": {"type": "object", "properties": properties or {}}}
    if annotations is not None:
        tool["annotations"] = annotations
    return tool


def _lint(tools: list[dict[str, Any]], *codes: str,
          rules: dict[str, dict[str, Any]] | None = None) -> list[Finding]:
    linter = Linter(Config(path=None, root=ROOT, rules=rules or {}), Selection(select=codes))
    return list(linter.lint(_manifest(tools)).findings)


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    return Vocabulary.from_options(Linter(Config(path=None, root=ROOT)).rules["SAFE001"].options)


@pytest.mark.parametrize(("tool", "effect"), [
    (_tool("delete_user"), "destructive"),
    (_tool("user_delete"), "destructive"),
    (_tool("create_user"), "write"),
    (_tool("get_user"), "read"),
    # The first action word decides; a write verb after it is the object.
    (_tool("get_post_comments"), "read"),
    # …unless a conjunction adds a second action.
    (_tool("get_or_create_label"), "write"),
    # A run verb on a read object only reads.
    (_tool("execute_log_insights_query"), "read"),
    (_tool("execute_sql"), "destructive"),
    # HTTP POST used for a search.
    (_tool("API-post-search"), "read"),
    # The first action word decides: expanding a link reads it.
    (_tool("expand_link", "Expand a short link to its full URL."), "read"),
    # No verb in the name: the description's first verb, after filler.
    (_tool("maintenance_on", "Enable maintenance mode."), "write"),
    (_tool("stripe_thing", "This tool will cancel a subscription in Stripe."), "write"),
    (_tool("ai_inference", "Run an AI model on text."), "read"),
    # Neither: the annotations, with destructiveHint true or left to its default.
    (_tool("widget", "Widget.", {"readOnlyHint": False}), "write"),
    (_tool("widget", "Widget.", {"readOnlyHint": False, "destructiveHint": False}), "read"),
    # Destructive by description, parameter, enum value, message object, or annotation.
    (_tool("save_file", "Save a file; overwrites an existing one."), "destructive"),
    (_tool("apply_yaml", properties={"force": {"type": "boolean"}}), "destructive"),
    (_tool("manage_accounts", properties={"action": {"enum": ["list", "remove"]}}),
     "destructive"),
    (_tool("slack_post_message"), "destructive"),
    # A router tool does what its selector chooses: the most severe value decides…
    (_tool("files", "Work with files.", properties={
        "action": {"type": "string", "enum": ["read", "write", "delete"]}}), "destructive"),
    (_tool("notes", properties={"command": {"enum": ["search", "create"]}}), "write"),
    (_tool("jobs", properties={"operation": {"type": "string",
                                             "description": "One of: list, pause."}}), "write"),
    (_tool("docs", properties={"action": {"enum": ["search", "get"]}}), "read"),
    # A write-named router whose every choice reads, reads ("run" is its object here).
    (_tool("manage_routing", properties={"operation": {"enum": ["get_policies", "list_contacts"]}}),
     "read"),
    (_tool("pipelines_run", properties={"action": {"enum": ["get", "list"]}}), "read"),
    # …but a name that says it reads keeps its word: the selector is what it reads about.
    (_tool("check_permission", properties={"operation": {"enum": ["read", "delete"]}}), "read"),
    (_tool("draft_email"), "write"),
    (_tool("update_event", annotations={"destructiveHint": True}), "destructive"),
    # A blanket destructiveHint does not make a click or an added comment destructive.
    (_tool("browser_click", annotations={"destructiveHint": True}), "write"),
    (_tool("add_comment", annotations={"destructiveHint": True}), "write"),
])
def test_read_effect(tool: dict[str, Any], effect: str, vocab: Vocabulary) -> None:
    assert read_effect(_manifest([tool]).tools[0], vocab).effect == effect


def test_a_router_says_which_value_makes_it_write(vocab: Vocabulary) -> None:
    tool = _manifest([_tool("files", properties={
        "action": {"type": "string", "enum": ["read", "list", "delete"]}})]).tools[0]
    assert read_effect(tool, vocab).reason == 'its parameter "action" selects "delete"'


def _guards() -> Guards:
    return Guards.from_options(Linter(Config(path=None, root=ROOT)).rules["SAFE001"].options)


def test_two_phase_pairs_match_the_verb_in_any_place() -> None:
    manifest = _manifest([_tool("prepare_transfer"), _tool("confirm_transfer"),
                          _tool("refund_preview"), _tool("refund_apply"),
                          _tool("prepare_invoice"), _tool("confirm_payment")])
    members = two_phase_members(manifest, _guards().pairs)
    by_name = {m.tool.name: (m.partner.name, m.confirms) for m in members.values()}
    assert by_name == {
        "prepare_transfer": ("confirm_transfer", False),
        "confirm_transfer": ("prepare_transfer", True),
        "refund_preview": ("refund_apply", False),
        "refund_apply": ("refund_preview", True),
    }


def test_two_phase_pairs_scale_with_tools_not_pairs() -> None:
    tools = [_tool(f"{verb}_thing_{i}") for i in range(1500) for verb in ("prepare", "confirm")]
    manifest = _manifest(tools)
    start = time.perf_counter()
    members = two_phase_members(manifest, _guards().pairs)
    assert len(members) == 3000
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize(("properties", "guarded"), [
    ({"dry_run": {"type": "boolean"}}, True),
    ({"dryRun": {"type": "boolean"}}, True),
    ({"confirmation_token": {"type": "string"}}, True),
    ({"confirm": {"type": "boolean"}}, True),
    # A confirm flag that is already true confirms nothing.
    ({"confirm": {"type": "boolean", "default": True}}, False),
    ({"force": {"type": "boolean"}}, False),
])
def test_guard_parameters(properties: dict[str, Any], guarded: bool) -> None:
    findings = _lint([_tool("delete_user", properties=properties)], "SAFE001")
    assert (not findings) is guarded


@pytest.mark.parametrize(("description", "guarded"), [
    ("Delete a user. Always ask the user for confirmation before calling.", True),
    ("Delete a user. Only call this if the user explicitly asked for it.", True),
    ("Delete a user. Never call this without the user's approval.", True),
    ("Delete a user. Confirm with the user first.", True),
    # Informational, not an instruction the agent can follow.
    ("Delete a user. Destructive calls may require the user to confirm.", False),
    ("Delete a user. Use with caution.", False),
])
def test_guard_phrases(description: str, guarded: bool) -> None:
    findings = _lint([_tool("delete_user", description)], "SAFE001")
    assert (not findings) is guarded


def test_annotations_alone_are_no_guard() -> None:
    findings = _lint([_tool("delete_user", "Delete a user.",
                            {"readOnlyHint": False, "destructiveHint": True})], "SAFE001")
    assert [f.tool for f in findings] == ["delete_user"]


def test_each_write_is_reported_by_one_rule() -> None:
    tools = [_tool("delete_user"), _tool("create_user"), _tool("get_user")]
    findings = _lint(tools, "SAFE001", "SAFE002")
    assert sorted((f.code, f.tool) for f in findings) == [("SAFE001", "delete_user"),
                                                         ("SAFE002", "create_user")]


def test_an_in_place_change_is_not_called_irreversible() -> None:
    tools = [_tool("set_reminder_time", "Set when a reminder fires."),
             _tool("delete_reminder", "Delete a reminder.")]
    found = {f.tool: f for f in _lint(tools, "SAFE001")}
    assert found["set_reminder_time"].severity is Severity.INFO
    assert 'overwrites a value in place (its name says "set")' in \
        found["set_reminder_time"].message
    assert "the value it replaced is gone" in found["set_reminder_time"].message
    assert "destroys data" not in found["set_reminder_time"].message
    assert found["delete_reminder"].severity is Severity.ERROR
    assert "destroys data or acts irreversibly" in found["delete_reminder"].message
    assert "it cannot be taken back" in found["delete_reminder"].message


def test_vocabulary_extends_from_config() -> None:
    tools = [_tool("frobnicate_widget", "Frobnicate a widget.")]
    assert not _lint(tools, "SAFE002")
    findings = _lint(tools, "SAFE002", rules={"SAFE002": {"extend-write-verbs": ["frobnicate"]}})
    assert [f.tool for f in findings] == ["frobnicate_widget"]


def test_readonly_contradiction_ignores_the_annotation_itself() -> None:
    tools = [_tool("update_profile", annotations={"readOnlyHint": True}),
             _tool("get_profile", annotations={"readOnlyHint": True}),
             _tool("profile", "Profile data.", annotations={"readOnlyHint": True})]
    findings = _lint(tools, "SAFE004")
    assert [(f.tool, f.pointer) for f in findings] == [
        ("update_profile", "/tools/0/annotations/readOnlyHint")]


def test_confirm_side_only_is_checked_for_workflow() -> None:
    tools = [_tool("prepare_transfer", "Preview."), _tool("confirm_transfer", "Do it.")]
    findings = _lint(tools, "SAFE005")
    assert [f.tool for f in findings] == ["confirm_transfer"]
    assert findings[0].related[0].tool == "prepare_transfer"


# --- real data --------------------------------------------------------------------------------

needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir() or not LABELS.is_dir(),
    reason=f"the shared corpus and labels are not here ({SHARED}); they sit beside the "
           "repository in the development workplace, not in a user's clone")


def _labels() -> dict[tuple[str, str], dict[str, Any]]:
    rows = {}
    for path in sorted(LABELS.glob("labels-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows[(row["server"], row["tool"])] = row
    return rows


@needs_corpus
def test_labelled_set_scores() -> None:
    """Unguarded writes and unguarded destructive tools, against the hand labels.

    The floors sit below today's scores (0.97 and 0.93 F1) so the test guards against a
    regression without tuning the rules to these labels.
    """
    labels = _labels()
    linter = Linter(Config(path=None, root=ROOT), Selection(select=("SAFE001", "SAFE002")))
    flagged: dict[str, set[tuple[str, str]]] = {"SAFE001": set(), "SAFE002": set()}
    for server in sorted({s for s, _ in labels}):
        loaded = load(Source(str(CORPUS / f"{server}.json")))
        assert loaded.manifest is not None
        for finding in linter.lint(loaded.manifest).findings:
            flagged[finding.code].add((server, finding.tool or ""))
    gold_write = {k for k, r in labels.items() if r["writes"] and not r["guarded"]}
    gold_destructive = {k for k, r in labels.items() if r["destructive"] and not r["guarded"]}
    predicted_write = (flagged["SAFE001"] | flagged["SAFE002"]) & set(labels)
    predicted_destructive = flagged["SAFE001"] & set(labels)
    for gold, predicted, floor in ((gold_write, predicted_write, 0.9),
                                   (gold_destructive, predicted_destructive, 0.8)):
        hits = len(gold & predicted)
        precision, recall = hits / len(predicted), hits / len(gold)
        assert precision >= floor and recall >= floor, (precision, recall,
                                                        sorted(predicted - gold),
                                                        sorted(gold - predicted))


@needs_corpus
def test_guarded_labelled_tools_are_never_flagged() -> None:
    """The good pattern in real servers (dry-run flags, cost tokens, permission text)."""
    labels = _labels()
    linter = Linter(Config(path=None, root=ROOT), Selection(select=("SAFE001", "SAFE002")))
    guarded = {k for k, r in labels.items() if r.get("guarded")}
    assert guarded
    for server in sorted({s for s, _ in guarded}):
        loaded = load(Source(str(CORPUS / f"{server}.json")))
        assert loaded.manifest is not None
        flagged = {(server, f.tool) for f in linter.lint(loaded.manifest).findings}
        assert not flagged & guarded
