"""JUnit XML for CI dashboards: a testsuite per file, a testcase per finding.

A finding that makes the exit code 1 (at or above --fail-on) is a failed testcase; a finding
below it is a passing testcase with the finding as its output, so the failures a dashboard
counts are exactly the findings that failed the run (none with --fail-on never or
--exit-zero).  A tool with no finding is one passing testcase, so clean tools still show.  A
file that could not be read is a testsuite with one errored testcase.  Third-party text can
hold characters XML 1.0 forbids, and characters that draw nothing or reorder what a dashboard
shows, so every string has those revealed as escapes (mcplint.reporters.visible) before it
goes in.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TextIO

from mcplint import regex_cache as rx
from mcplint.findings import Finding, InputError
from mcplint.loaders.files import STDIN
from mcplint.reporters import ReportOptions, manifest_place
from mcplint.reporters.visible import reveal
from mcplint.run import FileSummary, Report

_NOT_XML = rx.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
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


def _fail_on(options: ReportOptions) -> str:
    label = options.fail_on_label
    return label if label.startswith("--") else f"--fail-on {label}"


def _suite(root: ET.Element, summary: FileSummary, findings: list[Finding],
           options: ReportOptions) -> None:
    by_tool: dict[str, list[Finding]] = {}
    for finding in findings:
        by_tool.setdefault(finding.tool or SERVER, []).append(finding)
    names = [SERVER] if SERVER in by_tool else []
    names += [t.name for t in summary.tool_details]
    names += [t for t in by_tool if t not in names]  # tools the summary lacks
    cases = sum(len(by_tool.get(name, [])) or 1 for name in names if name != SERVER) + \
        len(by_tool.get(SERVER, []))
    failed = sum(1 for f in findings if options.fails(f.severity))
    suite = _element(root, "testsuite", name=summary.file, tests=str(cases),
                     failures=str(failed), errors="0", skipped="0")
    if summary.tokens is not None:
        properties = _element(suite, "properties")
        _element(properties, "property", name="tokens", value=str(summary.tokens))
    lines = {t.name: t.line for t in summary.tool_details}
    for name in names:
        found = by_tool.get(name, [])
        if not found:
            attributes = {"name": name, "classname": summary.file, "file": summary.file}
            if name in lines:
                attributes["line"] = str(lines[name])
            _element(suite, "testcase", **attributes)
            continue
        for finding in found:
            case = _element(suite, "testcase", name=f"{name}: {finding.code} {finding.name}",
                            classname=summary.file, file=summary.file,
                            line=str(finding.line))
            entry = clean(_entry(finding, summary.live))
            if options.fails(finding.severity):
                failure = _element(case, "failure", type=finding.severity.label,
                                   message=f"{finding.code} fails the run "
                                           f"({_fail_on(options)})")
                failure.text = entry
            else:
                # The code is third-party text too (a plugin's), so it is cleaned like the rest.
                _element(case, "system-out").text = clean(
                    f"{finding.code} does not fail the run ({_fail_on(options)}):\n") + entry


def _error_suite(root: ET.Element, file: str, errors: list[InputError]) -> None:
    suite = _element(root, "testsuite", name=file, tests="1", failures="0", errors="1",
                     skipped="0")
    case = _element(suite, "testcase", name="load", classname=file, file=file)
    error = _element(case, "error", type="input-error", message=errors[0].message)
    error.text = clean("\n".join(str(e) for e in errors))


def _hidden_suite(root: ET.Element, options: ReportOptions) -> None:
    """One failed case for the findings --min-severity hid but --fail-on counts, so the
    suite fails when the run does."""
    suite = _element(root, "testsuite", name="mcplint", tests="1", failures="1", errors="0",
                     skipped="0")
    case = _element(suite, "testcase", name="findings below --min-severity", classname="mcplint")
    count = options.hidden_failing
    failure = _element(case, "failure", type="hidden",
                       message=f"{count} finding{'s' if count != 1 else ''} below "
                               f"--min-severity fail{'' if count != 1 else 's'} the run "
                               f"({_fail_on(options)})")
    failure.text = "Run without --min-severity to list them."


def as_xml(report: Report, options: ReportOptions | None = None) -> ET.Element:
    options = options or ReportOptions()
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
        _suite(root, summary, findings.get(summary.file, []), options)
    for file, of_file in errors.items():
        _error_suite(root, file, of_file)
    if options.hidden_failing:
        _hidden_suite(root, options)
    suites = root.findall("testsuite")
    for total in ("tests", "failures", "errors"):
        root.set(total, str(sum(int(s.get(total, "0")) for s in suites)))
    return root


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    root = as_xml(report, options)
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode"))
    out.write("\n")
