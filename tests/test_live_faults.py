"""Every live fault ends in one clear per-server error, within its bound, and leaves no process.

Each fault server runs next to a healthy one in the same run, which must still be linted.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="live tests need the MCP SDK: pip install -e '.[dev]'")

from mcplint.live.loading import LiveOptions
from mcplint.live.targets import command_line_targets
from mcplint.run import Report, run

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "fixtures" / "servers"
PY = sys.executable
TIMEOUT = 2.0
# The SDK gives a server 2 s to exit after its stdin closes, then kills its process group.
GRACE = 5.0


def server(name: str) -> str:
    return f"{PY} {SERVERS / name}"


def lint_with_good(stdio: tuple[str, ...] = (), http: tuple[str, ...] = (),
                   sse: tuple[str, ...] = (), timeout: float = TIMEOUT
                   ) -> tuple[Report, float]:
    targets = command_line_targets((server("defective_server.py"), *stdio), http, sse)
    started = time.monotonic()
    report = run([], live=LiveOptions(tuple(targets), timeout=timeout))
    return report, time.monotonic() - started


def only_error(report: Report) -> str:
    assert [f.file for f in report.linted] == ["defective_server.py"]  # still linted
    [error] = report.errors
    return f"{error.file}: {error.message}"


@pytest.mark.parametrize(("script", "expected"), [
    ("fault_exits.py", "fault_exits.py: the server exited (or closed its stdout) before "
                       "answering initialize\n    stderr (last lines):\n"
                       "      starting accounts server\n"
                       "      error: ACCOUNTS_API_KEY is not set"),
    ("fault_silent.py", "fault_silent.py: timed out after 2 s waiting for the answer to "
                        "initialize"),
    ("fault_nonjson.py", "fault_nonjson.py: the server wrote a line that is not JSON: "
                         "'Welcome to the accounts server v1.2!' (while answering initialize); "
                         "stdout is for JSON-RPC messages only, logs go to stderr"),
    ("fault_invalid_jsonrpc.py", "fault_invalid_jsonrpc.py: the server wrote JSON that is not "
                                 'JSON-RPC 2.0: {"status": "ok", "tools": []} (while answering '
                                 "initialize); stdout is for JSON-RPC messages only, logs go "
                                 "to stderr"),
    ("fault_cursor_loop.py", "fault_cursor_loop.py: tools/list returned the nextCursor 'again' "
                             "again; its pagination loops, so reading stopped"),
    ("fault_huge.py", "fault_huge.py: the server's list results exceed 8,000,000 bytes (while "
                      "reading tools/list); stopped reading it"),
    ("fault_stall.py", "fault_stall.py: timed out after 2 s waiting for the answer to "
                       "tools/list"),
])
def test_stdio_fault_is_one_bounded_error(script: str, expected: str) -> None:
    # Reading 9 MB through the SDK's stdio reader takes a second or two on a busy CI machine;
    # the size cap, not the clock, must stop it.
    timeout = 15 if script == "fault_huge.py" else TIMEOUT
    report, seconds = lint_with_good((server(script),), timeout=timeout)
    assert only_error(report) == expected
    assert seconds < timeout + GRACE


def test_missing_command_is_one_error() -> None:
    report, _ = lint_with_good(("mcplint-no-such-server --port 1",))
    assert only_error(report) == ("mcplint-no-such-server: cannot start "
                                  "'mcplint-no-such-server': No such file or directory (is it "
                                  "installed and on PATH?)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def http_status() -> Iterator[dict[int, int]]:
    """One loopback endpoint per failing status: {status: port}."""
    ports = {status: free_port() for status in (401, 404, 503)}
    processes = [subprocess.Popen([PY, str(SERVERS / "fault_http.py"), str(port), str(status)])
                 for status, port in ports.items()]
    try:
        for port in ports.values():
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, "fault_http.py did not start"
                    time.sleep(0.05)
        yield ports
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)


@pytest.mark.parametrize(("status", "expected"), [
    (401, "HTTP 401 Unauthorized: the server wants credentials; pass them with --header "
          "'Authorization: Bearer …'"),
    (404, "HTTP 404 Not Found: no MCP endpoint at this URL (streamable HTTP servers usually "
          "serve /mcp, SSE ones /sse)"),
    (503, "HTTP 503 Service Unavailable: the server failed; see its logs"),
])
def test_http_status_is_one_error(http_status: dict[int, int], status: int, expected: str
                                  ) -> None:
    url = f"http://127.0.0.1:{http_status[status]}/mcp"
    report, seconds = lint_with_good(http=(url,))
    assert only_error(report) == f"{url}: {expected}"
    sse_url = f"http://127.0.0.1:{http_status[status]}/sse"
    report, _ = lint_with_good(sse=(sse_url,))
    assert only_error(report) == f"{sse_url}: {expected}"
    assert seconds < TIMEOUT + GRACE


def test_connection_refused_and_tls_failure(http_status: dict[int, int]) -> None:
    refused = f"http://127.0.0.1:{free_port()}/mcp"
    report, _ = lint_with_good(http=(refused,))
    assert only_error(report).startswith(f"{refused}: cannot connect to {refused}: ")
    # TLS spoken to a plain-HTTP port fails the handshake.
    tls = f"https://127.0.0.1:{http_status[401]}/mcp"
    report, _ = lint_with_good(http=(tls,))
    assert only_error(report).startswith(f"{tls}: TLS failure connecting to {tls}: ")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ")[-1][:1] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_no_process_outlives_a_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("SPAWNER_PIDFILE", str(pidfile))
    targets = command_line_targets((server("spawner_server.py"),), (), (),
                                   env=(f"SPAWNER_PIDFILE={pidfile}",))
    report = run([], live=LiveOptions(tuple(targets), timeout=1.5))
    assert [e.message for e in report.errors] == [
        "timed out after 1.5 s waiting for the answer to initialize"]
    server_pid, child_pid = map(int, pidfile.read_text().split())
    deadline = time.monotonic() + 3
    while (_alive(server_pid) or _alive(child_pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(server_pid), "the server outlived the run"
    assert not _alive(child_pid), "the server's child outlived the run"
    assert os.getpgid(os.getpid()) != server_pid
