"""Turn command-line targets (files, directories, ``-``) into manifests or located errors."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from mcplint.config import matches_any
from mcplint.loaders.jsonsource import Document, ParseError, Position, parse_json
from mcplint.loaders.manifest import LoadError, build_manifest
from mcplint.model import Manifest

STDIN = "-"


@dataclass(frozen=True)
class Source:
    """A file to lint. ``explicit`` is false for files found by expanding a directory."""

    path: str
    explicit: bool = True


@dataclass(frozen=True)
class Loaded:
    source: Source
    manifest: Manifest | None
    errors: tuple[LoadError, ...]
    skipped: str | None = None  # why a file found by expansion was not a manifest
    # The parsed file, so a caller can recognise another kind of file (a client config) without
    # parsing a large file twice.
    document: Document | None = None


def expand(target: str, include: tuple[str, ...], exclude: tuple[str, ...]) -> Iterator[Source]:
    """A file target as itself; a directory as the files under it that the globs select."""
    if target == STDIN or not os.path.isdir(target):
        yield Source(target)
        return
    root = Path(target)
    found = []
    for folder, dirs, names in os.walk(root):
        relative_folder = Path(folder).relative_to(root).as_posix()
        prefix = "" if relative_folder == "." else relative_folder + "/"
        # Prune excluded directories so node_modules is never walked.
        dirs[:] = [d for d in dirs if not matches_any(f"{prefix}{d}/", exclude)]
        for name in names:
            relative = prefix + name
            if matches_any(relative, include) and not matches_any(relative, exclude):
                found.append(os.path.join(folder, name))
    for path in sorted(found):
        yield Source(os.path.normpath(path), explicit=False)


def _read(source: Source, stdin: TextIO | None) -> str | LoadError:
    try:
        if source.path == STDIN:
            return (stdin or sys.stdin).read()
        with open(source.path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return LoadError(source.path, Position(0, 0), "no such file or directory")
    except IsADirectoryError:
        return LoadError(source.path, Position(0, 0), "is a directory")
    except UnicodeDecodeError as exc:
        return LoadError(source.path, Position(0, 0),
                         f"not UTF-8 text (byte {exc.start}); save the file as UTF-8 JSON")
    except OSError as exc:
        return LoadError(source.path, Position(0, 0), f"cannot read: {exc.strerror}")


def display_name(source: Source) -> str:
    return "<stdin>" if source.path == STDIN else source.path


def load(source: Source, stdin: TextIO | None = None) -> Loaded:
    text = _read(source, stdin)
    name = display_name(source)
    if isinstance(text, LoadError):
        return Loaded(source, None, (LoadError(name, text.position, text.message),))
    parsed = parse_json(text)
    if isinstance(parsed, ParseError):
        message = (f"{parsed.message}; fix the JSON here (comments and trailing commas are "
                   "accepted, as in JSONC)")
        return Loaded(source, None, (LoadError(name, parsed.position, message),))
    manifest, errors = build_manifest(name, parsed)
    if manifest is None and not source.explicit:
        # Directory expansion picks up every *.json (package.json, ...); a JSON file that is
        # not a manifest is skipped there, and said so, but an explicit target must be one.
        return Loaded(source, None, (), skipped=errors[0].message if errors else None,
                      document=parsed)
    return Loaded(source, manifest, tuple(errors), document=parsed)
