"""Scan a source tree once for the definitions of the tools a run needs.

Only files that contain one of the wanted names as text are parsed: a tool's name is always
written in its definition (as ``def name`` or a literal), so the rest cannot define it.  That
keeps a scan of a large tree close to the cost of reading it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mcplint.sources.definitions import Definition
from mcplint.sources.literal import literal_definitions
from mcplint.sources.python import python_definitions
from mcplint.sources.walk import PYTHON, read_text, source_files


@dataclass(frozen=True)
class SourceIndex:
    root: Path
    by_name: Mapping[str, tuple[Definition, ...]] = field(default_factory=dict)
    files: int = 0  # files of a scanned language under the root
    parsed: int = 0  # of which held a wanted name and were parsed


def build_index(root: Path, names: Collection[str]) -> SourceIndex:
    wanted = {name for name in names if name}
    if not wanted:
        return SourceIndex(root)
    # Longest first, so the alternation reports the most specific name (only presence matters).
    pattern = re.compile("|".join(re.escape(n) for n in sorted(wanted, key=len, reverse=True)))
    found: dict[str, list[Definition]] = {}
    files = parsed = 0
    for source in source_files(root):
        files += 1
        text = read_text(source.path)
        if text is None or not pattern.search(text):
            continue
        parsed += 1
        if source.language == PYTHON:
            definitions = python_definitions(source.shown, text)
        else:
            definitions = literal_definitions(source.shown, text, source.language)
        for definition in definitions:
            if definition.name in wanted:
                found.setdefault(definition.name, []).append(definition)
    return SourceIndex(root, {k: tuple(v) for k, v in found.items()}, files, parsed)
