"""The HTML report as markup: what it contains, where each finding sits, and that it stays inert.

These tests parse the page with the standard library; tests/test_html_browser.py runs it in
chromium.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint import __version__
from mcplint.cli import main
from mcplint.engine.linter import Selection
from mcplint.links import RULES_DOCS_URL, documented, rule_url
from mcplint.reporters import ReportOptions, get_reporter
from mcplint.run import Report, run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "support-desk.json"
HOSTILE = ROOT / "fixtures" / "html" / "hostile.json"
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
# The example's planted problems, fixed by selecting the rule families that plant them, so
# rules added later do not change what these tests expect.
CORE = Selection(select=("SPEC", "NAME", "COST"))


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None
    parts: list[Node | str] = field(default_factory=list)  # children and text, in order

    @property
    def children(self) -> list[Node]:
        return [p for p in self.parts if isinstance(p, Node)]

    def all_text(self) -> str:
        return "".join(p if isinstance(p, str) else p.all_text() for p in self.parts)

    def words(self) -> str:
        """The text with a space between elements, as a reader sees separate cells."""
        pieces = [p if isinstance(p, str) else p.words() for p in self.parts]
        return " ".join(" ".join(pieces).split())

    def walk(self) -> list[Node]:
        nodes = [self]
        for child in self.children:
            nodes += child.walk()
        return nodes

    def ancestor(self, tag: str) -> Node | None:
        node = self.parent
        while node is not None and node.tag != tag:
            node = node.parent
        return node

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


VOID = {"meta", "input", "br", "img", "hr", "link", "source", "wbr", "col", "area", "base"}


class TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.parts.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.parts.append(Node(tag, {k: v or "" for k, v in attrs}, self.current))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.parts.append(data)


def _html(report: Report) -> str:
    out = io.StringIO()
    get_reporter("html")(report, out, ReportOptions())
    return out.getvalue()


def _parse(page: str) -> list[Node]:
    builder = TreeBuilder()
    builder.feed(page)
    builder.close()
    return builder.root.walk()


def _by_class(nodes: list[Node], tag: str, cls: str) -> list[Node]:
    return [n for n in nodes if n.tag == tag and cls in n.classes()]


def _own_rule_page(href: str) -> bool:
    """A link to one of mcplint's own rule pages, exactly as mcplint.links builds it."""
    code = href.removeprefix(RULES_DOCS_URL).removesuffix(".md")
    return href == rule_url(code) and documented(code)


def _sha256(code: str) -> str:
    return base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()


@pytest.fixture(scope="module")
def example_page() -> str:
    return _html(run([str(EXAMPLE)], CORE))


def test_each_finding_sits_under_its_tool_with_a_link_to_its_rule_docs(example_page: str) -> None:
    nodes = _parse(example_page)
    rows = []
    for item in _by_class(nodes, "li", "finding"):
        article = item.ancestor("article")
        assert article is not None
        (name,) = [n for n in article.walk() if "tool-name" in n.classes()]
        (link,) = [n for n in item.walk() if "rule-link" in n.classes()]
        rows.append((item.attrs["data-rule"], item.attrs["data-severity"], name.all_text(),
                     link.attrs["href"]))
    assert rows == [
        ("NAME001", "warning", "search_ticket", "#rule-NAME001"),
        ("SPEC007", "error", "get_ticket", "#rule-SPEC007"),
        ("SPEC011", "warning", "get_ticket", "#rule-SPEC011"),
        ("SPEC004", "error", "closeTicket", "#rule-SPEC004"),
        ("NAME002", "warning", "closeTicket", "#rule-NAME002"),
        ("SPEC002", "warning", "tickets.export", "#rule-SPEC002"),
    ]
    # Every rule link lands on that rule's docs, with its why and its bad and good examples.
    docs = {n.attrs["id"]: n for n in _by_class(nodes, "article", "rule")}
    assert sorted(docs) == ["rule-NAME001", "rule-NAME002", "rule-SPEC002", "rule-SPEC004",
                            "rule-SPEC007", "rule-SPEC011"]
    spec007 = docs["rule-SPEC007"].all_text()
    assert "Why it matters to an agent" in spec007 and "required-property-missing" in spec007
    # Each rule's docs link to its page in docs/rules, built from the one base URL.
    for anchor, article in docs.items():
        (page,) = [n for n in article.walk() if "rule-page" in n.classes()]
        (link,) = [n for n in page.walk() if n.tag == "a"]
        assert link.attrs["href"] == rule_url(anchor.removeprefix("rule-"))
        assert (ROOT / "docs" / "rules" / f"{anchor.removeprefix('rule-')}.md").is_file()
    assert len(_by_class(docs["rule-SPEC007"].walk(), "pre", "bad")) == 1
    assert len(_by_class(docs["rule-SPEC007"].walk(), "pre", "good")) == 1


def test_tools_show_description_and_parameters(example_page: str) -> None:
    nodes = _parse(example_page)
    tools = {next(n for n in a.walk() if "tool-name" in n.classes()).all_text(): a
             for a in _by_class(nodes, "article", "tool")}
    assert list(tools) == ["search_tickets", "search_ticket", "get_ticket", "closeTicket",
                           "tickets.export"]
    (description,) = _by_class(tools["search_tickets"].walk(), "div", "description")
    assert description.all_text().startswith("Search support tickets by text and status.")
    params = [[c.all_text() for c in row.children if c.tag == "td"]
              for row in tools["search_tickets"].walk() if row.tag == "tr"][1:]
    assert params == [["query", "string", "yes", "Words to look for in subject and body."],
                      ["status", "string", "", ""], ["limit", "integer", "", ""]]
    assert "No description." in tools["closeTicket"].all_text()
    # A small report opens in full, as it always did.
    (body,) = _by_class(nodes, "details", "server-body")
    assert "open" in body.attrs
    assert tools["get_ticket"].attrs["class"] == "tool worst-error"
    assert tools["search_tickets"].attrs["class"] == "tool worst-none"


def test_header_cards_and_chart(example_page: str) -> None:
    nodes = _parse(example_page)
    text = {n.attrs["id"]: n.all_text().strip() for n in nodes if n.attrs.get("id")}
    assert (text["card-servers"], text["card-tools"]) == ("1", "5")
    assert (text["card-error"], text["card-warning"], text["card-info"]) == ("2", "4", "0")
    report = run([str(EXAMPLE)], CORE)
    assert text["card-tokens"] == f"{report.files[0].tokens:,}"
    header = next(n for n in nodes if n.tag == "header" and "page-header" in n.classes())
    meta = header.words()
    assert f"mcplint {__version__}" in meta and f"Targets {EXAMPLE}" in meta
    assert re.search(r"Generated \d{4}-\d\d-\d\d \d\d:\d\d UTC", meta)
    # The chart: one bar per tool, most expensive first, each linking to its tool.
    bars = [n for n in nodes if n.tag == "rect" and "bar" in n.classes()]
    labels = [n.all_text() for n in nodes if "bar-label" in n.classes()]
    tokens = {t.name: t.tokens for t in report.files[0].tool_details}
    assert labels == sorted(tokens, key=lambda name: -tokens[name])
    widths = [float(b.attrs["width"]) for b in bars]
    assert widths == sorted(widths, reverse=True) and len(bars) == 5
    # Each row draws the budget line at the same place, so the rows line it up.
    budgets = {n.attrs["x1"] for n in nodes if n.tag == "line" and "budget" in n.classes()}
    assert len(budgets) == 1
    # A label is the tool's name as it is (short names are never cut), the link's title and
    # aria-label carry the full name, its place and its tokens.
    links = _by_class(nodes, "a", "bar-link")
    assert [link.attrs["aria-label"] for link in links] == [
        f"{name}: {tokens[name]:,} tokens" for name in labels]
    assert links[0].attrs["title"].startswith(f"{labels[0]} ({EXAMPLE}:")


def test_self_contained_with_a_strict_policy(example_page: str) -> None:
    nodes = _parse(example_page)
    (policy,) = [n.attrs["content"] for n in nodes
                 if n.tag == "meta" and n.attrs.get("http-equiv") == "Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    (style,) = [n.all_text() for n in nodes if n.tag == "style"]
    (script,) = [n for n in nodes if n.tag == "script"]
    assert directives == {
        "default-src": "'none'",
        "style-src": f"'sha256-{_sha256(style)}'",
        "script-src": f"'sha256-{_sha256(script.all_text())}'",
        "base-uri": "'none'",
        "form-action": "'none'",
    }
    assert "src" not in script.attrs
    # Nothing is fetched and nothing is styled inline: links jump within the page, or are
    # mcplint's own rule pages (navigation only; nothing from a manifest makes a link).
    for node in nodes:
        assert "style" not in node.attrs and "src" not in node.attrs, node.tag
        href = node.attrs.get("href", "#")
        assert not href.strip("#") or href.startswith("#") or _own_rule_page(href), href
    assert "http://" not in example_page.replace("http://www.w3.org", "")
    # The only absolute URLs are the rule pages' links checked above.
    assert "https://" not in re.sub(r'href="[^"]*"', "", example_page)


def test_hostile_text_renders_as_text_and_nothing_else() -> None:
    manifest = json.loads(HOSTILE.read_text())
    nodes = _parse(_html(run([str(HOSTILE)])))
    # Only the report's own style, script, budget meter and a bar for each of the two tools;
    # no payload became an element.
    assert [n.tag for n in nodes if n.tag in {"script", "img", "iframe", "svg", "style", "object",
                                              "embed", "form", "base", "link"}
            ] == ["style", "svg", "svg", "svg", "script"]
    for node in nodes:
        assert not [a for a in node.attrs if a.startswith("on")], node
        if node.tag == "a":
            href = node.attrs["href"]
            assert href.startswith("#") or _own_rule_page(href), node.attrs
    names = [n.all_text() for n in nodes if "tool-name" in n.classes()]
    assert names == [manifest["tools"][0]["name"], "fetch_page"]
    descriptions = [n.all_text() for n in nodes if n.tag == "div" and "description" in n.classes()]
    assert descriptions == [t["description"] for t in manifest["tools"]]
    (title,) = [n for n in nodes if n.tag == "h2" and (s := n.ancestor("section")) is not None
                and "server" in s.classes()]
    assert title.all_text() == manifest["serverInfo"]["name"]
    cells = [n.all_text() for n in nodes if n.tag == "td"]
    param = next(iter(manifest["tools"][0]["inputSchema"]["properties"].items()))
    assert param[0] in cells and param[1]["description"] in cells


def test_same_input_same_page_with_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    report = run([str(EXAMPLE)], CORE)
    first = _html(report)
    assert first == _html(report)
    assert "2026-01-01 00:00 UTC" in first


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def test_report_command_writes_the_page_and_exits_by_fail_on(
        runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = runner.invoke(main, ["report", str(EXAMPLE), "-o", str(out), "--select", "SPEC"])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert page.count('<li class="finding') == 4
    assert f"Wrote {out}: 4 findings in 5 tools." in result.stderr
    failing = ["report", str(EXAMPLE), "-o", str(out), "--fail-on", "error"]
    assert runner.invoke(main, failing).exit_code == 1
    # check --format html renders the same page.
    result = runner.invoke(main, ["check", str(EXAMPLE), "--format", "html", "--select", "SPEC",
                                  "--fail-on", "never"])
    assert result.exit_code == 0 and result.stdout.count('<li class="finding') == 4


def test_report_lists_input_errors_and_still_reports_the_rest(
        runner: CliRunner, tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"tools": [', encoding="utf-8")
    out = tmp_path / "report.html"
    result = runner.invoke(main, ["report", str(broken), str(EXAMPLE), "-o", str(out)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    nodes = _parse(out.read_text(encoding="utf-8"))
    errors = [n.all_text() for n in _by_class(nodes, "li", "input-error")]
    assert len(errors) == 1 and errors[0].startswith(f"{broken}:")
    assert len(_by_class(nodes, "article", "tool")) == 5


def test_nothing_to_lint_still_renders(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["report", str(tmp_path), "-o", "-"])
    # An empty directory is an input error (issue 13), but the report is still written.
    assert result.exit_code == 2
    assert "no files to lint" in result.stderr
    assert "No tool manifests were linted." in result.stdout
    assert "<svg class=\"bars\"" not in result.stdout


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not here ({CORPUS}); it "
                    "sits beside the repository in the development workplace")
def test_whole_corpus_renders_every_finding_and_tool() -> None:
    report = run([str(CORPUS)], Selection(select=("ALL",)))
    nodes = _parse(_html(report))
    assert len(_by_class(nodes, "li", "finding")) == len(report.findings)
    assert len(_by_class(nodes, "article", "tool")) == sum(f.tools for f in report.linted)
    assert len(_by_class(nodes, "section", "server")) == len(report.linted)
    # Thousands of cards: every server starts folded, so the browser lays out none of them.
    bodies = _by_class(nodes, "details", "server-body")
    assert len(bodies) == len(report.linted) and not any("open" in b.attrs for b in bodies)
    # The chart keeps its top 40 and counts the rest.
    assert len([n for n in nodes if n.tag == "rect" and "bar" in n.classes()]) == 40


def test_findings_outside_any_linted_manifest_are_still_shown() -> None:
    from dataclasses import replace

    from mcplint.findings import Finding, Severity

    report = run([str(EXAMPLE)], Selection(select=("SPEC004",)))
    elsewhere = Finding("XSRV001", "cross-server-shadowing", Severity.WARNING,
                        "Two servers both define \"search\".", "mcp.json", "/mcpServers", 3, 5)
    nodes = _parse(_html(replace(report, findings=(*report.findings, elsewhere))))
    other = next(n for n in _by_class(nodes, "section", "server")
                 if "Other findings" in n.words())
    assert [f.attrs["data-rule"] for f in _by_class(other.walk(), "li", "finding")] == ["XSRV001"]
    assert "About mcp.json" in other.words()
    assert len(_by_class(nodes, "section", "server")) == 2
    text = {n.attrs["id"]: n.all_text().strip() for n in nodes if n.attrs.get("id")}
    assert text["card-servers"] == "1" and text["card-warning"] == "1"


def test_multi_server_table_of_contents_counts_and_links() -> None:
    report = run([str(EXAMPLE), str(HOSTILE)], CORE)
    nodes = _parse(_html(report))
    (toc,) = [n for n in nodes if n.tag == "nav" and "toc" in n.classes()]
    sections = {n.attrs["id"]: n for n in _by_class(nodes, "section", "server")}
    rows = _by_class(toc.walk(), "tr", "toc-row")
    assert len(rows) == len(sections) == 2
    for row, summary in zip(rows, report.linted, strict=True):
        (link,) = [n for n in row.walk() if n.tag == "a"]
        section = sections[link.attrs["href"].lstrip("#")]
        # The row names the section it links to, and counts what that section holds.
        (title,) = [n for n in section.walk() if n.tag == "h2"]
        assert link.all_text() == title.all_text() == (summary.server or summary.file)
        cells = [c.all_text() for c in row.children if c.tag == "td"]
        mine = [f for f in report.findings if f.file == summary.file]
        by_severity = [str(sum(1 for f in mine if f.severity.label == s))
                       for s in ("error", "warning", "info")]
        # A folded section says the same under its heading.
        (meta,) = _by_class(section.walk(), "span", "server-meta")
        named = {"error": "errors", "warning": "warnings", "info": "info"}
        said = ", ".join(f"{n} {named[s] if n != '1' or s == 'info' else s}"
                         for s, n in zip(("error", "warning", "info"), by_severity, strict=True)
                         if n != "0")
        assert meta.all_text().endswith(f"{len(mine)} findings ({said})")
        cards = _by_class(section.walk(), "li", "finding")
        assert cells[1:] == [str(summary.tools), *by_severity, f"{summary.tokens:,}",
                             str(len(cards))]
        assert sorted(c.attrs["data-severity"] for c in cards) == sorted(
            f.severity.label for f in mine)


def test_one_server_has_no_table_of_contents(example_page: str) -> None:
    assert not [n for n in _parse(example_page) if n.tag == "nav"]


def test_cut_chart_labels_never_read_the_same() -> None:
    from mcplint.findings import ToolSummary
    from mcplint.run import FileSummary

    long = "get_customer_subscription_invoice_line_items_for_"
    servers = {"acme-customer-relationship-platform": [long + "period", "search", "search"],
               "acme-customer-relationship-platform-staging": [long + "period", long + "day"]}
    files = tuple(
        FileSummary(f"s{n}.json", len(names), 100, server=server, tool_details=tuple(
            ToolSummary(name, "Does it.", 1000 - 10 * i - n, f"/tools/{i}", 10 + 20 * i, ())
            for i, name in enumerate(names)))
        for n, (server, names) in enumerate(servers.items()))
    nodes = _parse(_html(Report((), (), files, "estimate")))
    links = _by_class(nodes, "a", "bar-link")
    labels = [next(n for n in a.walk() if "bar-label" in n.classes()).all_text() for a in links]
    assert len(labels) == 5 and len(set(labels)) == 5, labels
    assert all(len(label) <= 38 for label in labels)
    # The two "…_period" tools keep the ends of their servers' names, which is where they differ.
    periods = [label for label in labels if label.endswith("_period")]
    assert len(periods) == 2 and any(label.split(" / ")[0].endswith("staging") for label in periods)
    # The same name twice in one server is told apart by its line.
    assert sorted(label for label in labels if "search" in label)[0].endswith("(line 30)")
    for link, label in zip(links, labels, strict=True):
        full = link.attrs["aria-label"].rsplit(": ", 1)[0]
        assert full.endswith(label.split(" (line")[0].split("…")[-1])
        assert link.attrs["title"].startswith(full + " (s")


def test_rule_docs_render_their_markdown(example_page: str) -> None:
    page = _html(run([str(EXAMPLE)], Selection(select=("PARAM002", "SPEC007"))))
    nodes = _parse(page)
    docs = {n.attrs["id"]: n for n in _by_class(nodes, "article", "rule")}
    param = docs["rule-PARAM002"]
    codes = [n.all_text() for n in param.walk() if n.tag == "code"]
    # `unnamed` is code, and `` `owner` `` is code that shows its backticks.
    assert "unnamed" in codes and "`owner`" in codes and "get_shipment(id)" in codes
    (what,) = [n for n in _by_class(param.walk(), "div", "doc")][:1]
    assert [n.tag for n in what.children] == ["p", "ul", "p"]
    assert len([n for n in what.walk() if n.tag == "li"]) == 6
    # No backtick is left as text outside a code element.
    outside = "".join(p for n in param.walk() if n.tag != "code" for p in n.parts
                      if isinstance(p, str))
    assert "`" not in outside
    # JSON examples stay pretty-printed blocks.
    assert len(_by_class(docs["rule-SPEC007"].walk(), "pre", "bad")) == 1


def test_doc_markdown_escapes_everything_and_knows_only_its_few_forms() -> None:
    from mcplint.reporters.doctext import blocks, inline

    assert inline("a `b` c") == "a <code>b</code> c"
    assert inline("`` `owner` ``") == "<code>`owner`</code>"
    assert inline("x ``a`b`` y") == "x <code>a`b</code> y"
    assert inline("an unclosed `tick and **bold** [link](javascript:x)") == \
        "an unclosed `tick and **bold** [link](javascript:x)"
    assert inline("<script>`<b onclick=\"x\">&`</script>") == (
        "&lt;script&gt;<code>&lt;b onclick=&#34;x&#34;&gt;&amp;</code>&lt;/script&gt;")
    assert blocks("One\nline.\n\n- `x`: first;\n- second\n  goes on\n\nAfter.") == (
        "<p>One\nline.</p><ul><li><code>x</code>: first;</li><li>second\ngoes on</li></ul>"
        "<p>After.</p>")
    assert blocks('Intro\n```json\n{"a": "</code></pre><script>x</script>"}\n```\nend') == (
        '<p>Intro</p><pre><code>{&#34;a&#34;: &#34;&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;x'
        '&lt;/script&gt;&#34;}</code></pre><p>end</p>')
    assert blocks("~~~~\nunclosed ``` inside\n~~~\n") == \
        "<pre><code>unclosed ``` inside\n~~~\n</code></pre>"
    # Invisible and bidi characters are written out, in code as in text.
    assert blocks("\u202e`\u200b`") == "<p>\\u202e<code>\\u200b</code></p>"


def test_hostile_rule_docs_stay_text() -> None:
    from dataclasses import replace

    from mcplint.findings import RuleInfo, Severity

    report = run([str(EXAMPLE)], Selection(select=("SPEC007",)))
    payload = "<img src=x onerror=alert(1)>`<script>alert(2)</script>`"
    hostile = RuleInfo("SPEC007", "required-property-missing", payload, Severity.ERROR, (),
                       payload + "\n\n- " + payload + "\n\n```\n" + payload + "\n```",
                       "</p></div><svg onload=alert(3)>", "not json: " + payload,
                       '{"x": "</pre><script>alert(4)</script>"}')
    nodes = _parse(_html(replace(report, rules={"SPEC007": hostile})))
    # The meter, a bar for each of the example's five tools, the report's own script.
    assert [n.tag for n in nodes if n.tag in {"script", "img", "svg", "iframe"}] == \
        ["svg"] * 6 + ["script"]
    assert not [n for n in nodes for a in n.attrs if a.startswith("on")]
    (doc,) = _by_class(nodes, "article", "rule")
    assert "<script>alert(2)</script>" in [n.all_text() for n in doc.walk() if n.tag == "code"]
    assert "<img src=x onerror=alert(1)>" in doc.all_text()
