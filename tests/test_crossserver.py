"""Cross-server rules: a client config linted live, and the server-set file dump writes for it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.run import run

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "fixtures" / "servers"


def write_config(folder: Path, **servers: str) -> Path:
    config = folder / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        name: {"command": sys.executable, "args": [str(SERVERS / script)]}
        for name, script in servers.items()}}, indent=2))
    return config


def located(findings: list[dict[str, Any]], prefix: str) -> list[tuple[str, str, str, int]]:
    return [(f["code"], f["file"], f["pointer"], f["line"]) for f in findings
            if f["code"].startswith(prefix)]


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def test_config_lints_every_server_with_cross_server_findings(runner: CliRunner,
                                                              tmp_path: Path) -> None:
    pytest.importorskip("mcp", reason="live tests need the MCP SDK")
    config = write_config(tmp_path, accounts="defective_server.py",
                          legacy="defective_server.py", notes="good_server.py")
    result = runner.invoke(main, ["check", str(config), "--allow-exec", "--format", "json"])
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["input_errors"] == []
    assert sorted(f["file"] for f in report["files"]) == [
        f"{config}#accounts", f"{config}#legacy", f"{config}#notes"]
    legacy = f"{config}#legacy"
    assert located(report["findings"], "XSRV") == [
        ("XSRV001", legacy, "/tools/0/name", 12),
        ("XSRV001", legacy, "/tools/1/name", 31),
        ("XSRV001", legacy, "/tools/2/name", 50),
    ]
    # Each server's own findings are still there, located in its own snapshot.
    assert ("SPEC011", f"{config}#accounts", "/tools/0/annotations/readonlyHint", 27) in \
        located(report["findings"], "SPEC")
    assert ("SPEC011", legacy, "/tools/0/annotations/readonlyHint", 27) in \
        located(report["findings"], "SPEC")


def test_one_failing_server_does_not_stop_the_config(runner: CliRunner, tmp_path: Path) -> None:
    pytest.importorskip("mcp", reason="live tests need the MCP SDK")
    config = write_config(tmp_path, accounts="defective_server.py", broken="fault_exits.py")
    result = runner.invoke(main, ["check", str(config), "--allow-exec", "--format", "json",
                                  "--timeout", "10"])
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    assert [f["file"] for f in report["files"]] == [f"{config}#accounts"]
    [error] = report["input_errors"]
    assert error["file"] == f"{config}#broken"
    assert "ACCOUNTS_API_KEY is not set" in error["message"]


def test_dumped_server_set_gives_the_same_cross_server_findings(runner: CliRunner,
                                                                tmp_path: Path) -> None:
    pytest.importorskip("mcp", reason="live tests need the MCP SDK")
    config = write_config(tmp_path, accounts="defective_server.py",
                          legacy="defective_server.py")
    dumped = runner.invoke(main, ["dump", str(config), "--allow-exec", "-o", "set.json"])
    assert dumped.exit_code == 0, dumped.stderr
    data = json.loads((tmp_path / "set.json").read_text())
    assert list(data["servers"]) == ["accounts", "legacy"]
    report = run([str(tmp_path / "set.json")])
    assert report.errors == ()
    assert [(f.code, f.file, f.pointer, f.tool) for f in report.findings
            if f.code.startswith("XSRV")] == [
        ("XSRV001", f"{tmp_path / 'set.json'}#legacy", "/servers/legacy/tools/0/name",
         "get_user"),
        ("XSRV001", f"{tmp_path / 'set.json'}#legacy", "/servers/legacy/tools/1/name",
         "get_users"),
        ("XSRV001", f"{tmp_path / 'set.json'}#legacy", "/servers/legacy/tools/2/name",
         "delete_user"),
    ]


def test_a_server_set_is_linted_per_server(tmp_path: Path) -> None:
    # The same tool name on two servers is a cross-server finding, not a per-server duplicate.
    path = tmp_path / "set.json"
    tool = {"name": "get_user", "description": "Read one user account by id: name, email.",
            "inputSchema": {"type": "object"}}
    path.write_text(json.dumps({"servers": {"a": {"tools": [tool]}, "b": {"tools": [tool]}}}))
    report = run([str(path)])
    assert [(f.code, f.file) for f in report.findings if f.code.startswith(("SPEC", "XSRV"))] \
        == [("XSRV001", f"{path}#b")]
    assert [(f.file, f.tools) for f in report.files] == [(str(path), 2)]


def test_too_many_tools_across_servers(tmp_path: Path) -> None:
    def server(prefix: str, count: int) -> dict[str, Any]:
        return {"tools": [{"name": f"{prefix}_{n}", "description": f"Tool {n} of {prefix}.",
                           "inputSchema": {"type": "object"}} for n in range(count)]}

    path = tmp_path / "set.json"
    path.write_text(json.dumps({"servers": {"a": server("alpha", 15), "b": server("beta", 18),
                                            "c": server("gamma", 12)}}))
    report = run([str(path)])
    [finding] = [f for f in report.findings if f.code == "XSRV003"]
    assert (finding.file, finding.pointer, finding.severity.label) == (
        f"{path}#b", "/servers/b/tools", "warning")
    assert "The 3 servers of this config expose 45 tools together (more than 40): b 18, a 15, " \
           "c 12." in finding.message
    # No per-server count rule fires: each server alone is under its limit.
    assert not [f for f in report.findings if f.code == "COST001"]
