"""Hit rate: for each request, does a retriever rank the right tool first (or in the top k)?

Each retriever scores every tool of the manifest against a request (see
``mcplint.similarity``) and ranks them.  Ties are settled *against* the expected tool: a tool
the retriever cannot tell from a sibling is no hit.  A request is then a top-1 hit when the
expected tool ranks first, a top-k hit when it ranks within k; its reciprocal rank is 1/rank
(0 when the tool scores nothing).  Without intents, the self-check asks with each tool's own
first sentence and with its name's words, and expects the tool itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mcplint.checks._text import sentences
from mcplint.hitrate.intents import Resolved
from mcplint.similarity import (
    STOP_WORDS,
    SimilarityIndex,
    at_least,
    rank_of,
    surface_words,
    term,
    terms,
    top,
)


def scorer(index: SimilarityIndex, name: str) -> Callable[[str], dict[int, float]]:
    return {"bm25": index.bm25, "regex": index.regex, "tfidf": index.tfidf}[name]


@dataclass(frozen=True)
class Query:
    """A request and the tool that should serve it (document numbers of the index)."""

    request: str
    expected: int
    not_: tuple[int, ...] = ()
    kind: str = "intent"  # intent, or for the self-check: description, name
    line: int = 0


@dataclass(frozen=True)
class Outcome:
    query: Query
    rank: int | None  # None: the expected tool scored nothing
    top: tuple[int, ...]  # the top k, ties ordered against the expected tool
    violations: tuple[int, ...]  # not-tools ranked at or above the expected tool

    @property
    def chosen(self) -> int | None:
        return self.top[0] if self.top else None


@dataclass
class Confusion:
    """Requests for ``expected`` that ``chosen`` took (ranked first)."""

    expected: int
    chosen: int
    outcomes: list[Outcome] = field(default_factory=list)
    words: list[str] = field(default_factory=list)


@dataclass
class Result:
    retriever: str
    top_k: int
    outcomes: list[Outcome]
    confusions: list[Confusion]
    unmatched: list[Outcome]  # no tool scored anything for the request
    unreachable: list[int]  # tools in no request's top k
    uncovered: list[int]  # tools no request expects

    @property
    def requests(self) -> int:
        return len(self.outcomes)

    @property
    def top1(self) -> float:
        return _share(sum(1 for o in self.outcomes if o.rank == 1), self.requests)

    @property
    def topk(self) -> float:
        return _share(sum(1 for o in self.outcomes if o.rank is not None and o.rank <= self.top_k),
                      self.requests)

    @property
    def mrr(self) -> float:
        return _share(sum(1 / o.rank for o in self.outcomes if o.rank), self.requests)

    @property
    def violations(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.violations]


def _share(count: float, total: int) -> float:
    return count / total if total else 0.0


def intent_queries(resolved: Sequence[Resolved]) -> list[Query]:
    return [Query(r.intent.request, r.tool, r.not_, "intent", r.intent.line) for r in resolved]


def self_queries(index: SimilarityIndex) -> list[Query]:
    """Each tool's first sentence (boilerplate left out) and the words of its name."""
    queries = []
    for i, entry in enumerate(index.entries):
        first = next(iter(sentences(entry.own_description)), "")
        if terms(first):
            queries.append(Query(first, i, kind="description"))
        probe = " ".join(entry.tool.name_tokens)
        if terms(probe):
            queries.append(Query(probe, i, kind="name"))
    return queries


def evaluate(index: SimilarityIndex, queries: Sequence[Query], retriever: str,
             top_k: int, covered: bool = True) -> Result:
    """Rank every query's tools with one retriever and gather the figures.

    ``covered``: whether to list the tools no query expects (not for the self-check, where
    every tool asks for itself).
    """
    score = scorer(index, retriever)
    outcomes: list[Outcome] = []
    seen: set[int] = set()
    for query in queries:
        scores = score(query.request)
        rank = rank_of(scores, query.expected)
        own = scores.get(query.expected, 0.0)
        violations = tuple(j for j in query.not_ if scores.get(j, 0.0) > 0
                           and at_least(scores[j], own))
        best = tuple(top(scores, top_k, query.expected))
        seen.update(best)
        outcomes.append(Outcome(query, rank, best, violations))
    confusions: dict[tuple[int, int], Confusion] = {}
    unmatched = []
    for outcome in outcomes:
        if outcome.rank == 1:
            continue
        chosen = outcome.chosen
        if chosen is None:
            unmatched.append(outcome)
            continue
        if chosen == outcome.query.expected:  # tied with a sibling placed behind it
            chosen = next((j for j in outcome.top if j != chosen), chosen)
        key = (outcome.query.expected, chosen)
        confusions.setdefault(key, Confusion(*key)).outcomes.append(outcome)
    for confusion in confusions.values():
        confusion.words = _blamed(index, confusion)
    ordered = sorted(confusions.values(),
                     key=lambda c: (-len(c.outcomes), c.expected, c.chosen))
    expected = {q.expected for q in queries}
    return Result(retriever, top_k, outcomes, ordered, unmatched,
                  [i for i in range(index.size) if i not in seen],
                  [i for i in range(index.size) if i not in expected] if covered else [])


def _blamed(index: SimilarityIndex, confusion: Confusion) -> list[str]:
    """The request's words (as it writes them) that the chosen tool has and the expected one
    lacks; when there are none, the words both have (then weighting, not vocabulary,
    decided)."""
    chosen, expected = index.counts[confusion.chosen], index.counts[confusion.expected]
    only: dict[str, None] = {}
    both: dict[str, None] = {}
    for outcome in confusion.outcomes:
        for word in surface_words(outcome.query.request):
            if word in STOP_WORDS:
                continue
            key = term(word)
            if key in chosen:  # as the request writes it
                (both if key in expected else only).setdefault(word, None)
    return list(only or both)
