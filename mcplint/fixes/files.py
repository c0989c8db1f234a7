"""Fix JSON files on disk: find the files a check would lint, fix each in memory, then write
them atomically or show the change as a unified diff.

Only files are fixed in place.  Live servers have no text to change, and a client config is
the user's editor settings, not a tool manifest.  Standard input (``check --fix -``) is fixed
as Ruff fixes it: the fixed text goes to standard output (``fix_stdin``).
"""

from __future__ import annotations

import contextlib
import difflib
import os
import stat
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mcplint import regex_cache as rx
from mcplint.config import Config, discover, parse_config
from mcplint.engine.linter import Linter, Selection
from mcplint.findings import Fix, InputError
from mcplint.fixes.apply import Fixed, fix_text
from mcplint.loaders.clientconfig import read_config
from mcplint.loaders.files import STDIN, Source, load
from mcplint.loaders.jsonsource import Document
from mcplint.loaders.manifest import build_manifest
from mcplint.loaders.reading import not_regular
from mcplint.loaders.selection import FileOptions, select


@dataclass(frozen=True)
class FileFix:
    """One file's text before and after its safe fixes."""

    path: str
    original: str
    fixed: str
    problems: int  # the findings whose fixes were applied


@dataclass(frozen=True)
class FixPlan:
    files: tuple[FileFix, ...]  # files that change
    errors: tuple[str, ...]  # fixes refused as bugs
    input_errors: tuple[InputError, ...]  # files that could not be read as manifests
    not_fixed: tuple[str, ...]  # kinds of targets that are linted but never fixed

    @property
    def problems(self) -> int:
        return sum(f.problems for f in self.files)


class _Linters:
    """One linter per configuration, found the way ``run`` finds it for each target."""

    def __init__(self, selection: Selection, config_path: Path | None) -> None:
        self.selection = selection
        self.explicit: Config | None = None
        if config_path is not None:
            from mcplint.config import ConfigError

            self.explicit = parse_config(config_path)
            if self.explicit is None:
                raise ConfigError(f"{config_path}: has no [tool.mcplint] table")
        self._configs: dict[Path, Config] = {}
        self._linters: dict[Config, Linter] = {}

    def config(self, target: str) -> Config:
        if self.explicit is not None:
            return self.explicit
        resolved = Path(target).resolve()
        folder = resolved if resolved.is_dir() else resolved.parent
        if folder not in self._configs:
            self._configs[folder] = discover(folder)
        return self._configs[folder]

    def linter(self, config: Config) -> Linter:
        if config not in self._linters:
            self._linters[config] = Linter(config, self.selection)
        return self._linters[config]


def plan(targets: Sequence[str], selection: Selection, config_path: Path | None = None,
         live_targets: bool = False, files_options: FileOptions | None = None) -> FixPlan:
    """What ``--fix`` would change in the files ``check`` would lint for these targets.

    Raises ``ConfigError`` for a bad configuration, as ``run`` does.
    """
    linters = _Linters(selection, config_path)
    files: list[FileFix] = []
    errors: list[str] = []
    input_errors: list[InputError] = []
    not_fixed: list[str] = ["live servers"] if live_targets else []
    seen: set[str] = set()  # a file named twice (or through a link) is fixed once
    for target in targets or ([] if live_targets else ["."]):
        if target == STDIN:
            not_fixed.append("standard input")
            continue
        config = linters.config(target)
        for source in select(target, config, files_options).sources:
            if not_regular(source.path) is not None:
                # A FIFO or device: read once by the lint, with nothing to write back to
                # (opening it again here could wait for a writer forever).
                not_fixed.append("special files")
                continue
            if source.explicit and read_config(source.path) is not None:
                not_fixed.append("client configs")
                continue
            real = os.path.realpath(source.path)
            if real in seen:
                continue
            seen.add(real)
            outcome = _fix_file(source, linters.linter(config))
            if isinstance(outcome, FileFix):
                files.append(outcome)
            elif isinstance(outcome, str):
                errors.append(outcome)
            else:
                input_errors.extend(outcome)
    return FixPlan(tuple(files), tuple(errors), tuple(input_errors),
                   tuple(dict.fromkeys(not_fixed)))


def fix_stdin(text: str, name: str, selection: Selection, config_path: Path | None = None,
              config_from: str = ".") -> Fixed:
    """Standard input's text with its safe fixes applied (``check --fix -``), linted with the
    config found for ``config_from`` (the --stdin-filename, else the working directory).
    Text that does not parse comes back unchanged; the lint reports why."""
    linters = _Linters(selection, config_path)
    linter = linters.linter(linters.config(config_from))
    return fix_text(text, _fixes_for(name, linter))


def _fixes_for(name: str, linter: Linter) -> Callable[[Document], list[Fix]]:
    def fixes_for(document: Document) -> list[Fix]:
        manifest, _ = build_manifest(name, document)
        if manifest is None:
            return []
        return [f.fix for f in linter.lint(manifest).findings if f.fix is not None]

    return fixes_for


def _fix_file(source: Source, linter: Linter) -> FileFix | str | list[InputError]:
    """The file's fix, an error message (a refused fix), or why it could not be loaded."""
    loaded = load(source)
    if loaded.manifest is None:
        return [InputError(e.file, e.position.line, e.position.column, e.message)
                for e in loaded.errors]
    name = loaded.manifest.file
    try:
        with open(source.path, "rb") as handle:
            original = handle.read().decode("utf-8")
    except (OSError, UnicodeError) as exc:  # it was just read; only a race gets here
        return f"{name}: cannot read the file to fix it: {exc}"

    fixed = fix_text(original, _fixes_for(name, linter))
    if fixed.error is not None:
        return f"{name}: {fixed.error}"
    if not fixed.applied or fixed.text == original:
        return []
    return FileFix(source.path, original, fixed.text, len(fixed.applied))


def write(fix: FileFix) -> str | None:
    """Replace the file with its fixed text, atomically and with its mode kept; an error
    message when that cannot be done (the file is then as it was)."""
    real = os.path.realpath(fix.path)
    try:
        with open(real, "rb") as handle:
            current = handle.read()
        if current != fix.original.encode("utf-8"):
            return f"{fix.path}: changed while it was being fixed; not written"
        mode = stat.S_IMODE(os.stat(real).st_mode)
        descriptor, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(real)}.", suffix=".mcplint-fix",
            dir=os.path.dirname(real))
    except OSError as exc:
        return f"{fix.path}: cannot write the fixed file: {exc.strerror or exc}"
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(fix.fixed.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, real)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return f"{fix.path}: cannot write the fixed file: {exc.strerror or exc}"
    return None


_LINE = rx.compile(r"[^\n]*\n|[^\n]+")


def _diff_names(path: str) -> tuple[str, str]:
    """``a/path`` and ``b/path`` like git for a path inside the working directory (apply with
    ``patch -p1`` or ``git apply``); the plain path for one outside it."""
    candidate = Path(path)
    if candidate.is_absolute():
        with contextlib.suppress(ValueError):
            candidate = candidate.relative_to(Path.cwd())
    if candidate.is_absolute() or ".." in candidate.parts:
        return path, path
    name = candidate.as_posix()
    return f"a/{name}", f"b/{name}"


def unified_diff(fix: FileFix) -> str:
    """The change as a unified diff that ``patch`` and ``git apply`` accept."""
    before, after = _diff_names(fix.path)
    # Split on "\n" only: str.splitlines also breaks at U+2028 and friends, valid in JSON text.
    lines = difflib.unified_diff(_LINE.findall(fix.original), _LINE.findall(fix.fixed),
                                 before, after)
    out = []
    for line in lines:
        out.append(line)
        if not line.endswith("\n"):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)
