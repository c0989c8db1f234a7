"""Invisible and bidi characters are shown, never printed raw, in every report format.

fixtures/hostile/invisible.json has a tool per class of such characters, in its name, its
description and a parameter name, plus the "delete_\\u202eelif\\u202c_safe" of issue 14.
"""

from __future__ import annotations

import json
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.reporters.visible import escape, reveal

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures" / "hostile" / "invisible.json"

# Every class the fixture must hold; the test below checks it does.
CLASSES = {
    "zero-width": "\u200b\u200c\u200d\u2060\ufeff",
    "bidi-mark": "\u200e\u200f\u061c",
    "bidi-embedding": "\u202a\u202b\u202c\u202d\u202e",
    "bidi-isolate": "\u2066\u2067\u2068\u2069",
    "soft-hyphen": "\u00ad",
    "c0-control": "\u0000\u0001\u0007\u0008\u000b\u000c\r\u001b\u007f",
    "c1-control": "\u0085\u009b",
    "other-format": "\u180e\u2061\ufff9\U0001d173",
    "tag": "\U000e0001\U000e0041\U000e0042\U000e007f",
    "separator": "\u2028\u2029",
    "blank-letter": "\u3164\u115f\uffa0\u034f",
    "variation-run": "\u2764\ufe0f\ufe01\U000e0100",
    "lone-surrogate": "\ud800",
}
BLANK = {"\u034f", "\u115f", "\u1160", "\u3164", "\uffa0"}
SELECTORS = {chr(c) for c in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))}
DELETE = "delete_\u202eelif\u202c_safe"


def hidden(text: str) -> list[str]:
    """The characters of ``text`` that a reader would not see, or that reorder others."""
    found = []
    for i, char in enumerate(text):
        if char in "\n\t":
            continue
        if char == "\r" and text[i + 1:i + 2] == "\n":
            continue  # a line break the format chose (none of ours do; JUnit may)
        selector_run = char in SELECTORS and i > 0 and text[i - 1] in SELECTORS
        category = unicodedata.category(char)
        if selector_run or char in BLANK or category in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            found.append(char)
    return found


def _run(fmt: str, *extra: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(main, ["check", "--select", "ALL", "--format", fmt,
                                       "--fail-on", "never", *extra, str(FIXTURE)],
                                env=env or {})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_fixture_holds_every_class() -> None:
    names = [t["name"] for t in json.loads(FIXTURE.read_text(encoding="utf-8"))["tools"]]
    assert DELETE in names
    for kind, chars in CLASSES.items():
        assert f"{kind.replace('-', '_')}_a{chars}b" in names, kind


@pytest.mark.parametrize("kind", CLASSES)
def test_reveal_escapes_every_class(kind: str) -> None:
    chars = CLASSES[kind]
    assert hidden(chars)
    shown = reveal(f"a{chars}b")
    assert hidden(shown) == []
    assert shown.startswith("a") and shown.endswith("b")


def test_reveal_writes_escapes_as_python_does() -> None:
    assert reveal(DELETE) == "delete_\\u202eelif\\u202c_safe"
    assert reveal("a\x1bb\rc\x85") == "a\\x1bb\\rc\\x85"
    assert reveal("hi\U000e0041") == "hi\\U000e0041"
    assert reveal("\ud800") == "\\ud800"
    assert escape("\u2066") == "\\u2066"


def test_reveal_keeps_what_is_written_with_joiners_and_tags() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    heart = "\u2764\ufe0f"
    for text in (family, scotland, persian, heart, "plain\n\ttext", "ünïcödé"):
        assert reveal(text) == text
    assert reveal("a\r\nb") == "a\nb"
    # A joiner between letters of Latin script, or next to another hidden character, is not.
    assert reveal("x\u200dy") == "x\\u200dy"
    assert reveal("\u00e9\u200b\u200d\u00e9") == "\u00e9\\u200b\\u200d\u00e9"
    # Tag characters outside a flag spell hidden ASCII text.
    assert reveal("\U0001f3f4\U000e0041") == "\U0001f3f4\\U000e0041"


def test_reveal_is_quick_on_large_non_ascii_text() -> None:
    import time

    text = "中文字符\u200b" * 200_000
    start = time.perf_counter()
    shown = reveal(text)
    assert time.perf_counter() - start < 5
    assert shown.count("\\u200b") == 200_000


def _no_raw(text: str) -> None:
    assert hidden(text) == [], [f"U+{ord(c):04X}" for c in hidden(text)][:10]


def test_text() -> None:
    out = _run("text")
    _no_raw(out)
    assert "  delete_\\u202eelif\\u202c_safe\n" in out
    assert "bidi_isolate_a\\u2066\\u2067\\u2068\\u2069b" in out


def test_json_keeps_the_text_as_data() -> None:
    # JSON is read by programs (baselines, bots, editors): they get the names as written, and
    # the escapes are JSON's own, so nothing raw reaches a terminal that prints the file.
    out = _run("json")
    data = json.loads(out)
    tools = {f["tool"] for f in data["findings"]}
    assert DELETE in tools
    assert all(f"{k.replace('-', '_')}_a{c}b" in tools for k, c in CLASSES.items())


def _strings(value: Any, keys: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    if isinstance(value, str):
        return [(keys, value)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(v, (*keys, k))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, keys)]
    return []


def test_sarif_texts_are_revealed_and_properties_kept() -> None:
    data = json.loads(_run("sarif"))
    run = data["runs"][0]
    shown = [text for keys, text in _strings(run["results"])
             if "properties" not in keys and "insertedContent" not in keys]
    for text in shown:
        _no_raw(text)
    messages = [r["message"]["text"] for r in run["results"]]
    assert any('Tool "delete_\\u202eelif\\u202c_safe"' in m for m in messages)
    names = {r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
             for r in run["results"]}
    assert any(name.startswith("delete_\\u202eelif\\u202c_safe") for name in names)
    assert DELETE in {r["properties"]["tool"] for r in run["results"]}


def test_github_annotations(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    out = _run("github", env={"GITHUB_STEP_SUMMARY": str(summary)})
    _no_raw(out)
    assert "delete_\\u202eelif\\u202c_safe" in out
    _no_raw(summary.read_text(encoding="utf-8").replace("@\u200b", "@"))


def test_junit() -> None:
    out = _run("junit")
    root = ET.fromstring(out)
    for element in root.iter():
        _no_raw(element.text or "")
        for value in element.attrib.values():
            _no_raw(value)
    names = {case.get("name") for case in root.iter("testcase")}
    assert any(name.startswith("delete_\\u202eelif\\u202c_safe") for name in names)


def test_markdown() -> None:
    out = _run("markdown")
    # The only invisible character is mcplint's own, after "@", which stops mentions.
    _no_raw(out.replace("@\u200b", "@"))
    cmarkgfm = pytest.importorskip("cmarkgfm", reason="GitHub's renderer (the dev extra)")
    page = cmarkgfm.github_flavored_markdown_to_html(out)
    assert "Tool &quot;delete_\\u202eelif\\u202c_safe&quot; changes state" in page


def test_html_reveals_and_isolates(tmp_path: Path) -> None:
    out = _run("html")
    _no_raw(out)
    assert '<code class="tool-name" dir="auto">delete_\\u202eelif\\u202c_safe</code>' in out
    assert '<div class="description" dir="auto">Deletes a temporary file. \\u2066Safe\\u2069' in out
    assert "unicode-bidi: isolate" in out


def test_diff_text(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"tools": [{"name": DELETE, "description": "Old.",
                                          "inputSchema": {"type": "object"}}]}),
                   encoding="utf-8")
    result = CliRunner().invoke(main, ["diff", str(old), str(FIXTURE)])
    _no_raw(result.stdout)
    assert "delete_\\u202eelif\\u202c_safe" in result.stdout


def test_input_errors_on_stderr_are_revealed(tmp_path: Path) -> None:
    bad = tmp_path / "rpc.json"
    bad.write_text(json.dumps({"jsonrpc": "2.0", "id": 1,
                               "error": {"code": 1, "message": "no\u202eevil\x1b[2J"}}),
                   encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--format", "json", str(bad)])
    assert result.exit_code == 2
    _no_raw(result.stderr)
    assert "no\\u202eevil\\x1b[2J" in result.stderr
