"""Rule documentation as HTML: the little Markdown the packs' ``[rules.docs]`` use, and no more.

The docs are written in the packs, but a report also carries third-party text, so this converter
trusts nothing it is given: every character of the input is escaped (after its invisible and
bidi characters are written out, as everywhere in the report), and the only markup it produces
is its own fixed set of tags, never an attribute. It knows

- paragraphs, separated by a blank line;
- lists, of lines that start with ``- `` or ``* `` (a following indented line continues an item);
- fenced blocks, between lines of three or more backticks or tildes, as ``<pre><code>``;
- code spans, between equal runs of backticks, as ``<code>`` (CommonMark's rule: a run is closed
  by the next run of the same length, and one space is trimmed from each end).

Anything else, emphasis and links included, stays the text it was. A Markdown library would
know more syntax, which here means more ways for text to become markup, and one more dependency.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from mcplint import regex_cache as rx
from mcplint.reporters.visible import reveal

_FENCE = rx.compile(r"^ {0,3}(`{3,}|~{3,})[^`]*$")
_ITEM = rx.compile(r"^[-*] +")


def _text(text: str) -> str:
    return str(escape(reveal(text)))


def inline(text: str) -> Markup:
    """One line or paragraph: code spans become ``<code>``, everything else is escaped text."""
    out: list[str] = []
    at = 0
    plain = 0  # start of the text not yet written
    while True:
        start = text.find("`", at)
        if start < 0:
            break
        end = start
        while end < len(text) and text[end] == "`":
            end += 1
        run = end - start
        close = end
        while True:
            close = text.find("`" * run, close)
            if close < 0:
                break
            after = close + run
            if (after < len(text) and text[after] == "`") or text[close - 1] == "`":
                # Part of a longer run: not the closing one. Skip the whole run.
                while after < len(text) and text[after] == "`":
                    after += 1
                close = after
                continue
            break
        if close < 0:
            at = end  # an unmatched run is literal backticks
            continue
        code = text[end:close].replace("\n", " ")
        if len(code) > 1 and code[0] == " " and code[-1] == " " and code.strip(" "):
            code = code[1:-1]
        out.append(_text(text[plain:start]))
        out.append(f"<code>{_text(code)}</code>")
        at = plain = close + run
    out.append(_text(text[plain:]))
    return Markup("".join(out))


def _paragraph(lines: list[str]) -> str:
    return f"<p>{inline(chr(10).join(line.strip() for line in lines))}</p>"


def _list(lines: list[str]) -> str:
    items: list[list[str]] = []
    for line in lines:
        match = _ITEM.match(line)
        if match:
            items.append([line[match.end():]])
        else:
            items[-1].append(line.strip())
    return "<ul>" + "".join(f"<li>{inline(chr(10).join(item))}</li>" for item in items) + "</ul>"


def _block(lines: list[str]) -> str:
    """A run of lines between blank lines: a list if it opens with an item, else a paragraph;
    a list item's unindented, unbulleted line ends the list and opens a paragraph."""
    html = []
    while lines:
        if _ITEM.match(lines[0]):
            end = 1
            while end < len(lines) and (_ITEM.match(lines[end]) or lines[end][:1] in (" ", "\t")):
                end += 1
            html.append(_list(lines[:end]))
        else:
            end = 1
            while end < len(lines) and not _ITEM.match(lines[end]):
                end += 1
            html.append(_paragraph(lines[:end]))
        lines = lines[end:]
    return "".join(html)


def blocks(text: str) -> Markup:
    """Paragraphs, lists and fenced blocks, each escaped throughout."""
    html: list[str] = []
    pending: list[str] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        if fence:
            marker = fence.group(1)
            if pending:
                html.append(_block(pending))
                pending = []
            body: list[str] = []
            index += 1
            # Closed by a line of the same character, at least as long; or by the end.
            while index < len(lines) and not re.fullmatch(
                    rf" {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}\s*", lines[index]):
                body.append(lines[index])
                index += 1
            index += 1
            html.append(f"<pre><code>{_text(chr(10).join(body))}</code></pre>")
            continue
        if line.strip():
            pending.append(line)
        elif pending:
            html.append(_block(pending))
            pending = []
        index += 1
    if pending:
        html.append(_block(pending))
    return Markup("".join(html))
