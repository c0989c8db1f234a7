"""JUnit XML for CI dashboards: a testsuite per file, a testcase per tool.

A tool with findings is a failed testcase whose failure lists them; a file that could not be
read is a testsuite with one errored testcase.  Third-party text can hold characters XML 1.0
forbids, and characters that draw nothing or reorder what a dashboard shows, so every string
has those revealed as escapes (mcplint.reporters.visible) before it goes in.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TextIO

from mcplint.findings import Finding, InputError, Severity
from mcplint.loaders.files import STDIN
from mcplint.reporters import ReportOptions, manifest_place
from mcplint.reporters.visible import reveal
from mcplint.run import FileSummary, Report

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
SERVER = "(server)"


def clean(value: str) -> str:
    # After reveal only noncharacters (U+FFFE, U+FFFF) can be left that XML forbids.
    return _NOT_XML.sub("\ufffd", reveal(value))


def _element(parent: ET.Element, tag: str, **attributes: str) -> ET.Element:
    return ET.SubElement(parent, tag, {k: clean(v) for k, v in attributes.items()})


def _entry(finding: Finding, live: bool) -> str:
    manifest = f"{finding.file}:{finding.line}:{finding.column}"
    source = finding.source
    where = f"{source.file}:{source.line}:{source.column}" if source else manifest
    entry = (f"{where}: {finding.severity.label} {finding.code} {finding.name}: "
             f"{finding.message}")
    if finding.suggestion:
        entry += f"\n  help: {finding.suggestion}"
    if finding.fix and not live and finding.file != STDIN:
        entry += f"\n  fix: {finding.fix.description} (mcplint check --fix)"
    if source:
        place = manifest_place(finding.file, finding.line, finding.column, finding.pointer, live)
        entry += f"\n  manifest: {place}"
    return entry


def _lines(findings: list[Finding], live: bool) -> str:
    return clean("\n".join(_entry(f, live) for f in findings))


def _failed(findings: list[Finding]) -> bool:
    # Info findings are advice: dashboards show them as output of a passing testcase.
    return any(f.severity > Severity.INFO for f in findings)


def _outcome(case: ET.Element, findings: list[Finding], live: bool) -> None:
    if _failed(findings):
        worst = max(f.severity for f in findings)
        codes = ", ".join(dict.fromkeys(f.code for f in findings))
        failure = _element(case, "failure", type=worst.label,
                           message=f"{len(findings)} finding{'s' if len(findings) > 1 else ''}"
                                   f": {codes}")
        failure.text = _lines(findings, live)
    else:
        _element(case, "system-out").text = _lines(findings, live)


def _suite(root: ET.Element, summary: FileSummary, findings: list[Finding]) -> None:
    by_tool: dict[str, list[Finding]] = {}
    for finding in findings:
        by_tool.setdefault(finding.tool or SERVER, []).append(finding)
    names = [SERVER] if SERVER in by_tool else []
    names += [t.name for t in summary.tool_details]
    names += [t for t in by_tool if t not in names]  # tools the summary lacks
    failed = sum(1 for name in names if _failed(by_tool.get(name, [])))
    suite = _element(root, "testsuite", name=summary.file, tests=str(len(names)),
                     failures=str(failed), errors="0", skipped="0")
    if summary.tokens is not None:
        properties = _element(suite, "properties")
        _element(properties, "property", name="tokens", value=str(summary.tokens))
    lines = {t.name: t.line for t in summary.tool_details}
    for name in names:
        attributes = {"name": name, "classname": summary.file, "file": summary.file}
        if name in lines:
            attributes["line"] = str(lines[name])
        case = _element(suite, "testcase", **attributes)
        if by_tool.get(name):
            _outcome(case, by_tool[name], summary.live)


def _error_suite(root: ET.Element, file: str, errors: list[InputError]) -> None:
    suite = _element(root, "testsuite", name=file, tests="1", failures="0", errors="1",
                     skipped="0")
    case = _element(suite, "testcase", name="load", classname=file, file=file)
    error = _element(case, "error", type="input-error", message=errors[0].message)
    error.text = clean("\n".join(str(e) for e in errors))


def as_xml(report: Report) -> ET.Element:
    root = ET.Element("testsuites", {"name": "mcplint"})
    findings: dict[str, list[Finding]] = {}
    for finding in report.findings:
        findings.setdefault(finding.file, []).append(finding)
    errors: dict[str, list[InputError]] = {}
    for error in report.errors:
        errors.setdefault(error.file, []).append(error)
    for summary in report.linted:
        if summary.file in errors and not summary.tools:
            continue  # nothing was linted; its error suite says why
        _suite(root, summary, findings.get(summary.file, []))
    for file, of_file in errors.items():
        _error_suite(root, file, of_file)
    suites = root.findall("testsuite")
    for total in ("tests", "failures", "errors"):
        root.set(total, str(sum(int(s.get(total, "0")) for s in suites)))
    return root


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    root = as_xml(report)
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode"))
    out.write("\n")
