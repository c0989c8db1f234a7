"""The HTML report for reviewers: one self-contained file, safe to open whatever the tools say.

Tool names and descriptions come from third parties, so everything they contain is data:
Jinja2 escapes it, no finding or tool text is ever placed in a URL, a script or a style, and a
Content-Security-Policy lets only the report's own stylesheet and script run (by hash, so a
payload that slipped past escaping still could not execute).  Every value the templates print
has its invisible and bidi characters written as escapes first (mcplint.reporters.visible), in
text and attributes alike, and elements holding tool text are bidi-isolated by the stylesheet.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import resources
from typing import Any, TextIO

from mcplint import __version__
from mcplint.findings import Finding, ParameterSummary, RuleInfo, Severity
from mcplint.links import documented, rule_url
from mcplint.reporters import ReportOptions, unfixable_files
from mcplint.reporters.visible import reveal
from mcplint.run import FileSummary, Report

# The report does not carry rule options yet, so the budgets drawn are the defaults of COST002
# (all tools of a server) and COST003 (one tool); the findings themselves use the configured ones.
MANIFEST_BUDGET = 10_000
TOOL_BUDGET = 1_000
# A chart of a thousand bars says less than its top; the rest are counted under it.
CHART_BARS = 40
CHART_LABEL_CHARS = 38
CHART_SERVER_CHARS = 14  # a server's share of a label that had to be told apart from another
# A report with more finding cards than this starts with every server folded: the browser lays
# out only the servers a reader opens (the corpus of 65 servers has about 4,000 cards, and laying
# them all out took seconds). Smaller reports open fully, as they always did.
OPEN_FINDINGS = 300

SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)


@dataclass
class ToolView:
    anchor: str
    name: str
    description: str | None
    tokens: int
    line: int
    pointer: str
    parameters: tuple[ParameterSummary, ...]
    findings: list[Finding] = field(default_factory=list)

    @property
    def worst(self) -> str:
        if not self.findings:
            return "none"
        return max(f.severity for f in self.findings).label


@dataclass
class ServerView:
    anchor: str
    title: str
    file: str
    tokens: int
    tools: list[ToolView]
    findings: list[Finding] = field(default_factory=list)  # about the server, not one tool
    counted: bool = True  # False for the section of findings outside any linted manifest

    @property
    def finding_count(self) -> int:
        return len(self.findings) + sum(len(t.findings) for t in self.tools)

    @property
    def over_budget(self) -> bool:
        return self.tokens > MANIFEST_BUDGET

    @property
    def counts(self) -> dict[str, int]:
        """Findings by severity label, the server's own and its tools'."""
        every = [*self.findings, *(f for tool in self.tools for f in tool.findings)]
        return {s.label: sum(1 for f in every if f.severity is s) for s in SEVERITIES}


@dataclass(frozen=True)
class Bar:
    label: str  # as shown: cut to CHART_LABEL_CHARS, and never the same as another bar's
    full: str  # uncut, for the tooltip and for screen readers
    where: str  # file and line, which tells apart even tools of the same name
    tokens: int
    anchor: str
    width: float  # in the plot's units, PLOT_UNITS wide
    over: bool


@dataclass(frozen=True)
class Chart:
    bars: tuple[Bar, ...]
    hidden: int  # tools not drawn because they are cheaper than the last bar
    scale_max: int  # the tokens a full-width bar stands for
    budget_x: float


# Each bar is drawn in a small SVG stretched to the width its row has, so the labels are HTML
# text that keeps its size and wraps on a phone instead of shrinking with a drawing.
PLOT_UNITS = 1000


def _owner(finding: Finding, tools: Sequence[ToolView]) -> ToolView | None:
    """The tool a finding is about, by pointer (names can be duplicated), else by name."""
    for tool in tools:
        if finding.pointer == tool.pointer or finding.pointer.startswith(tool.pointer + "/"):
            return tool
    if finding.tool is not None:
        for tool in tools:
            if tool.name == finding.tool:
                return tool
    return None


def _server(index: int, summary: FileSummary, findings: Sequence[Finding]) -> ServerView:
    tools = []
    for number, detail in enumerate(summary.tool_details):
        tools.append(ToolView(
            anchor=f"s{index}-t{number}", name=detail.name, description=detail.description,
            tokens=detail.tokens, line=detail.line, pointer=detail.pointer,
            parameters=detail.parameters,
        ))
    server = ServerView(anchor=f"s{index}", title=summary.server or summary.file,
                        file=summary.file, tokens=summary.tokens or 0, tools=tools)
    for finding in findings:
        owner = _owner(finding, tools)
        (owner.findings if owner else server.findings).append(finding)
    return server


def _servers(report: Report) -> list[ServerView]:
    by_file: dict[str, list[Finding]] = {}
    for finding in report.findings:
        by_file.setdefault(finding.file, []).append(finding)
    servers = [_server(i, summary, by_file.pop(summary.file, []))
               for i, summary in enumerate(report.linted)]
    # Findings about a file that is not one linted manifest (a client config naming several
    # servers, say) still belong in the report, in a section of their own.
    rest = [finding for findings in by_file.values() for finding in findings]
    if rest:
        servers.append(ServerView(anchor=f"s{len(servers)}", title="Other findings",
                                  file=", ".join(by_file), tokens=0, tools=[], findings=rest,
                                  counted=False))
    return servers


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _label(tool: str, server: str | None) -> str:
    """A bar label; the tool name is what tells bars apart, so the server gives way first."""
    name = _shorten(tool, CHART_LABEL_CHARS)
    room = CHART_LABEL_CHARS - len(name) - 3
    if server is None or room < 4:
        return name
    return f"{_shorten(server, room)} / {name}"


def _keep_ends(text: str, limit: int) -> str:
    """Cut from the middle: names that share a long start usually differ at the end."""
    if len(text) <= limit:
        return text
    head = limit // 3
    return text[:head] + "…" + text[len(text) - (limit - head - 1):]


def _both_ends(server: str | None, tool: str, limit: int) -> str:
    """The label with server and tool each cut from the middle, so the ends of both show."""
    if server is None:
        return _keep_ends(tool, limit)
    room = max(limit - len(_keep_ends(server, CHART_SERVER_CHARS)) - 3, 8)
    tool_part = _keep_ends(tool, room)
    return f"{_keep_ends(server, limit - len(tool_part) - 3)} / {tool_part}"


def _distinct(labels: list[str], parts: Sequence[tuple[str | None, str, int]]) -> list[str]:
    """Labels that read the same get told apart: first by keeping the ends of the server's and
    the tool's names, then by the tool's line, last by a number, so no two bars read alike."""
    def suffixed(index: int, suffix: str) -> str:
        server, tool, _ = parts[index]
        return _both_ends(server, tool, CHART_LABEL_CHARS - len(suffix)) + suffix

    steps: tuple[Callable[[int, int], str], ...] = (
        lambda i, k: _both_ends(parts[i][0], parts[i][1], CHART_LABEL_CHARS),
        lambda i, k: suffixed(i, f" (line {parts[i][2]})"),
        lambda i, k: suffixed(i, f" #{k}"),
    )
    labels = list(labels)
    for step in steps:
        groups: dict[str, list[int]] = {}
        for index, label in enumerate(labels):
            groups.setdefault(label, []).append(index)
        clashes = [group for group in groups.values() if len(group) > 1]
        if not clashes:
            break
        for group in clashes:
            for number, index in enumerate(group, start=1):
                labels[index] = step(index, number)
    return labels


def _nice_step(span: int) -> int:
    """A round tick step giving four to ten ticks over the span."""
    step = 1
    while span / step > 10:
        for factor in (2, 5, 10):
            if span / (step * factor) <= 10:
                return step * factor
        step *= 10
    return step


def _chart(servers: Sequence[ServerView]) -> Chart:
    several = sum(1 for server in servers if server.counted) > 1
    tools = sorted(((tool, server) for server in servers for tool in server.tools),
                   key=lambda pair: -pair[0].tokens)
    drawn = tools[:CHART_BARS]
    top = max([TOOL_BUDGET, *(tool.tokens for tool, _ in drawn)])
    step = _nice_step(top)
    scale_max = -(-top // step) * step
    per_token = PLOT_UNITS / scale_max
    fulls = [f"{server.title} / {tool.name}" if several else tool.name for tool, server in drawn]
    parts = [(server.title if several else None, tool.name, tool.line) for tool, server in drawn]
    labels = _distinct([_label(tool, server) for server, tool, _ in parts], parts)
    bars = tuple(
        Bar(label=label, full=full, where=f"{server.file}:{tool.line}", tokens=tool.tokens,
            anchor=tool.anchor, width=max(tool.tokens * per_token, 2.0),
            over=tool.tokens > TOOL_BUDGET)
        for label, full, (tool, server) in zip(labels, fulls, drawn, strict=True)
    )
    return Chart(bars=bars, hidden=len(tools) - len(drawn), scale_max=scale_max,
                 budget_x=TOOL_BUDGET * per_token)


def _csp_hash(code: str) -> str:
    digest = hashlib.sha256(code.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def _generated() -> datetime:
    # SOURCE_DATE_EPOCH makes a report reproducible byte for byte, as for other build outputs.
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        try:
            return datetime.fromtimestamp(int(epoch), tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            pass  # out of range: an unusable pin, not a reason to fail the report
    return datetime.now(tz=timezone.utc)


def _asset(name: str) -> str:
    return (resources.files("mcplint.reporters") / "templates" / name).read_text(encoding="utf-8")


def _rule_docs(report: Report, findings: Sequence[Finding]) -> list[RuleInfo]:
    """The docs of every rule that fired, even one a pack added without reporting it as run."""
    rules = dict(report.rules)
    for finding in findings:
        if finding.code not in rules:
            rules[finding.code] = RuleInfo(finding.code, finding.name, "", finding.severity,
                                           (), "", "", "", "")
    fired = {f.code for f in findings}
    return [rules[code] for code in sorted(rules) if code in fired]


def _is_json(example: str) -> bool:
    try:
        json.loads(example)
    except ValueError:
        return False
    return True


def _pretty_json(example: str) -> str:
    try:
        return json.dumps(json.loads(example), indent=2, ensure_ascii=False)
    except ValueError:
        return example


def _finalize(value: Any) -> Any:
    """What a template prints, revealed; the package's own css and script (marked safe) and
    numbers go as they are."""
    if hasattr(value, "__html__") or isinstance(value, (bool, int, float)):
        return value
    return reveal(str(value))


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    # Imported here so the other formats and `mcplint --help` never pay for Jinja2.
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(loader=PackageLoader("mcplint.reporters", "templates"),
                      autoescape=True, undefined=StrictUndefined, trim_blocks=True,
                      lstrip_blocks=True, keep_trailing_newline=True, finalize=_finalize)
    from mcplint.reporters import doctext

    env.filters["pretty_json"] = _pretty_json
    # Rule docs only: their Markdown becomes markup, every character of it escaped first.
    env.filters["doc_inline"] = doctext.inline
    env.filters["doc_blocks"] = doctext.blocks
    env.tests["json"] = _is_json
    # The rule pages (mcplint.links): a link is navigation, never a fetch, so the report
    # stays self-contained; a rule of the user's own pack has no page and gets no link.
    env.tests["documented"] = documented
    env.globals["rule_url"] = rule_url
    css, script = _asset("report.css"), _asset("report.js")
    servers = _servers(report)
    total_tokens = sum(s.tokens for s in servers)
    counts = {s.label: report.count(s) for s in SEVERITIES}
    csp = "; ".join([
        "default-src 'none'",
        f"style-src {_csp_hash(css)}",
        f"script-src {_csp_hash(script)}",
        "base-uri 'none'",
        "form-action 'none'",
    ])
    page = env.get_template("report.html.j2").render(
        version=__version__,
        generated=_generated().strftime("%Y-%m-%d %H:%M UTC"),
        files=[f.file for f in report.files],
        skipped=[f for f in report.files if f.skipped is not None],
        servers=servers,
        # One server is opened whatever its size: folding it would only add a click.
        open_servers=len(report.findings) <= OPEN_FINDINGS or len(servers) == 1,
        tool_count=sum(len(s.tools) for s in servers),
        finding_count=len(report.findings),
        counts=counts,
        severities=[s.label for s in SEVERITIES],
        total_tokens=total_tokens,
        manifest_budget=MANIFEST_BUDGET,
        server_count=len(report.linted),
        budget_total=MANIFEST_BUDGET * max(len(report.linted), 1),
        servers_over=sum(1 for s in servers if s.over_budget),
        tool_budget=TOOL_BUDGET,
        tools_over=sum(1 for s in servers for t in s.tools if t.tokens > TOOL_BUDGET),
        token_method=report.token_method or "not counted",
        chart=_chart(servers),
        plot_units=PLOT_UNITS,
        rules=_rule_docs(report, report.findings),
        input_errors=list(report.errors),
        unfixable=unfixable_files(report),
        css=css,
        script=script,
        csp=csp,
    )
    out.write(page)
