"""``mcplint hitrate`` through the real command line on real files: confusions, the effect of
DESC004's disambiguation, the --fail-under gate, bad intents files and the report formats."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.hitrate.intents import schema
from mcplint.loaders.files import Source, load
from mcplint.similarity import SimilarityIndex, query_words

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "hitrate"
OVERLAP = str(FIXTURES / "overlap.json")
DISAMBIGUATED = str(FIXTURES / "disambiguated.json")
SYMMETRIC = str(FIXTURES / "symmetric.json")
INTENTS = str(FIXTURES / "intents.json")


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["hitrate", *args])
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = _run(*args, "--format", "json")
    return code, json.loads(out)


def _retriever(report: dict[str, Any], name: str = "bm25") -> dict[str, Any]:
    return next(r for r in report["retrievers"] if r["name"] == name)


def _pairs(result: dict[str, Any]) -> set[tuple[str, str]]:
    return {(c["expected"]["tool"], c["chosen"]["tool"]) for c in result["confusions"]}


def test_overlapping_pair_shows_as_a_confusion() -> None:
    code, report = _json(OVERLAP, "--intents", INTENTS)
    assert code == 0
    bm25 = _retriever(report)
    assert ("search_notes", "find_notes") in _pairs(bm25)
    confusion = next(c for c in bm25["confusions"]
                     if (c["expected"]["tool"], c["chosen"]["tool"]) == ("search_notes",
                                                                          "find_notes"))
    assert confusion["requests"] == ["look for words like invoice inside my notes"]
    assert "notes" in confusion["words"]
    assert confusion["expected"]["line"] == 4 and confusion["chosen"]["line"] == 13


def test_desc004s_disambiguation_raises_the_hit_rate() -> None:
    """The overlap DESC004 reports, then the same tools with its suggested sentence filled in:
    "Use search_notes when …; use find_notes when …" (and the converse on find_notes)."""
    check = CliRunner().invoke(main, ["check", "--select", "DESC004", "--format", "json",
                                      OVERLAP, DISAMBIGUATED])
    found = json.loads(check.stdout)["findings"]
    assert [(f["code"], Path(f["file"]).name) for f in found] == [("DESC004", "overlap.json")]

    _, before = _json(OVERLAP, "--intents", INTENTS)
    _, after = _json(DISAMBIGUATED, "--intents", INTENTS)
    for name in ("bm25", "regex", "tfidf"):
        old, new = _retriever(before, name), _retriever(after, name)
        assert new["top1"] > old["top1"], name
        assert new["mrr"] > old["mrr"], name
        assert not {("search_notes", "find_notes"), ("find_notes", "search_notes")} & _pairs(new)
    assert _retriever(after)["top1"] == 1.0


def test_the_same_contrast_words_on_both_tools_do_not_separate_them() -> None:
    """Filled in with the same words on both tools, the sentence tells a lexical search
    nothing about which tool is which: the pair stays confused."""
    _, report = _json(SYMMETRIC, "--intents", INTENTS)
    pairs = _pairs(_retriever(report))
    assert ("search_notes", "find_notes") in pairs or ("find_notes", "search_notes") in pairs


@pytest.mark.parametrize(("rate", "expected"), [("0.5", 1), ("1", 0), ("0.99", 0), ("0", 0)])
def test_fail_under_gates_on_the_top1_hit_rate(rate: str, expected: int) -> None:
    target = OVERLAP if expected == 1 else DISAMBIGUATED
    code, out, _ = _run(target, "--intents", INTENTS, "--fail-under", rate)
    assert code == expected
    assert ("FAILED" in out) == (expected == 1)


def test_fail_under_exactly_reached_passes() -> None:
    # 2 of the 6 requests reach their tool first under bm25: 1/3 given as 0.3333 is below
    # 1/3 reached, so it passes; 0.34 does not.
    _, report = _json(OVERLAP, "--intents", INTENTS)
    top1 = _retriever(report)["top1"]
    assert top1 == pytest.approx(1 / 3, abs=1e-6)
    assert _run(OVERLAP, "--intents", INTENTS, "--fail-under", "0.3333")[0] == 0
    assert _run(OVERLAP, "--intents", INTENTS, "--fail-under", "0.34")[0] == 1


def test_fail_under_follows_the_chosen_retriever() -> None:
    _, report = _json(OVERLAP, "--intents", INTENTS, "--retriever", "regex")
    assert report["gate"]["retriever"] == "regex"
    regex = _retriever(report, "regex")["top1"]
    assert report["gate"]["top1"] == regex
    code, _, _ = _run(OVERLAP, "--intents", INTENTS, "--retriever", "regex",
                      "--fail-under", str(regex))
    assert code == 0


def test_fail_under_out_of_range_is_a_usage_error() -> None:
    code, _, err = _run(OVERLAP, "--fail-under", "90")
    assert code == 2 and "--fail-under" in err


def _bad(tmp_path: Path, name: str, text: str) -> tuple[int, str, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = _run(OVERLAP, "--intents", str(path))
    return code, out, err


def test_unknown_tool_names_the_file_line_and_a_guess(tmp_path: Path) -> None:
    code, out, err = _bad(tmp_path, "intents.json", json.dumps([
        {"request": "find my notes", "tool": "search_notes"},
        {"request": "drop the note", "tool": "delete_notes"},
    ], indent=2))
    assert code == 2 and out == ""
    path = str(tmp_path / "intents.json")
    assert err.startswith(f"mcplint: {path}:8:5: no tool 'delete_notes' in the manifest; "
                          'did you mean "delete_note"? (at /1/tool)')
    assert "Traceback" not in err


def test_unknown_not_tool_and_own_tool_in_not(tmp_path: Path) -> None:
    code, _, err = _bad(tmp_path, "intents.json", json.dumps({"intents": [
        {"request": "drop the note", "tool": "delete_note", "not": ["create_notes"]},
        {"request": "drop the note", "tool": "delete_note", "not": ["delete_note"]},
    ]}))
    assert code == 2
    lines = err.splitlines()
    assert "no tool 'create_notes'" in lines[0] and "(at /intents/0/not/0)" in lines[0]
    assert "cannot be both right and forbidden" in lines[1]
    assert "(at /intents/1/not/0)" in lines[1]


@pytest.mark.parametrize(("text", "message"), [
    ('[{"request": "find notes"}]', "'tool' is a required property (at /0)"),
    ('[{"request": "find notes", "tool": "find_notes", "nto": []}]',
     "('nto' was unexpected) (at /0)"),
    ('[{"request": "find notes", "tool": 3}]', "tool: 3 is not of type 'string' (at /0/tool)"),
    ('[{"request": "...", "tool": "find_notes"}]', "the request has no words (at /0/request)"),
    ("[]", "no intents: give at least one request"),
    ('{"requests": []}', 'unknown key \'requests\''),
    ('"find notes"', "expected an array of intents, found str"),
    ('[{"request": "find notes", "tool": "find_notes",}', "invalid JSON"),
    ("", "empty: expected a JSON array of intents"),
])
def test_bad_json_shapes(tmp_path: Path, text: str, message: str) -> None:
    code, out, err = _bad(tmp_path, "bad.json", text)
    assert code == 2 and out == ""
    assert err.startswith(f"mcplint: {tmp_path / 'bad.json'}")
    assert message in err
    assert "Traceback" not in err


def test_bad_toml_names_the_line(tmp_path: Path) -> None:
    code, _, err = _bad(tmp_path, "bad.toml", '[[intents]]\nrequest = "find notes"\n\n'
                        '[[intents]]\nrequest = "drop it"\ntool = "remove_note"\n')
    assert code == 2
    assert err.startswith(f"mcplint: {tmp_path / 'bad.toml'}:1: 'tool' is a required property")
    code, _, err = _bad(tmp_path, "names.toml", '[[intents]]\nrequest = "find notes"\n'
                        'tool = "find_notes"\n\n[[intents]]\nrequest = "drop it"\n'
                        'tool = "remove_note"\n')
    assert code == 2
    assert err.startswith(f"mcplint: {tmp_path / 'names.toml'}:7: no tool 'remove_note'")
    code, _, err = _bad(tmp_path, "broken.toml", "[[intents]\n")
    assert code == 2 and "invalid TOML" in err


def test_missing_intents_file(tmp_path: Path) -> None:
    code, _, err = _run(OVERLAP, "--intents", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read the intents file" in err


def test_toml_intents_work_like_json() -> None:
    code, report = _json(OVERLAP, "--intents", str(FIXTURES / "intents.toml"))
    assert code == 0
    assert _retriever(report)["requests"] == 3


def test_bad_target_exits_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"tools": [', encoding="utf-8")
    code, _, err = _run(str(broken))
    assert code == 2 and err.startswith(f"error: {broken}:1:")
    config = tmp_path / ".mcp.json"
    config.write_text('{"mcpServers": {"x": {"command": "never-run-me"}}}', encoding="utf-8")
    code, _, err = _run(str(config))
    assert code == 2 and "starts no server" in err


def test_json_report_fields() -> None:
    code, report = _json(OVERLAP, "--intents", INTENTS, "--top-k", "2", "--fail-under", "0.9")
    assert code == 1
    assert report["schema"] == "mcplint/hitrate/v1"
    assert {"version", "target", "intents", "mode", "tools", "top_k", "note", "gate",
            "retrievers"} <= set(report)
    assert report["mode"] == "intents" and report["tools"] == 4 and report["top_k"] == 2
    assert "stand-ins" in report["note"]
    assert report["gate"] == {"retriever": "bm25", "fail_under": 0.9,
                              "top1": _retriever(report)["top1"], "passed": False}
    assert [r["name"] for r in report["retrievers"]] == ["bm25", "regex", "tfidf"]
    bm25 = _retriever(report)
    assert {"name", "definition", "requests", "top1", "topk", "mrr", "confusions",
            "not_violations", "unmatched", "unreachable", "uncovered", "per_tool",
            "outcomes"} <= set(bm25)
    assert bm25["requests"] == 6
    assert 0 <= bm25["top1"] <= bm25["topk"] <= 1
    outcome = bm25["outcomes"][0]
    assert set(outcome) == {"request", "kind", "tool", "rank", "top", "not_violated"}
    assert len(outcome["top"]) <= 2
    assert {t["tool"] for t in bm25["per_tool"]} == {"search_notes", "find_notes",
                                                     "create_note", "delete_note"}


def test_not_violation_is_reported(tmp_path: Path) -> None:
    intents = tmp_path / "intents.json"
    intents.write_text(json.dumps([{"request": "make a note titled groceries",
                                    "tool": "delete_note", "not": ["create_note"]}]))
    _, report = _json(OVERLAP, "--intents", str(intents))
    violations = _retriever(report)["not_violations"]
    assert [v["not_violated"] for v in violations] == [["create_note"]]


def test_unreachable_and_uncovered_tools(tmp_path: Path) -> None:
    intents = tmp_path / "intents.json"
    intents.write_text(json.dumps([{"request": "write a new note titled groceries",
                                    "tool": "create_note"}]))
    _, report = _json(OVERLAP, "--intents", str(intents), "--top-k", "1")
    bm25 = _retriever(report)
    assert bm25["uncovered"] == ["search_notes", "find_notes", "delete_note"]
    assert "create_note" not in bm25["unreachable"]
    assert len(bm25["unreachable"]) == 3


def test_self_check_reports_confusable_tools_with_words() -> None:
    """Without intents, each tool asks with its first sentence and its name's words: the
    words "list files" find list_directory, which says "files" more often, first."""
    target = str(FIXTURES / "self-check.json")
    code, out, _ = _run(target)
    assert code == 0
    assert "self-check" in out
    assert ("list_files → list_directory: 1 request; words: list, files\n"
            '      [name] "list files"\n') in out
    assert "stand-ins" in out
    assert _run(target, "--fail-under", "0.9")[0] == 1
    _, report = _json(target)
    assert report["mode"] == "self-check" and report["intents"] is None
    kinds = {o["kind"] for o in _retriever(report)["outcomes"]}
    assert kinds == {"description", "name"}


def test_markdown_and_sarif() -> None:
    code, out, _ = _run(OVERLAP, "--intents", INTENTS, "--format", "markdown")
    assert code == 0
    assert out.startswith("## Tool hit rate:")
    assert "| **bm25** |" in out and "stand\\-ins" in out
    code, out, _ = _run(OVERLAP, "--intents", INTENTS, "--format", "sarif")
    sarif = json.loads(out)
    results = sarif["runs"][0]["results"]
    confusion = next(r for r in results if r["ruleId"] == "HITRATE001"
                     and "find_notes\" first" in r["message"]["text"])
    assert confusion["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
    related = {r["physicalLocation"]["region"]["startLine"]
               for r in confusion["relatedLocations"]}
    assert related == {4, 13}


def test_output_file(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    code, stdout, _ = _run(OVERLAP, "--format", "json", "-o", str(out))
    assert code == 0 and stdout == ""
    assert json.loads(out.read_text())["schema"] == "mcplint/hitrate/v1"


def test_shipped_intents_validate_against_the_schema() -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(schema())
    validator = Draft202012Validator(schema())
    data = json.loads(Path(INTENTS).read_text())
    assert not list(validator.iter_errors(data))
    for path in sorted((ROOT / "bench" / "hitrate").glob("*.json")):
        assert not list(validator.iter_errors(json.loads(path.read_text()))), path


def test_regex_retriever_matches_what_the_regular_expression_finds() -> None:
    """The regex retriever scores a tool by the request's words that
    ``(?i)\\bword`` finds in the tool's text (identifiers split into words)."""
    manifest = load(Source(OVERLAP)).manifest
    assert manifest is not None
    index = SimilarityIndex.from_manifest(manifest)
    for request in ("look for words inside my notes", "delete the note", "tit bod"):
        scores = index.regex(request)
        for i, entry in enumerate(index.entries):
            text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|[_\W]+", " ", entry.text)
            found = [w for w in query_words(request)
                     if re.search(rf"(?i)\b{re.escape(w)}", text)]
            assert int(scores.get(i, 0)) == len(found), (request, entry.name)


def test_output_is_deterministic() -> None:
    first = _run(OVERLAP, "--intents", INTENTS, "--format", "json")[1]
    second = _run(OVERLAP, "--intents", INTENTS, "--format", "json")[1]
    assert first == second


@pytest.mark.parametrize("data", [
    [{"request": "find notes", "tool": "find_notes"}],
    [{"request": "find notes", "tool": "find_notes", "not": ["a", "b"], "server": "s"}],
    [{"request": "find notes", "tool": "find_notes", "not": ["a", "a"]}],
    [{"request": "find notes", "tool": "find_notes", "not": [""]}],
    [{"request": "find notes", "tool": "find_notes", "not": "a"}],
    [{"request": "find notes", "tool": "find_notes", "server": ""}],
    [{"request": "!!", "tool": "find_notes"}],
    [{"request": "find notes", "tool": ""}],
    [{"request": "find notes"}],
    [{"request": "find notes", "tool": "x", "extra": 1}],
    [["find notes", "x"]],
    [],
    {"intents": []},
])
def test_the_direct_shape_check_agrees_with_the_schema(data: Any) -> None:
    from jsonschema import Draft202012Validator

    from mcplint.hitrate.intents import well_formed

    validator = Draft202012Validator({"$defs": schema()["$defs"], "$ref": "#/$defs/intents"})
    assert well_formed(data) == validator.is_valid(data)


def test_server_set_names_tools_by_server(tmp_path: Path) -> None:
    target = str(FIXTURES / "server-set.json")
    intents = tmp_path / "intents.json"
    intents.write_text(json.dumps([
        {"request": "look up pages on the web about sourdough", "tool": "search",
         "server": "web"},
        {"request": "jot down a note titled bread", "tool": "create_note"},
    ]))
    code, report = _json(target, "--intents", str(intents))
    assert code == 0
    bm25 = _retriever(report)
    assert [o["tool"] for o in bm25["outcomes"]] == ["web/search", "notes/create_note"]
    assert bm25["top1"] == 1.0
    assert bm25["uncovered"] == ["notes/search"]
    ambiguous = tmp_path / "ambiguous.json"
    ambiguous.write_text('[{"request": "find sourdough", "tool": "search"}]')
    code, _, err = _run(target, "--intents", str(ambiguous))
    assert code == 2
    assert err == (f"mcplint: {ambiguous}:1:32: several servers have a tool 'search' "
                   '(notes, web); say which with "server" (at /0/tool)\n')
    wrong = tmp_path / "wrong.json"
    wrong.write_text('[{"request": "find sourdough", "tool": "search", "server": "mail"}]')
    code, _, err = _run(target, "--intents", str(wrong))
    assert code == 2 and "no server 'mail' (servers: notes, web)" in err


def test_static_hitrate_imports_no_mcp_sdk() -> None:
    import subprocess
    import sys

    script = ("import sys\nfrom mcplint.cli import main\ntry:\n"
              f"    main(['hitrate', {OVERLAP!r}, '--intents', {INTENTS!r}], "
              "standalone_mode=False)\nexcept SystemExit:\n    pass\n"
              "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_duplicate_tool_names_cannot_be_targets(tmp_path: Path) -> None:
    manifest = tmp_path / "dup.json"
    tool = {"name": "search", "description": "Search.", "inputSchema": {"type": "object"}}
    manifest.write_text(json.dumps({"tools": [tool, tool]}))
    intents = tmp_path / "intents.json"
    intents.write_text('[{"request": "find it", "tool": "search"}]')
    code, _, err = _run(str(manifest), "--intents", str(intents))
    assert code == 2
    assert "the manifest has 2 tools named 'search', so no request can single one out" in err


def test_similarity_index_shares_what_desc004_needs() -> None:
    """The index a rule can hold with ``ctx.memo``: the DESC004 pair is the most similar
    couple of the overlap fixture, and the words they share are the ones that confuse."""
    manifest = load(Source(OVERLAP)).manifest
    assert manifest is not None
    index = SimilarityIndex.from_manifest(manifest)
    names = [e.name for e in index.entries]
    search, find = names.index("search_notes"), names.index("find_notes")
    assert index.neighbours(search, 1)[0][0] == find
    pairs = sorted(((index.cosine(i, j), names[i], names[j]) for i in range(len(names))
                    for j in range(i + 1, len(names))), reverse=True)
    assert pairs[0][1:] == ("search_notes", "find_notes")
    assert index.cosine(search, find) == pytest.approx(index.cosine(find, search))
    assert "notes" in index.shared_terms(search, find)


def test_html_report_is_escaped_and_self_contained(tmp_path: Path) -> None:
    intents = tmp_path / "intents.json"
    intents.write_text(json.dumps([
        {"request": "<script>alert(1)</script> notes about a tag", "tool": "search_notes"},
    ]))
    code, out, _ = _run(OVERLAP, "--intents", str(intents), "--format", "html")
    assert code == 0
    assert out.startswith("<!DOCTYPE html>")
    assert "<script" not in out and "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "default-src 'none'" in out and "stand-ins" in out


SARIF_SCHEMA = ROOT.parent / "shared" / "schemas" / "sarif-schema-2.1.0.json"


@pytest.mark.skipif(not SARIF_SCHEMA.is_file(), reason="../shared (SARIF schema) is absent")
def test_sarif_validates_against_the_schema(tmp_path: Path) -> None:
    from jsonschema import Draft4Validator

    intents = tmp_path / "intents.json"
    intents.write_text(json.dumps([
        {"request": "make a note titled groceries", "tool": "delete_note",
         "not": ["create_note"]},
        {"request": "look for words like invoice inside my notes", "tool": "search_notes"},
    ]))
    code, out, _ = _run(OVERLAP, "--intents", str(intents), "--format", "sarif",
                        "--top-k", "1")
    assert code == 0
    data = json.loads(out)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert sorted(Draft4Validator(schema).iter_errors(data), key=str) == []
    assert {r["ruleId"] for r in data["runs"][0]["results"]} == {"HITRATE001", "HITRATE002",
                                                                 "HITRATE003"}
