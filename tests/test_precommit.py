"""The pre-commit hook, run by the real pre-commit tool in a throwaway git repository.

The hook repository is a copy of this checkout's working tree committed into a temporary git
repo, so the test runs the hook as it is now, committed or not; pre-commit then builds its own
virtualenv and installs mcplint into it from that copy, as it would for a user.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRE_COMMIT = shutil.which("pre-commit")
GIT = shutil.which("git")

pytestmark = pytest.mark.skipif(
    PRE_COMMIT is None or GIT is None,
    reason="needs the pre-commit tool and git (pip install -e '.[dev]')")

BAD = {"tools": [{"name": "close_ticket", "inputSchema": {"type": "object"}}]}
GOOD = {"tools": [{
    "name": "get_ticket",
    "description": "Get one support ticket by id. Returns its subject, status and messages.",
    "inputSchema": {"type": "object",
                    "properties": {"ticket_id": {"type": "string", "description": "The id."}},
                    "required": ["ticket_id"]},
}]}
HOOK_FILES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "mcplint", "rules")


def _git(cwd: Path, *args: str) -> None:
    assert GIT is not None
    subprocess.run([GIT, *args], cwd=cwd, check=True, capture_output=True)


def _env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PRE_COMMIT_HOME": str(home / "cache"),
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "NO_COLOR": "1",
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("precommit")
    env = _env(base)
    hooks = base / "hooks"
    hooks.mkdir()
    for name in HOOK_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, hooks / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, hooks / name)
    _git(hooks, "init", "-q")
    _git(hooks, "add", ".")
    _git(hooks, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "hooks")
    rev = subprocess.run([str(GIT), "rev-parse", "HEAD"], cwd=hooks, check=True,
                         capture_output=True, text=True).stdout.strip()

    user = base / "user"
    (user / "mcp").mkdir(parents=True)
    _git(user, "init", "-q")
    (user / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {json.dumps(str(hooks))}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: mcplint\n"
        # Only the spec rules, so rules added later cannot change this test's outcome.
        "        args: [--select, SPEC]\n",
        encoding="utf-8")
    (user / "mcp" / "bad.json").write_text(json.dumps(BAD, indent=2), encoding="utf-8")
    (user / "mcp" / "good.json").write_text(json.dumps(GOOD, indent=2), encoding="utf-8")
    # Not a manifest: the hook's default files pattern must keep it away from mcplint.
    (user / "package.json").write_text('{"name": "x", "version": "1.0.0"}', encoding="utf-8")
    _git(user, "add", ".")
    return user, env


def _pre_commit(project: tuple[Path, dict[str, str]], *args: str
                ) -> subprocess.CompletedProcess[str]:
    user, env = project
    assert PRE_COMMIT is not None
    return subprocess.run([PRE_COMMIT, "run", "--color", "never", *args], cwd=user, env=env,
                          capture_output=True, text=True, timeout=600)


def test_bad_manifest_fails_the_hook(project: tuple[Path, dict[str, str]]) -> None:
    result = _pre_commit(project, "mcplint", "--files", "mcp/bad.json")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "mcplint" in result.stdout and "Failed" in result.stdout
    # pre-commit shows mcplint's default, concise output: one line a finding.
    assert "\nmcp/bad.json:3:5: SPEC004 Tool \"close_ticket\" has no description\n" in result.stdout


def test_good_manifest_passes(project: tuple[Path, dict[str, str]]) -> None:
    result = _pre_commit(project, "mcplint", "--files", "mcp/good.json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


def test_files_pattern_skips_other_json(project: tuple[Path, dict[str, str]]) -> None:
    result = _pre_commit(project, "mcplint", "--files", "package.json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(no files to check)Skipped" in result.stdout.replace(".", "")
