"""Every format carries a finding's suggestion, safe fix and source location (issue 7).

The reports here are built from Finding objects, the reporters' whole input, around a real
manifest and a real server file on disk, so locations, regions and replacements can be checked
against the text they point into.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator

from mcplint.findings import (
    Edit,
    Finding,
    Fix,
    ParameterSummary,
    RuleInfo,
    Severity,
    SourceLocation,
    TextEdit,
    ToolSummary,
)
from mcplint.links import rule_url
from mcplint.reporters import ReportOptions, get_reporter
from mcplint.reporters import text as text_reporter
from mcplint.reporters.sarif import as_dict as sarif
from mcplint.run import FileSummary, Report

SCHEMA = Path(__file__).resolve().parents[1].parent / "shared" / "schemas" / \
    "sarif-schema-2.1.0.json"

MANIFEST = """\
{
  "tools": [
    {
      "name": "set_status",
      "description": "Set a ticket's status.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "status": {"type": "string", "description": "open, pending or closed"}
        }
      }
    }
  ]
}
"""

SERVER = '''\
from mcp.server.fastmcp import FastMCP

app = FastMCP("desk")


@app.tool()
def set_status(status: str) -> str:
    """Set a ticket's status."""
    return status
'''

ENUM = TextEdit(9, 80, 9, 80, ', "enum": ["open", "pending", "closed"]')
ANNOTATIONS = TextEdit(11, 8, 11, 8, ',\n      "annotations": {"readOnlyHint": false}')
# Column 80 sits right after the description string's closing quote on line 9.
assert MANIFEST.splitlines()[8][:79].endswith('"open, pending or closed"')
assert MANIFEST.splitlines()[10] == "      }"

DOCSTRING = SourceLocation("server.py", 8, 5, 8, 33)
DEF = SourceLocation("server.py", 7, 1, 9, 18)


def _findings() -> tuple[Finding, ...]:
    enum = Finding(
        "PARAM001", "closed-set-without-enum", Severity.WARNING,
        'Parameter "status" of "set_status" lists its values in prose.', "tools.json",
        "/tools/0/inputSchema/properties/status", 9, 11, "set_status",
        suggestion='Add "enum": ["open", "pending", "closed"].',
        fix=Fix('Add "enum": ["open", "pending", "closed"] to "status"',
                (Edit("/tools/0/inputSchema/properties/status", "enum",
                      '["open", "pending", "closed"]'),), (ENUM,)))
    vague = Finding(
        "DESC001", "vague-description", Severity.INFO,
        'Tool "set_status" has a description that only restates its name.', "tools.json",
        "/tools/0/description", 5, 7, "set_status",
        suggestion="Say what it acts on and how: \"Set a ticket's status; closing notifies "
                   "the requester.\"",
        source=DOCSTRING)
    annotations = Finding(
        "SAFE003", "missing-annotations", Severity.WARNING,
        'Tool "set_status" changes state but declares no annotations.', "tools.json",
        "/tools/0", 3, 5, "set_status",
        suggestion='Declare "annotations": {"readOnlyHint": false}.',
        fix=Fix('Add "annotations": {"readOnlyHint": false}',
                (Edit("/tools/0", "annotations", '{"readOnlyHint": false}'),), (ANNOTATIONS,)),
        source=DEF)
    return tuple(sorted((enum, vague, annotations), key=lambda f: f.sort_key))


def _report(findings: tuple[Finding, ...] | None = None) -> Report:
    chosen = _findings() if findings is None else findings
    tool = ToolSummary("set_status", "Set a ticket's status.", 60, "/tools/0", 3,
                       (ParameterSummary("status", ("string",), False,
                                         "open, pending or closed"),))
    rules = {f.code: RuleInfo(f.code, f.name, f.name, f.severity, ("test",), "what", "why",
                              "", "") for f in chosen}
    return Report(chosen, (), (FileSummary("tools.json", 1, 60, tool_details=(tool,)),),
                  "estimate", rules)


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    (tmp_path / "tools.json").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    return tmp_path


def _render(fmt: str, report: Report, **options: Any) -> str:
    out = io.StringIO()
    get_reporter(fmt)(report, out, ReportOptions(**options))
    return out.getvalue()


def _span(text: str, line: int, column: int, end_line: int, end_column: int) -> str:
    lines = text.splitlines(keepends=True)
    start = sum(len(x) for x in lines[:line - 1]) + column - 1
    end = sum(len(x) for x in lines[:end_line - 1]) + end_column - 1
    return text[start:end]


# --- text ---------------------------------------------------------------------------------


def test_text_puts_the_source_first_then_help_and_the_manifest_place(work: Path) -> None:
    out = _render("text", _report(), color=False)
    assert out.splitlines() == [
        "tools.json (1 tool, ~60 tokens)",
        "  set_status",
        "    server.py:7:1  warning  SAFE003 [*] missing-annotations",
        '      Tool "set_status" changes state but declares no annotations.',
        '      help: Declare "annotations": {"readOnlyHint": false}.',
        "      manifest: tools.json:3:5 /tools/0",
        "    server.py:8:5  info     DESC001 vague-description",
        '      Tool "set_status" has a description that only restates its name.',
        "      help: Say what it acts on and how: \"Set a ticket's status; closing notifies the "
        'requester."',
        "      manifest: tools.json:5:7 /tools/0/description",
        "    tools.json:9:11  warning  PARAM001 [*] closed-set-without-enum",
        '      Parameter "status" of "set_status" lists its values in prose.',
        '      help: Add "enum": ["open", "pending", "closed"].',
        "",
        "Found 3 problems (0 errors, 2 warnings, 1 info) in 1 file (1 tool).",
        "[*] 2 fixable with `mcplint check --fix`.",
        "Tokens: estimate.",
    ]
    # The source line points at the docstring itself.
    assert SERVER.splitlines()[7][4:] == '"""Set a ticket\'s status."""'


def test_text_without_the_new_fields_is_unchanged_and_quiet_has_no_fix_count() -> None:
    plain = Finding("SPEC004", "missing-description", Severity.ERROR, "No description.",
                    "a.json", "/tools/0", 3, 5, "x")
    out = _render("text", Report((plain,), (), (FileSummary("a.json", 1, 9),), ""),
                  color=False)
    assert out == ("a.json (1 tool, ~9 tokens)\n  x\n"
                   "    a.json:3:5  error    SPEC004 missing-description\n"
                   "      No description.\n\n"
                   "Found 1 problem (1 error, 0 warnings, 0 info) in 1 file (1 tool).\n")
    quiet = _render("text", _report(), color=False, quiet=True)
    assert "fixable" not in quiet and "Found" not in quiet
    assert quiet.splitlines()[0] == "  set_status"


def test_text_colour_follows_the_flag_and_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    coloured = _render("text", _report(), color=True)
    assert "    server.py:7:1  \x1b[33mwarning\x1b[0m  \x1b[1mSAFE003 [*]\x1b[0m " \
           "\x1b[2mmissing-annotations\x1b[0m\n" in coloured
    assert "      \x1b[1;36mhelp\x1b[0m: Declare" in coloured
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not text_reporter.use_color(io.StringIO(), None)
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert text_reporter.use_color(io.StringIO(), None)
    assert not text_reporter.use_color(io.StringIO(), False)
    monkeypatch.delenv("FORCE_COLOR")
    assert not text_reporter.use_color(io.StringIO(), None)  # not a terminal


def test_text_keeps_terminal_controls_out_and_expands_tabs() -> None:
    hostile = Finding("SEC001", "hidden-instructions", Severity.ERROR,
                      "a\tb\r\x07c \x1b]8;;http://x\x1b\\link", "a.json", "/tools/0", 1, 2,
                      "to\tol", suggestion="use \x1b[2Jthis")
    out = _render("text", Report((hostile,), (), (FileSummary("a.json", 1, 9),), ""),
                  color=False)
    lines = out.splitlines()
    assert lines[1] == "  to    ol"  # tab stops count from the line start, as rich did
    # A lone CR or a BEL is shown, not dropped: a CR would let text overwrite the line.
    assert lines[3] == "      a b\\r\\x07c \\x1b]8;;http://x\\x1b\\link"
    assert lines[4] == "      help: use \\x1b[2Jthis"
    assert "\x1b" not in out


# --- JSON ---------------------------------------------------------------------------------


def test_json_carries_suggestion_fix_and_source() -> None:
    findings = json.loads(_render("json", _report()))["findings"]
    by_code = {f["code"]: f for f in findings}
    assert by_code["PARAM001"]["suggestion"] == 'Add "enum": ["open", "pending", "closed"].'
    assert by_code["PARAM001"]["source"] is None
    assert by_code["PARAM001"]["fix"] == {
        "description": 'Add "enum": ["open", "pending", "closed"] to "status"',
        "edits": [{"pointer": "/tools/0/inputSchema/properties/status", "key": "enum",
                   "value": ["open", "pending", "closed"]}],
        "text_edits": [{"line": 9, "column": 80, "end_line": 9, "end_column": 80,
                        "text": ', "enum": ["open", "pending", "closed"]'}],
    }
    assert by_code["DESC001"]["fix"] is None
    assert by_code["DESC001"]["source"] == {"file": "server.py", "line": 8, "column": 5,
                                            "end_line": 8, "end_column": 33}
    # The manifest place stays the finding's own.
    assert (by_code["DESC001"]["file"], by_code["DESC001"]["line"]) == ("tools.json", 5)


# --- SARIF --------------------------------------------------------------------------------


def _results(work: Path, report: Report | None = None) -> dict[str, dict[str, Any]]:
    data = sarif(report or _report(), work)
    if SCHEMA.exists():
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
        errors = sorted(Draft4Validator(schema).iter_errors(data), key=str)
        assert not errors, [e.message for e in errors[:5]]
    return {r["ruleId"]: r for r in data["runs"][0]["results"]}


@pytest.mark.skipif(not SCHEMA.exists(), reason="../shared (the SARIF schema) is absent")
def test_sarif_is_valid_with_sources_fixes_and_suggestions(work: Path) -> None:
    results = _results(work)
    vague = results["DESC001"]
    assert vague["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "server.py", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 8, "startColumn": 5, "endLine": 8, "endColumn": 33}}
    assert _span(SERVER, 8, 5, 8, 33) == '"""Set a ticket\'s status."""'
    assert vague["locations"][0]["logicalLocations"] == [
        {"fullyQualifiedName": "set_status", "kind": "function"}]
    assert vague["relatedLocations"] == [{
        "id": 1, "physicalLocation": {"artifactLocation": {"uri": "tools.json",
                                                           "uriBaseId": "%SRCROOT%"},
                                      "region": {"startLine": 5, "startColumn": 7,
                                                 "endLine": 5, "endColumn": 46}},
        "message": {"text": "manifest (/tools/0/description)"}}]
    # The manifest region spans the whole member: key, colon and value.
    assert _span(MANIFEST, 5, 7, 5, 46).startswith('"description": "')
    assert _span(MANIFEST, 5, 7, 5, 46).endswith('"')
    assert vague["message"]["text"] == (
        'Tool "set_status" has a description that only restates its name.\n\nSuggestion: '
        "Say what it acts on and how: \"Set a ticket's status; closing notifies the "
        'requester."')
    assert vague["properties"]["suggestion"].startswith("Say what it acts on")
    assert "fixes" not in vague
    enum = results["PARAM001"]
    assert enum["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "tools.json",
                                                                         "uriBaseId": "%SRCROOT%"}
    assert "relatedLocations" not in enum
    assert enum["fixes"] == [{
        "description": {"text": 'Add "enum": ["open", "pending", "closed"] to "status"'},
        "artifactChanges": [{"artifactLocation": {"uri": "tools.json", "uriBaseId": "%SRCROOT%"},
                             "replacements": [{
            "deletedRegion": {"startLine": 9, "startColumn": 80, "endLine": 9,
                              "endColumn": 80},
            "insertedContent": {"text": ', "enum": ["open", "pending", "closed"]'}}]}]}]


def _apply(text: str, replacements: list[dict[str, Any]]) -> str:
    """Apply SARIF replacements as a consumer would: regions in the original text, the last
    first so earlier offsets stay right."""
    spans = []
    for replacement in replacements:
        region = replacement["deletedRegion"]
        lines = text.splitlines(keepends=True)

        def offset(line: int, column: int, lines: list[str] = lines) -> int:
            return sum(len(x) for x in lines[:line - 1]) + column - 1

        spans.append((offset(region["startLine"], region["startColumn"]),
                      offset(region["endLine"], region["endColumn"]),
                      replacement["insertedContent"]["text"]))
    for start, end, inserted in sorted(spans, reverse=True):
        text = text[:start] + inserted + text[end:]
    return text


def test_sarif_replacements_applied_to_the_manifest_give_the_fixed_document(work: Path) -> None:
    results = _results(work)
    replacements = [r for result in results.values() for fix in result.get("fixes", [])
                    for change in fix["artifactChanges"] for r in change["replacements"]
                    if change["artifactLocation"]["uri"] == "tools.json"]
    assert len(replacements) == 2
    fixed = json.loads(_apply((work / "tools.json").read_text(encoding="utf-8"), replacements))
    tool = fixed["tools"][0]
    assert tool["inputSchema"]["properties"]["status"] == {
        "type": "string", "description": "open, pending or closed",
        "enum": ["open", "pending", "closed"]}
    assert tool["annotations"] == {"readOnlyHint": False}
    # A replacement that deletes text removes exactly its region, end column excluded.
    deleting = [{"deletedRegion": {"startLine": 9, "startColumn": 40, "endLine": 9,
                                   "endColumn": 54},
                 "insertedContent": {"text": '"text"'}}]
    assert _span(MANIFEST, 9, 40, 9, 54) == '"description":'
    assert '"text" "open' in _apply(MANIFEST, deleting)


def test_sarif_fingerprints_do_not_depend_on_the_source(work: Path) -> None:
    with_source = _results(work)
    without = _results(work, _report(tuple(
        Finding(f.code, f.name, f.severity, f.message, f.file, f.pointer, f.line, f.column,
                f.tool) for f in _findings())))
    assert {c: r["partialFingerprints"] for c, r in with_source.items()} == \
        {c: r["partialFingerprints"] for c, r in without.items()}
    assert without["DESC001"]["locations"][0]["physicalLocation"]["artifactLocation"] == \
        {"uri": "tools.json", "uriBaseId": "%SRCROOT%"}


def test_sarif_has_no_fixes_for_a_file_not_in_the_repository(work: Path) -> None:
    (work / ".mcp.json").write_text('{"mcpServers": {}}', encoding="utf-8")
    enum = next(f for f in _findings() if f.code == "PARAM001")
    live = Finding(enum.code, enum.name, enum.severity, enum.message, ".mcp.json#desk",
                   enum.pointer, enum.line, enum.column, enum.tool, fix=enum.fix)
    stdin = Finding(enum.code, enum.name, enum.severity, enum.message, "-",
                    enum.pointer, enum.line, enum.column, enum.tool, fix=enum.fix)
    for finding in (live, stdin):
        result = sarif(_report((finding,)), work)["runs"][0]["results"][0]
        assert "fixes" not in result


# --- GitHub -------------------------------------------------------------------------------


def test_github_annotations_sit_on_the_source_with_the_suggestion(work: Path) -> None:
    lines = _render("github", _report(), quiet=True).splitlines()
    assert lines == [
        # A span over several lines carries no columns: the runner would drop them.
        "::warning file=server.py,line=7,endLine=9,title=SAFE003 missing-annotations::"
        'Tool "set_status" changes state but declares no annotations.%0A%0ASuggestion: '
        'Declare "annotations": {"readOnlyHint": false}.%0A%0ASafe fix: Add "annotations": '
        '{"readOnlyHint": false} (`mcplint check --fix`).%0A%0AManifest: tools.json:3:5 '
        "/tools/0",
        "::notice file=server.py,line=8,endLine=8,col=5,endColumn=33,"
        "title=DESC001 vague-description::"
        'Tool "set_status" has a description that only restates its name.%0A%0ASuggestion: '
        "Say what it acts on and how: \"Set a ticket's status; closing notifies the "
        'requester."%0A%0AManifest: tools.json:5:7 /tools/0/description',
        "::warning file=tools.json,line=9,col=11,title=PARAM001 closed-set-without-enum::"
        'Parameter "status" of "set_status" lists its values in prose.%0A%0ASuggestion: '
        'Add "enum": ["open", "pending", "closed"].%0A%0ASafe fix: Add "enum": '
        '["open", "pending", "closed"] to "status" (`mcplint check --fix`).',
    ]


# --- JUnit, Markdown ----------------------------------------------------------------------


def test_junit_failure_lists_source_help_fix_and_manifest() -> None:
    root = ET.fromstring(_render("junit", _report()))
    # A case per finding; at the default --fail-on error none of these (warning, info,
    # warning) fails, so each case carries its finding as output after a line saying so.
    cases = [c for c in root.iter("testcase") if (c.get("name") or "").startswith("set_status")]
    assert len(cases) == 3
    texts = [(c.findtext("failure") or c.findtext("system-out") or "").split(":\n", 1)[-1]
             for c in cases]
    assert "\n".join(texts).splitlines() == [
        'server.py:7:1: warning SAFE003 missing-annotations: Tool "set_status" changes state '
        "but declares no annotations.",
        '  help: Declare "annotations": {"readOnlyHint": false}.',
        '  fix: Add "annotations": {"readOnlyHint": false} (mcplint check --fix)',
        "  manifest: tools.json:3:5 /tools/0",
        'server.py:8:5: info DESC001 vague-description: Tool "set_status" has a description '
        "that only restates its name.",
        "  help: Say what it acts on and how: \"Set a ticket's status; closing notifies the "
        'requester."',
        "  manifest: tools.json:5:7 /tools/0/description",
        'tools.json:9:11: warning PARAM001 closed-set-without-enum: Parameter "status" of '
        '"set_status" lists its values in prose.',
        '  help: Add "enum": ["open", "pending", "closed"].',
        '  fix: Add "enum": ["open", "pending", "closed"] to "status" (mcplint check --fix)',
    ]


def test_markdown_shows_both_places_and_the_suggestion_escaped() -> None:
    page = _render("markdown", _report())
    assert (f'- 🔵 **info** [`DESC001`]({rule_url("DESC001")}) vague-description, '
            '`server.py:8:5` (manifest line 5): '
            'Tool "set\\_status" has a description that only restates its name.\n'
            "  - **Suggestion:** Say what it acts on and how: \"Set a ticket's status; closing "
            'notifies the requester."\n') in page
    assert (f"- 🟡 **warning** [`PARAM001`]({rule_url('PARAM001')}) closed-set-without-enum, "
            "line 9: Parameter "
            '"status" of "set\\_status" lists its values in prose.\n'
            '  - **Suggestion:** Add "enum": \\["open", "pending", "closed"\\].\n'
            '  - **Safe fix:** Add "enum": \\["open", "pending", "closed"\\] to "status" '
            "(`mcplint check --fix`)") in page


def test_markdown_suggestion_follows_a_multi_line_message() -> None:
    finding = Finding("DIFF001", "changed", Severity.WARNING, "Changed:\n- old\n+ new", "a.json",
                      "/tools/0", 3, 5, "x", suggestion="Write <b>@team</b>")
    page = _render("markdown", Report((finding,), (), (FileSummary("a.json", 1, 9),), ""))
    assert ("  ```diff\n  - old\n  + new\n  ```\n\n"
            "  - **Suggestion:** Write \\<b\\>@\u200bteam\\</b\\>") in page


# --- HTML (markup; tests/test_html_browser.py renders it in chromium) ----------------------


def test_html_shows_both_places_suggestion_and_fix_escaped() -> None:
    hostile = Finding("DESC001", "vague-description", Severity.INFO, "m", "tools.json",
                      "/tools/0/description", 5, 7, "set_status",
                      suggestion="<img src=x onerror=alert(1)>",
                      fix=Fix("<script>x</script>", (), ()),
                      source=SourceLocation("<b>server.py", 8, 5, 8, 34))
    page = _render("html", _report((hostile,)))
    assert '<p class="suggestion"><strong>Suggestion:</strong> &lt;img src=x ' \
           "onerror=alert(1)&gt;</p>" in page
    assert "<strong>Safe fix:</strong> &lt;script&gt;x&lt;/script&gt;" in page
    assert "in the code <code dir=\"auto\">&lt;b&gt;server.py:8:5</code>" in page
    assert 'manifest line 5:7 <code dir="auto">/tools/0/description</code>' in page
    assert "<img" not in page


def _formats() -> list[tuple[str, Callable[[str], bool]]]:
    return [("text", lambda out: "help: " in out), ("json", lambda out: '"suggestion"' in out),
            ("sarif", lambda out: "Suggestion: " in out),
            ("github", lambda out: "Suggestion: " in out),
            ("junit", lambda out: "help: " in out),
            ("markdown", lambda out: "**Suggestion:**" in out),
            ("html", lambda out: 'class="suggestion"' in out)]


@pytest.mark.parametrize(("fmt", "shows"), _formats())
def test_every_format_is_deterministic_and_shows_the_suggestion(
        work: Path, monkeypatch: pytest.MonkeyPatch, fmt: str,
        shows: Callable[[str], bool]) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    first, second = _render(fmt, _report()), _render(fmt, _report())
    assert first == second
    assert shows(first)
    assert "server.py" in first


# --- End to end, with the real checks, source mapping and --fix ----------------------------

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not SCHEMA.exists(), reason="../shared (the SARIF schema) is absent")
def test_sarif_fixes_from_a_real_run_equal_what_fix_writes(work: Path) -> None:
    from click.testing import CliRunner

    from mcplint.cli import main

    original = (REPO / "fixtures" / "fixes" / "orders.json").read_text(encoding="utf-8")
    (work / "orders.json").write_text(original, encoding="utf-8")
    (work / "fixed.json").write_text(original, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "orders.json", "--select", "ALL",
                                       "--format", "sarif"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert not list(Draft4Validator(schema).iter_errors(data))
    replacements = [r for result in data["runs"][0]["results"]
                    for fix in result.get("fixes", []) for change in fix["artifactChanges"]
                    for r in change["replacements"]]
    assert replacements
    fixed = CliRunner().invoke(main, ["check", "fixed.json", "--select", "ALL", "--fix"])
    assert fixed.exit_code in (0, 1), fixed.output
    assert _apply(original, replacements) == (work / "fixed.json").read_text(encoding="utf-8")


def test_a_real_typescript_server_is_annotated_on_its_code(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    from click.testing import CliRunner

    from mcplint.cli import main

    monkeypatch.chdir(REPO)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    ts = "fixtures/sources/typescript"
    result = CliRunner().invoke(main, ["check", f"{ts}/snapshot.json", "--source", ts,
                                       "--select", "SAFE001", "--format", "github", "-q"])
    assert result.exit_code == 1, result.output
    line = result.stdout.splitlines()[0]
    source = (REPO / ts / "src" / "stations.ts").read_text(encoding="utf-8").splitlines()
    assert line.startswith(f"::error file={ts}/src/stations.ts,line=22,endLine=22,col=15,")
    assert source[21][14:].startswith('"delete_station"')
    assert f"Manifest: {ts}/snapshot.json:67:7 /tools/2/name" in line


def test_a_live_python_server_is_reported_at_its_docstring(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    pytest.importorskip("mcp", reason="live servers need the MCP SDK: pip install -e '.[dev]'")
    import sys

    from click.testing import CliRunner

    from mcplint.cli import main

    monkeypatch.chdir(REPO)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    server = "fixtures/sources/python_server/server.py"
    docstring = (REPO / server).read_text(encoding="utf-8").splitlines()[39]
    assert docstring[4:22] == '"""Get invoice."""'
    args = ["check", "--select", "DESC001", "--stdio", f"{sys.executable} {server}"]
    sarif_run = CliRunner().invoke(main, [*args, "--format", "sarif"])
    assert sarif_run.exit_code == 0, sarif_run.output  # DESC001 is info
    data = json.loads(sarif_run.stdout)
    if SCHEMA.exists():
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
        assert not list(Draft4Validator(schema).iter_errors(data))
    results = data["runs"][0]["results"]
    result = next(r for r in results
                  if r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
                  == "get_invoice")
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": server, "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 40, "startColumn": 5, "endLine": 40, "endColumn": 23}}
    # The server is named server.py, but the snapshot's lines are not that file's lines.
    assert result["relatedLocations"] == [{
        "id": 1, "message": {"text": "snapshot of live server server.py (/tools/1/description)"}}]
    github = CliRunner().invoke(main, [*args, "--format", "github", "-q"])
    line = next(x for x in github.stdout.splitlines() if "get_invoice" in x.split("::")[2][:40])
    assert line.startswith(f"::notice file={server},line=40,endLine=40,col=5,endColumn=23,"
                           "title=DESC001 vague-description::")
    assert line.endswith("%0A%0AManifest: snapshot of live server server.py, "
                         "/tools/1/description")
    text = CliRunner().invoke(main, [*args, "--no-color", "--output-format", "full"]).stdout
    assert (f"    {server}:40:5  info     DESC001 vague-description\n" in text)
    assert "      manifest: snapshot of live server server.py, /tools/1/description\n" in text


def test_fixes_are_offered_only_where_check_fix_can_write_them() -> None:
    # A live server's snapshot and standard input are no files --fix could rewrite.
    enum = next(f for f in _findings() if f.code == "PARAM001")
    for file, live in (("server.py", True), ("-", False)):
        finding = Finding(enum.code, enum.name, enum.severity, enum.message, file,
                          enum.pointer, enum.line, enum.column, enum.tool,
                          suggestion=enum.suggestion, fix=enum.fix)
        report = Report((finding,), (), (FileSummary(file, 1, 60, live=live),), "")
        text = _render("text", report, color=False)
        assert f"    {file}:9:11  warning  PARAM001 closed-set-without-enum\n" in text
        assert "fixable" not in text and "help: Add" in text
        for fmt, marker in (("github", "Safe fix"), ("junit", "fix: "),
                            ("markdown", "Safe fix"), ("html", 'class="fix"')):
            out = _render(fmt, report)
            assert marker not in out, fmt
            assert "Suggestion" in out or "help: " in out or "suggestion" in out, fmt
        assert json.loads(_render("json", report))["findings"][0]["fix"] is not None
