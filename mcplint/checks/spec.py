"""Conformance to the MCP specification's Tool definition (revision 2025-11-25)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from mcplint import regex_cache as rx
from mcplint.checks._plainschema import DIALECTS, plainly_valid
from mcplint.checks.base import Context, Hit, Target, check
from mcplint.findings import Edit
from mcplint.loaders.jsonsource import join_pointer
from mcplint.model import Tool

_STRING_LIST = {"type": "array", "items": {"type": "string"}}


_UNDERSCORES = rx.compile("_+")


@check(
    "name-pattern",
    Target.TOOL,
    fields={"name", "problem", "suggestion", "rename"},
    options={
        "characters": {"type": "string", "default": r"A-Za-z0-9_.\-",
                       "description": "The characters a name may use, as the body of a regular "
                                      "expression character class."},
        "max-length": {"type": "integer", "minimum": 1, "default": 128,
                       "description": "Longest name allowed."},
    },
)
def name_pattern(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    raw = tool.raw.get("name")
    if not isinstance(raw, str) or not raw:
        yield Hit(
            tool.child("name") if "name" in tool.raw else tool.pointer,
            # "suggestion" is kept for user packs' messages; the rule's own suggestion
            # template uses "rename", which only a real name has.
            {"name": "" if raw is None else str(raw), "problem": "is missing or not a string",
             "suggestion": "a name such as search_orders"},
            tool,
        )
        return
    allowed = rx.compile(f"[{options['characters']}]")
    max_length = options["max-length"]
    bad = sorted({c for c in raw if not allowed.fullmatch(c)})
    if not bad and len(raw) <= max_length:
        return
    problems = []
    if len(raw) > max_length:
        problems.append(f"is {len(raw)} characters long (at most {max_length})")
    if bad:
        problems.append("contains " + ", ".join(repr(c) for c in bad))
    # Accented letters keep their base letter (löschen → loschen), the rest become "_".
    plain = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode()
    plain = plain if len(plain) == len(unicodedata.normalize("NFKC", raw)) else raw
    fixed = "".join(c if allowed.fullmatch(c) else "_" for c in plain)
    fixed = _UNDERSCORES.sub("_", fixed).strip("_")[:max_length] or "tool"
    fields = {"name": raw, "problem": " and ".join(problems), "suggestion": fixed}
    # A rename onto another tool's name would trade this finding for a duplicate.
    if fixed not in ctx.manifest.tools_by_name:
        fields["rename"] = fixed
    yield Hit(tool.child("name"), fields, tool)


@check(
    "duplicate-name",
    Target.TOOL,
    fields={"name", "first_pointer", "count"},
)
def duplicate_name(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    same = ctx.manifest.tools_by_name.get(tool.name, ())
    if len(same) > 1 and same[0] is not tool:
        first = same[0]
        yield Hit(
            tool.child("name"),
            {"name": tool.name, "first_pointer": first.pointer, "count": len(same)},
            tool,
            related=((first, first.child("name")),),
        )


@check(
    "description-present",
    Target.TOOL,
    fields={"problem"},
    options={
        "min-length": {"type": "integer", "minimum": 0, "default": 1,
                       "description": "Shortest description (after trimming) that counts."},
    },
)
def description_present(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    raw = tool.raw.get("description")
    if raw is None:
        yield Hit(tool.pointer, {"problem": "has no description"}, tool)
    elif not isinstance(raw, str):
        yield Hit(tool.child("description"), {"problem": "has a description that is not a string"},
                  tool)
    elif len(raw.strip()) < max(options["min-length"], 1):
        yield Hit(tool.child("description"), {"problem": "has an empty description"}, tool)


def _schema_type_problem(schema: Any, what: str, required: bool) -> str | None:
    if schema is None:
        return f"has no {what}" if required else None
    if not isinstance(schema, dict):
        return f"has an {what} that is not a JSON object"
    declared = schema.get("type")
    if declared != "object":
        shown = "missing" if declared is None else repr(declared)
        return f'has an {what} whose "type" is {shown}, not "object"'
    return None


@check("schema-is-object", Target.TOOL, fields={"problem", "key", "add", "place", "revision"},
       options={"key": {"type": "string", "enum": ["inputSchema", "outputSchema"],
                        "default": "inputSchema",
                        "description": "Which schema of the tool to check."},
                "any-type-since": {"type": "string", "default": "",
                                   "description": "The MCP revision from which the schema may "
                                                  "have any root type (empty: never)."}})
def schema_is_object(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    key = options["key"]
    schema = tool.raw.get(key)
    since = options["any-type-since"]
    if since and ctx.target_spec >= since and (schema is None or isinstance(schema, dict)):
        return  # from this revision on, any schema will do; it must still be a JSON object
    problem = _schema_type_problem(schema, key, required=key == "inputSchema")
    if problem:
        pointer = tool.child(key) if key in tool.raw else tool.pointer
        fields = {"problem": problem, "key": key, "revision": ctx.target_spec}
        yield _schema_fix(Hit(pointer, fields, tool), tool, key)


def _schema_fix(hit: Hit, tool: Tool, key: str) -> Hit:
    """The schema's missing part.  A schema with "properties" but no "type" is an object
    schema with the keyword left out: adding it is certain, so --fix applies it.  A missing
    inputSchema, or one without properties (``{"$schema": …}`` from a broken export), is an
    object too, but whether the tool takes arguments is unknown: an empty object schema is
    suggested, not applied, since it would silence the finding and hide the missing
    arguments.  A schema of another type needs rewriting and gets no suggestion."""
    schema = tool.raw.get(key)
    if schema is None and key == "inputSchema":
        value = '{"type": "object", "properties": {}}'
        return replace(hit, fields={**hit.fields, "add": f'"inputSchema": {value}',
                                    "place": "the tool"})
    if isinstance(schema, dict) and "type" not in schema and (
            key == "inputSchema" or "properties" in schema):
        certain = isinstance(schema.get("properties"), dict)
        return replace(hit, fields={**hit.fields, "add": '"type": "object"',
                                    "place": f'its "{key}"'},
                       edits=(Edit(tool.child(key), "type", '"object"'),) if certain else ())
    return hit


def _schema_errors(schema: Mapping[str, Any]) -> Iterator[tuple[list[Any], str]]:
    from mcplint.checks._metaschema import meta_validator

    dialect = schema.get("$schema")
    meta = meta_validator(dialect if isinstance(dialect, str) else "")
    for error in meta.iter_errors(schema):
        yield list(error.absolute_path), error.message


@check("schema-valid", Target.TOOL, fields={"key", "detail", "dialect"},
       options={"key": {"type": "string", "enum": ["inputSchema", "outputSchema"],
                        "default": "inputSchema",
                        "description": "Which schema of the tool to check."}})
def schema_valid(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    key = options["key"]
    schema = tool.raw.get(key)
    if not isinstance(schema, dict):
        return  # schema-is-object reports this
    dialect = schema.get("$schema")
    if (dialect is None or dialect in DIALECTS) and plainly_valid(schema):
        return
    dialect_name = dialect if isinstance(dialect, str) else "JSON Schema 2020-12"
    from jsonschema.exceptions import SchemaError  # only schemas the fast path cannot prove

    try:
        errors = list(_schema_errors(schema))
    except SchemaError as exc:  # an unreadable "$schema" value, for example
        errors = [([], exc.message)]
    seen: set[str] = set()
    for path, detail in errors:
        pointer = tool.child(key, *path)
        if pointer in seen:
            continue
        seen.add(pointer)
        yield Hit(pointer, {"key": key, "detail": detail, "dialect": dialect_name}, tool)


def _walk_object_schemas(
    schema: Any, pointer: str, depth: int = 0
) -> Iterator[tuple[dict[str, Any], str]]:
    if depth > 12 or not isinstance(schema, dict):
        return
    yield schema, pointer
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            yield from _walk_object_schemas(
                sub, join_pointer(join_pointer(pointer, "properties"), name), depth + 1)
    items = schema.get("items")
    if isinstance(items, dict):
        yield from _walk_object_schemas(items, join_pointer(pointer, "items"), depth + 1)
    for keyword in ("$defs", "definitions"):
        defs = schema.get(keyword)
        if isinstance(defs, dict):
            for name, sub in defs.items():
                yield from _walk_object_schemas(
                    sub, join_pointer(join_pointer(pointer, keyword), name), depth + 1)
    for keyword in ("allOf", "anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list):
            for index, sub in enumerate(branches):
                yield from _walk_object_schemas(
                    sub, join_pointer(join_pointer(pointer, keyword), index), depth + 1)


@check("required-exists", Target.TOOL, fields={"property", "known", "close"})
def required_exists(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    for schema, pointer in _walk_object_schemas(tool.input_schema, tool.child("inputSchema")):
        required = schema.get("required")
        properties = schema.get("properties")
        # With no "properties" here the names may come from a sibling in allOf; stay quiet.
        if not isinstance(required, list) or not isinstance(properties, dict):
            continue
        for index, name in enumerate(required):
            if isinstance(name, str) and name not in properties:
                from rapidfuzz import fuzz, process  # a missing property is rare

                close = process.extractOne(name, list(properties), scorer=fuzz.ratio,
                                           score_cutoff=70)
                known = f'did you mean "{close[0]}"?' if close else (
                    "known properties: " + ", ".join(sorted(properties)) if properties
                    else "the schema has no properties")
                fields = {"property": name, "known": known}
                if close and close[0] not in required:
                    fields["close"] = close[0]
                yield Hit(join_pointer(join_pointer(pointer, "required"), index), fields, tool)


_NOT_ALNUM = rx.compile(r"[^a-z0-9]")


def _normalise_key(key: str) -> str:
    return _NOT_ALNUM.sub("", key.lower())


def suggest_key(key: str, known: list[str]) -> str | None:
    """The known key a typo most likely meant: same letters first, then a small edit."""
    normalised = _normalise_key(key)
    for candidate in known:
        if _normalise_key(candidate) == normalised:
            return candidate
    from rapidfuzz import fuzz, process  # an unknown key is rare

    match = process.extractOne(key, known, scorer=fuzz.ratio, score_cutoff=75,
                               processor=_normalise_key)
    return match[0] if match else None


def _unknown_keys(
    mapping: Mapping[str, Any], pointer: str, tool: Tool, options: Mapping[str, Any]
) -> Iterator[Hit]:
    known: list[str] = list(options["known-keys"])
    allowed = [rx.compile(p) for p in options["allow-patterns"]]
    for key in mapping:
        if key in known or any(p.search(key) for p in allowed):
            continue
        guess = suggest_key(key, known)
        fields = {"key": key}
        if guess is not None and guess not in mapping:
            fields["guess"] = guess  # a rename onto a key that is there would lose one
        advice = (f'Did you mean "{guess}"? Until it is spelled right, clients use the '
                  "default in its place." if guess else
                  "If it is your own extension data, move it under \"_meta\", which is where "
                  "MCP carries it; the keys MCP defines here are " + ", ".join(known) + ".")
        yield Hit(join_pointer(pointer, key), fields | {"advice": advice}, tool)


_KEY_OPTIONS = {
    "known-keys": {**_STRING_LIST, "description": "Keys the MCP spec defines at this place."},
    "allow-patterns": {"type": "array", "items": {"type": "string", "format": "regex"},
                       "default": [],
                       "description": "Regular expressions for extension keys to accept "
                                      "(for example ^x-)."},
}


@check("unknown-tool-keys", Target.TOOL, fields={"key", "advice", "guess"},
       options=_KEY_OPTIONS)
def unknown_tool_keys(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    yield from _unknown_keys(tool.raw, tool.pointer, tool, options)


@check("unknown-annotation-keys", Target.TOOL, fields={"key", "advice", "guess"},
       options=_KEY_OPTIONS)
def unknown_annotation_keys(
    tool: Tool, ctx: Context, options: Mapping[str, Any]
) -> Iterator[Hit]:
    if tool.annotations is not None:
        yield from _unknown_keys(tool.annotations.declared, tool.annotations.pointer, tool,
                                 options)


@check("annotation-types", Target.TOOL, fields={"key", "value", "expected", "fixed"})
def annotation_types(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    raw = tool.raw.get("annotations")
    if raw is None:
        return
    pointer = tool.child("annotations")
    if not isinstance(raw, dict):
        yield Hit(pointer, {"key": "annotations", "value": _short(raw),
                            "expected": "an object of hints"}, tool)
        return
    for key, value in raw.items():
        if key.endswith("Hint") and not isinstance(value, bool):
            fields = {"key": key, "value": _short(value), "expected": "true or false"}
            # "true" and "false" as strings say plainly which boolean was meant.
            if isinstance(value, str) and value.strip().lower() in ("true", "false"):
                fields["fixed"] = value.strip().lower()
            yield Hit(join_pointer(pointer, key), fields, tool)
        elif key == "title" and not isinstance(value, str):
            yield Hit(join_pointer(pointer, key),
                      {"key": key, "value": _short(value), "expected": "a string"}, tool)


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


CHECKS = (
    name_pattern,
    duplicate_name,
    description_present,
    schema_is_object,
    schema_valid,
    required_exists,
    unknown_tool_keys,
    unknown_annotation_keys,
    annotation_types,
)
