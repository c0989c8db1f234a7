"""Tools whose result can be large: list and search tools with nothing to bound the result
(``unbounded-list``), and ones that cap it but offer no way to the rest (``large-result``).

A tool is a list tool by its name (a list verb such as list/search/query, or a read verb with a
plural object: ``get_users``) or by the opening of its description ("List …", "Returns all …").
A single-record tool (``get_user``) is not one.  Vocabularies are rule options.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, NamedTuple

from mcplint import regex_cache as rx
from mcplint.checks._prefilter import LiteralIndex, required
from mcplint.checks._text import lowered
from mcplint.checks.base import WORDS, Context, Hit, Target, check
from mcplint.model import Tool
from mcplint.names import singular, split_name


@cache
def _pattern(text: str) -> re.Pattern[str] | None:
    if not text:
        return None
    try:
        return rx.compile(text, re.IGNORECASE)
    except re.error as exc:
        raise ValueError(f"{text!r} is not a regular expression: {exc}") from exc


def _search(pattern: str, text: str) -> bool:
    compiled = _pattern(pattern)
    if compiled is None:
        return False
    # A pattern such as "all|every|entire" cannot match a text without one of its words.
    return bool(_prefilter(pattern).candidates(text)) and compiled.search(text) is not None


@cache
def _prefilter(pattern: str) -> LiteralIndex:
    compiled = _pattern(pattern)
    return LiteralIndex([required(compiled) if compiled is not None else None])


_LIST_OPTIONS: dict[str, Any] = {
    "list-verbs": {**WORDS, "default": [],
                   "description": "Name words that make a tool a list or search tool."},
    "read-verbs": {**WORDS, "default": [],
                   "description": "Name verbs that make a tool a list tool when its last name "
                                  "word is plural (get_users) and its description says it "
                                  "returns many (many-pattern)."},
    "many-pattern": {"type": "string", "format": "regex", "default": "",
                     "description": "Regular expression for a description that says a read "
                                    "tool returns many records (\"all\", \"history\")."},
    "other-verbs": {**WORDS, "default": [],
                    "description": "First name words of tools that act rather than list "
                                   "(create_filter, cancel_query)."},
    "one-words": {**WORDS, "default": [],
                  "description": "Plural-looking last name words that name one record "
                                 "(details, contents, settings)."},
    "catalogue-words": {**WORDS, "default": [],
                        "description": "Last name words of lists that are short by nature "
                                       "(types, colors, regions)."},
    "list-opening": {"type": "string", "format": "regex", "default": "",
                     "description": "Regular expression for a description opening that makes "
                                    "a tool a list tool (\"List …\", \"Returns all …\")."},
    "single-pattern": {"type": "string", "format": "regex", "default": "",
                       "description": "Regular expression for a description that says the "
                                      "tool returns one record."},
    "bound-words": {**WORDS, "default": [],
                    "description": "Parameter name words that bound a result (limit, cursor)."},
    "cap-pattern": {"type": "string", "format": "regex", "default": "",
                    "description": "Regular expression for prose that states a cap on the "
                                   "result (\"up to 50\", \"paginated\")."},
    "query-language-pattern": {"type": "string", "format": "regex", "default": "",
                               "description": "Regular expression for a parameter (name and "
                                              "description) that takes a query in a language "
                                              "with its own limit (SQL): the agent sizes the "
                                              "result in the query, so the tool is no list."},
}


class _Shape(NamedTuple):
    """What a tool's surface says about the size of its result."""

    is_list: bool
    bound_params: tuple[str, ...]
    capped: bool

    @property
    def bounded(self) -> bool:
        return bool(self.bound_params) or self.capped


def _texts(tool: Tool) -> str:
    parts = [tool.description or ""]
    parts += [p.description or "" for p in tool.parameters if p.depth == 0]
    return "\n".join(parts)


def _shape(tool: Tool, options: Mapping[str, Any]) -> _Shape:
    words = tool.name_tokens
    description = (tool.description or "").strip()
    list_verbs = lowered(options["list-verbs"])
    read_verbs = lowered(options["read-verbs"])
    last = words[-1] if words else ""
    plural = (len(words) > 1 and singular(last) != last
              and last not in lowered(options["one-words"]))
    by_name = bool(set(words) & list_verbs) or (
        bool(set(words) & read_verbs) and plural
        and _search(options["many-pattern"], description))
    by_text = _search(options["list-opening"], description[:80])
    acts = bool(words) and words[0] in lowered(options["other-verbs"])
    short = last in lowered(options["catalogue-words"])
    single = _search(options["single-pattern"], description)
    is_list = (by_name or by_text) and not (single or acts or short)
    bound_words = lowered(options["bound-words"])
    # A page size may sit one level down, in a params object (lark's params.page_size).
    bound = tuple(p.path for p in tool.parameters
                  if p.depth <= 1 and set(split_name(p.name)) & bound_words)
    capped = _search(options["cap-pattern"], _texts(tool))
    # A query in SQL carries its own LIMIT: the agent sizes the result, not the tool.
    if is_list and any(_search(options["query-language-pattern"], f"{p.name} {p.description or ''}")
                       for p in tool.parameters if p.depth == 0):
        is_list = False
    return _Shape(is_list, bound, capped)


@check(
    "unbounded-list",
    Target.TOOL,
    fields={"what", "limit_name", "limit_schema"},
    options={
        **_LIST_OPTIONS,
        "limit-words": {**WORDS, "default": [],
                        "description": "Name words of an integer parameter that caps how many "
                                       "items come back, for the suggested parameter."},
        "min-parameters": {"type": "integer", "minimum": 0, "default": 1,
                           "description": "Tools with fewer parameters are left alone: a list "
                                          "with nothing to filter by is usually a short "
                                          "catalogue (allowed directories, open tabs)."},
        "everything-pattern": {"type": "string", "format": "regex", "default": "",
                               "description": "Text that says a tool returns every record of a "
                                              "store, which makes even a parameterless list "
                                              "unbounded."},
    },
)
def unbounded_list(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    shape = _shape(tool, options)
    top = [p for p in tool.parameters if p.depth == 0]
    if not shape.is_list or shape.bounded:
        return
    if len(top) < options["min-parameters"] and not _search(options["everything-pattern"],
                                                             tool.description or ""):
        return
    what = "search" if {"search", "find", "query"} & set(tool.name_tokens) else "list"
    name, schema = _server_limit(ctx, options)
    yield Hit(tool.child("name") if "name" in tool.raw else tool.pointer,
              {"what": what, "limit_name": name, "limit_schema": schema}, tool)


# Name words that say "how many" only next to another word (max_results, per_page).
_NOT_ALONE = frozenset({"max", "maximum", "page", "per"})
_LIMIT_DEFAULTS = {"minimum": 1, "maximum": 100, "default": 20}


def _server_limit(ctx: Context, options: Mapping[str, Any]) -> tuple[str, str]:
    """The limit parameter to suggest: named as most of the server's tools name theirs
    (``max_results``, ``per_page``), so the new one matches the agent's habit, with their type
    and bounds; else a plain ``limit``.  The description is the suggestion's own: a sibling's
    says what that sibling returns."""
    words = lowered(options["limit-words"])

    def build(manifest: Any) -> tuple[str, str]:
        seen: Counter[str] = Counter()
        schemas: dict[str, Mapping[str, Any]] = {}
        for tool in manifest.tools:
            for param in tool.parameters:
                name_words = set(split_name(param.name))
                if (param.depth == 0 and name_words and name_words <= words
                        and not name_words <= _NOT_ALONE
                        and param.types in (("integer",), ("number",))):
                    seen[param.name] += 1
                    schemas.setdefault(param.name, param.schema)
        name: str = "limit"
        source: Mapping[str, Any] = {"type": "integer"}
        if seen:
            name = seen.most_common(1)[0][0]
            source = schemas[name]
        schema: dict[str, Any] = {"type": source.get("type", "integer")}
        for key, fallback in _LIMIT_DEFAULTS.items():
            value = source.get(key)
            schema[key] = value if isinstance(value, int) and not isinstance(value, bool) \
                else fallback
        schema["maximum"] = max(schema["maximum"], schema["default"])
        schema["description"] = (f"Most items to return (default {schema['default']}, "
                                 f"at most {schema['maximum']}).")
        return name, json.dumps(schema)

    result: tuple[str, str] = ctx.memo("responses.limit:" + ",".join(sorted(words)), build)
    return result


@check(
    "large-result",
    Target.TOOL,
    fields={"bound", "page_name", "page_schema"},
    options={
        **_LIST_OPTIONS,
        "pagination-words": {**WORDS, "default": [],
                             "description": "Parameter name words that page through a result "
                                            "(cursor, offset, page)."},
        "file-words": {**WORDS, "default": [],
                       "description": "Parameter name words that send the result to a file "
                                      "(output, save)."},
        "paging-name-words": {**WORDS, "default": [],
                              "description": "The words a paging parameter's name is made "
                                             "of (offset, page_token), to name the suggested "
                                             "parameter as the server does."},
        "file-pattern": {"type": "string", "format": "regex", "default": "",
                         "description": "Regular expression for prose that says the result "
                                        "goes to a file or comes back as a summary."},
    },
)
def large_result(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    shape = _shape(tool, options)
    # A tool with nothing bounding its result is unbounded-list's finding, not this one's.
    if not shape.is_list or not shape.bounded:
        return
    paging = lowered(options["pagination-words"])
    files = lowered(options["file-words"])
    for param in tool.parameters:
        tokens = set(split_name(param.name))
        if param.depth <= 1 and (tokens & paging or tokens & files):
            return
    if _search(options["file-pattern"], _texts(tool)):
        return
    bound = (f'"{shape.bound_params[0]}"' if shape.bound_params
             else "the cap its description states")
    name, schema = _server_paging(ctx, lowered(options["paging-name-words"]))
    yield Hit(tool.child("name") if "name" in tool.raw else tool.pointer,
              {"bound": bound, "page_name": name, "page_schema": schema}, tool)


# Name words that page only next to another word (page_number, next_token, start_index);
# a "token" alone is as often a credential.
_PAGING_NOT_ALONE = frozenset({"next", "start", "index", "number", "num", "token"})


def _server_paging(ctx: Context, paging: frozenset[str]) -> tuple[str, str]:
    """The paging parameter to suggest: named and typed as the one most of the server's tools
    take (a name made of ``paging``'s words: ``offset``, ``page_token``), else a string
    ``cursor``."""

    def build(manifest: Any) -> tuple[str, str]:
        seen: Counter[tuple[str, str]] = Counter()
        for tool in manifest.tools:
            for param in tool.parameters:
                kind = param.types[0] if len(param.types) == 1 else ""
                words = set(split_name(param.name))
                if (param.depth == 0 and words and words <= paging
                        and not words <= _PAGING_NOT_ALONE
                        and kind in ("string", "integer", "number")):
                    seen[(param.name, kind)] += 1
        name, kind = seen.most_common(1)[0][0] if seen else ("cursor", "string")
        return name, json.dumps({
            "type": kind,
            "description": "Where the next page starts, as the previous response gives it; "
                           "omit for the first page."})

    result: tuple[str, str] = ctx.memo("responses.paging:" + ",".join(sorted(paging)), build)
    return result


CHECKS = (unbounded_list, large_result)
