"""The inlined 2020-12 metaschema reports exactly what the official one does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft201909Validator, Draft202012Validator

from mcplint.checks._metaschema import meta_validator
from mcplint.checks._plainschema import _CHECKS, plainly_valid

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


# The fast path (mcplint/checks/_plainschema.py) may only ever say "valid" when jsonschema finds
# no error; these schemas are built mostly from the keywords it checks itself.
PLAIN_KEYWORDS = ["type", "properties", "items", "required", "enum", "description", "title",
                  "minLength", "maxItems", "minimum", "multipleOf", "anyOf", "oneOf", "allOf",
                  "not", "additionalProperties", "uniqueItems", "default", "format", "const",
                  "deprecated", "x-extra", "$ref", "$defs", "a"]
PLAIN_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 3), st.floats(-1, 2),
              st.sampled_from(["string", "object", "integer", "int", "", "a"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(PLAIN_KEYWORDS), inner, max_size=3)),
    max_leaves=14,
)
DIALECT_VALIDATORS = {
    "": OFFICIAL,
    "http://json-schema.org/draft-07/schema#": Draft7Validator(Draft7Validator.META_SCHEMA),
    "https://json-schema.org/draft/2019-09/schema":
        Draft201909Validator(Draft201909Validator.META_SCHEMA),
}


@settings(max_examples=600, deadline=None)
@given(st.dictionaries(st.sampled_from(PLAIN_KEYWORDS), PLAIN_VALUES, max_size=5),
       st.sampled_from(sorted(DIALECT_VALIDATORS)))
def test_plainly_valid_never_hides_an_error(schema: dict[str, Any], dialect: str) -> None:
    if plainly_valid(schema):
        assert _errors(DIALECT_VALIDATORS[dialect], schema) == []


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"q": {"type": "string", "description": "Words."}},
     "required": ["q"]},
    {"type": ["string", "null"], "enum": ["a", None], "x-internal": {"type": 5}},
    {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 9}},
     "additionalProperties": False},
    {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    # pydantic's shape: models under $defs, referenced from properties
    {"type": "object", "properties": {"item": {"$ref": "#/$defs/Item"}},
     "$defs": {"Item": {"type": "object", "properties": {"n": {"type": "integer"}}}}},
    {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
])
def test_plain_schemas_take_the_fast_path(schema: dict[str, Any]) -> None:
    assert plainly_valid(schema)


@pytest.mark.parametrize("schema", [
    {"type": "strin"},
    {"required": ["a", "a"]},
    {"properties": {"a": {"minLength": -1}}},
    {"properties": {"a": {"minLength": True}}},
    {"type": "object", "if": {"required": ["a"]}},  # valid, but a keyword it does not check
    {"anyOf": []},
    {"items": [{"type": "string"}]},
    {"$defs": {"Item": {"type": "strin"}}},
    {"$ref": 5},
])
def test_anything_else_goes_to_jsonschema(schema: dict[str, Any]) -> None:
    assert not plainly_valid(schema)


CANDIDATE_VALUES: list[Any] = [
    -1, 0, 2, 1.5, 0.0, True, False, None, "string", "int", "", [], ["a"], ["a", "a"], [1],
    ["string", "null"], ["string", "string"], {}, {"type": "int"}, {"type": "string"},
    {"a": {"type": "int"}}, {"a": {"type": "string"}}, {"a": 3}, [{"type": "string"}], [{}],
    [{"type": "int"}], [True],
]


@pytest.mark.parametrize("dialect", sorted(DIALECT_VALIDATORS))
@pytest.mark.parametrize("keyword", sorted(_CHECKS))
def test_every_checked_keyword_agrees_with_jsonschema(keyword: str, dialect: str) -> None:
    # Each keyword the fast path checks, with values of every shape, alone and nested: the fast
    # path says valid only where the dialect's metaschema does.
    validator = DIALECT_VALIDATORS[dialect]
    for value in CANDIDATE_VALUES:
        for schema in ({keyword: value}, {"properties": {"p": {keyword: value}}},
                       {"items": {keyword: value}}, {"anyOf": [{keyword: value}]}):
            if plainly_valid(schema):
                assert _errors(validator, schema) == [], schema
