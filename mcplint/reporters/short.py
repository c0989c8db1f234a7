"""The one-line form of a finding's message, for the concise terminal output.

Every rule's message starts by saying what is wrong, with the names (``Tool "x" has a
description that only restates its name: ...``); the why and the how-to-fix follow.  The short
message is that opening: the first sentence, and when that is still long, its first clause
(up to a colon or semicolon), then without its asides in parentheses, then up to its first
", so" or ", and".  Quoted names and brackets are never cut into: a tool called "a. b" or a
description quoted in the message ("Diagnose Kubernetes Resources.") stays whole.

It is computed by the reporter, for the findings it shows, so a lint run that prints JSON or a
count pays nothing for it.
"""

from __future__ import annotations

from mcplint import regex_cache as rx

# Past LONG characters a sentence is cut at its first clause; past WIDE, its asides go.
LONG = 90
WIDE = 100
_OPEN = {"(": ")", "[": "]", "{": "}"}
_QUOTES = {'"': '"', "`": "`", "\u201c": "\u201d"}
_ABBREVIATIONS = frozenset(("e.g", "i.e", "etc", "vs", "cf"))
# A colon before a JSON literal is a key and its value ("readOnlyHint: true"), not a clause.
_VALUE = rx.compile(r"(true|false|null)\b")
_WORD = rx.compile(r"[A-Za-z]\w*")
# Not ", which": what follows it is often the problem itself ("..., which changes state").
_CONNECTORS = (", so ", ", and ")


# What the scan must see: a quoted stretch (skipped whole), a bracket, or a punctuation mark.
_TOKEN = rx.compile(r'"[^"]*"?|`[^`]*`?|\u201c[^\u201d]*\u201d?|[()\[\]{}.?!:;,]')


def _top_level(text: str, stop_at_sentence: bool = False) -> list[int]:
    """The indices of the punctuation marks (``.?!:;,``) of ``text`` outside quotes and
    brackets; with ``stop_at_sentence``, only up to the first sentence's end, which is then
    the last index."""
    found = []
    closers: list[str] = []
    for match in _TOKEN.finditer(text):
        char = match.group()
        if len(char) > 1 or char in _QUOTES:  # a quoted stretch
            continue
        if char in _OPEN:
            closers.append(_OPEN[char])
        elif closers:
            if char == closers[-1]:
                closers.pop()
        elif char not in ")]}":
            index = match.start()
            found.append(index)
            if stop_at_sentence and char in ".?!" and _ends_sentence(text, index):
                break
    return found


def _ends_sentence(text: str, index: int) -> bool:
    """Whether the full stop (or ? or !) at ``index`` ends a sentence: a blank or the end
    follows, it ends no abbreviation, and the next word does not start in lower case."""
    if text[index + 1:index + 2] not in ("", " "):
        return False
    word = text[:index].rsplit(" ", 1)[-1].lower()
    return word not in _ABBREVIATIONS and not text[index + 2:index + 3].islower()


_QUOTED = rx.compile(r'"[^"]*"')


def _says_something(prefix: str) -> bool:
    """A clause worth keeping by itself: three words outside the quoted names."""
    bare = _QUOTED.sub("", prefix)
    return len(_WORD.findall(bare)) >= 3


def _first_clause(text: str, top: list[int]) -> str:
    for index in top:
        if index >= len(text):
            break
        if (text[index] in ":;" and text[index + 1:index + 2] == " "
                and not _VALUE.match(text, index + 2) and _says_something(text[:index])):
            return text[:index]
    return text


def _without_asides(text: str) -> str:
    """``text`` without its top-level parenthesised asides (and the space before each)."""
    kept: list[str] = []
    depth = 0
    quote = ""
    for char in text:
        if depth == 0 and quote:
            quote = "" if char == quote else quote
        elif depth == 0 and char in _QUOTES:
            quote = _QUOTES[char]
        elif char == "(" and (depth or (kept and kept[-1] == " ")):
            # An aside starts after a space; "tool(s)" is a word.
            if depth == 0:
                kept.pop()
            depth += 1
            continue
        elif char == ")" and depth:
            depth -= 1
            continue
        if depth == 0:
            kept.append(char)
    return "".join(kept)


def _before_connector(text: str) -> str:
    top = set(_top_level(text))
    for connector in _CONNECTORS:
        start = 0
        while (index := text.find(connector, start)) >= 0:
            if index in top and _says_something(text[:index]):
                return text[:index]
            start = index + 1
    return text


def short_message(message: str, token_method: str = "") -> str:
    """The opening of ``message`` that says what is wrong, on one line, without a full stop.

    ``token_method`` (how tokens were counted, which the report prints once at the end) is
    left out of token counts quoted in the message.
    """
    if token_method:
        message = message.replace(f"; {token_method}", "").replace(f" ({token_method})", "")
    text = " ".join(message.split())  # one line, whatever the message's layout
    # Most messages are several sentences; only the first is read.
    top = _top_level(text, stop_at_sentence=True)
    if top and text[top[-1]] in ".?!" and _ends_sentence(text, top[-1]):
        text = text[:top[-1]]
    if len(text) > LONG:
        text = _first_clause(text, top)
    if len(text) > WIDE:
        text = _without_asides(text)
    if len(text) > WIDE:
        text = _before_connector(text)
    return text.rstrip(" .,;:") or " ".join(message.split())
