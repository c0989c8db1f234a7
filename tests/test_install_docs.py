"""The README promises only installs that work before a release: no index install of a name
PyPI would refuse, no release tags that do not exist; the distribution name is one PyPI
accepts, and nothing depends on the old one."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# Projects on PyPI whose names a new one may not repeat up to separators (PyPI compares the
# names with every ".", "-" and "_" removed, case folded).
TAKEN = ("mcp-lint", "mcplint-cli", "mcplint-sec")


def _squashed(name: str) -> str:
    return re.sub(r"[-_.]+", "", name).lower()


def test_the_distribution_name_is_one_pypi_accepts() -> None:
    name = PYPROJECT["project"]["name"]
    assert name == "mcp-tool-lint"
    assert _squashed(name) not in {_squashed(t) for t in (*TAKEN, "mcplint")}
    # The command stays mcplint.
    assert PYPROJECT["project"]["scripts"] == {"mcplint": "mcplint.cli:main"}


def test_nothing_looks_up_the_distribution_by_its_old_name() -> None:
    for path in (ROOT / "mcplint").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""(version|distribution|metadata)\(\s*["']mcplint["']""", text), \
            path
        assert '"mcplint[' not in text, path


def test_the_readme_installs_from_the_repository_until_a_release() -> None:
    assert 'pip install "mcplint[' not in README and "pip install mcplint" not in README
    assert "@v1" not in README
    assert "rev: <tag>" not in README
    assert "not on PyPI yet" in README
    # The quick start's two commands, which CI runs, install from the clone.
    for block in ("install", "test"):
        command = re.search(rf"<!-- ci:{block} -->\s*```sh\n(.*?)\n```", README, re.S)
        assert command is not None and 'pip install ' in command.group(1)
        assert '".[' in command.group(1)


def test_a_license_and_a_changelog_ship() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "## [Unreleased]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    include = PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert {"LICENSE", "CHANGELOG.md", "docs"} <= set(include)
