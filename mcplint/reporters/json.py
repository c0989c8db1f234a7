"""The JSON report: a stable, documented schema (docs/json-output.md), versioned by "schema"."""

from __future__ import annotations

import json
from typing import Any, TextIO

from mcplint import __version__
from mcplint.findings import Finding, Fix, Severity, SourceLocation
from mcplint.reporters import ReportOptions, printable, rule_counts
from mcplint.run import Report

SCHEMA = "mcplint/report/v1"


def _finding(finding: Finding) -> dict[str, Any]:
    return {
        "code": finding.code,
        "name": finding.name,
        "severity": finding.severity.label,
        "message": finding.message,
        "file": finding.file,
        "line": finding.line,
        "column": finding.column,
        "pointer": finding.pointer,
        "tool": finding.tool,
        "related": [
            {"tool": r.tool, "pointer": r.pointer, "line": r.line, "column": r.column}
            for r in finding.related
        ],
        "suggestion": finding.suggestion,
        "fix": _fix(finding.fix) if finding.fix else None,
        "source": _source(finding.source) if finding.source else None,
    }


def _fix(fix: Fix) -> dict[str, Any]:
    return {
        "description": fix.description,
        # The value as JSON, not as text: consumers that edit the document need no second parse.
        "edits": [{"pointer": e.pointer, "key": e.key, "value": json.loads(e.value_json)}
                  for e in fix.edits],
        "text_edits": [{"line": t.line, "column": t.column, "end_line": t.end_line,
                        "end_column": t.end_column, "text": t.text} for t in fix.text_edits],
    }


def _source(source: SourceLocation) -> dict[str, Any]:
    return {"file": source.file, "line": source.line, "column": source.column,
            "end_line": source.end_line, "end_column": source.end_column}


def as_dict(report: Report, with_statistics: bool = False,
            options: ReportOptions | None = None) -> dict[str, Any]:
    options = options or ReportOptions()
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "version": __version__,
        "tokens": {"method": report.token_method or None},
        "summary": {
            "files": len(report.linted),
            "skipped": len(report.files) - len(report.linted),
            "tools": sum(f.tools for f in report.linted),
            "findings": len(report.findings),
            "error": report.count(Severity.ERROR),
            "warning": report.count(Severity.WARNING),
            "info": report.count(Severity.INFO),
            "input_errors": len(report.errors),
            # Added in 0.1.0 (schema v1 keeps its fields and only adds): what fails the run,
            # how many findings do, and the exit code the run ended with.
            "fail_on": options.fail_on_label,
            "failures": options.failing(report),
            "exit_code": options.exit_code,
        },
        "files": [
            {"file": f.file, "tools": f.tools, "tokens": f.tokens, "skipped": f.skipped}
            for f in report.files
        ],
        "input_errors": [
            {"file": e.file, "line": e.line or None, "column": e.column or None,
             "message": e.message}
            for e in report.errors
        ],
        "findings": [_finding(f) for f in report.findings],
    }
    if with_statistics:
        data["statistics"] = statistics(report)
    return data


def statistics(report: Report) -> list[dict[str, Any]]:
    """How often each rule fired, most frequent first, as ``ruff --statistics`` writes it:
    ``fixable`` when ``check --fix`` can fix some of those findings."""
    return [{"code": code, "name": name, "severity": severity.label, "count": count,
             "fixable": fixable}
            for code, name, severity, count, fixable in rule_counts(report)]


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    # The counts join the report as its "statistics" field (schema v1 keeps its fields), so a
    # program reading the report reads the counts the same way.
    data = as_dict(report, options.statistics, options)
    out.write(printable(json.dumps(data, indent=2, ensure_ascii=False)))
    out.write("\n")
