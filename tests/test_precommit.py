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

from tests.sample_tools import BAD, GOOD

ROOT = Path(__file__).resolve().parents[1]
PRE_COMMIT = shutil.which("pre-commit")
GIT = shutil.which("git")

pytestmark = pytest.mark.skipif(
    PRE_COMMIT is None or GIT is None,
    reason="needs the pre-commit tool and git (pip install -e '.[dev]')")

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
def hooks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, str]]:
    """The hook repository, its commit, and the environment (one pre-commit cache, so the
    hook's virtualenv is built once for every test here)."""
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
    return hooks, rev, env


def _user_repo(user: Path, hooks: tuple[Path, str, dict[str, str]]) -> None:
    repo, rev, _ = hooks
    user.mkdir(parents=True, exist_ok=True)
    _git(user, "init", "-q")
    (user / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {json.dumps(str(repo))}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: mcplint\n"
        # Only the spec rules, so rules added later cannot change this test's outcome.
        "        args: [--select, SPEC]\n",
        encoding="utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory, hooks: tuple[Path, str, dict[str, str]]
            ) -> tuple[Path, dict[str, str]]:
    user = tmp_path_factory.mktemp("user")
    _user_repo(user, hooks)
    (user / "mcp").mkdir()
    (user / "mcp" / "bad.json").write_text(json.dumps(BAD, indent=2), encoding="utf-8")
    (user / "mcp" / "good.json").write_text(json.dumps(GOOD, indent=2), encoding="utf-8")
    # Not a manifest: the hook's default files pattern must keep it away from mcplint.
    (user / "package.json").write_text('{"name": "x", "version": "1.0.0"}', encoding="utf-8")
    _git(user, "add", ".")
    return user, hooks[2]


@pytest.fixture(scope="module")
def server_repo(tmp_path_factory: pytest.TempPathFactory, hooks: tuple[Path, str, dict[str, str]]
                ) -> tuple[Path, dict[str, str]]:
    """fixtures/server-repo (npm and TypeScript configs, a settings file, a JSON Schema, a
    good and a bad manifest) as a git repository that uses the hook."""
    user = tmp_path_factory.mktemp("server") / "repo"
    shutil.copytree(ROOT / "fixtures" / "server-repo", user)
    _user_repo(user, hooks)
    _git(user, "add", ".")
    return user, hooks[2]


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


def test_server_repository_fails_only_on_the_bad_manifest(
        server_repo: tuple[Path, dict[str, str]]) -> None:
    result = _pre_commit(server_repo, "mcplint", "--all-files")
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert "Failed" in out
    assert ('packages/mcp/admin-tools.jsonc:4:5: SPEC004 Tool "close_ticket" has no '
            "description") in out
    assert "in 2 files (2 tools). Skipped 2 JSON files that are not tool manifests." in out
    assert "mcplint: note: packages/mcp/settings.json: skipped: it holds no tool manifest" in out
    for never in ("package.json", "package-lock.json", "tsconfig", "input error"):
        assert never not in out, never


def test_server_repository_passes_without_the_bad_manifest(
        server_repo: tuple[Path, dict[str, str]]) -> None:
    user, _ = server_repo
    names = [p.relative_to(user).as_posix() for p in sorted(user.rglob("*"))
             if p.is_file() and ".git" not in p.parts and p.name != "admin-tools.jsonc"]
    result = _pre_commit(server_repo, "mcplint", "--files", *names)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout
