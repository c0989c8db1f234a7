"""The inlined 2020-12 metaschema reports exactly what the official one does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mcplint.checks._metaschema import meta_validator

OFFICIAL = Draft202012Validator(Draft202012Validator.META_SCHEMA)
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "real"


def _errors(validator: Any, schema: Any) -> list[tuple[list[Any], str]]:
    return sorted((list(e.absolute_path), e.message) for e in validator.iter_errors(schema))


def _same(schema: Any) -> None:
    assert _errors(meta_validator(""), schema) == _errors(OFFICIAL, schema)


@pytest.mark.parametrize("schema", [
    {"type": "int"},
    {"properties": {"a": {"type": "strin"}}},
    {"required": "x"},
    {"properties": {"a": {"minLength": -1}}},
    {"$defs": {"a": {"enum": 3}}},
    {"items": {"type": 7}},
    {"anyOf": [{"type": "q"}]},
    {"dependencies": {"a": 3}},
    {"$anchor": "1x"},
    {"allOf": []},
    {"properties": {"x": {"dependentRequired": {"a": [1]}}}},
    {"prefixItems": [{"type": "object", "properties": {"b": {"maxItems": "2"}}}]},
    {"if": {"const": 1}, "then": {"uniqueItems": "yes"}},
    {"$ref": 5, "contentSchema": {"format": 3}},
    {"$id": 5, "$schema": 1, "$comment": [], "$vocabulary": 2, "$dynamicAnchor": "-"},
    {"properties": {"a": {"$defs": {"b": {"$ref": 1}}, "$dynamicRef": 3}}},
])
def test_known_errors_match(schema: dict[str, Any]) -> None:
    assert _errors(meta_validator(""), schema)
    _same(schema)


KEYWORDS = ["$id", "$schema", "$comment", "$dynamicAnchor", "type", "properties", "items",
            "required", "enum", "minLength", "maxItems", "anyOf", "oneOf", "not", "$defs",
            "additionalProperties", "pattern", "const",
            "format", "uniqueItems", "prefixItems", "dependentRequired", "title", "$ref"]
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(
        ["string", "object", "int", "a", "^x$", "#/$defs/a"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from([*KEYWORDS, "a", "b"]), inner,
                                            max_size=3)),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYWORDS), VALUES, max_size=4))
def test_random_schemas_match(schema: dict[str, Any]) -> None:
    _same(schema)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not beside this clone")
def test_corpus_schemas_match() -> None:
    for path in sorted(CORPUS.glob("*.json"))[::4]:
        for tool in json.loads(path.read_text())["tools"]:
            schema = tool.get("inputSchema")
            if isinstance(schema, dict) and "$schema" not in schema:
                _same(schema)
