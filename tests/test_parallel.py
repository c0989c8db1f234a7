"""A large manifest's tools are linted by forked workers; the result must not depend on it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcplint.config import Config
from mcplint.engine import parallel
from mcplint.engine.linter import Linter, Selection
from mcplint.loaders.jsonsource import parse_json
from mcplint.loaders.manifest import build_manifest

ROOT = Path(__file__).resolve().parents[1]


def test_spans_cover_the_range_in_order_and_evenly() -> None:
    assert parallel.spans(10, 3) == [(0, 4), (4, 7), (7, 10)]
    assert parallel.spans(2, 2) == [(0, 1), (1, 2)]
    for count in range(0, 40):
        for parts in range(1, 6):
            got = parallel.spans(count, parts)
            assert [i for start, end in got for i in range(start, end)] == list(range(count))
            sizes = [end - start for start, end in got]
            assert max(sizes) - min(sizes) <= 1


def _gateway(copies: int) -> str:
    # The example server's tools again and again under new names, as a gateway lists them; the
    # copies keep the pairwise and server-wide rules busy too.
    tools = json.loads((ROOT / "examples" / "support-desk.json").read_text())["tools"]
    listed = []
    for copy in range(copies):
        for tool in tools:
            listed.append({**tool, "name": f"desk{copy}_{tool['name']}"})
    return json.dumps({"tools": listed}, indent=2)


@pytest.mark.skipif(parallel.workers_for(10**6) < 2, reason="needs Linux and two cores")
def test_parallel_lint_equals_serial_lint(monkeypatch: pytest.MonkeyPatch) -> None:
    document = parse_json(_gateway(60))
    manifest, errors = build_manifest("gateway.json", document)
    assert manifest is not None and not errors and len(manifest.tools) == 300
    linter = Linter(Config(path=None, root=ROOT), Selection(select=("ALL",)))

    monkeypatch.setattr(parallel, "MIN_TOOLS_PER_WORKER", 10**9)
    assert parallel.workers_for(len(manifest.tools)) == 1
    serial = linter.lint(manifest)

    monkeypatch.setattr(parallel, "MIN_TOOLS_PER_WORKER", 50)
    assert parallel.workers_for(len(manifest.tools)) >= 2
    forked = linter.lint(manifest)

    assert len(serial.findings) > 600
    assert forked == serial  # every finding, its order, and the token counts


@pytest.mark.skipif(parallel.workers_for(10**6) < 2, reason="needs Linux and two cores")
def test_files_linted_in_workers_report_what_one_process_reports(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Every rule fixture (hundreds of files, some not manifests at all) in one run: findings,
    # input errors, file summaries and rules must not depend on which process read a file.
    from mcplint.run import run

    target = [str(ROOT / "fixtures" / "rules")]
    monkeypatch.setattr(parallel, "MIN_FILES_PER_WORKER", 10**9)
    serial = run(target, Selection(select=("ALL",)))
    monkeypatch.setattr(parallel, "MIN_FILES_PER_WORKER", 8)
    assert parallel.workers_for(len(serial.files), 8) >= 2
    forked = run(target, Selection(select=("ALL",)))
    assert len(serial.files) > 100 and len(serial.findings) > 100
    assert forked.findings == serial.findings
    assert forked.errors == serial.errors
    assert forked.files == serial.files
    assert forked.rules == serial.rules


def test_spans_are_cut_by_weight_not_count() -> None:
    from mcplint.engine.parallel import weighted_spans

    # Ten heavy units then ninety light ones: equal counts would give one worker most work.
    weights = [50] * 10 + [5] * 90
    first, second = weighted_spans(weights, 2)
    assert first[0] == 0 and first[1] == second[0] and second[1] == 100
    assert abs(sum(weights[slice(*first)]) - sum(weights[slice(*second)])) <= 50
    # Every span keeps at least one unit, even when one unit outweighs the rest.
    assert weighted_spans([1000, 1, 1], 3) == [(0, 1), (1, 2), (2, 3)]
    assert weighted_spans([1] * 7, 3) == [(0, 3), (3, 5), (5, 7)]


@pytest.mark.parametrize("units", [3, 400])
def test_work_meanwhile_runs_once_in_this_process_and_spans_keep_their_order(
        monkeypatch: pytest.MonkeyPatch, units: int) -> None:
    import os

    monkeypatch.setattr(parallel, "MIN_TOOLS_PER_WORKER", 100)
    ran: list[int] = []
    parts = parallel.run_spans(lambda start, end: list(range(start, end)), units,
                               meanwhile=lambda: ran.append(os.getpid()))
    assert [i for part in parts for i in part] == list(range(units))
    assert ran == [os.getpid()]
    if units == 400 and parallel.workers_for(units) >= 2:
        assert len(parts) == 1 + parallel.workers_for(units)  # the warm unit, then a span each


@pytest.mark.skipif(parallel.workers_for(10**6) < 2, reason="needs Linux and two cores")
def test_a_check_that_reads_token_counts_runs_after_the_workers_counted_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from mcplint.engine import linter as linter_module

    seen: dict[str, tuple[int, int]] = {}
    checks = linter_module.builtin_checks()

    def recording(check_id: str) -> object:
        inner = checks[check_id].fn

        def fn(manifest: object, ctx: object, options: object) -> object:
            # How many tools had a count when the check began, against how many there are.
            seen[check_id] = (len(ctx._tool_tokens), len(manifest.tools))  # type: ignore[attr-defined]
            return inner(manifest, ctx, options)
        return fn

    for check_id in ("manifest-tokens", "tool-count"):
        checks[check_id] = dataclasses.replace(checks[check_id], fn=recording(check_id))
    monkeypatch.setattr(linter_module, "builtin_checks", lambda: checks)
    monkeypatch.setattr(parallel, "MIN_TOOLS_PER_WORKER", 50)
    document = parse_json(_gateway(60))
    manifest, _ = build_manifest("gateway.json", document)
    assert manifest is not None
    Linter(Config(path=None, root=ROOT), Selection(select=("ALL",))).lint(manifest)
    assert checks["manifest-tokens"].tokens and not checks["tool-count"].tokens
    # The budget check saw every tool's count, from the workers; the tool-count check ran while
    # the workers were still at it, when only the tool linted before the fork had a count here.
    assert seen["manifest-tokens"] == (300, 300)
    assert seen["tool-count"] == (1, 300)
