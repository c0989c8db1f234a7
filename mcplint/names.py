"""Facts about identifiers that several rules need: tokens, style, leading verb."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from mcplint import regex_cache as rx

# ``snake-camel`` is words joined by "_" where a part may itself be camelCase, as in generated
# API clients (``bitable_v1_appTable_create``).  ``single`` is one lower-case word, which fits
# every style; ``mixed`` is more than one separator, or capitals where the style has none.
Style = Literal["snake", "camel", "pascal", "kebab", "dotted", "snake-camel", "single", "mixed",
                "other"]

STYLE_LABELS: dict[str, str] = {
    "snake": "snake_case",
    "camel": "camelCase",
    "pascal": "PascalCase",
    "kebab": "kebab-case",
    "dotted": "dot.case",
    "snake-camel": "snake_case with camelCase parts",
    "single": "a single lower-case word",
    "mixed": "a mix of styles",
    "other": "no recognisable style",
}

# Acronym runs ("HTTPResponse" → "HTTP", "Response") and digit runs are their own tokens.
# A digit run stays with the word before it ("v2", "base64", "s3").
_WORD = rx.compile(r"[A-Z]+[0-9]*(?![a-z])|[A-Z]?[a-z]+[0-9]*|[0-9]+")
_SEPARATORS = "_-."
_PART = rx.compile(r"[_.\-]+")


# Names are split again by every rule that reads them; the answer never changes.
@lru_cache(maxsize=16384)
def split_name(name: str) -> tuple[str, ...]:
    """Lower-case word tokens of a name written in any of snake, camel, kebab or dotted style."""
    return tuple(word.lower() for word in _WORD.findall(name))


def _part_case(part: str) -> str:
    """lower (``user``, ``v2``), upper (an acronym: ``API``, ``S3``), camel, pascal or other."""
    letters = [c for c in part if c.isalpha()]
    if not letters or all(c.islower() for c in letters):
        return "lower"
    if all(c.isupper() for c in letters):
        return "upper"
    if not part[0].isalpha():
        return "other"
    return "pascal" if part[0].isupper() else "camel"


_NAME_CHARS = rx.compile(r"[A-Za-z0-9_.\-]+")


def name_style(name: str) -> Style:
    """The case convention a name is written in; ``single`` fits every style (``search``).

    An all-capitals part between separators is an acronym and fits a lower-case style
    (``API-get-user`` is kebab, ``list_S3_buckets`` snake).
    """
    if not name or not _NAME_CHARS.fullmatch(name):
        return "other"
    parts = [p for p in _PART.split(name) if p]
    if not parts:
        return "other"
    # Separators between parts; a leading or trailing one (_private) joins nothing.
    separators = {c for c in name.strip(_SEPARATORS) if c in _SEPARATORS}
    if len(separators) > 1:
        return "mixed"
    cases = {_part_case(p) for p in parts}
    if not separators:
        case = cases.pop()
        if case in ("lower", "upper"):
            return "single"
        return "camel" if case == "camel" else "pascal" if case == "pascal" else "mixed"
    sep = separators.pop()
    if cases <= {"lower", "upper"}:
        if "lower" not in cases and len(parts) > 1:
            return "mixed"  # GET_USER: upper-case throughout is not snake_case
        return {"_": "snake", "-": "kebab", ".": "dotted"}[sep]  # type: ignore[return-value]
    if sep == "_" and cases <= {"lower", "upper", "camel"}:
        return "snake-camel"
    return "mixed"


def fits_style(style: Style, expected: Style) -> bool:
    """Whether a name of ``style`` is already written as ``expected`` would write it.

    A one-word name fits every style; a snake_case name fits snake_case-with-camelCase-parts,
    whose parts happen to be single words.
    """
    return style == expected or style == "single" or (style == "snake" and
                                                      expected == "snake-camel")


def render_style(tokens: tuple[str, ...], style: Style) -> str:
    """Write name tokens in a given style (used to suggest a conforming name).

    Styles that cannot be derived from words alone fall back to snake_case (``snake-camel``,
    whose snake_case names conform) or to the words joined as one (``single``).
    """
    if not tokens:
        return ""
    if style == "camel":
        return tokens[0] + "".join(t.capitalize() for t in tokens[1:])
    if style == "pascal":
        return "".join(t.capitalize() for t in tokens)
    if style == "single":
        return "".join(tokens)
    joiner = {"kebab": "-", "dotted": "."}.get(style, "_")
    return joiner.join(tokens)


def restyle(name: str, style: Style) -> str:
    """``name`` rewritten in ``style``.  An all-capitals part the author set apart with
    separators stays as written in separated styles (``API-getUser`` as kebab-case is
    ``API-get-user``); inside a camelCase word it is a word like any other (``getURL`` as
    snake_case is ``get_url``)."""
    if style in ("camel", "pascal", "single"):
        return render_style(split_name(name), style)
    words: list[str] = []
    for part in _PART.split(name):
        if _part_case(part) == "upper" and any(c.isalpha() for c in part):
            words.append(part)  # an acronym the author set apart: API-get-user
        else:
            words.extend(split_name(part))
    return render_style(tuple(words), style)


# Plurals the suffix rules below get wrong, and words that only look plural.
_IRREGULAR = {
    "indices": "index", "vertices": "vertex", "matrices": "matrix", "appendices": "appendix",
    "statuses": "status", "aliases": "alias", "analyses": "analysis", "caches": "cache",
    "children": "child", "people": "person", "criteria": "criterion", "cookies": "cookie",
    "movies": "movie", "series": "series", "species": "species", "news": "news",
}


@lru_cache(maxsize=65536)
def singular(word: str) -> str:
    """A light English singulariser: ``papers``→``paper``, ``ids``→``id``, ``entries``→``entry``,
    ``devices``→``device``, ``indices``→``index``; words that are not plural stay as they are."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 2 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    return word[:-1]
