"""Markdown for PR comments: a summary table, findings by tool, folded when long, inert text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.engine.linter import Selection
from mcplint.links import rule_url
from mcplint.reporters.markdown import code, findings_section, html_code, text
from mcplint.run import run

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "fixtures" / "baseline" / "server.json"


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "server.json").write_text(SERVER.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def _markdown(*args: str) -> str:
    result = CliRunner().invoke(main, ["check", "--select", "SPEC,NAME", "--format", "markdown",
                                       *args])
    return result.stdout


def test_escaping_keeps_third_party_text_inert() -> None:
    assert text("<script>alert(1)</script>") == r"\<script\>alert(1)\</script\>"
    assert text("a | b *c* [x](javascript:y) & `z`") == \
        r"a \| b \*c\* \[x\](javascript:y) &amp; \`z\`"
    assert text("ping @security-team\nnow") == "ping @\u200bsecurity-team now"
    assert code("a`b") == "``a`b``"
    assert code("`a") == "`` `a ``"
    assert html_code("<b>@x</b>") == "<code>&lt;b&gt;&#64;\u200bx&lt;/b&gt;</code>"


def test_summary_table_and_findings_by_tool(work: Path) -> None:
    output = _markdown("server.json")
    assert output.startswith("## mcplint\n\n**3 findings** (2 error · 1 warning · 0 info) in "
                             "1 file, 3 tools, ~")
    assert "| file | tools | tokens | error | warning | info |" in output
    assert "| `server.json` | 3 | " in output and " | 2 | 1 | 0 |" in output
    assert "### `server.json`" in output
    get_ticket = output.index("**`get_ticket`**")
    close_ticket = output.index("**`closeTicket`**")
    # Each finding's rule links to its page.
    spec007 = f"[`SPEC007`]({rule_url('SPEC007')}) required-property-missing, line 9"
    assert get_ticket < output.index(spec007) < close_ticket
    assert close_ticket < output.index(f"[`SPEC004`]({rule_url('SPEC004')}) missing-description")
    assert "<details>" not in output
    assert "list_open_tickets" not in output.split("### ")[1]  # no findings, no section


def test_long_reports_fold_each_tool(work: Path) -> None:
    tools = [{"name": f"tool_{i}", "inputSchema": {"type": "object"}} for i in range(16)]
    (work / "many.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")
    output = _markdown("many.json", "--select", "SPEC004")
    assert output.count("<details><summary><code>tool_") == 16
    assert "<details><summary><code>tool_3</code>: 1 error · 0 warning · 0 info</summary>" \
        in output
    assert output.count("</details>") == 16


def test_very_long_reports_are_cut_with_a_note(work: Path) -> None:
    tools = [{"name": f"tool_{i}", "inputSchema": {"type": "object"}} for i in range(40)]
    (work / "many.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")
    report = run(["many.json"], Selection(select=("SPEC004",)))
    assert len(report.findings) == 40
    section = findings_section(report, max_chars=3000)
    assert len(section) < 3300
    shown = section.count("<details>")
    assert 0 < shown < 40
    assert f"…and {len(report.findings) - shown} more findings" in section


def test_hostile_tool_names_render_as_text(work: Path) -> None:
    name = "<img src=x onerror=alert(1)>@admins"
    (work / "bad.json").write_text(json.dumps({"tools": [
        {"name": name, "inputSchema": {"type": "object"}}]}), encoding="utf-8")
    output = _markdown("bad.json")
    # Only inside code spans, or escaped: never as live HTML.
    assert "<img" not in output.replace("`<img", "").replace("\\<img", "")
    assert "**`<img src=x onerror=alert(1)>@admins`**" in output
    assert r"\<img src=x onerror=alert(1)\>@" + "\u200badmins" in output


@pytest.mark.parametrize("fmt", ["markdown", "github", "sarif", "junit"])
def test_every_ci_format_survives_lone_surrogates(work: Path, monkeypatch: pytest.MonkeyPatch,
                                                  fmt: str) -> None:
    # JSON allows "\ud800"; UTF-8 cannot encode it, so a format that wrote it raw would crash.
    (work / "odd.json").write_text(
        '{"tools": [{"name": "bad\\ud800", "inputSchema": {"type": "object"}}]}',
        encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(work / "summary.md"))
    result = CliRunner().invoke(main, ["check", "--select", "SPEC", "--format", fmt,
                                       "-o", "out.txt", "odd.json"])
    assert result.exit_code == 1, result.output
    assert (work / "out.txt").read_text(encoding="utf-8")
