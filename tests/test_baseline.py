"""The baseline: record today's findings, then report only new ones and the fixed (stale) ones.

Runs go through the real command line on copies of fixtures/baseline/server.json, which has
three findings among the SPEC and NAME rules (selected explicitly, so rules added later do not
change the counts).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from mcplint.cli import main

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "fixtures" / "baseline" / "server.json"
SELECT = ["--select", "SPEC,NAME"]


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "server.json").write_text(SERVER.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def _check(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", *SELECT, "--format", "json", *args])


def _found(result: Result) -> list[tuple[str, str | None, int]]:
    report: dict[str, Any] = json.loads(result.stdout)
    return [(f["code"], f["tool"], f["line"]) for f in report["findings"]]


def _tools(path: Path) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["tools"]
    return tools


def _save(path: Path, tools: list[dict[str, Any]], indent: int = 2) -> None:
    path.write_text(json.dumps({"tools": tools}, indent=indent), encoding="utf-8")


def test_write_then_check_reports_nothing(work: Path) -> None:
    written = _check("server.json", "--write-baseline", "baseline.json")
    assert written.exit_code == 0
    assert "wrote 3 findings to the baseline baseline.json" in written.stderr
    data = json.loads((work / "baseline.json").read_text(encoding="utf-8"))
    assert data["schema"] == "mcplint/baseline/v1"
    assert [(e["code"], e["tool"], e["pointer"]) for e in data["findings"]] == [
        ("NAME002", "closeTicket", "#0/name"),
        ("SPEC004", "closeTicket", "#0"),
        ("SPEC007", "get_ticket", "#0/inputSchema/required/0"),
    ]
    assert all(e["file"] == "server.json" and "line" not in e for e in data["findings"])

    again = _check("server.json", "--baseline", "baseline.json")
    assert again.exit_code == 0
    assert _found(again) == []
    assert "3 findings are in the baseline" in again.stderr
    assert "stale" not in again.stderr


def test_line_moves_and_reordering_keep_findings_baselined(work: Path) -> None:
    _check("server.json", "--write-baseline", "baseline.json")
    tools = _tools(work / "server.json")
    # New lines above every finding, and the tools in reverse order: indexes all change.
    _save(work / "server.json", list(reversed(tools)), indent=6)
    moved = _check("server.json")
    assert sorted(_found(moved)) != sorted(_found(_check(str(SERVER))))  # the lines did move
    result = _check("server.json", "--baseline", "baseline.json")
    assert result.exit_code == 0
    assert _found(result) == []
    assert "stale" not in result.stderr


def test_new_finding_is_reported_and_fixed_one_is_stale(work: Path) -> None:
    _check("server.json", "--write-baseline", "baseline.json")
    tools = _tools(work / "server.json")
    tools[1]["description"] = "Close a ticket by id. Returns the closed ticket."  # fixes SPEC004
    tools[2]["inputSchema"] = {"type": "object", "properties": {"state": {"type": "string"}},
                               "required": ["status"]}  # a new SPEC007
    _save(work / "server.json", tools)
    result = _check("server.json", "--baseline", "baseline.json")
    assert result.exit_code == 1
    assert _found(result) == [("SPEC007", "list_open_tickets", 42)]
    assert "1 baseline entries no longer occur (fixed)" in result.stderr
    assert "stale: server.json closeTicket: SPEC004 at #0" in result.stderr


def test_failing_exit_code_follows_new_findings_only(work: Path) -> None:
    _check("server.json", "--write-baseline", "baseline.json")
    tools = _tools(work / "server.json")
    tools.append({"name": "delete_ticket", "inputSchema": {"type": "object"}})
    _save(work / "server.json", tools)
    result = _check("server.json", "--baseline", "baseline.json")
    assert result.exit_code == 1
    assert _found(result) == [("SPEC004", "delete_ticket", 37)]
    clean = _check("server.json", "--baseline", "baseline.json", "--ignore", "SPEC004")
    assert clean.exit_code == 0


def test_duplicate_names_are_told_apart_by_occurrence(work: Path) -> None:
    tools = [{"name": "get_ticket", "inputSchema": {"type": "object"}}] * 2
    _save(work / "server.json", tools)
    _check("server.json", "--write-baseline", "baseline.json")
    entries = json.loads((work / "baseline.json").read_text(encoding="utf-8"))["findings"]
    assert sorted((e["code"], e["pointer"]) for e in entries) == [
        ("SPEC003", "#1/name"), ("SPEC004", "#0"), ("SPEC004", "#1")]
    # One copy gets a description: exactly one SPEC004 entry is now stale.
    tools = [dict(tools[0], description="Get one ticket by id. Returns its subject."), tools[1]]
    _save(work / "server.json", tools)
    result = _check("server.json", "--baseline", "baseline.json")
    assert _found(result) == []
    assert "stale: server.json get_ticket: SPEC004 at #0" in result.stderr


def test_partial_runs_neither_forget_nor_call_stale_other_files(work: Path) -> None:
    (work / "other.json").write_text(
        json.dumps({"tools": [{"name": "ping", "inputSchema": {"type": "object"}}]}),
        encoding="utf-8")
    _check("server.json", "other.json", "--write-baseline", "baseline.json")
    # As pre-commit does: lint one file, rewrite the baseline; other.json's entry stays.
    _check("server.json", "--write-baseline", "baseline.json")
    entries = json.loads((work / "baseline.json").read_text(encoding="utf-8"))["findings"]
    assert {e["file"] for e in entries} == {"server.json", "other.json"}
    result = _check("server.json", "--baseline", "baseline.json")
    assert result.exit_code == 0 and "stale" not in result.stderr
    # Entries of rules that did not run are not stale either.
    narrow = CliRunner().invoke(main, ["check", "--select", "NAME", "server.json",
                                       "--baseline", "baseline.json"])
    assert narrow.exit_code == 0 and "stale" not in narrow.stderr


def test_paths_are_relative_to_the_baseline_file(work: Path, monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:
    (work / "ci").mkdir()
    _check("server.json", "--write-baseline", "ci/baseline.json")
    entries = json.loads((work / "ci" / "baseline.json").read_text(encoding="utf-8"))["findings"]
    assert {e["file"] for e in entries} == {"../server.json"}
    monkeypatch.chdir(work / "ci")  # another working directory finds the same entries
    result = _check("../server.json", "--baseline", "baseline.json")
    assert result.exit_code == 0 and _found(result) == []


@pytest.mark.parametrize(("content", "message"), [
    (None, "no such baseline file; create it with --write-baseline"),
    ("{not json", "not a readable baseline"),
    ('{"findings": []}', 'not an mcplint baseline (expected "schema": "mcplint/baseline/v1")'),
    ('{"schema": "mcplint/baseline/v1", "findings": [{"code": 1}]}',
     "findings[0].fingerprint is missing or not a string"),
])
def test_bad_baseline_is_a_usage_error(work: Path, content: str | None, message: str) -> None:
    if content is not None:
        (work / "baseline.json").write_text(content, encoding="utf-8")
    result = _check("server.json", "--baseline", "baseline.json")
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_write_baseline_replaces_an_unreadable_one(work: Path) -> None:
    (work / "baseline.json").write_text("", encoding="utf-8")
    assert _check("server.json", "--write-baseline", "baseline.json").exit_code == 0
    assert _check("server.json", "--baseline", "baseline.json").exit_code == 0
    assert not (work / "baseline.json.tmp").exists()
