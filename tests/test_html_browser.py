"""The HTML report in a real headless chromium: it renders cleanly, filters, and stays inert.

Driven by Playwright with the system's chromium (Debian's package); Playwright's own browser
download is never used. Without chromium or Playwright these tests skip, unless
MCPLINT_REQUIRE_BROWSER=1 (set by .ci/run), which turns the skip into a failure.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mcplint.engine.linter import Selection
from mcplint.findings import Finding, Fix, Severity, SourceLocation, ToolSummary
from mcplint.reporters import ReportOptions, get_reporter
from mcplint.run import FileSummary, Report, run

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, Playwright

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "support-desk.json"
HOSTILE = ROOT / "fixtures" / "html" / "hostile.json"
CHROMIUM = os.environ.get("MCPLINT_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("MCPLINT_REQUIRE_BROWSER") == "1"
# What the probe found works for Debian's chromium headless as root, with nothing phoning home.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CORE = Selection(select=("SPEC", "NAME", "COST"))

# Records what the page's own code cannot hide: CSP violations and any payload that ran.
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI);
});
"""


def _unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"{reason}, and MCPLINT_REQUIRE_BROWSER=1 requires the browser tests to run")
    pytest.skip(f"{reason}; install Debian's chromium (apt-get install chromium) and "
                "playwright (pip install -e '.[dev]') to run the HTML report's browser tests")


# Fixture names differ from pytest-playwright's (playwright, browser) so that plugin, if
# installed, cannot swap in its own downloaded browser.
@pytest.fixture(scope="module")
def driver() -> Iterator[Playwright]:
    if not Path(CHROMIUM).exists():
        _unavailable(f"no chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def chromium(driver: Playwright, tmp_path: Path) -> Iterator[BrowserContext]:
    yield from _launch(driver, tmp_path, bypass_csp=False)


def _launch(playwright: Playwright, tmp_path: Path, bypass_csp: bool
            ) -> Iterator[BrowserContext]:
    profile = tmp_path / f"profile-{bypass_csp}"
    profile.mkdir()
    try:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=ARGS, headless=True,
            bypass_csp=bypass_csp, viewport={"width": 1200, "height": 900})
    except Exception as exc:  # Playwright raises its own Error for a browser that will not start
        _unavailable(f"chromium at {CHROMIUM} did not start: {exc}")
    context.add_init_script(WATCH)
    yield context
    context.close()


@dataclass
class Opened:
    page: Page
    url: str
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


def _open(context: BrowserContext, report_file: Path, targets: list[Path],
          selection: Selection | None = None) -> Opened:
    return _open_report(context, report_file, run([str(t) for t in targets], selection))


def _open_report(context: BrowserContext, report_file: Path, report: Report) -> Opened:
    out = io.StringIO()
    get_reporter("html")(report, out, ReportOptions())
    report_file.write_text(out.getvalue(), encoding="utf-8")
    page = context.new_page()
    # Only a guard against a hang: how fast the page is depends on the machine, so no test
    # turns on it; they assert what the page does instead.
    page.set_default_timeout(60_000)
    opened = Opened(page, report_file.as_uri())

    def on_console(message: Any) -> None:
        if message.type in ("error", "warning"):
            opened.console.append(f"{message.type}: {message.text}")

    def on_dialog(dialog: Any) -> None:
        opened.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("console", on_console)
    page.on("pageerror", lambda error: opened.console.append(f"pageerror: {error}"))
    page.on("request", lambda request: opened.requests.append(request.url))
    page.on("dialog", on_dialog)
    page.goto(opened.url)
    page.wait_for_load_state("load")
    return opened


def _visible(page: Page, selector: str, attribute: str) -> list[str]:
    # checkVisibility, not offsetParent: the content of a closed <details> keeps its layout
    # parent but is not shown.
    values: list[str] = page.eval_on_selector_all(
        selector, f"els => els.filter(e => e.checkVisibility()).map(e => e.{attribute})")
    return values


def _tools(page: Page) -> list[str]:
    return _visible(page, "article.tool", "querySelector('.tool-name').textContent")


def _findings(page: Page) -> list[str]:
    return _visible(page, "li.finding", "dataset.rule")


def test_renders_without_errors_and_fetches_nothing(chromium: BrowserContext,
                                                    tmp_path: Path) -> None:
    opened = _open(chromium, tmp_path / "report.html", [EXAMPLE], CORE)
    page = opened.page
    assert page.title() == "mcplint report: 6 findings in 5 tools"
    assert page.text_content("#card-error") == "2" and page.text_content("#card-warning") == "4"
    assert page.text_content("#filter-status") == "6 of 6 findings shown"
    assert _tools(page) == ["search_tickets", "search_ticket", "get_ticket", "closeTicket",
                            "tickets.export"]
    assert page.locator(".bars rect.bar").count() == 5
    assert opened.console == []
    assert page.evaluate("window.__csp") == []
    assert opened.requests == [opened.url]
    # A finding's rule link jumps to that rule's docs.
    page.click("li.finding[data-rule='SPEC007'] a.rule-link")
    assert page.evaluate("location.hash") == "#rule-SPEC007"
    assert page.locator("#rule-SPEC007").is_visible()
    assert "Why it matters to an agent" in (page.text_content("#rule-SPEC007") or "")
    # Parameters are one click away too.
    tool = page.locator("article.tool", has_text="search_tickets").first
    assert not tool.locator("table").is_visible()
    tool.locator("details.parameters summary").click()
    assert tool.locator("tbody tr").count() == 3
    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert opened.console == [] and page.evaluate("window.__csp") == []


def test_filters_hide_and_show_the_right_rows(chromium: BrowserContext, tmp_path: Path) -> None:
    page = _open(chromium, tmp_path / "report.html", [EXAMPLE], CORE).page
    every = ["NAME001", "SPEC007", "SPEC011", "SPEC004", "NAME002", "SPEC002"]
    assert _findings(page) == every

    page.uncheck(".filter-severity[value='warning']")
    assert _findings(page) == ["SPEC007", "SPEC004"]
    # A tool without findings has nothing a severity could hide; it stays unless asked.
    assert _tools(page) == ["search_tickets", "get_ticket", "closeTicket"]
    page.check("#filter-clean")
    assert _tools(page) == ["get_ticket", "closeTicket"]
    assert page.text_content("#filter-status") == "2 of 6 findings shown"
    page.check(".filter-severity[value='warning']")
    page.uncheck("#filter-clean")
    assert _findings(page) == every

    page.select_option("#filter-rule", "SPEC002")
    assert _findings(page) == ["SPEC002"]
    assert _tools(page) == ["tickets.export"]
    page.select_option("#filter-rule", "")

    # The search matches messages, tool names, descriptions and parameter names.
    page.fill("#filter-text", "ticket_id")
    assert _tools(page) == ["get_ticket", "closeTicket"]
    assert _findings(page) == ["SPEC007", "SPEC011", "SPEC004", "NAME002"]
    page.fill("#filter-text", "CSV")
    assert _tools(page) == ["tickets.export"]
    page.fill("#filter-text", "no such words")
    assert _tools(page) == [] and _findings(page) == []
    assert page.locator("#no-match").is_visible()
    assert page.text_content("#filter-status") == "0 of 6 findings shown"
    page.fill("#filter-text", "")
    assert _findings(page) == every and not page.locator("#no-match").is_visible()


def test_print_layout_drops_the_controls(chromium: BrowserContext, tmp_path: Path) -> None:
    page = _open(chromium, tmp_path / "report.html", [EXAMPLE], CORE).page
    assert page.locator(".filters").is_visible()
    page.emulate_media(media="print")
    assert not page.locator(".filters").is_visible()
    assert len(_tools(page)) == 5 and len(_findings(page)) == 6
    # Printing unfolds every parameter table, and folds them again afterwards.
    tables = page.locator("details.parameters table")
    assert not any(tables.nth(i).is_visible() for i in range(tables.count()))
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert tables.count() == 5 and all(tables.nth(i).is_visible() for i in range(5))
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    assert not any(tables.nth(i).is_visible() for i in range(5))


def _assert_inert(opened: Opened) -> None:
    page = opened.page
    # Move and scroll over everything, which is what fires a planted onmouseover or onload.
    page.mouse.move(600, 300)
    page.mouse.wheel(0, 2000)
    assert page.evaluate("window.__pwned") is None
    assert opened.dialogs == []
    assert opened.requests == [opened.url]
    assert page.locator("script").count() == 1
    assert page.locator("img, iframe, object, embed, a[href^='javascript' i]").count() == 0
    names = page.locator(".tool-name").all_text_contents()
    assert names == ["<script>window.__pwned='name'</script>", "fetch_page"]
    description = page.locator("div.description").first.text_content() or ""
    assert description.startswith("Fetch a page.</div></li></article><script>")
    assert "<a href=\"javascript:window.__pwned='href'\">" in description
    assert "{{ 7*7 }}" in description
    server = page.locator("section.server h2").text_content() or ""
    assert server.startswith("<img src=x onerror=")
    # The planted <style> did not hide the page.
    assert page.locator("main").is_visible()


def test_planted_xss_does_not_execute(chromium: BrowserContext, tmp_path: Path) -> None:
    opened = _open(chromium, tmp_path / "hostile.html", [HOSTILE])
    _assert_inert(opened)
    assert opened.console == []
    assert opened.page.evaluate("window.__csp") == []
    opened.page.screenshot(path=str(tmp_path / "hostile.png"), full_page=True)


def test_escaping_alone_keeps_xss_inert(driver: Playwright, tmp_path: Path) -> None:
    # With the policy bypassed, only escaping stands between the payloads and the page.
    for context in _launch(driver, tmp_path, bypass_csp=True):
        _assert_inert(_open(context, tmp_path / "hostile.html", [HOSTILE]))


CORPUS = ROOT.parent / "shared" / "corpus" / "real"


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not here ({CORPUS}); it "
                    "sits beside the repository in the development workplace")
def test_whole_corpus_folds_servers_opens_on_demand_and_filters_all(chromium: BrowserContext,
                                                                    tmp_path: Path) -> None:
    # Real descriptions are full of markup-like text; none of it may break the page.
    report = run([str(CORPUS)], Selection(select=("ALL",)))
    opened = _open_report(chromium, tmp_path / "corpus.html", report)
    page = opened.page
    total = len(report.findings)
    assert page.text_content("#filter-status") == f"{total} of {total} findings shown"
    assert page.locator("article.tool").count() == sum(f.tools for f in report.linted)
    # Too many cards to lay out at once: every server starts folded, so none shows.
    assert _findings(page) == [] and _tools(page) == []
    # Opening a server shows its cards, and only its.
    first = report.linted[0].file
    mine = [f.code for f in report.findings if f.file == first]
    page.locator("section.server").first.locator(".server-body > summary").click()
    assert sorted(_findings(page)) == sorted(mine) and mine
    page.click("#close-all")
    assert _findings(page) == []
    # The filters work across every finding, folded or not.
    page.select_option("#filter-rule", "COST003")
    heavy = [f for f in report.findings if f.code == "COST003"]
    assert page.text_content("#filter-status") == f"{len(heavy)} of {total} findings shown"
    servers = page.locator("section.server")
    shown = [servers.nth(i).locator(".server-shown").text_content()
             for i in range(servers.count()) if servers.nth(i).is_visible()]
    assert len(shown) == len({f.file for f in heavy})
    assert sum(int((note or "").split()[1]) for note in shown) == len(heavy)
    assert _findings(page) == []
    page.click("#open-all")
    assert len(_findings(page)) == len(heavy) > 0
    assert len(_tools(page)) == len({(f.file, f.tool) for f in heavy})
    page.click("#close-all")
    page.select_option("#filter-rule", "")
    # A chart bar links into a folded server; following it opens the server at that tool.
    bar = page.locator(".bar-link").first
    target = (bar.get_attribute("href") or "").lstrip("#")
    assert not page.locator(f"[id='{target}']").is_visible()
    bar.click()
    assert page.locator(f"[id='{target}']").is_visible()
    assert page.evaluate("location.hash") == f"#{target}"
    # So does a link from outside the page, with its filters.
    page.goto(f"{opened.url}?rule=COST003#{target}")
    assert page.locator(f"[id='{target}']").is_visible()
    assert page.text_content("#filter-status") == f"{len(heavy)} of {total} findings shown"
    assert opened.console == [] and page.evaluate("window.__csp") == []
    assert {url.split("?")[0] for url in opened.requests} == {opened.url}


def test_suggestion_fix_and_source_render_and_stay_inert(chromium: BrowserContext,
                                                         tmp_path: Path) -> None:
    # Suggestions quote the tool's own text, so a hostile one must show as text and do nothing.
    payload = "<img src=x onerror=\"window.__pwned='suggestion'\">"
    finding = Finding("DESC001", "vague-description", Severity.INFO, "Restates its name.",
                      "tools.json", "/tools/0/description", 5, 7, "set_status",
                      suggestion=f"Write {payload} instead",
                      fix=Fix("<script>window.__pwned='fix'</script>", (), ()),
                      source=SourceLocation("<svg onload=alert(1)>.py", 8, 5, 8, 33))
    tool = ToolSummary("set_status", "Set it.", 20, "/tools/0", 3, ())
    report = Report((finding,), (), (FileSummary("tools.json", 1, 20, tool_details=(tool,)),),
                    "estimate")
    opened = _open_report(chromium, tmp_path / "suggestion.html", report)
    page = opened.page
    page.mouse.move(600, 300)
    page.mouse.wheel(0, 2000)
    suggestion = page.locator("li.finding .suggestion")
    assert suggestion.is_visible()
    assert suggestion.text_content() == f"Suggestion: Write {payload} instead"
    assert page.locator("li.finding .fix").text_content() == (
        "Safe fix: <script>window.__pwned='fix'</script> (mcplint check --fix)")
    assert page.locator("li.finding .where.source").text_content() == \
        "in the code <svg onload=alert(1)>.py:8:5"
    assert page.locator("li.finding .where.manifest").text_content() == \
        "manifest line 5:7 /tools/0/description"
    assert page.locator("li.finding .fixable").is_visible()
    assert page.evaluate("window.__pwned") is None
    assert opened.dialogs == [] and opened.console == []
    assert opened.requests == [opened.url]
    assert page.locator("img, script").count() == 1  # the report's own script only
    assert page.locator("[onload], [onerror]").count() == 0


def _toc(page: Page) -> list[list[str]]:
    rows: list[list[str]] = page.eval_on_selector_all(
        "tr.toc-row", "rows => rows.filter(r => r.checkVisibility()).map("
        "r => Array.from(r.cells, c => c.textContent))")
    return rows


def test_table_of_contents_links_open_servers_and_counts_follow_filters(
        chromium: BrowserContext, tmp_path: Path) -> None:
    report = run([str(EXAMPLE), str(HOSTILE)], CORE)
    page = _open_report(chromium, tmp_path / "two.html", report).page
    example, hostile = report.linted
    mine = [f for f in report.findings if f.file == example.file]
    errors = sum(1 for f in mine if f.severity is Severity.ERROR)
    warnings = sum(1 for f in mine if f.severity is Severity.WARNING)
    rows = _toc(page)
    assert [r[0] for r in rows] == [example.server or example.file, hostile.server or hostile.file]
    assert rows[0][1:] == [str(example.tools), str(errors), str(warnings), "0",
                           f"{example.tokens:,}", str(len(mine))]
    # A link in the table opens its server, folded or not, and lands on it.
    page.click("#close-all")
    assert _tools(page) == []
    page.locator("tr.toc-row a").nth(1).click()
    assert page.evaluate("location.hash") == "#s1"
    assert _tools(page) == ["<script>window.__pwned='name'</script>", "fetch_page"]
    assert page.evaluate("document.getElementById('s1').getBoundingClientRect().top") < 200
    # The shown column follows the filters; a server left with nothing drops out.
    page.select_option("#filter-rule", "SPEC007")
    spec007 = [f for f in report.findings if f.code == "SPEC007"]
    assert {f.file for f in spec007} == {example.file}
    assert [(r[0], r[-1]) for r in _toc(page)] == [(example.server or example.file,
                                                    str(len(spec007)))]
    page.select_option("#filter-rule", "")
    assert len(_toc(page)) == 2


def test_worst_first_orders_servers_tools_and_findings(chromium: BrowserContext,
                                                       tmp_path: Path) -> None:
    # Listed hostile first, so worst first (the example has more errors) changes the order.
    report = run([str(HOSTILE), str(EXAMPLE)], CORE)
    opened = _open_report(chromium, tmp_path / "two.html", report)
    page = opened.page
    every = _findings(page)
    as_listed = _tools(page)
    page.select_option("#sort-order", "worst")

    def tally(file: str) -> tuple[int, ...]:
        mine = [f.severity for f in report.findings if f.file == file]
        return tuple(mine.count(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))

    expected = sorted(report.linted, key=lambda s: tuple(-n for n in tally(s.file)))
    titles = [s.server or s.file for s in expected]
    assert titles != [s.server or s.file for s in report.linted]
    assert page.eval_on_selector_all("section.server h2", "hs => hs.map(h => h.textContent)") \
        == titles
    assert [r[0] for r in _toc(page)] == titles
    # In the example: tools with an error first (two findings each, so manifest order), then
    # those with a warning, then the clean one; within a tool, the error before the warning.
    example = page.locator("section.server", has=page.locator("h2", has_text="support-desk"))
    names = example.locator(".tool-name").all_text_contents()
    assert names == ["get_ticket", "closeTicket", "search_ticket", "tickets.export",
                     "search_tickets"]
    rules = example.locator("li.finding").evaluate_all("els => els.map(e => e.dataset.rule)")
    assert rules == ["SPEC007", "SPEC011", "SPEC004", "NAME002", "NAME001", "SPEC002"]
    assert page.evaluate("location.search") == "?order=worst"
    page.reload()
    assert example.locator(".tool-name").all_text_contents() == names
    assert [r[0] for r in _toc(page)] == titles
    # Back to manifest order, by the control and by the browser's back button alike.
    page.go_back()
    assert _tools(page) == as_listed and _findings(page) == every
    assert page.input_value("#sort-order") == ""
    page.go_forward()
    assert example.locator(".tool-name").all_text_contents() == names
    assert page.input_value("#sort-order") == "worst"
    assert opened.console == []


def test_filter_state_lives_in_the_url(chromium: BrowserContext, tmp_path: Path) -> None:
    opened = _open(chromium, tmp_path / "report.html", [EXAMPLE], CORE)
    page = opened.page
    every = ["NAME001", "SPEC007", "SPEC011", "SPEC004", "NAME002", "SPEC002"]
    assert page.evaluate("location.search") == ""
    page.uncheck(".filter-severity[value='warning']")
    page.fill("#filter-text", "tick")
    page.fill("#filter-text", "ticket id & more")
    assert page.text_content("#filter-status") == "0 of 6 findings shown"
    page.fill("#filter-text", "ticket_id")
    assert _findings(page) == ["SPEC007", "SPEC004"]
    search = page.evaluate("location.search")
    assert search == "?sev=error%2Cinfo&q=ticket_id"
    # A reload (or the link shared) restores the controls and what they show.
    page.reload()
    page.wait_for_load_state("load")
    assert page.evaluate("location.search") == search
    assert not page.is_checked(".filter-severity[value='warning']")
    assert page.is_checked(".filter-severity[value='error']")
    assert page.input_value("#filter-text") == "ticket_id"
    assert _findings(page) == ["SPEC007", "SPEC004"]
    page.select_option("#filter-rule", "SPEC004")
    assert _findings(page) == ["SPEC004"]
    assert "rule=SPEC004" in page.evaluate("location.search")
    # Back undoes one change at a time; typing counts as one change, not one per letter.
    page.go_back()
    assert page.input_value("#filter-rule") == "" and _findings(page) == ["SPEC007", "SPEC004"]
    page.go_back()
    assert page.input_value("#filter-text") == ""
    assert page.evaluate("location.search") == "?sev=error%2Cinfo"
    assert _findings(page) == ["SPEC007", "SPEC004"]
    page.go_back()
    assert page.evaluate("location.search") == "" and _findings(page) == every
    assert page.is_checked(".filter-severity[value='warning']")
    page.go_forward()
    assert _findings(page) == ["SPEC007", "SPEC004"]
    # A hand-made URL with a rule the report does not have shows everything, not nothing.
    page.goto(opened.url + "?rule=NOPE&sev=bogus,error")
    assert page.input_value("#filter-rule") == "" and _findings(page) == ["SPEC007", "SPEC004"]
    assert opened.console == [] and page.evaluate("window.__csp") == []


def _crowded_report() -> Report:
    """Tools whose labels, cut to fit, would read the same: long shared starts, one name twice."""
    long = "get_customer_subscription_invoice_line_items_for_"
    servers = {
        "acme-enterprise-customer-relationship-platform": [
            (long + "period", 1500, 5), (long + "account", 1400, 30), ("search", 300, 60),
            ("search", 290, 90)],
        "acme-enterprise-customer-relationship-platform-staging": [
            (long + "period", 1450, 5), ("x" * 70 + "a", 700, 30), ("x" * 70 + "b", 650, 50)],
    }
    files = []
    for number, (server, tools) in enumerate(servers.items()):
        details = tuple(ToolSummary(name, "Does a thing.", tokens, f"/tools/{i}", line, ())
                        for i, (name, tokens, line) in enumerate(tools))
        files.append(FileSummary(f"server{number}.json", len(tools),
                                 sum(t.tokens for t in details), server=server,
                                 tool_details=details))
    return Report((), (), tuple(files), "estimate")


def test_chart_labels_stay_readable_and_distinct_on_a_phone(chromium: BrowserContext,
                                                            tmp_path: Path) -> None:
    report = _crowded_report()
    page = _open_report(chromium, tmp_path / "crowded.html", report).page
    page.set_viewport_size({"width": 375, "height": 800})
    labels = page.eval_on_selector_all(".bar-link", """links => links.map(a => {
        const label = a.querySelector('.bar-label');
        const box = r => { const b = r.getBoundingClientRect();
                           return [b.left, b.top, b.right, b.bottom]; };
        return {text: label.textContent, aria: a.getAttribute('aria-label'),
                title: a.getAttribute('title'), size: parseFloat(getComputedStyle(label).fontSize),
                cut: label.scrollWidth > label.clientWidth, label: box(label),
                plot: box(a.querySelector('.bar-plot')), value: box(a.querySelector('.bar-value'))};
    })""")
    tools = [t for f in report.linted for t in f.tool_details]
    assert len(labels) == len(tools) == 7
    texts = [label["text"] for label in labels]
    # No two labels read the same, not even the tool listed twice; each is readable in size,
    # not clipped by the layout, and within the screen.
    assert len(set(texts)) == len(texts), texts
    assert any("…" in text for text in texts)
    for label in labels:
        # The size as drawn, not only as styled: a scaled-down drawing keeps its font-size.
        assert label["size"] >= 11 and label["label"][3] - label["label"][1] >= 11, label
        assert not label["cut"], label
        assert label["label"][0] >= 0 and label["label"][2] <= 375, label
        # A cut label carries the full one, for the tooltip and for screen readers, and what
        # it shows is pieces of the full one, in order.
        full = label["aria"].rsplit(": ", 1)[0]
        assert label["title"].startswith(full + " (")
        shown = label["text"].split(" (line ")[0].split(" #")[0]
        if "…" in shown:
            assert len(full) > len(shown)
            at = 0
            for piece in shown.split("…"):
                found = full.find(piece, at)
                assert found >= 0, (piece, full)
                at = found + len(piece)
        else:
            assert shown == full
    # Nothing overlaps: every label, bar and value has its own place.
    boxes = [b for label in labels for b in (label["label"], label["plot"], label["value"])]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            overlap = min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and \
                min(a[3], b[3]) - max(a[1], b[1]) > 0.5
            assert not overlap, (a, b)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_rule_docs_show_code_as_code_and_hostile_docs_stay_inert(chromium: BrowserContext,
                                                                 tmp_path: Path) -> None:
    from dataclasses import replace

    from mcplint.findings import RuleInfo

    report = run([str(EXAMPLE)], Selection(select=("PARAM002", "SPEC007")))
    page = _open_report(chromium, tmp_path / "docs.html", report).page
    docs = page.locator("#rule-PARAM002")
    codes = docs.locator(".doc code")
    assert codes.count() > 10 and codes.first.is_visible()
    assert "monospace" in codes.first.evaluate("c => getComputedStyle(c).fontFamily")
    assert docs.locator(".doc li").count() == 6
    # What a reader sees outside code has no Markdown backticks left in it.
    assert "`" not in docs.evaluate("""d => { const c = d.cloneNode(true);
        c.querySelectorAll('code').forEach(e => e.remove()); return c.innerText; }""")

    payload = "<img src=x onerror=\"window.__pwned='doc'\">`<img src=y onerror=alert(1)>`"
    hostile = RuleInfo("SPEC007", "required-property-missing", payload, Severity.ERROR, (),
                       payload + "\n\n```\n</code></pre><script>alert(2)</script>\n```",
                       "- " + payload, "not json `</pre><svg onload=alert(3)>`", "")
    opened = _open_report(chromium, tmp_path / "hostile-docs.html",
                          replace(report, rules={**report.rules, "SPEC007": hostile}))
    page = opened.page
    page.click("li.finding[data-rule='SPEC007'] a.rule-link")
    page.mouse.move(300, 300)
    assert page.locator("#rule-SPEC007 pre code").text_content() == \
        "</code></pre><script>alert(2)</script>"
    assert page.locator("#rule-SPEC007 img, #rule-SPEC007 script, #rule-SPEC007 svg").count() == 0
    assert page.evaluate("window.__pwned") is None and opened.dialogs == []
    assert opened.console == [] and page.evaluate("window.__csp") == []
