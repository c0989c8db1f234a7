"""Turn command-line targets (files, directories, ``-``) into manifests or located errors."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TextIO

from mcplint.loaders.jsonsource import Document, ParseError, Position, parse_json
from mcplint.loaders.manifest import LoadError, build_manifest
from mcplint.loaders.reading import MAX_BYTES, decode, not_regular, read_bytes, too_large
from mcplint.model import Manifest

STDIN = "-"


@dataclass(frozen=True)
class Source:
    """A file to lint. ``explicit`` is false for files found by expanding a directory
    (selection in ``mcplint.loaders.selection``)."""

    path: str
    explicit: bool = True
    # A named file that holds no tool manifest is skipped, as an expanded one is, not an
    # error (--skip-non-manifests: pre-commit names every file its pattern matches).
    skip_non_manifest: bool = False


@dataclass(frozen=True)
class Loaded:
    source: Source
    manifest: Manifest | None
    errors: tuple[LoadError, ...]
    skipped: str | None = None  # why a file found by expansion was not a manifest
    # The parsed file, so a caller can recognise another kind of file (a client config) without
    # parsing a large file twice.
    document: Document | None = None


def _read(source: Source, stdin: TextIO | None) -> str | LoadError:
    if source.path == STDIN:
        stream = stdin or sys.stdin
        buffer = getattr(stream, "buffer", None)
        try:
            if buffer is not None:
                return decode(source.path, buffer.read(MAX_BYTES + 1))
            text = stream.read(MAX_BYTES + 1)
        except UnicodeDecodeError as exc:
            return LoadError(source.path, Position(0, 0),
                             f"not UTF-8 text (byte {exc.start}); send UTF-8 JSON")
        except OSError as exc:
            return LoadError(source.path, Position(0, 0), f"cannot read: {exc.strerror}")
        if len(text) > MAX_BYTES:
            return too_large(source.path)
        return text
    data = read_bytes(source.path)
    return data if isinstance(data, LoadError) else decode(source.path, data)

def display_name(source: Source) -> str:
    return "<stdin>" if source.path == STDIN else source.path


def load(source: Source, stdin: TextIO | None = None) -> Loaded:
    if not source.explicit:
        special = not_regular(source.path)
        if special is not None:
            # A FIFO or device named *.json under a directory is nothing the user meant.
            return Loaded(source, None, (), skipped=special)
    text = _read(source, stdin)
    name = display_name(source)
    if isinstance(text, LoadError):
        return Loaded(source, None, (LoadError(name, text.position, text.message),))
    if not text.strip():
        # An empty FIFO or stdin, a file truncated to nothing: say so, not "Expecting value".
        return Loaded(source, None, (LoadError(name, Position(0, 0), "empty: no JSON to read; "
                                               "expected a tool manifest"),))
    parsed = parse_json(text)
    if isinstance(parsed, ParseError):
        message = parsed.message
        if parsed.syntax:
            message += ("; fix the JSON here (comments and trailing commas are accepted, as in "
                        "JSONC)")
        return Loaded(source, None, (LoadError(name, parsed.position, message),))
    manifest, errors = build_manifest(name, parsed)
    if manifest is None and (not source.explicit or source.skip_non_manifest):
        # Directory expansion picks up every *.json (package.json, ...); a JSON file that is
        # not a manifest is skipped there, and said so, but an explicit target must be one
        # (unless --skip-non-manifests says a hook named it).
        return Loaded(source, None, (), skipped=errors[0].message if errors else None,
                      document=parsed)
    if manifest is not None:
        errors = [*duplicate_keys(name, parsed), *errors]
    return Loaded(source, manifest, tuple(errors), document=parsed)


def duplicate_keys(name: str, document: Document) -> list[LoadError]:
    """A key given twice in one object is ambiguous: JSON parsers disagree on which value
    counts, so a reviewer's tool may show one description and the agent's client another."""
    errors = []
    for pointer, offset in document.duplicates:
        if not pointer:  # past the index budget: located, but not named
            errors.append(LoadError(name, document.position_of_offset(offset),
                                    "duplicate key: JSON readers disagree on which value counts "
                                    "(mcplint read the last); keep one"))
            continue
        parent, _, key = pointer.rpartition("/")
        key = key.replace("~1", "/").replace("~0", "~")
        errors.append(LoadError(
            name, document.position_of_offset(offset),
            f'duplicate key "{key}" in {parent or "the top-level object"}: JSON readers '
            "disagree on which value counts (mcplint read the last); keep one", pointer))
    return errors
