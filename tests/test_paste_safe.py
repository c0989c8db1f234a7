"""Markdown and GitHub output are safe to paste, whatever the tools say (issue 14).

Markdown is rendered by GitHub's own renderer (cmark-gfm, with raw HTML let through so that
an injected tag would show) and must hold no link, image or tag of the tool's making, no
extra table cell and no @mention.  Annotations are parsed as the Actions runner parses a
log line (ActionCommand.TryParseV2) and must be one command with the fields mcplint meant.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mcplint.findings import Finding, InputError, Severity, ToolSummary
from mcplint.links import RULES_DOCS_URL
from mcplint.reporters import ReportOptions, github, markdown
from mcplint.reporters.visible import reveal, reveal_line
from mcplint.run import FileSummary, Report

cmarkgfm = pytest.importorskip("cmarkgfm", reason="GitHub's Markdown renderer (the dev extra)")
from cmarkgfm.cmark import Options  # noqa: E402

FAST = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

# Pieces an attacker would combine; hypothesis mixes them with arbitrary text.
PIECES = [
    "[", "]", "(", ")", "!", "<", ">", "`", "``", "```", "~~~", "*", "**", "_", "~~", "|", "#",
    "$", "$$", "&", "&amp;", "&#64;", "&lt;", "@", "@admins", "@org/team", "http://", "https://",
    "ftp://", "www.", "WWW.", "mailto:", "a@b.co", ":", "::", "\n", "\r", "\r\n", " ", "  ",
    "\t", "\\", "<img src=x>", "<script>", "</details>", "<!--", "-->", "javascript:",
    "evil.com", "x", "1. ", "- ", "> ", "---", "===", "[x]: http://e", "[^1]", "<http://e>",
    "\u2028", "\u202e", "\u200b", "%", "%0A", "%25", ",", "::error::x", "##[error]x", "|---|",
]
hostile = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=14).map(
    "".join)


def gfm(text: str) -> str:
    rendered: str = cmarkgfm.github_flavored_markdown_to_html(
        text, options=Options.CMARK_OPT_UNSAFE)
    return rendered


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []
        self.comments: list[str] = []
        self.in_code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        if tag in ("code", "pre"):
            self.in_code += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("code", "pre"):
            self.in_code -= 1

    def handle_data(self, data: str) -> None:
        if not self.in_code:
            self.text.append(data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


def parse(page: str) -> Tags:
    parser = Tags()
    parser.feed(page)
    parser.close()
    return parser


def flat(value: str) -> str:
    return " ".join(reveal(value).split())


def _no_mention(text: str) -> None:
    # GitHub links @name in text (not in code); mcplint's zero-width space after "@" stops it.
    assert re.search("@(?!\u200b)", text) is None, text


@FAST
@given(hostile)
@example("see https://e.example, www.e.example, a@b.co, [x](http://e) ![i](http://e/i.png)")
def test_text_renders_as_itself(value: str) -> None:
    page = gfm("x " + markdown.text(value))
    found = parse(page)
    assert [tag for tag, _ in found.tags] == ["p"], page
    assert not found.comments
    shown = "".join(found.text).strip()
    assert shown == ("x " + flat(value).replace("@", "@\u200b")).strip(), page
    _no_mention(shown)


@FAST
@given(hostile)
def test_code_span_renders_as_itself(value: str) -> None:
    page = gfm("x " + markdown.code(value))
    found = parse(page)
    assert [tag for tag, _ in found.tags] == ["p", "code"], page
    inner = re.search("<code>(.*)</code>", page, re.S)
    assert inner is not None
    assert html.unescape(inner.group(1)) == (flat(value) or " ")


@FAST
@given(hostile, hostile)
@example("a|<img src=x>|", "b|<img src=x>|")
def test_table_cells_stay_one_cell_each(tool: str, server: str) -> None:
    row = f"| {markdown.code(tool, cell=True)} | {markdown.text(server)} |"
    page = gfm(f"| tool | server |\n| --- | --- |\n{row}\n")
    found = parse(page)
    assert [tag for tag, _ in found.tags] == ["table", "thead", "tr", "th", "th", "tbody", "tr",
                                              "td", "code", "td"], page
    cells = re.findall("<td>(.*?)</td>", page, re.S)
    assert len(cells) == 2, page
    assert html.unescape(re.sub("</?code>", "", cells[0])) == (flat(tool) or " ")


@FAST
@given(hostile)
@example("\n\n[x](http://e.example) <b>")  # a blank line ended the <details> HTML block
def test_summary_code_is_one_element(value: str) -> None:
    page = gfm(f"<details><summary>{markdown.html_code(value)}: 1 error</summary>\n\n- item\n\n"
               "</details>")
    found = parse(page)
    assert [tag for tag, _ in found.tags] == ["details", "summary", "code", "ul", "li"], page
    inner = re.search("<code>(.*?)</code>", page, re.S)
    assert inner is not None
    assert html.unescape(inner.group(1)).replace("@\u200b", "@") == flat(value)


# --- whole documents ----------------------------------------------------------------------

ALLOWED_TAGS = {"h2", "h3", "p", "strong", "em", "code", "pre", "ul", "li", "table", "thead",
                "tbody", "tr", "th", "td", "details", "summary", "sub", "blockquote"}
ALLOWED_ATTRIBUTES = {("th", "align"), ("td", "align"), ("pre", "lang")}


def _finding(tool: str, message: str, suggestion: str, index: int) -> Finding:
    severity = (Severity.ERROR, Severity.WARNING, Severity.INFO)[index % 3]
    return Finding("SEC001", "hidden-instructions", severity, message, "server.json",
                   f"/tools/{index}", index + 1, 3, tool, suggestion=suggestion or None)


def _report(items: list[tuple[str, str, str]], server: str, error: str) -> Report:
    findings = tuple(_finding(t, m, s, i) for i, (t, m, s) in enumerate(items))
    details = tuple(ToolSummary(t, m, 10 + i, f"/tools/{i}", i + 1, ())
                    for i, (t, m, _) in enumerate(items))
    summary = FileSummary("server.json", len(items), 100, server=server or None,
                          tool_details=details)
    errors = (InputError("bad.json", 1, 2, error),) if error else ()
    return Report(findings, errors, (summary,), "estimate")


documents = st.tuples(st.lists(st.tuples(hostile, hostile, hostile), max_size=20), hostile,
                      hostile)


def _check_document(page: str) -> None:
    found = parse(page)
    for tag, attrs in found.tags:
        if tag == "a":
            # mcplint's own link: a rule code to its page, built from mcplint.links alone.
            assert [name for name, _ in attrs] == ["href"], (tag, attrs)
            assert re.fullmatch(re.escape(RULES_DOCS_URL) + r"[A-Z]+[0-9]+\.md",
                                dict(attrs)["href"] or ""), attrs
            continue
        assert tag in ALLOWED_TAGS, (tag, page)
        for name, _ in attrs:
            assert (tag, name) in ALLOWED_ATTRIBUTES, (tag, name)
    _no_mention("".join(found.text))
    # No link but those, whatever the tool text holds.
    assert page.count("<a ") == page.count('<a href="' + RULES_DOCS_URL), page


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_pr_comment_and_step_summary_hold_only_mcplint_markup(parts: Any) -> None:
    items, server, error = parts
    report = _report(items, server, error)
    _check_document(gfm(markdown.document(report)))
    _check_document(gfm(github.step_summary(report)))


def test_a_pipe_in_a_tool_name_cannot_add_a_cell_to_the_worst_tools_table() -> None:
    # Before: the "|" ended the code span's cell and the <img> became a cell of its own.
    report = _report([("a|<img src=https://e/p.gif>|", "m", "")], "", "")
    page = gfm(github.step_summary(report))
    assert "<img" not in page
    assert "<code>a|&lt;img src=https://e/p.gif&gt;|</code>" in page


def test_bare_urls_and_www_names_are_not_linked() -> None:
    page = gfm(markdown.text("see https://evil.example/x or www.evil.example, a@b.co"))
    assert "<a" not in page
    assert "https://evil.example/x" in page and "www.evil.example" in page


# --- GitHub workflow commands ---------------------------------------------------------------

DATA = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
PROPERTY = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))


def _unescape(value: str, mappings: tuple[tuple[str, str], ...]) -> str:
    for escaped, token in mappings:  # in the runner's order, one pass each
        value = value.replace(escaped, token)
    return value


def runner_parse(line: str) -> tuple[str, dict[str, str], str] | None:
    """ActionCommand.TryParseV2, as the Actions runner reads one line of a step's log."""
    line = line.lstrip()
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    info = line[2:end]
    name, _, rest = info.partition(" ")
    properties = {}
    for item in rest.strip().split(","):
        key, sep, value = item.partition("=")
        if sep and key and value:
            properties[key] = _unescape(value, PROPERTY)
    return name, properties, _unescape(line[end + 2:], DATA)


files = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30).filter(
    lambda f: f.strip() == f)


@FAST
@given(hostile, hostile, files)
def test_an_annotation_is_one_command_with_the_fields_meant(message: str, title: str,
                                                            file: str) -> None:
    title = title.strip() or "T"
    line = github.annotation("warning", message, file, 3, 4, title)
    assert "\n" not in line and "\r" not in line
    parsed = runner_parse(line)
    assert parsed is not None
    name, properties, data = parsed
    assert name == "warning"
    expected_title = reveal(title).strip()
    shown_file = reveal_line(file)  # a path with controls could not be found anyway
    assert properties == {"file": shown_file, "line": "3", "col": "4", "title": expected_title} \
        or (not expected_title and properties == {"file": shown_file, "line": "3", "col": "4"})
    assert data == reveal(message).replace("\r\n", "\n")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_github_output_is_one_command_per_finding(parts: Any) -> None:
    import io

    items, server, error = parts
    report = _report(items, server, error)
    out = io.StringIO()
    github.render(report, out, ReportOptions())
    lines = out.getvalue().split("\n")
    assert lines[-1] == ""
    commands = [runner_parse(line) for line in lines[:-2]]
    assert all(c is not None and c[0] in ("error", "warning", "notice") for c in commands)
    assert len(commands) == len(report.findings) + len(report.errors)
    assert lines[-2].startswith("mcplint: ")
