"""Reading tool descriptions as prose: words, stems, sentences, patterns and named siblings.

The description checks judge text, not length, so they share one idea of what a word is and of
when a description word is "the same" as a name word (``statistics`` for ``stats``,
``retrieves`` for ``get`` through a synonym group).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, overload

from mcplint import regex_cache as rx
from mcplint.checks._prefilter import LiteralIndex, remembered, required_by, save_memo
from mcplint.model import Manifest, Tool
from mcplint.names import singular, split_name

if TYPE_CHECKING:
    from mcplint.checks.base import Context

_WORD = rx.compile(r"[A-Za-z][A-Za-z0-9]*(?:'[a-z]+)?")
# A sentence ends at . ! ? followed by white space, or at a line break; "e.g." and "i.e." are
# not ends, nor are dots inside names (``database.table``).
_SENTENCE_END = rx.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s+|\n\s*")
_CODE = rx.compile(r"```.*?```", re.S)
# An identifier as a tool name would be written in prose: letters, digits, _ . - inside.
_IDENTIFIER = rx.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*[A-Za-z0-9]")
_LEADING_WORD = rx.compile(r"[A-Za-z0-9]+[_.\-]")


def words(text: str) -> list[str]:
    """The words of a text, lower-cased, possessive endings dropped."""
    return list(_words(text))


# Each description is read by a dozen rules; its words and sentences are found once.
@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    return tuple(w.lower().split("'")[0] for w in _WORD.findall(text))


# Descriptions repeat the same few thousand words; stems are asked for half a million times
# on the corpus, so caching them is most of the description rules' speed.
@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stem, enough to equate ``creates``/``create``/``creating``."""
    word = singular(word.lower())
    for suffix in ("ing", "ed", "es", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def sentences(text: str) -> list[str]:
    """The sentences of a text, code blocks removed; list items and lines count as sentences."""
    return list(_sentences(text))


@lru_cache(maxsize=8192)
def _sentences(text: str) -> tuple[str, ...]:
    text = _CODE.sub(" ", text)
    return tuple(s.strip() for s in _SENTENCE_END.split(text) if s and s.strip())


class Patterns(Sequence[re.Pattern[str]]):
    """An option's patterns, compiled when first used, plus ``prefilter``: which of them could
    match a text.

    Most texts match none of a rule's patterns; the prefilter (see ``_prefilter``) finds the
    words each pattern requires in one pass, so only the patterns that could match are searched,
    and a small lint compiles only those.  A broken pattern in a config is a config error before
    any lint (the options schema checks ``format: regex``), and every built-in one is compiled
    by the tests, so compiling late cannot fail in a run.
    """

    __slots__ = ("_compiled", "_sources", "prefilter")

    def __init__(self, sources: Sequence[str], compiled: Sequence[re.Pattern[str] | None],
                 prefilter: LiteralIndex | None = None) -> None:
        self._sources = tuple(sources)
        self._compiled = list(compiled)
        self.prefilter = prefilter

    def __len__(self) -> int:
        return len(self._sources)

    @overload
    def __getitem__(self, index: int) -> re.Pattern[str]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[re.Pattern[str]]: ...
    def __getitem__(self, index: int | slice) -> re.Pattern[str] | Sequence[re.Pattern[str]]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        found = self._compiled[index]
        if found is None:
            found = self._compiled[index] = rx.compile(self._sources[index], re.IGNORECASE)
        return found

    def __iter__(self) -> Iterator[re.Pattern[str]]:
        for i in range(len(self._sources)):
            yield self[i]


def compile_patterns(option: str, patterns: Iterable[str]) -> Patterns:
    """Case-insensitive regular expressions from an option; a bad one names the option."""
    return _compile(option, tuple(patterns))


# Checks run per tool with the same options; preparing once per option value saves the work.
@lru_cache(maxsize=128)
def _compile(option: str, patterns: tuple[str, ...]) -> Patterns:
    requirements = []
    compiled: list[re.Pattern[str] | None] = []
    for pattern in patterns:
        # A pattern whose required words are remembered compiled on an earlier run (only a
        # pattern that compiles is remembered); a new one is compiled now, so a bad one is
        # reported here, with its option, whoever calls.
        found, known = remembered(pattern, re.IGNORECASE)
        now = None
        if not known:
            try:
                now = rx.compile(pattern, re.IGNORECASE)
            except re.error as exc:
                raise ValueError(f"{option}: {pattern!r} is not a regular expression: {exc}"
                                 ) from exc
            found = required_by(pattern, re.IGNORECASE)
        requirements.append(found)
        compiled.append(now)
    result = Patterns(patterns, compiled, LiteralIndex(requirements))
    save_memo()
    return result


def first_match(patterns: Sequence[re.Pattern[str]], text: str) -> re.Match[str] | None:
    """The match of the first pattern, in order, that matches anywhere in ``text``."""
    index: LiteralIndex | None = getattr(patterns, "prefilter", None)
    if index is not None:
        # Only the patterns whose required words occur are searched, each on its own: after
        # the index, one or two are left, where the joined alternation costs as much as all.
        for i in index.candidates(text):
            found = patterns[i].search(text)
            if found:
                return found
        return None
    for pattern in patterns:
        found = pattern.search(text)
        if found:
            return found
    return None


# The engine passes a rule the same options object for every tool, so a word list is recognised
# by identity and turned into a set once, not once per tool.  The list is kept alive with its
# result, so its id cannot be reused while the entry stands.
_DERIVED: dict[tuple[str, int], tuple[object, Any]] = {}


def _derived(kind: str, source: Any, build: Callable[[Any], Any]) -> Any:
    key = (kind, id(source))
    known = _DERIVED.get(key)
    if known is not None and known[0] is source:
        return known[1]
    result = build(source)
    if len(_DERIVED) > 1024:
        _DERIVED.clear()
    _DERIVED[key] = (source, result)
    return result


def lowered(words: Iterable[str]) -> frozenset[str]:
    """An option's words, lower-cased, as a set (built once per option list)."""
    return _derived("lower", words, lambda ws: frozenset(w.lower() for w in ws))  # type: ignore[no-any-return]


def stems(words: Iterable[str]) -> frozenset[str]:
    """An option's words as stems, as a set (built once per option list)."""
    return _derived("stem", words, lambda ws: frozenset(stem(w) for w in ws))  # type: ignore[no-any-return]


def synonym_map(groups: Iterable[Iterable[str]]) -> dict[str, str]:
    """Stem → the stem of the first word of its group (built once per option list; do not
    change the mapping returned)."""
    return _derived("synonyms", groups, _synonym_map)  # type: ignore[no-any-return]


def _synonym_map(groups: Iterable[Iterable[str]]) -> dict[str, str]:
    mapping: dict[str, str] = {}
    for group in groups:
        stems = [stem(w) for w in group]
        for s in stems:
            mapping.setdefault(s, stems[0])
    return mapping


def implication_map(groups: Iterable[Sequence[str]]) -> dict[str, frozenset[str]]:
    """Stem of each group's first word → stems of the rest (built once per option list)."""
    return _derived("implied", groups, _implication_map)  # type: ignore[no-any-return]


def _implication_map(groups: Iterable[Sequence[str]]) -> dict[str, frozenset[str]]:
    implied: dict[str, set[str]] = {}
    for head, *rest in groups:
        implied.setdefault(stem(head), set()).update(stem(w) for w in rest)
    return {head: frozenset(found) for head, found in implied.items()}


def parameter_texts(tool: Tool) -> Iterator[str]:
    for parameter in tool.parameters:
        if parameter.description:
            yield parameter.description


def _aliases(manifest: Manifest) -> Mapping[str, str]:
    """Every tool name, and each name without its leading word where that leaves a name of two
    or more words (``delete_many`` for ``cache_delete_many``), as descriptions often write
    siblings without the server's prefix; an alias two tools share names neither."""
    aliases: dict[str, str] = {}
    shared: set[str] = set()
    for name in manifest.tools_by_name:
        match = _LEADING_WORD.match(name)
        if match and len(split_name(name[match.end():])) >= 2:
            alias = name[match.end():]
            if alias in aliases and aliases[alias] != name:
                shared.add(alias)
            aliases.setdefault(alias, name)
    for alias in shared:
        del aliases[alias]
    for name in manifest.tools_by_name:
        aliases[name] = name
    return aliases


def named_siblings(text: str, tool: Tool, ctx: Context) -> list[str]:
    """Other tools of the server the text names, by full name or without their prefix.

    A one-word name (``get``, ``click``) is also an ordinary word, so it counts only when the
    text sets it apart as a name: in backticks or quotes, or followed by ``(`` or "tool".
    Each identifier in the text is looked up by name, so the cost grows with the text, not
    with the number of tools.
    """
    found: list[str] = []
    aliases: Mapping[str, str] = ctx.memo("text.aliases", _aliases)
    for match in _IDENTIFIER.finditer(text):
        name = aliases.get(match.group())
        if name is None or name == tool.name or name in found:
            continue
        if len(split_name(match.group())) < 2:
            before = text[match.start() - 1: match.start()]
            after = text[match.end(): match.end() + 6]
            quoted = bool(before) and before in "`'\""
            if not (quoted or after.startswith(("(", "`", "'", '"'))
                    or after.lower().lstrip().startswith("tool")):
                continue
        found.append(name)
    return found
