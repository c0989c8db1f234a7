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


def get_reporter(name: str) -> Reporter:
    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r}; known: {', '.join(FORMATS)}")
    render: Reporter = import_module(f"mcplint.reporters.{name}").render
    return render
