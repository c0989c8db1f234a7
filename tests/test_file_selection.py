"""Which files `mcplint check` lints: globs anchored at the config, .gitignore, force-exclude,
named files that hold no tools, overlapping targets, empty folders and unreadable files.

Every test runs the real command line on real files and reads what was linted from the JSON
report's file list.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from mcplint.cli import main
from tests.sample_tools import BAD, GOOD

ROOT = Path(__file__).resolve().parents[1]
SERVER_REPO = ROOT / "fixtures" / "server-repo"


def _put(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2),
                    encoding="utf-8")
    return path


@contextmanager
def _in(cwd: Path) -> Iterator[None]:
    """Run the block from ``cwd`` (file selection is relative to it), then go back."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(old)


def _invoke(cwd: Path, *args: str) -> Result:
    with _in(cwd):
        return CliRunner().invoke(main, list(args))


def _check(cwd: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    """Run ``mcplint check --format json --select SPEC ARGS`` in ``cwd``."""
    result = _invoke(cwd, "check", "--format", "json", "--select", "SPEC", *args)
    assert "Traceback" not in result.stderr, result.stderr
    report = json.loads(result.stdout) if result.stdout.strip() else {}
    return result.exit_code, report, result.stderr


def _linted(report: dict[str, Any]) -> list[str]:
    return sorted(Path(f["file"]).as_posix() for f in report["files"] if f["skipped"] is None)


def _skipped(report: dict[str, Any]) -> list[str]:
    return sorted(Path(f["file"]).as_posix() for f in report["files"]
                  if f["skipped"] is not None)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    _put(tmp_path / "mcp" / "tools.json", GOOD)
    _put(tmp_path / "mcp" / "skip.json", BAD)
    _put(tmp_path / "mcp" / "nested" / "skip.json", BAD)
    _put(tmp_path / ".mcplint.toml", 'extend-exclude = ["mcp/skip.json"]\n')
    return tmp_path


# Globs are anchored at the config's directory, whichever target names the folder.

@pytest.mark.parametrize(("cwd", "target", "expected"), [
    (".", ".", ["mcp/nested/skip.json", "mcp/tools.json"]),
    (".", "mcp", ["mcp/nested/skip.json", "mcp/tools.json"]),
    (".", "mcp/", ["mcp/nested/skip.json", "mcp/tools.json"]),
    ("mcp", ".", ["nested/skip.json", "tools.json"]),
    ("mcp", "../mcp", ["../mcp/nested/skip.json", "../mcp/tools.json"]),
    ("mcp/nested", "..", ["../nested/skip.json", "../tools.json"]),
])
def test_exclude_is_anchored_at_the_config_directory(repo: Path, cwd: str, target: str,
                                                     expected: list[str]) -> None:
    code, report, _ = _check(repo / cwd, target)
    # mcp/skip.json is excluded; mcp/nested/skip.json is not (the pattern has a slash, so it
    # is anchored at the config's folder).
    assert _linted(report) == expected
    assert code == 1  # the nested bad manifest


def test_include_is_anchored_at_the_config_directory(repo: Path) -> None:
    _put(repo / ".mcplint.toml", 'include = ["/mcp/*.json"]\n')
    assert _linted(_check(repo, ".")[1]) == ["mcp/skip.json", "mcp/tools.json"]
    assert _linted(_check(repo, "mcp")[1]) == ["mcp/skip.json", "mcp/tools.json"]
    # The nested folder holds no file the include selects: nothing to lint, said so.
    code, report, _ = _check(repo, "mcp/nested")
    assert code == 2 and _linted(report) == []
    assert 'include globs ("/mcp/*.json")' in report["input_errors"][0]["message"]


def test_overrides_are_anchored_at_the_config_directory(repo: Path) -> None:
    _put(repo / ".mcplint.toml", '[[overrides]]\nfiles = ["mcp/nested/*.json"]\n'
                                 'ignore = ["SPEC004"]\n')
    for cwd, target in ((".", "."), ("mcp", "nested"), ("mcp/nested", "skip.json")):
        _, report, _ = _check(repo / cwd, target)
        flagged = {Path(f["file"]).name + ":" + Path(f["file"]).parent.name
                   for f in report["findings"]}
        assert "skip.json:nested" not in flagged, (cwd, target)
    assert any(Path(f["file"]).as_posix() == "mcp/skip.json"
               for f in _check(repo, ".")[1]["findings"])


# .gitignore

def _ignored_tree(root: Path) -> None:
    (root / ".git").mkdir()  # a work tree: its .gitignore files count below its top
    _put(root / "mcp" / "tools.json", GOOD)
    _put(root / "dist" / "tools.json", BAD)  # a build output
    _put(root / "mcp" / "generated" / "tools.json", BAD)
    _put(root / "mcp" / "local-tools.json", BAD)
    _put(root / "mcp" / "kept-tools.json", GOOD)
    _put(root / ".gitignore", "dist/\n*-tools.json\n!kept-tools.json\n")
    _put(root / "mcp" / ".gitignore", "generated/\n")


def test_gitignore_is_respected_by_default(tmp_path: Path) -> None:
    _ignored_tree(tmp_path)
    code, report, _ = _check(tmp_path, ".")
    assert _linted(report) == ["mcp/kept-tools.json", "mcp/tools.json"]
    assert code == 0
    # The nested .gitignore is anchored at its own folder, also when the target is below it.
    assert _linted(_check(tmp_path / "mcp", ".")[1]) == ["kept-tools.json", "tools.json"]


def test_no_respect_gitignore_flag_and_config_key(tmp_path: Path) -> None:
    _ignored_tree(tmp_path)
    everything = ["dist/tools.json", "mcp/generated/tools.json", "mcp/kept-tools.json",
                  "mcp/local-tools.json", "mcp/tools.json"]
    code, report, _ = _check(tmp_path, "--no-respect-gitignore", ".")
    assert _linted(report) == everything and code == 1
    _put(tmp_path / ".mcplint.toml", "respect-gitignore = false\n")
    assert _linted(_check(tmp_path, ".")[1]) == everything
    # The flag wins over the config.
    assert _linted(_check(tmp_path, "--respect-gitignore", ".")[1]) == [
        "mcp/kept-tools.json", "mcp/tools.json"]


def test_gitignore_up_to_the_repository_and_info_exclude(tmp_path: Path) -> None:
    # A .gitignore above the target counts up to the work tree's top (the folder with .git).
    _put(tmp_path / ".gitignore", "server/mcp/old/\n")
    _put(tmp_path / ".git" / "info" / "exclude", "scratch-*.json\n")
    _put(tmp_path / "server" / "mcp" / "tools.json", GOOD)
    _put(tmp_path / "server" / "mcp" / "old" / "tools.json", BAD)
    _put(tmp_path / "server" / "mcp" / "scratch-tools.json", BAD)
    code, report, _ = _check(tmp_path / "server", "mcp")
    assert _linted(report) == ["mcp/tools.json"] and code == 0


def test_gitignore_does_not_drop_files_named_on_the_command_line(tmp_path: Path) -> None:
    _ignored_tree(tmp_path)
    code, report, _ = _check(tmp_path, "dist/tools.json")
    assert _linted(report) == ["dist/tools.json"] and code == 1


def test_bad_respect_gitignore_value_is_a_config_error(tmp_path: Path) -> None:
    _put(tmp_path / "tools.json", GOOD)
    _put(tmp_path / ".mcplint.toml", 'respect-gitignore = "yes"\n')
    code, _, stderr = _check(tmp_path, ".")
    assert code == 2 and "respect-gitignore: 'yes' is not of type 'boolean'" in stderr


# force-exclude

def test_named_excluded_file_is_linted_without_force_exclude(repo: Path) -> None:
    code, report, _ = _check(repo, "mcp/skip.json")
    assert _linted(report) == ["mcp/skip.json"] and code == 1


def test_force_exclude_flag_keeps_named_files_excluded(repo: Path) -> None:
    code, report, _ = _check(repo, "--force-exclude", "mcp/skip.json", "mcp/tools.json")
    assert _linted(report) == ["mcp/tools.json"] and code == 0
    # From below the config, named by another path: still the same file, still excluded.
    code, report, _ = _check(repo / "mcp", "--force-exclude", "skip.json", "./skip.json")
    assert _linted(report) == [] and report["input_errors"] == [] and code == 0
    # Default excludes too: a package.json named by pre-commit.
    _put(repo / "package.json", {"name": "x"})
    code, report, _ = _check(repo, "--force-exclude", "package.json")
    assert report["files"] == [] and code == 0


def test_force_exclude_config_key_and_the_flag_that_turns_it_off(repo: Path) -> None:
    _put(repo / ".mcplint.toml", 'extend-exclude = ["mcp/skip.json"]\nforce-exclude = true\n')
    code, report, _ = _check(repo, "mcp/skip.json")
    assert _linted(report) == [] and code == 0
    code, report, _ = _check(repo, "--no-force-exclude", "mcp/skip.json")
    assert _linted(report) == ["mcp/skip.json"] and code == 1


def test_force_excluded_file_is_a_verbose_note(repo: Path) -> None:
    result = _invoke(repo, "check", "-v", "--force-exclude", "mcp/skip.json")
    assert result.exit_code == 0
    assert "mcplint: note: mcp/skip.json: not linted: excluded by the exclude globs of" in \
        result.stderr


# Named files that hold no tools

def test_named_non_manifest_is_an_error_alone(tmp_path: Path) -> None:
    _put(tmp_path / "settings.json", {"log": {"level": "info"}})
    code, report, stderr = _check(tmp_path, "settings.json")
    assert code == 2
    assert report["input_errors"][0]["file"] == "settings.json"
    assert "no tools found" in report["input_errors"][0]["message"]
    assert "error: settings.json:1:1: no tools found" in stderr


def test_skip_non_manifests_skips_them_with_a_note(tmp_path: Path) -> None:
    _put(tmp_path / "settings.json", {"log": {"level": "info"}})
    _put(tmp_path / "tools.json", GOOD)
    code, report, stderr = _check(tmp_path, "--skip-non-manifests", "settings.json",
                                  "tools.json")
    assert code == 0
    assert _linted(report) == ["tools.json"] and _skipped(report) == ["settings.json"]
    assert report["input_errors"] == []
    assert "mcplint: note: settings.json: skipped: it holds no tool manifest" in stderr
    # Alone, too: a hook run on a commit that changed only a settings file passes.
    code, report, _ = _check(tmp_path, "--skip-non-manifests", "settings.json")
    assert code == 0 and report["summary"]["skipped"] == 1


def test_skip_non_manifests_still_fails_on_broken_json(tmp_path: Path) -> None:
    _put(tmp_path / "tools.json", '{"tools": [')
    code, report, _ = _check(tmp_path, "--skip-non-manifests", "tools.json")
    assert code == 2 and report["input_errors"][0]["file"] == "tools.json"


# Overlapping targets, empty folders, unreadable files

def test_overlapping_targets_are_linted_once(tmp_path: Path) -> None:
    _put(tmp_path / "examples" / "x.json", BAD)
    (tmp_path / "link.json").symlink_to(tmp_path / "examples" / "x.json")
    code, report, _ = _check(tmp_path, "examples/", "examples/x.json", "./examples/x.json",
                             str(tmp_path / "examples" / "x.json"), "link.json")
    assert [f["file"] for f in report["files"]] == [os.path.join("examples", "x.json")]
    assert [(f["code"], f["tool"]) for f in report["findings"]] == [("SPEC004", "close_ticket")]
    assert code == 1


def test_empty_directory_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    code, report, stderr = _check(tmp_path, "empty")
    assert code == 2
    assert report["input_errors"] == [{
        "file": "empty", "line": None, "column": None,
        "message": 'no files to lint: nothing under this directory matches the include globs '
                   '("**/*.json", "**/*.jsonc") of the default configuration and is not '
                   "excluded or ignored by git"}]
    assert "error: empty: no files to lint" in stderr
    # In the text report too, and the other targets are still linted.
    _put(tmp_path / "tools.json", GOOD)
    result = _invoke(tmp_path, "check", "--no-color", "empty", "tools.json")
    assert result.exit_code == 2
    assert "empty: no files to lint" in result.stdout
    assert "in 1 file (1 tool)" in result.stdout


def test_directory_of_excluded_files_is_an_input_error(repo: Path) -> None:
    _put(repo / "node_modules" / "dep" / "tools.json", GOOD)
    _put(repo / "src" / "node_modules" / "tools.json", GOOD)
    # Under a folder that is linted, what the excludes cover is left out.
    code, report, _ = _check(repo, "src")
    assert code == 2 and "no files to lint" in report["input_errors"][0]["message"]
    # A folder named on the command line is linted, as Ruff does, unless force-exclude is on.
    code, report, _ = _check(repo, "node_modules")
    assert code == 0 and _linted(report) == ["node_modules/dep/tools.json"]
    # With it, the folder is left out as a force-excluded file is: a note, no error.
    code, report, _ = _check(repo, "--force-exclude", "node_modules")
    assert code == 0 and report["files"] == []


def test_unreadable_files_count_once_as_input_errors(tmp_path: Path) -> None:
    _put(tmp_path / "tree" / "tools.json", GOOD)
    _put(tmp_path / "tree" / "broken.json", "{")
    (tmp_path / "tree" / "gone.json").symlink_to(tmp_path / "missing.json")
    _put(tmp_path / "tree" / "other.json", {"name": "not a manifest"})
    code, report, _ = _check(tmp_path, "tree")
    assert code == 2
    assert report["summary"]["skipped"] == 1 and report["summary"]["input_errors"] == 2
    assert _skipped(report) == ["tree/other.json"] and _linted(report) == ["tree/tools.json"]
    assert sorted(Path(e["file"]).name for e in report["input_errors"]) == ["broken.json",
                                                                       "gone.json"]
    result = _invoke(tmp_path, "check", "--no-color", "tree")
    assert ("in 1 file (1 tool). Skipped 1 JSON file that is not a tool manifest. "
            "2 input errors: see above.") in result.stdout


# The pre-commit hook's selection, as pre-commit computes it (tests/test_precommit.py runs
# pre-commit itself).

def _hook() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [h["id"] for h in hooks] == ["mcplint"]
    hook: dict[str, Any] = hooks[0]
    return hook


def _hook_files(hook: dict[str, Any], tree: Path) -> list[str]:
    """The files pre-commit would pass: `files` and `exclude` searched in the path relative to
    the repository, and `types: [text]` (identify: no NUL byte, decodes as UTF-8)."""
    files, exclude = re.compile(hook["files"]), re.compile(hook["exclude"])
    assert hook.get("types") == ["text"] and "types_or" not in hook
    chosen = []
    for path in sorted(tree.rglob("*")):
        name = path.relative_to(tree).as_posix()
        if not path.is_file() or not files.search(name) or exclude.search(name):
            continue
        data = path.read_bytes()
        if b"\0" not in data:
            chosen.append(name)
    return chosen


def test_hook_files_pattern() -> None:
    hook = _hook()
    files, exclude = re.compile(hook["files"]), re.compile(hook["exclude"])

    def passed(name: str) -> bool:
        return bool(files.search(name)) and not exclude.search(name)

    for name in ("mcp/tools.json", "mcp/tools.jsonc", "src/mcp/admin.jsonc", "tools.jsonc",
                 "server.snapshot.json", "x/mcp-tools.JSONC", "mcp/settings.json"):
        assert passed(name), name
    for name in ("package.json", "mcp/package-lock.json", "mcp/tsconfig.build.json",
                 "tsconfig.jsonc", "mcp/tsconfig.json", ".mcp.json", "mcp.json",
                 "mcplint-baseline.json", "mcp/README.md", "tools.json5", "settings.json"):
        assert not passed(name), name
    assert "--skip-non-manifests" in shlex.split(hook["entry"])
    assert "--force-exclude" in shlex.split(hook["entry"])


def _run_entry(hook: dict[str, Any], tree: Path, names: list[str]
               ) -> subprocess.CompletedProcess[str]:
    entry = shlex.split(hook["entry"])
    assert entry[:2] == ["mcplint", "check"]
    return subprocess.run([sys.executable, "-m", "mcplint", *entry[1:], "--select", "SPEC",
                           "--no-color", *names], cwd=tree, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "NO_COLOR": "1"})


def test_hook_entry_on_a_server_repository(tmp_path: Path) -> None:
    tree = tmp_path / "repo"
    shutil.copytree(SERVER_REPO, tree)
    hook = _hook()
    names = _hook_files(hook, tree)
    assert names == ["packages/mcp/admin-tools.jsonc", "packages/mcp/schema/mcp-tools.schema.json",
                     "packages/mcp/settings.json", "packages/mcp/tools.json"]
    result = _run_entry(hook, tree, names)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert re.findall(r"^(\S+:\d+:\d+): SPEC", result.stdout, re.M) == [
        "packages/mcp/admin-tools.jsonc:4:5"]
    assert "Found 1 problem (1 error, 0 warnings, 0 info) in 2 files (2 tools). Skipped 2 JSON " \
        "files that are not tool manifests." in result.stdout
    assert result.stderr.splitlines() == [
        "mcplint: note: packages/mcp/schema/mcp-tools.schema.json: skipped: it holds no tool "
        "manifest",
        "mcplint: note: packages/mcp/settings.json: skipped: it holds no tool manifest"]
    # Without the bad manifest the hook passes.
    result = _run_entry(hook, tree, [n for n in names if not n.endswith("admin-tools.jsonc")])
    assert result.returncode == 0, result.stdout + result.stderr


def test_hook_entry_honours_the_config_exclude(tmp_path: Path) -> None:
    # A config's extend-exclude keeps a file out even when pre-commit names it.
    tree = tmp_path / "repo"
    shutil.copytree(SERVER_REPO, tree)
    _put(tree / ".mcplint.toml", 'extend-exclude = ["packages/mcp/admin-tools.jsonc"]\n')
    hook = _hook()
    result = _run_entry(hook, tree, _hook_files(hook, tree))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "in 1 file (1 tool)" in result.stdout


def test_server_repository_checked_as_a_directory(tmp_path: Path) -> None:
    code, report, _ = _check(SERVER_REPO, ".")
    assert _linted(report) == ["packages/mcp/admin-tools.jsonc", "packages/mcp/tools.json"]
    assert _skipped(report) == ["packages/mcp/schema/mcp-tools.schema.json",
                                "packages/mcp/settings.json"]
    assert [f["code"] for f in report["findings"]] == ["SPEC004"]
    assert code == 1


def test_fix_selects_files_as_the_lint_does(repo: Path) -> None:
    # --fix must not write to a file the lint leaves out.
    example = (ROOT / "examples" / "support-desk.json").read_text(encoding="utf-8")
    skip = _put(repo / "mcp" / "skip.json", example)
    result = _invoke(repo, "check", "--fix", "--force-exclude", "mcp/skip.json")
    assert result.exit_code == 0, result.output
    assert skip.read_text(encoding="utf-8") == example
    _invoke(repo, "check", "--fix", "mcp/skip.json")
    assert skip.read_text(encoding="utf-8") != example


def test_a_named_folder_inside_an_excluded_one_is_linted(tmp_path: Path) -> None:
    # The default exclude covers hidden folders (.github/); naming .github/mcp/ asks for it.
    _put(tmp_path / "mcplint.toml", "")
    _put(tmp_path / ".github" / "mcp" / "tools.json", GOOD)
    _put(tmp_path / ".github" / "mcp" / "node_modules" / "x" / "tools.json", GOOD)
    code, report, _ = _check(tmp_path, ".github/mcp")
    assert code == 0
    assert _linted(report) == [".github/mcp/tools.json"]
    # Found by walking from the top, it stays excluded; with force-exclude, even when named.
    code, report, _ = _check(tmp_path, ".")
    assert code == 2 and report["files"] == []
    code, report, _ = _check(tmp_path, "--force-exclude", ".github/mcp")
    assert code == 0 and report["files"] == []
