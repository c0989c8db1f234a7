"""Live servers over stdio and streamable HTTP: real SDK servers and real processes, no mocks."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("mcp", reason="live tests need the MCP SDK: pip install -e '.[dev]'")

from mcplint.cli import main
from mcplint.findings import Severity
from mcplint.live.loading import LiveOptions
from mcplint.live.targets import command_line_targets
from mcplint.run import run

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "fixtures" / "servers"
PY = sys.executable


def server(name: str) -> str:
    return f"{PY} {SERVERS / name}"


def lint(*stdio: str, http: tuple[str, ...] = (), timeout: float = 20) -> Any:
    targets = command_line_targets(stdio, http, ())
    return run([], live=LiveOptions(tuple(targets), timeout=timeout))


def findings(report: Any, file: str, prefixes: tuple[str, ...] = ("SPEC", "NAME")
             ) -> list[tuple[str, str | None, str, int]]:
    return [(f.code, f.tool, f.pointer, f.line) for f in report.findings
            if f.file == file and f.code.startswith(prefixes)]


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    """The well-written server over streamable HTTP on a free loopback port."""
    port = free_port()
    process = subprocess.Popen([PY, str(SERVERS / "good_server.py"), "--http", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    pytest.fail("the HTTP fixture server did not start")
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_defective_server_reports_its_planted_defects_over_stdio() -> None:
    report = lint(server("defective_server.py"))
    assert report.errors == ()
    assert findings(report, "defective_server.py") == [
        ("SPEC011", "get_user", "/tools/0/annotations/readonlyHint", 27),
        ("NAME001", "get_users", "/tools/1/name", 31),
        ("SPEC004", "delete_user", "/tools/2", 49),
        ("SPEC007", "delete_user", "/tools/2/inputSchema/required/0", 59),
    ]


def test_unknown_annotation_key_survives_the_sdk() -> None:
    # The SDK's ToolAnnotations model would drop "readonlyHint"; the raw capture keeps it.
    report = lint(server("defective_server.py"))
    spec011 = [f for f in report.findings if f.code == "SPEC011"]
    assert [f.message.split(";")[0] for f in spec011] == [
        'Tool "get_user" has the annotation "readonlyHint", which MCP does not define']


def test_well_written_server_has_no_warnings() -> None:
    report = lint(server("good_server.py"))
    assert report.errors == ()
    assert [(f.code, f.tool) for f in report.findings if f.severity >= Severity.WARNING] == []
    assert [(f.file, f.tools, f.server) for f in report.files] == [("good_server.py", 2, "notes")]


def test_pagination_is_followed_to_the_end_in_order() -> None:
    report = lint(server("paginated_server.py"))
    assert report.errors == ()
    [summary] = report.files
    assert [t.name for t in summary.tool_details] == [f"read_sensor_{n}" for n in range(1, 6)]


def test_streamable_http_sees_what_stdio_sees(http_url: str) -> None:
    over_http = lint(http=(http_url,))
    over_stdio = lint(server("good_server.py"))
    assert over_http.errors == ()
    [via_http], [via_stdio] = over_http.files, over_stdio.files
    assert via_http.file == http_url
    assert via_http.tool_details == via_stdio.tool_details


def test_cli_mixes_live_and_file_targets_and_locates_by_server_name(runner: CliRunner) -> None:
    example = ROOT / "examples" / "support-desk.json"
    result = runner.invoke(main, ["check", "--format", "json", "--select", "SPEC011",
                                  str(example), "--stdio", server("defective_server.py")])
    assert result.exit_code == 0  # SPEC011 is a warning; the default --fail-on is error
    report = json.loads(result.stdout)
    assert [(f["file"], f["pointer"], f["line"]) for f in report["findings"]] == [
        (str(example), "/tools/2/annotations/readonlyHint", 33),
        ("defective_server.py", "/tools/0/annotations/readonlyHint", 27),
    ]


def test_dump_is_deterministic_and_check_reads_it_back(runner: CliRunner, tmp_path: Path
                                                       ) -> None:
    first = runner.invoke(main, ["dump", "--stdio", server("defective_server.py")])
    second = runner.invoke(main, ["dump", "--stdio", server("defective_server.py"),
                                  "-o", "snap.json"])
    assert first.exit_code == 0 and second.exit_code == 0
    written = (tmp_path / "snap.json").read_text(encoding="utf-8")
    assert first.stdout == written
    snapshot = json.loads(written)
    assert list(snapshot) == ["protocolVersion", "serverInfo", "capabilities", "tools"]
    assert snapshot["tools"][0]["annotations"] == {"readonlyHint": True}
    # The static lint of the committed snapshot points at the same lines as the live lint.
    static = run([str(tmp_path / "snap.json")])
    live = lint(server("defective_server.py"))
    assert findings(static, str(tmp_path / "snap.json"), ("",)) and [
        (c, t, p, n) for c, t, p, n in findings(static, str(tmp_path / "snap.json"), ("",))
    ] == findings(live, "defective_server.py", ("",))


def test_dump_of_several_servers_needs_a_directory(runner: CliRunner, tmp_path: Path) -> None:
    refused = runner.invoke(main, ["dump", "--stdio", server("good_server.py"),
                                   "--stdio", server("paginated_server.py")])
    assert refused.exit_code == 2
    assert "-o SET.json" in refused.stderr
    done = runner.invoke(main, ["dump", "--stdio", server("good_server.py"),
                                "--stdio", server("paginated_server.py"), "-o", "snaps"])
    assert done.exit_code == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "snaps").iterdir()) == [
        "good_server.py.json", "paginated_server.py.json"]
    good = json.loads((tmp_path / "snaps" / "good_server.py.json").read_text())
    assert [p["name"] for p in good["prompts"]] == ["summarize_notes"]
    assert [r["uri"] for r in good["resources"]] == ["notes://index"]


def test_strict_server_gets_no_null_params_and_no_templates_is_none(runner: CliRunner
                                                                     ) -> None:
    """A TypeScript-SDK-like server rejects "params": null and has no resource templates."""
    done = runner.invoke(main, ["dump", "--stdio", server("strict_server.py")])
    assert done.exit_code == 0, done.stderr
    snapshot = json.loads(done.stdout)
    assert [t["name"] for t in snapshot["tools"]] == ["get_invoice"]
    assert [r["uri"] for r in snapshot["resources"]] == ["invoices://recent"]
    assert "resourceTemplates" not in snapshot


def test_published_time_server_snapshot_equals_what_it_serves() -> None:
    """mcp-server-time, from PyPI: the snapshot holds exactly the tools the SDK client sees."""
    pytest.importorskip("mcp_server_time", reason="pip install mcp-server-time (a dev extra)")
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=PY, args=["-m", "mcp_server_time"])

    async def listed() -> list[dict[str, Any]]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.list_tools()
            return [t.model_dump(by_alias=True, exclude_none=True, mode="json")
                    for t in result.tools]

    served = anyio.run(listed)
    runner = CliRunner()
    result = runner.invoke(main, ["dump", "--stdio", f"{PY} -m mcp_server_time"])
    assert result.exit_code == 0, result.stderr
    snapshot = json.loads(result.stdout)
    assert [t["name"] for t in snapshot["tools"]] == [t["name"] for t in served]
    assert snapshot["tools"] == served


def test_without_the_sdk_a_live_target_gets_the_install_command() -> None:
    blocker = ("import sys; sys.modules['mcp'] = None; sys.modules['mcp.client'] = None; "
               "from mcplint.cli import main; main()")
    done = subprocess.run([PY, "-c", blocker, "check", "--stdio", server("good_server.py")],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        'mcplint: live targets need the MCP SDK; install it with: pip install "mcp>=2.3,<3"']


def test_bad_live_options_are_one_line_usage_errors(runner: CliRunner) -> None:
    for args, message in (
        (["--stdio", ""], "--stdio: the command is empty"),
        (["--stdio", "'unclosed"], "No closing quotation"),
        (["--http", "ftp://x"], "expected an http:// or https:// URL"),
        (["--http", "http://x", "--header", "NoColon"], "expected 'Name: value'"),
        (["--stdio", "x", "--env", "NOVALUE"], "expected KEY=VALUE"),
    ):
        result = runner.invoke(main, ["check", *args])
        assert result.exit_code == 2, args
        assert message in result.stderr, (args, result.stderr)


def test_secrets_in_headers_and_env_are_never_printed(runner: CliRunner) -> None:
    secret = "sk-live-0123456789abcdef"
    result = runner.invoke(main, ["check", "--http", f"http://127.0.0.1:{free_port()}/mcp?key={secret}",
                                  "--header", f"Authorization: Bearer {secret}", "--timeout", "5",
                                  "--stdio", server("fault_exits.py"), "--env", f"TOKEN={secret}"])
    assert result.exit_code == 2
    assert secret not in result.output
    assert "cannot connect to http://127.0.0.1:" in result.output
    assert os.environ.get("TOKEN") != secret
