"""Server-wide boilerplate: sentences a server repeats across many of its tools' descriptions.

An auth note, an error-code list, a "Returns JSON" footer or a "use the action parameter" line
that a server writes into most of its descriptions says nothing about any one tool: it cannot
tell the agent what this tool does, when to pick it over a sibling, or how two tools differ.
The per-tool text rules read a tool's *own* text, with those sentences blanked out, and one
server-level rule reports the repetition with its token cost.

A sentence is boilerplate when, after normalising case, white space, bullets and trailing
punctuation, it occurs in at least ``MIN_TOOLS`` described tools and in at least ``MIN_SHARE``
of them.  Headings and lead-ins (a line that ends with a colon, a Markdown heading) are never
boilerplate: "Use this tool when:" opens text that is the tool's own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from mcplint import regex_cache as rx
from mcplint.model import Manifest, Tool

# Three tools is the fewest where repetition is a habit rather than a coincidence; a fifth of
# the described tools keeps a caveat shared by a handful of a large server's tools ("Server/
# Data Center only" on 3 of 98) as what it is: a fact about those tools.
MIN_TOOLS = 3
MIN_SHARE = 0.2
# Shorter sentences are labels ("Example:", "Args") or too common to be a server's habit.
MIN_WORDS = 3

# A sentence ends at . ! ? followed by white space, or at a line break; "e.g." and "i.e." are
# not ends (the same boundaries as ``_text.sentences``).
_SENTENCE_END = rx.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s+|\n\s*")
_BULLET = rx.compile(r"^[\s>*\-•#\d.)]*")
_SPACE = rx.compile(r"\s+")
_WORD = rx.compile(r"[A-Za-z0-9]+")
# A token that names something rather than saying something: it has a colon, an underscore or
# a digit inside it, or a capital after a small letter (s3tables:ListTables, list_tables,
# createTable), or is quoted in backticks.
_IDENTIFIER = rx.compile(r"`[^`\n]+`"
                         r"|(?<![\w:])(?=[\w:./-]*(?:\w[:_]\w|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]))"
                         r"[\w:./-]+")


def _key(sentence: str) -> str | None:
    """The normalised form two copies of a sentence share, or None when it cannot be
    boilerplate (too short, a heading, a lead-in)."""
    text = sentence.strip()
    if not text or text.startswith("#") or text.endswith(":"):
        return None
    text = _BULLET.sub("", text)
    if len(_WORD.findall(text)) < MIN_WORDS:
        return None
    # A template filled in per tool ("You must have the s3tables:ListTables permission to use
    # this operation") is one sentence: the identifier in its slot is the only difference.
    text = _IDENTIFIER.sub("*", text)
    return _SPACE.sub(" ", text.lower()).rstrip(" .!?;")


class Span(NamedTuple):
    start: int
    end: int
    key: str | None


def spans(text: str) -> list[Span]:
    """The sentences of a text with their offsets and normalised keys."""
    found = []
    start = 0
    for end in [*(m for m in _SENTENCE_END.finditer(text)), None]:
        stop = end.start() if end is not None else len(text)
        if text[start:stop].strip():
            found.append(Span(start, stop, _key(text[start:stop])))
        if end is not None:
            start = end.end()
    return found


class Repeated(NamedTuple):
    """One repeated passage: sentences that the same tools share, in the order written."""

    sentences: tuple[str, ...]  # as the first tool writes them
    tools: tuple[Tool, ...]  # every tool whose description has them, in manifest order

    @property
    def text(self) -> str:
        return " ".join(self.sentences)


class Boilerplate(NamedTuple):
    """A server's boilerplate and each tool's own text."""

    keys: frozenset[str]
    own: dict[int, str]  # tool index → description with boilerplate blanked out
    passages: tuple[Repeated, ...]

    def own_text(self, tool: Tool) -> str:
        return self.own.get(tool.index, tool.description or "")


def find(manifest: Manifest) -> Boilerplate:
    """The boilerplate of one server (a fact of the whole manifest: build it once)."""
    described = [t for t in manifest.tools if (t.description or "").strip()]
    segmented = {t.index: spans(t.description or "") for t in described}
    counts: Counter[str] = Counter()
    for tool in described:
        counts.update({s.key for s in segmented[tool.index] if s.key})
    needed = max(MIN_TOOLS, MIN_SHARE * len(described))
    keys = frozenset(k for k, n in counts.items() if n >= needed)
    if not keys:
        return Boilerplate(keys, {}, ())
    own: dict[int, str] = {}
    holders: dict[str, list[Tool]] = {}
    written: dict[str, str] = {}
    templates: set[str] = set()
    for tool in described:
        text = tool.description or ""
        parts: list[str] = []
        last = 0
        for span in segmented[tool.index]:
            if span.key in keys:
                # A line break keeps the sentences on either side apart, as they were.
                parts.append(text[last:span.start])
                parts.append("\n")
                last = span.end
                if not holders.get(span.key) or holders[span.key][-1] is not tool:
                    holders.setdefault(span.key, []).append(tool)
                    sentence = text[span.start:span.end].strip()
                    written.setdefault(span.key, sentence)
                    if written[span.key] != sentence:
                        templates.add(span.key)
        if parts:
            parts.append(text[last:])
            own[tool.index] = "".join(parts)
    # A template is shown with its slots open, since each tool fills them in differently.
    for key in templates:
        written[key] = _IDENTIFIER.sub("…", written[key])
    return Boilerplate(keys, own, _passages(holders, written))


def _passages(holders: dict[str, list[Tool]], written: dict[str, str]
              ) -> tuple[Repeated, ...]:
    """Sentences grouped by the exact set of tools that repeat them: one passage each."""
    groups: dict[tuple[int, ...], list[str]] = {}
    for key, tools in holders.items():  # insertion order: first tool's order of writing
        groups.setdefault(tuple(t.index for t in tools), []).append(key)
    by_index = {t.index: t for tools in holders.values() for t in tools}
    passages = [Repeated(tuple(written[k] for k in keys), tuple(by_index[i] for i in indexes))
                for indexes, keys in groups.items()]
    return tuple(passages)


def own_texts(manifest: Manifest, tools: Sequence[Tool]) -> list[str]:
    found = find(manifest)
    return [found.own_text(t) for t in tools]
