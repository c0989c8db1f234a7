"""The rule pages in docs/rules/ are what the generator writes, and what `mcplint explain` says.

Every built-in rule and every change code of `mcplint diff` has a page; the checked-in pages
must equal `python -m mcplint.docsgen`'s, so a rule's docs never drift from its pack.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import cmarkgfm
import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.diff import KINDS
from mcplint.docsgen import DOCS_DIR, builtin_rules, pages, stale, write
from mcplint.explain import code_span
from mcplint.links import RULES_DOCS_URL, rule_url

ROOT = Path(__file__).resolve().parents[1]
RULE_CODES = [rule.code for rule in builtin_rules()]
CHANGE_CODES = sorted(kind.code for kind in KINDS.values())


def test_docs_dir_is_the_repository_docs() -> None:
    assert DOCS_DIR == ROOT / "docs" / "rules"


def test_checked_in_pages_equal_the_generated_ones() -> None:
    assert stale() == [], "run `python -m mcplint.docsgen` and commit docs/rules/"
    expected = pages()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in DOCS_DIR.glob("*.md")}
    assert on_disk == expected


def test_every_rule_and_change_code_has_a_page_and_an_index_entry() -> None:
    assert len(RULE_CODES) == 60 and len(CHANGE_CODES) == 14  # every built-in rule
    index = (DOCS_DIR / "README.md").read_text(encoding="utf-8")
    for code in [*RULE_CODES, *CHANGE_CODES]:
        assert (DOCS_DIR / f"{code}.md").is_file(), code
        assert f"[{code}]({code}.md)" in index, code


def test_check_mode_finds_an_edited_a_missing_and_a_left_over_page(tmp_path: Path) -> None:
    write(tmp_path)
    assert stale(tmp_path) == []
    (tmp_path / "SPEC001.md").write_text("edited by hand\n", encoding="utf-8")
    (tmp_path / "NAME001.md").unlink()
    (tmp_path / "GONE001.md").write_text("# a rule that was removed\n", encoding="utf-8")
    assert stale(tmp_path) == ["GONE001.md", "NAME001.md", "SPEC001.md"]
    run = subprocess.run([sys.executable, "-m", "mcplint.docsgen", "--check", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1 and "SPEC001.md: out of date" in run.stderr
    assert subprocess.run([sys.executable, "-m", "mcplint.docsgen", str(tmp_path)],
                          capture_output=True, cwd=ROOT).returncode == 0
    assert stale(tmp_path) == [] and not (tmp_path / "GONE001.md").exists()


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


@pytest.mark.parametrize("code", RULE_CODES + CHANGE_CODES)
def test_explain_prints_the_page_of_every_code(runner: CliRunner, code: str,
                                               tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:
    monkeypatch.chdir(tmp_path)  # no config of this repository
    result = runner.invoke(main, ["explain", code.lower()])
    assert result.exit_code == 0, result.output
    assert result.stdout == (DOCS_DIR / f"{code}.md").read_text(encoding="utf-8")
    assert result.stdout.startswith(f"# {code} ")


def test_explain_takes_a_change_name_and_suggests_change_codes(runner: CliRunner) -> None:
    assert runner.invoke(main, ["explain", "tool-renamed"]).stdout.startswith(
        "# BREAK002 tool-renamed\n")
    missing = runner.invoke(main, ["explain", "DRIFT09"])
    assert missing.exit_code == 2 and 'did you mean "DRIFT00' in missing.stderr


def _code_spans(markdown: str) -> list[str]:
    rendered = cmarkgfm.github_flavored_markdown_to_html(markdown)
    return [html.unescape(c) for c in re.findall(r"<code>(.*?)</code>", rendered, re.S)]


def test_option_values_stay_code_even_when_they_hold_backticks() -> None:
    # DESC001 and SEC001 have regular expressions with backticks among their options.
    for code in ("DESC001", "SEC001"):
        text = (DOCS_DIR / f"{code}.md").read_text(encoding="utf-8")
        rule = next(r for r in builtin_rules() if r.code == code)
        spans = _code_spans(text)
        for key, value in rule.options.items():
            shown = json.dumps(value, ensure_ascii=False)
            assert shown in spans, (code, key)
    assert _code_spans(code_span("a `b` c")) == ["a `b` c"]
    assert _code_spans(code_span("`")) == ["`"]


def test_links_point_at_the_pages() -> None:
    assert rule_url("SPEC001") == RULES_DOCS_URL + "SPEC001.md"
    assert RULES_DOCS_URL.endswith("/docs/rules/")
