"""The composite GitHub Action: valid metadata, and its steps' scripts run for real.

Each step's script runs under bash with its `env:` expressions filled in the way the runner
would (inputs, github.action_path, runner.temp and runner.os, the outputs of the steps that
use other actions: empty here) and with the runner's files (GITHUB_PATH, GITHUB_OUTPUT,
GITHUB_STEP_SUMMARY) in a temporary folder, in the step's working-directory.  The install
step builds a virtualenv and installs mcplint from the action's path, as on a runner.
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
EXPRESSION = re.compile(r"\$\{\{\s*(inputs|github|runner|steps)\.([\w.-]+)\s*\}\}")


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


def test_inputs_outputs_and_steps() -> None:
    action = _action()
    assert set(action["inputs"]) == {
        "targets", "args", "format", "fail-on", "config", "baseline", "working-directory",
        "python-version", "version", "sarif-file", "upload-sarif", "category"}
    assert {"errors", "warnings", "info", "findings", "failures", "exit-code",
            "sarif-file"} <= set(action["outputs"])
    assert action["runs"]["using"] == "composite"
    upload = _step("Upload SARIF")
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert "inputs.upload-sarif == 'true'" in upload["if"]
    assert upload["with"]["category"] == "${{ inputs.category }}"
    python = _step("Set up Python")
    assert python["uses"].startswith("actions/setup-python@")
    assert python["with"]["python-version"] == "${{ inputs.python-version }}"
    cache = _step("Cache mcplint")
    assert cache["uses"].startswith("actions/cache@")
    assert cache["with"]["key"] == "${{ steps.key.outputs.key }}"
    assert _step("Install mcplint")["if"] == "steps.cache.outputs.cache-hit != 'true'"
    # No step pastes an expression into its script, where an input could inject commands.
    for step in action["runs"]["steps"]:
        assert "${{" not in step.get("run", "")
    # mcplint lints once: every report comes from that one run.
    scripts = "\n".join(step.get("run", "") for step in action["runs"]["steps"])
    assert scripts.count("mcplint check") == 1


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
        values: dict[str, dict[str, str]] = {
            "inputs": {**defaults, **inputs}, "github": {"action_path": str(ROOT)},
            "runner": {"temp": str(self.temp), "os": "Linux"},
            "steps": {"python.outputs.python-version": "3.x",
                      "python.outputs.python-path": ""}}
        step = _step(name)
        env = {key: EXPRESSION.sub(lambda m: values[m.group(1)][m.group(2)], str(value))
               for key, value in step.get("env", {}).items()}
        cwd = workspace / EXPRESSION.sub(lambda m: values[m.group(1)][m.group(2)],
                                         str(step.get("working-directory", ".")))
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
                               step["run"]], cwd=cwd, env=environ, capture_output=True,
                              text=True, timeout=600)

    def outputs(self) -> dict[str, str]:
        lines = (self.base / "github_output").read_text().splitlines()
        return dict(line.split("=", 1) for line in lines if "=" in line)


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
    keyed = runner.run("Cache key", runner.base)
    assert keyed.returncode == 0, keyed.stderr
    key = runner.outputs()["key"]
    assert re.fullmatch(r"mcplint-venv-Linux-py3\.x-[0-9a-f]{16}", key)
    assert runner.run("Cache key", runner.base).returncode == 0
    assert runner.outputs()["key"] == key  # the same files, the same key
    runner.run("Cache key", runner.base, version="0.2.0")
    assert runner.outputs()["key"] == "mcplint-venv-Linux-py3.x-release-0.2.0"
    added = runner.path_file.read_text().split()
    assert added and Path(added[0]).parent == runner.temp / "mcplint-venv"
    assert any((Path(added[0]) / name).exists() for name in ("mcplint", "mcplint.exe"))


def test_one_run_writes_the_log_the_sarif_and_the_counts(runner: Runner,
                                                         workspace: Path) -> None:
    (runner.base / "summary.md").unlink(missing_ok=True)
    result = runner.run("Lint", workspace, targets="mcp")
    assert result.returncode == 1
    assert result.stdout.startswith("::error file=mcp/desk.json,line=9,col=22,title=SPEC007 ")
    summary = (runner.base / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## mcplint\n")
    sarif = json.loads((workspace / "mcplint.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == {"mcp/desk.json"}
    outputs = runner.outputs()
    # The counts are the SARIF's and the log's: the same run wrote all three.
    levels = [r["level"] for r in results]
    assert outputs == {"exit-code": "1", "sarif-file": "mcplint.sarif",
                       "findings": str(len(results)), "errors": str(levels.count("error")),
                       "warnings": str(levels.count("warning")),
                       "info": str(levels.count("note")),
                       "failures": str(levels.count("error"))}
    assert outputs["errors"] == "2"
    assert result.stdout.count("::error ") == 2
    relaxed = runner.run("Lint", workspace, targets="mcp", **{"fail-on": "never"})
    assert relaxed.returncode == 0
    assert runner.outputs()["exit-code"] == "0" and runner.outputs()["failures"] == "0"


def test_no_sarif_file_when_asked_for_none(runner: Runner, workspace: Path) -> None:
    result = runner.run("Lint", workspace, targets="mcp", **{"sarif-file": ""})
    assert result.returncode == 1
    assert not (workspace / "mcplint.sarif").exists()
    assert "sarif-file" not in runner.outputs() and runner.outputs()["errors"] == "2"


def test_baseline_and_args_inputs(runner: Runner, workspace: Path) -> None:
    written = runner.run("Lint", workspace, targets="mcp",
                         args="--write-baseline mcplint-baseline.json")
    assert written.returncode == 0, written.stderr
    result = runner.run("Lint", workspace, targets="mcp", baseline="mcplint-baseline.json")
    assert result.returncode == 0, result.stderr
    assert runner.outputs()["findings"] == "0"
    narrowed = runner.run("Lint", workspace, targets="mcp", args="--select SPEC004",
                          config="", **{"format": "concise"})
    assert narrowed.returncode == 1
    assert "SPEC004" in narrowed.stdout and "SPEC007" not in narrowed.stdout
    assert runner.outputs()["findings"] == "1"


def test_working_directory_keeps_paths_relative_to_the_repository(runner: Runner,
                                                                  workspace: Path) -> None:
    server = workspace / "servers" / "desk"
    server.mkdir(parents=True)
    (workspace / "mcp" / "desk.json").rename(server / "tools.json")
    (workspace / "mcplint.toml").rename(server / "mcplint.toml")
    result = runner.run("Lint", workspace, targets="tools.json",
                        **{"working-directory": "servers/desk"})
    assert result.returncode == 1, result.stderr
    # Annotations and SARIF name the file from the repository root, as GitHub needs.
    assert "::error file=servers/desk/tools.json,line=9" in result.stdout
    outputs = runner.outputs()
    assert outputs["sarif-file"] == "servers/desk/mcplint.sarif"
    sarif = json.loads((workspace / outputs["sarif-file"]).read_text(encoding="utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]}
    assert uris == {"servers/desk/tools.json"}


def test_config_input_and_hostile_targets(runner: Runner, workspace: Path) -> None:
    (workspace / "only-names.toml").write_text('select = ["NAME"]\n',
                                               encoding="utf-8")
    result = runner.run("Lint", workspace, targets="mcp", config="only-names.toml")
    assert "title=NAME002 " in result.stdout and "SPEC007" not in result.stdout
    hostile = runner.run("Lint", workspace, targets="mcp/desk.json; touch pwned $(touch pwned2)",
                         args="$(touch pwned3) `touch pwned4`")
    for name in ("pwned", "pwned2", "pwned3", "pwned4"):
        assert not (workspace / name).exists()
    assert hostile.returncode == 2  # "touch" and "pwned" are just missing files to mcplint
