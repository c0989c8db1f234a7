"""JUnit XML: a testsuite per file, a testcase per finding (failed when it fails the run) and
one per clean tool."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "fixtures" / "baseline" / "server.json"


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "server.json").write_text(SERVER.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def _junit(*args: str) -> ET.Element:
    result = CliRunner().invoke(main, ["check", "--format", "junit", *args])
    assert result.stdout.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(result.stdout.encode("utf-8"))


def test_suite_per_file_case_per_finding(work: Path) -> None:
    (work / "clean.json").write_text(json.dumps({"tools": [
        {"name": "ping", "description": "Check the server answers. Returns pong.",
         "inputSchema": {"type": "object"}}]}), encoding="utf-8")
    root = _junit("--select", "SPEC,NAME", "server.json", "clean.json")
    # server.json: SPEC007 (error), SPEC004 (error), NAME002 (warning), list_open_tickets clean.
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "2", "0")
    suites = root.findall("testsuite")
    assert [(s.get("name"), s.get("tests"), s.get("failures")) for s in suites] == [
        ("server.json", "4", "2"), ("clean.json", "1", "0")]
    cases = {c.get("name"): c for c in suites[0].findall("testcase")}
    assert list(cases) == ["get_ticket: SPEC007 required-property-missing",
                           "closeTicket: SPEC004 missing-description",
                           "closeTicket: NAME002 inconsistent-naming-style", "list_open_tickets"]
    assert cases["get_ticket: SPEC007 required-property-missing"].get("line") == "9"
    assert cases["list_open_tickets"].get("line") == "16"
    failure = cases["closeTicket: SPEC004 missing-description"].find("failure")
    assert failure is not None
    assert failure.get("type") == "error"
    assert failure.get("message") == "SPEC004 fails the run (--fail-on error)"
    assert (failure.text or "").splitlines()[0].startswith(
        "server.json:12:5: error SPEC004 missing-description: Tool \"closeTicket\"")
    # A warning does not fail the run at --fail-on error: a passing case that says so.
    naming = cases["closeTicket: NAME002 inconsistent-naming-style"]
    assert naming.find("failure") is None
    assert (naming.findtext("system-out") or "").startswith(
        "NAME002 does not fail the run (--fail-on error):\nserver.json:13:7: warning NAME002")
    assert cases["list_open_tickets"].find("failure") is None
    assert suites[0].find("properties/property[@name='tokens']") is not None


def test_info_findings_do_not_fail_a_testcase(work: Path) -> None:
    root = _junit("--select", "SPEC004", "--config", str(_config(work, "info")), "server.json")
    case = root.find("testsuite/testcase[@name='closeTicket: SPEC004 missing-description']")
    assert case is not None
    assert case.find("failure") is None
    assert "SPEC004" in (case.findtext("system-out") or "")
    assert root.get("failures") == "0"


def _config(work: Path, severity: str) -> Path:
    path = work / "mcplint.toml"
    path.write_text(f'[rules.SPEC004]\nseverity = "{severity}"\n', encoding="utf-8")
    return path


def test_control_characters_and_markup_stay_well_formed(work: Path) -> None:
    hostile = "get\u0001ticket</testcase><x>&"
    (work / "hostile.json").write_text(json.dumps({"tools": [
        {"name": hostile, "inputSchema": {"type": "object"}}]}), encoding="utf-8")
    root = _junit("--select", "SPEC", "hostile.json")
    case = root.find("testsuite/testcase")
    assert case is not None
    # The control character is shown as its escape (XML 1.0 could not hold it raw anyway).
    assert (case.get("name") or "").startswith("get\\x01ticket</testcase><x>&: SPEC")
    assert "get\\x01ticket" in (case.findtext("failure") or "")


def test_unreadable_file_is_an_errored_suite(work: Path) -> None:
    (work / "broken.json").write_text("{", encoding="utf-8")
    root = _junit("broken.json")
    suite = root.find("testsuite")
    assert suite is not None
    assert (suite.get("name"), suite.get("errors")) == ("broken.json", "1")
    error = suite.find("testcase/error")
    assert error is not None and error.get("type") == "input-error"
    assert root.get("errors") == "1"


CORPUS = ROOT.parent / "shared" / "corpus" / "real"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus/real is absent")
def test_whole_corpus_is_well_formed() -> None:
    root = _junit(str(CORPUS))
    suites = root.findall("testsuite")
    assert len(suites) == len(list(CORPUS.glob("*.json")))
    assert int(root.get("tests", "0")) == sum(len(s.findall("testcase")) for s in suites)
    assert int(root.get("tests", "0")) >= 1073
