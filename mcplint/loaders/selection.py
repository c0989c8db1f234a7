"""Which files a run lints: each target expanded with its config's globs and .gitignore.

Every pattern is matched with gitignore's rules (by ``pathspec``) against the path relative to
the config file's directory, so a glob means the same files whichever target names them:
``extend-exclude = ["mcp/skip.json"]`` leaves that file out of ``check .`` and ``check mcp/``
alike.  Files named on the command line are linted as named, unless ``force-exclude`` says the
exclude globs apply to them too (pre-commit names every file it passes).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from mcplint.config import Config, matches_any
from mcplint.loaders.files import STDIN, Source

if TYPE_CHECKING:
    import pathspec


@dataclass(frozen=True)
class FileOptions:
    """The command line's say on file selection; ``None`` leaves it to the config."""

    respect_gitignore: bool | None = None
    force_exclude: bool | None = None
    # A named JSON file that holds no tool manifest is skipped with a note, not an error.
    skip_non_manifests: bool = False


class Selected(NamedTuple):
    """What one target selects."""

    target: str
    sources: tuple[Source, ...]
    directory: bool = False  # the target is a folder, expanded with the globs
    excluded: bool = False  # a named file that force-exclude leaves out
    why: str = ""  # for a folder that selects nothing: what selection applied


def real_path(path: str) -> Path:
    """The absolute path with symlinks resolved; as far as it resolves, for a symlink loop."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


@dataclass
class _GitIgnores:
    """The .gitignore files that apply under ``top``, each anchored at its own folder, and
    the repository's ``.git/info/exclude`` (when ``top`` is a repository's work tree)."""

    top: Path
    _specs: dict[Path, pathspec.GitIgnoreSpec | None] = field(default_factory=dict)

    @staticmethod
    def _read(path: Path) -> pathspec.GitIgnoreSpec | None:
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:  # none there, or unreadable: git ignores it too
            return None
        import pathspec  # only where there is a .gitignore to read

        return pathspec.GitIgnoreSpec.from_lines(lines)

    def _spec(self, folder: Path) -> pathspec.GitIgnoreSpec | None:
        if folder not in self._specs:
            self._specs[folder] = self._read(folder / ".gitignore")
        return self._specs[folder]

    @cached_property
    def _info_exclude(self) -> pathspec.GitIgnoreSpec | None:
        return self._read(self.top / ".git" / "info" / "exclude")

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """Whether git ignores ``path`` (under ``top``): the deepest .gitignore with a pattern
        that matches decides, then info/exclude, as in git."""
        suffix = "/" if is_dir else ""
        folder = path.parent
        while True:
            spec = self._spec(folder)
            if spec is not None:
                result = spec.check_file(path.relative_to(folder).as_posix() + suffix)
                if result.include is not None:
                    return bool(result.include)
            if folder == self.top or folder == folder.parent:
                break
            folder = folder.parent
        info = self._info_exclude
        if info is None:
            return False
        return bool(info.match_file(path.relative_to(self.top).as_posix() + suffix))


def _git_top(start: Path, fallback: Path) -> Path:
    """The work tree ``start`` is in (the nearest folder holding ``.git``), else ``fallback``."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return fallback


def _anchor(config: Config, base: Path) -> tuple[Path, str]:
    """The folder globs are anchored at and ``base``'s path from it (``""`` for itself).

    That is the config's folder; a target outside it (``--config`` elsewhere, or the default
    configuration) is matched from the target itself.
    """
    root = real_path(str(config.root))
    relative = _relative(base, root)
    if relative is None:
        return base, ""
    return root, "" if relative == "." else relative


def select(target: str, config: Config, options: FileOptions | None = None) -> Selected:
    """A named file as itself (unless force-excluded); a folder as the files under it that
    the include globs select and neither exclude nor .gitignore leaves out, sorted."""
    options = options or FileOptions()
    if target == STDIN:
        return Selected(target, (Source(target),))
    if not os.path.isdir(target):
        force = config.force_exclude if options.force_exclude is None else options.force_exclude
        if force:
            path = real_path(target)
            root, relative = _anchor(config, path.parent)
            name = f"{relative}/{path.name}" if relative else path.name
            if matches_any(name, config.exclude):
                return Selected(target, (), excluded=True)
        return Selected(target, (Source(target, skip_non_manifest=options.skip_non_manifests),))
    respect = (config.respect_gitignore if options.respect_gitignore is None
               else options.respect_gitignore)
    base = real_path(target)
    root, inside = _anchor(config, base)
    if inside and matches_any(f"{inside}/", config.exclude):
        # A folder the user names is linted though the config excludes where it lies (the
        # default `**/.*/**` covers .github/mcp/); its contents are matched from itself.
        # With force-exclude the exclusion wins, as it does for a named file.
        force = config.force_exclude if options.force_exclude is None else options.force_exclude
        if force:
            return Selected(target, (), excluded=True)
        root = base
    ignores = _GitIgnores(_git_top(base, root)) if respect else None
    found = []
    for folder, dirs, names in os.walk(target):
        inner = Path(folder).relative_to(target).as_posix()
        here = base if inner == "." else base / inner
        at = _relative(here, root)
        at = "" if at in (None, ".") else at + "/"
        # Prune excluded and ignored folders, so node_modules is never walked.
        dirs[:] = [d for d in dirs
                   if not matches_any(f"{at}{d}/", config.exclude)
                   and not (ignores and (d == ".git" or ignores.ignored(here / d, is_dir=True)))]
        for name in names:
            relative = at + name
            if (matches_any(relative, config.include)
                    and not matches_any(relative, config.exclude)
                    and not (ignores and ignores.ignored(here / name, is_dir=False))):
                found.append(os.path.join(folder, name))
    sources = tuple(Source(os.path.normpath(path), explicit=False) for path in sorted(found))
    why = ""
    if not sources:
        shown = ", ".join(f'"{p}"' for p in config.include)
        left_out = "excluded or ignored by git" if respect else "excluded"
        why = (f"no files to lint: nothing under this directory matches the include globs "
               f"({shown}) of {config.label} and is not {left_out}")
    return Selected(target, sources, directory=True, why=why)


def identity(source: Source) -> str | None:
    """What makes two sources the same file (its real path); ``None`` for standard input."""
    return None if source.path == STDIN else str(real_path(source.path))
