"""SARIF for code scanning, from real runs of the CLI on real files: valid against the 2.1.0
schema, only the selected rules, each linked to its page, security rules ranked, regions that
span the JSON node, and no path of the machine that wrote it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from jsonschema import Draft4Validator

from mcplint.cli import main
from mcplint.config import Config
from mcplint.docsgen import DOCS_DIR
from mcplint.engine.linter import Linter
from mcplint.links import REPOSITORY_URL, rule_url

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "support-desk.json"
SCHEMA = ROOT.parent / "shared" / "schemas" / "sarif-schema-2.1.0.json"
needs_schema = pytest.mark.skipif(not SCHEMA.exists(), reason="the SARIF schema is absent")


def _validate(data: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = sorted(Draft4Validator(schema).iter_errors(data), key=str)
    assert not errors, [e.message for e in errors[:5]]


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    (tmp_path / "mcp").mkdir()
    (tmp_path / "mcp" / "desk.json").write_text(EXAMPLE.read_text(encoding="utf-8"),
                                                encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _sarif(*args: str, stdin: str | None = None) -> tuple[int, str, dict[str, Any]]:
    result = CliRunner().invoke(main, ["check", "--output-format", "sarif", *args], input=stdin)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, result.stdout, json.loads(result.stdout)


@needs_schema
def test_the_bundled_example_validates_with_a_linked_page_for_every_rule(work: Path) -> None:
    code, text, data = _sarif("mcp/desk.json")
    assert code == 1
    _validate(data)
    run = data["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["informationUri"] == REPOSITORY_URL
    rules = driver["rules"]
    # The rules that ran (those on by default), each once, and no other.
    on = sorted(code for code, rule in Linter(Config(path=None, root=ROOT)).rules.items()
                if rule.default)
    assert sorted(rule["id"] for rule in rules) == on
    for rule in rules:
        assert rule["helpUri"] == rule_url(rule["id"])
        assert (DOCS_DIR / f"{rule['id']}.md").is_file()  # the page the link names exists
        assert rule_url(rule["id"]) in rule["help"]["markdown"]
        assert rule["help"]["text"] and rule["fullDescription"]["text"]
    # Each result's ruleIndex names its rule.
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])
    assert str(work) not in text and "file://" not in text


def test_only_the_selected_rules_are_described(work: Path) -> None:
    _, _, data = _sarif("mcp/desk.json", "--select", "SAFE,NAME001")
    rules = data["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["NAME001", "SAFE001", "SAFE002", "SAFE003", "SAFE004",
                                        "SAFE005"]
    _, _, ignored = _sarif("mcp/desk.json", "--ignore", "SPEC,DESC")
    ids = {r["id"] for r in ignored["runs"][0]["tool"]["driver"]["rules"]}
    assert ids and not any(i.startswith(("SPEC", "DESC")) for i in ids)


def test_every_safety_and_security_rule_has_a_security_severity(work: Path) -> None:
    _, _, data = _sarif("mcp/desk.json")
    rules = data["runs"][0]["tool"]["driver"]["rules"]
    security = [r for r in rules if r["id"].startswith(("SAFE", "SEC"))]
    assert len(security) == 8
    for rule in security:
        score = rule["properties"]["security-severity"]
        assert isinstance(score, str) and 0.0 < float(score) <= 10.0
        # Code scanning reads security-severity only on rules tagged "security".
        assert "security" in rule["properties"]["tags"]
    errors = {r["id"]: r["properties"]["security-severity"] for r in security}
    assert errors["SAFE001"] == errors["SEC001"] == "7.5"  # error rules: high
    assert errors["SEC003"] == "2.0"  # info: low


def _node_text(text: str, region: dict[str, int]) -> str:
    lines = text.splitlines(keepends=True)
    start = sum(len(x) for x in lines[:region["startLine"] - 1]) + region["startColumn"] - 1
    end = sum(len(x) for x in lines[:region["endLine"] - 1]) + region["endColumn"] - 1
    return text[start:end]


def _pointer(data: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:] if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        data = data[int(token)] if isinstance(data, list) else data[token]
    return data


def test_manifest_regions_end_where_the_pointed_node_ends(work: Path) -> None:
    _, _, data = _sarif("mcp/desk.json")
    text = (work / "mcp" / "desk.json").read_text(encoding="utf-8")
    document = json.loads(text)
    results = data["runs"][0]["results"]
    assert results
    for result in results:
        region = result["locations"][0]["physicalLocation"]["region"]
        pointer = result["properties"]["pointer"]
        node = _node_text(text, region)
        expected = _pointer(document, pointer)
        key = pointer.rsplit("/", 1)[-1] if pointer else ""
        if node.startswith(f'"{key}"') and isinstance(_pointer(document, pointer.rsplit("/", 1)[0]),
                                                     dict):
            node = node.split(":", 1)[1]  # an object member: its key, then its value
        assert json.loads(node) == expected, (result["ruleId"], pointer)


def test_regions_in_jsonc_skip_comments_and_crlf_lines(work: Path) -> None:
    jsonc = ('{\r\n  // tools\r\n  "tools": [\r\n    {"name": "get_user", /* } ] */\r\n'
             '     "inputSchema": {"type": "object"}}\r\n  ]\r\n}\r\n')
    (work / "mcp" / "tools.jsonc").write_bytes(jsonc.encode())
    _, _, data = _sarif("mcp/tools.jsonc", "--select", "SPEC004")
    region = data["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 4, "startColumn": 5, "endLine": 5, "endColumn": 40}


def test_standard_input_has_a_start_but_no_end(work: Path) -> None:
    _, _, data = _sarif("-", "--select", "SPEC004", stdin=json.dumps(
        {"tools": [{"name": "x", "inputSchema": {"type": "object"}}]}))
    location = data["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["region"] == {"startLine": 1, "startColumn": 12}
    assert "uriBaseId" not in location["artifactLocation"]


def test_a_file_changed_since_the_lint_keeps_its_start_only(work: Path) -> None:
    from mcplint.reporters.regions import Text

    assert Text('{"a": 1}').node_end(1, 2) == (1, 8)  # "a": 1, one past the 1
    assert Text('{"a": 1}').node_end(1, 5) is None  # ":" starts no node
    assert Text('{"a": [1, 2').node_end(1, 2) is None  # cut short
    assert Text("{}").node_end(3, 1) is None


def test_the_base_id_is_declared_without_a_machine_path(work: Path) -> None:
    _, text, data = _sarif("mcp/desk.json")
    bases = data["runs"][0]["originalUriBaseIds"]
    assert set(bases) == {"%SRCROOT%"}
    assert "uri" not in bases["%SRCROOT%"]
    uris = re.findall(r'"uri": "([^"]*)"', text)
    assert uris and all(not u.startswith(("/", "file:")) for u in uris)
