"""The terminal reports: concise (one line a finding, the default) and full (grouped by file
and tool, with the help lines), coloured by severity when the terminal allows.

A gateway-size run has ten thousand findings, so lines are written as plain strings (with SGR
codes only when colouring) instead of going through a rich Console per finding; the plain
text is what rich printed, character for character, save that control, bidi and invisible
characters in third-party text are shown as escapes (mcplint.reporters.visible) instead of
reaching the terminal, and that a line starting like a CI workflow command (``##[group]``,
``::error::``) has its first character escaped, so a tool description cannot drive the log of
the CI job that lints it.
"""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from collections import Counter
from collections.abc import Iterable
from itertools import groupby
from typing import TextIO

from mcplint import regex_cache as rx
from mcplint.findings import Finding, Severity
from mcplint.reporters import (
    ReportOptions,
    live_files,
    manifest_place,
    printable,
    rule_counts,
    unfixable_files,
)
from mcplint.reporters.short import short_message
from mcplint.reporters.visible import escape, reveal, reveal_line
from mcplint.run import Report

# SGR parameters of each style; a terminal with only 8 colours shows these as well as any.
STYLE = {Severity.ERROR: "1;31", Severity.WARNING: "33", Severity.INFO: "36"}
BOLD, DIM, HEADER, HELP = "1", "2", "1;4", "1;36"
FIXABLE = "[*]"
Segment = tuple[str, str]  # (text, SGR parameters; "" for unstyled)
# The start of a line a CI runner reads as a command: GitHub Actions' ``::name::`` and
# ``##[name]``, Azure Pipelines' ``##vso[``; blanks and a colour code may come first.
_COMMAND = rx.compile(r"^((?:\x1b\[[0-9;]*m)?[ \t]*)(##(?:vso)?\[|::)", re.MULTILINE)


def _defuse(match: re.Match[str]) -> str:
    command = match.group(2)
    return match.group(1) + escape(command[0]) + command[1:]


def defuse(text: str) -> str:
    """``text`` with each line that would start a CI workflow command escaped, as
    ``\\x23#[group]`` and ``\\x3a:error::``: still readable, no longer a command."""
    return _COMMAND.sub(_defuse, text) if ("##" in text or "::" in text) else text


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
            out.write(defuse(printable("\n".join(self.lines) + "\n")))
            self.lines.clear()


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def fixable(findings: Iterable[Finding], unfixable: frozenset[str]) -> int:
    return sum(1 for f in findings if f.fix is not None and f.file not in unfixable)


def _summary(report: Report, hidden: int = 0) -> str:
    counts = [
        _plural(report.count(Severity.ERROR), "error"),
        _plural(report.count(Severity.WARNING), "warning"),
        f"{report.count(Severity.INFO)} info",
    ]
    linted = report.linted
    tools = sum(f.tools for f in linted)
    line = (f"Found {_plural(len(report.findings), 'problem')} ({', '.join(counts)}) in "
            f"{_plural(len(linted), 'file')} ({_plural(tools, 'tool')}).")
    if hidden:
        line += f" {hidden} more below --min-severity not shown."
    skipped = len(report.files) - len(linted)
    if skipped:
        line += (f" Skipped {_plural(skipped, 'JSON file')} that "
                 f"{'is not a tool manifest' if skipped == 1 else 'are not tool manifests'}.")
    if report.errors:
        line += f" {_plural(len(report.errors), 'input error')}: see above."
    return line


def width(out: TextIO, options: ReportOptions) -> int | None:
    """The width to wrap the full report at: ``options.width`` if set (0: do not wrap), else
    COLUMNS or the terminal's when writing to one; a pipe or a file gets whole lines."""
    if options.width is not None:
        return options.width or None
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"]) or None
    try:
        terminal = out.isatty()
    except (AttributeError, ValueError):
        terminal = False
    return shutil.get_terminal_size().columns if terminal else None


def _wrapped(text: str, indent: int, columns: int | None) -> list[str]:
    """``text`` (which may hold newlines) as lines of at most ``columns`` characters after the
    first line's ``indent`` spaces, continued at that indent; words are never split, so a word
    longer than the width stays whole on its own line."""
    if columns is None:
        return text.split("\n")
    room = max(columns - indent, 20)
    lines = []
    for part in text.split("\n"):
        lines.extend(textwrap.wrap(part, room, break_long_words=False, break_on_hyphens=False,
                                   replace_whitespace=False, drop_whitespace=True) or [""])
    return lines


def _where(finding: Finding) -> str:
    # The author edits the server's code, so its place comes first; the manifest's is kept
    # in the full report as the finding's identity.
    source = finding.source
    return (f"{source.file}:{source.line}:{source.column}" if source
            else f"{finding.file}:{finding.line}:{finding.column}")


def _finding(writer: _Writer, finding: Finding, live: bool, can_fix: bool,
             columns: int | None) -> None:
    source = finding.source
    code = f"{finding.code} {FIXABLE}" if can_fix and finding.fix is not None else finding.code
    writer.line((f"    {reveal_line(_where(finding))}  ", ""),
                (f"{finding.severity.label:<7}", STYLE[finding.severity]),
                ("  ", ""), (reveal_line(code), BOLD), (" ", ""), (reveal_line(finding.name), DIM))
    message = _wrapped(reveal(finding.message), 6, columns)
    for line in message:
        writer.line((f"      {line}", ""))
    if finding.suggestion:
        # The help text continues under its first word, past "help: ".
        first, *rest = _wrapped(reveal(finding.suggestion), 12, columns)
        writer.line(("      ", ""), ("help", HELP), (f": {first}", ""))
        for line in rest:
            writer.line((f"            {line}", ""))
    if source:
        place = manifest_place(finding.file, finding.line, finding.column, finding.pointer, live)
        writer.line(("      ", ""), (f"manifest: {reveal_line(place)}", DIM))


def _statistics(report: Report, writer: _Writer) -> None:
    for code, name, severity, count, _ in rule_counts(report):
        writer.line((f"{count:>5}  ", ""), (f"{reveal_line(code):<8}", BOLD), (" ", ""),
                    (f"{severity.label:<7}", STYLE[severity]), (f"  {reveal_line(name)}", ""))


def _errors(report: Report, writer: _Writer) -> None:
    for error in report.errors:
        writer.line(("error", STYLE[Severity.ERROR]), (f": {reveal_line(str(error))}", ""))


def _footer(report: Report, writer: _Writer, options: ReportOptions) -> None:
    writer.line((_summary(report, options.hidden), ""))
    count = fixable(report.findings, unfixable_files(report))
    if count:
        writer.line((f"{FIXABLE} {count} fixable with `mcplint check --fix`.", ""))
    if report.token_method:
        writer.line((f"Tokens: {reveal(report.token_method)}.", DIM))


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    """The full report: grouped by file and tool, each finding with its message, help and
    manifest place, word-wrapped to the terminal."""
    writer = _Writer(use_color(out, options.color))
    _errors(report, writer)
    if options.statistics:
        _statistics(report, writer)
    else:
        columns = width(out, options)
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
                    _finding(writer, finding, file in live_servers, file not in unfixable,
                             columns)
                # A tool at a time: a 10,000-tool gateway is one file, and holding all its
                # lines cost 150 MB.
                writer.flush(out)
            if not options.quiet:
                writer.line()
            writer.flush(out)
    if not options.quiet:
        _footer(report, writer, options)
    writer.flush(out)


# A flush every this many findings keeps a gateway's concise report from piling up in memory.
_CHUNK = 512


# In the concise output, a rule that fires more than _REPEATED times in one file (DESC003 on
# 39 of 40 tools) shows its first _SHOWN findings and one line for the rest: on a real server
# the same advice per tool is most of the output, and the first few say what to change.
# Errors are always listed.
_REPEATED = 5
_SHOWN = 3


def render_concise(report: Report, out: TextIO, options: ReportOptions) -> None:
    """One line a finding, ``path:line:col: CODE [*] message``, as Ruff prints them; the
    message is the short form of the finding's (mcplint.reporters.short).  A rule repeated
    across many tools of a file is shortened to its first findings and a count, unless
    ``options.every``."""
    writer = _Writer(use_color(out, options.color))
    _errors(report, writer)
    if options.statistics:
        _statistics(report, writer)
    else:
        unfixable = unfixable_files(report)
        method = report.token_method
        per_rule = Counter((f.file, f.code) for f in report.findings)
        seen: Counter[tuple[str, str]] = Counter()
        folded: list[tuple[str, str, Severity]] = []
        printed = 0
        for position, finding in enumerate(report.findings):
            key = (finding.file, finding.code)
            seen[key] += 1
            if (not options.every and per_rule[key] > _REPEATED and seen[key] > _SHOWN
                    and finding.severity is not Severity.ERROR):
                if seen[key] == _SHOWN + 1:
                    folded.append((finding.file, finding.code, finding.severity))
            else:
                marker = (f" {FIXABLE}"
                          if finding.fix is not None and finding.file not in unfixable else "")
                writer.line((f"{reveal_line(_where(finding))}:", BOLD), (" ", ""),
                            (reveal_line(finding.code), STYLE[finding.severity]),
                            (marker, HELP),
                            (f" {reveal_line(short_message(finding.message, method))}", ""))
                printed += 1
            following = (report.findings[position + 1].file
                         if position + 1 < len(report.findings) else None)
            if folded and following != finding.file:
                for file, code, severity in folded:
                    more = per_rule[(file, code)] - _SHOWN
                    writer.line((f"{reveal_line(file)}:", BOLD), (" ", ""),
                                (reveal_line(code), STYLE[severity]),
                                (f" … and {more} more like these "
                                 f"({per_rule[(file, code)]} in all; -v lists every finding)",
                                 DIM))
                folded = []
            if printed and printed % _CHUNK == 0:
                writer.flush(out)
        if options.show_fixes:
            _fixes(report, writer, unfixable)
    if not options.quiet:
        _footer(report, writer, options)
    writer.flush(out)


def _fixes(report: Report, writer: _Writer, unfixable: frozenset[str]) -> None:
    """What ``check --fix`` would do, a line a fix, after the findings (Ruff's --show-fixes)."""
    fixes = [f for f in report.findings if f.fix is not None and f.file not in unfixable]
    if not fixes:
        return
    writer.line()
    count = len(fixes)
    writer.line((f"{count} fix{'' if count == 1 else 'es'} available with `mcplint check --fix`:",
                 BOLD))
    for finding in fixes:
        assert finding.fix is not None
        writer.line((f"  {reveal_line(_where(finding))}: ", ""),
                    (reveal_line(finding.code), STYLE[finding.severity]),
                    (f" {reveal_line(finding.fix.description)}", ""))
    writer.line()
