"""Token counts for MCP tool definitions.

A tool costs an agent the tokens of its definition on every request, so the linter reports them.
The exact count needs OpenAI's o200k_base vocabulary, which tiktoken downloads on first use; a
lint must never touch the network, so the vocabulary is used only when it is already cached and
a calibrated estimator stands in otherwise (see bench/calibrate_tokens.py for its errors).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import os
import re
import struct
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from mcplint import regex_cache as rx

__all__ = ["TokenCounter", "estimate_tokens", "get_counter", "tool_text"]


@dataclass(frozen=True)
class TokenCounter:
    """Counts tokens one way; ``method`` says which, for reports."""

    method: str
    exact: bool
    _count: Callable[[str], int] = field(repr=False, compare=False)

    def count(self, text: str) -> int:
        return self._count(text)


def tool_text(tool: object) -> str:
    """A tool as its tokens are counted: compact JSON, the form the calibration counts measured."""
    return json.dumps(tool, separators=(",", ":"), ensure_ascii=False)


# --- the estimator -----------------------------------------------------------------------------
#
# o200k_base first cuts text into chunks with a regex and then merges bytes only within a chunk,
# so a token never spans two chunks. The estimator copies that cut (exactly, for ASCII) and
# charges each chunk one token plus what its shape predicts beyond that: long words, words glued
# to punctuation, acronyms, long punctuation runs and non-ASCII characters split into more.


class _Params(NamedTuple):
    """The estimator's constants, refitted by ``bench/calibrate_tokens.py --fit``.

    The ``*_free`` lengths shape the features; every other field is a rate the estimate is
    linear in, which is what lets the calibration fit the rates by least squares. The corpus is
    nearly all English, so the three non-ASCII rates come from that script's multilingual check
    instead and the fit leaves them alone.
    """

    bare_free: int  # letters a word without a leading space gets for its first token
    spaced_free: int  # the same for a word with a leading space: prose is merged more
    json_free: int  # length of a run of JSON punctuation (``"{}[]:,``) still one token
    punct_free: int  # the same for any other run of punctuation
    chunk: float  # tokens per chunk
    bare_rate: float  # tokens per letter past bare_free
    spaced_rate: float  # tokens per letter past spaced_free
    cheap_prefix: float  # a word glued to ``_ - . \`` (identifiers, escapes): rarely split
    other_prefix: float  # a word glued to other punctuation (``/path``, ``:key``, ``=value``)
    acronym: float  # an all-capitals word of three letters or more
    json_rate: float  # tokens per character past json_free
    punct_rate: float  # tokens per character past punct_free
    latin: float  # per accented Latin letter (U+0080-U+024F): its word is likely not English
    alphabetic: float  # per character of other alphabets below U+1100 (Cyrillic, Greek, ...)
    dense: float  # per character from U+1100 up (CJK, Hangul, symbols, emoji)


_N_THRESHOLDS: Final = 4  # the *_free fields come first; the rates follow in _features' order

_PARAMS: Final = _Params(
    bare_free=5,
    spaced_free=8,
    json_free=3,
    punct_free=3,
    chunk=0.988,
    bare_rate=0.118,
    spaced_rate=0.096,
    cheap_prefix=0.272,
    other_prefix=0.594,
    acronym=0.36,
    json_rate=0.341,
    punct_rate=0.596,
    latin=1.0,
    alphabetic=0.15,
    dense=0.5,
)

# Words every tool definition repeats (MCP's and JSON Schema's keys and values, as o200k cuts
# camelCase) with their o200k counts: the length rule would overcharge the long ones that are
# single tokens and undercharge the few that are not.
_KEYWORD_TOKENS: Final[dict[str, int]] = {
    **dict.fromkeys(
        (
            # MCP's Tool (annotations: readOnlyHint, openWorldHint, execution.taskSupport ...)
            "name", "title", "description", "input", "output", "Schema", "annotations", "read",
            "Only", "Hint", "open", "World", "execution", "task", "Support", "optional", "meta",
            "icons", "true", "false",
            # JSON Schema's keywords and types
            "schema", "type", "object", "string", "number", "integer", "boolean", "array", "null",
            "properties", "required", "additional", "Properties", "items", "Items", "enum",
            "const", "default", "format", "pattern", "minimum", "maximum", "min", "max", "Length",
            "any", "Of", "one", "all", "ref", "defs", "definitions", "examples", "http", "json",
            "uri", "date", "time",
        ),
        1,
    ),
    "destructive": 2,
    "forbidden": 2,
    "idempotent": 3,
}

# o200k_base's pre-tokenizer (tiktoken_ext/openai_public.py) with ASCII classes, which keeps it
# fast: non-ASCII text is folded onto ASCII first. It cuts every text of the calibration corpus
# (and of the multilingual check) exactly where o200k does.
# Groups: the character glued before a word, the word, a punctuation run; digit groups and
# whitespace match with all three empty.
_CHUNK: Final = rx.compile(
    r"([^\r\nA-Za-z0-9]?)([A-Z]*[a-z]+|[A-Z]+[a-z]*)(?:'(?:[sdmtSDMT]|[lL][lL]|[vV][eE]|[rR][eE]))?"
    r"|( ?[^\sA-Za-z0-9]+[\r\n/]*)"
    r"|[0-9]{1,3}|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_JSON_PUNCT: Final = frozenset('"{}[]:,')
_CHEAP_PREFIXES: Final = frozenset("_-.\\")
_NON_ASCII: Final = rx.compile(r"[^\x00-\x7f]+")
_LATIN: Final = rx.compile("[\x80-\u024f]")
_ALPHABETIC: Final = rx.compile("[\u0250-\u10ff]")


class _FoldTable(dict[int, str]):
    """Maps a non-ASCII character to the ASCII one the chunk regex treats alike (memoised)."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        # o200k counts combining marks as letters, but a variation selector follows an emoji or a
        # symbol and so stays in that punctuation run.
        mark = unicodedata.category(char).startswith("M") and not 0xFE00 <= code <= 0xFE0F
        if char.isalpha() or mark:
            # o200k splits words at lower-to-upper case changes; uncased scripts join either side.
            folded = "A" if char.isupper() else "a"
        elif char.isnumeric():
            folded = "0"
        elif char.isspace():
            folded = " "  # o200k's line-break rules name only \r and \n
        else:
            folded = "#"
        self[code] = folded
        return folded


_FOLD: Final = _FoldTable()


def _fold(match: re.Match[str]) -> str:
    return match.group().translate(_FOLD)


def _chunk_sums(text: str, params: _Params) -> tuple[int, ...]:
    """Keyword tokens, then the sums the chunk rates multiply, in ``_Params`` field order."""
    bare_free, spaced_free = params.bare_free, params.spaced_free
    json_free, punct_free = params.json_free, params.punct_free
    keyword_tokens = chunks = bare = spaced = cheap = other = acronyms = json_extra = punct = 0
    keywords = _KEYWORD_TOKENS
    for prefix, word, run in _CHUNK.findall(text):
        if word:
            if not prefix:
                known = keywords.get(word)
                if known is not None:
                    keyword_tokens += known
                    continue
            length = len(word)
            if prefix == " ":
                if length > spaced_free:
                    spaced += length - spaced_free
            else:
                if length > bare_free:
                    bare += length - bare_free
                if prefix:
                    if prefix in _CHEAP_PREFIXES:
                        cheap += 1
                    else:
                        other += 1
            if length > 2 and word.isupper():
                acronyms += 1
        elif run:
            if run[0] == " ":
                run = run[1:]
            if "\\" in run:
                # JSON inside a JSON string: o200k has tokens for the escaped punctuation too.
                run = run.replace('\\"', '"')
            length = len(run)
            if _JSON_PUNCT.issuperset(run):
                if length > json_free:
                    json_extra += length - json_free
            elif length > punct_free:
                punct += length - punct_free
        chunks += 1
    return keyword_tokens, chunks, bare, spaced, cheap, other, acronyms, json_extra, punct


# The chunk loop above costs a Python iteration per chunk, the largest single cost of a lint.
# The sums add up over pieces of a text cut where _CHUNK cuts whatever lies on either side, so a
# text is cut into such pieces by one C-level findall and each piece's sums are looked up,
# memoised: a manifest repeats the same few thousand pieces (``","description":"Search``, `` the``).
# Two cuts are safe, as _CHUNK never looks behind and what it sees past these cuts stops the chunk
# before them just as the end of the text would: after a letter followed by anything but a letter
# or an apostrophe (a word chunk, or its contraction, ends there), and before a space followed by
# a letter (that space always starts a spaced word). A piece runs up to the next such cut.
_GAP: Final = r"[^A-Za-z ]*(?: (?![A-Za-z])[^A-Za-z ]*)*"  # no letter and no safe cut
_PIECE: Final = rx.compile(rf" ?{_GAP}[A-Za-z]+(?:'{_GAP}[A-Za-z]*)*| ?{_GAP}")

# A piece's sums are packed into one int, a 64-bit field each, so that a text's are one sum();
# no field can carry into the next, as each sums to at most len(text) < 2**63.
_PACKING: Final = struct.Struct(">9Q")
_PACKED_BYTES: Final = _PACKING.size
_MAX_PIECES: Final = 1 << 15  # at most about 8 MB; a 500-tool manifest has 10,000 pieces
_LONGEST_PIECE: Final = 64  # longer ones seldom repeat, and would unbound the memo's size


class _PieceSums(dict[str, int]):
    """``_chunk_sums`` of each piece under one set of thresholds, packed and memoised."""

    def __init__(self, params: _Params) -> None:
        super().__init__()
        self.params = params

    def __missing__(self, piece: str) -> int:
        packed = int.from_bytes(_PACKING.pack(*_chunk_sums(piece, self.params)), "big")
        if len(piece) <= _LONGEST_PIECE:
            if len(self) >= _MAX_PIECES:
                self.clear()
            self[piece] = packed
        return packed


_piece_sums = _PieceSums(_PARAMS)


def _features(text: str, params: _Params) -> tuple[int, tuple[int, ...]]:
    """Keyword tokens and the feature sums, one per rate of ``_Params`` in field order."""
    global _piece_sums
    latin = alphabetic = dense = 0
    if not text.isascii():
        latin = len(_LATIN.findall(text))
        alphabetic = len(_ALPHABETIC.findall(text))
        # U+1100 (Hangul Jamo) on: CJK, Hangul, symbols and emoji, all dense in o200k.
        dense = sum(map(len, _NON_ASCII.findall(text))) - latin - alphabetic
        text = _NON_ASCII.sub(_fold, text)
    sums = _piece_sums
    if sums.params is not params and sums.params[:_N_THRESHOLDS] != params[:_N_THRESHOLDS]:
        # One set of thresholds at a time: bench/calibrate_tokens.py --fit tries 81 in turn.
        sums = _piece_sums = _PieceSums(params)
    packed = sum(map(sums.__getitem__, _PIECE.findall(text)))
    keyword_tokens, *chunk_sums = _PACKING.unpack(packed.to_bytes(_PACKED_BYTES, "big"))
    return keyword_tokens, (*chunk_sums, latin, alphabetic, dense)


def _estimate(text: str, params: _Params) -> float:
    keyword_tokens, sums = _features(text, params)
    rates = params[_N_THRESHOLDS:]
    return keyword_tokens + sum(rate * value for rate, value in zip(rates, sums, strict=True))


def estimate_tokens(text: str) -> int:
    """o200k_base tokens in ``text``, estimated without a vocabulary (pure Python, no network)."""
    if not text:
        return 0
    return max(1, round(_estimate(text, _PARAMS)))


# --- exact counts, when tiktoken and its cached vocabulary are both here -----------------------

# tiktoken caches a download under sha1(url) and trusts it only if its sha256 matches; on a
# mismatch it deletes the file and downloads again, so both are checked before tiktoken runs.
_O200K_URL: Final = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
_O200K_SHA256: Final = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"

# Pooled over the held-out halves of bench/calibrate_tokens.py --fit (100 splits): the error to
# expect on servers the constants were not fitted to.
_HELD_OUT_P90: Final = "4.1%"
_ESTIMATE_METHOD: Final = (
    f"estimate (calibrated on o200k_base, per-tool p90 error {_HELD_OUT_P90})"
)


def _tiktoken_cache_file() -> str | None:
    """Where tiktoken keeps o200k_base (as tiktoken/load.py decides); None when caching is off."""
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        cache_dir = os.environ["TIKTOKEN_CACHE_DIR"]
    elif "DATA_GYM_CACHE_DIR" in os.environ:
        cache_dir = os.environ["DATA_GYM_CACHE_DIR"]
    else:
        cache_dir = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    if not cache_dir:
        return None  # an empty directory tells tiktoken to download every time
    key = hashlib.sha1(_O200K_URL.encode(), usedforsecurity=False).hexdigest()
    return os.path.join(cache_dir, key)


def _vocabulary_cached() -> bool:
    path = _tiktoken_cache_file()
    if path is None or not os.path.isfile(path):
        return False
    with open(path, "rb") as cached:
        return hashlib.sha256(cached.read()).hexdigest() == _O200K_SHA256


def _exact_counter() -> TokenCounter | None:
    try:
        if not _vocabulary_cached():
            return None
        # Optional (not a dependency) and slow to import, so only now that it can be used.
        encoding = importlib.import_module("tiktoken").get_encoding("o200k_base")
    except Exception:  # any failure of an optional extra: the estimator stands in
        return None

    def count(text: str) -> int:
        # encode_ordinary: "<|endoftext|>" in a description is text, not a reason to raise.
        return len(encoding.encode_ordinary(text))

    return TokenCounter(method="o200k_base (tiktoken, exact)", exact=True, _count=count)


@functools.cache
def get_counter() -> TokenCounter:
    """Exact o200k_base counts if tiktoken and its vocabulary are already here, else the estimate.

    Never downloads: without a cached vocabulary tiktoken is not even imported.
    """
    return _exact_counter() or TokenCounter(
        method=_ESTIMATE_METHOD, exact=False, _count=estimate_tokens
    )
