"""Source locations from static snapshots: which definitions are found, at which exact spans,
and where mapping must refuse to guess (the same name twice, another description)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.engine.linter import Selection
from mcplint.findings import SourceLocation
from mcplint.run import Report, run
from mcplint.sources import SourceRoots
from mcplint.sources.index import build_index
from mcplint.sources.literal import literal_definitions
from mcplint.sources.python import python_definitions
from mcplint.sources.walk import MAX_FILE_BYTES, source_files

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "fixtures" / "sources"
TS = "fixtures/sources/typescript"
GO = "fixtures/sources/go"


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the repository root, so source paths read as the fixtures' relative paths."""
    monkeypatch.chdir(ROOT)
    return ROOT


def loc(file: str, line: int, column: int, end_line: int, end_column: int) -> SourceLocation:
    return SourceLocation(file, line, column, end_line, end_column)


def located(report: Report) -> dict[tuple[str, str | None, str], SourceLocation | None]:
    return {(f.code, f.tool, f.pointer): f.source for f in report.findings}


def lint(target: str | Path, source: str | Path | None) -> Report:
    roots = SourceRoots.from_option(Path(source) if source else None, Path.cwd())
    # Every rule, so the default-off ones that point at descriptions (DESC003) are mapped too.
    return run([str(target)], selection=Selection(select=("ALL",)), source_roots=roots)


# --- Python, read with ast -------------------------------------------------------------------


def test_decorated_tool_spans_name_docstring_and_annotated_params(at_root: Path) -> None:
    file = "fixtures/sources/python_server/server.py"
    found = {d.name: d for d in python_definitions(file, (ROOT / file).read_text())}
    assert sorted(found) == ["delete_invoice", "export_invoices", "get_invoice",
                             "search_invoices"]
    search = found["search_invoices"]
    assert search.name_at == loc(file, 28, 5, 28, 20)  # the identifier after "def"
    assert search.site == loc(file, 27, 1, 27, 83)  # the decorator, "@" included
    assert search.description_at == loc(file, 33, 5, 34, 89)  # the whole docstring
    assert search.description is not None and search.description.startswith("Search invoices")
    assert search.annotations_at == loc(file, 27, 23, 27, 82)
    assert search.params["sort"] == loc(file, 30, 5, 30, 79)  # name: Annotated[..., Field()]
    assert list(search.params) == ["query", "sort", "limit"]


def test_name_and_description_overrides_point_at_their_literals(at_root: Path) -> None:
    file = "fixtures/sources/python_server/server.py"
    found = {d.name: d for d in python_definitions(file, (ROOT / file).read_text())}
    export = found["export_invoices"]  # the function is `export`, name= renames it
    assert export.name_at == loc(file, 59, 16, 59, 33)
    # description=EXPORT_DESCRIPTION resolves to the module constant's literal, not the
    # docstring the override hides.
    assert export.description_at == loc(file, 54, 5, 55, 90)
    assert export.description == (
        "Export the invoices of one month as CSV text, one invoice a line, newest first. "
        "Fails when the month is in the future; use search_invoices to find single invoices.")


def test_low_level_tool_construction(at_root: Path) -> None:
    file = "fixtures/sources/python_server/lowlevel_server.py"
    (tool,) = python_definitions(file, (ROOT / file).read_text())
    assert tool.name == "archive_invoice"
    assert tool.name_at == loc(file, 19, 14, 19, 31)
    assert tool.description_at == loc(file, 21, 13, 22, 83)  # implicit concatenation
    assert tool.params == {"invoice_id": loc(file, 27, 17, 27, 91),
                           "mode": loc(file, 28, 17, 28, 86)}
    assert tool.annotations_at == loc(file, 32, 21, 32, 88)


def test_python_variants_and_character_columns() -> None:
    text = '''from textwrap import dedent
DESC = "Deletes one " + "report."
@app.tool("rm_rapport", description=DESC)
def rm(rapport_id: str, *, force: bool = Field(False, alias="forceIt")) -> None: ...
@mcp.tool
async def bare(q: str):
    ...
@mcp.tool(description=f"computed {x}")
def computed(): ...
@mcp.tool(name=NAME_FROM_ELSEWHERE)
def unknown_name(): ...
def helper(): ...
mcp.add_tool(helper, name="helper_tool")
@srv.tool()
def café(é: str):
    """Ça marche."""
'''
    found = {d.name: d for d in python_definitions("x.py", text)}
    # A computed name cannot be matched, so that tool is not reported at all.
    assert sorted(found) == ["bare", "café", "computed", "helper_tool", "rm_rapport"]
    assert found["rm_rapport"].name_at == loc("x.py", 3, 11, 3, 23)  # positional name
    assert found["rm_rapport"].description == "Deletes one report."
    assert found["rm_rapport"].description_at == loc("x.py", 2, 8, 2, 34)
    assert set(found["rm_rapport"].params) == {"rapport_id", "force", "forceIt"}
    assert found["bare"].description == ""  # no docstring: no description, known
    assert found["computed"].description is None  # an f-string with a value: unknown
    assert found["computed"].description_at == loc("x.py", 8, 23, 8, 38)
    assert found["helper_tool"].site == loc("x.py", 13, 1, 13, 41)
    assert found["helper_tool"].name_at == loc("x.py", 13, 27, 13, 40)
    # ast counts bytes; columns count characters.
    assert found["café"].name_at == loc("x.py", 15, 5, 15, 9)
    assert found["café"].params["é"] == loc("x.py", 15, 10, 15, 16)
    assert python_definitions("broken.py", "def (:\n") == []


def test_names_from_enum_members_as_the_reference_servers_write_them() -> None:
    text = '''class GitTools(StrEnum):
    STATUS = "git_status"
class ToolNames(str, Enum):
    GET_TIME = "get_current_time"
TOOLS = [
    Tool(name=GitTools.STATUS, description="Shows the working tree status",
         inputSchema=GitStatus.model_json_schema()),
    Tool(name=ToolNames.GET_TIME.value, description="Get the current time",
         inputSchema={"type": "object", "properties": {"timezone": {"type": "string"}}}),
    Tool(name=ToolNames.MISSING.value, description="Unknown member: no name, no tool"),
]
'''
    status, time = python_definitions("x.py", text)
    assert (status.name, status.name_at) == ("git_status", loc("x.py", 2, 14, 2, 26))
    assert status.site == loc("x.py", 6, 5, 7, 52)
    assert status.params == {}  # a schema computed from a model: findings use the site
    assert (time.name, time.name_at) == ("get_current_time", loc("x.py", 4, 16, 4, 34))
    assert time.params == {"timezone": loc("x.py", 9, 56, 9, 86)}


# --- TypeScript/JavaScript and Go, by literal search ----------------------------------------


def test_typescript_tool_and_register_tool(at_root: Path) -> None:
    index = f"{TS}/src/index.ts"
    (forecast,) = literal_definitions(index, (ROOT / index).read_text(), "script")
    assert forecast.name == "get_forecast"
    assert forecast.name_at == loc(index, 15, 3, 15, 17)
    # Three literals joined by "+", over three lines, one of them single-quoted.
    assert forecast.description_at == loc(index, 16, 3, 18, 38)
    assert forecast.description == (
        "Get the weather forecast for a city for the next days. Returns one entry a day with "
        "the high, the low and the chance of rain; fails when the city is unknown.")
    assert forecast.params == {"city": loc(index, 20, 5, 20, 57),
                               "units": loc(index, 21, 5, 21, 65)}
    stations = f"{TS}/src/stations.ts"
    search, delete = literal_definitions(stations, (ROOT / stations).read_text(), "script")
    assert search.name_at == loc(stations, 8, 5, 8, 22)
    # A template literal over two lines, with escaped backticks.
    assert search.description == ("Search weather stations by name or city.\n"
                                  "Returns up to `limit` stations with their id and position.")
    assert search.description_at == loc(stations, 11, 20, 12, 62)
    assert list(search.params) == ["query", "limit"]
    assert search.annotations_at == loc(stations, 17, 7, 17, 64)
    assert (delete.name, delete.description) == ("delete_station", "Delete station.")


def test_literal_search_skips_comments_regexes_and_computed_text() -> None:
    text = '''// server.tool("commented_out", "Not a tool.", {}, cb);
/* server.registerTool("also_commented", {description: "No."}, cb) */
const re = /server.tool\\("in_a_regex"/;
const s = "server.tool('in_a_string')";
server.tool(`templated_${kind}`, "A computed name.", cb);
server.tool("dynamic", `Made by ${who}.`, { a: z.string() }, cb);
server.tool("escaped", "Tab\\there, \\u00e9 and \\x41.", cb);
const tools = [{ name: "low", description: "Low level.", inputSchema: { type: "object",
  properties: { "a-b": { type: "string" } } } }];
'''
    found = {d.name: d for d in literal_definitions("x.ts", text, "script")}
    assert sorted(found) == ["dynamic", "escaped", "low"]
    assert found["dynamic"].description is None
    assert found["dynamic"].description_at == loc("x.ts", 6, 24, 6, 41)
    assert found["escaped"].description == "Tab\there, é and A."
    assert found["low"].params == {"a-b": loc("x.ts", 9, 17, 9, 42)}


def test_go_new_tool_and_tool_struct(at_root: Path) -> None:
    file = f"{GO}/main.go"
    (tool,) = literal_definitions(file, (ROOT / file).read_text(), "go")
    assert tool.name_at == loc(file, 16, 21, 16, 35)
    assert tool.description_at == loc(file, 17, 23, 18, 62)
    assert tool.description == ("Get the current time in a time zone. Returns an RFC 3339 "
                                "timestamp; fails on an unknown zone.")
    assert tool.params["format"] == loc(file, 20, 3, 20, 71)
    assert tool.annotations_at == loc(file, 21, 3, 21, 39)
    sdk = 'mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: `say hi`}, SayHi)\n'
    (greet,) = literal_definitions("g.go", sdk, "go")
    assert (greet.name, greet.description) == ("greet", "say hi")
    assert greet.name_at == loc("g.go", 1, 32, 1, 39)


# --- Mapping findings -----------------------------------------------------------------------


def test_typescript_snapshot_findings_land_on_source_lines(at_root: Path) -> None:
    report = lint(f"{TS}/snapshot.json", TS)
    got = located(report)
    assert got[("PARAM001", "get_forecast", "/tools/0/inputSchema/properties/units")] == \
        loc(f"{TS}/src/index.ts", 21, 5, 21, 65)
    assert got[("DESC001", "delete_station", "/tools/2/description")] == \
        loc(f"{TS}/src/stations.ts", 22, 33, 22, 50)
    assert got[("SAFE001", "delete_station", "/tools/2/name")] == \
        loc(f"{TS}/src/stations.ts", 22, 15, 22, 31)
    # SAFE003 points at the tool itself: the name literal.
    assert got[("SAFE003", "delete_station", "/tools/2")] == \
        loc(f"{TS}/src/stations.ts", 22, 15, 22, 31)
    assert got[("DESC003", "get_forecast", "/tools/0/description")] == \
        loc(f"{TS}/src/index.ts", 16, 3, 18, 38)
    assert report.notes == ()
    # The manifest location is still the finding's identity.
    param = next(f for f in report.findings if f.code == "PARAM001")
    assert (param.file, param.line, param.pointer) == (
        f"{TS}/snapshot.json", 23, "/tools/0/inputSchema/properties/units")


def test_go_snapshot_findings_land_on_source_lines(at_root: Path) -> None:
    got = located(lint(f"{GO}/snapshot.json", GO))
    assert got[("PARAM001", "current_time", "/tools/0/inputSchema/properties/format")] == \
        loc(f"{GO}/main.go", 20, 3, 20, 71)


def test_annotations_and_required_map_to_the_registration(tmp_path: Path, at_root: Path
                                                          ) -> None:
    export = ("Export the invoices of one month as CSV text, one invoice a line, newest first. "
              "Fails when the month is in the future; use search_invoices to find single "
              "invoices.")
    month = {"type": "string", "description": "The month, like 2024-05."}
    tools = [
        {"name": "export_invoices", "description": export,
         "inputSchema": {"type": "object", "properties": {"month": month},
                         "required": ["month", "months"]},
         "annotations": {"readonlyHint": True}},
        {"name": "get_invoice", "description": "Get invoice.",
         "inputSchema": {"type": "object", "properties": {"invoice_id": {"type": "string"}}},
         "annotations": {"readOnlyHint": "yes"}},
    ]
    snapshot = tmp_path / "invoices.json"
    snapshot.write_text(json.dumps({"tools": tools}, indent=2))
    file = "fixtures/sources/python_server/server.py"
    got = located(lint(snapshot, "fixtures/sources/python_server"))
    # A misspelt hint: the annotations= argument of the decorator.
    assert got[("SPEC011", "export_invoices", "/tools/0/annotations/readonlyHint")] == \
        loc(file, 60, 23, 60, 82)
    # A required entry naming no property: the registration (it has no declaration).
    assert got[("SPEC007", "export_invoices", "/tools/0/inputSchema/required/1")] == \
        loc(file, 59, 1, 60, 83)
    # get_invoice declares no annotations in source: its decorator is where they would go.
    assert got[("SPEC012", "get_invoice", "/tools/1/annotations/readOnlyHint")] == \
        loc(file, 38, 1, 38, 12)


def test_a_static_snapshot_is_mapped_only_with_source(at_root: Path) -> None:
    report = lint(f"{TS}/snapshot.json", None)
    assert report.findings and all(f.source is None for f in report.findings)
    assert report.notes == ()


def test_same_name_twice_keeps_manifest_location_and_says_why(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    shutil.copytree(SOURCES / "typescript", tmp_path / "server")
    # A second copy of the sources, as in a monorepo holding two versions of the server.
    shutil.copytree(SOURCES / "typescript" / "src", tmp_path / "server" / "copy")
    monkeypatch.chdir(tmp_path)
    report = lint("server/snapshot.json", "server")
    assert all(f.source is None for f in report.findings)
    assert 'server/snapshot.json: tool "delete_station" is defined in 2 places under server ' \
           "(server/copy/stations.ts:22, server/src/stations.ts:22); its findings keep the " \
           "manifest location" in report.notes
    param = next(f for f in report.findings if f.code == "PARAM001")
    assert (param.line, param.column) == (23, 11)


def test_one_copy_with_the_manifests_description_is_chosen(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    shutil.copytree(SOURCES / "typescript", tmp_path / "server")
    old = (tmp_path / "server" / "src" / "stations.ts").read_text()
    (tmp_path / "server" / "old").mkdir()
    (tmp_path / "server" / "old" / "stations.ts").write_text(
        old.replace('"Delete station."', '"Delete a station (v1)."'))
    monkeypatch.chdir(tmp_path)
    got = located(lint("server/snapshot.json", "server"))
    assert got[("DESC001", "delete_station", "/tools/2/description")] == \
        loc("server/src/stations.ts", 22, 33, 22, 50)


def test_a_definition_with_another_description_is_not_used(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    shutil.copytree(SOURCES / "typescript", tmp_path / "server")
    stations = tmp_path / "server" / "src" / "stations.ts"
    stations.write_text(stations.read_text().replace('"Delete station."', '"Remove it."'))
    monkeypatch.chdir(tmp_path)
    report = lint("server/snapshot.json", "server")
    assert all(f.source is None for f in report.findings if f.tool == "delete_station")
    assert any(f.source is not None for f in report.findings if f.tool == "get_forecast")
    assert any('tool "delete_station" is defined at server/src/stations.ts:22, but with '
               "another description" in note for note in report.notes)


SERVER = '''@mcp.tool()
def close_ticket(ticket_id: str) -> str:
    """Close a ticket."""
'''
COPY = '''TOOL = {"name": "close_ticket", "description": "Close a ticket.",
        "inputSchema": {"type": "object", "properties": {"ticket_id": {"type": "string"}}}}
'''


def _ticket_tree(tmp_path: Path, files: dict[str, str]) -> Report:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    tool = {"name": "close_ticket", "description": "Close a ticket.",
            "inputSchema": {"type": "object", "properties": {"ticket_id": {"type": "string"}}}}
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [tool]}))
    return run([str(tmp_path / "tools.json")], source_roots=SourceRoots(tmp_path, tmp_path))


def test_copies_in_tests_do_not_make_a_tool_ambiguous(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    report = _ticket_tree(tmp_path, {"src/server.py": SERVER, "tests/test_server.py": COPY,
                                     "src/server.test.ts": COPY.replace("TOOL =", "const t =")})
    safe = next(f for f in report.findings if f.code == "SAFE002")
    assert safe.source == loc("src/server.py", 2, 5, 2, 17)
    assert report.notes == ()


def test_a_registration_is_not_passed_over_for_a_literal(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.chdir(tmp_path)
    # The registered tool says something else (the snapshot is stale); the data literal that
    # agrees is a copy, so nothing is mapped.
    report = _ticket_tree(tmp_path, {"src/server.py": SERVER.replace("Close a", "Shut a"),
                                     "src/data.py": COPY})
    assert all(f.source is None for f in report.findings)
    assert report.notes == (f"{tmp_path / 'tools.json'}: tool \"close_ticket\" is defined at "
                            "src/server.py:2, but with another description than the manifest's "
                            "(another server, or a stale snapshot?); its findings keep the "
                            "manifest location",)
    # With no registration at all, the literal is the definition (a low-level server).
    (tmp_path / "src" / "server.py").unlink()
    safe = next(f for f in _ticket_tree(tmp_path, {}).findings if f.code == "SAFE002")
    assert safe.source == loc("src/data.py", 1, 17, 1, 31)


def test_an_unrelated_tree_maps_nothing(at_root: Path) -> None:
    report = lint(f"{TS}/snapshot.json", "mcplint")
    assert all(f.source is None for f in report.findings)
    assert report.notes == (f"{TS}/snapshot.json: 3 of 3 tools not found in source under "
                            "mcplint: get_forecast, search_stations, delete_station",)


def test_the_corpus_against_this_repository_maps_nothing(at_root: Path) -> None:
    corpus = ROOT.parent / "shared" / "corpus" / "real"
    if not corpus.is_dir():
        pytest.skip("the real corpus is in ../shared/corpus/real, which is absent")
    # The repository's tests and fixtures hold tools named like corpus tools ("ping",
    # "search"); none is the corpus server's own code, so none may be used.
    report = lint(corpus, ".")
    assert report.findings
    assert [f for f in report.findings if f.source is not None] == []
    assert any('kubernetes.json: tool "ping" is defined at fixtures/servers/fault_cursor_loop.py:7,'
               " but with another description" in note for note in report.notes)


# --- Walking the tree ------------------------------------------------------------------------


def test_walk_skips_dependencies_build_output_and_large_files(tmp_path: Path) -> None:
    source = (SOURCES / "typescript" / "src" / "stations.ts").read_text()
    for folder in ("src", "node_modules/pkg", ".venv/lib", "dist", "build", "__pycache__",
                   ".git", "env"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "stations.ts").write_text(source)
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr\n")  # a venv by another name
    (tmp_path / "src" / "stations.d.ts").write_text(source)
    (tmp_path / "src" / "stations.min.js").write_text(source)
    (tmp_path / "src" / "big.ts").write_text(source + " " * MAX_FILE_BYTES)
    (tmp_path / "src" / "notes.md").write_text(source)
    shown = [Path(f.path).relative_to(tmp_path).as_posix() for f in source_files(tmp_path)]
    assert shown == ["src/stations.ts"]
    index = build_index(tmp_path, ["delete_station"])
    assert [d.site.line for d in index.by_name["delete_station"]] == [22]


# --- The command line ------------------------------------------------------------------------


def _check(*args: str) -> Any:
    return CliRunner().invoke(main, ["check", "--format", "json", *args])


def test_cli_source_option_and_verbose_notes(at_root: Path) -> None:
    result = _check(f"{TS}/snapshot.json", "--source", "mcplint", "-v")
    assert result.exit_code == 1
    assert all(f["source"] is None for f in json.loads(result.stdout)["findings"])
    assert result.stderr == (f"mcplint: note: {TS}/snapshot.json: 3 of 3 tools not found in "
                             "source under mcplint: get_forecast, search_stations, "
                             "delete_station\n")
    quiet = _check(f"{TS}/snapshot.json", "--source", "mcplint")
    assert quiet.stderr == ""
    missing = _check(f"{TS}/snapshot.json", "--source", "no/such/dir")
    assert missing.exit_code == 2
    assert "'no/such/dir' does not exist" in missing.stderr


def test_git_work_tree_is_found_by_walking_up(tmp_path: Path) -> None:
    from mcplint.sources.walk import git_work_tree

    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True)
    (tmp_path / "repo" / "a" / "b").mkdir(parents=True)
    assert git_work_tree(tmp_path / "repo" / "a" / "b") == (tmp_path / "repo").resolve()
    assert SourceRoots.from_option(None, tmp_path / "repo" / "a") == \
        SourceRoots(None, (tmp_path / "repo").resolve())
    assert SourceRoots.from_option(Path("src"), tmp_path) == SourceRoots(Path("src"),
                                                                         Path("src"))
