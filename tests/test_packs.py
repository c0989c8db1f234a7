"""The built-in packs are trusted at run time (not validated, to keep start-up fast), so they are
validated here in full: pack shape, every option against its check's schema."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcplint.engine.packs import PackError, builtin_pack_dir, load_packs, parse_pack
from mcplint.engine.registry import builtin_checks

ROOT = Path(__file__).resolve().parents[1]


def test_builtin_packs_pass_full_validation() -> None:
    trusted = load_packs(builtin_checks())
    validated = load_packs(builtin_checks(), validate_builtin=True)
    assert list(trusted) == list(validated)
    for code, rule in validated.items():
        assert dict(trusted[code].options) == dict(rule.options), code


def test_a_user_pack_is_still_validated() -> None:
    text = (builtin_pack_dir() / "naming.toml").read_text(encoding="utf-8")
    broken = text.replace('severity = "warning"', 'severity = "loud"', 1)
    with pytest.raises(PackError, match="loud"):
        parse_pack(broken, "my-pack.toml", builtin_checks())


def test_a_plain_static_lint_does_not_import_jsonschema() -> None:
    # jsonschema costs about a tenth of a second to import; a lint of plain schemas with no
    # config table does not need it.
    code = ("import sys; from mcplint.cli import main\n"
            "try:\n    main(['check', 'fixtures/rules/SPEC004/pass/described.json', '-q'])\n"
            "except SystemExit:\n    pass\n"
            "print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip().splitlines()[-1] == "False"


def test_a_message_field_a_hit_leaves_out_shows_as_its_placeholder() -> None:
    # name-pattern supplies "rename" only when a conventional name is free; a user pack whose
    # message uses it must not crash the run on the other hits.
    rules = load_packs(builtin_checks())
    rule = rules["NAME002"]
    custom = type(rule)(**{**rule.__dict__, "message": "Call it {rename} ({tool})."})
    assert custom.render({"tool": "getUser"}) == "Call it {rename} (getUser)."


def _cached_files(cache: Path) -> list[Path]:
    return sorted((cache / "mcplint").glob("pack-*.json"))


def test_builtin_packs_are_cached_by_content(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parsed = load_packs(builtin_checks())
    files = _cached_files(tmp_path)
    assert len(files) == len([p for p in builtin_pack_dir().iterdir()
                              if p.name.endswith(".toml")])
    # The second run reads the cache and builds the same rules.
    cached = load_packs(builtin_checks())
    assert list(cached) == list(parsed)
    for code, rule in parsed.items():
        assert cached[code].message == rule.message
        assert dict(cached[code].options) == dict(rule.options), code
        assert cached[code].docs == rule.docs


def test_a_cache_entry_is_read_for_its_own_text_only(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = (builtin_pack_dir() / "naming.toml").read_text(encoding="utf-8")
    rules = parse_pack(text, "rules/naming.toml", builtin_checks(), validate=False)
    (entry,) = _cached_files(tmp_path)
    # What is in the cache is what is used: the entry is named by the text's hash.
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["rules"][0]["summary"] = "from the cache"
    entry.write_text(json.dumps(data), encoding="utf-8")
    again = parse_pack(text, "rules/naming.toml", builtin_checks(), validate=False)
    assert again[0].summary == "from the cache" != rules[0].summary
    # An edited pack has another hash: its TOML is read, not the stale entry.
    edited = text.replace(rules[0].summary, "edited summary", 1)
    fresh = parse_pack(edited, "rules/naming.toml", builtin_checks(), validate=False)
    assert fresh[0].summary == "edited summary"
    assert len(_cached_files(tmp_path)) == 2


def test_a_broken_or_unwritable_cache_is_ignored(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    text = (builtin_pack_dir() / "naming.toml").read_text(encoding="utf-8")
    expected = [r.code for r in parse_pack(text, "naming.toml", builtin_checks())]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parse_pack(text, "naming.toml", builtin_checks(), validate=False)
    (entry,) = _cached_files(tmp_path)
    entry.write_text("{not json", encoding="utf-8")
    assert [r.code for r in parse_pack(text, "naming.toml", builtin_checks(),
                                       validate=False)] == expected
    # The broken entry was replaced by a good one.
    assert "rules" in json.loads(entry.read_text(encoding="utf-8"))
    assert [r.code for r in parse_pack(text, "naming.toml", builtin_checks(),
                                       validate=False)] == expected
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # mcplint/ cannot be made under a file
    assert [r.code for r in parse_pack(text, "naming.toml", builtin_checks(),
                                       validate=False)] == expected


def test_entries_not_written_for_a_month_are_pruned(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "mcplint"
    folder.mkdir()
    old, recent, other = (folder / "pack-0ld.json", folder / "pack-recent.json",
                          folder / "notes.txt")
    for path in (old, recent, other):
        path.write_text("{}", encoding="utf-8")
    month = 31 * 24 * 3600
    stale_regex = folder / "regex-0ld.marshal"  # programs of an interpreter no longer used
    stale_regex.write_bytes(b"")
    os.utime(stale_regex, (time.time() - month, time.time() - month))
    os.utime(old, (time.time() - month, time.time() - month))
    os.utime(other, (time.time() - month, time.time() - month))
    text = (builtin_pack_dir() / "naming.toml").read_text(encoding="utf-8")
    parse_pack(text, "naming.toml", builtin_checks(), validate=False)  # stores a new entry
    # The stale entry is gone; a recent one and files that are not the cache's stay.
    assert not old.exists() and recent.exists() and other.exists()
    assert not stale_regex.exists()
    assert len(_cached_files(tmp_path)) == 2


def test_the_packs_are_found_without_importlib_unless_the_package_is_zipped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib.resources import files

    from mcplint.engine import packs

    # A checkout: the repository's rules/ folder, found on the file system.
    assert builtin_pack_dir() == Path(packs.__file__).resolve().parents[2] / "rules"
    assert (builtin_pack_dir() / "naming.toml").is_file()
    # A package whose files are not on the file system (a zip): importlib's resources.
    monkeypatch.setattr(packs, "__file__", "/no/such/place/mcplint/engine/packs.py")
    assert builtin_pack_dir() == files("mcplint") / "_rules"
