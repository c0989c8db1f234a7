"""What a tool does to the world, and whether its surface offers a confirmation path.

Shared by the write-safety checks.  A tool's *effect* is read from, in order of trust:

1. the words of its name: the first action word decides (``get_post_comments`` reads,
   ``delete_post`` writes), except that a write verb joined by ``or``/``and`` still counts
   (``get_or_create_label``), and a run verb on a read object is a read
   (``execute_log_insights_query``) unless the annotations declare ``readOnlyHint: false``
   and ``destructiveHint: true`` (``execute_query`` on a SQL database), and a name that ends
   in a reader reads (``sp_purchase_analyzer``); a selector parameter (``action``) then says
   what a router does;
2. the first verb of its description, when the name has no action word (``maintenance_on``:
   "Enable maintenance mode …");
3. its annotations, when neither says: ``readOnlyHint: false`` with ``destructiveHint`` true or
   left to its default.

Destructive is a write whose name or description verb is in the destructive vocabulary, whose
description says it overwrites or cannot be undone, or that declares ``destructiveHint: true``
without a mild verb (``add_comment`` or ``browser_click`` flagged destructive by a blanket
annotation is still only a write).  Every vocabulary comes from the rule's options.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Literal, NamedTuple

from mcplint import regex_cache as rx
from mcplint.checks._paramtext import listed_values, tool_line
from mcplint.checks._text import compile_patterns
from mcplint.checks.base import PATTERNS, WORDS
from mcplint.model import Manifest, Parameter, Tool
from mcplint.names import split_name

Effect = Literal["read", "write", "destructive"]

_PAIRS = {"type": "array", "items": {"type": "array", "items": {"type": "string"},
                                     "minItems": 2, "maxItems": 2}}

EFFECT_OPTIONS: dict[str, Any] = {
    "write-verbs": {**WORDS, "description": "Name or description verbs that change state."},
    "destructive-verbs": {**WORDS, "description": "Write verbs that destroy, overwrite or act "
                                                   "irreversibly."},
    "read-verbs": {**WORDS, "description": "Verbs of tools that only read."},
    "non-destructive-verbs": {**WORDS, "description": "Write verbs whose effect is additive or "
                                                      "easily undone (create, click), which a "
                                                      "blanket destructiveHint does not make "
                                                      "destructive."},
    "carrier-verbs": {**WORDS, "description": "Verbs that only carry the next word's action "
                                               "(post_search is a search)."},
    "run-verbs": {**WORDS, "description": "Verbs that run something; a read when the name's "
                                           "object is in read-objects."},
    "read-objects": {**WORDS, "description": "Objects a run verb only reads (query, report)."},
    "conjunctions": {**WORDS, "description": "Words that join a second action to a name."},
    "selector-parameters": {**WORDS, "description": "Names of parameters that choose what a "
                                                  "router tool does (action, command, "
                                                  "operation): their values are its verbs."},
    "lead-ins": {**PATTERNS, "description": "Regular expressions for filler before a "
                                             "description's first verb (\"This tool will\")."},
    "destructive-phrases": {**PATTERNS, "description": "Regular expressions that make a "
                                                        "write destructive wherever they occur "
                                                        "in the description."},
    "irreversible-objects": {**WORDS, "description": "Name words of things that cannot be "
                                                      "taken back once written (message, "
                                                      "email): a non-additive write on them is "
                                                      "destructive."},
    "destructive-parameters": {**PATTERNS, "description": "Regular expressions (matched "
                                                           "against a parameter name lower-"
                                                           "cased without _ and -) for "
                                                           "parameters that make a write "
                                                           "destructive (force, overwrite)."},
    "statement-parameters": {**PATTERNS, "default": [],
                             "description": "Regular expressions for a top-level string "
                                            "parameter (its name, a space, its description) "
                                            "that takes any statement of a query language "
                                            "(SQL): such a tool can drop a table, whatever its "
                                            "name says."},
    "read-only-patterns": {**PATTERNS, "default": [],
                           "description": "Regular expressions for description text that "
                                          "limits a statement tool to reads (read-only, "
                                          "SELECT only)."},
    "detach-objects": {**WORDS, "default": [],
                       "description": "Name words of links and memberships (label, member, "
                                      "watcher): removing one, or removing anything from "
                                      "something (remove_user_from_group), takes nothing away "
                                      "that cannot be added back, so it is a write, not a "
                                      "destruction."},
    "in-place-verbs": {**WORDS, "default": [],
                       "description": "Destructive verbs of a change in place (set, put, "
                                      "patch): they overwrite a value but are ordinary writes "
                                      "as often as not, so a finding on that evidence alone is "
                                      "reported at info, and a router's other destructive "
                                      "choices (DELETE beside PUT) outrank them."},
}

GUARD_OPTIONS: dict[str, Any] = {
    "two-phase-pairs": {**_PAIRS, "description": "Verb pairs of a two-phase workflow: the first "
                                                 "prepares or previews, the second commits."},
    "guard-parameters": {**PATTERNS, "description": "Regular expressions (matched against a "
                                                     "parameter name lower-cased without _ and "
                                                     "-) for confirmation, approval, dry-run "
                                                     "and preview parameters."},
    "guard-phrases": {**PATTERNS, "description": "Regular expressions for description text "
                                                  "that tells the agent to get the user's "
                                                  "approval first."},
}


def _lower_set(words: Iterable[str]) -> frozenset[str]:
    return frozenset(w.lower() for w in words)


@dataclass(frozen=True)
class Vocabulary:
    write: frozenset[str]
    destructive: frozenset[str]
    read: frozenset[str]
    mild: frozenset[str]
    carriers: frozenset[str]
    run: frozenset[str]
    read_objects: frozenset[str]
    conjunctions: frozenset[str]
    selectors: frozenset[str]
    lead_ins: Sequence[re.Pattern[str]]
    destructive_phrases: Sequence[re.Pattern[str]]
    irreversible_objects: frozenset[str]
    destructive_parameters: Sequence[re.Pattern[str]]
    in_place: frozenset[str]
    detach_objects: frozenset[str] = frozenset()
    statements: Sequence[re.Pattern[str]] = ()
    read_only: Sequence[re.Pattern[str]] = ()

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Vocabulary:
        # The engine passes the same options object for every tool of a rule; recognising it
        # by identity saves freezing a few hundred words per tool.
        known = _by_identity.get(id(options))
        if known is not None and known[0] is options:
            return known[1]
        vocab = _vocabulary(_freeze(options, EFFECT_OPTIONS))
        if len(_by_identity) > 64:
            _by_identity.clear()
        _by_identity[id(options)] = (options, vocab)
        return vocab

    @cached_property
    def writes(self) -> frozenset[str]:
        """Every verb that makes a name a write (the destructive ones are writes too)."""
        return self.write | self.destructive | self.run


_by_identity: dict[int, tuple[Mapping[str, Any], Vocabulary]] = {}


def _freeze(options: Mapping[str, Any], keys: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple((key, tuple(tuple(v) if isinstance(v, list) else v for v in options[key]))
                 for key in keys)


@lru_cache(maxsize=32)
def _vocabulary(frozen: tuple[Any, ...]) -> Vocabulary:
    options = dict(frozen)
    return Vocabulary(
        write=_lower_set(options["write-verbs"]),
        destructive=_lower_set(options["destructive-verbs"]),
        read=_lower_set(options["read-verbs"]),
        mild=_lower_set(options["non-destructive-verbs"]),
        carriers=_lower_set(options["carrier-verbs"]),
        run=_lower_set(options["run-verbs"]),
        read_objects=_lower_set(options["read-objects"]),
        conjunctions=_lower_set(options["conjunctions"]),
        selectors=_lower_set(options["selector-parameters"]),
        lead_ins=compile_patterns("lead-ins", options["lead-ins"]),
        destructive_phrases=compile_patterns("destructive-phrases",
                                             options["destructive-phrases"]),
        irreversible_objects=_lower_set(options["irreversible-objects"]),
        destructive_parameters=compile_patterns("destructive-parameters",
                                                options["destructive-parameters"]),
        in_place=_lower_set(options["in-place-verbs"]),
        detach_objects=_lower_set(options["detach-objects"]),
        statements=compile_patterns("statement-parameters", options["statement-parameters"]),
        read_only=compile_patterns("read-only-patterns", options["read-only-patterns"]),
    )


class Reading(NamedTuple):
    """A tool's effect and the evidence for it, phrased for a message ("its name says delete")."""

    effect: Effect
    reason: str
    verb: str | None = None


_FIRST_WORD = rx.compile(r"[A-Za-z]+")


def _lemma(word: str, known: frozenset[str]) -> str | None:
    """The vocabulary word an inflected description verb stands for (Creates → create)."""
    word = word.lower()
    for candidate in (word, word[:-1] if word.endswith("s") else "",
                      word[:-2] if word.endswith("es") else "",
                      word[:-1] if word.endswith("d") else "",
                      word[:-2] if word.endswith("ed") else ""):
        if candidate and candidate in known:
            return candidate
    return None


def description_verb(tool: Tool, vocab: Vocabulary) -> str | None:
    """The description's first word, as a vocabulary verb, after filler such as "This tool will"."""
    text = (tool.description or "").strip()
    for pattern in vocab.lead_ins:
        match = pattern.match(text)
        if match:
            text = text[match.end():].lstrip()
            break
    words = _FIRST_WORD.findall(text[:80])
    # An adverb before the verb ("Partially update …") is skipped.
    while words and words[0].lower().endswith("ly") and len(words) > 1:
        words = words[1:]
    if not words:
        return None
    return _lemma(words[0], vocab.writes | vocab.read)


# Name words that say one thing together, whatever each says alone: GitLab's merge requests are
# objects (list_merge_requests only reads), and drag_and_drop moves an element, it drops nothing.
_PHRASES: dict[tuple[str, ...], str] = {
    ("merge", "request"): "merge request", ("merge", "requests"): "merge requests",
    ("drag", "and", "drop"): "drag", ("drag", "n", "drop"): "drag", ("drag", "drop"): "drag",
}
_LONGEST_PHRASE = max(map(len, _PHRASES))


def _action_tokens(tokens: Sequence[str]) -> list[str]:
    """A name's words with each phrase of ``_PHRASES`` made one word."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        for size in range(min(_LONGEST_PHRASE, len(tokens) - i), 1, -1):
            phrase = _PHRASES.get(tuple(tokens[i:i + size]))
            if phrase is not None:
                out.append(phrase)
                i += size
                break
        else:
            out.append(tokens[i])
            i += 1
    return out


def _read_agent_noun(word: str, vocab: Vocabulary) -> str | None:
    """The read verb a noun for a doer stands for (analyzer → analyze, reader → read,
    validator → validate), or None.  A role in a membership (watcher, follower) is a person
    the tool adds or removes, not the tool."""
    if (word in vocab.writes or word in vocab.read or word in vocab.detach_objects
            or not word.endswith(("er", "or"))):
        return None
    for stem in (word[:-1], word[:-2], word[:-3], word[:-2] + "e"):
        if len(stem) > 2 and stem in vocab.read:
            return stem
    return None


def _name_reading(tool: Tool, vocab: Vocabulary) -> Reading | None:
    tokens = _action_tokens(tool.name_tokens)
    # A name that ends in a reader of something names a tool that reads it, whatever verb its
    # object holds: sp_purchase_analyzer analyzes purchases, deploy_services_reader reads
    # deploys.
    reads = _read_agent_noun(tokens[-1], vocab) if len(tokens) > 1 else None
    if reads is not None:
        return Reading("read", f'its name says "{tokens[-1]}"', reads)
    for i, token in enumerate(tokens):
        if token in vocab.read:
            for j in range(i + 1, len(tokens) - 1):
                if tokens[j] in vocab.conjunctions and tokens[j + 1] in vocab.writes:
                    return Reading("write", f'its name says "{tokens[j + 1]}"', tokens[j + 1])
            return Reading("read", f'its name says "{token}"', token)
        if token in vocab.writes:
            if (token in vocab.carriers and i + 1 < len(tokens)
                    and tokens[i + 1] in vocab.read):
                continue
            if (token in vocab.run and any(t in vocab.read_objects for t in tokens[i + 1:])
                    and not _declared_destructive(tool)):
                return Reading("read", f'its name runs a read ("{token}")', token)
            return Reading("write", f'its name says "{token}"', token)
    return None


def _declared_destructive(tool: Tool) -> bool:
    """The author says the tool writes and may destroy: a run verb on a read object is only
    usually a read (a SQL query can drop a table), and this says it is not one of those."""
    notes = tool.annotations
    return (notes is not None and notes.declared.get("readOnlyHint") is False
            and notes.declared.get("destructiveHint") is True)


def _annotation_reading(tool: Tool) -> Reading | None:
    notes = tool.annotations
    if notes is None:
        return None
    declared = notes.declared
    if declared.get("readOnlyHint") is True:
        return Reading("read", "its annotations say readOnlyHint: true")
    if declared.get("readOnlyHint") is False and declared.get("destructiveHint") is not False:
        return Reading("write", "its annotations say readOnlyHint: false")
    return None


# How a selector's description introduces its values when it has no enum ("One of: list,
# pause"); PARAM001's lead-ins are an option of that rule, these only find a router's verbs.
_SELECTOR_LEAD_INS = ("one of", "either", "valid values", "allowed values", "possible values",
                      "supported values", "options", "choices", "can be", "must be")


def _selected_values(param: Parameter, tool: Tool) -> list[str]:
    """The values a selector parameter offers: its enum (or its items' enum), else the values
    its description lists, or, undescribed, its line in the tool's description (an ``Args:``
    block's ``action: "create", "drop", "info", or "list"``)."""
    for schema in (param.schema, param.schema.get("items")):
        values = schema.get("enum") if isinstance(schema, Mapping) else None
        if isinstance(values, list):
            return [v for v in values if isinstance(v, str)]
    text = param.description or tool_line(param, tool)
    listing = listed_values(text, _SELECTOR_LEAD_INS, 20)
    return list(listing.values) if listing is not None else []


def _router_reading(tool: Tool, vocab: Vocabulary) -> Reading | None:
    """A router tool (``files`` with ``action: read|write|delete``) does what its selector
    parameter chooses, whatever its name says: the most severe value decides."""
    found: Reading | None = None
    reading: str | None = None  # the selector that offers a read, if all it offers read
    unknown = False
    for param in tool.parameters:
        if param.depth != 0 or param.name.lower() not in vocab.selectors:
            continue
        for value in _selected_values(param, tool):
            words = split_name(value)
            verb = _lemma(words[0], vocab.writes | vocab.read) if words else None
            why = f'its parameter "{param.name}" selects "{value}"'
            if verb in vocab.destructive:
                if verb not in vocab.in_place:
                    return Reading("destructive", why, verb)
                # PUT is the weakest destructive choice: a DELETE beside it decides.
                if found is None or found.effect != "destructive":
                    found = Reading("destructive", why, verb)
                continue
            if found is None and verb in vocab.writes:
                found = Reading("write", why, verb)
            elif verb in vocab.read:
                reading = reading or param.name
            else:
                unknown = True
    if found is None and reading is not None and not unknown:
        # Every choice reads (manage_routing with operation: get_policies|get_contacts).
        return Reading("read", f'its parameter "{reading}" selects only reads')
    return found


_HTTP_METHODS = frozenset({"get", "head", "options", "post", "put", "patch", "delete", "trace"})
# WebDAV's and a few vendors' methods, which a full list of methods offers beside those.
_MORE_METHODS = frozenset({"connect", "copy", "move", "link", "unlink", "purge", "lock",
                           "unlock", "propfind", "proppatch", "mkcol", "view", "search"})


def _http_methods(param: Parameter, tool: Tool, vocab: Vocabulary) -> bool:
    """Whether a selector offers HTTP methods (GET, POST, DELETE, … and WebDAV's)."""
    if param.depth != 0 or param.name.lower() not in vocab.selectors:
        return False
    values = {v.lower() for v in _selected_values(param, tool)}
    return (len(values & _HTTP_METHODS) >= 2
            and values <= _HTTP_METHODS | _MORE_METHODS)


def _calls_http(tool: Tool, vocab: Vocabulary) -> bool:
    """Whether a selector offers HTTP methods: a generic API caller, which does what its
    method says whatever its name reads like (GenericOpenSearchApiTool is not "open")."""
    return any(_http_methods(param, tool, vocab) for param in tool.parameters)


def named_effect(tool: Tool, vocab: Vocabulary) -> Reading | None:
    """What the tool's name and its selector parameter say it does, or None when neither says:
    the evidence that outweighs a description's first verb and the annotations."""
    reading = _name_reading(tool, vocab)
    # A name that says it reads keeps its word: a selector then names what the read is
    # about (check_permissions with operation: read|delete).  HTTP methods name no object.
    if reading is None or (reading.effect == "read" and _calls_http(tool, vocab)):
        return _router_reading(tool, vocab) or reading
    if reading.effect == "write":
        routed = _router_reading(tool, vocab)
        # The selector makes a write-named router destructive, or, when every value it offers
        # reads, a read: "manage" says less than the list of what it can do.  HTTP methods on a
        # tool whose name writes are a field of what it writes (create_saved_request with
        # method: GET|DELETE stores a request; it deletes nothing).
        if (routed is not None and routed.effect != "write"
                and not _calls_http(tool, vocab)):
            return routed
    return reading


def read_effect(tool: Tool, vocab: Vocabulary) -> Reading:
    """Whether the tool reads, writes or destroys, and why (see the module docstring)."""
    reading = named_effect(tool, vocab)
    if reading is None:
        verb = description_verb(tool, vocab)
        if (verb in vocab.run and any(t in vocab.read_objects for t in tool.name_tokens)
                and not _declared_destructive(tool)):
            reading = Reading("read", f'its description runs a read ("{verb}")', verb)
        elif verb in vocab.writes:
            reading = Reading("write", f'its description starts with "{verb}"', verb)
        elif verb in vocab.read:
            reading = Reading("read", f'its description starts with "{verb}"', verb)
    if reading is None:
        reading = _annotation_reading(tool) or Reading("read", "nothing says it writes")
    if reading.effect == "destructive":
        return reading
    if reading.effect == "write":
        reading = _destructive(tool, vocab, reading) or reading
    if reading.effect == "read":
        return _statement_reading(tool, vocab, reading) or reading
    return reading


def _statement_reading(tool: Tool, vocab: Vocabulary, reading: Reading) -> Reading | None:
    """A tool that runs any SQL statement it is given can drop a table, whether its name
    says ``query`` or ``execute``, unless its description limits it to reads or its
    annotations declare it read-only."""
    notes = tool.annotations
    if notes is not None and notes.declared.get("readOnlyHint") is True:
        return None
    for param in tool.parameters:
        if param.depth != 0 or param.schema.get("type") not in ("string", None):
            continue
        text = f"{param.name} {param.description or ''}"
        language = next((m.group(0) for p in vocab.statements if (m := p.search(text))), None)
        if language is None:
            continue
        if any(p.search(tool.description or "") or p.search(param.description or "")
               for p in vocab.read_only):
            return None
        language = language.upper() if language.islower() else language  # sql -> SQL
        return Reading("destructive", f'its parameter "{param.name}" takes any {language} '
                       "statement, which can delete data", reading.verb)
    return None


def _acting_words(tokens: Sequence[str], vocab: Vocabulary) -> Sequence[str]:
    """The name words that can say what the tool does: a verb before a destructive one makes
    that one its object (``cancel_delete_files``, ``undo_remove``, ``prepare_delete``), unless
    a conjunction joins them (``get_and_delete``)."""
    verbs = vocab.writes | vocab.read
    tokens = _action_tokens(tokens)
    for i, token in enumerate(tokens):
        if token in vocab.destructive:
            return tokens
        if token in verbs and token not in vocab.destructive:
            rest = tokens[i + 1:]
            if rest and rest[0] in vocab.conjunctions:
                return tokens
            return [token, *[t for t in rest if t not in vocab.destructive]]
    return tokens


# Not a vocabulary option: "remove" takes out of something, where delete and drop destroy.
_DETACH_VERBS = frozenset({"remove"})


def detaches(tool: Tool, vocab: Vocabulary) -> bool:
    """Whether the tool's name removes a link or a membership (see ``detach-objects``)."""
    return bool(vocab.detach_objects) and _detaches(tool.name_tokens, vocab)


def _detaches(tokens: Sequence[str], vocab: Vocabulary) -> bool:
    """A removal of a link or a membership (``remove_issue_label``,
    ``removeIssueFromProject``): what it takes away can be added back."""
    for i, token in enumerate(tokens):
        if token in _DETACH_VERBS:
            rest = tokens[i + 1:]
            return "from" in rest or any(t in vocab.detach_objects for t in rest)
        if token in vocab.writes or token in vocab.read:
            return False
    return False


def _destructive(tool: Tool, vocab: Vocabulary, reading: Reading) -> Reading | None:
    detached = detaches(tool, vocab)
    names = [t for t in _acting_words(tool.name_tokens, vocab)
             if t in vocab.destructive and not (detached and t in _DETACH_VERBS)]
    if names:
        return Reading("destructive", f'its name says "{names[0]}"', names[0])
    verb = description_verb(tool, vocab)
    if verb in vocab.destructive and not (detached and verb in _DETACH_VERBS):
        return Reading("destructive", f'its description starts with "{verb}"', verb)
    text = tool.description or ""
    for pattern in vocab.destructive_phrases:
        match = pattern.search(text)
        if match:
            return Reading("destructive", f'its description says "{match.group(0).strip()}"',
                           reading.verb)
    mild = reading.verb in vocab.mild or detached
    objects = [t for t in tool.name_tokens if t in vocab.irreversible_objects]
    if objects and not mild:
        return Reading("destructive",
                       f'its name says "{objects[0]}", which cannot be unsent once written',
                       reading.verb)
    for param in tool.parameters:
        if param.depth > 1:
            continue
        if any(p.search(_normalise(param.name)) for p in vocab.destructive_parameters):
            return Reading("destructive", f'its parameter "{param.name}" overrides existing data',
                           reading.verb)
        values = param.schema.get("enum")
        if _http_methods(param, tool, vocab):
            continue  # a request's method: the selector decides, in named_effect
        for value in values if isinstance(values, list) else ():
            # A value's first word is its verb, as a name's is: "icon_set" is a kind of set.
            words = split_name(value) if isinstance(value, str) else ()
            if words and words[0] in vocab.destructive:
                return Reading("destructive", f'its parameter "{param.name}" accepts "{value}"',
                               reading.verb)
    notes = tool.annotations
    if (notes is not None and notes.declared.get("destructiveHint") is True
            and not mild):
        return Reading("destructive", "its annotations say destructiveHint: true", reading.verb)
    return None


# --- confirmation paths ---------------------------------------------------------------------

class Guards(NamedTuple):
    pairs: tuple[tuple[str, str], ...]
    parameters: Sequence[re.Pattern[str]]
    phrases: Sequence[re.Pattern[str]]

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Guards:
        return cls(
            pairs=tuple((a.lower(), b.lower()) for a, b in options["two-phase-pairs"]),
            parameters=compile_patterns("guard-parameters", options["guard-parameters"]),
            phrases=compile_patterns("guard-phrases", options["guard-phrases"]),
        )


class PairMember(NamedTuple):
    tool: Tool
    partner: Tool
    confirms: bool  # the committing side (confirm_, apply_, execute_) rather than the preview


# Tool checks run once per tool; the pairs are a fact of the whole manifest, so the last
# manifest's answer is kept (by identity) rather than recomputed for each of its tools.
_last_members: list[tuple[Manifest, tuple[tuple[str, str], ...], dict[int, PairMember]]] = []


def two_phase_members(manifest: Manifest, pairs: Sequence[tuple[str, str]]
                      ) -> dict[int, PairMember]:
    key = tuple(pairs)
    if _last_members and _last_members[0][0] is manifest and _last_members[0][1] == key:
        return _last_members[0][2]
    members = _two_phase_members(manifest, key)
    _last_members[:] = [(manifest, key, members)]
    return members


# Not a vocabulary option: these are the verbs of the pattern itself, like prepare and confirm.
_WITHDRAW = ("cancel", "abort", "discard", "reject", "decline")


def _two_phase_members(manifest: Manifest, pairs: Sequence[tuple[str, str]]
                       ) -> dict[int, PairMember]:
    """Tools that are one side of a prepare/confirm pair, by tool index.

    Two names pair when they are the same words with the pair's verbs in one place
    (``prepare_transfer``/``confirm_transfer``, ``transfer_preview``/``transfer_apply``).  Each
    name is keyed by its words with that place blanked out, so the search is one lookup per
    name word, not a comparison of every two tools.
    """
    firsts = {a for a, _ in pairs}
    seconds = {b for _, b in pairs}
    keyed: dict[tuple[str, tuple[str, ...]], list[Tool]] = {}
    withdrawing: dict[tuple[str, tuple[str, ...]], list[Tool]] = {}
    for tool in manifest.tools:
        tokens = tool.name_tokens
        for i, token in enumerate(tokens):
            slot = (token, (*tokens[:i], "", *tokens[i + 1:]))
            if token in firsts or token in seconds:
                keyed.setdefault(slot, []).append(tool)
            if token in _WITHDRAW:
                withdrawing.setdefault(slot, []).append(tool)
    members: dict[int, PairMember] = {}
    for first, second in pairs:
        for (verb, key), tools in keyed.items():
            if verb != first:
                continue
            for partner in keyed.get((second, key), ()):
                for tool in tools:
                    if tool.index == partner.index:
                        continue
                    members.setdefault(tool.index, PairMember(tool, partner, confirms=False))
                    members[partner.index] = PairMember(partner, tool, confirms=True)
    # The third step of the pattern withdraws a prepared operation (cancel_delete_files beside
    # prepare_delete_files); it acts only on what the preview staged, so it is part of the pair.
    for (verb, key), tools in keyed.items():
        if verb not in firsts or not any(members.get(t.index) for t in tools):
            continue
        prepared = next(t for t in tools if members.get(t.index))
        for withdraw in _WITHDRAW:
            for tool in withdrawing.get((withdraw, key), ()):
                members.setdefault(tool.index, PairMember(tool, prepared, confirms=False))
    return members


_SEPARATORS = rx.compile(r"[_\-\s]")


def _normalise(name: str) -> str:
    return _SEPARATORS.sub("", name.lower())


def guard_parameter(tool: Tool, guards: Guards) -> Parameter | None:
    """A confirmation/approval token, or a dry-run/preview/confirm flag the agent can use."""
    for param in tool.parameters:
        if param.depth > 1:
            continue
        key = _normalise(param.name)
        if not any(p.search(key) for p in guards.parameters):
            continue
        # A confirm flag that defaults to true confirms by itself; a dry-run flag defaulting to
        # true is the safe default, so only the former is discounted.
        if (param.types == ("boolean",) and param.schema.get("default") is True
                and "confirm" in key):
            continue
        return param
    return None


def guard_phrase(tool: Tool, guards: Guards) -> str | None:
    # An instruction to confirm may sit on the parameter it is about ("project: make sure the
    # user confirms which one"); the agent reads it there before it calls, as in the description.
    texts = [tool.description or ""]
    texts += [p.description for p in tool.parameters if p.depth == 0 and p.description]
    for text in texts:
        for pattern in guards.phrases:
            match = pattern.search(text)
            if match:
                return match.group(0)
    return None


def confirmation_path(tool: Tool, manifest: Manifest, guards: Guards,
                      members: Mapping[int, PairMember]) -> str | None:
    """How the tool's surface lets the user confirm before it acts, or None."""
    member = members.get(tool.index)
    if member is not None:
        return f'two-phase pair with "{member.partner.name}"'
    param = guard_parameter(tool, guards)
    if param is not None:
        return f'parameter "{param.name}"'
    phrase = guard_phrase(tool, guards)
    if phrase is not None:
        return f'description says "{phrase}"'
    return None
