"""Parameters an agent cannot fill in correctly: closed sets without an enum, undocumented or
shapeless parameters, one concept under several names, and an unclear ``required`` list.

Every vocabulary (the names that imply a closed set, the words that open a value list, the
parameter names that say nothing alone, the kinds of formatted value) is a rule option.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

from mcplint import regex_cache as rx
from mcplint.checks._paramtext import (
    declares_closed_set,
    description_of,
    effective_types,
    has_text,
    is_stringish,
    listed_values,
    mentions,
    offers_examples,
    resolve,
    schema_root,
    tool_line,
)
from mcplint.checks._suggest import enum_json, enum_place
from mcplint.checks._text import lowered
from mcplint.checks.base import WORD_GROUPS, WORDS, Context, Hit, Target, check
from mcplint.findings import Edit
from mcplint.model import Manifest, Parameter, Tool
from mcplint.names import singular, split_name


def _where(param: Parameter, tool: Tool) -> str:
    return f'"{param.path}" of "{tool.label}"'


# --- PARAM001 ----------------------------------------------------------------------------------

@check(
    "closed-set-without-enum",
    Target.PARAMETER,
    fields={"param", "signal", "enum", "place"},
    options={
        "names": {**WORDS, "default": [],
                  "description": "Last words of a parameter name that imply a closed set."},
        "example-names": {**WORDS, "default": [],
                          "description": "Last words of a name that make listed examples "
                                         "a closed set, but not alone (type, kind)."},
        "free-form-names": {**WORDS, "default": [],
                            "description": "Name words of parameters that are free-form "
                                           "whatever their description lists (id, url)."},
        "lead-ins": {**WORDS, "default": [],
                     "description": "Phrases after which a description lists the values."},
        "open-words": {**WORDS, "default": [],
                       "description": "Words that say the listed values are not all of them."},
        "free-form-words": {**WORDS, "default": [],
                            "description": "Words that say a value is free-form (a name, an "
                                           "ID), which overrule a closed-set name."},
        "structured-words": {**WORDS, "default": [],
                             "description": "Words that say the value is a structure (JSON), "
                                            "whose listed words are keys, not values."},
        "max-values": {"type": "integer", "minimum": 2, "default": 20,
                       "description": "Most values a closed set has."},
        "name-only": {"type": "boolean", "default": True,
                      "description": "Flag a closed-set name even when the description lists "
                                     "no values."},
        "complete-lead-ins": {**WORDS, "default": [],
                              "description": "Phrases that present a list as every allowed "
                                             "value (one of, valid values): check --fix adds "
                                             "the enum."},
        "open-list-words": {**WORDS, "default": [],
                            "description": "Words that leave a list open to other values (or "
                                           "any string, common values): suggested, not "
                                           "applied."},
        "multi-value-words": {**WORDS, "default": [],
                              "description": "Words that say one string holds several values "
                                             "(comma-separated), which an enum would reject."},
    },
)
def closed_set_without_enum(param: Parameter, tool: Tool, ctx: Context,
                            options: Mapping[str, Any]) -> Iterator[Hit]:
    root = schema_root(tool)
    if not is_stringish(param.schema, root) or declares_closed_set(param.schema, root):
        return
    words = split_name(param.name)
    last = words[-1] if words else ""
    named = last in lowered(options["names"])
    example_named = named or last in lowered(options["example-names"])
    # The last word says what the value is: a query_type is a type (of query), a status_message
    # a message.  A free-form word before a closed-set head only says what the set is about.
    free_form = lowered(options["free-form-names"])
    if last in free_form or (set(words) & free_form and not example_named):
        return
    # An undescribed parameter may be described on its own line of the tool's description.
    own = description_of(param, root)
    text = own or tool_line(param, tool, root)
    if mentions(text, options["open-words"]):
        return
    siblings = [p.name for p in tool.parameters if p is not param]
    listing = listed_values(text, options["lead-ins"], options["max-values"], siblings, words,
                            (*options["free-form-names"], *options["free-form-words"]))
    if listing and mentions(text, [w for w in options["structured-words"]
                                   if w.lower() not in {v.lower() for v in listing.values}]):
        return  # "JSON string of fields: …" lists keys, not values (but "json" or "csv" is one)
    if listing and _format_examples(listing.values):
        return  # "user:123", "A1:D100", "https://…" show a format, not the values of a set
    if listing and (not listing.examples or example_named):
        signal = ("lists its values as examples" if listing.examples
                  else "lists its allowed values")
        # --fix writes only what the parameter's own description says.
        certain = bool(own) and not listing.examples and _complete_list(text, options)
        yield _enum_hit(param, tool, signal, listing.values, certain,
                        not mentions(text, options["multi-value-words"]))
        return
    if listing or mentions(text, options["free-form-words"]):
        return
    default = _identifier_default(param.schema)
    if default and (example_named or not text) and not offers_examples(text):
        # A word-like default ("EQUALS", "relevance") is one value of a set the author knows.
        yield Hit(param.pointer, {"param": param.path,
                                  "signal": f'defaults to "{default}", a value from a fixed set',
                                  "enum": f'["{default}", "…"] (the values it accepts)'}, tool)
        return
    if named and options["name-only"] and not offers_examples(text):
        # No values to propose, so no "place" and no suggestion; "enum" stays for user packs'
        # messages, which every hit of this check has always filled.
        yield Hit(param.pointer, {"param": param.path,
                                  "signal": f'is named for a fixed set of values ("{words[-1]}")',
                                  "enum": '["…", "…"] (the values it accepts)'}, tool)


# Characters no value of a closed set has, but a format example does ("user:123",
# "#,##0.00", "https://…", "SheetName!A1").
_FORMAT_MARK = rx.compile(r"[:/#%@!*=?,()\[\]{}<>]|\.\.")
_ALNUM = rx.compile(r"[A-Za-z0-9]")
_RATIO = rx.compile(r"[0-9]+:[0-9]+")
_MEDIA_TYPE = rx.compile(r"[a-z]+/[a-z0-9][a-z0-9.+\-]*")


def _format_examples(values: Sequence[str]) -> bool:
    """Whether listed values are examples of a format rather than members of a set: one has a
    format's punctuation among letters or digits.  Operators ("=", "!=", "=~") are
    punctuation alone, and aspect ratios ("16:9", "4:3") and media types ("text/csv") are
    sets with punctuation of their own."""
    if all(_RATIO.fullmatch(v) or _MEDIA_TYPE.fullmatch(v) for v in values):
        return False
    return any(_FORMAT_MARK.search(v) and _ALNUM.search(v) for v in values)


_IDENTIFIER = rx.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_\-][A-Za-z0-9]+)*")
_NOT_A_CHOICE = frozenset({"true", "false", "none", "null", "default", "all", "any", "auto"})
# Hex digits with a digit among them ("D00000", "1E90FF") are a colour or a number, not a word.
_HEX = rx.compile(r"(?=[A-Za-z]*[0-9])[0-9A-Fa-f]{3,8}")


def _identifier_default(schema: Mapping[str, Any]) -> str | None:
    """A default that reads as a code, not as text: one word, at most 24 characters."""
    default = schema.get("default")
    if (isinstance(default, str) and len(default) <= 24 and _IDENTIFIER.fullmatch(default)
            and default.lower() not in _NOT_A_CHOICE and not _HEX.fullmatch(default)):
        return default
    return None


# A sentence that opens with a short label and a colon lists what the label names
# ("Travel mode: 'Car', 'Truck' or 'Walking'").
_LABEL = rx.compile(r"(?:^|[.!?]\s+)[A-Za-z][\w \-]{0,40}:\s")


def _complete_list(text: str, options: Mapping[str, Any]) -> bool:
    """Whether the prose presents its values as the whole set, so --fix may add the enum: a
    closing lead-in ("one of", "valid values") or a label and a colon, and no word that opens
    the set ("or any string", "common values")."""
    if offers_examples(text) or mentions(text, options["open-list-words"]):
        return False
    return mentions(text, options["complete-lead-ins"]) or bool(_LABEL.search(text))


def _enum_hit(param: Parameter, tool: Tool, signal: str, values: Sequence[str],
              certain: bool, single: bool) -> Hit:
    """The enum the prose lists, where it belongs.  A comma-separated string takes several
    values at once, which an enum would reject, so it gets no suggestion; --fix applies the
    enum only when the list is certain and the schema is plain."""
    fields = {"param": param.path, "signal": signal, "enum": enum_json(values)}
    found = enum_place(param) if single else None
    if found is None:
        if single:
            fields["place"] = f'the schema of "{param.path}"'
        return Hit(param.pointer, fields, tool)
    place, nullable = found
    enum = enum_json(values, nullable)
    # A default outside the list says the list is not the whole set (or the default is
    # stale); either way the enum is the author's call.
    default = param.schema.get("default")
    if default is not None and default not in values:
        certain = False
    edits = (Edit(place.pointer, "enum", enum),) if certain else ()
    return Hit(param.pointer, fields | {"enum": enum, "place": place.phrase}, tool, edits=edits)


# --- PARAM003 ----------------------------------------------------------------------------------

_KIND = {
    "type": "object",
    "required": ["words", "shape"],
    "additionalProperties": False,
    "properties": {
        "words": {**WORDS, "description": "Name words that make a parameter this kind."},
        "not-words": {**WORDS, "description": "Name words that rule the kind out."},
        "types": {**WORDS, "description": "JSON types the kind applies to (default: all)."},
        "shape": {"type": "string", "format": "regex",
                  "description": "Regular expression that finds a statement of the shape in "
                                 "the description or name."},
        "ask": {"type": "string", "description": "What to state, for the message."},
    },
}


# "optional" anywhere beside a required-pattern match makes the requirement a condition.
_OPTIONAL = rx.compile(r"\boptional\b", re.IGNORECASE)
# A bullet line of a description documents a nested field ("- assignee (optional): …").
_BULLET_LINE = rx.compile(r"\s*[-*•]\s")


def _compiled(pattern: str) -> re.Pattern[str]:
    try:
        return rx.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise ValueError(f"shape {pattern!r} is not a regular expression: {exc}") from exc


@check(
    "opaque-format",
    Target.PARAMETER,
    fields={"param", "kind", "ask"},
    options={
        "kinds": {"type": "object", "additionalProperties": _KIND, "default": {},
                  "description": "Kinds of formatted value, by name."},
        "extra-kinds": {"type": "object", "additionalProperties": _KIND, "default": {},
                        "description": "Kinds added to (or replacing by name) the built-in "
                                       "ones, so a config need not repeat them."},
    },
)
def opaque_format(param: Parameter, tool: Tool, ctx: Context,
                  options: Mapping[str, Any]) -> Iterator[Hit]:
    root = schema_root(tool)
    schema = resolve(param.schema, root)
    if declares_closed_set(schema, root) or any(
            key in schema for key in ("format", "pattern", "examples", "example")):
        return
    words = set(split_name(param.name))
    types = effective_types(schema, root)
    for kind, spec in {**options["kinds"], **options["extra-kinds"]}.items():
        if not words & set(spec["words"]) or words & set(spec.get("not-words", ())):
            continue
        allowed = set(spec.get("types", ()))
        if allowed and not (types and types <= allowed):
            continue
        text = description_of(param, root)
        default = schema.get("default")
        shape = _compiled(spec["shape"])
        if shape.search(text) or shape.search(" ".join(split_name(param.name))) or (
                isinstance(default, str) and default.strip()):
            return
        # The tool's description may explain the shape once for all its parameters
        # ("patterns should be glob-style patterns"); it counts where it names the kind.
        overview = tool.description or ""
        named = words & set(spec["words"])
        if mentions(overview, named | {w + "s" for w in named}) and shape.search(overview):
            return
        yield Hit(param.pointer, {"param": param.path, "kind": kind,
                                  "ask": spec.get("ask", "its format")}, tool)
        return


# --- PARAM004 ----------------------------------------------------------------------------------

class _Concepts:
    """Maps a parameter name to the concept it names: case and separators dropped, synonyms
    merged (``paperId`` = ``paper_id``; ``q`` = ``query``)."""

    def __init__(self, groups: Sequence[Sequence[str]]) -> None:
        self.whole: dict[str, str] = {}
        self.token: dict[str, str] = {}
        for group in groups:
            keys = ["_".join(split_name(w)) for w in group if split_name(w)]
            if not keys:
                continue
            for key in keys:
                self.whole.setdefault(key, keys[0])
                if "_" not in key:
                    self.token.setdefault(key, keys[0])

    def of(self, name: str) -> str:
        tokens = split_name(name)
        key = "_".join(tokens)
        if key in self.whole:
            return self.whole[key]
        return "_".join(self.token.get(t, t) for t in tokens)


_BARE_IDS = ("id", "ids")


@check(
    "inconsistent-parameter-names",
    Target.SERVER,
    fields={"param", "other", "count", "others"},
    options={
        "synonyms": {**WORD_GROUPS, "default": [],
                     "description": "Names (or name words) that mean the same parameter."},
        "bare-id": {"type": "boolean", "default": True,
                    "description": "Count a bare `id` on get_paper as `paper_id` when other "
                                   "tools call it that."},
    },
)
def inconsistent_parameter_names(manifest: Manifest, ctx: Context,
                                 options: Mapping[str, Any]) -> Iterator[Hit]:
    concepts = _Concepts(options["synonyms"])
    # concept → spelling → [(tool, parameter)], in manifest order; one entry per tool.
    index: dict[str, dict[str, list[tuple[Tool, Parameter]]]] = {}
    bare: list[tuple[Tool, Parameter]] = []
    for tool in manifest.tools:
        seen: set[str] = set()
        for param in tool.parameters:
            if param.depth != 0:
                continue
            if options["bare-id"] and param.name.lower() in _BARE_IDS:
                bare.append((tool, param))
                continue
            concept = concepts.of(param.name)
            if concept and concept not in seen:
                seen.add(concept)
                index.setdefault(concept, {}).setdefault(param.name, []).append((tool, param))
    for tool, param in bare:
        # A bare id is the id of the name's head noun, its last word before any "by"
        # (get_paper, get_paper_by_id): update_project_update's is a project update's, not a
        # project's.
        tokens = tool.name_tokens
        head = tokens[:tokens.index("by")] if "by" in tokens else tokens
        if not head:
            continue
        concept = concepts.of(f"{singular(head[-1])}_{param.name.lower()}")
        if concept in index:
            index[concept].setdefault(param.name, []).append((tool, param))
    usual: Callable[[str], int] | None = None
    for spellings in index.values():
        if len(spellings) < 2:
            continue
        if usual is None:
            usual = _usual_case(manifest)
        # On a tie (folderUid twice, folder_uid twice) the server's usual case decides, not
        # the order of its tools.
        ranked = sorted(spellings.items(), key=lambda item: (-len(item[1]), usual(item[0])))
        if ranked[0][0].lower() in _BARE_IDS:
            # Most tools call their own object's id `id`: that is the server's convention,
            # and a `paper_id` elsewhere refers to a paper from another object, as it should.
            ranked = [item for item in ranked if item[0].lower() not in _BARE_IDS]
            if len(ranked) < 2:
                continue
        main, users = ranked[0]
        # A set, not a scan of `users`: a common concept (`query`) has thousands of users at
        # gateway size, and scanning them for every other spelling's user was quadratic.
        main_tools = {id(t) for t, _ in users}
        shown = ", ".join(f'"{t.label}"' for t, _ in users[:3])
        if len(users) > 3:
            shown += f" and {len(users) - 3} more"
        for _, where in ranked[1:]:
            for tool, param in where:
                if id(tool) in main_tools:
                    continue
                yield Hit(param.pointer,
                          {"param": param.name, "other": main, "count": len(users),
                           "others": shown},
                          tool, related=((users[0][0], users[0][1].pointer),))


def _case(name: str) -> str | None:
    if "_" in name.strip("_"):
        return "snake"
    if any(a.islower() and b.isupper() for a, b in pairwise(name)):
        return "camel"
    return None


def _usual_case(manifest: Manifest) -> Callable[[str], int]:
    """0 for a name in the case most of the server's parameter names use, 1 otherwise."""
    counts = Counter(_case(p.name) for t in manifest.tools for p in t.parameters
                     if p.depth == 0)
    snake, camel = counts["snake"], counts["camel"]
    preferred = "snake" if snake > camel else "camel" if camel > snake else None
    return lambda name: 0 if preferred is None or _case(name) in (preferred, None) else 1


# --- PARAM005 ----------------------------------------------------------------------------------

@check(
    "required-unclear",
    Target.TOOL,
    fields={"param", "problem", "fix", "required_list"},
    options={
        "required-pattern": {"type": "string", "format": "regex", "default": "",
                             "description": "Regular expression that finds a description "
                                            "calling the parameter required."},
        "optional-pattern": {"type": "string", "format": "regex", "default": "",
                             "description": "Regular expression that finds a description "
                                            "calling the parameter optional."},
    },
)
def required_unclear(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    schema = tool.input_schema
    if not isinstance(schema, dict):
        return
    required = schema.get("required")
    listed = ({n for n in required if isinstance(n, str)} if isinstance(required, list)
              else set())
    says_required = _compiled(options["required-pattern"]) if options["required-pattern"] else None
    says_optional = _compiled(options["optional-pattern"]) if options["optional-pattern"] else None
    texts = {}
    for param in tool.parameters:
        if param.depth == 0 and has_text(param.schema):
            # Bullet lines document nested fields ("- assignee (optional): …"), not this one.
            texts[param.name] = "\n".join(line for line in (param.description or "").splitlines()
                                          if not _BULLET_LINE.match(line))
    # A description that calls the parameter both ("Optional if the server has a default;
    # otherwise required") states a condition, which no `required` list can express.
    conditional = {name for name, text in texts.items()
                   if says_required and says_required.search(text) and _OPTIONAL.search(text)}
    # Every parameter whose prose says required belongs in the one list the suggestion adds.
    wanted = [name for name, text in texts.items()
              if not listed and says_required and says_required.search(text)
              and name not in conditional]
    for param in tool.parameters:
        if param.depth != 0 or param.name not in texts:
            continue
        text = texts[param.name]
        if param.name in wanted:
            fields = {
                "param": param.name,
                "problem": "says it is required, but the input schema has no `required` list",
                "fix": f'add "required": ["{param.name}"] to the input schema'}
            if "required" not in schema:
                fields["required_list"] = json.dumps(wanted)
            yield Hit(param.pointer, fields, tool)
        elif (param.name in listed and says_optional and says_optional.search(text)
              and param.name not in conditional):
            yield Hit(param.pointer, {
                "param": param.name,
                "problem": "says it is optional, but the input schema lists it in `required`",
                "fix": f'remove "{param.name}" from `required`, or drop "optional" from its '
                       "description"}, tool)


CHECKS = (closed_set_without_enum, opaque_format,
          inconsistent_parameter_names, required_unclear)
