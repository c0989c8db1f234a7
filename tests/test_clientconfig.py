"""Client configs of every format: parsing, variable expansion, recognition, and --allow-exec."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.live.targets import HTTP, SSE, STDIO
from mcplint.loaders.clientconfig import read_config
from mcplint.run import run

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "fixtures" / "configs"
SERVERS = ROOT / "fixtures" / "servers"
ALL_TEST_VARS = frozenset({"MCPLINT_TEST_PYTHON", "MCPLINT_TEST_SERVERS", "MCPLINT_TEST_TOKEN",
                           "MCPLINT_TEST_BASE"})


def summary(path: Path) -> tuple[str, list[tuple[str, str, str, str | None]]]:
    config = read_config(str(path))
    assert config is not None, path
    return config.format, [(t.name, t.transport, t.describe(), t.skip_reason)
                           for t in config.targets]


def test_claude_desktop() -> None:
    folder = CONFIGS / "claude-desktop"
    assert summary(folder / "claude_desktop_config.json") == ("Claude Desktop", [
        ("accounts", STDIO, f"python ../../servers/defective_server.py (in {folder})", None),
        ("remote", HTTP, "http https://mcp.example.com/mcp", None),
    ])


def test_claude_code_expands_variables_and_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCPLINT_TEST_SERVERS", "/srv/mcp")
    monkeypatch.setenv("MCPLINT_TEST_TOKEN", "tok-12345")
    monkeypatch.delenv("MCPLINT_TEST_PYTHON", raising=False)
    monkeypatch.delenv("MCPLINT_TEST_BASE", raising=False)
    path = CONFIGS / "claude-code" / ".mcp.json"
    config = read_config(str(path), ALL_TEST_VARS)
    assert config is not None and config.format == "Claude Code"
    notes, tickets, events = config.targets
    assert (notes.command, notes.args, dict(notes.env)) == (
        "python", ("/srv/mcp/good_server.py",), {"NOTES_TOKEN": "tok-12345"})
    assert (tickets.transport, tickets.url, dict(tickets.headers)) == (
        HTTP, "http://127.0.0.1:9/mcp", {"Authorization": "Bearer tok-12345"})
    assert (events.transport, events.url) == (SSE, "http://127.0.0.1:9/sse")
    # The token is a secret: never in a description of the target.
    assert all("tok-12345" not in t.describe() and "tok-12345" in t.secrets
               for t in (notes, tickets))


def test_unset_variable_without_default_skips_that_server(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.delenv("MCPLINT_TEST_SERVERS", raising=False)
    monkeypatch.delenv("MCPLINT_TEST_TOKEN", raising=False)
    config = read_config(str(CONFIGS / "claude-code" / ".mcp.json"), ALL_TEST_VARS)
    assert config is not None
    assert [(p.position.line, p.message) for p in config.problems] == [
        (3, 'server "notes" skipped: the environment variable MCPLINT_TEST_SERVERS is not set '
            "(write ${MCPLINT_TEST_SERVERS:-default} for a default)"),
        (9, 'server "tickets" skipped: the environment variable MCPLINT_TEST_TOKEN is not set '
            "(write ${MCPLINT_TEST_TOKEN:-default} for a default)"),
    ]


def test_no_variable_is_read_unless_allowed_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCPLINT_TEST_SERVERS", "/srv/mcp")
    monkeypatch.setenv("MCPLINT_TEST_TOKEN", "tok-12345")
    config = read_config(str(CONFIGS / "claude-code" / ".mcp.json"),
                         frozenset({"MCPLINT_TEST_SERVERS"}))
    assert config is not None
    notes, tickets, events = config.targets
    # Unlisted variables stay as written, even one with a default, and are named.
    assert (notes.command, notes.args, dict(notes.env)) == (
        "${MCPLINT_TEST_PYTHON:-python}", ("/srv/mcp/good_server.py",),
        {"NOTES_TOKEN": "${MCPLINT_TEST_TOKEN}"})
    assert notes.needs_env == ("MCPLINT_TEST_PYTHON", "MCPLINT_TEST_TOKEN")
    assert (dict(tickets.headers), tickets.needs_env) == (
        {"Authorization": "Bearer ${MCPLINT_TEST_TOKEN}"},
        ("MCPLINT_TEST_BASE", "MCPLINT_TEST_TOKEN"))
    assert events.needs_env == ()
    assert [(p.position.line, p.message) for p in config.problems] == [
        (3, 'server "notes" skipped: it uses the environment variables MCPLINT_TEST_PYTHON, '
            "MCPLINT_TEST_TOKEN, which mcplint reads only when named: add --allow-env "
            "MCPLINT_TEST_PYTHON,MCPLINT_TEST_TOKEN"),
        (9, 'server "tickets" skipped: it uses the environment variables MCPLINT_TEST_BASE, '
            "MCPLINT_TEST_TOKEN, which mcplint reads only when named: add --allow-env "
            "MCPLINT_TEST_BASE,MCPLINT_TEST_TOKEN"),
    ]
    assert all("tok-12345" not in t.describe() for t in config.targets)


def test_vscode_jsonc_with_inputs_and_workspace_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/tester")
    workspace = CONFIGS / "vscode"
    config = read_config(str(workspace / ".vscode" / "mcp.json"), frozenset({"HOME"}))
    assert config is not None and config.format == "VS Code"
    sensors, github = config.targets
    assert sensors.args == (f"{workspace}/../../servers/paginated_server.py",)
    assert (sensors.cwd, dict(sensors.env)) == (str(workspace), {"HOME_DIR": "/home/tester"})
    assert "/home/tester" in sensors.secrets
    # ${input:...} is a prompt: never answered, the server is skipped with a located message.
    assert github.skip_reason is not None and "${input:github-token}" in github.skip_reason
    assert [p.position.line for p in config.problems] == [14]


def test_cursor_and_windsurf() -> None:
    assert summary(CONFIGS / "cursor" / ".cursor" / "mcp.json") == ("Cursor", [
        ("accounts", STDIO,
         f"python ../../servers/defective_server.py (in {CONFIGS / 'cursor'})", None),
        ("docs", SSE, "sse http://127.0.0.1:9/sse", None),
    ])
    fmt, targets = summary(CONFIGS / "windsurf" / "mcp_config.json")
    assert fmt == "Windsurf"
    assert [(name, transport) for name, transport, _, _ in targets] == [
        ("search", HTTP), ("notes", STDIO)]


def test_recognised_by_shape_under_any_name() -> None:
    fmt, [(name, transport, described, _)] = summary(CONFIGS / "by-shape" / "team-agents.json")
    assert (fmt, name, transport) == ("mcpServers", "time", STDIO)
    assert described.startswith("python -m mcp_server_time")


def test_manifests_and_snapshots_are_not_configs(tmp_path: Path) -> None:
    assert read_config(str(ROOT / "examples" / "support-desk.json")) is None
    snapshot = tmp_path / "snap.json"
    snapshot.write_text(json.dumps({"serverInfo": {"name": "x"}, "protocolVersion": "1",
                                    "tools": [], "mcpServers": {"a": {"command": "x"}}}))
    assert read_config(str(snapshot)) is None
    # package.json-like files with an unrelated "servers" key are not configs either.
    other = tmp_path / "deploy.json"
    other.write_text(json.dumps({"servers": {"web": {"host": "example.com"}}}))
    assert read_config(str(other)) is None


def test_configs_found_in_a_directory_are_skipped_never_started(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"evil": {
        "command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"]}}}))
    report = run([str(tmp_path)])
    assert [(f.file, f.skipped is not None) for f in report.files] == [(str(config), True)]
    assert report.errors == ()
    assert not marker.exists()


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def test_commands_from_a_config_need_allow_exec(runner: CliRunner, tmp_path: Path) -> None:
    marker = tmp_path / "started"
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"evil": {
        "command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"],
        "env": {"API_KEY": "very-secret-key"}}}}))
    result = runner.invoke(main, ["check", str(config)])
    assert result.exit_code == 2
    assert not marker.exists()
    [line] = [line for line in result.output.splitlines() if "--allow-exec" in line]
    assert f"{config}: Claude Code config would start 1 server command(s), which mcplint runs " \
           f"only with --allow-exec: evil: {sys.executable} -c" in line
    assert "very-secret-key" not in result.output


def test_secret_arguments_are_hidden_when_listing_commands(runner: CliRunner,
                                                            tmp_path: Path) -> None:
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"github": {
        "command": "npx", "args": ["-y", "@acme/github-mcp", "--api-key", "ghp_secret1",
                                   "--token=ghp_secret2", "GITHUB_TOKEN=ghp_secret3", "--port",
                                   "8080"]}}}))
    result = runner.invoke(main, ["check", str(config)])
    assert result.exit_code == 2
    assert "ghp_secret" not in result.output
    assert ("github: npx -y @acme/github-mcp --api-key '***' '--token=***' 'GITHUB_TOKEN=***' "
            "--port 8080") in result.output
