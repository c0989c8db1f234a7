"""PARAM002: parameters whose meaning or format an agent cannot work out.

A model of what makes a parameter self-evident, not a list of bad names.  A parameter explains
itself when something says what it holds: its own description (more than its name again), a
line for it in the tool's description (``- owner: the repository owner``), a name that says the
thing and its role (``repository_owner``), an enum of meaningful values, a format, pattern or
bounds, properties that name its keys, or, for a bare ``id``, a tool name that names exactly one
object (``get_shipment``).  What is left is flagged, with the reason:

* ``unnamed``: no description, and the name is a generic word (``data``, ``options``, ``q``) or
  a bare ``id`` on a tool whose name names no single object;
* ``shapeless``: a free-form object (no properties) whose description does not say its keys;
* ``json``: JSON in a string whose description does not say its shape;
* ``where``: an ID whose description only restates its name, on a server where no tool lists,
  finds or creates that object and nothing says where to get one;
* ``codes``: an enum of codes (``1``, ``2``, ``B``) with nothing saying what each means.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from mcplint import regex_cache as rx
from mcplint.checks._paramtext import (
    declares_closed_set,
    description_of,
    effective_types,
    resolve,
    schema_root,
    tool_line,
)
from mcplint.checks._text import lowered, words
from mcplint.checks.base import WORD_GROUPS, WORDS, Context, Hit, Target, check
from mcplint.model import Manifest, Parameter, Tool
from mcplint.names import singular, split_name

_BOUNDS = ("format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
           "minLength", "maxLength", "examples", "example")
# A description that shows the keys of an object or a JSON string: a brace, a quoted key
# followed by a colon, or words that introduce keys.
_SHAPE = rx.compile(r"[{\[]|[\"'`]\w+[\"'`]\s*:|\b(keys?|fields?|propert(y|ies)|schema|"
                    r"containing|with\s+\w+\s+and\s+\w+|e\.g\.|for example|such as)\b", re.I)
# JSON carried in a string ("a JSON string", "as JSON"), not "json" offered as a format value.
_JSON = rx.compile(r"\bjson[- ]?(?:string|encoded|object|array|formatted|serialized|text)\b|"
                   r"\b(?:as|in|of)\s+(?:a\s+)?json\b(?![\"'`])|\bstringified\b", re.I)
_CODE_VALUE = rx.compile(r"^(?:\d{1,3}|[A-Za-z]{1,2})$")
# Prose that maps codes to meanings: "1 = low", "B: bold", "(1) lavender".
_CODE_GLOSS = rx.compile(r"\b\w{1,3}\s*(?:=|:|-|–|—|→|means)\s*[A-Za-z]{3,}"
                         r"|\(\w{1,3}\)\s*[A-Za-z]{3,}")


_OPTIONS = {
    "generic-names": {**WORDS, "default": [],
                      "description": "Names that say nothing alone (data, value, options, q)."},
    "generic-heads": {**WORDS, "default": [],
                      "description": "Last words that stay vague with a qualifier in front "
                                     "(runtime_params, extra_args)."},
    "id-words": {**WORDS, "default": [],
                 "description": "Name words that make a parameter an identifier."},
    "map-names": {**WORDS, "default": [],
                  "description": "Names of free-form objects that are plain key-value maps "
                                 "(headers, env, labels)."},
    "verbs": {**WORDS, "default": [],
              "description": "Words of a tool name that are actions, not the object."},
    "restating-words": {**WORDS, "default": [],
                        "description": "Words a description may add to a name and still only "
                                       "restate it (the, unique, identifier)."},
    "where-pattern": {"type": "string", "format": "regex", "default": "",
                      "description": "Case-insensitive regular expression for prose that says "
                                     "where an ID comes from or what it looks like."},
    "producer-verbs": {**WORDS, "default": [],
                       "description": "Verbs of sibling tools that hand out an object's IDs "
                                      "(list, search, create)."},
    "lister-verbs": {**WORDS, "default": [],
                     "description": "Words in a tool's own description that say it lists the "
                                    "objects whose IDs it takes (list, search)."},
    "max-short-length": {"type": "integer", "minimum": 0, "default": 2,
                         "description": "Undescribed names this short or shorter are flagged."},
    "pairs": {**WORD_GROUPS, "default": [],
              "description": "Names that explain each other when both are parameters of one "
                             "tool (key and value)."},
}

_REASONS = {
    "unnamed": "has no description, and its name alone does not say what to pass",
    "restated": "is described only by its name, which alone does not say what to pass",
    "shapeless": "is a free-form object, and nothing says which keys it takes",
    "json": "takes JSON in a string, and nothing says its shape",
    "where": "is an ID described only by its name, and nothing says where to get one",
    "codes": "is an enum of codes, and nothing says what each one means",
}


@check("undocumented-parameter", Target.PARAMETER, fields={"param", "reason", "why"},
       options=_OPTIONS)
def opaque_parameter(param: Parameter, tool: Tool, ctx: Context,
                     options: Mapping[str, Any]) -> Iterator[Hit]:
    reason = _reason(param, tool, ctx, options)
    if reason:
        yield Hit(param.pointer, {"param": param.path, "reason": reason,
                                  "why": _REASONS[reason]}, tool)


def _reason(param: Parameter, tool: Tool, ctx: Context, options: Mapping[str, Any]) -> str | None:
    root = schema_root(tool)
    schema = resolve(param.schema, root)
    items = resolve(schema.get("items"), root)
    text = description_of(param, root)
    name = param.name.lower()
    name_words = tuple(w.lower() for w in split_name(param.name))
    if declares_closed_set(schema, root):
        return "codes" if _unexplained_codes(schema, text) else None
    if tool_line(param, tool, root):
        return None
    types = effective_types(schema, root)
    if schema.get("properties") == {} and schema.get("additionalProperties") is False:
        return None  # an object that takes no keys at all: there is nothing to work out
    if _free_form_object(schema, items, types):
        pattern = options["where-pattern"]
        if name in lowered(options["map-names"]) or _SHAPE.search(text) or (
                pattern and re.search(pattern, text, re.I)):
            return None
        return "shapeless"
    if text:
        if "string" in types and _JSON.search(text) and not _SHAPE.search(text) and \
                not any(key in schema for key in _BOUNDS):
            return "json"
        if _restating_id(param, tool, ctx, text, name_words, options):
            return "where"
        if not _restates(text, name_words, options):
            return None
        # "data: The data" says no more than no description: judge the name alone.
    if schema.get("properties") or items.get("properties") or any(
            key in schema for key in _BOUNDS):
        return None
    if _explained_by_siblings(param, tool, options):
        return None
    if _unnamed(tool, name, name_words, options):
        return "restated" if text else "unnamed"
    return None


def _free_form_object(schema: Mapping[str, Any], items: Mapping[str, Any],
                      types: set[str]) -> bool:
    """An object (or an array of objects) that names none of its keys."""
    for node, node_types in ((schema, types), (items, set())):
        # Only a plain object: a value that may be a string or a number as well is free by
        # design (a JSON Patch value), not an object with unstated keys.
        is_object = node_types == {"object"} or node.get("type") == "object"
        # ``"properties": {}`` declared is an empty object on purpose, not a free-form one.
        if is_object and "properties" not in node and not node.get("patternProperties") and \
                not isinstance(node.get("additionalProperties"), Mapping):
            return True
    return False


def _unexplained_codes(schema: Mapping[str, Any], text: str) -> bool:
    values = schema.get("enum")
    if not isinstance(values, list) or len(values) < 3:
        return False
    if not all(_CODE_VALUE.match(str(v)) for v in values if v is not None):
        return False
    if any(isinstance(v, str) and v.isalpha() for v in values) and \
            all(str(v).isalpha() and len(str(v)) == 2 for v in values if v is not None):
        return False  # two-letter words or codes everybody reads: "en", "de"
    return not _CODE_GLOSS.search(text)


def _explained_by_siblings(param: Parameter, tool: Tool, options: Mapping[str, Any]) -> bool:
    siblings = {p.name.lower() for p in tool.parameters if p.depth == param.depth}
    name = param.name.lower()
    return any(name in pair and siblings & (set(pair) - {name}) for pair in options["pairs"])


def _objects(tool: Tool, options: Mapping[str, Any]) -> list[str]:
    """The object words of a tool name, in order, verbs dropped (``get_shipment`` →
    ``["shipment"]``); a preposition between nouns makes two objects (``comment``, ``issue``)."""
    verbs = lowered(options["verbs"])
    groups: list[list[str]] = [[]]
    for token in (t.lower() for t in tool.name_tokens):
        if token in _CONNECTORS:
            groups.append([])
        elif token not in verbs:
            groups[-1].append(singular(token))
    return [g[-1] for g in groups if g]


_CONNECTORS = frozenset({"to", "from", "in", "into", "for", "and", "with", "by", "of", "on",
                         "or", "per"})


def _unnamed(tool: Tool, name: str, name_words: tuple[str, ...],
             options: Mapping[str, Any]) -> bool:
    """An undescribed parameter whose name says nothing about what to pass."""
    if name_words and set(name_words) <= {t.lower() for t in tool.name_tokens}:
        return False  # update_storage_config(config): the tool's name says what it is
    if name in lowered(options["id-words"]):
        # A bare id is plain when the tool's name names exactly one object.
        return len(_objects(tool, options)) != 1
    if name in lowered(options["generic-names"]) or "_".join(name_words) in lowered(
            options["generic-names"]):
        return True
    if len(name_words) > 1 and name_words[-1] in lowered(options["generic-heads"]):
        return True
    return 0 < len(name) <= int(options["max-short-length"])


def _restates(text: str, name_words: tuple[str, ...], options: Mapping[str, Any]) -> bool:
    """Whether the description is only the parameter's own name with filler ("The data")."""
    said = {singular(w) for w in words(text)} - lowered(options["restating-words"])
    return bool(said) and said <= {singular(w) for w in name_words}


def _restating_id(param: Parameter, tool: Tool, ctx: Context, text: str,
                  name_words: tuple[str, ...], options: Mapping[str, Any]) -> bool:
    """An ID described only as itself ("The Iteration Id"), with no word on where to get one,
    on a server where no other tool lists, finds or creates that object."""
    id_words = lowered(options["id-words"])
    if not name_words or name_words[-1] not in id_words:
        return False
    said = {singular(w) for w in words(text)} - lowered(options["restating-words"]) - id_words
    own = {singular(w) for w in name_words} | {singular(t.lower()) for t in tool.name_tokens}
    if said - own:
        return False
    pattern = options["where-pattern"]
    if pattern and re.search(pattern, text, re.I):
        return False
    # The object the ID belongs to: its name's other words, the words its description
    # restates ("The UID of the dashboard"), or the tool's own object.
    nouns = ({singular(w) for w in name_words[:-1]} | (said & own)
             | set(_objects(tool, options)[-1:]))
    if not nouns:
        return False
    if lowered(options["lister-verbs"]) & set(words(tool.description or "")):
        return False  # a router that lists its objects as well: "'list': list silences"
    producers: dict[str, set[str]] = ctx.memo(
        "opacity.producers",
        lambda m: _producers(m, lowered(options["producer-verbs"]), lowered(options["verbs"])))
    return not any(producers.get(noun, set()) - {tool.name} for noun in nouns)


def _producers(manifest: Manifest, verbs: frozenset[str],
               all_verbs: frozenset[str]) -> dict[str, set[str]]:
    """For each object word, the tools that hand out its IDs: a name with a producer verb and
    the object (``list_channels``), or a description that says it returns that object's id."""
    found: dict[str, set[str]] = {}
    mention = rx.compile(r"\b(\w+)[ _-]?(?:id|ids|identifier)s?\b", re.I)
    for tool in manifest.tools:
        tokens = [t.lower() for t in tool.name_tokens]
        # A name with no verb at all (``repo_pull_request``) is a router over its object,
        # which reads it too.
        if verbs & set(tokens) or not all_verbs & set(tokens):
            for token in tokens:
                found.setdefault(singular(token), set()).add(tool.name)
        for match in mention.finditer(tool.description or ""):
            found.setdefault(singular(match.group(1).lower()), set()).add(tool.name)
    return found


CHECKS = (opaque_parameter,)
