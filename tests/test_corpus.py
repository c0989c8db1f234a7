"""Every real manifest in the shared corpus loads and lints without an exception."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcplint.config import Config
from mcplint.engine.linter import Linter, Selection
from mcplint.loaders.files import Source, load

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
