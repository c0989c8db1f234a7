"""``check --fix`` and ``check --diff``: apply or preview the safe fixes, and say what was done.

Diffs go to standard output (they are the output of ``--diff``); notes, the summary line and
errors go to standard error, so a ``--fix`` report in JSON or SARIF stays clean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from mcplint.engine.linter import Selection
from mcplint.fixes.files import plan, unified_diff, write
from mcplint.loaders.selection import FileOptions


@dataclass(frozen=True)
class FixOutcome:
    problems: int
    files: int
    failed: bool  # a fix was refused or a file could not be written or read
    preview: bool  # --diff: nothing was written

    @property
    def summary(self) -> str:
        if not self.problems:
            return "No safe fixes to apply."
        verb = "Would fix" if self.preview else "Fixed"
        problems = "problem" if self.problems == 1 else "problems"
        files = "file" if self.files == 1 else "files"
        return f"{verb} {self.problems} {problems} in {self.files} {files}."

    @property
    def diff_exit_code(self) -> int:
        """Like Ruff's ``--diff``: 1 when there is something to fix, 2 on errors."""
        if self.failed:
            return 2
        return 1 if self.problems else 0


def run_fixes(targets: Sequence[str], selection: Selection, config_path: Path | None,
              live_targets: bool, *, preview: bool, out: TextIO, err: TextIO,
              files_options: FileOptions | None = None) -> FixOutcome:
    """Apply the safe fixes (``preview`` false) or print them as a diff (``preview`` true)."""
    fixes = plan(targets, selection, config_path, live_targets, files_options)
    flag = "--diff" if preview else "--fix"
    if fixes.not_fixed:
        kinds = list(fixes.not_fixed)
        named = kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} or {kinds[-1]}"
        err.write(f"mcplint: {flag} changes only JSON manifest and snapshot files, not "
                  f"{named}{'' if preview else ' (linted as usual)'}.\n")
    errors = list(fixes.errors)
    if preview:
        # --diff does not lint for a report, so files it could not read are reported here.
        errors[:0] = [str(error) for error in fixes.input_errors]
    problems = files = 0
    for fix in fixes.files:
        if preview:
            _write_bytes(out, unified_diff(fix))
        else:
            failure = write(fix)
            if failure is not None:
                errors.append(failure)
                continue
        problems += fix.problems
        files += 1
    for error in errors:
        err.write(f"error: {error}\n")
    return FixOutcome(problems, files, bool(errors), preview)


def _write_bytes(out: TextIO, text: str) -> None:
    """Write through to the bytes: a diff keeps the file's own line endings (a text stream
    on Windows would double CRLF) and its UTF-8 whatever the terminal's locale."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        out.write(text)
        return
    out.flush()
    buffer.write(text.encode("utf-8"))
    buffer.flush()
