"""Counts the fuzz suite keeps, printed at the end of the run (tests/conftest.py) and written
to $MCPLINT_FUZZ_REPORT as JSON when that is set."""

from __future__ import annotations

import json
import os
import re
from collections import Counter

STATS: Counter[str] = Counter()
PEAK_MB = [0.0]
SLOWEST_S = [0.0]


def reset_peak() -> None:
    """Reset the process's peak resident memory (Linux), so the next read is one input's."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        pass


def peak_mb() -> float:
    """The process's peak resident memory since the last reset, in MiB (0 where unknown)."""
    try:
        with open("/proc/self/status") as handle:
            found = re.search(r"VmHWM:\s+(\d+) kB", handle.read())
    except OSError:
        return 0.0
    return int(found.group(1)) / 1024 if found else 0.0


def record(outcome: str, seconds: float, memory_mb: float) -> None:
    STATS["inputs tried"] += 1
    STATS[outcome] += 1
    PEAK_MB[0] = max(PEAK_MB[0], memory_mb)
    SLOWEST_S[0] = max(SLOWEST_S[0], seconds)


def summary() -> dict[str, object]:
    return {**dict(sorted(STATS.items())), "peak memory (MiB)": round(PEAK_MB[0], 1),
            "slowest input (s)": round(SLOWEST_S[0], 2)}


def write_report() -> None:
    path = os.environ.get("MCPLINT_FUZZ_REPORT")
    if path and STATS:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(summary(), handle, indent=2)
            handle.write("\n")
