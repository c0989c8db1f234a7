"""Tool names an agent confuses: near-duplicates within a server, and mixed naming styles.

Near-duplicates (``near-duplicate-names``) are found without comparing every pair of names.
Each name is reduced to its *core*: lower-case words, plural endings dropped, synonyms mapped
to one word of their group, modifier words (``many``, ``batch``, ``v2``) left out.  Then

* names with the same core are confusable (case, separators, plural, synonym, modifier);
* names whose cores differ in one word are confusable when the two words are a small edit
  apart (``serach``/``search``) or one is the other with a piece added (``heapsnapshot``/
  ``snapshot``), unless the words are opposites (``connect``/``disconnect``, ``incr``/``decr``);
  a different word in the same place is otherwise a parallel family (``get_user``/``get_team``),
  which agents tell apart;
* a core that is another core plus up to ``max-extra-words`` words is confusable when the added
  words qualify the same thing: they come before its last word (``read_file``/
  ``read_text_file``) or after it as a phrase opening with a connector (``create_page``/
  ``create_page_from_template``).  Not when they name a different thing (a new last word:
  ``get_issue``/``get_issue_link``), add an action (``repo_branch``/``repo_create_branch``) or
  a preposition (``get_project``/``get_service_desk_for_project``), negate it
  (``geocode``/``reverse_geocode``), or come with a change of number (``get_issue``/
  ``get_board_issues``: one item against a scoped list).

Two weaker kinds are reported at info: the same object under ``get`` and ``list``
(``get_filter``/``list_filters``), and a name plus one aspect word at its end
(``get_alert``/``get_alert_details``).

Every test is a dictionary lookup of a derived core, so the work grows with the number of names
times their length, not with the number of pairs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from mcplint import regex_cache as rx
from mcplint.checks._text import named_siblings
from mcplint.checks.base import WORD_GROUPS, WORDS, Context, Hit, Target, check
from mcplint.findings import Severity
from mcplint.model import Manifest, Tool
from mcplint.names import (
    STYLE_LABELS,
    Style,
    fits_style,
    name_style,
    restyle,
    singular,
)

# Pairs sharing one core: each later tool is paired with at most this many earlier ones, so a
# server with hundreds of identical cores reports a bounded number of pairs.
_MAX_PARTNERS = 8

# Pair kinds an agent swaps less often than the rest, and the labels agree on less: reported at
# info so that a gate at warning does not fail on them.  Added words ("extra") joined them after
# two audits on servers outside the corpus: 4 of 13 such warnings were right on the second
# (list_pricing_rules / list_pricing_rules_for_plan, format_text / format_table_cell_text name
# other scopes), against every one of the plural and spelling pairs.
_WEAK_KINDS = frozenset({"appended", "collection", "extra"})


def _merge_groups(groups: Sequence[Sequence[str]]) -> dict[str, str]:
    """Word → the word standing for its group; groups that share a word are one group, so
    ``extend-synonyms = [["get", "list"]]`` joins the get and list groups."""
    parent: dict[str, str] = {}

    def root(word: str) -> str:
        while parent[word] != word:
            parent[word] = parent[parent[word]]
            word = parent[word]
        return word

    for group in groups:
        words = [w.lower() for w in group]
        for word in words:
            parent.setdefault(word, word)
        for word in words[1:]:
            a, b = root(words[0]), root(word)
            if a != b:
                parent[b] = a
    return {word: root(word) for word in parent}


def _collection_verbs(groups: Sequence[Sequence[str]], canonical: Callable[[str], str]
                      ) -> dict[str, frozenset[str]]:
    """``[["get", "list"]]``: the first verb of a group is for one item, the rest for many."""
    result: dict[str, set[str]] = {}
    for first, *rest in groups:
        result.setdefault(canonical(first), set()).update(canonical(w) for w in rest)
    return {verb: frozenset(others - {verb}) for verb, others in result.items()}


def _compile(pattern: str) -> re.Pattern[str] | None:
    try:
        return rx.compile(pattern) if pattern else None
    except re.error as exc:
        raise ValueError(f"modifier-pattern {pattern!r} is not a regular expression: {exc}"
                         ) from exc


class _Vocabulary(NamedTuple):
    synonyms: Mapping[str, str]  # word → the first word of its group
    modifiers: frozenset[str]
    antonyms: frozenset[frozenset[str]]
    collection: Mapping[str, frozenset[str]]  # a verb for one item -> its verbs for many
    aspects: frozenset[str]
    reversing: tuple[str, ...]  # prefixes that turn a word into its opposite: un-, dis-
    negations: frozenset[str]  # words that turn a name into its opposite: reverse, undo
    connectors: frozenset[str]  # prepositions that open a qualifying phrase
    conjunctions: frozenset[str]
    actions: frozenset[str]  # canonical forms
    modifier_pattern: re.Pattern[str] | None
    edit_min_length: int
    piece_min_length: int
    contained_min_length: int
    max_extra_words: int
    namespace_min_tools: int

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> _Vocabulary:
        synonyms = _merge_groups(options["synonyms"])
        pattern = options["modifier-pattern"]

        def canonical(word: str) -> str:
            word = word.lower()
            return synonyms.get(word) or synonyms.get(singular(word), singular(word))

        return cls(
            synonyms=synonyms,
            modifiers=frozenset(m.lower() for m in options["modifiers"]),
            antonyms=frozenset(frozenset(canonical(w) for w in group)
                               for group in options["antonyms"]),
            collection=_collection_verbs(options["collection-verbs"], canonical),
            aspects=frozenset(canonical(w) for w in options["aspect-words"]),
            reversing=tuple(p.lower() for p in options["reversing-prefixes"]),
            negations=frozenset(canonical(n) for n in options["negations"]),
            connectors=frozenset(c.lower() for c in options["connectors"]),
            conjunctions=frozenset(c.lower() for c in options["conjunctions"]),
            actions=frozenset(canonical(a) for a in options["actions"]),
            modifier_pattern=_compile(pattern),
            edit_min_length=options["edit-min-length"],
            piece_min_length=options["piece-min-length"],
            contained_min_length=options["contained-min-length"],
            max_extra_words=options["max-extra-words"],
            namespace_min_tools=options["namespace-min-tools"],
        )

    def canonical(self, token: str) -> str:
        if token in self.synonyms:
            return self.synonyms[token]
        single = singular(token)
        return self.synonyms.get(single, single)

    def is_modifier(self, token: str) -> bool:
        return (token in self.modifiers or singular(token) in self.modifiers
                or bool(self.modifier_pattern and self.modifier_pattern.fullmatch(token)))

    def opposite(self, x: str, y: str) -> bool:
        """Words that name opposite actions or places: get/set, start/stop, assign/unassign."""
        if any(x in group and y in group for group in self.antonyms):
            return True
        longer, shorter = (x, y) if len(x) > len(y) else (y, x)
        return any(longer == prefix + shorter for prefix in self.reversing)


class _Name(NamedTuple):
    tool: Tool
    tokens: tuple[str, ...]  # as written, lower-cased
    core: tuple[str, ...]  # canonical words without modifiers
    kept: tuple[str, ...]  # the written tokens that make up the core, in order


def _names(tools: Sequence[Tool], vocab: _Vocabulary) -> list[_Name]:
    result = []
    for tool in tools:
        tokens = tool.name_tokens
        if not tokens:
            continue
        kept = tuple(t for t in tokens if not vocab.is_modifier(t)) or tokens
        result.append(_Name(tool, tokens, tuple(vocab.canonical(t) for t in kept), kept))
    return result


# A reason is what sets two names apart, in words, and the kind of advice that fits it.
class _Pair(NamedTuple):
    first: _Name
    second: _Name
    # "same", "word" or "extra"; the weak kinds, reported at info: "appended" (one word
    # after the object) and "collection" (get / list of one object)
    kind: str
    detail: tuple[str, ...] = ()  # the added words, for "extra" and "appended"


def _quote(words: Sequence[str]) -> str:
    return " / ".join(f'"{w}"' for w in words)


def _join(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _modifier_difference(a: _Name, b: _Name, vocab: _Vocabulary) -> list[str]:
    """The modifier words one name has and the other lacks (``batch``; ``many`` / ``multi``)."""
    modifiers_a = Counter(t for t in a.tokens if t not in a.kept and vocab.is_modifier(t))
    modifiers_b = Counter(t for t in b.tokens if t not in b.kept and vocab.is_modifier(t))
    return sorted((modifiers_a - modifiers_b) + (modifiers_b - modifiers_a))


def _normalisation_differences(a: _Name, b: _Name, vocab: _Vocabulary) -> list[str]:
    """How two names with one core differ: plural endings, synonyms, modifiers, spelling."""
    parts: list[str] = []
    if len(a.kept) == len(b.kept):
        aligned = list(zip(a.kept, b.kept, strict=True))
        plural = [(x, y) for x, y in aligned if x != y and singular(x) == singular(y)]
        synonym = [(x, y) for x, y in aligned if x != y and singular(x) != singular(y)]
        if plural:
            parts.append("a plural ending (" + ", ".join(_quote(p) for p in plural) + ")")
        if synonym:
            word = "synonyms" if len(synonym) > 1 else "a synonym"
            parts.append(f"{word} (" + ", ".join(_quote(p) for p in synonym) + ")")
    extra = _modifier_difference(a, b, vocab)
    if extra:
        word = "modifiers" if len(extra) > 1 else "the modifier"
        parts.append(f"{word} {_quote(extra)}")
    if a.tokens == b.tokens or (parts and a.tool.name_style != b.tool.name_style):
        parts.append("case or separators")
    return parts or ["word order"]


def _reason(pair: _Pair, vocab: _Vocabulary) -> str:
    a, b = pair.first, pair.second
    if pair.kind == "same":
        return "differ only by " + _join(_normalisation_differences(a, b, vocab))
    if pair.kind == "word":
        x, y = _differing_words(a, b)
        if x in y or y in x:
            return (f'differ only in one word, "{x}" against "{y}", and one word contains the '
                    "other")
        return f'differ only in one word, "{x}" against "{y}", which are a letter apart'
    if pair.kind == "collection":
        x, y = _differing_words(a, b)
        return (f'differ only by the verbs "{x}" and "{y}" on one object, so an agent asking '
                "for that object may call either")
    added = " ".join(pair.detail)
    longer, shorter = (b, a) if len(b.core) > len(a.core) else (a, b)
    if pair.kind == "appended":
        return (f'differ only by the word "{added}" at the end, so "{longer.tool.name}" may read '
                f'as a variant of "{shorter.tool.name}"')
    words = "words" if len(pair.detail) > 1 else "word"
    return (f'differ only by the {words} "{added}", so "{longer.tool.name}" reads as a variant '
            f'of "{shorter.tool.name}"')


def _differing_words(a: _Name, b: _Name) -> tuple[str, str]:
    """The words, as written, in the one place where two cores of one length differ."""
    for x, y, core_x, core_y in zip(a.kept, b.kept, a.core, b.core, strict=True):
        if core_x != core_y:
            return x, y
    return "", ""


def _advice(pair: _Pair, vocab: _Vocabulary) -> str:
    a, b = pair.first, pair.second
    if pair.kind == "same":
        if a.tokens == b.tokens:
            return ("To an agent they are the same name: keep one, or rename one so its words "
                    "say what it does differently.")
        if _modifier_difference(a, b, vocab):
            return ("Merge them into one tool with a parameter for the variant (a list of "
                    "items, a mode), or rename one so its name says what it does differently.")
        if len(a.kept) == len(b.kept) and any(
                x != y and singular(x) == singular(y)
                for x, y in zip(a.kept, b.kept, strict=True)):
            return ("If one handles one item and the other several, merge them into one tool "
                    "that takes a list; otherwise rename one so a word, not a plural ending, "
                    "says how they differ.")
        return ("Use one word for one action across the server, and name the other tool after "
                "what it does differently (what it returns, or where it looks).")
    if pair.kind == "word":
        x, y = _differing_words(a, b)
        if x in y or y in x:
            return ("A word hidden inside another is easy to miss: rename one so the names "
                    "differ in a word of their own that says what each does.")
        return ("A one-letter difference reads as a typo: fix the spelling if it is one, or "
                "rename one so the names differ in a whole word that says what each does.")
    if pair.kind == "collection":
        return ("If one fetches a single item by its id and the other lists many, say so in "
                "the first sentence of each.")
    longer, shorter = ((pair.second, pair.first) if len(pair.second.core) > len(pair.first.core)
                       else (pair.first, pair.second))
    if pair.kind == "appended":
        return (f'If "{" ".join(pair.detail)}" names another thing rather than a part or view of '
                f'the same one, say what each tool acts on in its first sentence.')
    return (f'Rename "{shorter.tool.name}" to say what sets it apart from '
            f'"{longer.tool.name}" as well, or merge them into one tool with a parameter.')


def _word_relations(words: set[str], vocab: _Vocabulary) -> dict[str, set[str]]:
    """Pairs of distinct words that are a letter apart or one inside the other, not opposites.

    Edits use a deletion neighbourhood (each word and its one-letter deletions): two words a
    single insertion, deletion, substitution or transposition apart share a key.
    """
    related: dict[str, set[str]] = {}

    def relate(x: str, y: str) -> None:
        if x != y and not vocab.opposite(x, y):
            related.setdefault(x, set()).add(y)
            related.setdefault(y, set()).add(x)

    keys: dict[str, list[str]] = {}
    for word in words:
        if len(word) >= vocab.edit_min_length and not word.isdigit():
            for key in {word, *(word[:i] + word[i + 1:] for i in range(len(word)))}:
                keys.setdefault(key, []).append(word)
    for members in keys.values():
        if len(members) > 1:
            for i, x in enumerate(members):
                for y in members[i + 1:]:
                    if _one_edit(x, y) and not _digits_differ(x, y):
                        relate(x, y)
    # A word that is another word of at least contained_min_length letters with a piece of at
    # least piece_min_length letters in front or behind (heapsnapshot / snapshot, metadata /
    # data, subtask / task; not extract / act).
    piece, part = vocab.piece_min_length, vocab.contained_min_length
    for word in words:
        for cut in range(piece, len(word) - part + 1):
            if word[cut:] in words and not word[:cut].isdigit():
                relate(word, word[cut:])
        for cut in range(part, len(word) - piece + 1):
            if word[:cut] in words and not word[cut:].isdigit():
                relate(word, word[:cut])
    return related


def _one_edit(x: str, y: str) -> bool:
    """Whether two words are at most one insertion, deletion, substitution or swap of two
    neighbouring letters apart (optimal string alignment distance <= 1).  Written out because
    the only other use of a fuzzy-matching library on a lint run would cost 20 ms to import."""
    if x == y:
        return True
    if len(x) > len(y):
        x, y = y, x
    if len(y) - len(x) > 1:
        return False
    start = 0
    while start < len(x) and x[start] == y[start]:
        start += 1
    if len(x) < len(y):
        return x[start:] == y[start + 1:]
    return (x[start + 1:] == y[start + 1:]
            or (start + 1 < len(x) and x[start] == y[start + 1] and x[start + 1] == y[start]
                and x[start + 2:] == y[start + 2:]))


def _digits_differ(x: str, y: str) -> bool:
    """v1 / v2, base32 / base64: a different number is a different thing, not a typo."""
    return _NOT_DIGIT.sub("", x) != _NOT_DIGIT.sub("", y)


_NOT_DIGIT = rx.compile(r"\D")


def _namespaces(by_core: Mapping[tuple[str, ...], list[int]], vocab: _Vocabulary
                ) -> frozenset[str]:
    """Leading words many tools share (``jira``, ``playwright``): a prefix, not an object."""
    leading = Counter[str]()
    for core, members in by_core.items():
        if len(core) > 1:
            leading[core[0]] += len(members)
    return frozenset(word for word, count in leading.items()
                     if count >= vocab.namespace_min_tools and word not in vocab.actions)


def _head(core: tuple[str, ...], namespaces: frozenset[str], vocab: _Vocabulary) -> int | None:
    """Where the thing a name is about ends: its last word, or, in names that put the action
    last (``pull_request_write``, ``codebase_search``), the word before the action."""
    first = 1 if len(core) > 1 and core[0] in namespaces else 0
    if first < len(core) and core[first] in vocab.actions:
        # Action first: execute_promql_query is about a query, get_release_by_id about a
        # release (a connector opens a phrase about something else).
        for index in range(first + 2, len(core)):
            if core[index] in vocab.connectors:
                return index - 1
        return len(core) - 1
    for index in range(len(core) - 1, first - 1, -1):
        if core[index] not in vocab.actions:
            return index
    return None


def _qualifies(shorter: _Name, longer: _Name, start: int, end: int,
               namespaces: frozenset[str], vocab: _Vocabulary) -> str | None:
    """What kind of variant of ``shorter`` the words ``longer`` adds at ``start:end`` make it:
    ``extra``, ``appended`` (the weak kind) or none.

    They do when they qualify the thing ``shorter`` is about: placed before its last word
    (``read_text_file``) with no action or preposition among them, or placed after it as a phrase
    that opens with a connector (``create_page_from_template``).  Words placed after it without a
    connector name another thing (``get_issue_link``); an added action is another action
    (``repo_create_branch``), unless joined by a conjunction (``get_or_create_label``); an added
    preposition makes the rest its object (``get_service_desk_for_project``).  Names that also
    differ in number are a single item against a list (``get_issue``/``get_board_issues``).

    One aspect word added at the end of a name that ends in its object is the weak kind
    (``get_alert``/``get_alert_details``, ``get_users``/``get_user_profile``): the number may
    differ too, since an agent asking about one user's profile may reach for ``get_users``.
    """
    added = longer.core[start:end]
    if any(word in vocab.negations for word in added):
        return None  # geocode / reverse_geocode
    rest = longer.kept[:start] + longer.kept[end:]
    numbers = [i for i, (x, y) in enumerate(zip(shorter.kept, rest, strict=True))
               if singular(x) == singular(y) and x != y]
    head = _head(shorter.core, namespaces, vocab)
    last = len(shorter.core) - 1
    if (end - start == 1 and start == len(shorter.core) and head == last and last > 0
            and shorter.core[last] not in vocab.actions and added[0] in vocab.aspects
            and numbers in ([], [last])):
        return "appended"
    if numbers:
        return None
    if start == len(shorter.core) or (head is not None and start > head):
        connected = added[0] in vocab.connectors or added[0] in vocab.conjunctions
        # add_user_to_group beside create_user: another verb with a second object is another
        # operation (a membership), not a variant of the first, though the verbs are synonyms.
        if connected and any(x != y for x, y in zip(shorter.kept, rest, strict=True)):
            return None
        return "extra" if connected else None
    if added[-1] in vocab.conjunctions:
        return "extra"
    if any(word in vocab.actions or word in vocab.connectors for word in added):
        return None
    return "extra"


def _candidates(names: Sequence[_Name], vocab: _Vocabulary) -> dict[tuple[int, int], _Pair]:
    by_core: dict[tuple[str, ...], list[int]] = {}
    for i, entry in enumerate(names):
        by_core.setdefault(entry.core, []).append(i)
    found: dict[tuple[int, int], _Pair] = {}

    def add(i: int, j: int, kind: str, detail: tuple[str, ...] = ()) -> None:
        if names[i].tool.name == names[j].tool.name:
            return  # an exact duplicate is a spec error, reported by its own rule
        key = (min(i, j), max(i, j))
        if key not in found:
            found[key] = _Pair(names[key[0]], names[key[1]], kind, detail)

    # 1. The same core.
    for members in by_core.values():
        for x, j in enumerate(members[1:], start=1):
            for i in members[max(0, x - _MAX_PARTNERS):x]:
                add(i, j, "same")
    # 2. Cores one related word apart, in the same place.
    words = {word for core in by_core for word in core}
    related = _word_relations(words, vocab)
    if related:
        for core, members in by_core.items():
            for slot, word in enumerate(core):
                for other in related.get(word, ()):
                    partners = by_core.get((*core[:slot], other, *core[slot + 1:]))
                    for j in members:
                        for i in (partners or ())[:_MAX_PARTNERS]:
                            add(i, j, "word")
    # 3. A core that is another plus a run of qualifying words.
    namespaces = _namespaces(by_core, vocab)
    for core, members in by_core.items():
        size = len(core)
        for length in range(1, min(vocab.max_extra_words, size - 1) + 1):
            for start in range(size - length + 1):
                end = start + length
                partners = by_core.get(core[:start] + core[end:])
                if not partners:
                    continue
                for j in members:
                    for i in partners[:_MAX_PARTNERS]:
                        kind = _qualifies(names[i], names[j], start, end, namespaces, vocab)
                        if kind:
                            add(i, j, kind, names[j].kept[start:end])
    # 4. The same object under a verb for one item and a verb for a collection (get / list).
    for core, members in by_core.items():
        if len(core) < 2:
            continue
        for slot, word in enumerate(core):
            for other in vocab.collection.get(word, ()):
                partners = by_core.get((*core[:slot], other, *core[slot + 1:]))
                for j in members:
                    for i in (partners or ())[:_MAX_PARTNERS]:
                        add(i, j, "collection")
    return found


@check(
    "near-duplicate-names",
    Target.PAIR,
    fields={"first", "second", "reason", "advice", "describe", "suggest"},
    options={
        "synonyms": {**WORD_GROUPS, "default": [],
                     "description": "Groups of words an agent treats as interchangeable in a "
                                    "tool name; the first word of a group stands for all."},
        "modifiers": {**WORDS, "default": [],
                      "description": "Words that qualify a name without changing what it is "
                                     "about (many, batch); names differing only by these are "
                                     "confusable."},
        "modifier-pattern": {"type": "string", "format": "regex", "default": "",
                             "description": "A regular expression for more modifier words, "
                                            "matched against whole words (version tags such "
                                            "as v2)."},
        "collection-verbs": {**WORD_GROUPS, "default": [],
                             "description": "Groups of a verb for one item and verbs for many "
                                            "(get, list): names that differ only there, on "
                                            "one object, are reported at info."},
        "aspect-words": {**WORDS, "default": [],
                         "description": "Words for an aspect of a thing rather than another "
                                        "thing (details, status, url): a name plus one of "
                                        "them at the end is reported at info "
                                        "(get_alert / get_alert_details)."},
        "antonyms": {**WORD_GROUPS, "default": [],
                     "description": "Groups of mutually opposite words (get/set, incr/decr, "
                                    "connect/disconnect): two words of one group are never "
                                    "taken for a typo of each other or a word inside the "
                                    "other."},
        "reversing-prefixes": {**WORDS, "default": [],
                               "description": "Prefixes that turn a word into its opposite "
                                              "(un-, dis-): assign/unassign are not a "
                                              "near-duplicate."},
        "negations": {**WORDS, "default": [],
                      "description": "Words that, added to a name, name the opposite action "
                                     "(reverse, undo): geocode / reverse_geocode are not "
                                     "variants."},
        "connectors": {**WORDS, "default": [],
                       "description": "Prepositions that open a qualifying phrase (by, from, "
                                      "with): a name that is another plus such a phrase is "
                                      "its variant."},
        "conjunctions": {**WORDS, "default": [],
                         "description": "Words that join a second action or phrase to a name "
                                        "(and, or): click / click_and_switch_tab, create_label "
                                        "/ get_or_create_label are variants."},
        "actions": {**WORDS, "default": [],
                    "description": "Verbs that name what a tool does; words added to a name "
                                   "that include one name another action, not a variant "
                                   "(repo_branch / repo_create_branch)."},
        "namespace-min-tools": {"type": "integer", "minimum": 2, "default": 3,
                                "description": "How many tools must start with a word for it "
                                               "to count as a namespace prefix (jira_, "
                                               "playwright_) rather than part of the name."},
        "edit-min-length": {"type": "integer", "minimum": 1, "default": 5,
                            "description": "The shortest word that counts as a typo of another "
                                           "word one letter away (shorter words are often "
                                           "different words: tag / tab)."},
        "piece-min-length": {"type": "integer", "minimum": 1, "default": 3,
                             "description": "The fewest letters of the piece that makes "
                                            "one word another (heap in heapsnapshot)."},
        "contained-min-length": {"type": "integer", "minimum": 1, "default": 4,
                                 "description": "The shortest word that counts as contained "
                                                "in another (task in subtask; not act in "
                                                "extract)."},
        "max-extra-words": {"type": "integer", "minimum": 0, "default": 3,
                            "description": "The most words one name may add to another and "
                                           "still count as its variant."},
    },
)
def near_duplicate_names(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                         ) -> Iterator[Hit]:
    vocab = _Vocabulary.from_options(options)
    names = _names(manifest.tools, vocab)
    for _, pair in sorted(_candidates(names, vocab).items()):
        a, b = pair.first, pair.second
        first, second = a.tool.name, b.tool.name
        if _told_apart(a.tool, b.tool, ctx):
            # The descriptions already name each other: asking for that again is noise, and
            # what is left to fix is the names themselves.
            describe = ""
            suggest = (f'Rename "{first}" or "{second}" so the names differ in a word that '
                       "says what each does.")
        else:
            describe = (f' And say in each description which one to use when: "Use {first} '
                        f'when …; use {second} when …".')
            suggest = (f'Add to the description of "{first}": "Use {first} when …; use '
                       f'{second} when ….\" and to that of "{second}": "Use {second} when …; '
                       f'use {first} when ….\"')
        yield Hit(
            b.tool.child("name"),
            {"first": first, "second": second, "reason": _reason(pair, vocab),
             "advice": _advice(pair, vocab), "describe": describe, "suggest": suggest},
            b.tool,
            related=((a.tool, a.tool.child("name")),),
            severity=Severity.INFO if _weak(pair, vocab) else None,
        )


def _weak(pair: _Pair, vocab: _Vocabulary) -> bool:
    """Whether the pair is of a kind reported at info: a weak kind, or names that differ by a
    modifier (reply / reply_all, start_run / start_run_batch: 0 of 3 right in that audit)."""
    return pair.kind in _WEAK_KINDS or (
        pair.kind == "same" and bool(_modifier_difference(pair.first, pair.second, vocab)))


def _told_apart(a: Tool, b: Tool, ctx: Context) -> bool:
    return (b.name in named_siblings(a.description or "", a, ctx)
            or a.name in named_siblings(b.description or "", b, ctx))


def _split_namespace(name: str) -> tuple[str, str]:
    """A dotted prefix is a namespace (``github.search_repos``): the style is the last part's."""
    if "." in name:
        prefix, _, last = name.rpartition(".")
        if last:
            return prefix + ".", last
    return "", name


@check(
    "naming-style",
    Target.SERVER,
    fields={"name", "style", "majority", "count", "total", "suggestion", "rename"},
    options={
        "style": {"enum": ["auto", "snake", "camel", "pascal", "kebab", "snake-camel"],
                  "default": "auto",
                  "description": "The expected style; auto takes the style most tool names "
                                 "already use."},
        "min-tools": {"type": "integer", "minimum": 2, "default": 3,
                      "description": "Fewest styled names (words joined by a separator or a "
                                     "capital) before a majority counts."},
    },
)
def naming_style(manifest: Manifest, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    styled: list[tuple[Tool, str, str, Style]] = []
    for tool in manifest.tools:
        if not tool.name:
            continue
        namespace, last = _split_namespace(tool.name)
        style = name_style(last)
        if style not in ("single", "other"):
            styled.append((tool, namespace, last, style))
    if len(styled) < options["min-tools"]:
        return
    counts = Counter(style for *_, style in styled if style != "mixed")
    expected: Style = options["style"]
    majority = STYLE_LABELS.get(expected, expected) + " (the style the configuration sets)"
    if options["style"] == "auto":
        if not counts:
            return
        top = max(counts.values())
        tied = [style for style, count in counts.items() if count == top]
        # A tie has a winner only when one style fits the others' names too (snake_case
        # names are already snake_case with camelCase parts); otherwise nothing to hold to.
        winners = [s for s in tied if all(fits_style(other, s) for other in tied)]
        if len(winners) != 1:
            return
        expected = winners[0]
        majority = STYLE_LABELS[expected]
    fitting = sum(1 for *_, style in styled if fits_style(style, expected))
    for tool, namespace, last, style in styled:
        if fits_style(style, expected):
            continue
        suggestion = namespace + restyle(last, expected)
        fields = {"name": tool.name, "style": STYLE_LABELS[style], "majority": majority,
                  "count": fitting, "total": len(styled), "suggestion": suggestion}
        # A rename onto another tool's name would trade this finding for a duplicate.
        if suggestion not in manifest.tools_by_name:
            fields["rename"] = suggestion
        yield Hit(tool.child("name"), fields, tool)


CHECKS = (near_duplicate_names, naming_style)
