"""Shared test hooks: the fuzz suite's counts at the end of the run."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from tests import fuzz_stats

    if fuzz_stats.STATS:
        terminalreporter.section("mcplint fuzz counts")
        for key, value in fuzz_stats.summary().items():
            terminalreporter.write_line(f"{key}: {value}")
        fuzz_stats.write_report()
