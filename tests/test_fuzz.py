"""Hostile input, generated: the loaders and every reporter, through the real command line.

Every input is a tool manifest hypothesis builds and then breaks: cut short, not UTF-8,
UTF-16/32, nested 100,000 deep, NaN and Infinity, integers of thousands of digits, keys given
twice, $ref cycles, tools and schemas that are not objects, control characters in names,
strings too large to lint, empty.  Each is linted beside a good file, in a format picked at
random, and must give a located error and exit 2, or lint cleanly: never a traceback, a hang
or unbounded memory, and the good file is still reported in full.  Files that are not files
(FIFOs, symlink loops, unreadable files, devices) are tried one by one below.

The counts (inputs tried, outcomes, tracebacks, hangs, peak memory) are printed at the end of
the run; MCPLINT_FUZZ_REPORT=path also writes them as JSON.  MCPLINT_FUZZ_SCALE=10 tries ten
times the examples; MCPLINT_FUZZ_FULL=1 adds the 100 MB inputs, too slow to build in CI.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import tempfile
import threading
import time
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mcplint.cli import main
from mcplint.findings import (
    Edit,
    Finding,
    Fix,
    InputError,
    ParameterSummary,
    Related,
    RuleInfo,
    Severity,
    SourceLocation,
    TextEdit,
    ToolSummary,
)
from mcplint.loaders import reading
from mcplint.loaders.jsonsource import Document, ParseError, parse_json
from mcplint.loaders.manifest import build_manifest
from mcplint.reporters import FORMATS, ReportOptions, get_reporter
from mcplint.run import FileSummary, Report
from tests import fuzz_stats

FULL = os.environ.get("MCPLINT_FUZZ_FULL") == "1"
# CI is reproducible (the same examples each run); a developer's run explores new ones.
SCALE = float(os.environ.get("MCPLINT_FUZZ_SCALE", "1"))  # more examples for a long local run


def fuzz(examples: int) -> settings:
    return settings(max_examples=max(1, int(examples * SCALE)), deadline=None,
                    derandomize=bool(os.environ.get("CI")),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example,
                                           HealthCheck.filter_too_much])
HANG_SECONDS = 30  # one input; the slowest seen is well under a second
MEMORY_LIMIT_MB = 1024  # one input's peak resident memory, the test process included

GOOD = {"tools": [
    {"name": "get_ticket", "description": "Get a ticket.", "inputSchema": {
        "type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
    {"name": "delete_ticket", "description": "Deletes a ticket.", "inputSchema": {
        "type": "object", "properties": {"id": {"type": "string"}}}},
]}


class Hang(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"no answer in {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- what hypothesis builds ----------------------------------------------------------------

names = st.one_of(
    st.text(max_size=20),
    st.text(st.characters(codec="utf-8", categories=("Cc", "Cf", "Zl", "Zp", "Ll")), max_size=8),
    st.sampled_from(["get_ticket", "delete_all", "a\x00b", "\x1b[2J", "x\u202ey", "", " "]),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(10**400), 10**400),
                    st.floats(allow_nan=False, allow_infinity=False), names)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(names, inner, max_size=3)), max_leaves=8)
refs = st.sampled_from(["#", "#/$defs/a", "#/$defs/b", "#/properties/x", "#/definitions/a",
                        "#/$defs/a/properties/x", "other.json#/a", "#/nowhere"])


def _schema(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries({}, optional={
        "type": st.sampled_from(["object", "string", "integer", "number", "array", "boolean",
                                 "null"]) | st.lists(st.sampled_from(["string", "null"]))
        | json_values,
        "properties": st.dictionaries(names, inner, max_size=4) | json_values,
        "required": st.lists(names, max_size=3) | json_values,
        "items": inner | st.lists(inner, max_size=2),
        "$defs": st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2),
        "$ref": refs | json_values,
        "anyOf": st.lists(inner, max_size=3), "oneOf": st.lists(inner, max_size=3),
        "allOf": st.lists(inner, max_size=3), "not": inner,
        "additionalProperties": st.booleans() | inner,
        "enum": st.lists(scalars, max_size=4) | json_values,
        "description": names | json_values, "default": json_values,
        "minimum": scalars, "maximum": scalars, "pattern": names,
    })


schemas = st.recursive(st.fixed_dictionaries({}, optional={"type": st.just("string"),
                                                            "$ref": refs}),
                       _schema, max_leaves=12) | json_values
annotations = st.fixed_dictionaries({}, optional={
    key: st.booleans() | json_values
    for key in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "title")
}) | json_values
tools = st.fixed_dictionaries({}, optional={
    "name": names | json_values, "title": names | json_values,
    "description": st.text(max_size=200) | json_values, "inputSchema": schemas,
    "outputSchema": schemas, "annotations": annotations,
}) | json_values
tool_lists = st.lists(tools, max_size=5)
manifests = st.one_of(
    st.fixed_dictionaries({"tools": tool_lists}),
    tool_lists,
    st.fixed_dictionaries({"jsonrpc": st.just("2.0"), "id": st.integers(),
                           "result": st.fixed_dictionaries({"tools": tool_lists})}),
    st.fixed_dictionaries({"serverInfo": json_values, "protocolVersion": json_values,
                           "tools": tool_lists}),
    st.fixed_dictionaries({"servers": st.dictionaries(names, st.fixed_dictionaries(
        {"tools": tool_lists}), min_size=1, max_size=2)}),
    st.fixed_dictionaries({"jsonrpc": st.just("2.0"), "error": json_values}),
    json_values,
)

# Each breaks a serialized manifest in one way; some of it must still lint.
BREAKS = ("none", "truncate", "garble", "invalid-utf8", "utf16", "utf32", "utf8-bom",
          "deep", "nan", "huge-int", "huge-float", "duplicate-key", "raw-control", "jsonc",
          "large-string", "empty", "binary")


@st.composite
def hostile_inputs(draw: st.DrawFn) -> tuple[str, bytes]:
    manifest = draw(manifests)
    text = json.dumps(manifest, ensure_ascii=draw(st.booleans()),
                      indent=draw(st.sampled_from([None, 2])))
    kind = draw(st.sampled_from(BREAKS))
    data = text.encode("utf-8", "surrogatepass")
    numbers = [m.start() for m in re.finditer(r"(?<![\w.\"])-?\d", text)]
    objects = [m.end() for m in re.finditer(r"\{", text)]
    if kind == "truncate":
        data = data[:draw(st.integers(0, max(len(data) - 1, 0)))]
    elif kind == "garble":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at + 1:]
    elif kind == "invalid-utf8":
        at = draw(st.integers(0, len(data)))
        bad = draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf"]))
        data = data[:at] + bad + data[at:]
    elif kind == "utf16":
        data = text.encode(draw(st.sampled_from(["utf-16", "utf-16-le", "utf-16-be"])),
                           "surrogatepass")
    elif kind == "utf32":
        data = text.encode(draw(st.sampled_from(["utf-32", "utf-32-le"])), "surrogatepass")
    elif kind == "utf8-bom":
        data = b"\xef\xbb\xbf" + data
    elif kind == "deep":
        depth = draw(st.sampled_from([100, 511, 512, 513, 5_000, 100_000]))
        opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}"),
                                               ('{"tools":[{"name":"x","inputSchema":', "}]}")]))
        if opener.startswith('{"tools"'):
            inner = '{"type":"object","properties":{"p":' * depth + "{}" + "}}" * depth
            data = (opener + inner + closer).encode()
        else:
            data = (opener * depth + text + closer * depth).encode("utf-8", "surrogatepass")
    elif kind == "nan" and numbers:
        at = draw(st.sampled_from(numbers))
        word = draw(st.sampled_from(["NaN", "Infinity", "-Infinity"]))
        data = (text[:at] + word + " " + text[at:].lstrip("-")).encode("utf-8", "surrogatepass")
    elif kind == "huge-int" and numbers:
        at = draw(st.sampled_from(numbers))
        digits = draw(st.sampled_from([400, 4300, 4301, 6000]))
        data = (text[:at] + "9" * digits + " " + text[at:]).encode("utf-8", "surrogatepass")
    elif kind == "huge-float" and numbers:
        at = draw(st.sampled_from(numbers))
        data = (text[:at] + draw(st.sampled_from(["1e999", "-1e999", "1e-999"])) + " "
                + text[at:]).encode("utf-8", "surrogatepass")
    elif kind == "duplicate-key" and objects:
        at = draw(st.sampled_from(objects))
        key = draw(st.sampled_from(["name", "description", "tools", "type", "a"]))
        data = (text[:at] + f'"{key}": "first", "{key}": "second",' + text[at:]).encode(
            "utf-8", "surrogatepass")
    elif kind == "raw-control":
        at = draw(st.integers(0, len(text)))
        data = (text[:at] + draw(st.sampled_from(["\x00", "\x01", "\x1b", "\u2028"]))
                + text[at:]).encode("utf-8", "surrogatepass")
    elif kind == "jsonc":
        data = ("// a comment\n" + text.replace(",", ", /* c */").replace("]", ",]")).encode(
            "utf-8", "surrogatepass")
    elif kind == "large-string":
        # Under the tool limit a string is linted (a megabyte takes seconds: keep it smaller
        # here); over it the tool is skipped, at once.
        size = draw(st.sampled_from([100_000, 1_000_001, 3_000_000]))
        filler = draw(st.sampled_from(["word ", "\u202e", "a", "é"])) * (size // 5 + 1)
        manifest = {"tools": [{"name": "big", "description": filler[:size],
                               "inputSchema": {"type": "object"}}, GOOD["tools"][0]]}
        data = json.dumps(manifest, ensure_ascii=False).encode()
    elif kind == "empty":
        data = draw(st.sampled_from([b"", b" ", b"\n\n", b"\xef\xbb\xbf"]))
    elif kind == "binary":
        data = draw(st.binary(min_size=1, max_size=512))
    return kind, data


# --- checking one run ----------------------------------------------------------------------

_LOCATED = re.compile(r"^error: (?P<file>.+?)(?::(?P<line>\d+):(?P<column>\d+))?: (?P<msg>.+)$")
_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))


def _strict_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in JSON output")

    return json.loads(text, parse_constant=refuse)


def _check_output(fmt: str, out: str) -> None:
    """The output is well formed for its format."""
    if fmt in ("json", "sarif"):
        _strict_json(out)
    elif fmt == "junit":
        ET.fromstring(out)
    elif fmt in ("html", "concise", "full", "text", "github"):
        raw = [c for c in out if c not in "\n\t" and unicodedata.category(c) in _HIDDEN]
        assert raw == [], [f"U+{ord(c):04X}" for c in raw[:5]]


def _invoke(args: list[str], stdin: bytes | None = None) -> tuple[Result, float, float]:
    fuzz_stats.reset_peak()
    start = time.perf_counter()
    with time_limit(HANG_SECONDS):
        result = CliRunner().invoke(main, args, input=stdin, catch_exceptions=True)
    return result, time.perf_counter() - start, fuzz_stats.peak_mb()


def _judge(result: Result, seconds: float, memory: float,
           memory_limit: float = MEMORY_LIMIT_MB) -> None:
    if os.environ.get("MCPLINT_FUZZ_TRACE"):
        print(f"{seconds:.2f}s {memory:.0f}MiB {result.exit_code}", flush=True)
    """Record the run's outcome, then fail on a traceback, a hang or too much memory."""
    exception = result.exception
    if isinstance(exception, Hang):
        fuzz_stats.record("hangs", seconds, memory)
    elif exception is not None and not isinstance(exception, SystemExit):
        fuzz_stats.record("tracebacks", seconds, memory)
    else:
        fuzz_stats.record({0: "linted cleanly", 1: "linted with findings",
                           2: "input errors (exit 2)"}.get(result.exit_code, "other exit"),
                          seconds, memory)
    assert not isinstance(exception, Hang), "hang"
    if exception is not None and not isinstance(exception, SystemExit):
        raise exception
    assert result.exit_code in (0, 1, 2), result.output
    assert memory < memory_limit, f"{memory:.0f} MiB"


def _located_errors(result: Result, path: str) -> list[re.Match[str]]:
    lines = (result.stderr + result.stdout).splitlines()
    return [m for m in map(_LOCATED.match, lines)
            if m and (m["file"] == path or m["file"].startswith(f"{path}#"))]


_good_findings: dict[str, list[dict[str, Any]]] = {}


def _good_reference(folder: Path) -> list[dict[str, Any]]:
    """What the good file gives on its own, file name aside."""
    key = "reference"
    if key not in _good_findings:
        good = folder / "good.json"
        result = CliRunner().invoke(main, ["check", "--select", "ALL", "--format", "json",
                                           "--fail-on", "never", str(good)])
        _good_findings[key] = [{k: v for k, v in f.items() if k != "file"}
                               for f in json.loads(result.stdout)["findings"]]
    return _good_findings[key]


def lint_beside_good(data: bytes, fmt: str, folder: Path) -> Result:
    """Lint the hostile file and the good one in one run; check all that must hold."""
    good = folder / "good.json"
    good.write_text(json.dumps(GOOD), encoding="utf-8")
    hostile = folder / "hostile.json"
    hostile.write_bytes(data)
    args = ["check", "--select", "ALL", "--fail-on", "never", str(good), str(hostile)]
    result, seconds, memory = _invoke([*args, "--format", fmt])
    _judge(result, seconds, memory)
    _check_output(fmt, result.stdout)
    # The JSON report of the same run: the good file in full, the hostile one located.
    report, seconds, memory = _invoke([*args, "--format", "json"])
    _judge(report, seconds, memory)
    data_out = _strict_json(report.stdout)
    good_found = [{k: v for k, v in f.items() if k != "file"}
                  for f in data_out["findings"] if f["file"] == str(good)]
    assert good_found == _good_reference(folder)
    if report.exit_code == 2:
        errors = data_out["input_errors"]
        # A server set's errors name the server too: hostile.json#name.
        assert errors and all(e["file"] == str(hostile) or e["file"].startswith(f"{hostile}#")
                              for e in errors), errors
        assert _located_errors(report, str(hostile)), report.stderr
        fuzz_stats.STATS["input errors reported"] += len(errors)
    return result


@fuzz(350)
@given(hostile_inputs(), st.sampled_from(FORMATS))
def test_hostile_files_lint_or_fail_located(hostile: tuple[str, bytes], fmt: str) -> None:
    kind, data = hostile
    fuzz_stats.STATS[f"break: {kind}"] += 1
    with tempfile.TemporaryDirectory() as folder:
        lint_beside_good(data, fmt, Path(folder))


@fuzz(60)
@given(hostile_inputs())
def test_hostile_standard_input(hostile: tuple[str, bytes]) -> None:
    _, data = hostile
    result, seconds, memory = _invoke(["check", "--select", "ALL", "--format", "json",
                                       "--fail-on", "never", "-"], stdin=data)
    _judge(result, seconds, memory)
    _strict_json(result.stdout)
    if result.exit_code == 2:
        assert _located_errors(result, "<stdin>"), result.stderr


# --- the loaders alone, at more examples ---------------------------------------------------

@fuzz(400)
@given(st.one_of(st.text(), st.text(alphabet='{}[]:,"\\/* \nab1-.eEtrufalsn'),
                 hostile_inputs().map(lambda h: h[1].decode("utf-8", "replace"))))
@example('{[""')  # a string after "[" in key position crashed the duplicate-key tracking
@example('{"a\\q": 1}')  # a bad escape in a key crashed the position index
def test_parse_json_answers_every_text(text: str) -> None:
    parsed = parse_json(text)
    fuzz_stats.record("parser: " + ("parsed" if isinstance(parsed, Document) else "refused"),
                      0.0, 0.0)
    if isinstance(parsed, Document):
        assert parsed.position("/tools/0/name").line >= 1
        build_manifest("fuzz.json", parsed)
    else:
        assert isinstance(parsed, ParseError) and parsed.position.line >= 1


@fuzz(300)
@given(st.binary(max_size=300) | hostile_inputs().map(lambda h: h[1]))
def test_decode_answers_every_byte_string(data: bytes) -> None:
    decoded = reading.decode("fuzz.json", data)
    if not isinstance(decoded, str):
        assert decoded.position.line >= 1 and decoded.message


# --- every reporter on hostile reports -----------------------------------------------------

texts = st.text(max_size=40) | st.sampled_from(
    ["\ud800", "\x1b[2J", "a\u202eb", "<script>", "::error::x", "%0A", "\r\n", "]]>", "&#0;"])
ints = st.integers(-3, 10**6) | st.sampled_from([0, 10**30])


@st.composite
def reports(draw: st.DrawFn) -> Report:
    files = draw(st.lists(texts.filter(bool), min_size=1, max_size=3, unique=True))
    findings = []
    for _ in range(draw(st.integers(0, 6))):
        fix = None
        if draw(st.booleans()):
            fix = Fix(draw(texts), (Edit(draw(texts), draw(texts), json.dumps(draw(texts))),),
                      (TextEdit(1, 1, 1, 1, draw(texts)),))
        source = (SourceLocation(draw(texts), draw(ints), draw(ints), draw(ints), draw(ints))
                  if draw(st.booleans()) else None)
        findings.append(Finding(
            draw(texts), draw(texts), draw(st.sampled_from(list(Severity))), draw(texts),
            draw(st.sampled_from(files)), draw(texts), draw(ints), draw(ints),
            draw(st.none() | texts),
            tuple(Related(draw(texts), draw(texts), draw(ints), draw(ints))
                  for _ in range(draw(st.integers(0, 2)))),
            draw(st.none() | texts), fix, source))
    summaries = tuple(
        FileSummary(file, draw(ints), draw(st.none() | ints), draw(st.none() | texts),
                    draw(st.none() | texts),
                    tuple(ToolSummary(draw(texts), draw(st.none() | texts), draw(ints),
                                      draw(texts), draw(ints),
                                      (ParameterSummary(draw(texts), (draw(texts),),
                                                        draw(st.booleans()),
                                                        draw(st.none() | texts)),))
                          for _ in range(draw(st.integers(0, 3)))),
                    draw(st.booleans()))
        for file in files)
    errors = tuple(InputError(draw(st.sampled_from(files)), draw(ints), draw(ints), draw(texts))
                   for _ in range(draw(st.integers(0, 2))))
    rules = {f.code: RuleInfo(f.code, f.name, draw(texts), f.severity, (draw(texts),),
                              draw(texts), draw(texts), draw(texts), draw(texts))
             for f in findings if draw(st.booleans())}
    ordered = tuple(sorted(findings, key=lambda f: f.sort_key))
    return Report(ordered, errors, summaries, draw(texts), rules, ())


@fuzz(150)
@given(reports(), st.sampled_from(FORMATS), st.booleans())
def test_every_reporter_writes_every_report(report: Report, fmt: str, quiet: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "report"
        # As `-o` writes it: UTF-8, strict, so a lone surrogate written raw would fail here.
        with open(path, "w", encoding="utf-8") as handle:
            get_reporter(fmt)(report, handle, ReportOptions(color=False, quiet=quiet))
        out = path.read_text(encoding="utf-8")
    fuzz_stats.record(f"reporter: {fmt}", 0.0, 0.0)
    _check_output(fmt, out)
    buffer = io.StringIO()
    get_reporter(fmt)(report, buffer, ReportOptions(color=True, statistics=True))


def test_hostile_paths_in_reports() -> None:
    # Found by the fuzz suite: a control character in a file name reached the GitHub log raw,
    # and SARIF could not write a lone surrogate (a server's name in file.json#name) as a URI.
    for file in ("\x1f", "\ud800", "a.json#\u202e\n"):
        report = Report((), (InputError(file, 0, 0, "m"),), (FileSummary(file, 0, None),), "")
        for fmt in FORMATS:
            out = io.StringIO()
            get_reporter(fmt)(report, out, ReportOptions(color=False))
            out.getvalue().encode("utf-8")
            _check_output(fmt, out.getvalue())


# --- files that are not files ----------------------------------------------------------------

@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.json").write_text(json.dumps(GOOD), encoding="utf-8")
    return tmp_path


def _lint(*targets: str, stdin: bytes | None = None,
          memory_limit: float = MEMORY_LIMIT_MB) -> Result:
    result, seconds, memory = _invoke(["check", "--select", "ALL", "--format", "json",
                                       "--fail-on", "never", *targets], stdin=stdin)
    _judge(result, seconds, memory, memory_limit)
    return result


def _good_in(result: Result) -> bool:
    return any(f["file"] == "good.json" for f in _strict_json(result.stdout)["findings"])


def _error(result: Result, file: str) -> str:
    errors = [e["message"] for e in _strict_json(result.stdout)["input_errors"]
              if e["file"] == file]
    assert errors, result.stdout
    return errors[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_with_no_writer_does_not_hang(folder: Path) -> None:
    os.mkfifo(folder / "pipe.json")
    result = _lint("good.json", "pipe.json")
    assert result.exit_code == 2 and _good_in(result)
    assert "empty" in _error(result, "pipe.json")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_with_a_writer_is_read(folder: Path) -> None:
    # As `mcplint check <(curl ...)` passes it.
    os.mkfifo(folder / "pipe.json")

    def write() -> None:
        with open(folder / "pipe.json", "w", encoding="utf-8") as handle:
            handle.write(json.dumps(GOOD))

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(0.2)  # the writer is waiting in open() for a reader
    result = _lint("pipe.json")
    writer.join(5)
    assert result.exit_code == 0
    assert any(f["file"] == "pipe.json" for f in _strict_json(result.stdout)["findings"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("mode", ["--fix", "--diff"])
def test_fixing_does_not_open_a_fifo_twice(folder: Path, mode: str) -> None:
    os.mkfifo(folder / "pipe.json")
    result, seconds, memory = _invoke(["check", mode, "--format", "json", "--fail-on", "never",
                                       "good.json", "pipe.json"])
    _judge(result, seconds, memory)
    assert "special files" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_special_files_under_a_directory_are_skipped(folder: Path) -> None:
    tree = folder / "tree"
    tree.mkdir()
    (tree / "good.json").write_text(json.dumps(GOOD), encoding="utf-8")
    os.mkfifo(tree / "pipe.json")
    os.symlink("loop-b.json", tree / "loop-a.json")
    os.symlink("loop-a.json", tree / "loop-b.json")
    result = _lint("tree")
    data = _strict_json(result.stdout)
    skipped = {f["file"]: f["skipped"] for f in data["files"]}
    assert skipped[os.path.join("tree", "pipe.json")] == "not a regular file (a FIFO)"
    assert {e["file"] for e in data["input_errors"]} == {
        os.path.join("tree", "loop-a.json"), os.path.join("tree", "loop-b.json")}
    assert any(f["file"] == os.path.join("tree", "good.json") for f in data["findings"])


def test_symlink_loops_and_dangling_links_are_located_errors(folder: Path) -> None:
    os.symlink("b.json", folder / "a.json")
    os.symlink("a.json", folder / "b.json")
    os.symlink("missing.json", folder / "dangling.json")
    result = _lint("good.json", "a.json", "dangling.json")
    assert result.exit_code == 2 and _good_in(result)
    assert "symbolic links" in _error(result, "a.json")
    assert _error(result, "dangling.json") == "a symlink to a missing file"


def test_an_unreadable_file_is_a_located_error(folder: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    secret = folder / "secret.json"
    secret.write_text(json.dumps(GOOD), encoding="utf-8")
    secret.chmod(0)
    if os.access(secret, os.R_OK):  # root reads anything: refuse the open as the kernel would
        real_open = os.open

        def refuse(path: Any, *args: Any, **kwargs: Any) -> int:
            if os.fspath(path) == "secret.json":
                raise PermissionError(13, "Permission denied", path)
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(reading.os, "open", refuse)
    result = _lint("good.json", "secret.json")
    assert result.exit_code == 2 and _good_in(result)
    assert _error(result, "secret.json") == "cannot read: Permission denied"


def test_a_directory_named_json_and_a_device(folder: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (folder / "dir.json").mkdir()
    (folder / "dir.json" / "inner.txt").write_text("x", encoding="utf-8")
    monkeypatch.setattr(reading, "MAX_BYTES", 1 << 20)  # /dev/zero never ends
    targets = ["good.json", "dir.json"] + (["/dev/zero"] if os.path.exists("/dev/zero") else [])
    result = _lint(*targets)
    assert result.exit_code == 2 and _good_in(result)
    if "/dev/zero" in targets:
        assert "larger than 1 MiB" in _error(result, "/dev/zero")


def test_a_file_over_the_size_limit(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "MAX_BYTES", 1000)
    (folder / "big.json").write_text(json.dumps({"tools": [GOOD["tools"][0]] * 40}),
                                     encoding="utf-8")
    result = _lint("good.json", "big.json")
    assert result.exit_code == 2 and _good_in(result)
    assert "larger than" in _error(result, "big.json")


def test_utf16_on_standard_input() -> None:
    result = _lint("-", stdin=json.dumps(GOOD).encode("utf-16"))
    assert result.exit_code == 2
    assert "UTF-16" in _error(result, "<stdin>")


@pytest.mark.skipif(not FULL, reason="100 MB inputs: set MCPLINT_FUZZ_FULL=1 (too slow for CI)")
@pytest.mark.parametrize("where", ["tool", "server"])
def test_100_mb_strings(folder: Path, where: str) -> None:
    text = "word " * (100 * 1024 * 1024 // 5)
    if where == "tool":  # skipped as too large, located at the string
        manifest: dict[str, Any] = {"tools": [{"name": "x", "description": text,
                                               "inputSchema": {"type": "object"}},
                                              GOOD["tools"][0]]}
    else:  # a snapshot's instructions and prompt: no tool, read in full
        manifest = {"serverInfo": {"name": "s", "version": "1"}, "protocolVersion": "2025-06-18",
                    "instructions": text[: len(text) // 2], "tools": [GOOD["tools"][0]],
                    "prompts": [{"name": "p", "description": text[: len(text) // 2]}]}
    (folder / "huge.json").write_text(json.dumps(manifest), encoding="utf-8")
    del text, manifest
    global HANG_SECONDS
    saved, HANG_SECONDS = HANG_SECONDS, 300
    try:
        # Linear in the input: the text, its parse and the JSON data, about 12 times 100 MB.
        result = _lint("good.json", "huge.json", memory_limit=2048)
    finally:
        HANG_SECONDS = saved
    assert _good_in(result)
    assert result.exit_code == (2 if where == "tool" else 0)


def test_a_file_is_read_by_its_size_and_whole_when_it_grew(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io as _io

    from mcplint.loaders import reading

    path = folder / "grows.json"
    text = json.dumps(GOOD).encode()
    path.write_bytes(text)
    asked: list[int] = []
    original_read = _io.BufferedReader.read

    class Counting(_io.BufferedReader):
        def read(self, size: int | None = -1, /) -> bytes:
            asked.append(-1 if size is None else size)
            return original_read(self, size)

    real_fdopen = os.fdopen
    monkeypatch.setattr(reading.os, "fdopen",
                        lambda fd, mode: Counting(real_fdopen(fd, mode, buffering=0)))
    # A regular file is asked for its size and one byte more, not for the 256 MB limit
    # (read(n) allocates n bytes before reading).
    assert reading.read_bytes(str(path)) == text
    assert asked == [len(text) + 1]
    # A file that grew after its size was taken (an editor still writing) is read whole.
    asked.clear()
    real_fstat = os.fstat

    class Smaller:
        def __init__(self, info: os.stat_result) -> None:
            self.st_mode, self.st_size = info.st_mode, info.st_size - 10

    monkeypatch.setattr(reading.os, "fstat", lambda fd: Smaller(real_fstat(fd)))
    assert reading.read_bytes(str(path)) == text
    assert asked == [len(text) - 9, reading.MAX_BYTES + 1 - (len(text) - 9)]
