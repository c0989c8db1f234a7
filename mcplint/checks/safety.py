"""Write safety: tools that change state without a confirmation path, and their annotations.

The effect of a tool (read, write, destructive) and its confirmation paths are read by
``_writes``; these checks decide what to report about them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, cast

from mcplint.checks._suggest import add_members, certainly_reads
from mcplint.checks._text import compile_patterns, lowered
from mcplint.checks._writes import (
    EFFECT_OPTIONS,
    GUARD_OPTIONS,
    Guards,
    Reading,
    Vocabulary,
    confirmation_path,
    detaches,
    named_effect,
    read_effect,
    two_phase_members,
)
from mcplint.checks.base import PATTERNS, WORDS, Context, Hit, Target, check
from mcplint.findings import Severity
from mcplint.model import Tool

_LEVEL = {"enum": ["destructive", "write"],
          "description": "destructive: report destructive tools only; write: report the other "
                         "writes only, so each tool is reported by one rule."}


_SESSION_OPTIONS: dict[str, Any] = {
    "info-verbs": {**WORDS, "default": [],
                   "description": "Write verbs that only move around the agent's own session "
                                  "(navigate, go back, scroll): SAFE002 reports them at info, "
                                  "and SAFE004 lets readOnlyHint: true stand for them."},
    "session-objects": {**WORDS, "default": [],
                        "description": "Name words of things that belong to the agent's own "
                                       "throwaway session (page, tab, dialog), treated as "
                                       "info-verbs are."},
}


def _own_session(tool: Tool, reading: Reading, options: Mapping[str, Any]) -> bool:
    """Whether the write only changes the agent's own session (opens a tab, goes back)."""
    return ((reading.verb or "").lower() in lowered(options["info-verbs"])
            or any(token in lowered(options["session-objects"]) for token in tool.name_tokens))


@check("unconfirmed-write", Target.TOOL, fields={"effect", "reason", "undo"},
       options={**EFFECT_OPTIONS, **GUARD_OPTIONS, "level": _LEVEL, **_SESSION_OPTIONS})
def unconfirmed_write(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    # A tool that declares readOnlyHint: true yet reads as a write is SAFE004's contradiction;
    # reporting it here too would be two findings for one mistake.
    if _declared(tool, "readOnlyHint") is True:
        return
    vocab = Vocabulary.from_options(options)
    reading = _effect(tool, ctx, vocab)
    wanted = "destructive" if options["level"] == "destructive" else "write"
    if reading.effect != wanted:
        return
    guards = Guards.from_options(options)
    members = two_phase_members(ctx.manifest, guards.pairs)
    if confirmation_path(tool, ctx.manifest, guards, members) is not None:
        return
    effect = ("destroys data or acts irreversibly" if wanted == "destructive"
              else "changes state")
    # destructiveHint: true has told the client to ask before each call; what is missing is a
    # way for the user to see what will happen, which is a lesser fault than hiding it.
    hinted = wanted == "destructive" and _declared(tool, "destructiveHint") is True
    # An in-place change read as destructive only by its verb was right in 2 of 6 audited
    # findings, against 15 of 15 for the other unhinted ones: under the precision a warning
    # needs.  A description that says it overwrites or cannot be undone is evidence of its own.
    in_place = (wanted == "destructive" and reading.verb is not None
                and reading.verb.lower() in lowered(options["in-place-verbs"])
                and not any(p.search(tool.description or "") for p in vocab.destructive_phrases))
    # Opening a tab, going back or closing a dialog changes only the agent's own session; a
    # confirmation before each would be noise (most such findings were judged so).
    own_session = wanted == "write" and _own_session(tool, reading, options)
    severity = (Severity.WARNING if hinted
                else Severity.INFO if in_place or own_session else None)
    undo = "it cannot be taken back"
    if in_place:
        # set_reminder_time overwrites one value; saying it destroys data overstates it.
        effect, undo = "overwrites a value in place", "the value it replaced is gone"
    yield Hit(tool.child("name") if "name" in tool.raw else tool.pointer,
              {"effect": effect, "reason": reading.reason, "undo": undo}, tool,
              severity=severity)


def _effect(tool: Tool, ctx: Context, vocab: Vocabulary) -> Reading:
    """``read_effect``, once a tool: SAFE001-003 read every tool with the same vocabulary."""
    # Keyed by the vocabulary's identity, which the memo keeps alive, so the key is not reused.
    key = f"safety.effects.{id(vocab)}"
    held, readings = ctx.memo(key, lambda manifest: (vocab, {}))
    readings = cast(dict[int, Reading], readings)
    if held is not vocab:  # pragma: no cover - an id can only recur once the first is freed
        return read_effect(tool, vocab)
    reading = readings.get(tool.index)
    if reading is None:
        reading = readings[tool.index] = read_effect(tool, vocab)
    return reading


def _declared(tool: Tool, key: str) -> Any:
    return tool.annotations.declared.get(key) if tool.annotations is not None else None


@check("missing-annotations", Target.TOOL, fields={"effect", "reason", "advice", "add", "place"},
       options={**EFFECT_OPTIONS,
                "certain-read-verbs": {**WORDS, "default": [],
                                       "description": "Read verbs that, in both the name and "
                                                      "the description's first word, make "
                                                      "check --fix declare readOnlyHint: "
                                                      "true."}})
def missing_annotations(tool: Tool, ctx: Context, options: Mapping[str, Any]
                        ) -> Iterator[Hit]:
    vocab = Vocabulary.from_options(options)
    reading = _effect(tool, ctx, vocab)
    read_only = _declared(tool, "readOnlyHint")
    destructive = _declared(tool, "destructiveHint")
    pointer = tool.annotations.pointer if tool.annotations is not None else tool.pointer
    # "advice" stays for user packs' messages; the rule itself words "add" in its suggestion.
    if reading.effect == "read":
        # A deliberate readOnlyHint: false is a statement, not an omission.
        if read_only is None:
            add, place, edits = add_members(tool, {"readOnlyHint": True})
            # readOnlyHint: true lets clients run the tool unasked, so it is applied only
            # where the tool's own text makes the read certain.
            certain = certainly_reads(tool, vocab, reading,
                                      frozenset(w.lower() for w in options["certain-read-verbs"]))
            yield Hit(pointer, {"effect": "only reads", "reason": reading.reason,
                                "advice": f"Declare {add}", "add": add, "place": place},
                      tool, severity=Severity.INFO, edits=edits if certain else ())
        return
    if read_only is None and destructive is None:
        add, place, edits = add_members(
            tool, {"readOnlyHint": False, "destructiveHint": reading.effect == "destructive"})
        # For a destructive tool both hints are the spec's defaults: writing them changes no
        # client's behaviour and only documents it.  destructiveHint: false is a claim that
        # relaxes a client's caution, so it is suggested, never applied.
        yield Hit(pointer, {"effect": "changes state", "reason": reading.reason,
                            "advice": f"Declare {add}", "add": add, "place": place},
                  tool, severity=Severity.WARNING,
                  edits=edits if reading.effect == "destructive" else ())


@check("contradicting-annotations", Target.TOOL,
       fields={"hint", "problem", "advice", "current", "fixed"},
       options={**EFFECT_OPTIONS, **_SESSION_OPTIONS,
                "two-phase-pairs": GUARD_OPTIONS["two-phase-pairs"],
                "delete-verbs": {"type": "array", "items": {"type": "string", "minLength": 1},
                                 "description": "Name words of tools that delete, for which "
                                                "destructiveHint: false is a contradiction."}})
def contradicting_annotations(tool: Tool, ctx: Context, options: Mapping[str, Any]
                              ) -> Iterator[Hit]:
    notes = tool.annotations
    if notes is None:
        return
    vocab = Vocabulary.from_options(options)
    pairs = tuple((a.lower(), b.lower()) for a, b in options["two-phase-pairs"])
    member = two_phase_members(ctx.manifest, pairs).get(tool.index)
    # The preview side of a two-phase pair writes nothing, whatever its name's object says.
    previews = member is not None and not member.confirms
    if notes.declared.get("readOnlyHint") is True and not previews:
        # The annotation itself must not vouch for the tool, so judge it without them.
        # Only the name or a selector outweighs the author's word: a description's first verb
        # is often about the result ("Create a buffer around a geometry", "Run an
        # aggregation"), and a tool that only changes the agent's own session (selecting a
        # page, connecting) leaves the environment the hint is about unchanged.
        reading = named_effect(_without_annotations(tool), vocab)
        if (reading is not None and reading.effect != "read" and reading.verb is not None
                and not _own_session(tool, reading, options)):
            yield Hit(notes.pointer + "/readOnlyHint",
                      {"hint": "readOnlyHint: true",
                       "current": '"readOnlyHint": true', "fixed": '"readOnlyHint": false',
                       "problem": f"but {reading.reason}, which changes state",
                       "advice": "Set readOnlyHint to false (and destructiveHint to say whether "
                                 "it destroys data), or rename the tool if it only reads"},
                      tool)
    deletes = lowered(options["delete-verbs"])
    verb = next((t for t in tool.name_tokens if t in deletes), None)
    # destructiveHint: false is right for removing a label or a member: it can be re-added.
    if (notes.declared.get("destructiveHint") is False and verb is not None and not previews
            and not detaches(tool, vocab)):
        yield Hit(notes.pointer + "/destructiveHint",
                  {"hint": "destructiveHint: false",
                   "current": '"destructiveHint": false', "fixed": '"destructiveHint": true',
                   "problem": f'but its name says "{verb}", which destroys data',
                   "advice": "Set destructiveHint to true so clients ask before calling it"},
                  tool)


def _without_annotations(tool: Tool) -> Tool:
    return Tool(tool.index, tool.pointer, tool.position,
                {k: v for k, v in tool.raw.items() if k != "annotations"},
                tool.parameters, None)


_CONFIRM_OPTIONS: dict[str, Any] = {
    "two-phase-pairs": GUARD_OPTIONS["two-phase-pairs"],
    "preview-phrases": {**PATTERNS,
                        "description": "Regular expressions for text telling the agent to show "
                                       "the preview to the user before confirming."},
    "decline-phrases": {**PATTERNS,
                        "description": "Regular expressions for text telling the agent what "
                                       "to do when the user says no."},
}


@check("confirm-without-workflow", Target.TOOL, fields={"partner", "missing"},
       options=_CONFIRM_OPTIONS)
def confirm_without_workflow(tool: Tool, ctx: Context, options: Mapping[str, Any]
                             ) -> Iterator[Hit]:
    pairs = tuple((a.lower(), b.lower()) for a, b in options["two-phase-pairs"])
    member = two_phase_members(ctx.manifest, pairs).get(tool.index)
    if member is None or not member.confirms:
        return
    text = tool.description or ""
    missing = []
    previews = compile_patterns("preview-phrases", options["preview-phrases"])
    declines = compile_patterns("decline-phrases", options["decline-phrases"])
    if not any(p.search(text) for p in previews):
        missing.append("to show the preview to the user and wait for their yes")
    if not any(p.search(text) for p in declines):
        missing.append("what to do when the user says no")
    if missing:
        pointer = tool.child("description") if "description" in tool.raw else tool.pointer
        yield Hit(pointer, {"partner": member.partner.name, "missing": " or ".join(missing)},
                  tool, related=((member.partner, member.partner.child("name")),))


CHECKS = (unconfirmed_write, missing_annotations, contradicting_annotations,
          confirm_without_workflow)
