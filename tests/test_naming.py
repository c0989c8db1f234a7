"""The naming helpers (mcplint.names) and the two naming checks: near-duplicate names (NAME001)
and naming style (NAME002).  Fixture files cover the located findings; these tests pin down the
pieces: how names are split, singularised and styled, which pairs count as near-duplicates and
why, and that the check stays fast on a server with thousands of tools."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mcplint.checks.base import Context
from mcplint.config import Config
from mcplint.engine.linter import Linter, Selection
from mcplint.findings import Severity
from mcplint.loaders.jsonsource import Document, parse_json
from mcplint.loaders.manifest import build_manifest
from mcplint.model import Manifest
from mcplint.names import fits_style, name_style, render_style, restyle, singular, split_name

ROOT = Path(__file__).resolve().parents[1]


# --- helpers -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "tokens"), [
    ("get_user", ("get", "user")),
    ("getUserProfile", ("get", "user", "profile")),
    ("GetHTTPResponse", ("get", "http", "response")),
    ("list-S3-buckets", ("list", "s3", "buckets")),
    ("wiki_v2_space_getNode", ("wiki", "v2", "space", "get", "node")),
    ("github.search_repos", ("github", "search", "repos")),
    ("base64Encode", ("base64", "encode")),
    ("", ()),
])
def test_split_name(name: str, tokens: tuple[str, ...]) -> None:
    assert split_name(name) == tokens


@pytest.mark.parametrize(("word", "expected"), [
    ("papers", "paper"), ("ids", "id"), ("entries", "entry"), ("branches", "branch"),
    ("boxes", "box"), ("devices", "device"), ("services", "service"), ("sizes", "size"),
    ("indices", "index"), ("statuses", "status"), ("caches", "cache"), ("cookies", "cookie"),
    # Not plural: left alone.
    ("status", "status"), ("analysis", "analysis"), ("access", "access"), ("news", "news"),
    ("series", "series"), ("user", "user"), ("as", "as"),
])
def test_singular(word: str, expected: str) -> None:
    assert singular(word) == expected


@pytest.mark.parametrize(("name", "style"), [
    ("get_user", "snake"),
    ("getUser", "camel"),
    ("GetUser", "pascal"),
    ("get-user", "kebab"),
    ("orders.search", "dotted"),
    ("search", "single"),
    ("_private", "single"),  # a leading underscore joins nothing
    ("API-get-user", "kebab"),  # an all-capitals part is an acronym
    ("list_S3_buckets", "snake"),
    ("bitable_v1_appTable_create", "snake-camel"),
    ("wiki_v2_space_getNode", "snake-camel"),
    ("get_user-profile", "mixed"),
    ("Get_User", "mixed"),
    ("GET_USER", "mixed"),
    ("get user", "other"),
    ("", "other"),
])
def test_name_style(name: str, style: str) -> None:
    assert name_style(name) == style


def test_fits_style() -> None:
    assert fits_style("single", "camel")
    assert fits_style("snake", "snake-camel")
    assert not fits_style("snake-camel", "snake")
    assert not fits_style("camel", "snake-camel")
    assert not fits_style("kebab", "snake")


@pytest.mark.parametrize(("style", "expected"), [
    ("snake", "get_user_profile"),
    ("camel", "getUserProfile"),
    ("pascal", "GetUserProfile"),
    ("kebab", "get-user-profile"),
    ("dotted", "get.user.profile"),
    ("snake-camel", "get_user_profile"),  # its snake_case names conform
])
def test_render_style(style: Any, expected: str) -> None:
    assert render_style(("get", "user", "profile"), style) == expected
    assert render_style((), style) == ""


@pytest.mark.parametrize(("name", "style", "expected"), [
    ("deleteUser", "snake", "delete_user"),
    ("getURLForId", "snake", "get_url_for_id"),  # an acronym inside a camelCase word
    ("API-update_user", "kebab", "API-update-user"),  # an acronym the author set apart
    ("get_user_v2", "camel", "getUserV2"),
    ("wiki_v2_space_getNode", "snake", "wiki_v2_space_get_node"),
])
def test_restyle(name: str, style: Any, expected: str) -> None:
    assert restyle(name, style) == expected


# --- the checks --------------------------------------------------------------------------------

def _manifest(*names: str) -> Manifest:
    tools = [{"name": n, "description": f"Tool {n}.", "inputSchema": {"type": "object"}}
             for n in names]
    doc = parse_json(json.dumps({"tools": tools}, indent=2))
    assert isinstance(doc, Document)
    manifest, errors = build_manifest("test.json", doc)
    assert manifest is not None and not errors
    return manifest


def _hits(code: str, manifest: Manifest, **options: Any) -> list[Any]:
    config = Config(path=None, root=ROOT, rules={code: options} if options else {})
    linter = Linter(config, Selection(select=(code,)))
    active = linter.ruleset(manifest.file).rules[code]
    return list(active.rule.check.fn(manifest, Context(manifest, linter.tokens), active.options))


def _pairs(*names: str, **options: Any) -> dict[tuple[str, str], str]:
    """Flagged pairs (earlier, later) → the reason given."""
    return {(h.fields["first"], h.fields["second"]): h.fields["reason"]
            for h in _hits("NAME001", _manifest(*names), **options)}


@pytest.mark.parametrize(("a", "b", "reason"), [
    ("get_order", "getOrder", "differ only by case or separators"),
    ("search_paper", "search_papers", 'differ only by a plural ending ("paper" / "papers")'),
    ("get_invoice", "fetch_invoice", 'differ only by a synonym ("get" / "fetch")'),
    ("cache_get", "cache_get_many", 'differ only by the modifier "many"'),
    ("cache_get_many", "cache_get_multi", 'differ only by modifiers "many" / "multi"'),
    ("get_user", "get_user_v2", 'differ only by the modifier "v2"'),
    ("create_issue", "batch_create_issues",
     'differ only by a plural ending ("issue" / "issues") and the modifier "batch"'),
    ("workflow_list", "workflows-list",
     'differ only by a plural ending ("workflow" / "workflows") and case or separators'),
    ("search_products", "serach_products", '"search" against "serach", which are a letter'),
    ("take_snapshot", "take_heapsnapshot", '"snapshot" against "heapsnapshot", and one word'),
    ("read_file", "read_text_file", 'differ only by the word "text"'),
    ("create_page", "create_page_from_template", 'the words "from template"'),
    ("click", "click_and_switch_tab", 'the words "and switch tab"'),
    ("create_label", "get_or_create_label", 'the words "get or"'),
    ("codebase_search", "github_codebase_search", 'the word "github"'),
    ("playwright_click", "playwright_iframe_click", 'the word "iframe"'),
])
def test_near_duplicates(a: str, b: str, reason: str) -> None:
    # Other tools around the pair, so namespaces (playwright_) are recognised as such.
    others = ("playwright_fill", "playwright_hover", "send_report")
    pairs = _pairs(a, b, *others)
    assert (a, b) in pairs, pairs
    assert reason in pairs[(a, b)]
    assert set(pairs) == {(a, b)}


@pytest.mark.parametrize("names", [
    # Parallel families: a different thing in the same place.
    ("generate_area_chart", "generate_bar_chart", "generate_line_chart"),
    ("browserbase_stagehand_act", "browserbase_stagehand_extract"),
    ("get_user", "get_team"),
    ("list_tags", "list_tabs"),  # short words one letter apart are usually different words
    ("get_api_v1", "get_api_v2_docs"),
    # Opposites.
    ("get_page_restrictions", "set_page_restrictions"),
    ("start_trace", "stop_trace"),
    ("assign_user", "unassign_user"),
    ("connect_device", "disconnect_device"),
    ("geocode", "reverse_geocode"),
    ("cache_incr", "cache_decr"),
    # A new last word is another thing; an added action is another action.
    ("get_issue", "get_issue_link"),
    ("repo_branch", "repo_create_branch", "repo_file"),
    ("repo_pull_request_write", "repo_pull_request_thread_write", "repo_file"),
    # An added preposition makes the rest its object.
    ("get_project", "get_service_desk_for_project"),
    # One item against a scoped list.
    ("get_issue", "get_board_issues"),
    # A new last word that is not an aspect of the thing is another thing.
    ("get_project", "get_project_teams"),
    ("stories_create", "stories_create_comment", "stories_search"),
    # Exact duplicates are the spec rule's business.
    ("get_order", "get_order"),
])
def test_not_near_duplicates(names: tuple[str, ...]) -> None:
    assert _pairs(*names) == {}


@pytest.mark.parametrize(("a", "b", "reason"), [
    ("get_filter", "list_filters", 'differ only by the verbs "get" and "list" on one object'),
    ("list-events", "get-event", 'differ only by the verbs "list" and "get" on one object'),
    ("get_alert", "get_alert_details", 'differ only by the word "details" at the end'),
    ("get_users", "get_user_profile", 'differ only by the word "profile" at the end'),
    ("get_project", "get_project_url", 'differ only by the word "url" at the end'),
])
def test_weak_kinds_are_reported_at_info(a: str, b: str, reason: str) -> None:
    hits = _hits("NAME001", _manifest(a, b, "send_report"))
    assert [(h.fields["first"], h.fields["second"]) for h in hits] == [(a, b)]
    assert reason in hits[0].fields["reason"]
    assert hits[0].severity is Severity.INFO


def test_a_pair_whose_descriptions_name_each_other_is_asked_to_rename_only() -> None:
    tools = [{"name": "list_request", "description": "One request by id; list_requests for "
              "many.", "inputSchema": {"type": "object"}},
             {"name": "list_requests", "description": "Requests in a queue.",
              "inputSchema": {"type": "object"}},
             {"name": "get_invoice", "description": "An invoice.",
              "inputSchema": {"type": "object"}},
             {"name": "fetch_invoice", "description": "An invoice.",
              "inputSchema": {"type": "object"}}]
    doc = parse_json(json.dumps({"tools": tools}))
    assert isinstance(doc, Document)
    manifest, _ = build_manifest("test.json", doc)
    assert manifest is not None
    config = Config(path=None, root=ROOT)
    found = {f.tool: f for f in Linter(config, Selection(select=("NAME001",)))
             .lint(manifest).findings}
    told = found["list_requests"]
    assert "say in each description" not in told.message
    assert told.suggestion == ('Rename "list_request" or "list_requests" so the names differ '
                               "in a word that says what each does.")
    untold = found["fetch_invoice"]
    assert 'And say in each description which one to use when: "Use get_invoice when' in \
        untold.message
    assert untold.suggestion is not None and untold.suggestion.startswith(
        'Add to the description of "get_invoice"')


def test_strong_kinds_keep_the_rule_severity() -> None:
    (hit,) = _hits("NAME001", _manifest("get_invoice", "fetch_invoice"))
    assert hit.severity is None


def test_vocabularies_are_options() -> None:
    (hit,) = _hits("NAME001", _manifest("get_filter", "list_filters"),
                   **{"extend-synonyms": [["get", "list"]]})
    assert hit.severity is None  # synonyms: the strong kind
    assert _pairs("get_filter", "list_filters", **{"collection-verbs": []}) == {}
    assert _pairs("get_alert", "get_alert_details", **{"aspect-words": []}) == {}
    assert ("get_ticket", "get_issue") in _pairs(
        "get_ticket", "get_issue", **{"extend-synonyms": [["issue", "ticket"]]})
    assert _pairs("cache_get", "cache_get_many", modifiers=[]) == {}
    assert _pairs("search_items", "serch_items", **{"edit-min-length": 7}) == {}


def test_finding_is_on_the_later_tool_with_the_earlier_related() -> None:
    manifest = _manifest("cancel_order", "search_papers", "get_order", "search_paper")
    (hit,) = _hits("NAME001", manifest)
    assert hit.pointer == "/tools/3/name"
    assert hit.tool is manifest.tools[3]
    assert [(tool.name, pointer) for tool, pointer in hit.related] == [
        ("search_papers", "/tools/1/name")]
    assert (hit.fields["first"], hit.fields["second"]) == ("search_papers", "search_paper")


def test_advice_fits_the_reason() -> None:
    advice = {(h.fields["first"], h.fields["second"]): h.fields["advice"]
              for h in _hits("NAME001", _manifest(
                  "jira_get_issue_development_info", "jira_get_issues_development_info",
                  "read_file", "read_text_file"))}
    plural = advice[("jira_get_issue_development_info", "jira_get_issues_development_info")]
    assert "merge them into one tool that takes a list" in plural
    assert "get_get" not in plural
    assert advice[("read_file", "read_text_file")].startswith(
        'Rename "read_file" to say what sets it apart from "read_text_file"')


def test_message_names_both_tools_and_the_disambiguation() -> None:
    config = Config(path=None, root=ROOT)
    (finding,) = Linter(config, Selection(select=("NAME001",))).lint(
        _manifest("get_invoice", "fetch_invoice")).findings
    assert finding.message.startswith('Tools "get_invoice" and "fetch_invoice" differ only by')
    assert '"Use get_invoice when …; use fetch_invoice when …"' in finding.message
    assert finding.related[0].tool == "get_invoice"


def test_many_names_stay_fast() -> None:
    rng = random.Random(7)
    letters = "aeioubcdfglmnprst"
    nouns = ["".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(3000)]
    verbs = ["get", "list", "create", "update", "delete", "search", "fetch", "set", "export"]
    names: set[str] = set()
    while len(names) < 10_000:
        words = [rng.choice(verbs), *rng.sample(nouns, rng.choice((1, 1, 2, 3)))]
        if rng.random() < 0.2:
            words.append(rng.choice(("by_id", "from_template", "batch", "many", "v2")))
        names.add("_".join(words))
    manifest = _manifest(*sorted(names))
    start = time.perf_counter()
    _hits("NAME001", manifest)
    _hits("NAME002", manifest)
    assert time.perf_counter() - start < 5  # about 0.3 s; generous for slow CI machines


# --- naming style ------------------------------------------------------------------------------

def _styles(*names: str, **options: Any) -> dict[str, str]:
    """Flagged name → suggested rename."""
    return {h.fields["name"]: h.fields["suggestion"]
            for h in _hits("NAME002", _manifest(*names), **options)}


def test_style_minority_is_flagged_with_a_conforming_name() -> None:
    assert _styles("get_user", "list_users", "deleteUser", "search") == {
        "deleteUser": "delete_user"}
    assert _styles("getUser", "listUsers", "delete_user") == {"delete_user": "deleteUser"}
    assert _styles("API-get-user", "API-list-users", "API-update_user") == {
        "API-update_user": "API-update-user"}
    assert _styles("github.search_repos", "github.get_issue", "github.listPulls") == {
        "github.listPulls": "github.list_pulls"}


def test_style_camel_parts_within_snake() -> None:
    # Generated clients join camelCase parts with "_": a convention, not a mix.
    lark = ("bitable_v1_app_create", "bitable_v1_appTable_create", "bitable_v1_appTable_list",
            "im_v1_chat_create", "wiki_v2_space_getNode")
    assert _styles(*lark) == {}
    # A tie between the two: the camelCase-parts style fits the snake_case names too.
    assert _styles("a_b_c", "d_e_f", "a_bC_d", "e_fG_h") == {}
    # Among snake_case names, a camelCase part is the odd one out.
    assert _styles("im_v1_chat_create", "im_v1_chat_list", "im_v1_message_create",
                   "im_v1_chatMembers_get") == {"im_v1_chatMembers_get": "im_v1_chat_members_get"}


def test_style_needs_a_majority() -> None:
    assert _styles("get_user", "list_users", "deleteUser", "updateUser") == {}
    assert _styles("get_user", "deleteUser") == {}  # fewer than min-tools styled names
    assert _styles("search", "fetch", "getUser") == {}  # one-word names fit every style


def test_style_from_configuration() -> None:
    hits = _hits("NAME002", _manifest("getUser", "listUsers", "delete_user"), style="snake")
    assert {h.fields["name"]: h.fields["suggestion"] for h in hits} == {
        "getUser": "get_user", "listUsers": "list_users"}
    assert all("configuration" in h.fields["majority"] for h in hits)


def test_one_edit_agrees_with_optimal_string_alignment() -> None:
    # The hand-written check stands in for rapidfuzz's OSA distance (kept off the import path
    # of a lint run); on words of a small alphabet every kind of edit, and none, occurs.
    from rapidfuzz.distance import OSA

    from mcplint.checks.naming import _one_edit

    rng = random.Random(7)
    letters = "abcde"
    for _ in range(20000):
        x = "".join(rng.choice(letters) for _ in range(rng.randint(0, 7)))
        y = list(x)
        for _ in range(rng.randint(0, 2)):
            kind = rng.randrange(4)
            if kind == 0 and y:
                y.pop(rng.randrange(len(y)))
            elif kind == 1:
                y.insert(rng.randint(0, len(y)), rng.choice(letters))
            elif kind == 2 and y:
                y[rng.randrange(len(y))] = rng.choice(letters)
            elif len(y) > 1:
                i = rng.randrange(len(y) - 1)
                y[i], y[i + 1] = y[i + 1], y[i]
        other = "".join(y)
        assert _one_edit(x, other) == (OSA.distance(x, other, score_cutoff=1) <= 1), (x, other)


def test_a_lint_run_does_not_import_the_fuzzy_matcher() -> None:
    # 20 ms of every run went to importing rapidfuzz for messages that are rarely written.
    # A whole default lint, its typo pair found by the hand-written edit check.
    manifest = ROOT / "fixtures" / "rules" / "NAME001" / "fail" / "typo.json"
    code = ("import sys\nfrom mcplint.cli import main\n"
            f"sys.argv = ['mcplint', 'check', '--exit-zero', {str(manifest)!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('rapidfuzz' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert "NAME001" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "False"
