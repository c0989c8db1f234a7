"""Shared test hooks: a private cache directory, and the fuzz suite's counts at the end."""

from __future__ import annotations

import os
import tempfile
from typing import Any


def pytest_configure(config: Any) -> None:
    # mcplint caches the parsed built-in packs in the user's cache directory; the tests (and
    # the CLI runs they start, which inherit the environment) keep theirs out of the home.
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="mcplint-test-cache-")
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
