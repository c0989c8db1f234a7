"""The command line, end to end through click's CliRunner: exact findings and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcplint import __version__
from mcplint.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "support-desk.json"
# The example's findings from the core families; the other families are tested by their fixtures.
CORE = ("--select", "SPEC,NAME,COST")
CLEAN = {"tools": [{"name": "get_user", "description": "Get a user by id: name and email.",
                    "inputSchema": {"type": "object"}}]}


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    # Run from an empty folder so no config of this repository is discovered.
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def _json(runner: CliRunner, *args: str, stdin: str | None = None) -> tuple[int, dict[str, Any]]:
    result = runner.invoke(main, ["check", "--format", "json", *args], input=stdin)
    return result.exit_code, json.loads(result.stdout)


def test_example_findings_exact(runner: CliRunner) -> None:
    code, report = _json(runner, str(EXAMPLE), *CORE)
    assert code == 1
    got = [(f["code"], f["tool"], f["pointer"], f["line"], f["column"])
           for f in report["findings"]]
    assert got == [
        ("NAME001", "search_ticket", "/tools/1/name", 18, 7),
        ("SPEC007", "get_ticket", "/tools/2/inputSchema/required/0", 31, 22),
        ("SPEC011", "get_ticket", "/tools/2/annotations/readonlyHint", 33, 23),
        ("SPEC004", "closeTicket", "/tools/3", 35, 5),
        ("NAME002", "closeTicket", "/tools/3/name", 36, 7),
        ("SPEC002", "tickets.export", "/tools/4/name", 44, 7),
    ]
    duplicate = report["findings"][0]
    assert duplicate["related"] == [
        {"tool": "search_tickets", "pointer": "/tools/0/name", "line": 4, "column": 7}]
    assert report["summary"] == {"files": 1, "skipped": 0, "tools": 5, "findings": 6,
                                 "error": 2, "warning": 4, "info": 0, "input_errors": 0,
                                 "fail_on": "error", "failures": 2, "exit_code": 1}
    assert report["schema"] == "mcplint/report/v1"
    assert report["tokens"]["method"]


def test_concise_output_is_one_line_a_finding_and_plain_without_a_tty(runner: CliRunner) -> None:
    result = runner.invoke(main, ["check", str(EXAMPLE), *CORE])
    assert result.exit_code == 1
    out = result.stdout
    assert "\x1b[" not in out
    assert out.splitlines() == [
        f'{EXAMPLE}:18:7: NAME001 Tools "search_tickets" and "search_ticket" differ only by a '
        'plural ending ("tickets" / "ticket")',
        f'{EXAMPLE}:31:22: SPEC007 Tool "get_ticket" requires "ticketId", but no property of '
        "that name is defined",
        f'{EXAMPLE}:33:23: SPEC011 Tool "get_ticket" has the annotation "readonlyHint", which '
        "MCP does not define",
        f'{EXAMPLE}:35:5: SPEC004 Tool "closeTicket" has no description',
        f'{EXAMPLE}:36:7: NAME002 Tool "closeTicket" is written in camelCase, but 3 of 4 tool '
        "names on this server use snake_case",
        f"{EXAMPLE}:44:7: SPEC002 Tool name \"tickets.export\" contains '.', which the MCP "
        "spec allows but common model APIs do not",
        "Found 6 problems (2 errors, 4 warnings, 0 info) in 1 file (5 tools).",
        "Tokens: estimate (calibrated on o200k_base, per-tool p90 error 4.1%).",
    ]


@pytest.mark.parametrize("fmt", ["full", "text"])
def test_full_output_is_grouped_and_plain_without_a_tty(runner: CliRunner, fmt: str) -> None:
    # text is the name full had before concise became the default.
    result = runner.invoke(main, ["check", str(EXAMPLE), *CORE, "--output-format", fmt])
    assert result.exit_code == 1
    out = result.stdout
    assert "\x1b[" not in out
    assert f"{EXAMPLE}:31:22  error    SPEC007 required-property-missing" in out
    assert out.index("  get_ticket\n") < out.index("SPEC007") < out.index("  closeTicket\n")
    assert out.rstrip().splitlines()[-2].startswith(
        "Found 6 problems (2 errors, 4 warnings, 0 info) in 1 file (5 tools).")


def test_fail_on_and_exit_codes(runner: CliRunner, tmp_path: Path) -> None:
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps(CLEAN))
    assert runner.invoke(main, ["check", str(clean)]).exit_code == 0
    assert runner.invoke(main, ["check", str(EXAMPLE), "--fail-on", "never"]).exit_code == 0
    warnings_only = ["check", str(EXAMPLE), "--select", "NAME"]
    assert runner.invoke(main, warnings_only).exit_code == 0
    assert runner.invoke(main, [*warnings_only, "--fail-on", "warning"]).exit_code == 1


def test_select_ignore_by_code_prefix_name_and_group(runner: CliRunner) -> None:
    def codes(*args: str) -> list[str]:
        return [f["code"] for f in _json(runner, str(EXAMPLE), *args)[1]["findings"]]

    assert codes("--select", "SPEC007") == ["SPEC007"]
    assert codes("--select", "required-property-missing,SPEC002") == ["SPEC007", "SPEC002"]
    by_group = codes("--select", "naming")
    assert {"NAME001", "NAME002"} <= set(by_group) and "SPEC007" not in by_group
    assert codes("--select", "SPEC", "--ignore", "SPEC01") == ["SPEC007", "SPEC004", "SPEC002"]
    # The most specific selector wins: SPEC011 comes back although SPEC01 is ignored.
    assert codes("--select", "SPEC", "--ignore", "SPEC01", "--extend-select", "SPEC011") == [
        "SPEC007", "SPEC011", "SPEC004", "SPEC002"]
    assert "NAME001" not in codes("--ignore", "near-duplicate-tool-names")


def test_unknown_selector_is_a_usage_error_with_suggestion(runner: CliRunner) -> None:
    result = runner.invoke(main, ["check", str(EXAMPLE), "--select", "SPEC0077"])
    assert result.exit_code == 2
    assert '"SPEC0077" matches no rule' in result.stderr
    assert "did you mean" in result.stderr


def test_bad_input_is_reported_and_other_files_still_linted(runner: CliRunner,
                                                            tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "tools": [\n    {"name": "a",}\n    {"name": "b"}\n  ]\n}')
    not_manifest = tmp_path / "config.json"
    not_manifest.write_text('{"name": "x"}')
    result = runner.invoke(main, ["check", str(broken), str(EXAMPLE), str(not_manifest),
                                  str(tmp_path / "missing.json")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert f"error: {broken}:4:5: invalid JSON: Expecting ',' delimiter" in result.stdout
    assert f"error: {not_manifest}:1:1: no tools found: expected" in result.stdout
    assert f"error: {tmp_path / 'missing.json'}: no such file or directory" in result.stdout
    # The good file is still linted and reported.
    assert f'{EXAMPLE}:31:22: SPEC007 Tool "get_ticket" requires' in result.stdout
    code, report = _json(runner, str(broken), str(EXAMPLE), *CORE)
    assert code == 2
    assert report["summary"]["findings"] == 6
    assert report["input_errors"][0] == {
        "file": str(broken), "line": 4, "column": 5,
        "message": "invalid JSON: Expecting ',' delimiter; fix the JSON here (comments and "
                   "trailing commas are accepted, as in JSONC)"}


def test_stdin(runner: CliRunner) -> None:
    code, report = _json(runner, "-", *CORE, stdin=EXAMPLE.read_text())
    assert code == 1
    assert {f["file"] for f in report["findings"]} == {"<stdin>"}
    assert len(report["findings"]) == 6


def test_no_target_lints_the_current_directory(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "servers").mkdir()
    (tmp_path / "servers" / "tools.json").write_text(EXAMPLE.read_text())
    (tmp_path / "package.json").write_text('{"name": "x"}')
    code, report = _json(runner)
    assert code == 1
    assert report["summary"]["files"] == 1
    assert {f["file"] for f in report["findings"]} == {"servers/tools.json"}


def test_output_file_statistics_and_quiet(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = runner.invoke(main, ["check", str(EXAMPLE), *CORE, "--format", "json", "-o", str(out),
                                  "--statistics"])
    assert result.exit_code == 1 and result.stdout == ""
    stats = json.loads(out.read_text())["statistics"]
    assert {s["code"]: s["count"] for s in stats} == {
        "NAME001": 1, "NAME002": 1, "SPEC002": 1, "SPEC004": 1, "SPEC007": 1, "SPEC011": 1}
    text = runner.invoke(main, ["check", str(EXAMPLE), *CORE, "--statistics", "-q"]).stdout
    assert text.splitlines()[0].split() == ["1", "NAME001", "warning", "near-duplicate-tool-names"]
    assert "Found" not in text


def test_color_only_when_asked(runner: CliRunner) -> None:
    colored = runner.invoke(main, ["check", str(EXAMPLE), "--color"]).stdout
    assert "\x1b[" in colored


def test_version_and_help_load_no_command() -> None:
    # A command's module is imported when it runs: --version is click and the version alone,
    # and --help lists every command (each with its first help line) without running one.
    code = ("import sys\nfrom mcplint.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'mcplint'))")
    loaded = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True,
                            text=True, check=True).stdout.splitlines()
    assert loaded == [f"mcplint, version {__version__}", "['mcplint', 'mcplint.cli']"]
    listed = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True,
                            text=True, check=True).stdout
    commands = listed.split("Commands:\n")[1].split("\n[")[0].split("\n")
    assert [line.split()[0] for line in commands if line.strip()] == [
        "check", "diff", "dump", "explain", "hitrate", "report", "rules"]
    assert "mcplint.engine.linter" not in listed


def test_version_rules_and_explain(runner: CliRunner) -> None:
    assert runner.invoke(main, ["--version"]).stdout.strip() == f"mcplint, version {__version__}"
    listing = runner.invoke(main, ["rules"])
    assert listing.exit_code == 0
    lines = listing.stdout.splitlines()
    assert lines[0].split()[:4] == ["code", "name", "severity", "groups"]
    assert any(line.split()[:3] == ["SPEC007", "required-property-missing", "error"]
               for line in lines)
    rules = json.loads(runner.invoke(main, ["rules", "--format", "json"]).stdout)
    assert {"code": "SPEC011", "name": "unknown-annotation-key"}.items() <= next(
        r for r in rules if r["code"] == "SPEC011").items()
    explained = runner.invoke(main, ["explain", "unknown-annotation-key"])
    assert explained.exit_code == 0
    for heading in ("# SPEC011 unknown-annotation-key", "## What it flags",
                    "## Why it matters to an agent", "## Bad", "## Good", "## Options"):
        assert heading in explained.stdout
    assert runner.invoke(main, ["explain", "spec011"]).exit_code == 0
    missing = runner.invoke(main, ["explain", "SPEC999"])
    assert missing.exit_code == 2 and 'did you mean "SPEC009"' in missing.stderr


def test_lone_surrogates_and_hostile_text_do_not_crash_reporters(runner: CliRunner,
                                                                 tmp_path: Path) -> None:
    manifest = tmp_path / "odd.json"
    manifest.write_text('{"tools": [{"name": "delete_\\ud800x", "description": "[bold]x[/]",'
                        ' "inputSchema": {"type": "object"}}]}')
    for fmt in ("text", "json"):
        result = runner.invoke(main, ["check", str(manifest), "--select", "SPEC001",
                                      "--format", fmt])
        assert result.exit_code == 1, result.output
        assert "delete_\\ud800x" in result.stdout
    report = json.loads(runner.invoke(main, ["check", str(manifest), "--format", "json",
                                             "--select", "SPEC001"]).stdout)
    assert report["findings"][0]["tool"] == "delete_\ud800x"


def test_broken_regex_option_is_a_config_error(runner: CliRunner, tmp_path: Path) -> None:
    config = tmp_path / ".mcplint.toml"
    config.write_text('[rules.SPEC010]\nallow-patterns = ["(x"]\n')
    result = runner.invoke(main, ["check", str(EXAMPLE), "--config", str(config)])
    assert result.exit_code == 2
    assert "rules.SPEC010: option allow-patterns/0: '(x' is not a 'regex'" in result.stderr


def test_report_command_takes_live_servers(runner: CliRunner) -> None:
    pytest.importorskip("mcp", reason="the live extra (mcplint[live]) is not installed")
    server = ROOT / "fixtures" / "servers" / "good_server.py"
    result = runner.invoke(main, ["report", "--stdio", f"python3 {server}", "-o", "-"])
    assert result.exit_code == 0, result.stderr
    assert "<!DOCTYPE html>" in result.stdout[:200]
