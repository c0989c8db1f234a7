"""Shared test hooks: the fuzz suite's counts at the end of the run."""

from __future__ import annotations

import os
from typing import Any


def pytest_configure(config: Any) -> None:
    # The full text report wraps at COLUMNS when it is set; a test that expects whole lines
    # must not depend on the terminal it was started from. Tests of wrapping set it.
    os.environ.pop("COLUMNS", None)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from tests import fuzz_stats

    if fuzz_stats.STATS:
        terminalreporter.section("mcplint fuzz counts")
        for key, value in fuzz_stats.summary().items():
            terminalreporter.write_line(f"{key}: {value}")
        fuzz_stats.write_report()
