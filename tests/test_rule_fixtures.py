"""One harness for every rule: fixtures/rules/<CODE>/{pass,fail}/*.json.

A fail fixture has a sidecar ``<name>.expected.json``:
``{"options": {...}, "findings": [{"pointer": ..., "line": ..., "severity"?: ..., "suggestion"?:
..., "fix"?: ...}]}``; the rule under test (and only it) must produce exactly those findings.
``suggestion`` is the exact suggestion text (null: none); ``fix`` is the safe fix's edits as
``[pointer, key, value_json]`` triples (null: no fix).  Every fail finding of a rule with a
suggestion template states both, so each such rule has its suggestions pinned.  A pass
fixture must produce none; it may have a sidecar with ``options`` too.  Rules that check only
for chosen clients (rules/clients.toml) read ``clients`` (as --client), ``server-name`` and
``plugin`` from the sidecar.  The docs' bad and good examples of every rule are checked the same
way, for the clients in their ``example-clients``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from mcplint.config import Config
from mcplint.engine.linter import Linter, Selection
from mcplint.engine.packs import Rule
from mcplint.loaders.jsonsource import Document, parse_json
from mcplint.loaders.manifest import build_manifest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "rules"


def _linter(code: str, options: dict[str, Any], clients: dict[str, Any] | None = None
            ) -> Linter:
    config = Config(path=None, root=ROOT, rules={code: options} if options else {})
    return Linter(config, Selection(select=(code,), **(clients or {})))


@cache
def _all_rules() -> dict[str, Rule]:
    return Linter(Config(path=None, root=ROOT)).rules


def _lint(code: str, path: str, text: str, options: dict[str, Any],
          clients: dict[str, Any] | None = None) -> list[Any]:
    doc = parse_json(text)
    assert isinstance(doc, Document), f"{path}: fixture is not JSON: {doc}"
    manifest, errors = build_manifest(path, doc)
    assert manifest is not None and not errors, f"{path}: not a clean manifest: {errors}"
    return list(_linter(code, options, clients).lint(manifest).findings)


def _clients(expected: dict[str, Any]) -> dict[str, Any]:
    """The sidecar's ``clients`` (as --client), ``server-name`` and ``plugin``, for the rules
    that check only for the clients chosen (rules/clients.toml)."""
    return {"clients": tuple(expected.get("clients", ())),
            "server_name": expected.get("server-name"), "plugin": expected.get("plugin")}


def _cases() -> list[Any]:
    cases = []
    for rule_dir in sorted(FIXTURES.iterdir()):
        for kind in ("pass", "fail"):
            for path in sorted((rule_dir / kind).glob("*.json")):
                if path.name.endswith(".expected.json"):
                    continue
                cases.append(pytest.param(rule_dir.name, kind, path,
                                          id=f"{rule_dir.name}-{kind}-{path.stem}"))
    return cases


@pytest.mark.parametrize(("code", "kind", "path"), _cases())
def test_fixture(code: str, kind: str, path: Path) -> None:
    sidecar = path.with_name(path.stem + ".expected.json")
    expected: dict[str, Any] = (json.loads(sidecar.read_text()) if sidecar.exists()
                                else {"findings": []})
    if kind == "fail":
        assert sidecar.exists(), f"{path}: a fail fixture needs {sidecar.name}"
        assert expected["findings"], f"{sidecar}: a fail fixture must expect findings"
    else:
        assert not expected.get("findings"), f"{sidecar}: a pass fixture expects no findings"
    findings = _lint(code, str(path), path.read_text(encoding="utf-8"),
                     expected.get("options", {}), _clients(expected))
    assert all(f.code == code for f in findings)
    got = sorted((f.pointer, f.line) for f in findings)
    want = sorted((e["pointer"], e["line"]) for e in expected["findings"])
    assert got == want, "\n".join(f"{f.line}:{f.column} {f.pointer} {f.message}" for f in findings)
    for entry in expected["findings"]:
        match = next(f for f in findings if (f.pointer, f.line) == (entry["pointer"],
                                                                   entry["line"]))
        if "severity" in entry:
            assert match.severity.label == entry["severity"]
        if "suggestion" in entry:
            assert match.suggestion == entry["suggestion"], entry["pointer"]
        if "fix" in entry:
            edits = ([[e.pointer, e.key, e.value_json] for e in match.fix.edits] if match.fix
                     else None)
            assert edits == entry["fix"], entry["pointer"]


def _fail_entries(code: str) -> list[dict[str, Any]]:
    return [entry for sidecar in sorted((FIXTURES / code / "fail").glob("*.expected.json"))
            for entry in json.loads(sidecar.read_text(encoding="utf-8"))["findings"]]


@pytest.mark.parametrize("code", sorted(_all_rules()))
def test_suggestions_are_pinned(code: str) -> None:
    entries = _fail_entries(code)
    if _all_rules()[code].suggestion is None:
        assert not any(e.get("suggestion") or e.get("fix") for e in entries), (
            f"{code} has no suggestion template, but its fixtures expect one")
        return
    unpinned = [e["pointer"] for e in entries if "suggestion" not in e or "fix" not in e]
    assert not unpinned, f"{code}: fail findings without an expected suggestion and fix"
    assert any(e["suggestion"] for e in entries), f"{code}: no fail fixture shows a suggestion"


@pytest.mark.parametrize("code", sorted(_all_rules()))
def test_every_rule_has_pass_and_fail_fixtures(code: str) -> None:
    for kind in ("pass", "fail"):
        fixtures = [p for p in (FIXTURES / code / kind).glob("*.json")
                    if not p.name.endswith(".expected.json")]
        assert fixtures, f"rule {code} has no {kind} fixture in fixtures/rules/{code}/{kind}/"


@pytest.mark.parametrize("code", sorted(_all_rules()))
def test_docs_examples(code: str) -> None:
    rule = _all_rules()[code]
    options = dict(rule.docs.example_options)
    clients = {"clients": rule.docs.example_clients}
    bad = _lint(code, "docs.bad", rule.docs.bad, options, clients)
    assert bad, f"{code}: the docs' bad example does not fire"
    good = _lint(code, "docs.good", rule.docs.good, options, clients)
    assert not good, f"{code}: the docs' good example fires: {[f.message for f in good]}"
