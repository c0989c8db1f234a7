"""``x-mcp-header`` on input properties (MCP 2026-07-28, Streamable HTTP).

A property schema may ask the client to mirror its argument into an ``Mcp-Param-{name}`` HTTP
header.  Clients must drop a tool whose declarations break the transport's constraints, so
each broken declaration is reported where it is written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from mcplint import regex_cache as rx
from mcplint.checks.base import PATTERNS, Context, Hit, Target, check
from mcplint.loaders.jsonsource import join_pointer
from mcplint.model import Tool
from mcplint.names import split_name

KEYWORD = "x-mcp-header"
# RFC 9110 section 5.6.2: token = 1*tchar.
_TOKEN = rx.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_TYPES = frozenset({"integer", "string", "boolean"})
# Keywords under which a subschema is not one fixed argument of the call.
_DYNAMIC = frozenset({"items", "prefixItems", "additionalProperties", "patternProperties",
                      "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "$defs",
                      "definitions", "dependentSchemas", "contains"})


class Declaration(NamedTuple):
    """One ``x-mcp-header`` found in an input schema."""

    value: Any
    schema: Mapping[str, Any]
    pointer: str  # of the x-mcp-header keyword
    property: str  # the declaring property's name, "" at the root
    static: bool  # reached from the root through "properties" alone


def declarations(schema: Any, pointer: str) -> Iterator[Declaration]:
    yield from _walk(schema, pointer, "", True, 0)


def _walk(node: Any, pointer: str, name: str, static: bool, depth: int
          ) -> Iterator[Declaration]:
    if depth > 32:
        return
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk(item, join_pointer(pointer, index), name, False, depth + 1)
        return
    if not isinstance(node, dict):
        return
    if KEYWORD in node:
        yield Declaration(node[KEYWORD], node, join_pointer(pointer, KEYWORD), name, static)
    for key, value in node.items():
        if key == KEYWORD:
            continue
        here = join_pointer(pointer, key)
        if key == "properties" and isinstance(value, dict):
            for prop, sub in value.items():
                yield from _walk(sub, join_pointer(here, prop), prop, static, depth + 1)
        elif isinstance(value, (dict, list)):
            yield from _walk(value, here, name, static and key not in _DYNAMIC, depth + 1)


def _types(schema: Mapping[str, Any]) -> set[str] | None:
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    values = schema["enum"] if isinstance(schema.get("enum"), list) else (
        [schema["const"]] if "const" in schema else None)
    if values is None:
        return None
    kinds = {"boolean" if isinstance(v, bool) else "integer" if isinstance(v, int)
             else "string" if isinstance(v, str) else "other" for v in values}
    return kinds


def _secret(name: str, patterns: list[re.Pattern[str]]) -> bool:
    joined = "_".join(split_name(name))
    return any(p.search(joined) for p in patterns)


def _problem(decl: Declaration, secrets: list[re.Pattern[str]]) -> str | None:
    value = decl.value
    if not isinstance(value, str) or not value:
        return "is empty" if value == "" else "is not a string"
    if not _TOKEN.fullmatch(value):
        bad = sorted({c for c in value if not _TOKEN.fullmatch(c)})
        return ("contains " + ", ".join(repr(c) for c in bad)
                + ", which an HTTP field name (RFC 9110 token) cannot")
    if not decl.static:
        return ("is not on a property reached through \"properties\" alone, so a client "
                "cannot tell which argument to mirror")
    types = _types(decl.schema)
    if types is None:
        return "is on a property with no type; only integer, string and boolean may be mirrored"
    wrong = sorted(types - _HEADER_TYPES - {"null"})
    if wrong or not types - {"null"}:
        shown = ", ".join(wrong) or "null"
        return f"is on a property of type {shown}; only integer, string and boolean may be mirrored"
    if _secret(decl.property, secrets) or _secret(value, secrets):
        return "is on a parameter that looks like a secret"
    return None


@check("mcp-header", Target.TOOL, fields={"header", "problem"},
       options={"secret-names": {**PATTERNS, "description":
                                 "Regular expressions for secret-looking parameter or header "
                                 "names, matched against the name's words joined by '_' in "
                                 "lower case (accessToken is access_token)."}})
def mcp_header(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    secrets = [rx.compile(p) for p in options["secret-names"]]
    seen: dict[str, Declaration] = {}
    for decl in declarations(tool.input_schema, tool.child("inputSchema")):
        header = decl.value if isinstance(decl.value, str) else repr(decl.value)
        problem = _problem(decl, secrets)
        if problem is None and isinstance(decl.value, str):
            first = seen.get(decl.value.lower())
            if first is not None:
                problem = (f'repeats "{first.value}" of property "{first.property}" '
                           "(header names are compared ignoring case)")
            else:
                seen[decl.value.lower()] = decl
        if problem:
            yield Hit(decl.pointer, {"header": header, "problem": problem}, tool)


CHECKS = (mcp_header,)
