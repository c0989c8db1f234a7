"""Reporters render a finished report; they see findings and counts, never the model.

Each format is a module of this package with a ``render(report, out, options)`` function,
imported only when that format is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from mcplint.run import Report

FORMATS = ("text", "json", "html", "sarif", "github", "junit", "markdown")


@dataclass(frozen=True)
class ReportOptions:
    color: bool | None = None  # None: decide from the terminal and NO_COLOR
    quiet: bool = False
    statistics: bool = False


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
    """Files ``check --fix`` cannot write: live servers and standard input."""
    return live_files(report) | {"-"}


def manifest_place(file: str, line: int, column: int, pointer: str, live: bool) -> str:
    """The manifest place of a finding that also has a source location, said so a live
    server's snapshot line is not mistaken for a line of a file of the same name."""
    if live:
        return f"snapshot of live server {file}, {pointer or '/'}"
    return f"{file}:{line}:{column} {pointer or '/'}"


def get_reporter(name: str) -> Reporter:
    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r}; known: {', '.join(FORMATS)}")
    render: Reporter = import_module(f"mcplint.reporters.{name}").render
    return render
