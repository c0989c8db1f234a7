"""Hit-rate reports: text (concise), JSON (``mcplint/hitrate/v1``), Markdown and SARIF."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from mcplint import __version__
from mcplint.hitrate import RETRIEVERS
from mcplint.hitrate.evaluate import Confusion, Outcome, Result
from mcplint.similarity import Entry, SimilarityIndex

SCHEMA = "mcplint/hitrate/v1"
STAND_IN = ("These retrievers are stand-ins: they measure whether the tool surface's words "
            "lead a search to the right tool, not what a given model picks.")
# How many requests a confusion quotes in the text and Markdown reports (JSON has them all).
QUOTED = 3
# How many confusion pairs the text report shows, most requests first.
SHOWN = 10


@dataclass(frozen=True)
class HitRateReport:
    target: str
    intents: str | None  # None: the self-check
    index: SimilarityIndex
    results: Sequence[Result]
    retriever: str  # the one the gate reads and the text report details
    top_k: int
    fail_under: float | None

    @property
    def gated(self) -> Result:
        return next(r for r in self.results if r.retriever == self.retriever)

    @property
    def passed(self) -> bool | None:
        if self.fail_under is None:
            return None
        # Compared as shares of requests, rounded so 0.9 given is 0.9 reached (9 of 10).
        return round(self.gated.top1, 12) >= self.fail_under

    @property
    def mode(self) -> str:
        return "intents" if self.intents else "self-check"

    def label(self, i: int) -> str:
        entry = self.index.entries[i]
        return f"{entry.server}/{entry.name}" if entry.server else entry.name


def _percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def _quote(text: str, width: int = 100) -> str:
    from mcplint.reporters.visible import reveal_line

    line = reveal_line(" ".join(text.split()))
    return line if len(line) <= width else line[: width - 1] + "…"


# --- text --------------------------------------------------------------------------------------

def render_text(report: HitRateReport, out: TextIO) -> None:
    result = report.gated
    source = f"intents {report.intents}" if report.intents else (
        "self-check: each tool's first sentence and name words as requests")
    out.write(f"{report.target}: {report.index.size} tools, {result.requests} requests "
              f"({source}), top-{report.top_k}\n\n")
    out.write(f"  {'retriever':<10}{'top-1':>8}{f'top-{report.top_k}':>8}{'MRR':>7}"
              f"{'confusions':>12}{'not':>5}{'unreachable':>13}\n")
    for r in report.results:
        mark = "*" if r.retriever == report.retriever else " "
        out.write(f"{mark} {r.retriever:<10}{_percent(r.top1):>8}{_percent(r.topk):>8}"
                  f"{r.mrr:>7.3f}{len(r.confusions):>12}{len(r.violations):>5}"
                  f"{len(r.unreachable):>13}\n")
    what = "confusable" if not report.intents else "confusions"
    if result.confusions:
        out.write(f"\n{result.retriever} {what} (requests for the first tool that the second "
                  f"ranked first):\n")
        for confusion in result.confusions[:SHOWN]:
            _text_confusion(report, confusion, out)
        if len(result.confusions) > SHOWN:
            out.write(f"  … and {len(result.confusions) - SHOWN} more pairs (--format json "
                      "lists them all)\n")
    if result.violations:
        out.write(f"\n{result.retriever} not-violations (a forbidden tool ranked at or above "
                  f"the right one):\n")
        for outcome in result.violations:
            banned = ", ".join(report.label(j) for j in outcome.violations)
            out.write(f"  {report.label(outcome.query.expected)} ← {banned}: "
                      f"\"{_quote(outcome.query.request)}\"\n")
    if result.unmatched:
        out.write(f"\n{result.retriever}: no tool matched {len(result.unmatched)} requests:\n")
        for outcome in result.unmatched[:QUOTED]:
            out.write(f"  \"{_quote(outcome.query.request)}\" "
                      f"(for {report.label(outcome.query.expected)})\n")
    if report.intents and result.unreachable:
        names = ", ".join(report.label(i) for i in result.unreachable)
        out.write(f"\nUnreachable under {result.retriever} (in no request's top "
                  f"{report.top_k}): {names}\n")
    if result.uncovered:
        names = ", ".join(report.label(i) for i in result.uncovered)
        out.write(f"No intent asks for: {names}\n")
    out.write(f"\n{STAND_IN}\n")
    if report.fail_under is not None:
        verdict = "passed" if report.passed else "FAILED"
        relation = "at or above" if report.passed else "below"
        out.write(f"{verdict}: {result.retriever} top-1 hit rate {_percent(result.top1)} is "
                  f"{relation} --fail-under {_percent(report.fail_under)}\n")


def _text_confusion(report: HitRateReport, confusion: Confusion, out: TextIO) -> None:
    count = len(confusion.outcomes)
    words = ", ".join(confusion.words) or "-"
    out.write(f"  {report.label(confusion.expected)} → {report.label(confusion.chosen)}: "
              f"{count} request{'s' if count != 1 else ''}; words: {words}\n")
    for outcome in confusion.outcomes[:QUOTED]:
        kind = "" if outcome.query.kind == "intent" else f"[{outcome.query.kind}] "
        out.write(f"      {kind}\"{_quote(outcome.query.request)}\"\n")
    if count > QUOTED:
        out.write(f"      … and {count - QUOTED} more\n")


# --- JSON --------------------------------------------------------------------------------------

def _tool(report: HitRateReport, i: int) -> dict[str, Any]:
    entry: Entry = report.index.entries[i]
    return {"tool": entry.name, "server": entry.server, "pointer": entry.pointer,
            "line": entry.line, "column": entry.column}


def _outcome(report: HitRateReport, outcome: Outcome) -> dict[str, Any]:
    return {"request": outcome.query.request, "kind": outcome.query.kind,
            "tool": report.label(outcome.query.expected), "rank": outcome.rank,
            "top": [report.label(i) for i in outcome.top],
            "not_violated": [report.label(i) for i in outcome.violations]}


def _result(report: HitRateReport, r: Result) -> dict[str, Any]:
    per_tool: dict[int, list[Outcome]] = {}
    for outcome in r.outcomes:
        per_tool.setdefault(outcome.query.expected, []).append(outcome)
    return {
        "name": r.retriever,
        "definition": RETRIEVERS[r.retriever],
        "requests": r.requests,
        "top1": round(r.top1, 6),
        "topk": round(r.topk, 6),
        "mrr": round(r.mrr, 6),
        "confusions": [
            {"expected": _tool(report, c.expected), "chosen": _tool(report, c.chosen),
             "count": len(c.outcomes), "words": c.words,
             "requests": [o.query.request for o in c.outcomes]}
            for c in r.confusions],
        "not_violations": [_outcome(report, o) for o in r.violations],
        "unmatched": [_outcome(report, o) for o in r.unmatched],
        "unreachable": [report.label(i) for i in r.unreachable],
        "uncovered": [report.label(i) for i in r.uncovered],
        "per_tool": [
            {"tool": report.label(i), "requests": len(found),
             "top1": round(_rate(found, 1), 6), "topk": round(_rate(found, r.top_k), 6)}
            for i, found in sorted(per_tool.items())],
        "outcomes": [_outcome(report, o) for o in r.outcomes],
    }


def _rate(outcomes: Sequence[Outcome], k: int) -> float:
    hits = sum(1 for o in outcomes if o.rank is not None and o.rank <= k)
    return hits / len(outcomes) if outcomes else 0.0


def as_dict(report: HitRateReport) -> dict[str, Any]:
    gated = report.gated
    return {
        "schema": SCHEMA,
        "version": __version__,
        "target": report.target,
        "intents": report.intents,
        "mode": report.mode,
        "tools": report.index.size,
        "top_k": report.top_k,
        "note": STAND_IN,
        "gate": {"retriever": report.retriever, "fail_under": report.fail_under,
                 "top1": round(gated.top1, 6), "passed": report.passed},
        "retrievers": [_result(report, r) for r in report.results],
    }


def render_json(report: HitRateReport, out: TextIO) -> None:
    from mcplint.reporters import printable

    out.write(printable(json.dumps(as_dict(report), indent=2, ensure_ascii=False)) + "\n")


# --- Markdown ----------------------------------------------------------------------------------

def _md(text: str) -> str:
    """Text for a Markdown table cell or line: nothing in it renders as markup."""
    from mcplint.reporters.visible import reveal_line

    line = reveal_line(" ".join(text.split()))
    for char in "\\`*_{}[]<>()#+-.!|~&":
        line = line.replace(char, "\\" + char)
    return line


def render_markdown(report: HitRateReport, out: TextIO) -> None:
    result = report.gated
    source = f"intents `{_md(report.intents)}`" if report.intents else "self-check"
    out.write(f"## Tool hit rate: {_md(report.target)}\n\n"
              f"{report.index.size} tools, {result.requests} requests ({source}), "
              f"top-{report.top_k}.\n\n")
    out.write(f"| retriever | top-1 | top-{report.top_k} | MRR | confusions | not-violations "
              "| unreachable |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for r in report.results:
        name = f"**{r.retriever}**" if r.retriever == report.retriever else r.retriever
        out.write(f"| {name} | {_percent(r.top1)} | {_percent(r.topk)} | {r.mrr:.3f} | "
                  f"{len(r.confusions)} | {len(r.violations)} | {len(r.unreachable)} |\n")
    if result.confusions:
        out.write(f"\n### {result.retriever} confusions\n\n| right tool | ranked first "
                  "| requests | words | example |\n| --- | --- | ---: | --- | --- |\n")
        for c in result.confusions:
            out.write(f"| {_md(report.label(c.expected))} | {_md(report.label(c.chosen))} | "
                      f"{len(c.outcomes)} | {_md(', '.join(c.words))} | "
                      f"{_md(_quote(c.outcomes[0].query.request))} |\n")
    if result.violations:
        out.write(f"\n### {result.retriever} not-violations\n\n")
        for o in result.violations:
            banned = ", ".join(report.label(j) for j in o.violations)
            out.write(f"- {_md(report.label(o.query.expected))}: {_md(banned)} ranked at or "
                      f"above it for “{_md(_quote(o.query.request))}”\n")
    if report.intents and result.unreachable:
        out.write(f"\nUnreachable (in no request's top {report.top_k}): "
                  f"{_md(', '.join(report.label(i) for i in result.unreachable))}\n")
    out.write(f"\n_{_md(STAND_IN)}_\n")
    if report.fail_under is not None:
        verdict = "Passed" if report.passed else "Failed"
        out.write(f"\n**{verdict}**: {result.retriever} top-1 {_percent(result.top1)}, "
                  f"required {_percent(report.fail_under)}.\n")


# --- SARIF -------------------------------------------------------------------------------------

_RULES = {
    "HITRATE001": ("hitrate-confusion",
                   "A search for one tool's requests ranks a sibling first"),
    "HITRATE002": ("hitrate-not-violation",
                   "A tool the intent forbids ranks at or above the right one"),
    "HITRATE003": ("hitrate-unreachable", "No request brings the tool into the top k"),
}


def _location(report: HitRateReport, i: int, root: Path) -> dict[str, Any]:
    from mcplint.reporters.sarif import uri

    entry = report.index.entries[i]
    location: dict[str, Any] = {
        "physicalLocation": {"artifactLocation": {"uri": uri(report.target, root)},
                             "region": {"startLine": max(entry.line, 1),
                                        "startColumn": max(entry.column, 1)}},
        "logicalLocations": [{"fullyQualifiedName": report.label(i), "kind": "function"}],
    }
    return location


def as_sarif(report: HitRateReport, root: Path | None = None) -> dict[str, Any]:
    from mcplint.reporters.sarif import SARIF_SCHEMA
    from mcplint.reporters.visible import reveal_line

    root = root or Path.cwd()
    result = report.gated
    results: list[dict[str, Any]] = []
    for c in result.confusions:
        count = len(c.outcomes)
        message = (f"{result.retriever}: {count} request{'s' if count != 1 else ''} for "
                   f"\"{report.label(c.expected)}\" rank \"{report.label(c.chosen)}\" first "
                   f"(words: {', '.join(c.words) or '-'}), e.g. "
                   f"\"{_quote(c.outcomes[0].query.request)}\". {STAND_IN}")
        results.append({
            "ruleId": "HITRATE001", "level": "warning",
            "message": {"text": reveal_line(message)},
            "locations": [_location(report, c.expected, root)],
            "relatedLocations": [
                {"id": 0, **_location(report, c.chosen, root),
                 "message": {"text": reveal_line(f"ranked first: {report.label(c.chosen)}")}},
                {"id": 1, **_location(report, c.expected, root),
                 "message": {"text": reveal_line(f"right tool: {report.label(c.expected)}")}}],
            "partialFingerprints": {"hitrate/v1": f"{report.label(c.expected)}→"
                                                  f"{report.label(c.chosen)}"},
        })
    for o in result.violations:
        banned = ", ".join(report.label(j) for j in o.violations)
        results.append({
            "ruleId": "HITRATE002", "level": "error",
            "message": {"text": reveal_line(
                f"{result.retriever}: {banned} ranks at or above "
                f"\"{report.label(o.query.expected)}\" for \"{_quote(o.query.request)}\", "
                "which must not choose it")},
            "locations": [_location(report, o.violations[0], root)],
            "relatedLocations": [{"id": 0, **_location(report, o.query.expected, root),
                                  "message": {"text": "right tool"}}],
        })
    if report.intents:
        for i in result.unreachable:
            results.append({
                "ruleId": "HITRATE003", "level": "note",
                "message": {"text": reveal_line(
                    f"{result.retriever}: \"{report.label(i)}\" is in no request's top "
                    f"{report.top_k}")},
                "locations": [_location(report, i, root)],
            })
    rules = [{"id": code, "name": name, "shortDescription": {"text": text},
              "fullDescription": {"text": f"{text}. {STAND_IN}"}}
             for code, (name, text) in _RULES.items()]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "mcplint", "version": __version__,
                                "semanticVersion": __version__, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"hitrate": {"retriever": result.retriever,
                                       "top1": round(result.top1, 6),
                                       "topk": round(result.topk, 6), "top_k": report.top_k,
                                       "mrr": round(result.mrr, 6)}},
        }],
    }


def render_sarif(report: HitRateReport, out: TextIO) -> None:
    from mcplint.reporters import printable

    out.write(printable(json.dumps(as_sarif(report), indent=2, ensure_ascii=False)) + "\n")


RENDERERS = {"text": render_text, "json": render_json, "markdown": render_markdown,
             "sarif": render_sarif}
