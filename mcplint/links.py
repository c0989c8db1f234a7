"""Where mcplint's documentation lives, for the links every report format carries.

There is no published documentation site yet: the rule pages are Markdown files in the
repository (``docs/rules/CODE.md``, written by ``python -m mcplint.docsgen``), and GitHub
renders them.  Every link a report carries is built from ``REPOSITORY_URL`` here, so moving
the docs (to a site, or another host) is a change of one constant.
"""

from __future__ import annotations

REPOSITORY_URL = "https://github.com/mcplint/mcplint"
# The rule pages as GitHub renders them on the default branch.
RULES_DOCS_URL = f"{REPOSITORY_URL}/blob/main/docs/rules/"


def rule_url(code: str) -> str:
    """The documentation page of a rule or of a diff change code."""
    return f"{RULES_DOCS_URL}{code}.md"
