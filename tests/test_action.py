"""The composite GitHub Action: valid metadata, and its steps' scripts run for real.

Each step's script runs under bash with its `env:` expressions filled in the way the runner
would (inputs, github.action_path, runner.temp) and with the runner's files (GITHUB_PATH,
GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) in a temporary folder.  The install step builds a
virtualenv and installs mcplint from the action's path, as on a runner.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit: pip install -e '.[dev]'")

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / "action.yml"
BASH = shutil.which("bash")
SERVER = ROOT / "fixtures" / "baseline" / "server.json"
EXPRESSION = re.compile(r"\$\{\{\s*(inputs|github|runner)\.([\w-]+)\s*\}\}")


def _action() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    return data


def _step(name: str) -> dict[str, Any]:
    steps: list[dict[str, Any]] = _action()["runs"]["steps"]
    return next(step for step in steps if step["name"] == name)


@pytest.mark.skipif(shutil.which("check-jsonschema") is None,
                    reason="needs check-jsonschema (pip install -e '.[dev]')")
def test_metadata_validates_against_the_github_actions_schema() -> None:
    result = subprocess.run(["check-jsonschema", "--builtin-schema", "vendor.github-actions",
                             str(ACTION)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_inputs_and_steps() -> None:
    action = _action()
    assert set(action["inputs"]) == {"targets", "format", "fail-on", "config", "sarif-file",
                                     "upload-sarif"}
    assert action["runs"]["using"] == "composite"
    upload = _step("Upload SARIF")
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert "inputs.upload-sarif == 'true'" in upload["if"]
    # No step pastes an expression into its script, where an input could inject commands.
    for step in action["runs"]["steps"]:
        assert "${{" not in step.get("run", "")


class Runner:
    """The bits of a GitHub runner a composite step's shell script sees."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.temp = base / "runner-temp"
        self.temp.mkdir()
        self.path_file = base / "github_path"
        self.path_file.touch()

    def run(self, name: str, workspace: Path, **inputs: str) -> subprocess.CompletedProcess[str]:
        assert BASH is not None
        defaults = {key: str(spec.get("default", "")) for key, spec in
                    _action()["inputs"].items()}
        values = {"inputs": {**defaults, **inputs},
                  "github": {"action_path": str(ROOT)}, "runner": {"temp": str(self.temp)}}
        step = _step(name)
        env = {key: EXPRESSION.sub(lambda m: values[m.group(1)][m.group(2)], str(value))
               for key, value in step.get("env", {}).items()}
        added = [line for line in self.path_file.read_text().splitlines() if line]
        output = self.base / "github_output"
        output.write_text("")
        environ = {
            **os.environ, **env,
            "PATH": os.pathsep.join([*added, os.environ["PATH"]]),
            "GITHUB_PATH": str(self.path_file), "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(self.base / "summary.md"),
            "GITHUB_WORKSPACE": str(workspace),
        }
        environ.pop("PYTHONPATH", None)
        return subprocess.run([BASH, "--noprofile", "--norc", "-eo", "pipefail", "-c",
                               step["run"]], cwd=workspace, env=environ, capture_output=True,
                              text=True, timeout=600)


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Runner:
    if BASH is None:
        pytest.skip("needs bash")
    runner = Runner(tmp_path_factory.mktemp("action"))
    installed = runner.run("Install mcplint", runner.base)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return runner


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "mcp").mkdir()
    (tmp_path / "mcp" / "desk.json").write_text(SERVER.read_text(encoding="utf-8"),
                                                encoding="utf-8")
    (tmp_path / "mcplint.toml").write_text('select = ["SPEC"]\n', encoding="utf-8")
    return tmp_path


def test_install_puts_mcplint_on_the_path(runner: Runner) -> None:
    added = runner.path_file.read_text().split()
    assert added and Path(added[0]).parent == runner.temp / "mcplint-venv"
    assert any((Path(added[0]) / name).exists() for name in ("mcplint", "mcplint.exe"))


def test_sarif_step_writes_the_file_and_output(runner: Runner, workspace: Path) -> None:
    result = runner.run("Write SARIF", workspace, targets="mcp")
    assert result.returncode == 0, result.stderr
    sarif = json.loads((workspace / "mcplint.sarif").read_text(encoding="utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]}
    assert uris == {"mcp/desk.json"}
    assert (runner.base / "github_output").read_text() == "file=mcplint.sarif\n"


def test_lint_step_annotates_summarises_and_fails(runner: Runner, workspace: Path) -> None:
    (runner.base / "summary.md").unlink(missing_ok=True)
    result = runner.run("Lint", workspace, targets="mcp")
    assert result.returncode == 1
    assert result.stdout.startswith("::error file=mcp/desk.json,line=9,col=22,title=SPEC007 ")
    summary = (runner.base / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## mcplint\n")
    relaxed = runner.run("Lint", workspace, targets="mcp", **{"fail-on": "never"})
    assert relaxed.returncode == 0


def test_config_input_and_hostile_targets(runner: Runner, workspace: Path) -> None:
    (workspace / "only-names.toml").write_text('select = ["NAME"]\n',
                                               encoding="utf-8")
    result = runner.run("Lint", workspace, targets="mcp", config="only-names.toml")
    assert "title=NAME002 " in result.stdout and "SPEC007" not in result.stdout
    hostile = runner.run("Lint", workspace, targets="mcp/desk.json; touch pwned $(touch pwned2)")
    assert not (workspace / "pwned").exists() and not (workspace / "pwned2").exists()
    assert hostile.returncode == 2  # "touch" and "pwned" are just missing files to mcplint
