"""Markdown for a pull-request comment or a CI step summary.

Tool names, descriptions and messages quote third-party text, so everything that is not ours
is escaped: no HTML, no links or images (bare URLs included), no table cells of its own, no
@mentions that would notify people, and no characters that draw nothing or reorder the text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from mcplint import regex_cache as rx
from mcplint.findings import Finding, Severity
from mcplint.links import documented, rule_url
from mcplint.reporters import ReportOptions, printable, unfixable_files
from mcplint.reporters.visible import reveal
from mcplint.run import Report

ICON = {Severity.ERROR: "🔴", Severity.WARNING: "🟡", Severity.INFO: "🔵"}
ORDER = (Severity.ERROR, Severity.WARNING, Severity.INFO)
# Past this many findings each tool folds into a <details> block, so the comment stays short.
COLLAPSE_ABOVE = 15
# GitHub rejects comments over 65,536 characters; stop listing well before that.
MAX_CHARS = 60_000

_MARKDOWN_SPECIAL = rx.compile(r"([\\`*_\[\]|~#<>$])")
# GitHub links bare URLs and www. names by itself; an escaped ":" or "." stops it.
_AUTOLINK = rx.compile(r"(?<=[A-Za-z0-9])(:)(?=//)|(?<![A-Za-z0-9.])(www)(\.)", re.I)


def _no_mentions(value: str) -> str:
    # A zero-width space after "@" is mcplint's own: it stops @mentions and e-mail links.
    return value.replace("@", "@\u200b")


def text(value: str) -> str:
    """Inline text that renders as itself: no markup, no HTML, no links, no mentions, and
    invisible characters revealed (mcplint.reporters.visible)."""
    flat = " ".join(reveal(value).split())
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", flat.replace("&", "&amp;"))
    return _no_mentions(_AUTOLINK.sub(lambda m: f"\\{m[1]}" if m[1] else f"{m[2]}\\.",
                                      escaped))


def code(value: str, cell: bool = False) -> str:
    """A code span; HTML, links and mentions are inert inside one.  In a table ``cell`` a
    "|" still ends the cell, so it is escaped (GitHub drops the backslash there)."""
    flat = " ".join(reveal(value).split()) or " "
    if cell:
        flat = flat.replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def html_code(value: str) -> str:
    """Inside raw HTML (a <summary>), Markdown is not parsed; escape as HTML instead.  A blank
    line would end the HTML block and let Markdown in, so whitespace is flattened."""
    flat = " ".join(reveal(value).split())
    return f"<code>{html.escape(flat)}</code>".replace("@", "&#64;\u200b")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _counts(findings: Sequence[Finding]) -> str:
    parts = [f"{sum(1 for f in findings if f.severity is s)} {s.label}" for s in ORDER]
    return " · ".join(parts)


def headline(report: Report) -> str:
    linted = report.linted
    tools = sum(f.tools for f in linted)
    tokens = sum(f.tokens or 0 for f in linted)
    line = (f"**{_plural(len(report.findings), 'finding')}** ({_counts(report.findings)}) in "
            f"{_plural(len(linted), 'file')}, {_plural(tools, 'tool')}")
    if any(f.tokens is not None for f in linted):
        line += f", ~{tokens:,} tokens of tool definitions"
    if report.errors:
        line += f"; **{_plural(len(report.errors), 'input error')}**"
    return line + "."


def summary_table(report: Report) -> str:
    rows = ["| file | tools | tokens | error | warning | info |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for summary in report.linted:
        of_file = [f for f in report.findings if f.file == summary.file]
        counts = " | ".join(str(sum(1 for f in of_file if f.severity is s)) for s in ORDER)
        tokens = f"{summary.tokens:,}" if summary.tokens is not None else "–"
        name = code(summary.file, cell=True) + (f" ({text(summary.server)})" if summary.server
                                                else "")
        rows.append(f"| {name} | {summary.tools} | {tokens} | {counts} |")
    return "\n".join(rows)


@dataclass(frozen=True)
class ToolScore:
    file: str
    tool: str
    findings: tuple[Finding, ...]
    tokens: int | None

    @property
    def rank(self) -> tuple[int, int, int, int]:
        counts = [sum(1 for f in self.findings if f.severity is s) for s in ORDER]
        return (counts[0], counts[1], counts[2], self.tokens or 0)


def worst_tools(report: Report, limit: int = 10) -> list[ToolScore]:
    tokens = {(s.file, t.name): t.tokens for s in report.linted for t in s.tool_details
              if s.tokens is not None}
    grouped: dict[tuple[str, str], list[Finding]] = {}
    for finding in report.findings:
        if finding.tool is not None:
            grouped.setdefault((finding.file, finding.tool), []).append(finding)
    scores = [ToolScore(file, tool, tuple(found), tokens.get((file, tool)))
              for (file, tool), found in grouped.items()]
    return sorted(scores, key=lambda s: s.rank, reverse=True)[:limit]


def worst_tools_table(report: Report, limit: int = 10) -> str:
    scores = worst_tools(report, limit)
    if not scores:
        return ""
    rows = ["| tool | file | error | warning | info | tokens |",
            "| --- | --- | ---: | ---: | ---: | ---: |"]
    for score in scores:
        counts = " | ".join(str(n) for n in score.rank[:3])
        tokens = f"{score.tokens:,}" if score.tokens is not None else "–"
        rows.append(f"| {code(score.tool, cell=True)} | {code(score.file, cell=True)} | "
                    f"{counts} | {tokens} |")
    return "\n".join(rows)


def heaviest_tools_table(report: Report, limit: int = 5) -> str:
    tools = sorted(((t.tokens, s.file, t.name) for s in report.linted for t in s.tool_details
                    if s.tokens is not None), reverse=True)[:limit]
    if not tools:
        return ""
    rows = ["| tool | file | tokens |", "| --- | --- | ---: |"]
    rows += [f"| {code(name, cell=True)} | {code(file, cell=True)} | {tokens:,} |"
             for tokens, file, name in tools]
    return "\n".join(rows)


def _where(finding: Finding) -> str:
    source = finding.source
    if source is None:
        return f"line {finding.line}"
    # The server's code first (that is what the author edits), the manifest line second.
    return f"{code(f'{source.file}:{source.line}:{source.column}')} (manifest line {finding.line})"


def rule_link(rule_code: str) -> str:
    """The rule's code, linked to its page when it has one (a built-in rule or diff change;
    a rule of the user's own pack has none).  The code is ours, never third-party text, and
    the URL is built from mcplint.links alone."""
    shown = code(rule_code)
    return f"[{shown}]({rule_url(rule_code)})" if documented(rule_code) else shown


def _finding_item(finding: Finding, can_fix: bool = True) -> str:
    first, _, rest = reveal(finding.message).partition("\n")
    item = (f"- {ICON[finding.severity]} **{finding.severity.label}** {rule_link(finding.code)} "
            f"{text(finding.name)}, {_where(finding)}: {text(first)}")
    if rest.strip():
        # Multi-line messages (a description diff) keep their lines in a fenced block.
        longest = max((len(run) for run in re.findall(r"`+", rest)), default=0)
        fence = "`" * max(3, longest + 1)
        body = "\n".join(f"  {line}" for line in rest.strip("\n").splitlines())
        item += f"\n\n  {fence}diff\n{body}\n  {fence}\n"
    if finding.suggestion:
        item += f"\n  - **Suggestion:** {text(finding.suggestion)}"
    if finding.fix and can_fix:
        item += (f"\n  - **Safe fix:** {text(finding.fix.description)} "
                 f"({code('mcplint check --fix')})")
    return item.rstrip("\n")


def _by_tool(findings: Sequence[Finding]) -> dict[str | None, list[Finding]]:
    grouped: dict[str | None, list[Finding]] = {None: []}
    for finding in findings:
        grouped.setdefault(finding.tool, []).append(finding)
    return {tool: found for tool, found in grouped.items() if found}


def findings_section(report: Report, max_chars: int = MAX_CHARS) -> str:
    collapse = len(report.findings) > COLLAPSE_ABOVE
    unfixable = unfixable_files(report)
    parts: list[str] = []
    size = 0
    shown = 0
    files: dict[str, list[Finding]] = {}
    for finding in report.findings:
        files.setdefault(finding.file, []).append(finding)
    full = False
    for file, in_file in files.items():
        header = f"### {code(file)}"
        blocks = []
        for tool, found in _by_tool(in_file).items():
            items = "\n".join(_finding_item(f, file not in unfixable) for f in found)
            label = tool if tool is not None else "(server)"
            if collapse:
                block = (f"<details><summary>{html_code(label)}: {_counts(found)}</summary>"
                         f"\n\n{items}\n\n</details>")
            else:
                block = f"**{code(label)}**\n\n{items}"
            if size + len(header) + len(block) + 4 > max_chars:
                full = True
                break
            blocks.append(block)
            size += len(block) + 2
            shown += len(found)
        if blocks:
            parts += [header, *blocks]
            size += len(header) + 2
        if full:
            break
    if shown < len(report.findings):
        parts.append(f"_…and {len(report.findings) - shown} more findings, left out to keep "
                     "this short; the text, JSON or SARIF report has all of them._")
    return "\n\n".join(parts)


def input_errors_section(report: Report) -> str:
    if not report.errors:
        return ""
    lines = [f"- {code(e.file)}" + (f" line {e.line}" if e.line else "") + f": {text(e.message)}"
             for e in report.errors]
    return "### Input errors\n\n" + "\n".join(lines)


def verdict(report: Report, options: ReportOptions) -> str:
    """Whether the run failed, and on what, as the exit code says it; empty when the report
    was not written by a run (no exit code to agree with)."""
    if options.exit_code is None:
        return ""
    label = options.fail_on_label
    flag = code(label if label.startswith("--") else f"--fail-on {label}")
    failing = options.failing(report)
    parts = []
    if failing:
        parts.append(f"{_plural(failing, 'finding')} at or above {flag}")
    if report.errors:
        parts.append(_plural(len(report.errors), "input error"))
    if options.exit_code != 0:
        why = " and ".join(parts) or "see the log"
        return f"**Failed** (exit code {options.exit_code}): {why}."
    if options.fail_on is None:
        return f"**Passed**: nothing fails this run ({flag})."
    return f"**Passed**: no finding at or above {flag}."


def document(report: Report, title: str = "mcplint",
             options: ReportOptions | None = None) -> str:
    head = [f"## {title}", headline(report), verdict(report, options or ReportOptions())]
    if report.linted:
        head.append(summary_table(report))
    head.append(input_errors_section(report))
    tail = f"<sub>Tokens: {html.escape(report.token_method)}.</sub>" if report.token_method \
        else ""
    used = sum(len(part) + 2 for part in [*head, tail])
    body = findings_section(report, MAX_CHARS - used) if report.findings else "No findings."
    return "\n\n".join(s for s in [*head, body, tail] if s) + "\n"


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    out.write(printable(document(report, options=options)))
