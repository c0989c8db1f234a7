"""Rules the 2025-11-25 and 2026-07-28 revisions added: reserved ``_meta`` keys, hints that
contradict each other, and tool fields a revision removed."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcplint.checks.base import WORDS, Context, Hit, Target, check
from mcplint.findings import Severity
from mcplint.model import Tool


def reserved_prefix(key: str, labels: frozenset[str]) -> str | None:
    """The prefix of a ``_meta`` key when MCP reserves it: its second label is one of
    ``labels`` (``io.modelcontextprotocol/``, ``dev.mcp/``; not ``com.example.mcp/``)."""
    if "/" not in key:
        return None
    prefix = key.split("/", 1)[0]
    parts = prefix.split(".")
    return prefix + "/" if len(parts) >= 2 and parts[1].lower() in labels else None


@check("reserved-meta-key", Target.TOOL, fields={"key", "prefix"},
       options={"reserved-labels": {**WORDS, "default": ["modelcontextprotocol", "mcp"],
                                    "description": "Second labels of the prefixes MCP "
                                                   "reserves."},
                "allow-keys": {**WORDS, "default": [],
                               "description": "Reserved keys a published MCP extension defines "
                                              "for servers to set."}})
def reserved_meta_key(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    meta = tool.raw.get("_meta")
    if not isinstance(meta, dict):
        return
    labels = frozenset(label.lower() for label in options["reserved-labels"])
    allowed = set(options["allow-keys"])
    for key in meta:
        prefix = reserved_prefix(key, labels)
        if prefix and key not in allowed:
            yield Hit(tool.child("_meta", key), {"key": key, "prefix": prefix}, tool)


@check("contradictory-hints", Target.TOOL)
def contradictory_hints(tool: Tool, ctx: Context, options: Mapping[str, Any]
                        ) -> Iterator[Hit]:
    notes = tool.annotations
    if notes is None:
        return
    declared = notes.declared
    if declared.get("readOnlyHint") is True and declared.get("destructiveHint") is True:
        yield Hit(tool.child("annotations", "destructiveHint"), {}, tool)


_REMOVED = {
    "type": "array",
    "items": {"type": "object", "required": ["key", "since", "replacement"],
              "additionalProperties": False,
              "properties": {"key": {"type": "string", "minLength": 1},
                             "since": {"type": "string", "minLength": 1},
                             "replacement": {"type": "string"},
                             "inert": {"type": "array"}}},
    "description": "Tool keys a revision removed: the key, the first revision without it, what "
                   "replaces it, and values that said nothing beyond the default (reported as "
                   "info).",
}


@check("removed-tool-field", Target.TOOL, fields={"key", "since", "target", "replacement"},
       options={"removed": _REMOVED})
def removed_tool_field(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    target = ctx.target_spec
    for entry in options["removed"]:
        key = entry["key"]
        if key in tool.raw and target >= entry["since"]:
            # A default value is lost harmlessly: worth knowing, not worth a warning.
            inert = tool.raw[key] in entry.get("inert", ())
            yield Hit(tool.child(key),
                      {"key": key, "since": entry["since"], "target": target,
                       "replacement": entry["replacement"]}, tool,
                      severity=Severity.INFO if inert else None)


CHECKS = (reserved_meta_key, contradictory_hints, removed_tool_field)
