"""Reporters render a finished report; they see findings and counts, never the model.

Each format is a module of this package with a ``render(report, out, options)`` function,
imported only when that format is asked for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, TextIO

from mcplint.findings import Severity

if TYPE_CHECKING:
    from mcplint.run import Report

# concise (one line a finding) and full (grouped, with help) are the terminal formats; text is
# the name full had before there were two, kept so scripts that ask for it still work.
FORMATS = ("concise", "full", "text", "json", "html", "sarif", "github", "junit", "markdown")
TERMINAL_FORMATS = ("concise", "full", "text")
_MODULES = {"concise": "text", "full": "text"}
_FUNCTIONS = {"concise": "render_concise"}


@dataclass(frozen=True)
class ReportOptions:
    color: bool | None = None  # None: decide from the terminal and NO_COLOR
    quiet: bool = False
    statistics: bool = False
    show_fixes: bool = False  # concise: list the safe fixes after the findings
    width: int | None = None  # full: wrap at this width; 0 never; None: the terminal's
    hidden: int = 0  # findings left out by --min-severity, for the summary to say so
    # Of those, the ones that fail the run: a format that counts failures counts them too,
    # or it would report a clean run that exits 1.
    hidden_failing: int = 0
    every: bool = False  # concise: list every finding, not the first few of a repeated rule
    # What makes the exit code 1, so every format agrees with it: findings at or above this
    # severity fail (JUnit failures, the verdict of Markdown and JSON); None when nothing
    # does (--fail-on never, --exit-zero).  ``fail_on_label`` says it as the user did
    # (``error``, or ``breaking`` for diff); ``exit_code`` is the run's, when known.
    fail_on: Severity | None = Severity.ERROR
    fail_on_label: str = "error"
    exit_code: int | None = None

    def fails(self, severity: Severity) -> bool:
        return self.fail_on is not None and severity >= self.fail_on

    def failing(self, report: Report) -> int:
        """How many of the report's findings make the exit code 1, hidden ones included."""
        return sum(1 for f in report.findings if self.fails(f.severity)) + self.hidden_failing


Reporter = Callable[["Report", TextIO, ReportOptions], None]


def printable(text: str) -> str:
    """Text any UTF-8 stream can take: a lone surrogate (JSON allows "\\ud800") is written as
    its escape, which is also what JSON would write for it."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def live_files(report: Report) -> frozenset[str]:
    """The files of a report that name live servers: their lines are in an in-memory snapshot,
    not in any file of the repository."""
    return frozenset(f.file for f in report.files if f.live)


def unfixable_files(report: Report) -> frozenset[str]:
    """Files ``check --fix`` cannot write: live servers and standard input (by whatever
    name --stdin-filename gave it)."""
    return live_files(report) | {f.file for f in report.files if f.stdin} | {"-", "<stdin>"}


def rule_counts(report: Report) -> list[tuple[str, str, Severity, int, bool]]:
    """(code, name, severity, count, fixable) of each rule that fired, by severity (a rule's
    severity may differ by file or tool), most frequent first; fixable when ``check --fix``
    can fix some of those findings (``--statistics``)."""
    unfixable = unfixable_files(report)
    counts = Counter((f.code, f.name, f.severity) for f in report.findings)
    fixes = {(f.code, f.name, f.severity) for f in report.findings
             if f.fix is not None and f.file not in unfixable}
    return [(code, name, severity, count, (code, name, severity) in fixes)
            for (code, name, severity), count in sorted(counts.items(),
                                                        key=lambda i: (-i[1], i[0]))]


def manifest_place(file: str, line: int, column: int, pointer: str, live: bool) -> str:
    """The manifest place of a finding that also has a source location, said so a live
    server's snapshot line is not mistaken for a line of a file of the same name."""
    if live:
        return f"snapshot of live server {file}, {pointer or '/'}"
    return f"{file}:{line}:{column} {pointer or '/'}"


def get_reporter(name: str) -> Reporter:
    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r}; known: {', '.join(FORMATS)}")
    module = import_module(f"mcplint.reporters.{_MODULES.get(name, name)}")
    render: Reporter = getattr(module, _FUNCTIONS.get(name, "render"))
    return render
