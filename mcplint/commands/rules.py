"""`mcplint rules` and `mcplint explain`: what the rules are and what each flags."""

from __future__ import annotations

import json
from typing import Any

import click

from mcplint.commands.common import fail, load_linter


@click.command()
@click.option("--output-format", "--format", "fmt", type=click.Choice(["text", "json"]),
              default="text", show_default=True, help="Output format.")
def rules(fmt: str) -> None:
    """List every rule: code, name, default severity, groups and what it flags."""
    linter = load_linter()
    ordered = sorted(linter.rules.values(), key=lambda r: (r.pack, r.code))
    if fmt == "json":
        data: list[dict[str, Any]] = [
            {"code": r.code, "name": r.name, "severity": r.severity.label,
             "groups": list(r.groups), "target": r.target.value, "summary": r.summary,
             "default": r.default, "pack": r.pack}
            for r in ordered
        ]
        click.echo(json.dumps(data, indent=2))
        return
    # Plain aligned columns: one rule a line, greppable, never wrapped mid-word.
    name_width = max(len(r.name) for r in ordered) + 2
    groups_width = max(len(", ".join(r.groups)) for r in ordered) + 2
    click.echo(f"{'code':<9}{'name':<{name_width}}{'severity':<9}{'groups':<{groups_width}}summary")
    for rule in ordered:
        summary = rule.summary if rule.default else f"(off by default) {rule.summary}"
        click.echo(f"{rule.code:<9}{rule.name:<{name_width}}{rule.severity.label:<9}"
                   f"{', '.join(rule.groups):<{groups_width}}{summary}")
    click.echo(f"\n{len(ordered)} rules. `mcplint explain CODE` shows what a rule flags and why.")


@click.command()
@click.argument("rule")
def explain(rule: str) -> None:
    """Show a rule's documentation: what it flags, why, examples and options.

    RULE is a rule's code or name, or a change code of `mcplint diff` (BREAK001, RISK001,
    DRIFT001, ...).
    """
    from mcplint.diff import KINDS
    from mcplint.explain import render_change, render_rule

    linter = load_linter()
    found = linter.rule(rule) or linter.rule(rule.upper())
    if found is None:
        change = KINDS.get(rule.lower()) or next(
            (k for k in KINDS.values() if k.code == rule.upper()), None)
        if change is not None:
            click.echo(render_change(change))
            return
        from rapidfuzz import process

        keys = [*linter.rules, *(r.name for r in linter.rules.values()),
                *(k.code for k in KINDS.values())]
        guess = process.extractOne(rule, keys, score_cutoff=60)
        hint = f'; did you mean "{guess[0]}"?' if guess else "; see `mcplint rules`"
        fail(f'no rule "{rule}"{hint}')
        return
    click.echo(render_rule(found))
