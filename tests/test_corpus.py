"""Every real manifest in the shared corpus loads and lints without an exception, and gives
the findings recorded in corpus_findings.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcplint.config import Config
from mcplint.engine.linter import Linter, Selection
from mcplint.loaders.files import Source, load
from mcplint.tokens import get_counter
from tests.corpus_snapshot import SNAPSHOT, snapshot

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
MANIFESTS = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []

pytestmark = pytest.mark.skipif(
    not MANIFESTS, reason=f"the shared corpus is not here ({CORPUS}); it sits beside the "
                          "repository in the development workplace, not in a user's clone")


@pytest.fixture(scope="module")
def linter() -> Linter:
    # Every rule, including those off by default, so all of them meet real input.
    return Linter(Config(path=None, root=ROOT), Selection(select=("ALL",)))


@pytest.mark.parametrize("path", MANIFESTS, ids=[p.stem for p in MANIFESTS])
def test_manifest_loads_and_lints(path: Path, linter: Linter) -> None:
    loaded = load(Source(str(path)))
    assert not loaded.errors, loaded.errors
    assert loaded.manifest is not None and loaded.manifest.kind == "server snapshot"
    linted = linter.lint(loaded.manifest)
    for finding in linted.findings:
        # Every finding is located on a real line of the file, at a pointer that exists.
        assert finding.line >= 1 and finding.column >= 1
        assert loaded.manifest.document.has(finding.pointer), finding
    assert linted.tokens > 0


def test_corpus_has_all_tools() -> None:
    total = sum(len(load(Source(str(p))).manifest.tools) for p in MANIFESTS)  # type: ignore[union-attr]
    assert total == 1073


def test_findings_match_the_snapshot() -> None:
    """Engine work leaves every finding as it was: the corpus's findings, field by field, are
    those recorded in corpus_findings.json (rewritten on purpose by a rule change, see
    corpus_snapshot.py)."""
    if get_counter().exact:
        pytest.skip("the snapshot holds estimated token counts; tiktoken's exact counts "
                    "change the COST messages")
    recorded = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    taken = snapshot(MANIFESTS)
    assert sorted(taken) == sorted(recorded)
    moved = {name: _moved_codes(recorded[name]["counts"], taken[name]["counts"])
             for name in taken if taken[name] != recorded[name]}
    assert not moved, ("findings differ from tests/corpus_findings.json (after a deliberate "
                       "rule change: python3 tests/corpus_snapshot.py --write): "
                       f"{moved}")


def _moved_codes(old: dict[str, int], new: dict[str, int]) -> dict[str, tuple[int, int]] | str:
    """The codes whose counts changed, as (recorded, now); equal counts with another digest
    mean a message, location or fix changed."""
    changed = {code: (old.get(code, 0), new.get(code, 0)) for code in sorted({*old, *new})
               if old.get(code, 0) != new.get(code, 0)}
    return changed or "same counts; a message, location or fix changed"
