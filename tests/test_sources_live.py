"""Source locations for live servers: real SDK servers over stdio, their code in this repo."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("mcp", reason="live tests need the MCP SDK: pip install -e '.[dev]'")

from mcplint.cli import main

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
INVOICES = "fixtures/sources/python_server/server.py"
LOWLEVEL = "fixtures/sources/python_server/lowlevel_server.py"
CRM = "fixtures/sources/realworld"


def check(*args: str) -> Any:
    return CliRunner().invoke(main, ["check", *args])


def by_key(stdout: str) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {(f["code"], f["tool"], f["pointer"]): f for f in json.loads(stdout)["findings"]}


def span(file: str, line: int, column: int, end_line: int, end_column: int) -> dict[str, Any]:
    return {"file": file, "line": line, "column": column, "end_line": end_line,
            "end_column": end_column}


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    # With no --source, a live server's code is looked for in the git work tree of the cwd.
    monkeypatch.chdir(ROOT)
    return ROOT


@pytest.fixture(scope="module")
def invoices() -> Any:
    """Both invoicing servers linted live from the repository root, as JSON."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        return check("--format", "json", "--stdio", f"{PY} {INVOICES}",
                     "--stdio", f"{PY} {LOWLEVEL}")


def test_decorated_tool_findings_land_on_their_source_lines(invoices: Any) -> None:
    assert invoices.exit_code == 1, invoices.output
    got = by_key(invoices.stdout)
    # The docstring of get_invoice.
    assert got[("DESC001", "get_invoice", "/tools/1/description")]["source"] == \
        span(INVOICES, 40, 5, 40, 23)
    # The `sort` parameter's declaration in the signature.
    assert got[("PARAM001", "search_invoices", "/tools/0/inputSchema/properties/sort")][
        "source"] == span(INVOICES, 30, 5, 30, 79)
    # A finding about the tool itself, and one about its name: the function's name.
    assert got[("SAFE003", "delete_invoice", "/tools/2")]["source"] == \
        span(INVOICES, 45, 5, 45, 19)
    assert got[("SAFE001", "delete_invoice", "/tools/2/name")]["source"] == \
        span(INVOICES, 45, 5, 45, 19)
    # The low-level server's Tool(...): the property's entry in the inputSchema literal.
    assert got[("PARAM001", "archive_invoice", "/tools/0/inputSchema/properties/mode")][
        "source"] == span(LOWLEVEL, 28, 17, 28, 86)
    # The snapshot location stays the finding's identity.
    desc = got[("DESC001", "get_invoice", "/tools/1/description")]
    assert (desc["file"], desc["pointer"]) == ("server.py", "/tools/1/description")
    assert all(f["source"] is not None for f in got.values())


def test_sarif_and_github_carry_the_docstring_line(at_root: Path) -> None:
    sarif = check("--format", "sarif", "--select", "DESC001", "--stdio", f"{PY} {INVOICES}")
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    first = next(r for r in results if "get_invoice" in r["message"]["text"])
    physical = first["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == INVOICES
    assert physical["region"] == {"startLine": 40, "startColumn": 5, "endLine": 40,
                                  "endColumn": 23}
    github = check("--format", "github", "--select", "DESC001", "--stdio", f"{PY} {INVOICES}")
    assert f"::notice file={INVOICES},line=40,endLine=40,col=5,endColumn=23," \
           "title=DESC001 vague-description::" in github.stdout


def test_real_world_server_helpers_and_ambiguity(at_root: Path) -> None:
    result = check("--format", "json", "-v", "--stdio", f"{PY} {CRM}/main.py")
    got = by_key(result.stdout)
    contacts = f"{CRM}/crm_server/tools/contacts.py"
    deals = f"{CRM}/crm_server/tools/deals.py"
    # helpers.py has a get_contact too, undecorated: only the registered one is the tool.
    assert got[("PARAM004", "get_contact", "/tools/1/inputSchema/properties/id")]["source"] == \
        span(contacts, 27, 17, 27, 24)
    # legacy/old_tools.py registers a create_deal as well, with another docstring: the one
    # whose docstring the server lists is chosen.
    assert got[("DESC005", "create_deal", "/tools/2/description")]["source"] == \
        span(deals, 21, 5, 21, 67)
    assert got[("PARAM001", "create_deal", "/tools/2/inputSchema/properties/stage")][
        "source"] == span(deals, 18, 5, 18, 94)
    # name="add_note" on the function add_contact_note: the name literal.
    assert got[("SAFE002", "add_note", "/tools/5/name")]["source"] == \
        span(f"{CRM}/crm_server/tools/notes.py", 10, 16, 10, 26)
    # list_pipelines is registered with the same docstring in two modules: no guess.
    pipelines = [f for key, f in got.items() if key[1] == "list_pipelines"]
    assert pipelines and all(f["source"] is None for f in pipelines)
    assert {f["line"] for f in pipelines} <= {169, 170, 176}  # snapshot lines
    assert result.stderr.splitlines()[0] == (
        'mcplint: note: main.py: tool "list_pipelines" is defined in 2 places under . '
        f"({CRM}/crm_server/legacy/old_tools.py:14, {CRM}/crm_server/tools/deals.py:33); "
        "its findings keep the manifest location")


def test_outside_a_git_work_tree_live_findings_stay_on_the_snapshot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = check("--format", "json", "-v", "--stdio", f"{PY} {ROOT / INVOICES}")
    findings = json.loads(result.stdout)["findings"]
    assert findings and all(f["source"] is None for f in findings)
    assert "note:" not in result.stderr


def test_live_default_is_the_work_tree_of_the_cwd(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "fixtures" / "sources" / "python_server", repo / "srv")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    monkeypatch.chdir(repo / "srv")  # below the work tree's root
    result = check("--format", "json", "--stdio", f"{PY} server.py")
    got = by_key(result.stdout)
    assert got[("DESC001", "get_invoice", "/tools/1/description")]["source"] == \
        span("server.py", 40, 5, 40, 23)


def test_servers_from_a_client_config_map_to_the_work_tree(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "fixtures" / "sources" / "python_server", repo / "srv")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    config = {"mcpServers": {"invoices": {"command": PY, "args": ["srv/server.py"]}}}
    (repo / ".mcp.json").write_text(json.dumps(config))
    monkeypatch.chdir(repo)
    result = check("--format", "json", "--allow-exec", ".mcp.json")
    got = by_key(result.stdout)
    assert got[("PARAM001", "search_invoices", "/tools/0/inputSchema/properties/sort")][
        "source"] == span("srv/server.py", 30, 5, 30, 79)
