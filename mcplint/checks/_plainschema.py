"""Recognise schemas that are certainly valid against their metaschema, without jsonschema.

Nearly every tool schema uses a dozen plain keywords (type, properties, required, enum,
description …).  Checking their value types here costs microseconds, where jsonschema's
metaschema validation costs about 2 ms per tool and was most of a gateway-size lint.  This is a
proof of validity only: it answers True when every keyword it sees is one it checks exactly as
the metaschema does, or one no metaschema defines (those are ignored by the metaschema too), and
False for anything else, which then goes to jsonschema for the real errors.  So it can never
hide an error; tests/test_metaschema.py checks that against jsonschema on generated schemas.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# The dialects whose metaschemas give the keywords below the same meaning.  Older drafts differ
# (draft-04: boolean exclusiveMinimum, enum needs an item), so they always go to jsonschema.
DIALECTS = frozenset({
    "",
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-07/schema",
})

_SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})


def _is_schema(value: Any) -> bool:
    return isinstance(value, (dict, bool))


def _is_string(value: Any) -> bool:
    return isinstance(value, str)


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_type(value: Any) -> bool:
    if isinstance(value, str):
        return value in _SIMPLE_TYPES
    return (isinstance(value, list) and bool(value) and len(set(map(str, value))) == len(value)
            and all(isinstance(item, str) and item in _SIMPLE_TYPES for item in value))


def _is_unique_strings(value: Any) -> bool:
    return (isinstance(value, list) and all(isinstance(item, str) for item in value)
            and len(set(value)) == len(value))


def _is_schema_map(value: Any) -> bool:
    return isinstance(value, dict) and all(_is_schema(sub) for sub in value.values())


def _is_schema_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_schema(sub) for sub in value)


def _anything(value: Any) -> bool:
    return True


# keyword → check of its value, exactly as the metaschemas of DIALECTS constrain it, and
# whether its value holds subschemas to descend into.
_CHECKS: dict[str, Callable[[Any], bool]] = {
    "type": _is_type,
    "description": _is_string, "title": _is_string, "format": _is_string,
    "pattern": _is_string, "$schema": _is_string, "$comment": _is_string,
    "contentMediaType": _is_string, "contentEncoding": _is_string,
    "enum": lambda v: isinstance(v, list), "examples": lambda v: isinstance(v, list),
    "const": _anything, "default": _anything,
    "required": _is_unique_strings,
    "properties": _is_schema_map, "$defs": _is_schema_map, "definitions": _is_schema_map,
    # The metaschema checks a reference is a string; it does not follow it.
    "$ref": _is_string,
    "items": _is_schema, "additionalProperties": _is_schema, "not": _is_schema,
    "propertyNames": _is_schema,
    "anyOf": _is_schema_list, "oneOf": _is_schema_list, "allOf": _is_schema_list,
    "minimum": _is_number, "maximum": _is_number,
    "exclusiveMinimum": _is_number, "exclusiveMaximum": _is_number,
    "multipleOf": lambda v: _is_number(v) and v > 0,
    "minLength": _is_count, "maxLength": _is_count, "minItems": _is_count,
    "maxItems": _is_count, "minProperties": _is_count, "maxProperties": _is_count,
    "uniqueItems": _is_bool, "readOnly": _is_bool, "writeOnly": _is_bool,
    "deprecated": _is_bool,
}
_SINGLE = ("items", "additionalProperties", "not", "propertyNames")
_LISTS = ("anyOf", "oneOf", "allOf")
_MAPS = ("properties", "$defs", "definitions")

# Every keyword some metaschema of DIALECTS defines.  One of these that _CHECKS does not cover
# ($ref, $defs, if/then/else, dependencies …) sends the schema to jsonschema; any other key is
# ignored by the metaschemas, so it is ignored here.
_DEFINED = frozenset({
    *_CHECKS, "$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef",
    "$recursiveAnchor", "$vocabulary", "dependencies",
    "dependentSchemas", "dependentRequired", "prefixItems", "contains", "minContains",
    "maxContains", "additionalItems", "unevaluatedItems", "unevaluatedProperties",
    "patternProperties", "if", "then", "else", "contentSchema",
})


def plainly_valid(schema: Any, depth: int = 0) -> bool:
    """True only when ``schema`` is certainly valid against its metaschema."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict) or depth > 64:
        return False
    for key, value in schema.items():
        checker = _CHECKS.get(key)
        if checker is None:
            if key in _DEFINED:
                return False
            continue
        if not checker(value):
            return False
    for key in _SINGLE:
        sub = schema.get(key)
        if isinstance(sub, dict) and not plainly_valid(sub, depth + 1):
            return False
    for key in _LISTS:
        for sub in schema.get(key, ()):
            if isinstance(sub, dict) and not plainly_valid(sub, depth + 1):
                return False
    for key in _MAPS:
        for sub in schema.get(key, {}).values():
            if isinstance(sub, dict) and not plainly_valid(sub, depth + 1):
                return False
    return True
