"""Scan a source tree once for the definitions of the tools a run needs.

Only files that could hold a definition are parsed: one of the registration forms must be in
the text (``.tool``, ``Tool(``, ``registerTool``, ``NewTool`` ...), and one of the wanted names
must be a word of it, since a tool's name is always written whole in its definition (as
``def name`` or a literal).  That keeps a scan of a large tree close to the cost of reading it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mcplint import regex_cache as rx
from mcplint.sources.definitions import Definition
from mcplint.sources.literal import literal_definitions
from mcplint.sources.python import python_definitions
from mcplint.sources.walk import GO, PYTHON, SCRIPT, read_text, source_files

# Text every definition form of a language contains; a file with none is not read further.
_MARKERS = {
    PYTHON: (".tool", ".add_tool", "Tool(", "inputSchema", "input_schema"),
    SCRIPT: (".tool", ".registerTool", "inputSchema"),
    GO: ("NewTool", "Tool{"),
}
# What a tool name is made of as a word of source text (the spec's name characters).
_WORD = rx.compile(r"[A-Za-z0-9_.\-]+")
_FEW = 32


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
    # Names outside the spec's characters are looked for as plain substrings.
    odd = [name for name in wanted if not _WORD.fullmatch(name)]
    found: dict[str, list[Definition]] = {}
    files = parsed = 0
    for source in source_files(root):
        files += 1
        text = read_text(source.path)
        if text is None or not any(marker in text for marker in _MARKERS[source.language]):
            continue
        if not _mentions(text, wanted, odd):
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


def _mentions(text: str, wanted: set[str], odd: list[str]) -> bool:
    # A few names are fastest found as substrings; many, by splitting the text into words once.
    if len(wanted) <= _FEW:
        return any(name in text for name in wanted)
    return not wanted.isdisjoint(_words(text)) or any(name in text for name in odd)


def _words(text: str) -> set[str]:
    """The name-shaped words of a text; a dotted word also gives its parts (``mcp.tool`` is
    ``mcp`` and ``tool`` too) and a hyphenated one its pieces."""
    words = set(_WORD.findall(text))
    for word in [w for w in words if "." in w or "-" in w]:
        words.update(re.split(r"[.\-]", word))
    return words
