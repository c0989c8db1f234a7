"""Description quality: what an agent can learn from a tool's description before calling it.

Each check reads the description as prose with vocabularies taken from its options:

* ``vague-description``: what is left of the purpose once the name's own words (and their
  synonyms and abbreviations), filler and product names are gone;
* ``return-stated``: an outputSchema with named properties, a "returns …" clause that names
  something, or a stated format;
* ``usage-guidance``: when to use the tool, when not to, or a sibling named;
* ``limits-stated``: limits, caveats, side effects or failure behaviour, in the description or
  a parameter's description;
* ``description-tokens``: a description over its token budget;
* ``overlapping-tools``: pairs of tools that would serve the same request, with nothing in
  either description telling them apart.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from mcplint import regex_cache as rx
from mcplint.checks._boilerplate import Boilerplate
from mcplint.checks._boilerplate import find as find_boilerplate
from mcplint.checks._text import (
    compile_patterns,
    first_match,
    implication_map,
    named_siblings,
    parameter_texts,
    sentences,
    stem,
    stems,
    synonym_map,
    words,
)
from mcplint.checks.base import PATTERNS, WORD_GROUPS, WORDS, Context, Hit, Target, check
from mcplint.model import Manifest, Tool
from mcplint.names import singular, split_name

# Capitalised words not opening a sentence: candidates for product names (Jira, Gmail, Stripe).
_CAPITALISED = rx.compile(r"(?<![.!?:]\s)(?<!^)\b([A-Z][A-Za-z0-9]*[A-Za-z0-9])\b")
_LOWER = rx.compile(r"\b[a-z][a-z0-9]*\b")


def _description_of(tool: Tool) -> str:
    return (tool.description or "").strip()


def _own(tool: Tool, ctx: Context) -> str:
    """The description without the server's boilerplate (see ``_boilerplate``): what this
    tool says that its siblings do not.  What a tool does, when to prefer it and how it
    differs from a sibling can only be said there; a limit or a return format stated for
    every tool is still stated for this one, so those rules read the whole description."""
    found: Boilerplate = ctx.memo("boilerplate", find_boilerplate)
    return found.own_text(tool).strip()


# --- product names -----------------------------------------------------------------------------

def _product_words(manifest: Manifest) -> frozenset[str]:
    """Stems of proper names: words several of the server's descriptions capitalise
    mid-sentence and none writes in lower case (``Gmail``, ``Supabase``, ``OpenSearch``; not
    ``Service``, which another description writes as ``service``), and the words of the
    server's name.  A fact of the whole server: checks get it once through ``Context.memo``."""
    capitalised: Counter[str] = Counter()
    lower: set[str] = set()
    for tool in manifest.tools:
        text = _description_of(tool)
        capitalised.update({m.group(1).lower() for m in _CAPITALISED.finditer(text)})
        lower.update(w for w in _LOWER.findall(text))
    needed = min(2, len(manifest.tools))
    product = {stem(word) for word, count in capitalised.items()
               if count >= needed and word not in lower}
    product.update(stem(w) for w in words(manifest.server_name or ""))
    return frozenset(product)


# --- vague ---------------------------------------------------------------------------------------

class _Residue(NamedTuple):
    words: tuple[str, ...]  # content words as written, first occurrence of each stem


def _name_stems(tool: Tool, synonyms: Mapping[str, str]) -> set[str]:
    stems = {stem(t) for t in tool.name_tokens}
    title = tool.title or ""
    stems.update(stem(w) for w in words(title))
    return stems | {synonyms[s] for s in stems if s in synonyms}


def _implied_stems(name: set[str], groups: Sequence[Sequence[str]]) -> frozenset[str]:
    """Words the name's own words imply: "Hover over an element on the page" says no more
    than ``hover`` does, since there is nothing else to hover over."""
    implied = implication_map(groups)
    found: set[str] = set()
    for s in name:
        found.update(implied.get(s, ()))
    return frozenset(found)


def _purpose_text(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> str:
    """The description up to where it turns to arguments, returns or examples."""
    text = _own(tool, ctx)
    ends = [m.start() for m in (p.search(text) for p in
                                compile_patterns("purpose-ends", options["purpose-ends"]))
            if m and m.start() > 0]
    return text[:min(ends)] if ends else text


def _common_words(manifest: Manifest, share: float, min_tools: int) -> frozenset[str]:
    """Stems used by at least ``share`` of the server's descriptions: words that tell none of
    its tools apart (``page`` and ``element`` on a browser server)."""
    described = [t for t in manifest.tools if _description_of(t)]
    common: frozenset[str] = frozenset()
    if len(described) >= min_tools:
        counts: Counter[str] = Counter()
        for tool in described:
            counts.update({stem(w) for w in words(_description_of(tool))})
        common = frozenset(s for s, n in counts.items() if n >= share * len(described))
    return common


def _residue(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> _Residue:
    synonyms = synonym_map(options["synonyms"])
    skip = compile_patterns("skip-sentences", options["skip-sentences"])
    filler = stems(options["filler"])
    product = (ctx.memo("description.products", _product_words)
               | stems(options["product-names"]))
    share, min_tools = options["server-word-share"], options["server-word-min-tools"]
    common = ctx.memo(f"description.common.{share}.{min_tools}",
                      lambda manifest: _common_words(manifest, share, min_tools))
    name = _name_stems(tool, synonyms)
    implied = _implied_stems(name, options["implied-words"])
    kept: dict[str, str] = {}
    for sentence in sentences(_purpose_text(tool, ctx, options)):
        if first_match(skip, sentence):
            continue
        for word in words(sentence):
            s = stem(word)
            canonical = synonyms.get(s, s)
            if (len(word) < 2 or word.isdigit() or s in filler or s in product
                    or s in common or canonical in name or s in implied):
                continue
            kept.setdefault(canonical, word)
    return _Residue(tuple(kept.values()))


@check(
    "vague-description",
    Target.TOOL,
    fields={"left", "count", "minimum"},
    options={
        "min-content-words": {"type": "integer", "minimum": 1, "default": 2,
                              "description": "The fewest distinct words, beyond the name's "
                                             "own, filler and product names, that make a "
                                             "description say what the tool does."},
        "filler": {**WORDS, "default": [],
                   "description": "Words that carry no meaning about what a tool does (the, "
                                  "tool, new, given, information)."},
        "synonyms": {**WORD_GROUPS, "default": [],
                     "description": "Groups of words that say the same as a name word "
                                    "(get/retrieve/fetch): a description that uses them only "
                                    "restates the name."},
        "implied-words": {**WORD_GROUPS, "default": [],
                          "description": "Groups whose first word is a name word and the rest "
                                         "words it implies (hover: element, page): a "
                                         "description that adds only those restates the "
                                         "name."},
        "product-names": {**WORDS, "default": [],
                          "description": "Product names to discount besides those found "
                                         "automatically (capitalised words several "
                                         "descriptions share, and the server's name)."},
        "purpose-ends": {**PATTERNS, "default": [],
                         "description": "Regular expressions for where a description turns "
                                        "from what the tool does to its arguments, return "
                                        "value or examples (Args:, Returns:); the rest is "
                                        "left out of the judgement."},
        "server-word-share": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                              "description": "Words used by at least this share of the "
                                             "server's descriptions tell no tool apart and "
                                             "do not count (page, element on a browser "
                                             "server)."},
        "server-word-min-tools": {"type": "integer", "minimum": 2, "default": 4,
                                  "description": "Fewest described tools before "
                                                 "server-word-share applies."},
        "skip-sentences": {**PATTERNS, "default": [],
                           "description": "Regular expressions for sentences that are not "
                                          "about what the tool does (usage advice, argument "
                                          "lists); they are left out of the judgement."},
    },
)
def vague_description(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    if not _description_of(tool):
        return  # a missing description is SPEC004's finding
    residue = _residue(tool, ctx, options)
    if len(residue.words) >= options["min-content-words"]:
        return
    left = (", ".join(f'"{w}"' for w in residue.words) if residue.words else "nothing")
    yield Hit(tool.child("description"),
              {"left": left, "count": len(residue.words),
               "minimum": options["min-content-words"]}, tool)


# --- return ------------------------------------------------------------------------------------

def _named_output(schema: Any, generic: frozenset[str]) -> list[str]:
    """Property names of an outputSchema that say something (not just ``result``)."""
    if not isinstance(schema, dict):
        return []
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return []
    named = [key for key in properties if isinstance(key, str) and key.lower() not in generic]
    for key, sub in properties.items():
        if isinstance(sub, dict) and key.lower() in generic:
            named.extend(_named_output(sub, generic))
            items = sub.get("items")
            named.extend(_named_output(items, generic))
    return named


_LIST_OPENING = rx.compile(r"^\s*:?\s*(?:\d{1,2}[.)]|[-*•])\s+")
_CLAUSE_END = rx.compile(r"(?<=[.!?])\s|\n\s*\n")
_CONDITION = rx.compile(r"\b(?:if|when|unless|whenever|in case)\b", re.IGNORECASE)


def _clause_after(text: str, end: int, limit: int = 14) -> list[str]:
    # A cue that opens a list ("Returns:\n1. the user's id") is read from the first item.
    rest = _LIST_OPENING.sub("", text[end:])
    clause = _CLAUSE_END.split(rest, maxsplit=1)[0]
    # What follows "if" is the condition, not the result: "Returns an error if the invoice
    # does not exist" says only that errors come back.
    clause = _CONDITION.split(clause, maxsplit=1)[0]
    return words(clause)[:limit]


def _return_statement(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> str | None:
    """What in the tool says what comes back, or None."""
    generic_props = frozenset(p.lower() for p in options["generic-output-properties"])
    if _named_output(tool.output_schema, generic_props):
        return "outputSchema"
    text = _description_of(tool)
    # "get_application returns application by application name": naming the tool's own
    # object, and how it is looked up, says nothing of what comes back.
    generic = stems(options["generic-return-words"]) | {stem(t) for t in tool.name_tokens}
    for cue in compile_patterns("return-cues", options["return-cues"]):
        for match in cue.finditer(text):
            clause = _clause_after(text, match.end())
            if "by" in clause:
                clause = clause[:clause.index("by")]
            if any(stem(w) not in generic for w in clause):
                return match.group()
    found = first_match(compile_patterns("return-formats", options["return-formats"]), text)
    if found:
        return found.group()
    params = compile_patterns("parameter-return-formats", options["parameter-return-formats"])
    for description in parameter_texts(tool):
        found = first_match(params, description)
        if found:
            return found.group()
    return None


@check(
    "return-stated",
    Target.TOOL,
    fields=set(),
    options={
        "return-cues": {**PATTERNS, "default": [],
                        "description": "Regular expressions that open a statement of what "
                                       "comes back (returns, the response includes); it counts "
                                       "when the words after it name something beyond "
                                       "generic-return-words."},
        "generic-return-words": {**WORDS, "default": [],
                                 "description": "Words that say nothing about what comes "
                                                "back (the result, success, error message)."},
        "return-formats": {**PATTERNS, "default": [],
                           "description": "Regular expressions that state a shape or format "
                                          "on their own (as JSON, in markdown, with their "
                                          "names and ids)."},
        "parameter-return-formats": {**PATTERNS, "default": [],
                                     "description": "Regular expressions that, in a "
                                                    "parameter's description, state the "
                                                    "output format (an output format flag)."},
        "generic-output-properties": {**WORDS, "default": [],
                                      "description": "outputSchema property names that say "
                                                     "nothing by themselves (result, "
                                                     "content); their sub-properties count."},
    },
)
def return_stated(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    if not _description_of(tool):
        return
    if _return_statement(tool, ctx, options) is None:
        yield Hit(tool.child("description"), {}, tool)


# --- guidance ----------------------------------------------------------------------------------

@check(
    "usage-guidance",
    Target.TOOL,
    fields={"siblings", "sibling"},
    options={
        "guidance-patterns": {**PATTERNS, "default": [],
                              "description": "Regular expressions for usage guidance: use "
                                             "this when, instead of, do not use, call this "
                                             "first."},
        "sibling-names": {"type": "boolean", "default": True,
                          "description": "Whether naming another tool of the server in the "
                                         "description counts as guidance."},
    },
)
def usage_guidance(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    if not _description_of(tool):
        return
    text = _own(tool, ctx)
    if first_match(compile_patterns("guidance-patterns", options["guidance-patterns"]), text):
        return
    if options["sibling-names"] and named_siblings(text, tool, ctx):
        return
    closest = _closest_siblings(tool, ctx)
    fields = {"siblings": " or ".join(f'"{n}"' for n in closest) or "a sibling tool"}
    if closest:
        fields["sibling"] = closest[0]  # the suggestion names the closest one
    yield Hit(tool.child("description"), fields, tool)


# A stem shared by more tools than this (``get`` in a 2,000-tool gateway) only nominates its
# first tools as siblings, which keeps the lookup linear; below it the result is exact.
_STEM_FANOUT = 64


def _stem_index(manifest: Manifest) -> dict[str, list[Tool]]:
    index: dict[str, list[Tool]] = {}
    for tool in manifest.tools:
        if tool.name:
            for word in {stem(t) for t in tool.name_tokens}:
                index.setdefault(word, []).append(tool)
    return index


def _closest_siblings(tool: Tool, ctx: Context, count: int = 2) -> list[str]:
    """Siblings sharing most name words, to make the suggested sentence concrete.  A word
    counts less the more tools share it, so the object (``cron`` of ``cron_create``) outweighs
    a verb or namespace prefix that half the server shares."""
    index: dict[str, list[Tool]] = ctx.memo("description.stems", _stem_index)
    shared: dict[int, float] = {}
    names: dict[int, str] = {}
    get = shared.get
    # In a fixed order: the shares are floats, and a sum taken in a set's order (which follows
    # the string hash seed) could break a tie one way in one run and the other in the next.
    for word in sorted({stem(t) for t in tool.name_tokens}):
        holders = index.get(word, ())
        weight = 1.0 / len(holders) if holders else 0.0
        for other in holders[:_STEM_FANOUT]:
            if other is not tool:
                at = other.index
                shared[at] = get(at, 0.0) + weight
                names[at] = other.name
    # (-share, index) pairs are distinct, so the smallest two are the same as a full sort's.
    best = heapq.nsmallest(count, [(-share, i) for i, share in shared.items()])
    return [names[i] for _, i in best]


# --- limits ------------------------------------------------------------------------------------

def _limit_statement(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> str | None:
    ignore = compile_patterns("ignore-patterns", options["ignore-patterns"])
    patterns = compile_patterns("limit-patterns", options["limit-patterns"])
    texts: Sequence[str] = [_description_of(tool), *parameter_texts(tool)]
    for text in texts:
        for pattern in ignore:
            text = pattern.sub(" ", text)
        found = first_match(patterns, text)
        if found:
            return found.group()
    return None


@check(
    "limits-stated",
    Target.TOOL,
    fields=set(),
    options={
        "limit-patterns": {**PATTERNS, "default": [],
                           "description": "Regular expressions for a stated limit, caveat, "
                                          "side effect or failure behaviour, looked for in the "
                                          "description and in parameter descriptions."},
        "ignore-patterns": {**PATTERNS, "default": [],
                            "description": "Regular expressions for text removed before "
                                           "looking (\"success or error message\" promises "
                                           "nothing about failure)."},
    },
)
def limits_stated(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    if not _description_of(tool):
        return
    if _limit_statement(tool, ctx, options) is None:
        yield Hit(tool.child("description"), {}, tool)


# --- length ------------------------------------------------------------------------------------

@check(
    "description-tokens",
    Target.TOOL,
    fields={"tokens", "limit", "method"},
    options={
        "max-tokens": {"type": "integer", "minimum": 1, "default": 600,
                       "description": "The most tokens a tool's description may take."},
    },
)
def description_tokens(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    text = _description_of(tool)
    if not text:
        return
    tokens = ctx.tokens.count(text)
    if tokens > options["max-tokens"]:
        yield Hit(tool.child("description"),
                  {"tokens": f"{tokens:,}", "limit": f"{options['max-tokens']:,}",
                   "method": ctx.tokens.method}, tool)


# --- overlapping pairs -------------------------------------------------------------------------

class _Shape(NamedTuple):
    """A tool name read as an action on an object: ``jira_batch_create_issues`` is ``create``
    on ``issue`` (plural) in the namespace ``jira``, with the modifier ``batch`` set aside."""

    tool: Tool
    namespace: str | None
    action: str | None  # the action group, from action-groups
    verb: str | None  # the action word as written
    objects: tuple[str, ...]  # object words, singular stems, in order; the last is the head
    qualifiers: tuple[str, ...]  # words of a phrase opened by a connector (by id, from template)
    plural: bool  # whether the head is written in the plural
    written: Mapping[str, str]  # stem → the word as the name writes it, for messages
    # A verb joined to the action by "or"/"and" (get_or_create_label), as written with its
    # joining word ("get or"), and that verb's action group.
    also_verb: str | None = None
    also: str | None = None


def _shapes(tools: Sequence[Tool], options: Mapping[str, Any]) -> list[_Shape]:
    groups: dict[str, str] = {}
    for group in options["action-groups"]:
        for word in group:
            groups.setdefault(stem(word), stem(group[0]))
    modifiers = {stem(w) for w in options["modifiers"]}
    ignored = {stem(w) for w in options["ignore-words"]}
    connectors = {w.lower() for w in options["connectors"]}
    # Near-synonym objects (notes/articles/pages, folder/directory) name one store to an agent
    # looking for a tool: search_notes and lookup_articles over one wiki are one request.
    same = synonym_map(options["object-synonyms"])
    leading = Counter(stem(t.name_tokens[0]) for t in tools if len(t.name_tokens) > 1)
    # A leading word is a namespace (jira_, cache_) when many names share it; an object-first
    # name (documents-create) shares its first word with a few siblings only.
    needed = max(options["namespace-min-tools"], options["namespace-min-share"] * len(tools))
    namespaces = {w for w, n in leading.items() if n >= needed and w not in groups}
    # Object-first names (stories-search, labels-get-stories) lead with the object, not a
    # product: a leading word that another name uses after its first word is an object.
    # Such a lead is plural by the naming scheme, not because the tool reads many: stories-get
    # reads one story.
    later = {stem(w) for t in tools for w in t.name_tokens[1:]}
    leads, namespaces = namespaces & later, namespaces - later
    shapes = []
    for tool in tools:
        written = [t.lower() for t in tool.name_tokens]
        namespace = None
        if len(written) > 1 and stem(written[0]) in namespaces:
            namespace, written = stem(written[0]), written[1:]
        elif len(written) > 1 and stem(written[0]) in leads:
            written[0] = singular(written[0])
        # A phrase opened by a connector qualifies the object (get_page_by_id,
        # create_page_from_template); the object is what comes before it.
        cut = next((i for i, w in enumerate(written) if w in connectors and i > 0), None)
        also = also_verb = None
        if cut is not None and written[cut] in _JOINING and cut + 1 < len(written) and \
                stem(written[cut + 1]) in groups and stem(written[cut - 1]) in groups:
            # get_or_create_label: two actions on one object, not a qualifying phrase.
            also_verb, also = " ".join(written[cut - 1:cut + 1]), groups[stem(written[cut - 1])]
            written = written[:cut - 1] + written[cut + 1:]
            cut = next((i for i, w in enumerate(written) if w in connectors and i > 0), None)
        head_words = written[:cut] if cut is not None else written
        qualifying = [w for w in written[cut:] if w not in connectors
                      and stem(w) not in modifiers] if cut is not None else []
        kept = [w for w in head_words if stem(w) not in modifiers and stem(w) not in ignored]
        kept = kept or head_words
        verb = next((w for w in kept if stem(w) in groups), None)
        objects = [w for w in kept if w != verb]
        plural = bool(objects) and singular(objects[-1]) != objects[-1]
        canonical = {w: same.get(stem(w), stem(w)) for w in objects + qualifying}
        shapes.append(_Shape(tool, namespace, groups.get(stem(verb)) if verb else None, verb,
                             tuple(canonical[w] for w in objects),
                             tuple(canonical[w] for w in qualifying), plural,
                             {canonical[w]: w for w in objects + qualifying}, also_verb, also))
    return shapes


_JOINING = frozenset({"or", "and"})


# Words that say an argument is a key rather than what it names: labelPublicId and label
# take the same thing to an agent choosing a tool.
_KEY_WORDS = frozenset({"id", "ids", "uuid", "gid", "public"})


def _argument(name: str) -> str:
    kept = [singular(w) for w in split_name(name) if w not in _KEY_WORDS]
    return " ".join(kept) or name.lower()


def _parameter_names(tool: Tool) -> dict[str, str]:
    """Top-level parameters by what they name (externalLinks, external_link → external link),
    each with the name as written, for messages."""
    return {_argument(p.name): p.name for p in tool.parameters if p.depth == 0}


def _takes_all_of(wider: Tool, narrower: Tool) -> bool:
    """Whether ``wider`` takes every argument ``narrower`` does: a request in hand for the
    narrower tool can be given to the wider one."""
    return _parameter_names(narrower).keys() <= _parameter_names(wider).keys()


def _subsumes(a: Tool, b: Tool) -> bool:
    return _takes_all_of(a, b) or _takes_all_of(b, a)


def _collection(shape: _Shape, listing: set[str]) -> bool:
    """Whether the tool reads many things: a listing action, or an object in the plural."""
    return shape.action in listing or any(singular(w) != w for w in shape.written.values())


def _overlap_reason(a: _Shape, b: _Shape, options: Mapping[str, Any],
                    forms: frozenset[str] = frozenset()) -> str | None:
    """Why two tools would serve one request, or None when something tells them apart: a
    different kind of action (get/update), a different product namespace, a different object
    (the parallel family get_user/get_team, or a new last word get_issue/get_issue_dates), or
    one item against a scoped list (get_issue/get_project_issues)."""
    if a.action is None or b.action is None or a.namespace != b.namespace:
        return None
    if a.action != b.action and b.action != a.also and a.action != b.also:
        return _related_actions(a, b, options)
    if a.objects == b.objects and a.qualifiers == b.qualifiers:
        head_a = a.written.get(a.objects[-1]) if a.objects else None
        head_b = b.written.get(b.objects[-1]) if b.objects else None
        if head_a and head_b and singular(head_a) != singular(head_b):
            return (f'{a.verb} "{head_a}" and {b.verb} "{head_b}", and those read as one '
                    "thing to an agent")
        joined, other = (a, b) if a.also_verb else (b, a)
        if joined.also_verb and not other.also_verb:
            thing = f' "{other.written[other.objects[-1]]}"' if other.objects else ""
            return (f'overlap: "{joined.tool.name}" does what "{other.tool.name}" does '
                    f"({other.verb}{thing}) and more")
        if a.verb == b.verb:
            return "differ only by modifiers or a plural"
        return f'{a.verb} and {b.verb} the same thing, and those actions read as one'
    form = _form_variant(a, b, forms)
    if form is not None:
        return form
    if bool(a.objects) != bool(b.objects):
        return _bare_variant(a, b)
    if a.objects[-1:] != b.objects[-1:] or a.plural != b.plural:
        return None
    # One name adding qualifiers to the other's object is a variant (add_comment /
    # add_inline_comment, create_page / create_page_from_template); each adding its own is a
    # parallel family (epic / story comments, get_by_id / get_by_link).
    words_a, words_b = set(a.objects + a.qualifiers), set(b.objects + b.qualifiers)
    if words_a - words_b and words_b - words_a:
        return None
    longer = a if len(words_a) > len(words_b) else b
    extra = " ".join(longer.written[w] for w in longer.objects + longer.qualifiers
                     if w not in (words_b if longer is a else words_a))
    thing = f' "{a.written[a.objects[-1]]}"' if a.objects else ""
    # find_notes and search_notes_by_tag: where the verbs differ, say what both do.
    verb = a.verb if a.verb == b.verb else a.action
    return (f'both {verb}{thing}, and only "{extra}" sets one apart, which does '
            "not say when to prefer it")


def _form_variant(a: _Shape, b: _Shape, forms: frozenset[str]) -> str | None:
    """The same thing in two forms (get_visible_text / get_visible_html, read_text_file /
    read_media_file): an agent asked for the thing can call either."""
    form_a = [w for w in a.objects if w in forms]
    form_b = [w for w in b.objects if w in forms]
    rest = tuple(w for w in a.objects if w not in forms)
    if not form_a or not form_b or form_a == form_b or not rest or a.qualifiers != b.qualifiers \
            or rest != tuple(w for w in b.objects if w not in forms):
        return None
    # open_drawio_xml(xml) and open_drawio_csv(csv) take the thing in different forms: the
    # agent's input decides. Only where one takes all the other does is the choice open.
    if not _subsumes(a.tool, b.tool) or _takes_form(a, form_a) or _takes_form(b, form_b):
        return None
    thing = " ".join(a.written[w] for w in rest)
    return (f'both {a.verb if a.verb == b.verb else a.action} "{thing}", one as '
            f'{" ".join(a.written[w] for w in form_a)} and one as '
            f'{" ".join(b.written[w] for w in form_b)}')


def _takes_form(shape: _Shape, form: Sequence[str]) -> bool:
    """Whether the form is what the tool is given, not what it gives: a required argument
    is described in it ("The CSV content"), so the agent's input decides between the two."""
    wanted = {shape.written[w] for w in form}
    return any(p.required and p.depth == 0 and wanted & set(words(p.description or ""))
               for p in shape.tool.parameters)


# A bare HTTP method (playwright_get, jira_put) names a request of that method, not the
# action on whatever a sibling names.
_HTTP_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})


def _bare_variant(a: _Shape, b: _Shape) -> str | None:
    """An action on nothing named against the same action on something (playwright_click /
    playwright_iframe_click): the bare one reads as covering the other."""
    bare, other = (a, b) if not a.objects else (b, a)
    if bare.qualifiers or bare.verb != other.verb or bare.verb in _HTTP_METHODS:
        return None
    # jira_search(jql) and jira_search_fields(keyword): the bare one has an object of its
    # own, unnamed. The variant takes every argument the bare one does and more.
    if not _takes_all_of(other.tool, bare.tool):
        return None
    extra = " ".join(other.written[w] for w in other.objects + other.qualifiers)
    return (f'both {bare.verb}, and only "{extra}" sets one apart, which does not say when '
            "to prefer it")


def _scoped_collection(a: _Shape, b: _Shape, listing: set[str]) -> str | None:
    """Two reads of one collection, one scoped by words the other leaves out, where the
    broader tool takes every argument of the scoped one (labels-get-stories(labelId) and
    stories-search(label, ...)): the broader can answer the scoped request too."""
    if not _collection(a, listing) or not _collection(b, listing) \
            or a.objects[-1:] != b.objects[-1:]:
        return None
    words_a, words_b = set(a.objects + a.qualifiers), set(b.objects + b.qualifiers)
    if words_a <= words_b:
        broad, scoped = a, b
    elif words_b <= words_a:
        broad, scoped = b, a
    else:
        return None
    if not _takes_all_of(broad.tool, scoped.tool):
        return None
    # The collection as a name writes it in the plural (labels-get-stories, not stories-search).
    heads = [s.written[s.objects[-1]] for s in (scoped, broad)]
    head = next((h for h in heads if singular(h) != h), heads[0])
    given = _parameter_names(scoped.tool)
    if given:
        return (f'both read "{head}", and "{broad.tool.name}" takes every argument of '
                f'"{scoped.tool.name}" ({", ".join(sorted(given.values()))})')
    return f'both read "{head}", and "{scoped.tool.name}" takes no argument that sets it apart'


def _related_actions(a: _Shape, b: _Shape, options: Mapping[str, Any]) -> str | None:
    """Two related actions (draft/send, add/set) on the same object overlap when the tools
    take the same arguments: the agent has the same request in hand for either.  Two reads
    of one collection (get/list) overlap when one can do what the other does."""
    families = [{stem(w) for w in family} for family in options["related-actions"]]
    if not any(a.action in family and b.action in family for family in families):
        return None
    listing = {stem(w) for w in options["collection-actions"]}
    if a.action in listing or b.action in listing:
        found = _scoped_collection(a, b, listing)
        if found is not None:
            return found
    if a.objects != b.objects or a.qualifiers != b.qualifiers:
        return None
    params_a, params_b = _parameter_names(a.tool), _parameter_names(b.tool)
    if not params_a or not params_b:
        return None
    shared = params_a.keys() & params_b.keys()
    if len(shared) / len(params_a.keys() | params_b.keys()) < options["min-shared-parameters"]:
        return None
    thing = f' "{a.written[a.objects[-1]]}"' if a.objects else ""
    return (f"{a.verb} and {b.verb}{thing} with the same arguments "
            f"({', '.join(sorted(params_a[k] for k in shared))})")


def _candidate_pairs(shapes: Sequence[_Shape], max_bucket: int) -> set[tuple[int, int]]:
    """Pairs that share an object word, or an action on no object.  Blocking on shared
    words keeps the work near linear; a word that more than ``max_bucket`` tools share says
    nothing about any two of them and is not used to pair them."""
    buckets: dict[tuple[str, str], list[int]] = {}
    verbs: dict[tuple[str, str], list[int]] = {}
    for i, shape in enumerate(shapes):
        keys = [("o", o) for o in shape.objects] or [("n", shape.namespace or "")]
        for key in keys:
            buckets.setdefault(key, []).append(i)
        if shape.verb:
            verbs.setdefault((shape.namespace or "", shape.verb), []).append(i)
    pairs: set[tuple[int, int]] = set()
    # An action on nothing named (playwright_click) is paired with the same action on
    # something (playwright_iframe_click), which shares no object word with it.
    for members in verbs.values():
        bare = [i for i in members if not shapes[i].objects]
        if bare and len(members) <= max_bucket:
            pairs.update((min(i, j), max(i, j)) for i in bare for j in members if i != j)
    for members in buckets.values():
        if 1 < len(members) <= max_bucket:
            for x, i in enumerate(members):
                for j in members[x + 1:]:
                    pairs.add((i, j))
    return pairs


def _disambiguated(a: Tool, b: Tool, ctx: Context,
                   contrast: Sequence[re.Pattern[str]]) -> bool:
    """Either description names the other, or contrasts itself with its siblings without
    naming one; a contrast that names some other sibling settles a different choice."""
    for tool, other in ((a, b), (b, a)):
        text = _own(tool, ctx)
        named = named_siblings(text, tool, ctx)
        if other.name in named or (not named and first_match(contrast, text)):
            return True
    return False


@check(
    "overlapping-tools",
    Target.PAIR,
    fields={"first", "second", "reason"},
    options={
        "action-groups": {**WORD_GROUPS, "default": [],
                          "description": "Words that name one kind of action; the first word "
                                         "names the group. Two tools overlap only when their "
                                         "actions are of one group (get/list/search)."},
        "modifiers": {**WORDS, "default": [],
                      "description": "Words that make a variant of the same tool (many, "
                                     "batch, multi); they are set aside."},
        "object-synonyms": {**WORD_GROUPS, "default": [],
                            "description": "Groups of object words that name one thing to an "
                                           "agent choosing a tool (note, article, page)."},
        "ignore-words": {**WORDS, "default": [],
                         "description": "Words in names that say nothing about the object "
                                        "(tool, by, for)."},
        "namespace-min-tools": {"type": "integer", "minimum": 2, "default": 3,
                                "description": "How many names must start with a word for it "
                                               "to count as a namespace (jira_, cache_)."},
        "connectors": {**WORDS, "default": [],
                       "description": "Words that open a qualifying phrase in a name (by, "
                                      "from, with): the object is what comes before."},
        "namespace-min-share": {"type": "number", "minimum": 0, "maximum": 1,
                                "default": 0.25,
                                "description": "The share of the server's names that must "
                                               "start with a word for it to count as a "
                                               "namespace."},
        "max-bucket": {"type": "integer", "minimum": 2, "default": 40,
                       "description": "A name word shared by more tools than this is too "
                                      "common to pair tools by."},
        "related-actions": {**WORD_GROUPS, "default": [],
                            "description": "Groups of action-groups (named by their first "
                                           "word) whose actions serve one request when the "
                                           "tools take the same arguments (draft/send, "
                                           "add/set)."},
        "collection-actions": {**WORDS, "default": [],
                               "description": "Action groups (named by their first word) "
                                              "that read a collection (list, search); such a "
                                              "read and another of one collection overlap "
                                              "when the broader takes every argument of the "
                                              "scoped one."},
        "form-words": {**WORDS, "default": [],
                       "description": "Words that name a form of a thing rather than the "
                                      "thing (text, html, markdown, media): names that differ "
                                      "only in them get the same thing."},
        "min-shared-parameters": {"type": "number", "minimum": 0, "maximum": 1,
                                  "default": 0.8,
                                  "description": "The share of top-level parameter names "
                                                 "two tools with related actions must have "
                                                 "in common to overlap."},
        "contrast-patterns": {**PATTERNS, "default": [],
                              "description": "Regular expressions for text that sets a tool "
                                             "apart from its siblings (instead of, rather "
                                             "than, unlike); naming the other tool also "
                                             "counts."},
    },
)
def overlapping_tools(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                      ) -> Iterator[Hit]:
    shapes = _shapes(manifest.tools, options)
    contrast = compile_patterns("contrast-patterns", options["contrast-patterns"])
    same = synonym_map(options["object-synonyms"])
    forms = frozenset(same.get(stem(w), stem(w)) for w in options["form-words"])
    for i, j in sorted(_candidate_pairs(shapes, options["max-bucket"])):
        a, b = shapes[i], shapes[j]
        if not a.tool.name or not b.tool.name or a.tool.name == b.tool.name:
            continue
        reason = _overlap_reason(a, b, options, forms)
        if reason is None or _disambiguated(a.tool, b.tool, ctx, contrast):
            continue
        yield Hit(
            _anchor(b.tool),
            {"first": a.tool.name, "second": b.tool.name, "reason": reason},
            b.tool,
            related=((a.tool, _anchor(a.tool)),),
        )


def _anchor(tool: Tool) -> str:
    return tool.child("description") if "description" in tool.raw else tool.pointer


CHECKS = (vague_description, return_stated, usage_guidance, limits_stated, description_tokens,
          overlapping_tools)
