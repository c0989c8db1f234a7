"""The built-in packs are trusted at run time (not validated, to keep start-up fast), so they are
validated here in full: pack shape, every option against its check's schema."""

from __future__ import annotations

import subprocess
import sys
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
