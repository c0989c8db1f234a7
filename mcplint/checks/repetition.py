"""Text a server repeats in many of its tools' descriptions, reported once with its cost.

The passages come from ``_boilerplate``, the same analysis that keeps them out of the per-tool
description rules; this check only decides which are worth a finding (by the tokens they
cost) and words it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcplint.checks._boilerplate import Boilerplate, find
from mcplint.checks._text import compile_patterns, first_match
from mcplint.checks.base import PATTERNS, Context, Hit, Target, check
from mcplint.model import Manifest, Tool

# Related locations beyond this many tools add nothing a reader would open.
_MAX_RELATED = 10
_EXCERPT = 80


def _anchor(tool: Tool) -> str:
    return tool.child("description") if "description" in tool.raw else tool.pointer


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 1].rstrip() + "…"


@check(
    "repeated-description-text",
    Target.SERVER,
    fields={"tokens", "count", "total", "tools", "excerpt"},
    options={
        "min-tokens": {"type": "integer", "minimum": 1, "default": 100,
                       "description": "Report a passage when its copies beyond the first take "
                                      "at least this many tokens in all."},
        "keep-patterns": {**PATTERNS, "default": [],
                          "description": "Regular expressions for passages that belong on each "
                                         "tool that carries them (an instruction to get the "
                                         "user's approval first); they are not reported."},
    },
)
def repeated_description_text(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                              ) -> Iterator[Hit]:
    found: Boilerplate = ctx.memo("boilerplate", find)
    keep = compile_patterns("keep-patterns", options["keep-patterns"])
    for passage in found.passages:
        if first_match(keep, passage.text):
            continue
        tokens = ctx.tokens.count(passage.text)
        spare = tokens * (len(passage.tools) - 1)
        if spare < options["min-tokens"]:
            continue
        first, *others = passage.tools
        names = ", ".join(f'"{t.label}"' for t in passage.tools[:3])
        if len(passage.tools) > 3:
            names += f" and {len(passage.tools) - 3} more"
        yield Hit(_anchor(first),
                  {"tokens": f"{tokens:,}", "count": len(passage.tools), "total": f"{spare:,}",
                   "tools": names, "excerpt": _excerpt(passage.text)},
                  None,  # a fact of the server, not of the first tool that repeats it
                  related=tuple((t, _anchor(t)) for t in others[:_MAX_RELATED]))


CHECKS = (repeated_description_text,)
