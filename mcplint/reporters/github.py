"""GitHub Actions workflow commands: one annotation per finding, and a step summary.

GitHub turns at most 10 error and 10 warning annotations of a step into annotations on the
pull request; the rest stay in the log only.  So when GITHUB_STEP_SUMMARY names a file, the
whole picture (counts, the worst tools, the token budget, every finding) is appended there.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TextIO

from mcplint.baseline import relative_file
from mcplint.findings import Finding, Severity
from mcplint.reporters import (
    ReportOptions,
    live_files,
    manifest_place,
    markdown,
    printable,
    unfixable_files,
)
from mcplint.reporters.sarif import on_disk
from mcplint.reporters.visible import reveal, reveal_line
from mcplint.run import Report

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
SHOWN_PER_STEP = 10
# GitHub refuses step summaries over 1 MiB; leave room for other steps' summaries.
SUMMARY_CHARS = 200_000


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(kind: str, message: str, file: str | None = None, line: int = 0,
               column: int = 0, title: str | None = None, end_line: int = 0,
               end_column: int = 0) -> str:
    """One workflow command, on one line whatever the text holds: newlines are escaped, and
    in the properties so are ``:`` and ``,``, so nothing ends the command early.  Message and
    title are shown to people and have invisible characters revealed; so has the file (an
    ordinary path has none; one that has cannot be found in the checkout anyway, and must not
    write controls into the log)."""
    properties = []
    if file is not None:
        properties.append(f"file={escape_property(reveal_line(file))}")
        if line > 0:
            properties.append(f"line={line}")
            if end_line > 0:
                properties.append(f"endLine={end_line}")
            # The runner drops columns (with a warning) from a span over several lines.
            if column > 0 and end_line in (0, line):
                properties.append(f"col={column}")
                if end_column > column:
                    properties.append(f"endColumn={end_column}")
    if title:
        properties.append(f"title={escape_property(reveal(title))}")
    joined = " " + ",".join(properties) if properties else ""
    return printable(f"::{kind}{joined}::{escape_data(reveal(message))}")


def _root() -> Path:
    # Annotation paths are relative to the checkout, which is GITHUB_WORKSPACE in Actions.
    return Path(os.environ.get("GITHUB_WORKSPACE") or Path.cwd())


def step_summary(report: Report, options: ReportOptions | None = None) -> str:
    sections = ["## mcplint", markdown.headline(report),
                markdown.verdict(report, options or ReportOptions())]
    errors, warnings = report.count(Severity.ERROR), report.count(Severity.WARNING)
    if errors > SHOWN_PER_STEP or warnings > SHOWN_PER_STEP:
        sections.append(f"> GitHub annotates at most {SHOWN_PER_STEP} errors and "
                        f"{SHOWN_PER_STEP} warnings per step; the rest are listed below.")
    if report.linted:
        sections.append(markdown.summary_table(report))
    worst = markdown.worst_tools_table(report)
    if worst:
        sections += ["### Tools with the most findings", worst]
    heaviest = markdown.heaviest_tools_table(report)
    if heaviest:
        method = f" ({markdown.text(report.token_method)})" if report.token_method else ""
        sections += [f"### Token budget: the heaviest tools{method}", heaviest]
    sections.append(markdown.input_errors_section(report))
    if report.findings:
        sections += ["### Findings", markdown.findings_section(report, SUMMARY_CHARS)]
    return "\n\n".join(s for s in sections if s) + "\n"


def write_step_summary(report: Report, path: str,
                       options: ReportOptions | None = None) -> None:
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(printable(step_summary(report, options)))
    except OSError:
        # The summary is a convenience; the annotations and exit code still carry the result.
        pass


def _message(finding: Finding, root: Path, live: bool, can_fix: bool) -> str:
    message = finding.message
    if finding.suggestion:
        message += f"\n\nSuggestion: {finding.suggestion}"
    if finding.fix and can_fix:
        message += f"\n\nSafe fix: {finding.fix.description} (`mcplint check --fix`)."
    if finding.source:
        file = finding.file if live else relative_file(finding.file, root)
        place = manifest_place(file, finding.line, finding.column, finding.pointer, live)
        message += f"\n\nManifest: {place}"
    return message


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    root = _root()
    live_servers = live_files(report)
    unfixable = unfixable_files(report)
    for error in report.errors:
        out.write(annotation("error", error.message, relative_file(error.file, root),
                             error.line, error.column, "mcplint input error") + "\n")
    for finding in report.findings:
        title = f"{finding.code} {finding.name}"
        live = finding.file in live_servers
        message = _message(finding, root, live, finding.file not in unfixable)
        source = finding.source
        if source:
            # GitHub shows an annotation only on a line of the pull request's diff, and the
            # author edits the server's code, not the snapshot: annotate the code.
            out.write(annotation(COMMAND[finding.severity], message,
                                 relative_file(source.file, root), source.line, source.column,
                                 title, source.end_line, source.end_column) + "\n")
            continue
        file, line, column = on_disk(finding.file, finding.line, finding.column, live)
        out.write(annotation(COMMAND[finding.severity], message,
                             relative_file(file, root), line, column, title) + "\n")
    if not options.quiet:
        counts = ", ".join(f"{report.count(s)} {s.label}" for s in markdown.ORDER)
        files = len(report.linted)
        summary_line = (f"mcplint: {len(report.findings)} findings ({counts}) in {files} "
                        f"file{'' if files == 1 else 's'}")
        if options.exit_code is not None:
            label = options.fail_on_label
            flag = label if label.startswith("--") else f"--fail-on {label}"
            summary_line += f"; {options.failing(report)} fail the run ({flag})"
        out.write(summary_line + "\n")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        write_step_summary(report, summary, options)
