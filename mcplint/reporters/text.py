"""The terminal report: grouped by file and tool, coloured by severity when the terminal allows.

A gateway-size run has ten thousand findings, so lines are written as plain strings (with SGR
codes only when colouring) instead of going through a rich Console per finding; the plain
text is what rich printed, character for character, save that control, bidi and invisible
characters in third-party text are shown as escapes (mcplint.reporters.visible) instead of
reaching the terminal.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from itertools import groupby
from typing import TextIO

from mcplint.findings import Finding, Severity
from mcplint.reporters import (
    ReportOptions,
    live_files,
    manifest_place,
    printable,
    unfixable_files,
)
from mcplint.reporters.visible import reveal, reveal_line
from mcplint.run import Report

# SGR parameters of each style; a terminal with only 8 colours shows these as well as any.
STYLE = {Severity.ERROR: "1;31", Severity.WARNING: "33", Severity.INFO: "36"}
BOLD, DIM, HEADER, HELP = "1", "2", "1;4", "1;36"
FIXABLE = "[*]"
Segment = tuple[str, str]  # (text, SGR parameters; "" for unstyled)


def use_color(out: TextIO, color: bool | None) -> bool:
    """--color/--no-color win; otherwise the conventions rich (and most CLIs) follow:
    NO_COLOR, TTY_COMPATIBLE and FORCE_COLOR, then whether ``out`` is a real terminal."""
    if color is not None:
        return color
    environ = os.environ
    if environ.get("NO_COLOR", ""):
        return False
    compatible = environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    if environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return False
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # no isatty, or already closed
        return False


class _Writer:
    """Joins segments into lines, expanding tabs as a terminal would and styling on demand."""

    def __init__(self, color: bool) -> None:
        self.color = color
        self.lines: list[str] = []

    def line(self, *segments: Segment) -> None:
        if not self.color:  # the common case (CI, pipes, files): no styling to keep apart
            plain = "".join([text for text, _ in segments])
            self.lines.append(plain.expandtabs(8) if "\t" in plain else plain)
            return
        column = 0
        parts = []
        for text, style in segments:
            if "\t" in text:
                # Tab stops count from the start of the line, not of the segment.
                text = (" " * column + text).expandtabs(8)[column:]
            newline = text.rfind("\n")
            column = len(text) - newline - 1 if newline >= 0 else column + len(text)
            parts.append(f"\x1b[{style}m{text}\x1b[0m" if style and self.color and text
                         else text)
        self.lines.append("".join(parts))

    def flush(self, out: TextIO) -> None:
        if self.lines:
            out.write(printable("\n".join(self.lines) + "\n"))
            self.lines.clear()


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def fixable(findings: Iterable[Finding], unfixable: frozenset[str]) -> int:
    return sum(1 for f in findings if f.fix is not None and f.file not in unfixable)


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


def _finding(writer: _Writer, finding: Finding, live: bool, can_fix: bool) -> None:
    source = finding.source
    # The author edits the server's code, so its place comes first; the manifest's is kept
    # below as the finding's identity.
    where = (f"{source.file}:{source.line}:{source.column}" if source
             else f"{finding.file}:{finding.line}:{finding.column}")
    code = f"{finding.code} {FIXABLE}" if can_fix and finding.fix is not None else finding.code
    writer.line((f"    {reveal_line(where)}  ", ""),
                (f"{finding.severity.label:<7}", STYLE[finding.severity]),
                ("  ", ""), (reveal_line(code), BOLD), (" ", ""), (reveal_line(finding.name), DIM))
    writer.line((f"      {reveal(finding.message)}", ""))
    if finding.suggestion:
        writer.line(("      ", ""), ("help", HELP), (f": {reveal(finding.suggestion)}", ""))
    if source:
        place = manifest_place(finding.file, finding.line, finding.column, finding.pointer, live)
        writer.line(("      ", ""), (f"manifest: {reveal_line(place)}", DIM))


def _statistics(report: Report, writer: _Writer) -> None:
    counts = Counter((f.code, f.name, f.severity) for f in report.findings)
    for (code, name, severity), count in sorted(counts.items(), key=lambda i: (-i[1], i[0])):
        writer.line((f"{count:>5}  ", ""), (f"{reveal_line(code):<8}", BOLD), (" ", ""),
                    (f"{severity.label:<7}", STYLE[severity]), (f"  {reveal_line(name)}", ""))


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    writer = _Writer(use_color(out, options.color))
    for error in report.errors:
        writer.line(("error", STYLE[Severity.ERROR]), (f": {reveal_line(str(error))}", ""))
    if options.statistics:
        _statistics(report, writer)
    else:
        tokens = {f.file: f for f in report.files}
        live_servers = live_files(report)
        unfixable = unfixable_files(report)
        for file, in_file in groupby(report.findings, key=lambda f: f.file):
            group = list(in_file)
            summary = tokens.get(file)
            if not options.quiet:
                detail = (f" ({_plural(summary.tools, 'tool')}, ~{summary.tokens:,} tokens)"
                          if summary and summary.tokens is not None else "")
                writer.line((reveal_line(file), HEADER), (detail, ""))
            # Tools in the order they appear in the file; server-wide findings first.
            by_tool: dict[str | None, list[Finding]] = {None: []}
            for finding in group:
                by_tool.setdefault(finding.tool, []).append(finding)
            for tool, of_tool in by_tool.items():
                if not of_tool:
                    continue
                writer.line(("  ", ""), (reveal_line(tool) if tool else "(server)", BOLD))
                for finding in of_tool:
                    _finding(writer, finding, file in live_servers, file not in unfixable)
                # A tool at a time: a 10,000-tool gateway is one file, and holding all its
                # lines cost 150 MB.
                writer.flush(out)
            if not options.quiet:
                writer.line()
            writer.flush(out)
    if not options.quiet:
        writer.line((_summary(report), ""))
        count = fixable(report.findings, unfixable_files(report))
        if count:
            writer.line((f"{FIXABLE} {count} fixable with `mcplint check --fix`.", ""))
        if report.token_method:
            writer.line((f"Tokens: {reveal(report.token_method)}.", DIM))
    writer.flush(out)
