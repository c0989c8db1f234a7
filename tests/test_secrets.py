"""A client config cannot make mcplint contact a URL, read the environment or print a secret.

Real parts only: an HTTP server on 127.0.0.1 that records every request it receives (and echoes
what it got back in its error, as a hostile one would), a stdio server that echoes its
arguments and environment on stderr and exits, and every output format of the real CLI.
"""

from __future__ import annotations

import base64
import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from mcplint.cli import main
from mcplint.live.secrets import mask, mask_args, mask_url
from mcplint.live.targets import command_line_targets
from mcplint.reporters import FORMATS

ROOT = Path(__file__).resolve().parents[1]
ECHO = ROOT / "fixtures" / "servers" / "echo_secrets.py"
PY = sys.executable

PLANTED = "sk-live-PLANTED0123456789abcdef"
# Secrets written into the config itself, each where the issue says one may be.
LITERALS = {
    "token flag": "tok-literal-0a1b2c3d",
    "password flag": "hunter2-literal",
    "key assignment": "literal-db-key-9",
    "DSN password": "dsn-pass-4242",
    "env value": "env-literal-secret",
    "query value": "query-literal-77",
    "header value": "header-literal-key",
    "URL password": "url-pass-5150",
    "plain header": "plain-header-secret",
}


class Recorder(BaseHTTPRequestHandler):
    """Records each request; answers a JSON-RPC POST with an error that echoes the request."""

    seen: list[dict[str, Any]]

    def _record(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        self.seen.append({"method": self.command, "path": self.path,
                          "headers": dict(self.headers.items()),
                          "body": body.decode("utf-8", "replace")})
        return body

    def do_POST(self) -> None:
        body = self._record()
        try:
            request_id = json.loads(body).get("id")
        except (ValueError, AttributeError):
            request_id = None
        echoed = f"rejected {self.path} with headers {dict(self.headers.items())}"
        answer = json.dumps({"jsonrpc": "2.0", "id": request_id,
                             "error": {"code": -32000, "message": echoed}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def do_GET(self) -> None:
        self._record()
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_DELETE = do_GET

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def recorder() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A loopback HTTP server and the list of requests it received."""
    seen: list[dict[str, Any]] = []
    handler = type("Handler", (Recorder,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def workdir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MCPLINT_PLANTED", PLANTED)
    monkeypatch.delenv("CI", raising=False)
    return tmp_path


def write_config(folder: Path, host: str) -> Path:
    """A config as a pull request could add it: every kind of secret, pointed at the recorder."""
    s = LITERALS
    config = {"mcpServers": {
        "leaky": {
            "command": PY,
            "args": [str(ECHO), "${MCPLINT_PLANTED}", "--api-key", "${MCPLINT_PLANTED}",
                     f"--token={s['token flag']}", "--password", s["password flag"],
                     f"DB_KEY={s['key assignment']}",
                     f"postgres://app:{s['DSN password']}@db.local/app",
                     "--header", "Authorization: Bearer ${MCPLINT_PLANTED}"],
            "env": {"PLANTED_ENV": s["env value"], "PLANTED_FROM_VAR": "${env:MCPLINT_PLANTED}"},
        },
        "innocent-looking": {
            "type": "http",
            "url": f"http://user:{s['URL password']}@{host}/mcp?leak=${{MCPLINT_PLANTED}}"
                   f"&k={s['query value']}",
            "headers": {"Authorization": "Bearer ${MCPLINT_PLANTED}",
                        "X-Api-Key": s["header value"], "X-Home": "${HOME}"},
        },
        "plain": {"url": f"http://{host}/mcp", "headers": {"X-Plain": s["plain header"]}},
    }}
    path = folder / ".mcp.json"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


def check(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--timeout", "10", *args])


def leaked(text: str) -> list[str]:
    # The URL's user info goes out as Basic auth, and the recorder echoes the header back.
    basic = base64.b64encode(f"user:{LITERALS['URL password']}".encode()).decode()
    secrets = [("planted", PLANTED), ("basic auth", basic), *LITERALS.items()]
    return [name for name, value in secrets if value in text]


def test_nothing_is_contacted_or_read_without_opt_in(workdir: Path, recorder: Any) -> None:
    host, seen = recorder
    config = write_config(workdir, host)
    result = check(str(config))
    assert seen == []
    assert result.exit_code == 2
    assert leaked(result.output) == []
    # Each server not linted says which flags would lint it.
    assert "would start 1 server command(s), which mcplint runs only with --allow-exec" \
        in result.output
    assert "would contact 2 server URL(s), which mcplint connects to only with " \
           "--allow-network" in result.output
    assert 'server "leaky" skipped: it uses the environment variable MCPLINT_PLANTED, which ' \
           "mcplint reads only when named: add --allow-env MCPLINT_PLANTED" in result.output
    assert 'server "innocent-looking" skipped: it uses the environment variables ' \
           "MCPLINT_PLANTED, HOME, which mcplint reads only when named: add --allow-env " \
           "MCPLINT_PLANTED,HOME" in result.output


def test_allow_exec_does_not_allow_the_network(workdir: Path, recorder: Any) -> None:
    host, seen = recorder
    config = write_config(workdir, host)
    result = check("--allow-exec", "--allow-env", "MCPLINT_PLANTED,HOME", str(config))
    assert seen == []
    assert "only with --allow-network: innocent-looking: http http://***@" in result.output
    assert "leaky: the server exited" in result.output
    assert leaked(result.output) == []


def test_allow_network_alone_sends_no_variable(workdir: Path, recorder: Any) -> None:
    host, seen = recorder
    config = write_config(workdir, host)
    result = check("--allow-network", str(config))
    assert result.exit_code == 2
    # Only the server that needs no variable was contacted, and nothing of the environment
    # reached it; the one that needs MCPLINT_PLANTED was not contacted at all.
    assert seen and {r["path"] for r in seen} == {"/mcp"}
    assert PLANTED not in json.dumps(seen)
    assert "--allow-env MCPLINT_PLANTED" in result.output
    assert leaked(result.output) == []
    # Still never a tool call: the recorder saw only the handshake.
    methods = {json.loads(r["body"])["method"] for r in seen if r["body"]}
    assert methods <= {"initialize", "notifications/initialized"}


def test_allowed_secrets_reach_the_server_but_no_output(workdir: Path, recorder: Any) -> None:
    host, seen = recorder
    config = write_config(workdir, host)
    allow = ("--allow-live", "--allow-env", "MCPLINT_PLANTED,HOME")
    for fmt in FORMATS:
        seen.clear()
        out = workdir / f"report.{fmt}"
        result = check(*allow, "--format", fmt, "-o", str(out), str(config))
        assert result.exit_code == 2, (fmt, result.output)
        text = out.read_text(encoding="utf-8") + result.output
        assert leaked(text) == [], fmt
        # The secrets were sent where the person allowed them: the test would see a leak.
        assert PLANTED in json.dumps(seen), fmt
    # Shown once more on standard output, where the text report has the errors inline.
    result = check(*allow, str(config))
    assert leaked(result.output) == []
    assert "leaky: " in result.output and "stderr (last lines):" in result.output
    assert "error: the upstream rejected the credentials" in result.output
    assert "rejected /mcp?leak=***&k=***" in result.output


def test_report_and_dump_mask_too(workdir: Path, recorder: Any) -> None:
    host, _ = recorder
    config = write_config(workdir, host)
    allow = ("--allow-live", "--allow-env", "MCPLINT_PLANTED,HOME", "--timeout", "10")
    runner = CliRunner()
    report = runner.invoke(main, ["report", *allow, "-o", "r.html", str(config)])
    html = (workdir / "r.html").read_text(encoding="utf-8")
    dump = runner.invoke(main, ["dump", *allow, "-o", "out", str(config)])
    assert report.exit_code == dump.exit_code == 2
    assert leaked(report.output + html + dump.output) == []


def test_command_line_server_named_after_a_secret_flag_value() -> None:
    [target] = command_line_targets(("npx --token sk-abcdef123 @acme/server",), (), ())
    assert target.name == "server"
    assert "sk-abcdef123" not in target.describe() + repr(target)


def test_argument_masking() -> None:
    assert mask_args(["-y", "pkg", "--api-key", "k1k1k1", "--token=t2t2t2", "GITHUB_TOKEN=x",
                      "--port", "8080", "postgres://u:pw@h:5432/db", "--dsn=mysql://a:b@h/d",
                      "--header", "Authorization: Bearer abcdefgh12"]) == [
        "-y", "pkg", "--api-key", "***", "--token=***", "GITHUB_TOKEN=***", "--port", "8080",
        "postgres://***@h:5432/db", "--dsn=mysql://***@h/d", "--header",
        "Authorization: Bearer ***"]


def test_url_masking() -> None:
    assert mask_url("https://u:p@example.com:8443/mcp?key=abc&page=2#tok") == \
        "https://***@example.com:8443/mcp?key=***&page=***#***"
    assert mask_url("http://127.0.0.1:9/mcp") == "http://127.0.0.1:9/mcp"
    assert mask_url("http://[::1]:80x/") == "<malformed URL>"


@pytest.mark.parametrize(("text", "expected"), [
    ("connect postgres://app:s3cr3t@db/x failed.", "connect postgres://***@db/x failed."),
    ("started with --token abcd1234 and --password='p4ssw0rd'",
     "started with --token *** and --password='***'"),
    ("OPENAI_API_KEY=sk-zzzz set", "OPENAI_API_KEY=*** set"),
    ('{"api_key": "sk-yyyy", "port": "8080"}', '{"api_key": "***", "port": "8080"}'),
    ("Authorization: Bearer eyJhbGciOi.x.y", "Authorization: Bearer ***"),
    ("wants --header 'Authorization: Bearer …'", "wants --header 'Authorization: Bearer …'"),
    ("cannot connect to http://127.0.0.1:9/mcp: refused", "cannot connect to "
     "http://127.0.0.1:9/mcp: refused"),
])
def test_text_masking_by_shape(text: str, expected: str) -> None:
    assert mask(text) == expected


def test_text_masking_by_value_masks_every_occurrence() -> None:
    assert mask("the key sk-1234 (again: sk-1234) and on", ["sk-1234", "on"]) == \
        "the key *** (again: ***) and on"
