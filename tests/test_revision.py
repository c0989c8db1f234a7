"""The 2026-07-28 revision's rules (SPEC008's version switch, SPEC013-SPEC018) and how the
target revision is chosen.  Located findings are pinned in fixtures/rules/SPEC0*; these tests
pin the pieces, the option flow and the behaviour on the real corpus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcplint.checks.headers import declarations
from mcplint.checks.revision import reserved_prefix
from mcplint.cli import main
from mcplint.config import Config, ConfigError, parse_config
from mcplint.engine.linter import Linter, Selection
from mcplint.loaders.files import Source, load
from mcplint.loaders.jsonsource import Document, parse_json
from mcplint.loaders.manifest import build_manifest
from mcplint.model import Manifest
from mcplint.revisions import NEWEST, target_revision

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
NEW_RULES = ("SPEC013", "SPEC014", "SPEC015", "SPEC016", "SPEC017", "SPEC018")
ARRAY_OUTPUT = {"name": "list_cities", "description": "List the cities.",
                "inputSchema": {"type": "object"},
                "outputSchema": {"type": "array", "items": {"type": "string"}}}
TASKS = {"name": "export", "description": "Export orders.", "inputSchema": {"type": "object"},
         "execution": {"taskSupport": "optional"}}


def _manifest(data: dict[str, Any]) -> Manifest:
    doc = parse_json(json.dumps(data, indent=1))
    assert isinstance(doc, Document)
    manifest, errors = build_manifest("test.json", doc)
    assert manifest is not None and not errors
    return manifest


def _codes(data: dict[str, Any], code: str, target: str | None = None,
           config_target: str | None = None) -> list[str]:
    config = Config(path=None, root=ROOT, target_spec=config_target)
    linter = Linter(config, Selection(select=(code,), target_spec=target))
    return [f.pointer for f in linter.lint(_manifest(data)).findings]


def test_target_revision_order() -> None:
    assert target_revision("2025-06-18", {"protocolVersion": "2026-07-28"}) == "2025-06-18"
    assert target_revision(None, {"protocolVersion": "2025-11-25"}) == "2025-11-25"
    assert target_revision(None, {"protocolVersion": "latest"}) == NEWEST
    assert target_revision(None, {}) == NEWEST


@pytest.mark.parametrize(("announced", "target", "fires"), [
    (None, None, False),  # the newest revision allows any schema
    ("2025-06-18", None, True),
    ("2025-11-25", None, True),
    ("2026-07-28", None, False),
    ("2026-07-28", "2025-11-25", True),  # --target-spec wins over the snapshot
    ("2025-06-18", "2026-07-28", False),
])
def test_output_schema_follows_the_revision(announced: str | None, target: str | None,
                                            fires: bool) -> None:
    data: dict[str, Any] = {"tools": [ARRAY_OUTPUT]}
    if announced:
        data["protocolVersion"] = announced
    assert bool(_codes(data, "SPEC008", target)) is fires


def test_config_target_spec_and_cli_over_it(tmp_path: Path) -> None:
    assert _codes({"tools": [ARRAY_OUTPUT]}, "SPEC008", config_target="2025-11-25")
    assert not _codes({"tools": [ARRAY_OUTPUT]}, "SPEC008", "2026-07-28", "2025-11-25")
    (tmp_path / ".mcplint.toml").write_text('target-spec = "2025-06-18"\n')
    config = parse_config(tmp_path / ".mcplint.toml")
    assert config is not None and config.target_spec == "2025-06-18"
    (tmp_path / ".mcplint.toml").write_text('target-spec = "2024-01-01"\n')
    with pytest.raises(ConfigError, match="target-spec"):
        parse_config(tmp_path / ".mcplint.toml")


def test_cli_target_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [TASKS]}))
    runner = CliRunner()
    newest = runner.invoke(main, ["check", "tools.json", "--select", "SPEC018", "-q",
                                  "--output-format", "full"])
    older = runner.invoke(main, ["check", "tools.json", "--select", "SPEC018", "-q",
                                 "--target-spec", "2025-11-25"])
    assert "SPEC018" in newest.stdout and "io.modelcontextprotocol/tasks" in newest.stdout
    assert "SPEC018" not in older.stdout and older.exit_code == 0
    bad = runner.invoke(main, ["check", "tools.json", "--target-spec", "2030-01-01"])
    assert bad.exit_code == 2


def test_header_declarations_know_static_reach() -> None:
    schema = {"type": "object", "properties": {
        "a": {"type": "string", "x-mcp-header": "A"},
        "b": {"type": "object", "properties": {"c": {"type": "string", "x-mcp-header": "C"}}},
        "d": {"anyOf": [{"type": "string", "x-mcp-header": "D"}]}}}
    found = {d.value: (d.property, d.static) for d in declarations(schema, "")}
    assert found == {"A": ("a", True), "C": ("c", True), "D": ("d", False)}


@pytest.mark.parametrize(("name", "secret"), [
    ("password", True), ("accessToken", True), ("X-API-Key", True), ("client_secret", True),
    ("page_token", False), ("max_tokens", False), ("region", False), ("tokenizer", False),
])
def test_header_on_secret(name: str, secret: bool) -> None:
    tool = {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {
        name: {"type": "string", "x-mcp-header": "Value"}}}}
    assert bool(_codes({"tools": [tool]}, "SPEC013")) is secret


@pytest.mark.parametrize(("key", "prefix"), [
    ("io.modelcontextprotocol/x", "io.modelcontextprotocol/"), ("dev.mcp/x", "dev.mcp/"),
    ("com.example.mcp/x", None), ("mcp/x", None), ("fastmcp", None), ("grafana.com/x", None),
])
def test_reserved_prefix(key: str, prefix: str | None) -> None:
    assert reserved_prefix(key, frozenset({"modelcontextprotocol", "mcp"})) == prefix


def test_removed_field_names_its_replacement() -> None:
    data = {"protocolVersion": "2026-07-28", "tools": [TASKS]}
    linter = Linter(Config(path=None, root=ROOT), Selection(select=("SPEC018",)))
    (finding,) = linter.lint(_manifest(data)).findings
    assert "2026-07-28" in finding.message and "capabilities.extensions" in finding.message


def _corpus() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus/real is absent")
    return sorted(CORPUS.glob("*.json"))


@pytest.mark.parametrize("target", [None, "2026-07-28"])
def test_new_rules_on_the_real_corpus(target: str | None) -> None:
    """Every new rule runs on all real manifests; the hits are the ones read and kept."""
    linter = Linter(Config(path=None, root=ROOT), Selection(select=NEW_RULES,
                                                            target_spec=target))
    counts = dict.fromkeys(NEW_RULES, 0)
    warned: list[str] = []
    paths = _corpus()
    for path in paths:
        loaded = load(Source(str(path), explicit=True))
        assert loaded.manifest is not None, path
        for finding in linter.lint(loaded.manifest).findings:
            counts[finding.code] += 1
            if finding.severity.label != "info":
                warned.append(f"{path.stem}:{finding.tool}")
    assert len(paths) == 65
    # Snapshots announce 2024-11-05 or 2025-06-18, before execution was removed; against
    # 2026-07-28 every execution.taskSupport an SDK wrote is reported: as info where it says
    # "forbidden", the default, and as a warning on the one tool that requires tasks.
    assert counts == {**dict.fromkeys(NEW_RULES, 0), "SPEC018": 0 if target is None else 272}
    assert len(warned) == (0 if target is None else 1)
