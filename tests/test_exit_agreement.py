"""Every format of check and diff agrees with the exit code: a finding or change that makes
the exit code 1 is a failure (JUnit <failure>, JSON and SARIF counts, the Markdown verdict);
the others are not.  Through the real command line, on the bundled example and the diff
fixtures."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "examples" / "support-desk.json")
OLD = str(ROOT / "fixtures" / "diff" / "old.json")
NEW = str(ROOT / "fixtures" / "diff" / "new.json")
RANK = {"info": 1, "warning": 2, "error": 3}
CATEGORY = {"drift": 1, "risky": 2, "breaking": 3}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout


def _junit_counts(xml: str) -> tuple[int, int, int]:
    root = ET.fromstring(xml)
    failures = len(list(root.iter("failure")))
    assert int(root.get("failures", "-1")) == failures
    return int(root.get("tests", "0")), failures, int(root.get("errors", "0"))


@pytest.mark.parametrize(("fail_on", "extra"), [
    ("error", ()), ("warning", ()), ("info", ()), ("never", ()), ("warning", ("--exit-zero",)),
])
def test_check_formats_agree_with_the_exit_code(fail_on: str, extra: tuple[str, ...]) -> None:
    args = ("check", EXAMPLE, "--fail-on", fail_on, *extra)
    code, out = _run(*args, "--format", "json")
    report = json.loads(out)
    severities = [f["severity"] for f in report["findings"]]
    assert len(severities) == 17
    failing = (0 if fail_on == "never" or extra
               else sum(1 for s in severities if RANK[s] >= RANK[fail_on]))
    assert code == (1 if failing else 0)
    assert report["summary"]["failures"] == failing
    assert report["summary"]["exit_code"] == code

    junit_code, junit = _run(*args, "--format", "junit")
    assert junit_code == code
    tests, failures, errors = _junit_counts(junit)
    # A testcase a finding, and one for the tool with none.
    assert (tests, failures, errors) == (18, failing, 0)

    sarif_code, sarif = _run(*args, "--format", "sarif")
    invocation = json.loads(sarif)["runs"][0]["invocations"][0]
    assert sarif_code == code and invocation["exitCode"] == code
    assert invocation["properties"]["failures"] == failing

    md_code, markdown = _run(*args, "--format", "markdown")
    assert md_code == code
    assert ("**Failed** (exit code 1)" in markdown) == bool(failing)
    assert ("**Passed**" in markdown) == (not failing)

    gh_code, github = _run(*args, "--format", "github")
    assert gh_code == code
    assert github.rstrip().endswith(f"; {failing} fail the run "
                                    f"({'--exit-zero' if extra else '--fail-on ' + fail_on})")


def test_the_configured_fail_on_is_the_one_reported(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".mcplint.toml").write_text('fail-on = "warning"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, junit = _run("check", EXAMPLE, "--format", "junit")
    assert code == 1 and _junit_counts(junit)[1] == 9  # 2 errors and 7 warnings


@pytest.mark.parametrize("fail_on", ["breaking", "risky", "drift", "never"])
def test_diff_formats_agree_with_the_exit_code(fail_on: str) -> None:
    args = ("diff", OLD, NEW, "--fail-on", fail_on)
    code, out = _run(*args, "--format", "json")
    data = json.loads(out)
    changes = data["changes"]
    assert len(changes) == 12
    failing = (0 if fail_on == "never"
               else sum(1 for c in changes if CATEGORY[c["category"]] >= CATEGORY[fail_on]))
    assert code == (1 if failing else 0)
    assert (data["fail_on"], data["failures"], data["exit_code"]) == (fail_on, failing, code)

    junit_code, junit = _run(*args, "--format", "junit")
    assert junit_code == code
    assert _junit_counts(junit) == (12, failing, 0)  # no tool of new.json is unchanged

    sarif_code, sarif = _run(*args, "--format", "sarif")
    assert sarif_code == code
    assert json.loads(sarif)["runs"][0]["invocations"][0]["exitCode"] == code

    md_code, markdown = _run(*args, "--format", "markdown")
    assert md_code == code and ("**Failed**" in markdown) == bool(failing)


def test_the_installed_command_agrees_too(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mcplint", "diff", OLD, NEW, "--format",
                          "junit"], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1
    root = ET.fromstring(run.stdout)
    assert (root.get("tests"), root.get("failures")) == ("12", "6")
