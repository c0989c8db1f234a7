"""Prompt and resource rules on a live server (raw prompts/list pages) and on static snapshots."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mcplint.live.loading import LiveOptions
from mcplint.live.targets import command_line_targets
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
