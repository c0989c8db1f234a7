"""The benchmark suite's parts, run small: the generator and the runner's quick mode.

No timing is asserted here; speed is measured by bench/run.py, never in a unit test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcplint.engine.linter import Selection
from mcplint.run import run

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
BENCH = ROOT / "bench"

needs_corpus = pytest.mark.skipif(not (SHARED / "corpus" / "real").is_dir(),
                                  reason=f"the shared corpus is not at {SHARED / 'corpus'}")


def generate(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH / "generate.py"), str(out), *args],
                          capture_output=True, text=True, check=False)


@needs_corpus
def test_generator_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    first = generate(tmp_path / "a", "--sizes", "25,120", "--seed", "3")
    again = generate(tmp_path / "b", "--sizes", "120", "--seed", "3")
    other = generate(tmp_path / "c", "--sizes", "120", "--seed", "4")
    assert first.returncode == again.returncode == other.returncode == 0, first.stderr
    assert first.stdout.split() == [str(tmp_path / "a" / "tools-25.json"),
                                    str(tmp_path / "a" / "tools-120.json")]
    # Adding a size to the run does not change the file of another size.
    assert (tmp_path / "a" / "tools-120.json").read_bytes() == \
        (tmp_path / "b" / "tools-120.json").read_bytes()
    assert (tmp_path / "b" / "tools-120.json").read_bytes() != \
        (tmp_path / "c" / "tools-120.json").read_bytes()


@needs_corpus
def test_generated_manifests_load_without_input_errors(tmp_path: Path) -> None:
    assert generate(tmp_path, "--sizes", "25,300").returncode == 0
    for size in (25, 300):
        path = tmp_path / f"tools-{size}.json"
        tools = json.loads(path.read_text(encoding="utf-8"))["tools"]
        assert len(tools) == size
        names = [tool["name"] for tool in tools]
        # Mostly distinct names with server-like prefixes; exact duplicates stay rare.
        assert len(set(names)) >= size * 0.98
        assert all(isinstance(tool.get("inputSchema", {}), dict) for tool in tools)
        result = subprocess.run([sys.executable, "-m", "mcplint", "check", str(path),
                                 "--fail-on", "never", "--format", "json"],
                                capture_output=True, text=True, check=False, cwd=ROOT)
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        assert report["input_errors"] == []
        assert report["summary"]["tools"] == size


@needs_corpus
def test_generator_plants_pairs_for_the_pairwise_rules(tmp_path: Path) -> None:
    assert generate(tmp_path, "--sizes", "300").returncode == 0
    report = run([str(tmp_path / "tools-300.json")], Selection(select=("ALL",)))
    codes = {finding.code for finding in report.findings}
    assert {"NAME001", "DESC004"} <= codes


def test_generator_refuses_to_write_into_the_repository() -> None:
    result = generate(ROOT / "bench" / "out", "--sizes", "5")
    assert result.returncode == 2
    assert "inside the repository" in result.stderr
    assert not (ROOT / "bench" / "out").exists()


@needs_corpus
def test_quick_run_prints_a_table_of_the_small_cases(tmp_path: Path) -> None:
    raw = tmp_path / "runs.json"
    result = subprocess.run([sys.executable, str(BENCH / "run.py"), "--quick", "--cases",
                             "version,tools-25", "--markdown", "--json", str(raw),
                             "--work", str(tmp_path / "work")],
                            capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("| case | launcher | runs | median s |")
    rows = {line.split(" | ")[0].strip("| ") for line in lines if line.startswith("| ")}
    assert {"version", "tools-25"} <= rows
    assert "tools-500" not in rows
    assert "Static lint imports of mcp/jinja2: none (met)." in lines
    runs = json.loads(raw.read_text(encoding="utf-8"))
    assert {(r["case"], r["launcher"]) for r in runs} >= {("version", "python -m"),
                                                          ("tools-25", "python -m")}
    assert all(len(r["walls"]) == 1 and r["rss_kb"][0] > 0 for r in runs)


def lint_then_print(expression: str, *targets: Path, cwd: Path
                    ) -> subprocess.CompletedProcess[str]:
    """``mcplint check`` of the targets in a fresh interpreter, which then prints
    ``expression`` (about ``sys.modules``) as its last line."""
    code = ("import sys\nfrom mcplint.cli import main\n"
            "try:\n    main(['check', *sys.argv[1:], '--fail-on', 'never', '-q'])\n"
            "except SystemExit:\n    pass\n"
            f"print({expression})")
    result = subprocess.run([sys.executable, "-c", code, *map(str, targets)],
                            capture_output=True, text=True, check=False, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result


def last_line(result: subprocess.CompletedProcess[str]) -> str:
    return result.stdout.strip().splitlines()[-1]


def test_static_lint_does_not_import_the_mcp_sdk_or_jinja2() -> None:
    result = lint_then_print("sorted({m.split('.')[0] for m in sys.modules} & {'mcp', 'jinja2'})",
                             ROOT / "examples" / "support-desk.json", cwd=ROOT)
    assert last_line(result) == "[]"


def test_small_static_lint_does_not_import_multiprocessing_or_pathspec(tmp_path: Path) -> None:
    # A server of a few tools never forks workers, and a file named with no config patterns
    # and no .gitignore matches no globs: together about a sixth of start-up (issue 12).
    manifest = tmp_path / "server.json"
    manifest.write_text((ROOT / "examples" / "support-desk.json").read_text(encoding="utf-8"),
                        encoding="utf-8")
    result = lint_then_print("sorted({m.split('.')[0] for m in sys.modules} & "
                             "{'multiprocessing', 'pathspec'})", manifest, cwd=tmp_path)
    assert last_line(result) == "[]"


def test_a_lint_with_no_config_file_reads_no_toml_and_no_package_resources(
        tmp_path: Path) -> None:
    # The built-in packs come from the cache and from a folder on the file system, so neither
    # the TOML parser nor importlib's resource readers are needed (issue 12: about 10 ms); a
    # config file brings the parser back.
    manifest = tmp_path / "server.json"
    manifest.write_text((ROOT / "examples" / "support-desk.json").read_text(encoding="utf-8"),
                        encoding="utf-8")
    loaded = ("sorted(m for m in sys.modules if m in "
              "('tomllib', 'tomli', 'importlib.resources', 'zipfile'))")
    lint_then_print(loaded, manifest, cwd=tmp_path)  # fills the pack cache
    assert last_line(lint_then_print(loaded, manifest, cwd=tmp_path)) == "[]"
    (tmp_path / "mcplint.toml").write_text('select = ["SPEC"]\n', encoding="utf-8")
    parsed = last_line(lint_then_print(loaded, manifest, cwd=tmp_path))
    assert "tomllib" in parsed or "tomli" in parsed


def test_static_lint_of_a_manifest_does_not_read_client_configs(tmp_path: Path) -> None:
    # Every named file is asked whether it is a client config; only one that has a config's
    # shape loads the config reader and the live targets behind it (issue 12: about 8 ms).
    manifest = tmp_path / "server.json"
    manifest.write_text((ROOT / "examples" / "support-desk.json").read_text(encoding="utf-8"),
                        encoding="utf-8")
    config = tmp_path / "claude_desktop_config.json"
    config.write_text('{"mcpServers": {"notes": {"command": "notes-server"}}}',
                      encoding="utf-8")
    loaded = ("sorted(m for m in sys.modules if m in "
              "('mcplint.live.targets', 'mcplint.loaders.clientconfig'))")
    assert last_line(lint_then_print(loaded, manifest, cwd=tmp_path)) == "[]"
    both = lint_then_print(loaded, manifest, config, cwd=tmp_path)
    assert last_line(both) == "['mcplint.live.targets', 'mcplint.loaders.clientconfig']"
    # The config is still read as one: its server is named and not started.
    assert "notes" in both.stdout + both.stderr


@needs_corpus
def test_rule_times_runs_and_names_the_rules() -> None:
    # The per-rule table replaces the engine's span runner; a change to its signature once
    # broke the script without any test noticing.
    done = subprocess.run([sys.executable, str(BENCH / "rule_times.py"), "--tools", "25",
                           "--repeat", "1"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "| DESC001 |" in done.stdout and "25 tools: load" in done.stdout


def test_corpus_hits_counts_findings_per_rule(tmp_path: Path) -> None:
    pair = [{"name": n, "description": "Search papers.", "inputSchema": {"type": "object"}}
            for n in ("search_paper", "search_papers")]
    (tmp_path / "twins.json").write_text(json.dumps({"tools": pair}), encoding="utf-8")
    (tmp_path / "single.json").write_text(json.dumps({"tools": pair[:1]}), encoding="utf-8")
    done = subprocess.run([sys.executable, str(BENCH / "corpus_hits.py"), "--corpus",
                           str(tmp_path), "--select", "NAME001"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 manifests, 3 tools; 0 fail the default gate")
    rows = [line.split("|")[1:-1] for line in done.stdout.splitlines() if line.startswith("| ")]
    # One finding, on one server and one tool (the later of the pair), at the rule's warning.
    assert [c.strip() for c in rows[2]] == ["NAME001", "1", "1", "1", "33%", "0", "1", "0"]
    assert len(rows) == 3


@needs_corpus
def test_a_labelled_set_agrees_with_itself() -> None:
    done = subprocess.run([sys.executable, str(BENCH / "agreement.py"), "--first",
                           str(BENCH / "agree"), "--second", str(BENCH / "agree")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "10 servers, 80 tools labelled by both" in done.stdout
    assert "macro F1 over the 10 categories (no prediction = 0): 1.000" in done.stdout


def _score_labels() -> object:
    import importlib.util
    spec = importlib.util.spec_from_file_location("score_labels_under_test",
                                                  BENCH / "score_labels.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    # Its dataclasses look their module up in sys.modules while being defined.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_pairs_a_labelled_set_never_judged_are_not_scored(tmp_path: Path) -> None:
    """A set that paired a big server's tools only with its sampled ones (bench/blind's
    cloudflare) must not count a finding on two unsampled tools as a false alarm."""
    from types import SimpleNamespace

    runner = _score_labels()
    (tmp_path / "pair-scope.json").write_text(json.dumps({"sampled-only": ["big"]}))
    (tmp_path / "sample.jsonl").write_text(
        '{"server": "big", "tool": "zones_get"}\n{"server": "small", "tool": "a"}\n')
    scope = runner.pair_scope(tmp_path)  # type: ignore[attr-defined]
    assert scope == {"big": frozenset({"zones_get"})}
    assert runner.pair_scope(tmp_path / "missing") == {}  # type: ignore[attr-defined]

    judged = ("big", "zones_get", "zones_list")
    unjudged = ("big", "kv_get", "r2_get_object")
    elsewhere = ("small", "b", "c")
    gold = SimpleNamespace(
        servers=["big", "small"],
        items={"NAMEPAIR": {judged, unjudged, elsewhere}, "VAGUE": {"big/kv_get"}},
        candidates={"NAMEPAIR": {judged, unjudged, elsewhere}, "VAGUE": {"big/kv_get"}})
    gold = runner.scope_pairs(gold, scope)  # type: ignore[attr-defined]
    assert gold.items == {"NAMEPAIR": {judged, elsewhere}, "VAGUE": {"big/kv_get"}}
    assert gold.candidates["NAMEPAIR"] == {judged, elsewhere}

    # The predictions are cut the same way: the unjudged pair is neither hit nor false alarm.
    scorer = SimpleNamespace(load_predictions=lambda path, gold, warn: {
        "NAMEPAIR": {judged, unjudged, elsewhere, ("other", "x", "y")},
        "VAGUE": {"big/kv_get"}})
    sets = runner._as_sets({"tools": {}, "pairs": {}}, gold, scorer)  # type: ignore[attr-defined]
    assert sets == {"NAMEPAIR": {judged, elsewhere}, "VAGUE": {"big/kv_get"}}


def test_sample_hits_draws_each_rule_with_the_tool_as_the_agent_sees_it(tmp_path: Path) -> None:
    folder = tmp_path / "servers"
    folder.mkdir()
    (folder / "shop.json").write_text(json.dumps({"tools": [
        {"name": "delete_order", "description": "Delete an order.",
         "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}},
        {"name": "get_order", "description": "Get an order.",
         "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
         "annotations": {"readOnlyHint": True}},
    ]}))
    out = tmp_path / "hits.jsonl"
    run_ = subprocess.run([sys.executable, str(BENCH / "sample_hits.py"), str(folder), str(out),
                           "--codes", "SAFE001,SAFE003", "--per", "5"],
                          capture_output=True, text=True, check=False)
    assert run_.returncode == 0, run_.stderr
    hits = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(h["code"], h["severity"], h["tool"]) for h in hits] == [
        ("SAFE001", "error", "delete_order"), ("SAFE003", "warning", "delete_order")]
    first = hits[0]
    assert first["key"] == "SAFE001/error/shop//tools/0/name"
    assert first["definition"]["description"] == "Delete an order."
    assert first["siblings"] == ["get_order"]
    again = tmp_path / "again.jsonl"
    subprocess.run([sys.executable, str(BENCH / "sample_hits.py"), str(folder), str(again),
                    "--codes", "SAFE001,SAFE003", "--per", "5"], check=True,
                   capture_output=True)
    assert again.read_text() == out.read_text()
