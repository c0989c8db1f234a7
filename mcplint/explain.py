"""Render a rule's documentation as Markdown (readable as plain text in a terminal)."""

from __future__ import annotations

import json
from typing import Any

from mcplint.engine.packs import Rule


def _pretty(example: str) -> str:
    try:
        return json.dumps(json.loads(example), indent=2, ensure_ascii=False)
    except ValueError:
        return example


def _options(rule: Rule) -> list[str]:
    properties: dict[str, Any] = rule.check.options_schema.get("properties", {})
    lines = []
    for key, spec in properties.items():
        value = json.dumps(rule.options.get(key), ensure_ascii=False)
        description = spec.get("description", "")
        lines.append(f"- `{key}` = `{value}`: {description}")
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
