"""A shared similarity index over a server's tools: the words each tool offers a search.

One index answers every question about how a request's words (or a sibling's) lead to a tool:
the hit-rate retrievers (``mcplint hitrate``) rank tools with it, and a rule that judges whether
two tools overlap can ask it for their similarity and the words they share, so both read the
surface the same way and the work is done once per manifest.

What is indexed, per tool (each tool is one "document", one bag of words, no field weights):

* the name, split into words (``searchPapers``, ``search_papers`` → ``search``, ``papers``);
* the description with the server's boilerplate left out (sentences repeated across the
  server's tools, see ``mcplint.checks._boilerplate``): they say nothing about one tool;
* every parameter's name, split into words, and its description.

A *word* is what ``mcplint.checks._text.words`` reads (letters then letters or digits, lower-
cased, possessives dropped), after camelCase is split; a *term* is a word's stem
(``mcplint.checks._text.stem``), with English stop words and one-letter words left out.
Everything is deterministic: no randomness, no model, no network, and ties are settled the
same way on every run.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from mcplint import regex_cache as rx
from mcplint.checks._boilerplate import find as find_boilerplate
from mcplint.checks._text import stem, words
from mcplint.model import Manifest, Tool
from mcplint.names import split_name

# BM25 parameters: the usual defaults (Robertson; Lucene and Elasticsearch use the same).
K1 = 1.2
B = 0.75

# Words that carry no meaning about which tool fits; left out of every term bag and query.
_STOP_TEXT = """
a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing don done down during each else
etc few for from further had has have having he her here hers him his how i if in into is
it its itself just let me more most my myself no nor not now of off on once only or other our
ours out over own please same she should so some such than that the their theirs them then
there these they this those through to too under until up us very via was we were what when
where which while who whom why will with would you your yours want need like
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())

_CAMEL = rx.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


@lru_cache(maxsize=65536)
def surface_words(text: str) -> tuple[str, ...]:
    """The words of a text as a reader sees them: camelCase and snake_case split, lower-cased,
    one-letter words dropped (``searchPapers`` → ``search``, ``papers``)."""
    return tuple(w for w in words(_CAMEL.sub(" ", text)) if len(w) > 1)


@lru_cache(maxsize=65536)
def term(word: str) -> str:
    """A word's stem (``mcplint.checks._text.stem``), with a consonant doubled before -ed or
    -ing undoubled, so ``tagged`` and ``tags`` meet at ``tag``."""
    found = stem(word)
    if (word.endswith(("ed", "ing")) and len(found) > 3 and found[-1] == found[-2]
            and found[-1] not in "aeiouyslfz"):
        return found[:-1]
    return found


def terms(text: str) -> list[str]:
    """The stems of a text's meaningful words: what the index counts."""
    return [term(w) for w in surface_words(text) if w not in STOP_WORDS]


def query_words(text: str) -> list[str]:
    """A request's meaningful words, in order, each once (not stemmed)."""
    seen: dict[str, None] = {}
    for word in surface_words(text):
        if word not in STOP_WORDS:
            seen.setdefault(word, None)
    return list(seen)


@dataclass(frozen=True)
class Entry:
    """One tool as the index sees it."""

    tool: Tool
    name: str
    server: str | None  # the server of a server set, else None
    text: str  # every indexed text of the tool, joined by newlines (what a regex search reads)
    own_description: str  # the description without the server's boilerplate
    pointer: str = ""  # of the tool's name (of the tool when it has none)
    line: int = 0
    column: int = 0


def tool_texts(tool: Tool, own_description: str) -> list[str]:
    """The texts of a tool that a search reads: name words, description, parameters."""
    texts = [" ".join(tool.name_tokens), own_description]
    for parameter in tool.parameters:
        texts.append(" ".join(split_name(parameter.name)))
        if parameter.description:
            texts.append(parameter.description)
    return texts


def entries(manifest: Manifest) -> list[Entry]:
    """The tools of a manifest (every server of a server set), with the boilerplate of each
    server left out of its tools' descriptions."""
    found: list[Entry] = []
    for part in manifest.parts or (manifest,):
        boilerplate = find_boilerplate(part)
        server = part.server_name or part.file.rpartition("#")[2] if manifest.parts else None
        for tool in part.tools:
            own = boilerplate.own_text(tool).strip()
            pointer = tool.child("name") if "name" in tool.raw else tool.pointer
            where = part.position(pointer)
            found.append(Entry(tool, tool.label, server, "\n".join(tool_texts(tool, own)), own,
                               pointer, where.line, where.column))
    return found


@dataclass
class SimilarityIndex:
    """Term statistics of a set of documents, with BM25, TF-IDF cosine and word-prefix
    (regex-style) scoring.  Build it with :meth:`build` or :meth:`from_manifest`."""

    entries: Sequence[Entry]
    counts: list[Counter[str]]  # per document: term → occurrences
    lengths: list[int]
    df: Counter[str]
    surface: dict[str, str]  # term → the word it was first written as, for messages
    # Per term: document → its BM25 weight, and its share of the document's unit TF-IDF vector.
    _bm25: dict[str, dict[int, float]] = field(default_factory=dict)
    _tfidf: dict[str, dict[int, float]] = field(default_factory=dict)
    # Word-prefix search: each document's surface words, and the sorted vocabulary.
    _words: dict[str, dict[int, int]] = field(default_factory=dict)
    _vocabulary: list[str] = field(default_factory=list)
    _prefixes: dict[str, dict[int, int]] = field(default_factory=dict)  # a memo

    @classmethod
    def from_manifest(cls, manifest: Manifest) -> SimilarityIndex:
        return cls.build(entries(manifest))

    @classmethod
    def build(cls, found: Sequence[Entry]) -> SimilarityIndex:
        counts: list[Counter[str]] = []
        surface: dict[str, str] = {}
        by_word: dict[str, dict[int, int]] = {}
        for i, entry in enumerate(found):
            bag: Counter[str] = Counter()
            for word in surface_words(entry.text):
                postings = by_word.setdefault(word, {})
                postings[i] = postings.get(i, 0) + 1
                if word in STOP_WORDS:
                    continue
                key = term(word)
                bag[key] += 1
                surface.setdefault(key, word)
            counts.append(bag)
        df: Counter[str] = Counter()
        for bag in counts:
            df.update(bag.keys())
        index = cls(found, counts, [sum(c.values()) for c in counts], df, surface)
        index._words = by_word
        index._vocabulary = sorted(by_word)
        index._weigh()
        return index

    @property
    def size(self) -> int:
        return len(self.entries)

    def idf_bm25(self, term: str) -> float:
        """ln(1 + (N − df + 0.5) / (df + 0.5)): never negative, as in Lucene."""
        n, d = self.size, self.df.get(term, 0)
        return math.log(1 + (n - d + 0.5) / (d + 0.5))

    def idf(self, term: str) -> float:
        """Smoothed inverse document frequency for TF-IDF: ln((1 + N) / (1 + df)) + 1."""
        return math.log((1 + self.size) / (1 + self.df.get(term, 0))) + 1

    def _weigh(self) -> None:
        average = (sum(self.lengths) / self.size) if self.size else 0.0
        norms = [0.0] * self.size
        for i, bag in enumerate(self.counts):
            norm = 1 - B + B * (self.lengths[i] / average) if average else 1.0
            for term, tf in bag.items():
                self._bm25.setdefault(term, {})[i] = (
                    self.idf_bm25(term) * tf * (K1 + 1) / (tf + K1 * norm))
                weight = (1 + math.log(tf)) * self.idf(term)
                self._tfidf.setdefault(term, {})[i] = weight
                norms[i] += weight * weight
        for postings in self._tfidf.values():
            for i in postings:
                postings[i] /= math.sqrt(norms[i])

    # --- scoring a query ---------------------------------------------------------------------

    def bm25(self, query: str) -> dict[int, float]:
        """Document → BM25 score of the query's distinct terms; documents scoring 0 left out."""
        scores: dict[int, float] = {}
        for term in dict.fromkeys(terms(query)):
            for i, weight in self._bm25.get(term, {}).items():
                scores[i] = scores.get(i, 0.0) + weight
        return scores

    def tfidf(self, query: str) -> dict[int, float]:
        """Document → cosine of the query's and the document's TF-IDF vectors."""
        bag = Counter(terms(query))
        vector = {t: (1 + math.log(n)) * self.idf(t) for t, n in bag.items()}
        norm = math.sqrt(sum(w * w for w in vector.values()))
        scores: dict[int, float] = {}
        if not norm:
            return scores
        for term, weight in vector.items():
            for i, share in self._tfidf.get(term, {}).items():
                scores[i] = scores.get(i, 0.0) + weight / norm * share
        return scores

    def prefix_matches(self, word: str) -> dict[int, int]:
        """Document → how many of its words start with ``word``: what the case-insensitive
        regular expression ``\\bword`` finds in the document's text, identifiers split."""
        known = self._prefixes.get(word)
        if known is not None:
            return known
        found: dict[int, int] = {}
        self._prefixes[word] = found
        start = bisect_left(self._vocabulary, word)
        for candidate in self._vocabulary[start:]:
            if not candidate.startswith(word):
                break
            for i, n in self._words[candidate].items():
                found[i] = found.get(i, 0) + n
        return found

    def regex(self, query: str) -> dict[int, float]:
        """Document → the number of the query's words that match it, plus a fraction for how
        many matches there are in all (more matches rank higher among equals)."""
        distinct: dict[int, int] = {}
        total: dict[int, int] = {}
        for word in query_words(query):
            for i, n in self.prefix_matches(word).items():
                distinct[i] = distinct.get(i, 0) + 1
                total[i] = total.get(i, 0) + n
        return {i: d + total[i] / (total[i] + 1) for i, d in distinct.items()}

    # --- explaining and comparing --------------------------------------------------------------

    def contributions(self, query: str, i: int) -> list[tuple[str, float]]:
        """The query's words that score document ``i`` under BM25, heaviest first."""
        found = [(self.surface.get(t, t), self._bm25[t][i])
                 for t in dict.fromkeys(terms(query)) if i in self._bm25.get(t, {})]
        return sorted(found, key=lambda pair: (-pair[1], pair[0]))

    def vector(self, i: int) -> Mapping[str, float]:
        """Document ``i``'s unit TF-IDF vector."""
        return {t: self._tfidf[t][i] for t in self.counts[i]}

    def cosine(self, i: int, j: int) -> float:
        """TF-IDF cosine similarity of two documents (1.0: the same words, weighted alike)."""
        a, b = self.counts[i], self.counts[j]
        if len(a) > len(b):
            a, i, j = b, j, i
        return sum(self._tfidf[t][i] * self._tfidf[t].get(j, 0.0) for t in a)

    def shared_terms(self, i: int, j: int, limit: int = 5) -> list[str]:
        """The words two documents share, those that weigh most in both first."""
        shared = [(self._tfidf[t][i] * self._tfidf[t][j], t)
                  for t in self.counts[i] if j in self._tfidf[t]]
        shared.sort(key=lambda pair: (-pair[0], pair[1]))
        return [self.surface.get(t, t) for _, t in shared[:limit]]

    def neighbours(self, i: int, limit: int = 3) -> list[tuple[int, float]]:
        """The documents most similar to ``i`` (not ``i`` itself), most similar first."""
        scores: dict[int, float] = {}
        for term in self.counts[i]:
            weight = self._tfidf[term][i]
            for j, share in self._tfidf[term].items():
                if j != i:
                    scores[j] = scores.get(j, 0.0) + weight * share
        return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))[:limit]


# Sums of the same weights in another order differ in the last bits: scores this close are
# equal, so ties are ties on every platform.
_TIE = 1e-9


def _floor(score: float) -> float:
    return score - _TIE * max(1.0, abs(score))


def at_least(score: float, other: float) -> bool:
    """Whether ``score`` is as high as ``other`` (equal within rounding)."""
    return score >= _floor(other)


def top(scores: Mapping[int, float], limit: int, last: int | None = None) -> list[int]:
    """The ``limit`` best documents, highest score first; among equal scores ``last`` comes
    after the others, then manifest order.  Only documents that score above 0 are ranked."""
    if not scores:
        return []
    values = heapq.nlargest(limit, scores.values())
    floor = _floor(values[-1])
    found = [i for i, s in scores.items() if s >= floor and s > 0]
    found.sort(key=lambda i: (-round(scores[i], 9), i == last, i))
    return found[:limit]


def rank_of(scores: Mapping[int, float], i: int) -> int | None:
    """The 1-based rank of document ``i`` when ties are settled against it: 1 + the number of
    other documents that score at least as high; None when it scores nothing."""
    own = scores.get(i, 0.0)
    if own <= 0:
        return None
    floor = _floor(own)
    return sum(1 for s in scores.values() if s >= floor)
