"""Write the rule documentation pages, ``docs/rules/CODE.md``, from the rule packs.

    python -m mcplint.docsgen            # (re)write docs/rules/ in the repository
    python -m mcplint.docsgen --check    # exit 1 if a page differs from what would be written

Each page is what ``mcplint explain CODE`` prints, for every built-in rule and every change
code of ``mcplint diff``; ``docs/rules/README.md`` is the index.  A test compares the pages
checked in with these, so they never drift from the packs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from mcplint.diff import KINDS, Category
from mcplint.engine.packs import Rule, load_packs
from mcplint.engine.registry import builtin_checks
from mcplint.explain import render_change, render_rule

DOCS_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
INDEX = "README.md"


def builtin_rules() -> list[Rule]:
    """The built-in rules, in the order of their packs (as ``mcplint rules`` lists them)."""
    rules = load_packs(builtin_checks()).values()
    return sorted(rules, key=lambda r: (r.pack, r.code))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _index(rules: Sequence[Rule]) -> str:
    lines = [
        "# mcplint rules",
        "",
        "<!-- Written by `python -m mcplint.docsgen` from the rule packs in rules/; "
        "do not edit. -->",
        "",
        "Every rule `mcplint check` runs, and every change `mcplint diff` reports. Each page is "
        "what `mcplint explain CODE` prints; SARIF, HTML and Markdown reports link to them.",
    ]
    pack = None
    for rule in rules:
        if rule.pack != pack:
            pack = rule.pack
            lines += ["", f"## Pack `{pack}`", "", "| code | name | severity | summary |",
                      "| --- | --- | --- | --- |"]
        lines.append(f"| [{rule.code}]({rule.code}.md) | `{rule.name}` | {rule.severity.label} "
                     f"| {_cell(rule.summary)} |")
    lines += ["", "## Changes reported by `mcplint diff`", "",
              "| code | name | category | summary |", "| --- | --- | --- | --- |"]
    for kind in sorted(KINDS.values(), key=lambda k: (-k.category, k.code)):
        lines.append(f"| [{kind.code}]({kind.code}.md) | `{kind.name}` | "
                     f"{kind.category.label} | {_cell(kind.summary)} |")
    return "\n".join(lines) + "\n"


def pages(rules: Sequence[Rule] | None = None) -> dict[str, str]:
    """File name -> text of every page, the index included."""
    rules = builtin_rules() if rules is None else rules
    written = {f"{rule.code}.md": render_rule(rule) + "\n" for rule in rules}
    for kind in KINDS.values():
        assert kind.category in Category
        written[f"{kind.code}.md"] = render_change(kind) + "\n"
    written[INDEX] = _index(rules)
    return written


def stale(directory: Path = DOCS_DIR) -> list[str]:
    """Pages that are missing, differ, or are left over from a rule that no longer exists."""
    expected = pages()
    present = {p.name for p in directory.glob("*.md")} if directory.is_dir() else set()
    differ = [name for name, text in expected.items()
              if name not in present
              or (directory / name).read_text(encoding="utf-8") != text]
    return sorted(differ + sorted(present - set(expected)))


def write(directory: Path = DOCS_DIR) -> int:
    """Write every page; remove pages of rules that are gone.  Returns the pages changed."""
    directory.mkdir(parents=True, exist_ok=True)
    expected = pages()
    changed = 0
    for name, text in expected.items():
        path = directory / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            with open(path, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            changed += 1
    for path in directory.glob("*.md"):
        if path.name not in expected:
            path.unlink()
            changed += 1
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    rest = [a for a in args if a != "--check"]
    directory = Path(rest[0]) if rest else DOCS_DIR
    if check:
        differ = stale(directory)
        for name in differ:
            print(f"{directory / name}: out of date; run `python -m mcplint.docsgen`",
                  file=sys.stderr)
        return 1 if differ else 0
    changed = write(directory)
    print(f"{directory}: {changed} page{'s' if changed != 1 else ''} written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
