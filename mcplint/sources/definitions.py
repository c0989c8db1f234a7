"""What a language scanner reports: one tool definition found in source, and its spans."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mcplint.findings import SourceLocation


@dataclass(frozen=True)
class Definition:
    """A tool as its source writes it.

    ``site`` is the registration itself (the decorator, the ``Tool(...)`` or ``server.tool(...)``
    call), the fallback for anything about the tool that has no literal of its own.
    ``description`` is the text when it is static (a literal, concatenated literals, a module
    constant), ``""`` when there is none, ``None`` when it is computed; ``description_at`` can
    be known either way.
    """

    name: str
    site: SourceLocation
    name_at: SourceLocation
    description: str | None = ""
    description_at: SourceLocation | None = None
    annotations_at: SourceLocation | None = None
    params: Mapping[str, SourceLocation] = field(default_factory=dict, compare=False)
    # False for a bare data literal (``{"name": ..., "inputSchema": ...}``): that is how
    # low-level servers write tools, but also how tests and docs copy them.
    registration: bool = True

    @property
    def file(self) -> str:
        return self.site.file

    @property
    def where(self) -> str:
        return f"{self.site.file}:{self.name_at.line}"


def same_text(a: str, b: str) -> bool:
    """Descriptions compare with whitespace collapsed: SDKs keep a docstring's indentation,
    dedent it, or strip it, and a split literal joins its parts with a space or a newline."""
    return a.split() == b.split()
