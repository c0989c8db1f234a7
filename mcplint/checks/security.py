"""Tool poisoning and shadowing: instructions hidden in tool text, deceptive Unicode, and a
server surface that lets one injected instruction both run code and reach out.

Every pattern is a rule option.  Hidden instructions are matched per text (a tool's or a
parameter's description, title) by named families; a family can be *weak*, reported only when a
strong family matched the same text, because on its own it is ordinary documentation ("requires
an API key", "before using this tool, call list_tables").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from mcplint import regex_cache as rx
from mcplint.checks._text import Patterns, compile_patterns, first_match
from mcplint.checks.base import PATTERNS, Context, Hit, Target, check
from mcplint.findings import Severity
from mcplint.model import Manifest, Tool

_PATTERNS = PATTERNS

# Texts longer than this are cut before matching, so a pathological description cannot make a
# run slow; injected instructions sit well inside it.
_MAX_TEXT = 20_000


def _texts(tool: Tool) -> Iterator[tuple[str, str, str]]:
    """(where, pointer, text) for every free text of a tool an agent reads."""
    for key in ("description", "title"):
        value = tool.raw.get(key)
        if isinstance(value, str):
            yield key, tool.child(key), value
    if tool.annotations is not None and tool.annotations.title:
        yield "annotations title", tool.annotations.pointer + "/title", tool.annotations.title
    for param in tool.parameters:
        for key in ("description", "title"):
            value = param.schema.get(key)
            if isinstance(value, str):
                yield (f'parameter "{param.path}" {key}', f"{param.pointer}/{key}", value)


def _quoted(text: str, start: int, end: int) -> bool:
    """Whether a match sits inside a double-quoted example on its line: documentation of a
    jailbreak classifier quotes "ignore your instructions" without giving that order."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    before = text[line_start:start]
    after = text[end:line_end if line_end >= 0 else len(text)]
    opened = before.count('"') % 2 == 1 or before.count("“") > before.count("”")
    return opened and ('"' in after or "”" in after)


def _candidates(patterns: Patterns, text: str) -> Sequence[int]:
    """The patterns that could match: the others name words the text does not have."""
    return patterns.prefilter.candidates(text) if patterns.prefilter else range(len(patterns))


def _excerpt(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


_FAMILY_OPTIONS: dict[str, Any] = {
    "families": {"type": "object", "additionalProperties": _PATTERNS,
                 "description": "Named pattern families: family name → regular expressions "
                                "(case-insensitive)."},
    "weak-families": {"type": "array", "items": {"type": "string"},
                      "description": "Families reported only when a strong family matched the "
                                     "same text."},
}


@check("hidden-instructions", Target.TOOL, fields={"families", "where", "excerpt"},
       options=_FAMILY_OPTIONS)
def hidden_instructions(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    families = {name: compile_patterns(f"families.{name}", patterns)
                for name, patterns in options["families"].items()}
    weak = set(options["weak-families"])
    # Only a strong family makes a finding, so texts where none matches are skipped after one
    # search (the weak ones, "token" or "API key", occur in ordinary documentation).
    strong = compile_patterns("families", [p for name, patterns in options["families"].items()
                                           if name not in weak for p in patterns])
    for where, pointer, text in _texts(tool):
        text = text[:_MAX_TEXT]
        if not any(strong[i].search(text) for i in _candidates(strong, text)):
            continue
        matched: dict[str, str] = {}
        for name, patterns in families.items():
            found = next((m.group(0) for i in _candidates(patterns, text)
                          for m in patterns[i].finditer(text)
                          if not _quoted(text, m.start(), m.end())), None)
            if found is not None:
                matched[name] = found
        found_strong = [name for name in matched if name not in weak]
        if not found_strong:
            continue
        first = found_strong[0]
        yield Hit(pointer, {"families": ", ".join(matched), "where": where,
                            "excerpt": _excerpt(matched[first])}, tool)


# --- deceptive Unicode ----------------------------------------------------------------------

def _ranges(spec: list[str]) -> list[tuple[int, int]]:
    ranges = []
    for item in spec:
        low, _, high = item.partition("-")
        try:
            ranges.append((int(low, 16), int(high or low, 16)))
        except ValueError as exc:
            raise ValueError(f"invisible: {item!r} is not a hex code point or range") from exc
    return ranges


def _is_symbol(char: str) -> bool:
    return bool(char) and ord(char) > 0x7F and not unicodedata.category(char).startswith("L")


def _listed(char: str, kinds: Mapping[str, list[tuple[int, int]]]) -> bool:
    code = ord(char)
    return any(low <= code <= high for ranges in kinds.values() for low, high in ranges)


def _invisible_kind(text: str, i: int, kinds: Mapping[str, list[tuple[int, int]]]) -> str | None:
    code = ord(text[i])
    for kind, ranges in kinds.items():
        if any(low <= code <= high for low, high in ranges):
            before = text[i - 1] if i > 0 else ""
            after = text[i + 1] if i + 1 < len(text) else ""
            # Joiners inside emoji sequences and non-Latin scripts are how those are written;
            # tag characters after a black flag spell a subdivision flag.  A joiner next to
            # another invisible character joins nothing anyone sees.
            if code in (0x200C, 0x200D) and before and after and ord(before) > 0x7F and (
                    ord(after) > 0x7F or _is_symbol(after) or after == "\ufe0f") and not (
                    _listed(before, kinds) or _listed(after, kinds)):
                return None
            if 0xE0000 <= code <= 0xE007F and _in_flag(text, i):
                return None
            return kind
    return None


def _in_flag(text: str, i: int) -> bool:
    j = i
    while j > 0 and 0xE0000 <= ord(text[j - 1]) <= 0xE007F:
        j -= 1
    return j > 0 and text[j - 1] == "\U0001F3F4"


_WORD = rx.compile(r"[^\W\d_]+", re.UNICODE)


def _homoglyph_word(text: str, confusables: str) -> str | None:
    """A word of ASCII letters with a look-alike letter of another script mixed in."""
    for match in _WORD.finditer(text):
        word = match.group(0)
        if any(c in confusables for c in word) and any(c.isascii() for c in word):
            return word
    return None


def _identifier_texts(tool: Tool) -> Iterator[tuple[str, str, str]]:
    if tool.name:
        yield "name", tool.child("name") if "name" in tool.raw else tool.pointer, tool.name
    yield from _texts(tool)
    for param in tool.parameters:
        yield f'parameter name "{param.path}"', param.pointer, param.name


@check("deceptive-unicode", Target.TOOL, fields={"problem", "where", "plain"},
       options={"invisible": {"type": "object",
                              "additionalProperties": {"type": "array",
                                                       "items": {"type": "string"}},
                              "description": "Kinds of invisible characters: kind → hex code "
                                             "points or ranges (\"200B-200D\")."},
                "mild-in-prose": {"type": "array", "items": {"type": "string"},
                                  "description": "Kinds reported as a warning, not an error, "
                                                 "when found only in descriptions and titles."},
                "confusables": {"type": "string",
                                "description": "Letters of other scripts that look like Latin "
                                               "letters."}})
def deceptive_unicode(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    kinds = {kind: _ranges(spec) for kind, spec in options["invisible"].items()}
    confusables = options["confusables"]
    for where, pointer, text in _identifier_texts(tool):
        text = text[:_MAX_TEXT]
        if text.isascii():
            continue
        found: dict[str, list[str]] = {}
        hidden: set[int] = set()
        for i, char in enumerate(text):
            if char < "\x80":  # every invisible or look-alike character is outside ASCII
                continue
            kind = _invisible_kind(text, i, kinds)
            if kind is not None:
                hidden.add(i)
                found.setdefault(kind, [])
                code = f"U+{ord(text[i]):04X}"
                if code not in found[kind]:
                    found[kind].append(code)
        problems = [f"{kind} characters ({', '.join(codes[:4])})"
                    for kind, codes in found.items()]
        # Zero-width spaces in prose are mostly copy-and-paste residue; bidi and tag
        # characters, and anything odd in a name, are not.
        mild = (set(found) <= set(options["mild-in-prose"])
                and not where.startswith(("name", "parameter name")))
        word = _homoglyph_word(text, confusables)
        if word is not None:
            odd = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '?')}"
                            for c in dict.fromkeys(word) if c in confusables)
            problems.append(f'the word "{word}" mixing Latin with look-alike letters ({odd})')
        if problems:
            severity = Severity.WARNING if mild and word is None else None
            fields = {"problem": "; ".join(problems), "where": where}
            if where.startswith(("name", "parameter name")):
                # A name is short enough to spell out: without the invisible characters, with
                # the look-alike word in Latin letters.
                plain = "".join(c for i, c in enumerate(text) if i not in hidden)
                if word is not None:
                    plain = plain.replace(word, "".join(_LATIN.get(c, c) for c in word))
                if plain != text and plain:
                    fields["plain"] = plain
            yield Hit(pointer, fields, tool, severity=severity)


# The Latin letter each default look-alike stands for; a look-alike added in the options
# without an entry here stays as it is in the suggestion.
_LATIN = dict(zip("АВЕЅІЈКМНОРСТХУаеіјорсухѕԁһԛԝҮӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧοαρνικτυχ",
                  "ABESIJKMHOPCTXYaeijopcyxsdhqwYlABEZHIKMNOPTYXoapviktux", strict=True))


# --- over-privileged surface ----------------------------------------------------------------

def _tool_words(tool: Tool) -> str:
    return " ".join(tool.name_tokens)


def _matches(tool: Tool, names: Patterns, descriptions: Patterns) -> bool:
    words = _tool_words(tool)
    text = (tool.description or "")[:_MAX_TEXT]
    return (first_match(names, words) is not None
            or first_match(descriptions, text) is not None)


@check("over-privileged-surface", Target.SERVER, fields={"executors", "egress"},
       options={"execution-names": {**_PATTERNS, "description": "Regular expressions over a "
                                    "tool name's words joined by spaces (\"run shell "
                                    "command\") for code or command execution."},
                "execution-descriptions": {**_PATTERNS, "description": "The same, over "
                                           "descriptions."},
                "egress-names": {**_PATTERNS, "description": "Regular expressions over name "
                                 "words for outbound network access or file reads."},
                "egress-descriptions": {**_PATTERNS, "description": "The same, over "
                                        "descriptions."}})
def over_privileged_surface(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                            ) -> Iterator[Hit]:
    exec_names = compile_patterns("execution-names", options["execution-names"])
    exec_text = compile_patterns("execution-descriptions", options["execution-descriptions"])
    out_names = compile_patterns("egress-names", options["egress-names"])
    out_text = compile_patterns("egress-descriptions", options["egress-descriptions"])
    executors = [t for t in manifest.tools if _matches(t, exec_names, exec_text)]
    if not executors:
        return
    chosen = {t.index for t in executors}
    egress = [t for t in manifest.tools
              if t.index not in chosen and _matches(t, out_names, out_text)]
    if not egress:
        return
    related = tuple((t, t.child("name")) for t in (executors + egress)[:6])
    yield Hit(manifest.tools_pointer,
              {"executors": _listing(executors), "egress": _listing(egress)},
              related=related)


def _listing(tools: list[Tool], limit: int = 4) -> str:
    names = ", ".join(f'"{t.label}"' for t in tools[:limit])
    return names + (f" and {len(tools) - limit} more" if len(tools) > limit else "")


CHECKS = (hidden_instructions, deceptive_unicode, over_privileged_surface)
