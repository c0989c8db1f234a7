"""Where mcplint's documentation lives, for the links every report format carries.

There is no published documentation site yet: the rule pages are Markdown files in the
repository (``docs/rules/CODE.md``, written by ``python -m mcplint.docsgen``), and GitHub
renders them.  Every link a report carries is built from ``REPOSITORY_URL`` here, so moving
the docs (to a site, or another host) is a change of one constant.
"""

from __future__ import annotations

import functools
import re

from mcplint import regex_cache as rx

REPOSITORY_URL = "https://github.com/mcplint/mcplint"
# The rule pages as GitHub renders them on the default branch.
RULES_DOCS_URL = f"{REPOSITORY_URL}/blob/main/docs/rules/"


# A rule's code line in a built-in pack (they are written one way; the docs test checks that
# every built-in rule is found).
_CODE = rx.compile(r'^code = "([A-Z]+[0-9]+)"', re.M)


def rule_url(code: str) -> str:
    """The documentation page of a rule or of a diff change code."""
    return f"{RULES_DOCS_URL}{code}.md"


@functools.cache
def documented_codes() -> frozenset[str]:
    """The codes that have a page: the built-in rules and the diff change codes.  A rule of
    the user's own pack has none, so no report links it to a page that does not exist."""
    from mcplint.diff import KINDS
    from mcplint.engine.packs import builtin_pack_dir

    codes = {kind.code for kind in KINDS.values()}
    for item in builtin_pack_dir().iterdir():
        if item.name.endswith(".toml"):
            codes.update(_CODE.findall(item.read_text(encoding="utf-8")))
    return frozenset(codes)


def documented(code: str) -> bool:
    return code in documented_codes()
