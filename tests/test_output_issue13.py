"""Issue 13, the terminal output: concise by default, --output-format, and Ruff's output flags
(--exit-zero, --show-fixes, --stdin-filename, -q/-qq, --statistics as JSON), --min-severity,
and workflow commands kept out of CI logs.  End to end through the CLI."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from mcplint.cli import main
from mcplint.findings import Finding, Severity
from mcplint.reporters import ReportOptions, get_reporter
from mcplint.reporters.short import short_message
from mcplint.run import FileSummary, Report

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "support-desk.json"
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
# path:line:col: CODE [*] message
CONCISE = re.compile(r"^(?P<place>.+):(?P<line>\d+):(?P<column>\d+): (?P<code>[A-Z]+\d+)"
                     r"(?P<fix> \[\*\])? (?P<message>\S.*)$")


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    monkeypatch.chdir(tmp_path)  # no config of this repository is discovered
    monkeypatch.delenv("COLUMNS", raising=False)
    return CliRunner()


def _check(runner: CliRunner, *args: str, stdin: str | None = None) -> Result:
    return runner.invoke(main, ["check", *args], input=stdin)


def _findings(runner: CliRunner, *args: str) -> list[dict[str, Any]]:
    findings: list[dict[str, Any]] = json.loads(
        _check(runner, "--format", "json", *args).stdout)["findings"]
    return findings


def _concise_lines(out: str) -> list[re.Match[str]]:
    return [m for m in map(CONCISE.match, out.splitlines()) if m]


# --- concise ------------------------------------------------------------------------------


def test_concise_is_one_line_a_finding_naming_rule_place_and_tool(runner: CliRunner) -> None:
    result = _check(runner, str(EXAMPLE))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    findings = _findings(runner, str(EXAMPLE))
    assert len(findings) > 15
    # Every finding is one line, in the report's order, and nothing else comes before them.
    matches = [CONCISE.match(line) for line in lines[:len(findings)]]
    assert all(matches), lines[:len(findings)]
    for match, finding in zip(matches, findings, strict=True):
        assert match is not None
        assert (match["place"], int(match["line"]), int(match["column"]), match["code"]) == (
            str(EXAMPLE), finding["line"], finding["column"], finding["code"])
        assert bool(match["fix"]) == (finding["fix"] is not None)
        if finding["tool"]:
            assert f'"{finding["tool"]}"' in match["message"], match.group()
        # The short message is the finding's opening, not its why and how-to.
        assert finding["message"].startswith(match["message"][:20])
        assert len(match["message"]) < len(finding["message"])
    assert lines[len(findings)].startswith("Found 17 problems (2 errors, 7 warnings, 8 info)")
    assert lines[len(findings) + 1] == "[*] 1 fixable with `mcplint check --fix`."
    assert "help:" not in result.stdout and "manifest:" not in result.stdout


def test_concise_names_the_parameter(runner: CliRunner, tmp_path: Path) -> None:
    manifest = tmp_path / "tools.json"
    manifest.write_text(json.dumps({"tools": [{
        "name": "list_orders", "description": "List orders, newest first. Returns id and total.",
        "inputSchema": {"type": "object", "properties": {"status": {
            "type": "string", "description": "One of: open, pending, closed."}}}}]}, indent=2))
    out = _check(runner, str(manifest), "--select", "PARAM001").stdout
    assert out.splitlines()[0] == (
        f'{manifest}:9:11: PARAM001 [*] Parameter "status" of "list_orders" lists its allowed '
        "values, but its schema has no enum")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus of real servers is not here")
def test_concise_lines_on_the_real_corpus_are_short_and_name_the_tool(runner: CliRunner) -> None:
    files = sorted(str(p) for p in CORPUS.glob("*.json"))
    result = _check(runner, "--select", "ALL", "--fail-on", "never", "-v", *files)
    findings = _findings(runner, "--select", "ALL", *files)
    matches = _concise_lines(result.stdout)
    assert len(matches) == len(findings) > 1000
    lengths = sorted(len(m["message"]) for m in matches)
    assert lengths[len(lengths) // 2] < 80  # the median
    assert lengths[int(len(lengths) * 0.95)] < 150
    for match, finding in zip(matches, findings, strict=True):
        assert match["code"] == finding["code"]
        if finding["tool"] and finding["code"] != "SEC002":  # SEC002 names a look-alike
            assert finding["tool"] in match["message"], match.group()
        assert not match["message"].endswith(".")


def test_show_fixes_lists_what_fix_would_do(runner: CliRunner) -> None:
    out = _check(runner, str(EXAMPLE), "--show-fixes").stdout
    lines = out.splitlines()
    start = lines.index("1 fix available with `mcplint check --fix`:")
    assert lines[start + 1] == (f'  {EXAMPLE}:17:5: SAFE003 Add "annotations": '
                                '{"readOnlyHint": true} to the tool.')
    assert lines[start + 3].startswith("Found 17 problems")
    assert "fix available" not in _check(runner, str(EXAMPLE)).stdout


# --- full ---------------------------------------------------------------------------------


def test_full_keeps_the_help_lines_and_wraps_at_the_width(runner: CliRunner) -> None:
    whole = _check(runner, str(EXAMPLE), "--output-format", "full").stdout
    assert '      help: Add "annotations": {"readOnlyHint": true} to the tool.' in whole
    assert max(len(line) for line in whole.splitlines()) > 200  # a pipe gets whole lines
    wrapped = runner.invoke(main, ["check", str(EXAMPLE), "--output-format", "full"],
                            env={"COLUMNS": "72"}).stdout
    lines = wrapped.splitlines()
    # Messages and help lines are wrapped (a finding's first line, with its path, is not).
    texts = [line for line in lines if line.startswith("      ")]
    assert len(texts) > 50
    assert all(len(line) <= 72 for line in texts), [line for line in texts if len(line) > 72]
    finding = next(f for f in _findings(runner, str(EXAMPLE)) if f["code"] == "SPEC007")
    start = lines.index(f"    {EXAMPLE}:31:22  error    SPEC007 required-property-missing")
    body = []
    for line in lines[start + 1:]:
        if not line.startswith("      ") or line.startswith("      help: "):
            break
        body.append(line)
    # The message is all there, continued at its indent, and no word was broken.
    assert all(line.startswith("      ") and line[6] != " " for line in body)
    assert len(body) > 3
    assert " ".join(line.strip() for line in body) == finding["message"]
    assert f"      help: {finding['suggestion']}".split() == " ".join(
        lines[start + 1 + len(body):start + 3 + len(body)]).split()[:len(
            f"      help: {finding['suggestion']}".split())]


def test_text_is_still_the_full_layout(runner: CliRunner) -> None:
    full = _check(runner, str(EXAMPLE), "--output-format", "full").stdout
    assert _check(runner, str(EXAMPLE), "--format", "text").stdout == full
    assert _check(runner, str(EXAMPLE), "--format", "full").stdout == full
    assert "  search_ticket\n" in full


# --- exit codes and quiet -----------------------------------------------------------------


def test_exit_zero(runner: CliRunner, tmp_path: Path) -> None:
    assert _check(runner, str(EXAMPLE)).exit_code == 1
    result = _check(runner, str(EXAMPLE), "--exit-zero")
    assert result.exit_code == 0 and "Found 17 problems" in result.stdout
    assert _check(runner, str(EXAMPLE), "--exit-zero", "--fail-on", "info").exit_code == 0
    # Input errors still fail.
    missing = _check(runner, str(EXAMPLE), str(tmp_path / "missing.json"), "--exit-zero")
    assert missing.exit_code == 2
    # --diff exits 1 when there is something to fix; --exit-zero makes that 0 too.
    assert _check(runner, str(EXAMPLE), "--diff").exit_code == 1
    assert _check(runner, str(EXAMPLE), "--diff", "--exit-zero").exit_code == 0


def test_quiet_prints_findings_only_and_qq_nothing(runner: CliRunner, tmp_path: Path) -> None:
    quiet = _check(runner, str(EXAMPLE), "-q")
    assert quiet.exit_code == 1
    lines = quiet.stdout.splitlines()
    assert len(lines) == 17 and all(CONCISE.match(line) for line in lines)
    full = _check(runner, str(EXAMPLE), "-q", "--output-format", "full").stdout
    assert "Found" not in full and "examples/support-desk.json (5 tools" not in full
    assert "      help: " in full
    silent = _check(runner, str(EXAMPLE), "-qq")
    assert silent.exit_code == 1 and silent.stdout == "" and silent.stderr == ""
    broken = _check(runner, str(EXAMPLE), str(tmp_path / "missing.json"), "-qq")
    assert broken.exit_code == 2 and broken.output == ""
    report = tmp_path / "report.json"
    written = _check(runner, str(EXAMPLE), "-qq", "--format", "json", "-o", str(report))
    assert written.output == "" and len(json.loads(report.read_text())["findings"]) == 17


def test_statistics_as_json(runner: CliRunner) -> None:
    result = _check(runner, str(EXAMPLE), "--statistics", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    # The counts are the report's "statistics" field: the v1 report keeps all its fields.
    assert report["schema"] == "mcplint/report/v1" and len(report["findings"]) == 17
    stats = report["statistics"]
    assert all(set(s) == {"code", "name", "severity", "count", "fixable"} for s in stats)
    # A rule is counted by severity, as in the table: SAFE003 is a warning on a tool that
    # writes, and only its info finding (a tool that only reads) has a safe fix.
    assert [s for s in stats if s["code"] == "SAFE003"] == [
        {"code": "SAFE003", "name": "missing-annotations", "severity": "info", "count": 3,
         "fixable": True},
        {"code": "SAFE003", "name": "missing-annotations", "severity": "warning", "count": 1,
         "fixable": False}]
    assert [s["fixable"] for s in stats if s["code"] == "SPEC007"] == [False]
    assert sum(s["count"] for s in stats) == 17
    counts = [s["count"] for s in stats]
    assert counts == sorted(counts, reverse=True)
    refused = _check(runner, str(EXAMPLE), "--statistics", "--format", "sarif")
    assert refused.exit_code == 2 and "--statistics" in refused.stderr


# --- --min-severity -----------------------------------------------------------------------


def test_min_severity_hides_output_but_not_the_exit_gate(runner: CliRunner) -> None:
    errors = _check(runner, str(EXAMPLE), "--min-severity", "error")
    codes = [m["code"] for m in _concise_lines(errors.stdout)]
    assert codes == ["SPEC007", "SPEC004"]
    assert "Found 2 problems (2 errors, 0 warnings, 0 info)" in errors.stdout
    assert "15 more below --min-severity not shown." in errors.stdout
    assert errors.exit_code == 1
    warnings = _check(runner, str(EXAMPLE), "--min-severity", "warning", "-q").stdout
    assert len(_concise_lines(warnings)) == 9
    # Only warnings fired; none is shown, yet --fail-on warning still fails on them.
    names = ["--select", "NAME"]
    hidden = _check(runner, str(EXAMPLE), *names, "--min-severity", "error",
                    "--fail-on", "warning")
    assert hidden.exit_code == 1 and _concise_lines(hidden.stdout) == []
    assert _check(runner, str(EXAMPLE), *names, "--min-severity", "error").exit_code == 0
    report = json.loads(_check(runner, str(EXAMPLE), "--min-severity", "error",
                               "--format", "json").stdout)
    assert {f["severity"] for f in report["findings"]} == {"error"}


def test_formats_that_count_failures_count_hidden_ones(runner: CliRunner) -> None:
    # --min-severity error hides NAME001's warning, which --fail-on warning fails on: every
    # format that counts failures says the run failed, as its exit code does.
    args = [str(EXAMPLE), "--select", "NAME", "--min-severity", "error", "--fail-on", "warning"]
    junit = _check(runner, *args, "--format", "junit")
    root = ET.fromstring(junit.stdout)
    assert junit.exit_code == 1 and root.get("failures") == "1"
    (failure,) = root.iter("failure")
    assert failure.get("message") == ("2 findings below --min-severity fail the run "
                                      "(--fail-on warning)")
    report = json.loads(_check(runner, *args, "--format", "json").stdout)
    assert report["findings"] == [] and report["summary"]["failures"] == 2
    github = _check(runner, *args, "--format", "github").stdout
    assert "2 fail the run (--fail-on warning)" in github
    # Nothing hidden fails at the default gate: no extra case.
    plain = ET.fromstring(_check(runner, str(EXAMPLE), "--select", "NAME", "--min-severity",
                                 "error", "--format", "junit").stdout)
    assert plain.get("failures") == "0" and not list(plain.iter("failure"))


# --- --stdin-filename ---------------------------------------------------------------------


def test_stdin_filename_names_the_input_and_matches_overrides(runner: CliRunner,
                                                              tmp_path: Path) -> None:
    text = EXAMPLE.read_text()
    plain = _check(runner, "-", "--select", "NAME", stdin=text).stdout
    assert plain.startswith("<stdin>:18:7: NAME001 ")
    named = _check(runner, "-", "--select", "NAME", "--stdin-filename", "servers/desk.json",
                   stdin=text)
    assert [m["place"] for m in _concise_lines(named.stdout)] == ["servers/desk.json"] * 2
    (tmp_path / ".mcplint.toml").write_text(
        '[[overrides]]\nfiles = ["servers/*.json"]\nignore = ["NAME002"]\n')
    overridden = _check(runner, "-", "--select", "NAME", "--stdin-filename",
                        "servers/desk.json", stdin=text)
    assert [m["code"] for m in _concise_lines(overridden.stdout)] == ["NAME001"]
    elsewhere = _check(runner, "-", "--select", "NAME", "--stdin-filename", "other/desk.json",
                       stdin=text)
    assert [m["code"] for m in _concise_lines(elsewhere.stdout)] == ["NAME001", "NAME002"]
    # Standard input is no file --fix could write, whatever it is called.
    fixable = _check(runner, "-", "--select", "SAFE003", "--stdin-filename", "desk.json",
                     stdin=text).stdout
    assert "[*]" not in fixable and "fixable" not in fixable
    unnamed = _check(runner, "-", "--select", "SAFE003", stdin=text).stdout
    assert "[*]" not in unnamed and "fixable" not in unnamed
    assert "[*]" in _check(runner, str(EXAMPLE), "--select", "SAFE003").stdout
    as_json = json.loads(_check(runner, "-", "--format", "json", "--select", "NAME",
                                "--stdin-filename", "x/desk.json", stdin=text).stdout)
    assert {f["file"] for f in as_json["findings"]} == {"x/desk.json"}


# --- workflow commands --------------------------------------------------------------------


def test_workflow_commands_cannot_start_a_line(runner: CliRunner, tmp_path: Path) -> None:
    text = EXAMPLE.read_text()
    for name, shown in (("::error::pwned", "\\x3a:error::pwned"),
                        ("##[group]pwned", "\\x23#[group]pwned")):
        for fmt in ("concise", "full"):
            out = _check(runner, "-", "--select", "NAME001", "--stdin-filename", name,
                         "--output-format", fmt, stdin=text).stdout
            assert out.count(shown) >= 1, (fmt, out)
            assert not any(line.lstrip().startswith(("::", "##[")) for line in out.splitlines())


def test_a_message_cannot_put_a_workflow_command_on_a_line_of_its_own() -> None:
    hostile = Finding("DESC007", "repeated-description-text", Severity.INFO,
                      'A passage is repeated: "x\n##[command]curl evil\n  ::set-output name=a::b'
                      '\n::error::boom"', "a.json", "/tools", 1, 2, None,
                      suggestion="say it once\n##vso[task.setvariable]x")
    report = Report((hostile,), (), (FileSummary("a.json", 1, 9),), "")
    for fmt in ("full", "concise"):
        for color in (False, True):
            out = io.StringIO()
            get_reporter(fmt)(report, out, ReportOptions(color=color))
            lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in out.getvalue().split("\n")]
            assert not any(line.lstrip().startswith(("::", "##[", "##vso["))
                           for line in lines), lines
            if fmt == "full":
                assert "      \\x23#[command]curl evil" in lines
                assert "        \\x3a:set-output name=a::b" in lines


# --- the short message --------------------------------------------------------------------


@pytest.mark.parametrize(("message", "short"), [
    # A full stop inside a quoted name or description does not end the sentence.
    ('Prompt "k8s" has a description ("Diagnose Kubernetes Resources.") that says little. '
     "Clients list prompts.", 'Prompt "k8s" has a description ("Diagnose Kubernetes '
     'Resources.") that says little'),
    ('Tool "a. b" has no description. Say what it does.', 'Tool "a. b" has no description'),
    # A long sentence stops at its first clause, but not at a key and its value.
    ('Tool "core_list_project_teams" has a description that only restates its name: once the '
     "name's own words are set aside, nothing is left. Why.",
     'Tool "core_list_project_teams" has a description that only restates its name'),
    ('Tool "alerting_manage_routing" declares readOnlyHint: true but its name says "manage", '
     "which changes state. Clients trust the hints.",
     'Tool "alerting_manage_routing" declares readOnlyHint: true but its name says "manage", '
     "which changes state"),
    # A colon straight after the name is no clause of its own.
    ('Tool "performance_start_trace_xyz": inputSchema is not valid JSON Schema 2020-12: '
     "'int' is not valid under any of the given schemas, nor anything else.",
     'Tool "performance_start_trace_xyz": inputSchema is not valid JSON Schema 2020-12'),
    # Very long: asides go ("tool(s)" is a word, not an aside).
    ('Parameter "max_results" of "jira_search_projects" is called "limit" on 19 other tool(s) '
     'of this server ("jira_search_assignable_users", "jira_search", "jira_search_fields" and '
     "16 more). Agents carry names.",
     'Parameter "max_results" of "jira_search_projects" is called "limit" on 19 other tool(s) '
     "of this server"),
    ("One line\nand another. Second.", "One line and another"),
])
def test_short_message(message: str, short: str) -> None:
    assert short_message(message) == short


def test_short_message_leaves_out_the_token_method() -> None:
    method = "estimate (calibrated on o200k_base, per-tool p90 error 4.1%)"
    message = (f'Tool "x" takes about 1,023 tokens (budget 1,000; {method}); most of it is its '
               "inputSchema (~518 tokens). It is sent with every request.")
    assert short_message(message, method) == 'Tool "x" takes about 1,023 tokens (budget 1,000)'
    # Without the method the sentence is long, and its asides go.
    assert short_message(message) == 'Tool "x" takes about 1,023 tokens'


def test_rules_and_diff_take_output_format_too(runner: CliRunner) -> None:
    rules = runner.invoke(main, ["rules", "--output-format", "json"])
    assert rules.exit_code == 0
    assert rules.stdout == runner.invoke(main, ["rules", "--format", "json"]).stdout
    assert any(r["code"] == "SPEC007" for r in json.loads(rules.stdout))
    changes = runner.invoke(main, ["diff", str(EXAMPLE), str(EXAMPLE), "--output-format", "json"])
    assert changes.exit_code == 0
    assert changes.stdout == runner.invoke(main, ["diff", str(EXAMPLE), str(EXAMPLE),
                                                  "--format", "json"]).stdout
    json.loads(changes.stdout)


def test_full_wraps_between_words_only_and_keeps_each_indent() -> None:
    long_word = "https://example.com/a/very/long/path/that/cannot/be/broken"
    finding = Finding("DESC001", "vague-description", Severity.INFO,
                      f"Tool \"x\" has a description that only restates its name: {long_word} "
                      "and some more words after it.", "a.json", "/tools/0", 3, 5, "x",
                      suggestion="Say what it does that the name does not, in one sentence.")
    report = Report((finding,), (), (FileSummary("a.json", 1, 9),), "")
    out = io.StringIO()
    get_reporter("full")(report, out, ReportOptions(color=False, width=40))
    assert out.getvalue().splitlines()[3:12] == [
        '      Tool "x" has a description that',
        "      only restates its name:",
        f"      {long_word}",
        "      and some more words after it.",
        "      help: Say what it does that the",
        "            name does not, in one",
        "            sentence.",
        "",
        "Found 1 problem (0 errors, 0 warnings, 1 info) in 1 file (1 tool).",
    ]
    whole = io.StringIO()
    get_reporter("full")(report, whole, ReportOptions(color=False, width=0))
    assert f"      {finding.message}\n" in whole.getvalue()


def _read_tools(count: int) -> dict[str, object]:
    return {"tools": [{
        "name": f"get_record_{chr(97 + i)}",
        "description": f"Get record {chr(97 + i)} of the ledger by its id. Returns the record's "
                       "fields as JSON. Use this when the id is known; otherwise search first.",
        "inputSchema": {"type": "object", "properties": {
            "record_id": {"type": "string", "description": "The record's id, from search."}},
            "required": ["record_id"]},
    } for i in range(count)]}


def test_a_rule_repeated_on_many_tools_is_folded_unless_verbose(runner: CliRunner,
                                                                tmp_path: Path) -> None:
    manifest = tmp_path / "ledger.json"
    manifest.write_text(json.dumps(_read_tools(8), indent=2), encoding="utf-8")
    result = _check(runner, str(manifest), "--select", "SAFE003,SPEC004")
    lines = result.stdout.splitlines()
    safe = [line for line in lines if " SAFE003 " in line]
    # The first three findings, then one line for the other five.
    assert [line.split(": SAFE003")[0].rsplit(":", 2)[0] for line in safe[:3]] == [
        str(manifest)] * 3
    assert len([line for line in safe if CONCISE.match(line)]) == 3
    assert safe[3] == (f"{manifest}: SAFE003 … and 5 more like these (8 in all; -v lists every "
                       "finding)")
    assert any(line.startswith("Found 8 problems") for line in lines)
    # -v lists all eight; the JSON report always has all eight.
    verbose = _check(runner, str(manifest), "--select", "SAFE003", "-v").stdout.splitlines()
    assert len([line for line in verbose if CONCISE.match(line)]) == 8
    report = json.loads(_check(runner, str(manifest), "--select", "SAFE003", "--format",
                               "json").stdout)
    assert len(report["findings"]) == 8
    # Five are few enough to list.
    manifest.write_text(json.dumps(_read_tools(5), indent=2), encoding="utf-8")
    few = _check(runner, str(manifest), "--select", "SAFE003").stdout.splitlines()
    assert len([line for line in few if CONCISE.match(line)]) == 5
    assert not any("more like these" in line for line in few)


def test_errors_are_never_folded(runner: CliRunner, tmp_path: Path) -> None:
    tools = _read_tools(8)
    for tool in tools["tools"]:  # type: ignore[union-attr]
        del tool["description"]  # SPEC004, an error, on all eight
    manifest = tmp_path / "ledger.json"
    manifest.write_text(json.dumps(tools, indent=2), encoding="utf-8")
    lines = _check(runner, str(manifest), "--select", "SPEC004").stdout.splitlines()
    assert len([line for line in lines if CONCISE.match(line) and " SPEC004 " in line]) == 8
