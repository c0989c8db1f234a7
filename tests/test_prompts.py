"""Prompt and resource rules on a live server (raw prompts/list pages) and on static snapshots."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplint.engine.registry import builtin_checks
from mcplint.live.loading import LiveOptions
from mcplint.live.targets import command_line_targets
from mcplint.loaders.jsonsource import parse_json
from mcplint.loaders.manifest import build_manifest
from mcplint.run import Report, run

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "fixtures" / "servers"


def located(report: Report, prefix: str = "PRMT") -> list[tuple[str, str, str, int]]:
    return [(f.code, f.file, f.pointer, f.line) for f in report.findings
            if f.code.startswith(prefix)]


def test_live_prompts_and_resources_are_linted_after_paging() -> None:
    pytest.importorskip("mcp", reason="live tests need the MCP SDK")
    targets = command_line_targets((f"{sys.executable} {SERVERS / 'prompts_server.py'}",),
                                   (), ())
    report = run([], live=LiveOptions(tuple(targets), timeout=20))
    assert report.errors == ()
    assert located(report) == [
        ("PRMT001", "prompts_server.py", "/prompts/0/description", 16),
        ("PRMT004", "prompts_server.py", "/prompts/1/name", 26),
        ("PRMT002", "prompts_server.py", "/prompts/1/arguments/0", 29),
        ("PRMT003", "prompts_server.py", "/resourceTemplates/0", 44),
    ]


def test_lists_outside_a_snapshot_are_not_read(tmp_path: Path) -> None:
    # A bare tools/list result has no prompts; a "prompts" key next to it is not a server's.
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [], "prompts": [{"name": "x"}]}))
    assert located(run([str(path)])) == []


def test_each_server_of_a_set_has_its_own_prompts(tmp_path: Path) -> None:
    prompt = {"name": "triage", "description": "Triage."}
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"servers": {
        "a": {"tools": [], "prompts": [prompt]},
        "b": {"tools": [], "prompts": [{**prompt, "name": "triage_tickets"}]},
    }}, indent=2))
    assert [(code, file, pointer) for code, file, pointer, _ in located(run([str(path)]))] == [
        ("PRMT001", f"{path}#a", "/servers/a/prompts/0/description"),
        ("PRMT001", f"{path}#b", "/servers/b/prompts/0/description"),
    ]


def test_malformed_lists_do_not_break_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "snap.json"
    path.write_text(json.dumps({
        "serverInfo": {"name": "odd"}, "protocolVersion": "2025-06-18", "tools": [],
        "prompts": [1, None, {"name": 5, "arguments": "none"}, {"arguments": [7, {"name": 1}]}],
        "resources": {"not": "a list"}, "resourceTemplates": [[]],
    }))
    report = run([str(path)])
    assert report.errors == ()
    assert [(c, p) for c, _, p, _ in located(report)] == [
        ("PRMT001", "/prompts/2"),
        ("PRMT001", "/prompts/3"),
        ("PRMT002", "/prompts/3/arguments/1"),
    ]


NAME_PARTS = ["get", "Get", "report", "reports", "repor", "summary", "summry", "log", "logs",
              "_", "-", "x", "daily", "Daily"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(NAME_PARTS), min_size=1, max_size=4).map("".join),
                min_size=2, max_size=12))
def test_near_duplicate_prompts_match_comparing_every_pair(names: list[str]) -> None:
    # The rule compares each name only with earlier names it shares a key with; it must report
    # exactly what comparing it with every earlier name reports.
    from mcplint.checks.prompts import _near

    expected = []
    for position, name in enumerate(names):
        for earlier in names[:position]:
            reason = _near(earlier, name, 6)
            if reason and earlier != name:
                expected.append((position, earlier, reason))
                break
    manifest_text = json.dumps({"protocolVersion": "2025-06-18", "serverInfo": {"name": "s"},
                                "tools": [], "prompts": [{"name": n} for n in names]})
    loaded = build_manifest("names.json", parse_json(manifest_text))[0]
    assert loaded is not None
    check = builtin_checks()["near-duplicate-prompt-names"]
    hits = check.fn(loaded, None, {"one-letter-min-length": 6})
    assert [(int(h.pointer.split("/")[2]), h.fields["first"], h.fields["reason"])
            for h in hits] == expected
