"""What a server's tool list costs an agent: the number of tools and the tokens they take."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcplint.checks.base import Context, Hit, Target, check
from mcplint.findings import Severity
from mcplint.model import Manifest, Tool
from mcplint.tokens import tool_text

TIER_OPTIONS = {
    "warning-above": {"type": ["integer", "null"], "minimum": 0, "default": None,
                      "description": "Report a warning when the value is above this."},
    "error-above": {"type": ["integer", "null"], "minimum": 0, "default": None,
                    "description": "Report an error when the value is above this "
                                   "(null: never an error)."},
}


def tier(value: int, options: Mapping[str, Any]) -> tuple[Severity, int] | None:
    error_above, warning_above = options.get("error-above"), options.get("warning-above")
    if error_above is not None and value > error_above:
        return Severity.ERROR, error_above
    if warning_above is not None and value > warning_above:
        return Severity.WARNING, warning_above
    return None


def _heaviest(ctx: Context, count: int = 3) -> str:
    ranked = sorted(ctx.manifest.tools, key=lambda t: -ctx.tool_tokens(t))[:count]
    return ", ".join(f"{t.label} ({ctx.tool_tokens(t):,})" for t in ranked)


@check("tool-count", Target.SERVER, fields={"count", "limit"}, options=TIER_OPTIONS)
def tool_count(manifest: Manifest, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    reached = tier(len(manifest.tools), options)
    if reached:
        yield Hit(manifest.tools_pointer, {"count": len(manifest.tools), "limit": reached[1]},
                  severity=reached[0])


@check("manifest-tokens", Target.SERVER, fields={"tokens", "limit", "method", "heaviest"},
       options=TIER_OPTIONS, tokens=True)
def manifest_tokens(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                    ) -> Iterator[Hit]:
    reached = tier(ctx.total_tokens, options)
    if reached:
        yield Hit(manifest.tools_pointer,
                  {"tokens": f"{ctx.total_tokens:,}", "limit": f"{reached[1]:,}",
                   "method": ctx.tokens.method, "heaviest": _heaviest(ctx)},
                  severity=reached[0])


@check("tool-tokens", Target.TOOL, fields={"tokens", "limit", "method", "largest", "advice"},
       options=TIER_OPTIONS)
def tool_tokens(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    tokens = ctx.tool_tokens(tool)
    reached = tier(tokens, options)
    if reached:
        largest, part = _largest_part(tool, ctx)
        yield Hit(tool.pointer,
                  {"tokens": f"{tokens:,}", "limit": f"{reached[1]:,}", "method": ctx.tokens.method,
                   "largest": largest, "advice": _ADVICE[part]},
                  tool, severity=reached[0])


# Where to cut depends on what is large: advice about the description is no help when the
# parameters' schema is most of the cost.
_ADVICE = {
    "description": "Cut examples and repeated prose from the description, and move long "
                   "reference text into a resource the agent can read when needed.",
    "inputSchema": "Shorten the parameters' descriptions, drop what the schema already says "
                   "(titles, defaults restated in prose), or split the tool by operation.",
    "outputSchema": "Keep in the outputSchema the fields an agent uses; every nested field's "
                    "description is sent too.",
    "": "Cut examples and repeated prose, and move long reference text into a resource the "
        "agent can read when needed.",
}


def _largest_part(tool: Tool, ctx: Context) -> tuple[str, str]:
    """Name the part of the tool that costs most, so the message says where to cut."""
    parts = {"description": tool.raw.get("description") or "",
             "inputSchema": tool.raw.get("inputSchema") or {},
             "outputSchema": tool.raw.get("outputSchema") or {}}
    costs = {key: ctx.tokens.count(value if isinstance(value, str) else tool_text(value))
             for key, value in parts.items() if value}
    if not costs:
        return "the tool object", ""
    key = max(costs, key=lambda k: costs[k])
    return f"its {key} (~{costs[key]:,} tokens)", key


CHECKS = (tool_count, manifest_tokens, tool_tokens)
