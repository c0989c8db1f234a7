"""Client and provider profiles (mcplint/profiles.toml) and the clients pack (CLNT rules).

Through the real command line: --client, --server-name and --plugin; the config's clients,
server-name and plugin; a client config checked for its own client without being told; and,
with no client chosen, nothing new on the shared corpus.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import ConfigError, parse_config
from mcplint.profiles import CONFIG_CLIENTS, PROFILE_NAMES, profiles

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "fixtures" / "servers"
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
LONG = "reconcile_outstanding_invoices_for_customer_accounts"  # 52 characters


def _tools(*names: str, server: str | None = None) -> str:
    data: dict[str, Any] = {"tools": [{"name": n, "description": f"Does {n}.",
                                       "inputSchema": {"type": "object"}} for n in names]}
    if server:
        data = {"serverInfo": {"name": server}, **data}
    return json.dumps(data, indent=1)


def _check(runner: CliRunner, *args: str) -> tuple[int, list[dict[str, Any]], str]:
    result = runner.invoke(main, ["check", "--output-format", "json", *args])
    report = json.loads(result.stdout) if result.stdout.strip().startswith("{") else {}
    return result.exit_code, report.get("findings", []), result.stderr


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def test_profile_names_match_the_data() -> None:
    assert tuple(profiles()) == PROFILE_NAMES
    for profile in profiles().values():
        assert profile.sources, f"{profile.key}: every profile says where its numbers come from"
    assert set(CONFIG_CLIENTS.values()) <= set(PROFILE_NAMES)


def test_claude_code_prefix_needs_the_server_name() -> None:
    code = profiles()["claude-code"]
    assert code.exposed_name("t", "my server", None) == "mcp__my_server__t"
    assert code.exposed_name("t", "billing", "acme") == "mcp__plugin_acme_billing__t"
    assert code.exposed_name("t", None, None) is None
    assert profiles()["openai"].exposed_name("t", None, None) == "t"


def test_no_client_no_client_findings(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(_tools(LONG + "_and_more", server="billing"))
    _, found, _ = _check(runner, "tools.json")
    assert not [f for f in found if f["code"].startswith("CLNT")]


def test_client_option_reports_the_prefixed_name(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(_tools("list_invoices", LONG, server="billing"))
    code, found, _ = _check(runner, "tools.json", "--select", "CLNT", "--client", "claude-code")
    assert code == 1
    [finding] = found
    assert finding["code"] == "CLNT001" and finding["tool"] == LONG
    assert finding["pointer"] == "/tools/1/name" and finding["line"] == 14  # its "name" line
    assert finding["message"].startswith(
        f"In Claude Code this tool is exposed as `mcp__billing__{LONG}`, 66 characters where "
        "the model API allows 64. The server is named by its serverInfo.name here")
    # --server-name is what the user's config calls the server; a short one fits.
    code, found, _ = _check(runner, "tools.json", "--select", "CLNT", "--client", "claude-code",
                            "--server-name", "bill")
    assert code == 0 and not found


def test_plugin_form(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(
        _tools("reconcile_outstanding_invoices_for_customer", server="billing"))
    _, found, _ = _check(runner, "tools.json", "--select", "CLNT001", "--client", "claude-code",
                         "--plugin", "acme", "--server-name", "billing")
    [finding] = found
    assert finding["message"].startswith(
        "As plugin `acme` in Claude Code this tool is exposed as "
        "`mcp__plugin_acme_billing__reconcile_outstanding_invoices_for_customer`, "
        "69 characters where the model API allows 64. The API rejects the whole request")


def test_clients_repeat_and_group(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(_tools("x" * 70, "orders.search"))
    _, found, _ = _check(runner, "tools.json", "--select", "CLNT", "--client", "openai,bedrock",
                         "--client", "gemini")
    by_code = {(f["code"], f["tool"]): f["message"] for f in found}
    # One finding for the clients that break the same way, naming them all.
    assert by_code["CLNT001", "x" * 70].startswith("In OpenAI, Bedrock Converse and Gemini ")
    # Gemini allows dots; the others do not.
    assert by_code["CLNT002", "orders.search"].startswith("In OpenAI and Bedrock Converse ")


def test_unknown_client_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(_tools("a"))
    result = runner.invoke(main, ["check", "tools.json", "--client", "claude-cod"])
    assert result.exit_code == 2 and "claude-code" in result.stderr


def test_config_clients(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(_tools(LONG))
    (tmp_path / "mcplint.toml").write_text(
        'clients = ["claude-code"]\nserver-name = "billing-service"\nplugin = "acme"\n')
    config = parse_config(tmp_path / "mcplint.toml")
    assert config is not None and config.clients == ("claude-code",)
    assert (config.server_name, config.plugin) == ("billing-service", "acme")
    _, found, _ = _check(runner, "tools.json", "--select", "CLNT001")
    assert "`mcp__plugin_acme_billing-service__" + LONG + "`" in found[0]["message"]
    # The command line's clients replace the config's.
    _, found, _ = _check(runner, "tools.json", "--select", "CLNT001", "--client", "openai")
    assert not found
    (tmp_path / "mcplint.toml").write_text('clients = ["claude"]\n')
    with pytest.raises(ConfigError, match="clients"):
        parse_config(tmp_path / "mcplint.toml")


def test_client_config_is_checked_for_its_own_client(runner: CliRunner, tmp_path: Path
                                                      ) -> None:
    """A Claude Code config, with no --client: its server's tools are checked as Claude Code
    names them, after the server's key in the config."""
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "billing-service": {"command": sys.executable,
                            "args": [str(SERVERS / "billing_server.py")]}}}))
    # Without --allow-exec nothing is started: the refusal is the only outcome, as before.
    code, found, stderr = _check(runner, ".mcp.json")
    assert code == 2 and not found and "--allow-exec" in stderr
    code, found, _ = _check(runner, ".mcp.json", "--allow-exec", "--select", "CLNT")
    assert code == 1, found
    [finding] = found
    assert finding["code"] == "CLNT001"
    assert finding["file"] == ".mcp.json#billing-service"
    assert finding["tool"] == LONG and finding["pointer"].endswith("/name")
    assert finding["line"] > 1
    assert f"`mcp__billing-service__{LONG}`, 74 characters where" in finding["message"]
    assert "serverInfo" not in finding["message"]  # the config named the server


def test_client_config_kinds_map_to_profiles() -> None:
    from mcplint.loaders.clientconfig import read_config

    configs = ROOT / "fixtures" / "configs"
    kinds = {path: read_config(str(configs / path)) for path in (
        "claude-code/.mcp.json", "claude-desktop/claude_desktop_config.json",
        "vscode/.vscode/mcp.json", "cursor/.cursor/mcp.json")}
    assert {p: CONFIG_CLIENTS.get(c.format) if c else None for p, c in kinds.items()} == {
        "claude-code/.mcp.json": "claude-code",
        "claude-desktop/claude_desktop_config.json": "claude-desktop",
        "vscode/.vscode/mcp.json": "vscode",
        "cursor/.cursor/mcp.json": "cursor",
    }


def test_config_servers_together_over_the_client_cap() -> None:
    """Servers read from a Cursor config are checked against Cursor's cap together, without
    --client; each server alone is under it."""
    from dataclasses import replace

    from mcplint.config import Config
    from mcplint.engine.linter import Linter, Selection
    from mcplint.loaders.jsonsource import parse_json
    from mcplint.loaders.manifest import build_manifest

    manifests = []
    for key, count in (("docs", 25), ("tickets", 20)):
        text = _tools(*(f"{key}_{i}" for i in range(count)))
        manifest, _ = build_manifest(f".cursor/mcp.json#{key}", parse_json(text))  # type: ignore[arg-type]
        assert manifest is not None
        manifests.append(replace(manifest, config_server=key, config_kind="Cursor"))
    linter = Linter(Config(path=None, root=ROOT), Selection(select=("CLNT",)))
    assert not [f for m in manifests for f in linter.lint(m).findings]
    [finding] = linter.lint_group(manifests)
    assert finding.code == "CLNT007" and finding.file == ".cursor/mcp.json#docs"
    assert finding.message.startswith("The 2 servers of this config have 45 tools together "
                                      "where Cursor sends at most 40 in one request "
                                      "(tools per server: docs 25, tickets 20)")
    # Not a Cursor config, and no client chosen: nothing.
    plain = [replace(m, config_kind="mcpServers") for m in manifests]
    assert not linter.lint_group(plain)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not here ({CORPUS}); "
                    "it sits beside the repository in the development workplace")
def test_corpus_without_client_has_no_client_findings(runner: CliRunner) -> None:
    _, found, _ = _check(runner, str(CORPUS), "--select", "ALL", "--exit-zero")
    assert found, "the corpus should have findings of other rules"
    assert not [f for f in found if f["code"].startswith("CLNT")]


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not here ({CORPUS}); "
                    "it sits beside the repository in the development workplace")
def test_corpus_with_every_client_locates_every_finding() -> None:
    from mcplint.config import Config
    from mcplint.engine.linter import Linter, Selection
    from mcplint.loaders.files import Source, load

    linter = Linter(Config(path=None, root=ROOT),
                    Selection(select=("CLNT",), clients=PROFILE_NAMES))
    codes = set()
    for path in sorted(CORPUS.glob("*.json")):
        manifest = load(Source(str(path))).manifest
        assert manifest is not None
        for finding in linter.lint(manifest).findings:
            assert finding.line >= 1 and manifest.document.has(finding.pointer), finding
            codes.add(finding.code)
    # The corpus has long prefixed names, over-long descriptions, non-strict schemas, servers
    # over Cursor's cap and over Claude Code's token warning.
    assert {"CLNT001", "CLNT003", "CLNT004", "CLNT005", "CLNT006"} <= codes
