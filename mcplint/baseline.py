"""A finding's identity across runs, and the baseline file built from it.

A fingerprint is the rule, the file, the tool (by name, not by index) and the pointer inside
that tool, plus the other tools a pair finding names.  Line numbers are left out, so editing
a description above a finding does not make it new, and tools are keyed by name, so
reordering the tools array does not either.  SARIF's partialFingerprints use the same key.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mcplint import __version__
from mcplint.findings import Finding
from mcplint.reporters import printable
from mcplint.run import FileSummary, Report

SCHEMA = "mcplint/baseline/v1"


class BaselineError(Exception):
    """A baseline file that cannot be read; the message names the file and the problem."""


def relative_file(file: str, root: Path) -> str:
    """``file`` relative to ``root`` with forward slashes; as given when it is not a path there."""
    if file.startswith("<"):  # <stdin>, and live servers named by the loader
        return file
    try:
        absolute = Path(file).resolve()
        return Path(os.path.relpath(absolute, root.resolve())).as_posix()
    except (OSError, ValueError):  # another drive on Windows, or an unresolvable path
        return Path(file).as_posix()


def _tool_pointers(files: Iterable[FileSummary]) -> dict[tuple[str, str], list[str]]:
    pointers: dict[tuple[str, str], list[str]] = {}
    for summary in files:
        for tool in summary.tool_details:
            pointers.setdefault((summary.file, tool.name), []).append(tool.pointer)
    return pointers


@dataclass(frozen=True)
class Key:
    """What identifies a finding: every part but the line."""

    code: str
    file: str
    tool: str | None
    pointer: str  # relative to the tool when there is one: "#2/inputSchema/required/0"
    related: tuple[str, ...]

    @property
    def fingerprint(self) -> str:
        text = json.dumps([self.code, self.file, self.tool, self.pointer, list(self.related)])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class Identifier:
    """Computes keys for the findings of one report, with paths relative to ``root``."""

    def __init__(self, report: Report, root: Path) -> None:
        self._pointers = _tool_pointers(report.files)
        self._root = root

    def key(self, finding: Finding) -> Key:
        pointer = finding.pointer
        if finding.tool is not None:
            candidates = self._pointers.get((finding.file, finding.tool), [])
            for occurrence, base in enumerate(candidates):
                if pointer == base or pointer.startswith(base + "/"):
                    # Which of several same-named tools (a duplicate-name finding), then the
                    # path inside the tool; the tool's index in the array is gone.
                    pointer = f"#{occurrence}{pointer[len(base):]}"
                    break
        related = tuple(sorted(r.tool for r in finding.related))
        return Key(finding.code, relative_file(finding.file, self._root), finding.tool, pointer,
                   related)


@dataclass(frozen=True)
class Entry:
    fingerprint: str
    code: str
    file: str
    tool: str | None
    pointer: str
    message: str


@dataclass(frozen=True)
class Applied:
    """A report with baselined findings removed, and the entries no finding matched."""

    report: Report
    suppressed: int
    stale: tuple[Entry, ...]


def entries(report: Report, root: Path) -> list[Entry]:
    identify = Identifier(report, root)
    result = []
    for finding in report.findings:
        key = identify.key(finding)
        result.append(Entry(key.fingerprint, key.code, key.file, key.tool, key.pointer,
                            finding.message))
    return result


def _entry_dict(entry: Entry) -> dict[str, Any]:
    return {"fingerprint": entry.fingerprint, "code": entry.code, "file": entry.file,
            "tool": entry.tool, "pointer": entry.pointer, "message": entry.message}


def _linted_files(report: Report, root: Path) -> set[str]:
    return {relative_file(f.file, root) for f in report.linted}


def write(report: Report, path: Path) -> int:
    """Write the report's findings as the baseline; returns how many entries it holds.

    Entries for files this run did not lint are kept, so a run on some files (as pre-commit
    does) does not forget the rest.
    """
    root = path.parent
    current = entries(report, root)
    linted = _linted_files(report, root)
    kept: list[Entry] = []
    # An unreadable baseline is what --write-baseline is for: it is replaced.
    with contextlib.suppress(BaselineError):
        if path.exists():
            kept = [e for e in read(path) if e.file not in linted]
    everything = sorted([*kept, *current],
                        key=lambda e: (e.file, e.tool or "", e.code, e.pointer, e.fingerprint))
    data = {"schema": SCHEMA, "version": __version__,
            "findings": [_entry_dict(e) for e in everything]}
    text = printable(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"
    try:
        # Write beside it, then rename: an interrupted run never leaves half a baseline.
        partial = path.with_name(path.name + ".tmp")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError as exc:
        raise BaselineError(f"{path}: cannot write the baseline: {exc.strerror}") from exc
    return len(everything)


def _parse_entry(raw: Any, path: Path, index: int) -> Entry:
    if not isinstance(raw, Mapping):
        raise BaselineError(f"{path}: findings[{index}] is not an object")
    values: dict[str, Any] = {}
    for name in ("fingerprint", "code", "file", "pointer"):
        value = raw.get(name)
        if not isinstance(value, str):
            raise BaselineError(f"{path}: findings[{index}].{name} is missing or not a string")
        values[name] = value
    tool = raw.get("tool")
    message = raw.get("message")
    return Entry(tool=tool if isinstance(tool, str) else None,
                 message=message if isinstance(message, str) else "", **values)


def read(path: Path) -> list[Entry]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such baseline file; create it with --write-baseline "
                            f"{path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BaselineError(f"{path}: not a readable baseline ({exc}); write it again with "
                            "--write-baseline") from None
    if not isinstance(data, Mapping) or data.get("schema") != SCHEMA:
        raise BaselineError(f'{path}: not an mcplint baseline (expected "schema": "{SCHEMA}")')
    findings = data.get("findings")
    if not isinstance(findings, list):
        raise BaselineError(f"{path}: has no findings list")
    return [_parse_entry(raw, path, i) for i, raw in enumerate(findings)]


def apply(report: Report, baseline: Sequence[Entry], root: Path) -> Applied:
    """Drop findings the baseline holds; each entry absorbs one finding with its fingerprint.

    An entry is stale when its file was linted, its rule ran, and nothing matched it: the
    finding was fixed.  Entries for files or rules outside this run are neither.
    """
    available = Counter(e.fingerprint for e in baseline)
    identify = Identifier(report, root)
    kept: list[Finding] = []
    for finding in report.findings:
        fingerprint = identify.key(finding).fingerprint
        if available[fingerprint] > 0:
            available[fingerprint] -= 1
        else:
            kept.append(finding)
    linted = _linted_files(report, root)
    stale: list[Entry] = []
    for entry in baseline:
        if available[entry.fingerprint] > 0 and entry.file in linted and entry.code in report.rules:
            available[entry.fingerprint] -= 1
            stale.append(entry)
    suppressed = len(report.findings) - len(kept)
    return Applied(replace(report, findings=tuple(kept)), suppressed, tuple(stale))


def describe(entry: Entry) -> str:
    where = f"{entry.file} {entry.tool}" if entry.tool else entry.file
    return f"{where}: {entry.code} at {entry.pointer}"


def adopt(report: Report, use: Path | None, write_to: Path | None) -> tuple[Report, list[str]]:
    """What ``check --baseline``/``--write-baseline`` do: the report to render, and notes.

    Writing records every current finding and then applies the new baseline, so the run that
    writes it passes; reading drops the recorded findings and lists the stale entries.
    """
    notes: list[str] = []
    if write_to is not None:
        count = write(report, write_to)
        notes.append(f"wrote {count} findings to the baseline {write_to}")
        use = write_to
    if use is None:
        return report, notes
    applied = apply(report, read(use), use.parent)
    if applied.suppressed and write_to is None:
        notes.append(f"{applied.suppressed} findings are in the baseline {use} and not shown")
    if applied.stale:
        notes.append(f"{len(applied.stale)} baseline entries no longer occur (fixed); run "
                     f"--write-baseline {use} to drop them:")
        notes += [f"  stale: {describe(entry)}" for entry in applied.stale]
    return applied.report, notes
