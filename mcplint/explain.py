"""Render a rule's documentation as Markdown (readable as plain text in a terminal).

``mcplint explain`` prints these texts, and ``python -m mcplint.docsgen`` writes the same ones
to ``docs/rules/CODE.md``, so the terminal and the pages the reports link to never differ.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from mcplint.engine.packs import Rule

if TYPE_CHECKING:
    from mcplint.diff import Kind


def _pretty(example: str) -> str:
    try:
        return json.dumps(json.loads(example), indent=2, ensure_ascii=False)
    except ValueError:
        return example


def code_span(text: str) -> str:
    """``text`` as one Markdown code span, whatever backticks it holds (CommonMark: the fence is
    one backtick longer than the longest run inside, padded with a space where needed)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _options(rule: Rule) -> list[str]:
    properties: dict[str, Any] = rule.check.options_schema.get("properties", {})
    lines = []
    for key, spec in properties.items():
        value = json.dumps(rule.options.get(key), ensure_ascii=False)
        description = spec.get("description", "")
        lines.append(f"- `{key}` = {code_span(value)}: {description}")
    return lines


def render_rule(rule: Rule) -> str:
    docs = rule.docs
    parts = [
        f"# {rule.code} {rule.name}",
        "",
        rule.summary,
        "",
        f"Default severity: {rule.severity.label}. Applies to: {rule.target.value}. "
        f"Groups: {', '.join(rule.groups) or 'none'}. Pack: {rule.pack}."
        + ("" if rule.default else " Off by default; enable it with extend-select."),
        "",
        "## What it flags",
        "",
        docs.what,
        "",
        "## Why it matters to an agent",
        "",
        docs.why,
        "",
        "## Bad",
        "",
        "```json",
        _pretty(docs.bad),
        "```",
        "",
        "## Good",
        "",
        "```json",
        _pretty(docs.good),
        "```",
    ]
    if docs.example_options:
        shown = ", ".join(f"{k} = {json.dumps(v)}" for k, v in docs.example_options.items())
        parts += ["", f"(The examples are linted with {shown}.)"]
    if docs.example_clients:
        parts += ["", f"(The examples are linted with --client "
                  f"{' --client '.join(docs.example_clients)}.)"]
    option_lines = _options(rule)
    parts += ["", "## Options", ""]
    if docs.options:
        parts += [docs.options, ""]
    parts += option_lines or ["This rule has no options."]
    parts += ["", f"Set them in your config under `[tool.mcplint.rules.{rule.code}]`."]
    return "\n".join(parts)


_FAILS_WITH = {"breaking": "`--fail-on breaking` (the default), `risky` or `drift`",
               "risky": "`--fail-on risky` or `drift`",
               "drift": "`--fail-on drift`"}


def render_change(kind: Kind) -> str:
    """A change code of ``mcplint diff`` (BREAK, RISK, DRIFT), documented like a rule."""
    category = kind.category.label
    return "\n".join([
        f"# {kind.code} {kind.name}",
        "",
        f"{kind.summary}.",
        "",
        f"Reported by `mcplint diff OLD NEW`, which compares two versions of a server's tools. "
        f"Category: {category} (severity {kind.category.severity.label} in SARIF, GitHub, "
        "JUnit and Markdown output).",
        "",
        "## Why it matters to an agent",
        "",
        kind.why,
        "",
        "## When it fails the run",
        "",
        f"The exit code is 1 when `mcplint diff` finds this change with {_FAILS_WITH[category]}; "
        "`--fail-on never` reports it without failing.",
    ])
