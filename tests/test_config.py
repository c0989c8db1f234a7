"""Configuration: discovery, validation with suggestions, overrides, user packs, plugins."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import ConfigError, matches_any, parse_config

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "support-desk.json"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def _check(cwd: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    runner = CliRunner()
    import os

    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = runner.invoke(main, ["check", "--format", "json", *args])
    finally:
        os.chdir(old)
    report = json.loads(result.stdout) if result.stdout.strip() else {}
    return result.exit_code, report, result.stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "servers" / "desk").mkdir(parents=True)
    (tmp_path / "servers" / "desk" / "tools.json").write_text(EXAMPLE.read_text())
    return tmp_path


def _codes(report: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(f["code"], f["tool"]) for f in report["findings"]]


def test_pyproject_table_is_discovered_upward(project: Path) -> None:
    _write(project / "pyproject.toml", """
        [project]
        name = "desk"
        [tool.mcplint]
        select = ["SPEC"]
        ignore = ["SPEC011"]
        fail-on = "warning"
    """)
    code, report, _ = _check(project, "servers/desk/tools.json")
    assert _codes(report) == [("SPEC007", "get_ticket"), ("SPEC004", "closeTicket"),
                              ("SPEC002", "tickets.export")]
    assert code == 1


def test_nearest_config_wins_and_pyproject_without_table_is_skipped(project: Path) -> None:
    _write(project / ".mcplint.toml", 'select = ["NAME"]\n')
    _write(project / "servers" / "pyproject.toml", '[project]\nname = "x"\n')
    _write(project / "servers" / "desk" / "mcplint.toml", 'select = ["SPEC004"]\n')
    _, report, _ = _check(project, "servers/desk/tools.json")
    assert _codes(report) == [("SPEC004", "closeTicket")]
    (project / "servers" / "desk" / "mcplint.toml").unlink()
    _, report, _ = _check(project, "servers/desk/tools.json")
    assert [c for c, _ in _codes(report)] == ["NAME001", "NAME002"]


def test_unknown_key_names_file_line_and_suggestion(project: Path) -> None:
    path = _write(project / "pyproject.toml", """
        [tool.mcplint]
        select = ["SPEC"]
        ignroe = ["SPEC001"]
    """)
    with pytest.raises(ConfigError) as error:
        parse_config(path)
    assert str(error.value) == (f'{path}:3: [tool.mcplint]: unknown key "ignroe"; '
                                'did you mean "ignore"?')
    code, _, stderr = _check(project, "servers/desk/tools.json")
    assert code == 2
    assert 'did you mean "ignore"?' in stderr


def test_wrong_value_type_and_bad_option_are_errors(project: Path) -> None:
    path = _write(project / ".mcplint.toml", 'fail-on = "sometimes"\n')
    with pytest.raises(ConfigError, match=r"fail-on: 'sometimes' is not one of"):
        parse_config(path)
    _write(project / ".mcplint.toml", '[rules.COST001]\nwarning-above = "high"\n')
    code, _, stderr = _check(project, "servers/desk/tools.json")
    assert code == 2
    assert "rules.COST001: option warning-above: 'high' is not of type 'integer', 'null'" in stderr
    _write(project / ".mcplint.toml", '[rules.too-many-tools]\nwarning-abov = 3\n')
    code, _, stderr = _check(project, "servers/desk/tools.json")
    assert code == 2
    assert ('rules.too-many-tools: unknown option "warning-abov"; did you mean '
            '"warning-above"?') in stderr
    _write(project / ".mcplint.toml", '[rules.NAME999]\nseverity = "info"\n')
    code, _, stderr = _check(project, "servers/desk/tools.json")
    assert code == 2 and "rules.NAME999: no rule has this code or name" in stderr


def test_severity_and_option_overrides(project: Path) -> None:
    _write(project / ".mcplint.toml", """
        select = ["SPEC004", "COST001"]
        [rules.missing-description]
        severity = "info"
        [rules.COST001]
        warning-above = 3
    """)
    code, report, _ = _check(project, "servers/desk/tools.json")
    assert [(f["code"], f["severity"]) for f in report["findings"]] == [
        ("COST001", "warning"), ("SPEC004", "info")]
    assert code == 0


def test_extend_a_vocabulary_option(project: Path) -> None:
    tools = {"tools": [
        {"name": "get_user", "description": "Get a user.", "inputSchema": {"type": "object"}},
        {"name": "grab_user", "description": "Grab a user.", "inputSchema": {"type": "object"}},
    ]}
    (project / "t.json").write_text(json.dumps(tools))
    _write(project / ".mcplint.toml", 'select = ["NAME001"]\n')
    assert _check(project, "t.json")[1]["findings"] == []
    _write(project / ".mcplint.toml", """
        select = ["NAME001"]
        [rules.NAME001]
        extend-synonyms = [["get", "grab"]]
    """)
    assert _codes(_check(project, "t.json")[1]) == [("NAME001", "grab_user")]


def test_overrides_by_file_glob_and_tool_pattern(project: Path) -> None:
    _write(project / ".mcplint.toml", """
        select = ["SPEC", "NAME"]
        [[overrides]]
        files = ["servers/**/tools.json"]
        tools = ["close*"]
        ignore = ["SPEC004", "inconsistent-naming-style"]
        [[overrides]]
        files = ["servers/desk/*.json"]
        rules.SPEC002 = { severity = "error" }
        [[overrides]]
        files = ["elsewhere/*.json"]
        ignore = ["ALL"]
    """)
    _, report, _ = _check(project, "servers/desk/tools.json")
    found = [(f["code"], f["tool"], f["severity"]) for f in report["findings"]]
    assert ("SPEC004", "closeTicket", "error") not in found
    assert all(code != "NAME002" for code, _, _ in found)
    assert ("SPEC002", "tickets.export", "error") in found
    assert ("SPEC007", "get_ticket", "error") in found


def test_user_pack_without_python(project: Path) -> None:
    _write(project / "packs" / "house.toml", """
        [pack]
        name = "house"
        [[rules]]
        code = "HOUSE001"
        name = "house-name-length"
        summary = "Tool names are short"
        groups = ["house"]
        severity = "info"
        target = "tool"
        check = "name-pattern"
        message = "Tool \\"{name}\\" {problem}; we keep names short. Use \\"{suggestion}\\"."
        options = { characters = "a-z_", max-length = 12 }
        [rules.docs]
        what = "Long names."
        why = "House style."
        bad = '{"tools": [{"name": "a_very_long_tool_name", "inputSchema": {"type": "object"}}]}'
        good = '{"tools": [{"name": "short", "inputSchema": {"type": "object"}}]}'
    """)
    _write(project / ".mcplint.toml", 'packs = ["packs/house.toml"]\nselect = ["house"]\n')
    _, report, _ = _check(project, "servers/desk/tools.json")
    assert _codes(report) == [("HOUSE001", "search_tickets"), ("HOUSE001", "search_ticket"),
                              ("HOUSE001", "closeTicket"), ("HOUSE001", "tickets.export")]
    assert report["findings"][0]["severity"] == "info"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("HOUSE001", "SPEC001"), "rule code SPEC001 is already used by invalid-tool-name"),
        (('"name-pattern"', '"no-such-check"'), 'unknown check "no-such-check"'),
        (("{problem}", "{nonsense}"), "message uses unknown fields ['nonsense']"),
        (('target = "tool"', 'target = "server"'), 'works on target "tool", not "server"'),
    ],
)
def test_bad_user_packs_are_config_errors(project: Path, edit: tuple[str, str],
                                          message: str) -> None:
    pack = textwrap.dedent("""
        [pack]
        name = "house"
        [[rules]]
        code = "HOUSE001"
        name = "house-rule"
        summary = "s"
        severity = "info"
        target = "tool"
        check = "name-pattern"
        message = "{problem}"
        [rules.docs]
        what = "w"
        why = "y"
        bad = "b"
        good = "g"
    """).replace(*edit)
    (project / "house.toml").write_text(pack)
    _write(project / ".mcplint.toml", 'packs = ["house.toml"]\n')
    code, _, stderr = _check(project, "servers/desk/tools.json")
    assert code == 2
    assert message in stderr
    assert "Traceback" not in stderr


def test_plugin_must_be_installed_and_is_never_loaded_unconfigured(project: Path) -> None:
    # A Python file in the linted tree is never imported, whatever its name.
    (project / "servers" / "desk" / "mcplint_checks.py").write_text("raise SystemExit(99)\n")
    assert _check(project, "servers/desk/tools.json")[0] == 1
    _write(project / ".mcplint.toml", 'plugins = ["acme"]\n')
    code, _, stderr = _check(project, "servers/desk/tools.json")
    assert code == 2
    assert 'plugin "acme" is not installed (entry point group mcplint.checks' in stderr


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("**/*.json", "a.json", True),
        ("**/*.json", "a/b/c.json", True),
        # gitignore's rules: a pattern without a slash matches at any depth, one with a
        # slash is anchored at the config's folder.
        ("*.json", "a/b.json", True),
        ("/*.json", "a/b.json", False),
        ("mcp/skip.json", "mcp/skip.json", True),
        ("mcp/skip.json", "x/mcp/skip.json", False),
        ("mcp/", "mcp/skip.json", True),
        ("**/tsconfig*.json", "tsconfig.build.json", True),
        ("servers/**/tools.json", "servers/tools.json", True),
        ("servers/**/tools.json", "servers/x/y/tools.json", True),
        ("**/node_modules/**", "node_modules/", True),
        ("**/node_modules/**", "a/node_modules/b/c.json", True),
        ("**/.*/**", ".git/", True),
        ("**/.*/**", "a.json", False),
    ],
)
def test_globs(pattern: str, path: str, matches: bool) -> None:
    assert matches_any(path, (pattern,)) is matches


def test_configured_plugin_adds_check_functions(project: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # A real installed distribution (a .dist-info on sys.path), found through its entry point.
    site = tmp_path / "site"
    _write(site / "acme_checks.py", """
        from mcplint.checks.base import Hit, Target, check

        @check("shouty-name", Target.TOOL, fields={"name"})
        def shouty_name(tool, ctx, options):
            if tool.name.isupper():
                yield Hit(tool.child("name"), {"name": tool.name}, tool)

        CHECKS = (shouty_name,)
    """)
    _write(site / "acme_checks-1.0.dist-info" / "METADATA",
           "Metadata-Version: 2.1\nName: acme-checks\nVersion: 1.0\n")
    _write(site / "acme_checks-1.0.dist-info" / "entry_points.txt",
           "[mcplint.checks]\nacme = acme_checks\n")
    monkeypatch.syspath_prepend(str(site))
    _write(project / "acme.toml", """
        [pack]
        name = "acme"
        [[rules]]
        code = "ACME001"
        name = "shouty-tool-name"
        summary = "Tool names in capitals"
        severity = "warning"
        target = "tool"
        check = "acme:shouty-name"
        message = "Tool \\"{name}\\" is all capitals; write it in snake_case."
        [rules.docs]
        what = "w"
        why = "y"
        bad = "b"
        good = "g"
    """)
    _write(project / ".mcplint.toml", """
        plugins = ["acme"]
        packs = ["acme.toml"]
        select = ["ACME"]
    """)
    (project / "t.json").write_text(json.dumps({"tools": [
        {"name": "GET_USER", "inputSchema": {"type": "object"}},
        {"name": "get_user", "inputSchema": {"type": "object"}}]}))
    code, report, stderr = _check(project, "t.json")
    assert stderr == ""
    assert _codes(report) == [("ACME001", "GET_USER")]
    assert code == 0


def test_a_config_or_pack_that_is_not_utf8_is_an_input_error(project: Path) -> None:
    # Latin-1 text (an "é" as the single byte 0xe9) where UTF-8 is required: a message that
    # names the file and the byte, exit code 2, and no traceback.
    config = project / "pyproject.toml"
    config.write_bytes(b'[tool.mcplint]\nselect = ["caf\xe9"]\n')
    code, report, err = _check(project, "servers/desk/tools.json")
    assert code == 2 and report == {}
    assert err.strip() == f"mcplint: {config}: not UTF-8 text (byte 29); save it as UTF-8"
    pack = project / "rules" / "house.toml"
    pack.parent.mkdir()
    pack.write_bytes(b'[[rules]]\ncode = "HOUSE001"\nsummary = "caf\xe9"\n')
    config.write_text('[tool.mcplint]\npacks = ["rules/house.toml"]\n', encoding="utf-8")
    code, report, err = _check(project, "servers/desk/tools.json")
    assert code == 2 and report == {}
    assert f"{pack}: rule pack is not UTF-8 text (byte 42); save it as UTF-8" in err
    assert "Traceback" not in err
    # Bad TOML in UTF-8 is still reported as bad TOML.
    config.write_text('[tool.mcplint\n', encoding="utf-8")
    code, _, err = _check(project, "servers/desk/tools.json")
    assert code == 2 and f"{config}: invalid TOML" in err
