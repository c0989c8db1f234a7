"""`check --fix -` fixes standard input as `ruff check --fix -` does (the fixed document on
standard output, the report on standard error), and `mcplint report` takes --baseline as
check does."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "support-desk.json"
MCPLINT = [sys.executable, "-m", "mcplint"]


def _mcplint(*args: str, cwd: Path, stdin: str | None = None
             ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MCPLINT, *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env=_env())


def _env() -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}


def test_fix_stdin_writes_what_fix_writes_to_the_file(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    piped = _mcplint("check", "--fix", "-", cwd=tmp_path, stdin=text)
    shutil.copy(EXAMPLE, tmp_path / "desk.json")
    on_disk = _mcplint("check", "--fix", "desk.json", cwd=tmp_path)
    fixed = (tmp_path / "desk.json").read_text(encoding="utf-8")
    assert fixed != text  # the example has safe fixes
    assert piped.stdout == fixed  # standard output is the fixed document, and only that
    json.loads(piped.stdout)
    # What is left is reported on standard error, as for the file, and decides the exit code.
    assert piped.returncode == on_disk.returncode == 1
    assert "Fixed 1 problem in 1 file." in piped.stderr
    left = [line for line in piped.stderr.splitlines() if line.startswith("<stdin>:")]
    assert len(left) == len([line for line in on_disk.stdout.splitlines()
                             if line.startswith("desk.json:")]) > 0
    assert "[*]" not in "\n".join(left)  # the fixable finding is gone


def test_fix_stdin_with_a_machine_format_keeps_stdout_the_document(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    run = _mcplint("check", "--fix", "-", "--format", "json", "--stdin-filename",
                   "mcp/desk.json", cwd=tmp_path, stdin=text)
    assert json.loads(run.stdout)["tools"]  # the manifest, fixed
    report = json.loads(run.stderr[:run.stderr.rindex("}") + 1])
    assert report["findings"] and all(f["file"] == "mcp/desk.json" for f in report["findings"])
    to_file = _mcplint("check", "--fix", "-", "--format", "sarif", "-o", "out.sarif",
                       cwd=tmp_path, stdin=text)
    assert to_file.stdout == run.stdout
    assert json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))["runs"]


def test_fix_stdin_leaves_text_it_cannot_parse_as_it_was(tmp_path: Path) -> None:
    run = _mcplint("check", "--fix", "-", cwd=tmp_path, stdin='{"tools": [')
    assert run.returncode == 2
    assert run.stdout == '{"tools": ['
    assert "invalid JSON" in run.stderr


def test_with_other_targets_standard_input_is_linted_not_fixed(tmp_path: Path) -> None:
    shutil.copy(EXAMPLE, tmp_path / "desk.json")
    text = EXAMPLE.read_text(encoding="utf-8")
    run = _mcplint("check", "--fix", "--format", "json", "-", "desk.json", cwd=tmp_path,
                   stdin=text)
    assert "not standard input (linted as usual)" in run.stderr
    assert (tmp_path / "desk.json").read_text(encoding="utf-8") != text  # the file is fixed
    report = json.loads(run.stdout)  # standard output is the report, not a document
    assert {f["file"] for f in report["findings"]} == {"<stdin>", "desk.json"}


@pytest.fixture
def desk(tmp_path: Path) -> Path:
    shutil.copy(EXAMPLE, tmp_path / "desk.json")
    return tmp_path


def test_report_takes_a_baseline(desk: Path) -> None:
    written = _mcplint("check", "desk.json", "--write-baseline", "baseline.json", cwd=desk)
    assert written.returncode == 0 and (desk / "baseline.json").is_file()
    full = _mcplint("report", "desk.json", "-o", "full.html", cwd=desk)
    assert "Wrote full.html: 17 findings in 5 tools." in full.stderr
    run = _mcplint("report", "desk.json", "--baseline", "baseline.json", "-o", "new.html",
                   cwd=desk)
    assert run.returncode == 0
    assert "Wrote new.html: 0 findings in 5 tools." in run.stderr
    assert "17 findings are in the baseline" in run.stderr
    # A finding that is new since the baseline is reported, and --fail-on fails on it.
    data = json.loads((desk / "desk.json").read_text(encoding="utf-8"))
    data["tools"].append({"name": "wipe_everything", "description": "Delete every ticket.",
                          "inputSchema": {"type": "object"}})
    (desk / "desk.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    newer = _mcplint("report", "desk.json", "--baseline", "baseline.json", "-o", "new.html",
                     "--fail-on", "error", cwd=desk)
    assert newer.returncode == 1
    written_line = next(line for line in newer.stderr.splitlines() if line.startswith("Wrote"))
    assert "0 findings" not in written_line
    html = (desk / "new.html").read_text(encoding="utf-8")
    assert "wipe_everything" in html and "SAFE001" in html


def test_report_with_a_missing_baseline_is_an_error(desk: Path) -> None:
    run = _mcplint("report", "desk.json", "--baseline", "nope.json", "-o", "r.html", cwd=desk)
    check = _mcplint("check", "desk.json", "--baseline", "nope.json", cwd=desk)
    assert run.returncode == check.returncode == 2  # as check: no such baseline file
    assert run.stderr == check.stderr and "nope.json: no such baseline file" in run.stderr
    assert not (desk / "r.html").exists()
