"""Rules about a server's prompts, resources and resource templates, as a snapshot holds them.

Agents (and the people picking from a client's menu) choose among prompts and resources by
name and description just as they choose tools.  These are read from the snapshot's raw lists,
so they run on server snapshots, live servers and server sets alike.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcplint import regex_cache as rx
from mcplint.checks._text import lowered
from mcplint.checks.base import Context, Hit, Target, check
from mcplint.loaders.jsonsource import join_pointer
from mcplint.model import Manifest
from mcplint.names import singular, split_name

_KINDS = {"prompts": "Prompt", "resources": "Resource", "resourceTemplates": "Resource template"}
_WORD = rx.compile(r"[A-Za-z][A-Za-z'-]*")

_VAGUE_OPTIONS = {
    "min-words": {"type": "integer", "minimum": 1, "default": 3,
                  "description": "Fewest words, besides the name's own and filler, that say "
                                 "something."},
    "filler": {"type": "array", "items": {"type": "string"}, "default": [],
               "description": "Words that say nothing on their own."},
}


def _base(manifest: Manifest) -> str | None:
    """Pointer of the object that holds the lists, when the manifest is a snapshot."""
    if manifest.kind != "server snapshot":
        return None
    return manifest.tools_pointer.rsplit("/", 1)[0]


def entries(manifest: Manifest, key: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(pointer, entry) of each object in one of the snapshot's lists."""
    base = _base(manifest)
    if base is None:
        return
    holder: Any = manifest.root
    for token in base.split("/")[1:]:
        holder = holder.get(token.replace("~1", "/").replace("~0", "~"), {}) if isinstance(
            holder, dict) else {}
    items = holder.get(key) if isinstance(holder, dict) else None
    if not isinstance(items, list):
        return
    pointer = join_pointer(base, key)
    for index, item in enumerate(items):
        if isinstance(item, dict):
            yield join_pointer(pointer, index), item


def _label(entry: Mapping[str, Any]) -> str:
    for key in ("name", "uriTemplate", "uri"):
        value = entry.get(key)
        if isinstance(value, str) and value:
            return value
    return "(unnamed)"


def _name_words(entry: Mapping[str, Any]) -> set[str]:
    words: set[str] = set()
    # Not the URI: "k8s://default/pods" and "List of pods in the default namespace" share
    # words because the description explains the URI, which is what it should do.
    for key in ("name", "title"):
        value = entry.get(key)
        if isinstance(value, str):
            words.update(singular(w) for w in split_name(value))
    return words


def _vagueness(entry: Mapping[str, Any], options: Mapping[str, Any]) -> str | None:
    """Why the entry's description does not help an agent choose, or None when it does."""
    text = entry.get("description")
    if not isinstance(text, str) or not text.strip():
        return "has no description"
    filler = lowered(options["filler"])
    own = _name_words(entry)
    telling = [w for w in _WORD.findall(text)
               if w.lower() not in filler and singular(w.lower()) not in own]
    if len(telling) < options["min-words"]:
        return (f'has a description ("{text.strip()[:60]}") that says little beyond its name '
                f"({len(telling)} of the {options['min-words']} words it takes to say "
                "something)")
    return None


def _vague(manifest: Manifest, keys: tuple[str, ...], options: Mapping[str, Any]
           ) -> Iterator[Hit]:
    for key in keys:
        for pointer, entry in entries(manifest, key):
            problem = _vagueness(entry, options)
            if problem:
                where = join_pointer(pointer, "description") if "description" in entry else pointer
                yield Hit(where, {"kind": _KINDS[key], "item": _label(entry),
                                  "problem": problem})


@check("vague-prompt", Target.SERVER, fields={"kind", "item", "problem"},
       options=_VAGUE_OPTIONS)
def vague_prompt(manifest: Manifest, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    yield from _vague(manifest, ("prompts",), options)


@check("vague-resource", Target.SERVER, fields={"kind", "item", "problem"},
       options=_VAGUE_OPTIONS)
def vague_resource(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                   ) -> Iterator[Hit]:
    yield from _vague(manifest, ("resources", "resourceTemplates"), options)


@check("undocumented-prompt-argument", Target.SERVER, fields={"prompt", "argument", "required"})
def undocumented_prompt_argument(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                                 ) -> Iterator[Hit]:
    for pointer, prompt in entries(manifest, "prompts"):
        arguments = prompt.get("arguments")
        if not isinstance(arguments, list):
            continue
        for index, argument in enumerate(arguments):
            if not isinstance(argument, dict):
                continue
            text = argument.get("description")
            if isinstance(text, str) and text.strip():
                continue
            name = argument.get("name")
            yield Hit(join_pointer(join_pointer(pointer, "arguments"), index),
                      {"prompt": _label(prompt), "argument": name if isinstance(name, str)
                       else f"arguments[{index}]",
                       "required": "a required" if argument.get("required") is True
                       else "an optional"})


def _near(first: str, second: str, min_length: int) -> str | None:
    a, b = split_name(first), split_name(second)
    if a == b:
        return "differ only by case or separators"
    if tuple(singular(w) for w in a) == tuple(singular(w) for w in b):
        return "differ only by a plural ending"
    if min(len(first), len(second)) >= min_length:
        from rapidfuzz.distance import Levenshtein  # only servers with prompts get here

        if Levenshtein.distance(first.lower(), second.lower()) == 1:
            return "differ by one letter"
    return None


@check("near-duplicate-prompt-names", Target.SERVER, fields={"kind", "first", "second", "reason"},
       options={"one-letter-min-length": {
           "type": "integer", "minimum": 1, "default": 6,
           "description": "Shorter names are not compared letter by letter."}})
def near_duplicate_prompt_names(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                                ) -> Iterator[Hit]:
    min_length = options["one-letter-min-length"]
    for key in ("prompts", "resources", "resourceTemplates"):
        seen: list[str] = []
        index: dict[tuple[str, Any], list[int]] = {}
        for pointer, entry in entries(manifest, key):
            name = entry.get("name")
            if not isinstance(name, str) or not name:
                continue
            keys = _near_keys(name, min_length)
            candidates = sorted({i for k in keys for i in index.get(k, ())})
            for i in candidates:
                earlier = seen[i]
                reason = _near(earlier, name, min_length)
                if reason and earlier != name:
                    yield Hit(join_pointer(pointer, "name"), {
                        "kind": _KINDS[key].lower() + "s", "first": earlier, "second": name,
                        "reason": reason})
                    break
            for k in keys:
                index.setdefault(k, []).append(len(seen))
            seen.append(name)


def _near_keys(name: str, min_length: int) -> set[tuple[str, Any]]:
    """Keys two names share whenever ``_near`` can pair them, so each name is compared only
    with the earlier names it shares a key with, not with all of them (a server may list
    thousands of resources).  Names one edit apart share the name with one letter deleted
    (or one is the other with one deleted)."""
    words = split_name(name)
    keys: set[tuple[str, Any]] = {("words", words), ("singular", tuple(singular(w) for w in words))}
    if len(name) >= min_length:
        lower = name.lower()
        keys.add(("letters", lower))
        keys.update(("letters", lower[:i] + lower[i + 1:]) for i in range(len(lower)))
    return keys


CHECKS = (vague_prompt, vague_resource, undocumented_prompt_argument,
          near_duplicate_prompt_names)
