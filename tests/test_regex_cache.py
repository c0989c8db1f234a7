"""The machine's cache of compiled regular expressions (``mcplint.regex_cache``).

``re.Pattern`` objects compare equal only when their flags, source and compiled program are
the same, so ``==`` against ``re.compile`` checks the cached program instruction by instruction.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcplint import regex_cache
from mcplint.engine.packs import load_packs
from mcplint.engine.registry import builtin_checks

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "support-desk.json"


# The CLI in a fresh process, counting the patterns it had to compile itself (not from the
# cache): the count is the last line of standard error.
_COUNTING = """
import sys
from mcplint import regex_cache
built = []
original = regex_cache._entry
def counting(pattern, flags):
    built.append(pattern)
    return original(pattern, flags)
regex_cache._entry = counting
sys.argv = ["mcplint", *sys.argv[1:]]
from mcplint.cli import main
try:
    main()
finally:
    sys.stderr.write(f"\\n{len(built)}\\n")
"""


def _lint(cache: Path, output: str = "json") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _COUNTING, "check", "--select", "ALL", "--output-format",
         output, "--fail-on", "never", str(EXAMPLE)],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={**os.environ, "XDG_CACHE_HOME": str(cache)})


def _compiled(run: subprocess.CompletedProcess[str]) -> int:
    return int(run.stderr.split()[-1])


def _cache_file(cache: Path) -> Path:
    (found,) = (cache / "mcplint").glob("regex-*.marshal")
    return found


def _findings(run: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    found: list[dict[str, Any]] = data["findings"] if isinstance(data, dict) else data
    return found


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This process's cache state, emptied and pointed at a folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(regex_cache, "_entries", None)
    monkeypatch.setattr(regex_cache, "_built", {})
    monkeypatch.setattr(regex_cache, "_changed", False)
    return tmp_path


def test_a_run_stores_the_programs_and_the_next_run_builds_from_them(tmp_path: Path) -> None:
    first = _lint(tmp_path)
    assert _compiled(first) > 100
    stored = _cache_file(tmp_path)
    size = stored.stat().st_size
    # The second run finds every program it needs: it compiles none, gives the same findings
    # and leaves the file as it was.
    second = _lint(tmp_path)
    assert _compiled(second) == 0
    assert _findings(second) == _findings(first)
    assert stored.stat().st_size == size
    # The concise and full reports compile their own patterns after the lint: kept too.
    for output in ("concise", "full"):
        _lint(tmp_path, output)
        assert _compiled(_lint(tmp_path, output)) == 0, output
    import marshal

    entries = marshal.loads(stored.read_bytes())
    # Module patterns and the packs' option patterns (case-blind) are both in it.
    assert (0, r"\s+") in entries
    assert any(flags & re.IGNORECASE for flags, _ in entries)
    assert len(entries) > 100


def test_every_cached_program_is_the_one_re_compiles(tmp_path: Path) -> None:
    _lint(tmp_path)
    import marshal

    entries = marshal.loads(_cache_file(tmp_path).read_bytes())
    import _sre  # type: ignore[import-not-found]

    for (flags, pattern), entry in entries.items():
        assert _sre.compile(pattern, *entry) == re.compile(pattern, flags), pattern


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, (list, tuple)):
        return [s for item in value for s in _strings(item)]
    return []


def test_every_pack_option_compiles_through_the_cache_as_re_does(fresh: Path) -> None:
    # Every string of every built-in rule's options, pattern or word: each is compiled
    # case-blind by some rule or could be (a word list is a valid pattern too).
    rules = load_packs(builtin_checks())
    sources = {s for rule in rules.values() for s in _strings(dict(rule.options))}
    valid = {}
    for source in sources:
        try:
            valid[source] = re.compile(source, re.IGNORECASE)
        except re.error:
            continue
    assert len(valid) > 500
    for source, expected in valid.items():
        assert regex_cache.compile(source, re.IGNORECASE) == expected, source
    regex_cache.save()
    # Built again from what was stored, each is still the same program.
    regex_cache._entries = None
    regex_cache._built.clear()
    for source, expected in valid.items():
        assert regex_cache.compile(source, re.IGNORECASE) == expected, source
    assert not regex_cache._changed


def test_a_broken_cache_file_is_ignored_and_replaced(tmp_path: Path) -> None:
    expected = _findings(_lint(tmp_path))
    stored = _cache_file(tmp_path)
    stored.write_bytes(b"\x00not marshal data")
    again = _lint(tmp_path)
    assert _findings(again) == expected and _compiled(again) > 100
    import marshal

    assert len(marshal.loads(stored.read_bytes())) > 100
    # A file of the right format but the wrong content (a list, not a mapping) too.
    stored.write_bytes(marshal.dumps([1, 2, 3]))
    assert _findings(_lint(tmp_path)) == expected


def test_a_pattern_asked_for_again_is_the_same_object(fresh: Path) -> None:
    # Rules that compile an option's pattern for each tool get re's own caching behaviour.
    first = regex_cache.compile(r"\bsecret\w*", re.I)
    assert regex_cache.compile(r"\bsecret\w*", re.I) is first
    assert regex_cache.compile(r"\bsecret\w*") is not first


def test_a_program_the_engine_refuses_is_compiled_afresh(fresh: Path) -> None:
    pattern = r"\bfresh-(\w+)"
    regex_cache.compile(r"\s+")  # loads the (empty) cache
    assert regex_cache._entries is not None
    # A malformed program under this pattern's key: _sre's validator rejects it.
    regex_cache._entries[(0, pattern)] = (32, [0, 1, 2, 3], 0, {}, (None,))
    got = regex_cache.compile(pattern)
    assert got == re.compile(pattern)
    assert got.match("fresh-start")[1] == "start"  # type: ignore[index]


def test_without_the_private_compiler_it_is_re_compile(fresh: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regex_cache, "_BUILD", False)
    assert regex_cache.compile(r"a+b", re.I) == re.compile(r"a+b", re.I)
    regex_cache.save()
    assert not list(fresh.glob("mcplint/regex-*"))
    # A compiler whose internals are not what the module expects: the same.
    monkeypatch.setattr(regex_cache, "_BUILD", True)

    def changed(pattern: str, flags: int) -> tuple[int]:
        raise TypeError("not the signature this module knows")

    monkeypatch.setattr(regex_cache, "_entry", changed)
    assert regex_cache.compile(r"c+d") == re.compile(r"c+d")
    # A bad pattern is still the error re raises.
    monkeypatch.undo()
    with pytest.raises(re.error):
        regex_cache.compile(r"(unclosed")


def test_only_the_process_that_loaded_the_cache_writes_it(fresh: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    regex_cache.compile(r"[a-z]+\d")
    # A forked worker has the loader's pid recorded, not its own: it writes nothing.
    monkeypatch.setattr(regex_cache, "_pid", os.getpid() + 1)
    regex_cache.save()
    assert not list(fresh.glob("mcplint/regex-*"))
    monkeypatch.setattr(regex_cache, "_pid", os.getpid())
    regex_cache.save()
    assert len(list(fresh.glob("mcplint/regex-*.marshal"))) == 1


def test_the_file_is_named_for_the_interpreter(fresh: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    here = regex_cache._file()
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert regex_cache._file() != here
