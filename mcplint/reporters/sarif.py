"""SARIF 2.1.0, shaped for GitHub code scanning.

Paths are relative to the working directory (the repository root in CI), given against the
base ``%SRCROOT%`` (declared in ``originalUriBaseIds`` without a machine path), so code
scanning can place each result on its line and no report names the directories of the machine
that wrote it.  A manifest finding's region spans the JSON node its pointer names (from the
member's key to the end of its value).  partialFingerprints come from the baseline's key, so a
result keeps its identity when lines move or tools are reordered.

``driver.rules`` holds the rules the run selected (it could report), each with ``helpUri``
to its page in docs/rules; safety and security rules carry ``security-severity`` and the
``security`` tag, which code scanning needs to rank them as security alerts.

Every ``text`` a viewer shows (messages, related-location messages, fix descriptions, the
logical location's name) has invisible and bidi characters revealed as escapes
(mcplint.reporters.visible); ``properties`` are data and keep the text as written, as the
JSON report does, and so does a fix's ``insertedContent``, which is what gets written.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from mcplint import __version__
from mcplint.baseline import Identifier, relative_file
from mcplint.findings import Finding, Fix, RuleInfo, Severity, SourceLocation
from mcplint.links import REPOSITORY_URL, documented, rule_url
from mcplint.loaders.files import STDIN
from mcplint.reporters import ReportOptions, live_files, printable
from mcplint.reporters.regions import Text, read
from mcplint.reporters.visible import reveal
from mcplint.run import Report

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
# Code scanning ranks security alerts by this CVSS-like score: 7+ is high, 4+ medium, else low.
SECURITY_SEVERITY = {Severity.ERROR: "7.5", Severity.WARNING: "5.0", Severity.INFO: "2.0"}
# Rules about what a tool may do to the user's data or machine, ranked as security alerts.
SECURITY_PREFIXES = ("SAFE", "SEC")
FINGERPRINT = "mcplint/v1"
SRCROOT = "%SRCROOT%"


def uri(file: str, root: Path) -> str:
    """The file relative to ``root``, as a URI reference (``../`` for a file outside it):
    never an absolute path of the machine that wrote the report."""
    # A server's name (file.json#name) can hold a lone surrogate, which no URI can encode.
    file = printable(file)
    relative = relative_file(file, root)
    if Path(relative).is_absolute() or re.match(r"[A-Za-z]:", relative):
        # Another drive (Windows): only the name can be given without the machine's paths.
        relative = Path(relative).name
    return quote(relative)


def artifact(file: str, root: Path) -> dict[str, str]:
    location = {"uri": uri(file, root)}
    if not file.startswith("<"):  # <stdin> and live servers are no file under the root
        location["uriBaseId"] = SRCROOT
    return location


def is_security(rule: RuleInfo) -> bool:
    return rule.code.startswith(SECURITY_PREFIXES) or "security" in rule.groups


def _example(text: str) -> str:
    # One line, as the packs write them: the rule's page (helpUri) has them laid out.
    try:
        return json.dumps(json.loads(text), ensure_ascii=False)
    except ValueError:
        return text


def help_markdown(rule: RuleInfo) -> str:
    text = (f"**{rule.code} {rule.name}**: {rule.summary}\n\n"
            f"**What it flags.** {rule.what}\n\n**Why it matters.** {rule.why}")
    if rule.bad and rule.good:
        text += (f"\n\nBad:\n\n```json\n{_example(rule.bad)}\n```\n\n"
                 f"Good:\n\n```json\n{_example(rule.good)}\n```")
    if documented(rule.code):
        text += (f"\n\n[{rule.code} documentation]({rule_url(rule.code)}): the examples laid "
                 f"out, and the rule's options (also `mcplint explain {rule.code}`).")
    else:
        text += f"\n\nRun `mcplint explain {rule.code}` for its options."
    return text


def help_text(rule: RuleInfo) -> str:
    # fullDescription says what the rule flags and viewers show the markdown; the plain text
    # (which SARIF requires) says why, and where the rest is, so no rule's docs are here twice.
    text = f"Why: {rule.why}" if rule.why else rule.summary
    if documented(rule.code):
        text += f"\n\nDocumentation: {rule_url(rule.code)}"
    return text


def _rule(rule: RuleInfo) -> dict[str, Any]:
    tags = list(rule.groups)
    properties: dict[str, Any] = {"tags": tags}
    if is_security(rule):
        if "security" not in tags:
            tags.append("security")
        properties["security-severity"] = SECURITY_SEVERITY[rule.severity]
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.what},
        "help": {
            "text": help_text(rule),
            "markdown": help_markdown(rule),
        },
        "defaultConfiguration": {"level": LEVEL[rule.severity]},
        "properties": properties,
    }
    if documented(rule.code):
        descriptor["helpUri"] = rule_url(rule.code)
    return descriptor


def _placeholder(finding: Finding) -> RuleInfo:
    # A finding whose rule the report does not describe (a plugin's, say) still needs a rule.
    return RuleInfo(finding.code, finding.name, finding.name, finding.severity, (), finding.name,
                    "", "", "")


def on_disk(file: str, line: int, column: int, live: bool = False) -> tuple[str, int, int]:
    """Where a finding is in the repository: a live server's lines are in its fetched snapshot,
    so its findings point at the client config it came from (``config.json#server``), or at
    the server's name, unlined.  (A server started as ``python server.py`` is named
    ``server.py``; the snapshot's line 71 is not line 71 of that file.)
    """
    config, sep, _ = file.rpartition("#")
    if sep and (live or not Path(file).exists()) and Path(config).is_file():
        return config, 0, 0
    if live:
        return file, 0, 0
    return file, line, column


class Texts:
    """The linted files' texts, read back once each per report, for the ends of regions."""

    def __init__(self, unreadable: frozenset[str] = frozenset()) -> None:
        self._texts: dict[str, Text | None] = {}
        self._unreadable = unreadable

    def end(self, file: str, line: int, column: int) -> tuple[int, int] | None:
        if file in self._unreadable or file.startswith("<"):
            return None
        if file not in self._texts:
            self._texts[file] = read(file)
        text = self._texts[file]
        return text.node_end(line, column) if text is not None else None


def _location(file: str, line: int, column: int, root: Path,
              live: bool = False, texts: Texts | None = None) -> dict[str, Any]:
    on, line, column = on_disk(file, line, column, live)
    physical: dict[str, Any] = {"artifactLocation": artifact(on, root)}
    if line > 0:
        region: dict[str, int] = {"startLine": line}
        if column > 0:
            region["startColumn"] = column
            end = texts.end(on, line, column) if texts is not None and on == file else None
            if end is not None:
                region["endLine"], region["endColumn"] = end
        physical["region"] = region
    return {"physicalLocation": physical}


def _source_location(source: SourceLocation, root: Path) -> dict[str, Any]:
    region = {"startLine": source.line, "startColumn": source.column,
              "endLine": source.end_line, "endColumn": source.end_column}
    return {"physicalLocation": {"artifactLocation": artifact(source.file, root),
                                 "region": region}}


def _fixes(finding: Finding, fix: Fix, root: Path, live: bool) -> list[dict[str, Any]]:
    """The fix as SARIF replacements in the manifest; none when the manifest is not a file in
    the repository (a live server's snapshot exists only in memory)."""
    file, line, _ = on_disk(finding.file, finding.line, finding.column, live)
    if not fix.text_edits or line <= 0 or file != finding.file or file == STDIN:
        return []
    # SARIF regions end one past the last character, as text edits do; an empty region inserts.
    replacements = [
        {"deletedRegion": {"startLine": e.line, "startColumn": e.column,
                           "endLine": e.end_line, "endColumn": e.end_column},
         "insertedContent": {"text": e.text}}
        for e in fix.text_edits
    ]
    return [{"description": {"text": reveal(fix.description)},
             "artifactChanges": [{"artifactLocation": artifact(file, root),
                                  "replacements": replacements}]}]


def message_text(finding: Finding) -> str:
    """The message, then what to write instead: code scanning shows only ``message.text``."""
    if finding.suggestion:
        return reveal(f"{finding.message}\n\nSuggestion: {finding.suggestion}")
    return reveal(finding.message)


def as_dict(report: Report, root: Path | None = None,
            options: ReportOptions | None = None) -> dict[str, Any]:
    root = root or source_root()
    options = options or ReportOptions()
    rules = dict(report.rules)
    for finding in report.findings:
        rules.setdefault(finding.code, _placeholder(finding))
    ordered = sorted(rules)
    index = {code: i for i, code in enumerate(ordered)}
    identify = Identifier(report, root)
    live_servers = live_files(report)
    # Standard input (by whatever name) is no file to read back; a live server's snapshot
    # exists only in memory.
    texts = Texts(live_servers | {f.file for f in report.files if f.stdin} | {STDIN})
    results = []
    for finding in report.findings:
        live = finding.file in live_servers
        manifest = _location(finding.file, finding.line, finding.column, root, live, texts)
        # Code scanning shows an alert on the first location only, and in a pull request only
        # on lines of its diff: the server's code when the tool was found there.  The manifest
        # place then follows as a related location.
        location = _source_location(finding.source, root) if finding.source else manifest
        name = reveal(finding.tool or "(server)")
        location["logicalLocations"] = [{"fullyQualifiedName": name,
                                         "kind": "function" if finding.tool else "module"}]
        properties: dict[str, Any] = {"pointer": finding.pointer, "tool": finding.tool}
        if finding.suggestion:
            properties["suggestion"] = finding.suggestion
        result: dict[str, Any] = {
            "ruleId": finding.code,
            "ruleIndex": index[finding.code],
            "level": LEVEL[finding.severity],
            "message": {"text": message_text(finding)},
            "locations": [location],
            # From the manifest identity, whatever the location shown: baselines must not churn.
            "partialFingerprints": {FINGERPRINT: identify.key(finding).fingerprint},
            "properties": properties,
        }
        related = [
            {"id": i, **_location(finding.file, r.line, r.column, root, live, texts),
             "message": {"text": reveal(f"tool {r.tool} ({r.pointer})")}}
            for i, r in enumerate(finding.related, start=1)
        ]
        if finding.source:
            # A live server's snapshot is no file of the repository: only its pointer is given.
            place = {} if live and on_disk(finding.file, 0, 0, live)[0] == finding.file \
                else manifest
            text = (f"snapshot of live server {finding.file} ({finding.pointer or '/'})" if live
                    else f"manifest ({finding.pointer or '/'})")
            related.append({"id": len(related) + 1, **place,
                            "message": {"text": reveal(text)}})
        if related:
            result["relatedLocations"] = related
        fixes = _fixes(finding, finding.fix, root, live) if finding.fix else []
        if fixes:
            result["fixes"] = fixes
        results.append(result)
    notifications = [
        {"level": "error", "message": {"text": reveal(error.message)},
         "locations": [_location(error.file, error.line, error.column, root)]}
        for error in report.errors
    ]
    invocation: dict[str, Any] = {"executionSuccessful": not report.errors,
                                  "toolExecutionNotifications": notifications}
    if options.exit_code is not None:
        # The process's own exit code, so a consumer of the file alone agrees with the run.
        invocation["exitCode"] = options.exit_code
    invocation["properties"] = {"fail-on": options.fail_on_label,
                                "failures": options.failing(report)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mcplint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": REPOSITORY_URL,
                "rules": [_rule(rules[code]) for code in ordered],
            }},
            "originalUriBaseIds": {SRCROOT: {"description": {
                "text": "The repository root (GITHUB_WORKSPACE in GitHub Actions, else the "
                        "directory mcplint ran in); every artifact URI is relative to it."}}},
            "invocations": [invocation],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def source_root() -> Path:
    """What %SRCROOT% stands for: the repository in GitHub Actions (GITHUB_WORKSPACE, which
    code scanning resolves paths against, also when mcplint runs in a subdirectory of it),
    else the working directory."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    return Path(workspace) if workspace else Path.cwd()


def render(report: Report, out: TextIO, options: ReportOptions) -> None:
    out.write(printable(json.dumps(as_dict(report, source_root(), options), indent=2,
                                   ensure_ascii=False)) + "\n")
