"""Reporters render a finished report; they see findings and counts, never the model."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from mcplint.run import Report

FORMATS = ("text", "json")


@dataclass(frozen=True)
class ReportOptions:
    color: bool | None = None  # None: decide from the terminal and NO_COLOR
    quiet: bool = False
    statistics: bool = False


Reporter = Callable[[Report, TextIO, ReportOptions], None]


def get_reporter(name: str) -> Reporter:
    # Imported on demand so a run loads only the reporter it uses.
    if name == "json":
        from mcplint.reporters.json import render as render_json

        return render_json
    from mcplint.reporters.text import render as render_text

    return render_text
