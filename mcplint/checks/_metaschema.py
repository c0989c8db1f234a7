"""Validators of JSON Schemas against their dialect's metaschema, built once per dialect.

The 2020-12 metaschema is seven vocabulary schemas joined by ``$dynamicRef``, which jsonschema
resolves through its dynamic scope on every subschema: about 4 ms per tool schema, four times
draft-07's cost, and most of a static lint's time.  Inlining the vocabularies into one schema
and turning ``$dynamicRef: "#meta"`` into ``$ref: "#"`` gives the same errors (a test checks
this against the official metaschema) without the dynamic lookups.  That rewrite is right only
because nothing here extends the metaschema, which is what ``$dynamicRef`` exists for.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema_specifications import REGISTRY  # type: ignore[import-untyped]

_BASE = "https://json-schema.org/draft/2020-12/"
_DROP = frozenset({"$id", "$schema", "$dynamicAnchor", "$vocabulary", "$comment"})


# Keywords whose value maps names to schemas: their keys are names, never keywords (the core
# vocabulary has properties called "$ref", "$id" and "$schema").
_NAME_MAPS = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})


def _rewrite(node: Any, vocabulary: str | None) -> Any:
    """Make a vocabulary schema's references point inside the single inlined schema."""
    if isinstance(node, list):
        return [_rewrite(item, vocabulary) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROP:
            continue
        if key in _NAME_MAPS and isinstance(value, dict):
            out[key] = {name: _rewrite(sub, vocabulary) for name, sub in value.items()}
        elif key == "$dynamicRef" and value == "#meta":
            out["$ref"] = "#"
        elif key == "$ref" and isinstance(value, str) and value.startswith("meta/"):
            name, _, fragment = value[len("meta/"):].partition("#")
            out["$ref"] = f"#/$defs/{name}{fragment}"
        elif (key == "$ref" and isinstance(value, str) and vocabulary
              and value.startswith("#/$defs/")):
            out["$ref"] = f"#/$defs/{vocabulary}{value[1:]}"
        else:
            out[key] = _rewrite(value, vocabulary)
    return out


def flat_202012() -> dict[str, Any]:
    meta = Draft202012Validator.META_SCHEMA
    flat: dict[str, Any] = _rewrite({k: v for k, v in meta.items() if k != "allOf"}, None)
    flat["$defs"] = {}
    for entry in meta["allOf"]:
        name = entry["$ref"].rsplit("/", 1)[-1]
        flat["$defs"][name] = _rewrite(REGISTRY.contents(_BASE + entry["$ref"]), name)
    flat["allOf"] = [{"$ref": f"#/$defs/{name}"} for name in flat["$defs"]]
    inlined: dict[str, Any] = _inline(flat, flat)
    inlined.pop("$defs")
    return inlined


def _inline(node: Any, root: dict[str, Any]) -> Any:
    """Replace every reference but the recursive ``#`` by what it points to.

    Each ``$ref`` costs jsonschema a registry lookup per instance node; after this only the
    root recursion is left.  No target here refers back to itself except through ``#``.
    """
    if isinstance(node, list):
        return [_inline(item, root) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    rest = {key: ({name: _inline(sub, root) for name, sub in value.items()}
                  if key in _NAME_MAPS and isinstance(value, dict) else _inline(value, root))
            for key, value in node.items() if key != "$ref"}
    if not isinstance(ref, str) or ref == "#":
        return {**({"$ref": ref} if ref is not None else {}), **rest}
    target: Any = root
    for part in ref.removeprefix("#/").split("/"):
        target = target[part]
    resolved = _inline(target, root)
    if set(resolved) & set(rest):  # keep both applying, as $ref beside keywords does
        return {"allOf": [resolved], **rest}
    return {**resolved, **rest}


@cache
def meta_validator(dialect: str) -> Any:
    """A validator for schemas that declare ``dialect`` (2020-12 when unknown or absent)."""
    cls = validators.validator_for({"$schema": dialect}, default=Draft202012Validator)
    if cls is Draft202012Validator:
        return Draft202012Validator(flat_202012())
    return cls(cls.META_SCHEMA)
