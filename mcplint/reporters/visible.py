"""Third-party text as a reviewer must see it: what renders as nothing is shown.

A tool named ``delete_\\u202eelif\\u202c_safe`` displays as "delete_file_safe" wherever
the bidi override reaches a screen raw.  ``reveal`` writes every such character as an
escape, the way Python writes it in a string (``\\r``, ``\\x07``, ``\\u202e``,
``\\U000e0041``), so the report shows what the agent reads.  Escaped are: control
characters (Cc) but tab and newline; format characters (Cf: zero-width spaces and joiners,
bidi marks, embeddings, overrides and isolates, the BOM, the soft hyphen, tag characters,
...); lone surrogates; the line and paragraph separators; the fillers and joiners that are
letters or marks but draw nothing (U+034F, U+115F, U+1160, U+3164, U+FFA0); and a variation
selector that follows another (a base character takes one; a run of them is a payload).

What is written with such characters stays as it is: a zero-width joiner or non-joiner
between two visible non-ASCII characters (emoji sequences, Persian and Indic words) and the
tag characters of a subdivision flag.  CRLF becomes a newline.

A backslash in the original text is not escaped, so a literal ``\\u202e`` typed into a
description looks like a revealed one: that can only make a reviewer suspect too much, never
too little.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from mcplint import regex_cache as rx

# Categories whose characters draw nothing, or act on the text around them.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# Letters and marks by category that nonetheless draw nothing (SEC002 lists them too).
_BLANK = (0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0)
_KEPT_CONTROLS = frozenset({0x09, 0x0A})
_VARIATION_SELECTORS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
_TAGS = "\U000e0020-\U000e007e"
_CANCEL_TAG = "\U000e007f"
_BLACK_FLAG = "\U0001f3f4"


def _ranges(codes: list[int]) -> str:
    """A regex character class body for the code points, as ranges."""
    parts = []
    start = previous = codes[0]
    for code in [*codes[1:], -1]:
        if code == previous + 1:
            previous = code
            continue
        parts.append(re.escape(chr(start)) if start == previous
                     else f"{re.escape(chr(start))}-{re.escape(chr(previous))}")
        start = previous = code
    return "".join(parts)


@cache
def _pattern() -> re.Pattern[str]:
    # Format and control characters live in planes 0, 1 and 14 only; scanning those takes
    # ~50 ms, once, and follows the Unicode version of the running Python.
    planes = (*range(0x20000), *range(0xE0000, 0xF0000))
    codes = sorted({c for c in planes if c not in _KEPT_CONTROLS
                    and unicodedata.category(chr(c)) in _HIDDEN_CATEGORIES} | set(_BLANK))
    hidden = _ranges(codes)
    visible_non_ascii = f"[^\\x00-\\x7f{hidden}]"
    return rx.compile(
        # Kept: a flag's tag sequence, a joiner inside a script or an emoji sequence, CRLF.
        f"(?P<keep>{_BLACK_FLAG}[{_TAGS}]{{1,12}}{_CANCEL_TAG}"
        f"|(?<={visible_non_ascii})[\u200c\u200d](?={visible_non_ascii}))"
        "|(?P<crlf>\r\n)"
        # Escaped: a variation selector after another, and every hidden character.
        f"|(?<=[{_VARIATION_SELECTORS}])[{_VARIATION_SELECTORS}]+"
        f"|[{hidden}]+"
    )


def escape(char: str) -> str:
    """One character as Python writes it in a string literal."""
    code = ord(char)
    if char == "\r":
        return "\\r"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _replace(match: re.Match[str]) -> str:
    if match.group("keep") is not None:
        return match.group()
    if match.group("crlf") is not None:
        return "\n"
    return "".join(escape(char) for char in match.group())


def reveal(text: str) -> str:
    """``text`` with every invisible, bidi or control character written as its escape."""
    if text.isascii():
        if text.isprintable() or _ascii_plain(text):
            return text  # the common case: nothing to do
    elif _plain(text):
        return text
    return _pattern().sub(_replace, text)


_VARIATION_RUN = rx.compile(f"[{_VARIATION_SELECTORS}]{{2}}")


def _plain(text: str) -> bool:
    """Whether non-ASCII text has nothing to reveal, without building ``_pattern``.

    Every hidden category (Cc, Cf, Cs, Zl, Zp) is unprintable to Python, so printable text
    (tab and newline aside) can only hold the blank letters or a run of variation selectors;
    building the full pattern costs ~50 ms a run, paid now only for text that needs it.
    """
    return (text.replace("\n", "").replace("\t", "").isprintable()
            and not any(chr(code) in text for code in _BLANK)
            and _VARIATION_RUN.search(text) is None)


_ASCII_HIDDEN = rx.compile("[\x00-\x08\x0b-\x1f\x7f]")


def _ascii_plain(text: str) -> bool:
    return _ASCII_HIDDEN.search(text) is None


def reveal_line(text: str) -> str:
    """``reveal`` for text that must stay on one line (a name, a path, an error line): a
    newline is written as an escape too."""
    shown = reveal(text)
    return shown.replace("\n", "\\n") if "\n" in shown else shown
