"""Where a concrete fix goes, and whether mcplint may apply it by itself.

A check yields a ``Hit`` with the fields its rule's ``suggestion`` template needs, and with
``edits`` only when the change adds exactly what the tool's own text makes certain and does not
weaken what a client assumes by default.  These helpers work out the place (a JSON pointer and
how to name it in prose) for the fixes several checks share.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from mcplint import regex_cache as rx
from mcplint.checks._writes import Reading, Vocabulary, description_verb
from mcplint.findings import Edit
from mcplint.loaders.jsonsource import join_pointer
from mcplint.model import Parameter, Tool
from mcplint.names import split_name


class Place(NamedTuple):
    """The object a member is added to: its pointer, and how a suggestion names it."""

    pointer: str
    phrase: str


def _is_string_schema(schema: Any) -> bool:
    return isinstance(schema, Mapping) and "$ref" not in schema and schema.get("type") == "string"


def enum_place(param: Parameter) -> tuple[Place, bool] | None:
    """Where an enum for a string parameter belongs, and whether null must stay allowed.

    The schema itself for a string; its ``items`` for an array of strings; the one string
    alternative of ``anyOf``/``oneOf`` (pydantic's ``Optional[str]``).  None when the schema is
    shaped otherwise (a ``$ref``, a mixed union): the enum is then suggested, not applied.
    """
    schema = param.schema
    where = f'"{param.path}"'
    if "$ref" in schema or "enum" in schema:
        return None
    declared = schema.get("type")
    if declared == "string":
        return Place(param.pointer, f"the schema of {where}"), False
    if isinstance(declared, list) and sorted(declared) == ["null", "string"]:
        return Place(param.pointer, f"the schema of {where}"), True
    if declared == "array":
        items = schema.get("items")
        if isinstance(items, Mapping) and _is_string_schema(items) and "enum" not in items:
            return Place(join_pointer(param.pointer, "items"), f'the "items" of {where}'), False
        return None
    if declared is not None:
        return None
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if not isinstance(branches, list):
            continue
        strings = [i for i, b in enumerate(branches) if _is_string_schema(b)]
        others_null = all(isinstance(b, Mapping) and b.get("type") == "null"
                          for i, b in enumerate(branches) if i not in strings)
        if len(strings) == 1 and others_null and "enum" not in branches[strings[0]]:
            pointer = join_pointer(join_pointer(param.pointer, key), strings[0])
            return Place(pointer, f'the string alternative of {where} ({key}/{strings[0]})'), False
    return None


def enum_json(values: Sequence[str], nullable: bool = False) -> str:
    return json.dumps([*values, None] if nullable else list(values), ensure_ascii=False)


def add_members(tool: Tool, members: Mapping[str, Any]) -> tuple[str, str, tuple[Edit, ...]]:
    """Annotations to add to a tool: the JSON text to write, where, and the edits.

    With an ``annotations`` object the hints go into it; without one, the tool gets one.  No
    edits when ``annotations`` is there but is not an object (SPEC012 reports that), or holds a
    misspelt hint (``readonlyHint``: SPEC011), whose intent a fix must not override.
    """
    raw = tool.raw.get("annotations")
    text = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in members.items())
    if raw is None:
        value = json.dumps(dict(members))
        return (f'"annotations": {value}', "the tool",
                (Edit(tool.pointer, "annotations", value),))
    if not isinstance(raw, Mapping) or tool.annotations is None:
        return text, 'its "annotations"', ()
    wanted = {k.lower() for k in members}
    if any(k.lower() in wanted and k not in members for k in raw):
        return text, 'its "annotations"', ()
    pointer = tool.annotations.pointer
    return text, 'its "annotations"', tuple(Edit(pointer, k, json.dumps(v))
                                            for k, v in members.items())



_WORD = rx.compile(r"[A-Za-z]+")


def _verb_forms(text: str) -> set[str]:
    """Inflected words of a text (creates, updated, deleting), which in prose are verbs."""
    forms = set()
    for word in _WORD.findall(text.lower()):
        for ending in ("ing", "ed", "es", "s", "d"):
            if word.endswith(ending) and len(word) > len(ending) + 2:
                forms.add(word[: -len(ending)])
                if ending in ("ing", "ed"):
                    forms.add(word[: -len(ending)] + "e")  # creating, created → create
    return forms


def certainly_reads(tool: Tool, vocab: Vocabulary, reading: Reading,
                    verbs: frozenset[str]) -> bool:
    """Whether the tool's own text makes it certain that it only reads, so that check --fix
    may declare readOnlyHint: true, which lets clients run it without asking.

    The name's action and the description's first verb must both be plain reads (``verbs``),
    and nothing else may hint at a write: no write verb inflected in the description ("and
    updates the cache"), no destructive phrase, no parameter named for a write.
    """
    if reading.effect != "read" or reading.verb not in verbs:
        return False
    if not reading.reason.startswith("its name says"):
        return False
    if description_verb(tool, vocab) not in verbs:
        return False
    text = tool.description or ""
    writes = vocab.writes - vocab.read
    if _verb_forms(text) & writes or any(p.search(text) for p in vocab.destructive_phrases):
        return False
    return not any(set(split_name(p.name)) & writes for p in tool.parameters)
