"""The README stays true: its rule table matches the rule packs."""

from __future__ import annotations

import re
from pathlib import Path

from mcplint.config import Config
from mcplint.engine.linter import Linter

ROOT = Path(__file__).resolve().parents[1]


def test_readme_rule_table_matches_the_packs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([A-Z]+[0-9]+) \| ([a-z0-9-]+) \| (error|warning|info)"
                      r"( \(off by default\))? \|", readme, re.M)
    rules = Linter(Config(path=None, root=ROOT)).rules
    # The table says which rules are off by default, as the packs do.
    assert sorted(rows) == sorted((r.code, r.name, r.severity.label,
                                   "" if r.default else " (off by default)")
                                  for r in rules.values())


def test_readme_commands_name_files_that_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in re.findall(r"mcplint check (\S+\.json)", readme):
        assert (ROOT / path).is_file(), path
