"""SARIF output: valid against the 2.1.0 schema, located on real lines, stable fingerprints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from jsonschema import Draft4Validator

from mcplint.cli import main
from mcplint.findings import Finding, RuleInfo, Severity
from mcplint.reporters.sarif import as_dict
from mcplint.run import FileSummary, Report

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SCHEMA = SHARED / "schemas" / "sarif-schema-2.1.0.json"
CORPUS = SHARED / "corpus" / "real"
SERVER = ROOT / "fixtures" / "baseline" / "server.json"
needs_shared = pytest.mark.skipif(not SCHEMA.exists(),
                                  reason="../shared (SARIF schema and corpus) is absent")


def _validate(data: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = sorted(Draft4Validator(schema).iter_errors(data), key=str)
    assert not errors, [e.message for e in errors[:5]]


def _sarif(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["check", "--select", "SPEC,NAME", "--format", "sarif",
                                       *args])
    assert result.exit_code in (0, 1), result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    (tmp_path / "servers").mkdir()
    (tmp_path / "servers" / "desk.json").write_text(SERVER.read_text(encoding="utf-8"),
                                                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@needs_shared
def test_valid_and_located(work: Path) -> None:
    data = _sarif("servers/desk.json")
    _validate(data)
    run = data["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "mcplint"
    rules = driver["rules"]
    got = [(r["ruleId"], rules[r["ruleIndex"]]["id"], r["level"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"])
           for r in run["results"]]
    assert got == [
        ("SPEC007", "SPEC007", "error", "servers/desk.json",
         {"startLine": 9, "startColumn": 22, "endLine": 9, "endColumn": 32}),
        ("SPEC004", "SPEC004", "error", "servers/desk.json",
         {"startLine": 12, "startColumn": 5, "endLine": 15, "endColumn": 6}),
        ("NAME002", "NAME002", "warning", "servers/desk.json",
         {"startLine": 13, "startColumn": 7, "endLine": 13, "endColumn": 28}),
    ]
    assert all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"]
               == "%SRCROOT%" for r in run["results"])
    assert run["results"][0]["message"]["text"].startswith('Tool "get_ticket" requires')
    assert run["invocations"][0]["executionSuccessful"] is True


def test_rules_carry_their_docs(work: Path) -> None:
    rules = {r["id"]: r for r in _sarif("servers/desk.json")["runs"][0]["tool"]["driver"]["rules"]}
    # Every rule that ran is described, not only the ones that fired.
    assert {"SPEC001", "SPEC007", "NAME001", "NAME002"} <= set(rules)
    rule = rules["SPEC007"]
    assert rule["name"] == "required-property-missing"
    assert rule["defaultConfiguration"] == {"level": "error"}
    assert rule["properties"]["tags"] == ["spec", "schema", "correctness"]
    assert "security-severity" not in rule["properties"]
    assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
    assert "Why:" in rule["help"]["text"]
    markdown = rule["help"]["markdown"]
    assert "**Why it matters.**" in markdown and "Bad:\n\n```json\n{" in markdown


def _report(*findings: Finding, groups: tuple[str, ...] = ("security",)) -> Report:
    info = RuleInfo("SEC900", "hidden-instructions", "Hidden instructions", Severity.ERROR,
                    groups, "what", "why", "{}", "{}")
    return Report(findings, (), (FileSummary("a.json", 1, 10),), "estimate", {"SEC900": info})


def test_security_rules_carry_security_severity(tmp_path: Path) -> None:
    finding = Finding("SEC900", "hidden-instructions", Severity.WARNING, "msg", "a.json",
                      "/tools/0/description", 3, 5, "x")
    data = as_dict(_report(finding), tmp_path)
    rule = data["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["properties"]["security-severity"] == "7.5"
    assert data["runs"][0]["results"][0]["level"] == "warning"  # the finding's own severity
    # A SEC or SAFE code is a security rule whatever its groups, and gets the tag code
    # scanning needs to rank it as one; other codes need the "security" group.
    tagged = as_dict(_report(finding, groups=("spec",)), tmp_path)
    assert tagged["runs"][0]["tool"]["driver"]["rules"][0]["properties"] == {
        "tags": ["spec", "security"], "security-severity": "7.5"}
    info = RuleInfo("SPEC900", "plain", "Plain", Severity.ERROR, ("spec",), "what", "why",
                    "{}", "{}")
    plain_finding = Finding("SPEC900", "plain", Severity.ERROR, "msg", "a.json", "", 1, 1)
    plain = as_dict(Report((plain_finding,), (), (FileSummary("a.json", 1, 10),), "estimate",
                           {"SPEC900": info}), tmp_path)
    assert "security-severity" not in plain["runs"][0]["tool"]["driver"]["rules"][0]["properties"]


def _fingerprints(data: dict[str, Any]) -> dict[tuple[str, int], str]:
    return {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]):
            r["partialFingerprints"]["mcplint/v1"] for r in data["runs"][0]["results"]}


def test_fingerprints_survive_line_moves_and_reordering(work: Path) -> None:
    before = _fingerprints(_sarif("servers/desk.json"))
    path = work / "servers" / "desk.json"
    tools = json.loads(path.read_text(encoding="utf-8"))["tools"]
    path.write_text(json.dumps({"tools": list(reversed(tools))}, indent=8), encoding="utf-8")
    after = _fingerprints(_sarif("servers/desk.json"))
    assert set(before) != set(after)  # the findings moved to other lines...
    assert sorted(before.values()) == sorted(after.values())  # ...with the same identities
    assert len(set(before.values())) == 3


def test_outside_the_working_directory_is_relative_too(work: Path, tmp_path_factory:
                                                     pytest.TempPathFactory) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "my server.json"
    elsewhere.write_text(SERVER.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--select", "SPEC,NAME", "--format", "sarif",
                                       str(elsewhere)])
    data = json.loads(result.stdout)
    uri = data["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri["uri"].startswith("../") and uri["uri"].endswith("/my%20server.json")
    assert uri["uriBaseId"] == "%SRCROOT%"
    # No path of the machine that ran it anywhere in the report.
    assert str(work) not in result.stdout and str(elsewhere.parent) not in result.stdout
    assert "file://" not in result.stdout


@needs_shared
def test_input_errors_are_notifications(work: Path) -> None:
    (work / "broken.json").write_text('{"tools": [', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--format", "sarif", "broken.json"])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    _validate(data)
    invocation = data["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    notification = invocation["toolExecutionNotifications"][0]
    assert notification["level"] == "error"
    location = notification["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "broken.json"
    assert location["region"]["startLine"] == 1


@needs_shared
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus/real is absent")
def test_whole_corpus_validates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS.parent)
    result = CliRunner().invoke(main, ["check", "--format", "sarif", "real"])
    assert result.exit_code in (0, 1), result.stderr
    data = json.loads(result.stdout)
    _validate(data)
    results = data["runs"][0]["results"]
    assert results
    assert all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
               .startswith("real/") for r in results)
    assert all(r["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
               for r in results)
    fingerprints = [r["partialFingerprints"]["mcplint/v1"] for r in results]
    assert len(set(fingerprints)) == len(fingerprints)


def test_live_server_findings_point_at_their_client_config(work: Path) -> None:
    (work / ".mcp.json").write_text('{"mcpServers": {}}', encoding="utf-8")
    finding = Finding("SEC900", "hidden-instructions", Severity.ERROR, "msg", ".mcp.json#files",
                      "/tools/0/description", 12, 7, "x")
    location = as_dict(_report(finding), work)["runs"][0]["results"][0]["locations"][0]
    # The line is in the fetched snapshot, not the config, so only the file is given.
    assert location["physicalLocation"] == {"artifactLocation": {"uri": ".mcp.json",
                                                                 "uriBaseId": "%SRCROOT%"}}
    elsewhere = Finding("SEC900", "hidden-instructions", Severity.ERROR, "msg", "server.py",
                        "/tools/0/description", 12, 7, "x")
    location = as_dict(_report(elsewhere), work)["runs"][0]["results"][0]["locations"][0]
    assert location["physicalLocation"]["artifactLocation"] == {"uri": "server.py",
                                                                "uriBaseId": "%SRCROOT%"}
