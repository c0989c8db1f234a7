"""The terminal report: grouped by file and tool, coloured by severity when the terminal allows."""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape

from mcplint.findings import Finding, Severity
from mcplint.reporters import ReportOptions, printable
from mcplint.run import Report

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


class _Printable(Console):
    def print(self, *objects: Any, **kwargs: Any) -> None:
        super().print(*(printable(o) if isinstance(o, str) else o for o in objects), **kwargs)


def console_for(out: TextIO, color: bool | None) -> Console:
    # soft_wrap: long messages stay on one line in CI logs; terminals wrap them themselves.
    return _Printable(file=out, force_terminal=color, no_color=color is False, soft_wrap=True,
                   highlight=False, emoji=False)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _summary(report: Report) -> str:
    counts = [
        _plural(report.count(Severity.ERROR), "error"),
        _plural(report.count(Severity.WARNING), "warning"),
        f"{report.count(Severity.INFO)} info",
    ]
    linted = report.linted
    tools = sum(f.tools for f in linted)
    line = (f"Found {_plural(len(report.findings), 'problem')} ({', '.join(counts)}) in "
            f"{_plural(len(linted), 'file')} ({_plural(tools, 'tool')}).")
    skipped = len(report.files) - len(linted)
    if skipped:
        line += f" Skipped {_plural(skipped, 'JSON file')} that are not tool manifests."
    if report.errors:
        line += f" {_plural(len(report.errors), 'input error')}: see above."
    return line


def _finding_line(finding: Finding) -> str:
    style = STYLE[finding.severity]
    return (f"    {escape(finding.file)}:{finding.line}:{finding.column}  "
            f"[{style}]{finding.severity.label:<7}[/]  [bold]{finding.code}[/] "
            f"[dim]{finding.name}[/]\n      {escape(finding.message)}")


def _statistics(report: Report, console: Console) -> None:
    counts = Counter((f.code, f.name, f.severity) for f in report.findings)
    for (code, name, severity), count in sorted(counts.items(), key=lambda i: (-i[1], i[0])):
        console.print(f"{count:>5}  [bold]{code:<8}[/] [{STYLE[severity]}]{severity.label:<7}[/]"
                      f"  {name}")


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    console = console_for(out, options.color)
    for error in report.errors:
        console.print(f"[bold red]error[/]: {escape(str(error))}")
    if options.statistics:
        _statistics(report, console)
    else:
        tokens = {f.file: f for f in report.files}
        for file, in_file in groupby(report.findings, key=lambda f: f.file):
            group = list(in_file)
            summary = tokens.get(file)
            if not options.quiet:
                detail = (f" ({_plural(summary.tools, 'tool')}, ~{summary.tokens:,} tokens)"
                          if summary and summary.tokens is not None else "")
                console.print(f"[bold underline]{escape(file)}[/]{detail}")
            # Tools in the order they appear in the file; server-wide findings first.
            by_tool: dict[str | None, list[Finding]] = {None: []}
            for finding in group:
                by_tool.setdefault(finding.tool, []).append(finding)
            for tool, of_tool in by_tool.items():
                if not of_tool:
                    continue
                console.print(f"  [bold]{escape(tool)}[/]" if tool else "  [bold](server)[/]")
                for finding in of_tool:
                    console.print(_finding_line(finding))
            if not options.quiet:
                console.print()
    if not options.quiet:
        console.print(_summary(report))
        if report.token_method:
            console.print(f"[dim]Tokens: {escape(report.token_method)}.[/]")
