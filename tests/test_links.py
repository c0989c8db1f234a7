"""Every format that can link does so from one constant (mcplint.links): Markdown reports of
check and diff link each finding's rule to its page; a rule of the user's own pack, which has
no page, is not linked."""

from __future__ import annotations

import re
from pathlib import Path

import cmarkgfm
import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.docsgen import DOCS_DIR
from mcplint.links import RULES_DOCS_URL, documented, rule_url

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "support-desk.json"
OLD = ROOT / "fixtures" / "diff" / "old.json"
NEW = ROOT / "fixtures" / "diff" / "new.json"
PACK = '''
[pack]
name = "house"

[[rules]]
code = "HOUSE001"
name = "short-tool-names"
summary = "Tool names stay under 8 characters"
groups = ["house"]
severity = "warning"
target = "tool"
check = "name-pattern"
options = { characters = "a-z_", max-length = 8 }
message = "Tool \\"{name}\\" {problem}."
[rules.docs]
what = "Long tool names."
why = "Narrow columns."
bad = '{"tools": [{"name": "get_the_order_history", "inputSchema": {"type": "object"}}]}'
good = '{"tools": [{"name": "orders", "inputSchema": {"type": "object"}}]}'
'''


def _hrefs(markdown: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', cmarkgfm.github_flavored_markdown_to_html(markdown))


def test_markdown_check_links_every_finding_to_its_page(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", str(EXAMPLE), "--format", "markdown"])
    assert result.exit_code == 1
    items = [line for line in result.stdout.splitlines() if line.startswith("- ")]
    assert len(items) == 17
    hrefs = _hrefs(result.stdout)
    assert len(hrefs) == len(items)  # one link a finding, and no other
    for href in hrefs:
        assert href.startswith(RULES_DOCS_URL)
        assert (DOCS_DIR / href.removeprefix(RULES_DOCS_URL)).is_file()


def test_markdown_diff_links_the_change_codes(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["diff", str(OLD), str(NEW), "--format", "markdown"])
    hrefs = set(_hrefs(result.stdout))
    assert rule_url("BREAK001") in hrefs or rule_url("BREAK002") in hrefs
    assert {h.removeprefix(RULES_DOCS_URL)[:-3] for h in hrefs} <= {
        p.stem for p in DOCS_DIR.glob("*.md")}
    assert any(h.startswith(RULES_DOCS_URL + "DRIFT") for h in hrefs)


def test_a_rule_of_the_users_own_pack_is_not_linked(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "house.toml").write_text(PACK, encoding="utf-8")
    (tmp_path / ".mcplint.toml").write_text('packs = ["house.toml"]\nselect = ["HOUSE001"]\n',
                                            encoding="utf-8")
    (tmp_path / "tools.json").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert not documented("HOUSE001")
    markdown = CliRunner().invoke(main, ["check", "tools.json", "--format", "markdown"])
    assert "`HOUSE001`" in markdown.stdout and _hrefs(markdown.stdout) == []
    sarif = CliRunner().invoke(main, ["check", "tools.json", "--format", "sarif"])
    rule = __import__("json").loads(sarif.stdout)["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["id"] == "HOUSE001" and "helpUri" not in rule
