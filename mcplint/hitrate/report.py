"""Hit-rate reports: text (concise), JSON (``mcplint/hitrate/v1``), Markdown, SARIF, HTML."""

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


# --- HTML --------------------------------------------------------------------------------------

_STYLE = """body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;
padding:0 1rem;
color:#1f2328}table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border:1px solid #d0d7de;
padding:.3rem .6rem;text-align:left;vertical-align:top}td.n{text-align:right}code{font-size:90%}
.note{color:#59636e}.fail{color:#b3261e;font-weight:600}.pass{color:#1a7f37;font-weight:600}
ul{margin:.2rem 0;padding-left:1.2rem}"""
# No script, nothing fetched: only the inline stylesheet is allowed.
_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


def _h(text: str) -> str:
    from html import escape

    from mcplint.reporters.visible import reveal_line

    return escape(reveal_line(text), quote=True)


def render_html(report: HitRateReport, out: TextIO) -> None:
    result = report.gated
    source = f"intents <code>{_h(report.intents)}</code>" if report.intents else "self-check"
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>Tool hit rate: {_h(report.target)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Tool hit rate: <code>{_h(report.target)}</code></h1>",
        f"<p>{report.index.size} tools, {result.requests} requests ({source}), "
        f"top-{report.top_k}.</p>",
        f"<table><tr><th>retriever</th><th>top-1</th><th>top-{report.top_k}</th><th>MRR</th>"
        "<th>confusions</th><th>not-violations</th><th>unreachable</th></tr>",
    ]
    for r in report.results:
        name = f"<strong>{r.retriever}</strong>" if r.retriever == report.retriever else (
            r.retriever)
        parts.append(f'<tr><td title="{_h(RETRIEVERS[r.retriever])}">{name}</td>'
                     f'<td class="n">{_percent(r.top1)}</td><td class="n">{_percent(r.topk)}'
                     f'</td><td class="n">{r.mrr:.3f}</td><td class="n">{len(r.confusions)}'
                     f'</td><td class="n">{len(r.violations)}</td>'
                     f'<td class="n">{len(r.unreachable)}</td></tr>')
    parts.append("</table>")
    if report.fail_under is not None:
        verdict = "pass" if report.passed else "fail"
        parts.append(f'<p class="{verdict}">{"Passed" if report.passed else "Failed"}: '
                     f"{result.retriever} top-1 {_percent(result.top1)}, required "
                     f"{_percent(report.fail_under)}.</p>")
    if result.confusions:
        parts.append(f"<h2>{result.retriever} confusions</h2><table><tr><th>right tool</th>"
                     "<th>ranked first</th><th>words</th><th>requests</th></tr>")
        for c in result.confusions:
            requests = "".join(f"<li>{_h(o.query.request)}</li>" for o in c.outcomes)
            parts.append(f"<tr><td><code>{_h(report.label(c.expected))}</code></td>"
                         f"<td><code>{_h(report.label(c.chosen))}</code></td>"
                         f"<td>{_h(', '.join(c.words))}</td><td><ul>{requests}</ul></td></tr>")
        parts.append("</table>")
    if result.violations:
        parts.append(f"<h2>{result.retriever} not-violations</h2><ul>")
        for o in result.violations:
            banned = ", ".join(report.label(j) for j in o.violations)
            parts.append(f"<li><code>{_h(banned)}</code> ranked at or above "
                         f"<code>{_h(report.label(o.query.expected))}</code> for "
                         f"“{_h(o.query.request)}”</li>")
        parts.append("</ul>")
    if report.intents and result.unreachable:
        names = ", ".join(report.label(i) for i in result.unreachable)
        parts.append(f"<p>Unreachable (in no request's top {report.top_k}): "
                     f"<code>{_h(names)}</code></p>")
    parts.append(f'<p class="note">{_h(STAND_IN)}</p></body></html>')
    from mcplint.reporters import printable

    out.write(printable("\n".join(parts)) + "\n")


RENDERERS = {"text": render_text, "json": render_json, "markdown": render_markdown,
             "sarif": render_sarif, "html": render_html}
