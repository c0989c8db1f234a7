"""Share a large manifest's per-tool work among the machine's cores.

Tool and parameter rules look at one tool at a time, so a gateway of thousands of tools splits
into spans that forked workers lint side by side.  Forking hands each worker the parsed
manifest, the rules and their caches without pickling them; only findings come back.  The
caller sorts what comes back, so the output is the same whatever the split.

Forking is used only where it is safe and cheap: on Linux, from a process with no other thread
(a live lint's transports may still have some), and for enough tools to pay for the workers.
"""

from __future__ import annotations

import os
import sys
import threading
from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import accumulate, pairwise
from typing import Any

# Below this many tools per worker, starting a worker costs more than it saves (about 20 ms
# against about 1.5 ms of rules per tool); a file of a directory is about 15 tools.
MIN_TOOLS_PER_WORKER = 100
MIN_FILES_PER_WORKER = 8
MAX_WORKERS = 8

_task: Callable[[int, int], Any] | None = None
# A worker does its span itself: a pool's workers may not start workers of their own.
_in_worker = False


def _run(span: tuple[int, int]) -> Any:
    global _in_worker
    _in_worker = True
    assert _task is not None  # set before the workers are forked
    return _task(*span)


def workers_for(count: int, per_worker: int | None = None) -> int:
    if _in_worker or sys.platform != "linux" or threading.active_count() > 1:
        return 1
    cores = len(os.sched_getaffinity(0))
    least = MIN_TOOLS_PER_WORKER if per_worker is None else per_worker
    return max(1, min(cores, MAX_WORKERS, count // least))


def spans(count: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` consecutive spans covering ``range(count)``, as even as can be."""
    size, extra = divmod(count, parts)
    out = []
    start = 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        out.append((start, end))
        start = end
    return out


def weighted_spans(weights: Sequence[int], parts: int) -> list[tuple[int, int]]:
    """``parts`` consecutive, non-empty spans covering ``range(len(weights))`` whose weights
    are as even as can be: a gateway's tools differ tenfold in size, so equal counts are not
    equal work.  Needs at least ``parts`` units."""
    count = len(weights)
    cumulative = list(accumulate(weights))
    total = cumulative[-1] if cumulative else 0
    cuts = [0]
    for part in range(1, parts):
        cut = bisect_left(cumulative, total * part / parts) + 1
        cut = min(max(cut, cuts[-1] + 1), count - (parts - part))
        cuts.append(cut)
    cuts.append(count)
    return list(pairwise(cuts))


def run_spans(task: Callable[[int, int], Any], count: int,
              per_worker: int | None = None,
              weights: Sequence[int] | None = None,
              meanwhile: Callable[[], None] | None = None) -> list[Any]:
    """``task(start, end)`` over ``range(count)`` in spans, one per worker, in span order;
    ``per_worker`` is the least work that pays for a worker (default: tools), and ``weights``
    (one per unit, e.g. its size) even out the spans' work.  ``meanwhile`` is other work of
    this process that needs none of the spans' results: it runs while the workers do, or after
    the spans when there are none."""
    global _task
    workers = workers_for(count, per_worker)
    if workers < 2:
        done = [task(0, count)]
        if meanwhile is not None:
            meanwhile()
        return done
    # The first unit runs here before the fork, so every worker inherits what it built once
    # instead of building it again: compiled patterns, the prefilter automata, and the
    # manifest-wide facts the rules memoise (boilerplate, name indexes, word counts).
    warm = task(0, 1)
    rest = (weighted_spans(weights[1:], workers) if weights is not None
            else spans(count - 1, workers))
    split = [(start + 1, end + 1) for start, end in rest]
    _task = task
    # Imported here: most runs lint one small server and never fork, and multiprocessing
    # (with pickle and socket) is about a tenth of a small run's start-up.
    import multiprocessing

    try:
        # Every span goes to a worker: linting one here as well would share this process's
        # interpreter lock with the pool's own threads, which slowed its span by a third
        # against a worker's.  Work that is short beside the spans (``meanwhile``) pays that
        # gladly: it would otherwise start only when the slower worker is done.
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            pending = pool.map_async(_run, split)
            if meanwhile is not None:
                meanwhile()
            return [warm, *pending.get()]
    finally:
        _task = None
