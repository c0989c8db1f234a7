"""Match a manifest's tools to their definitions, and findings to the text they are about.

A tool maps to a definition only when that is certain: exactly one definition carries its
name, or exactly one of several also carries its description.  A definition whose static
description differs from the manifest's is some other tool of the same name (another server
in the tree, a stale snapshot) and is not used.  Everything else keeps the manifest location,
with a note saying why.

Definitions are weighed in tiers, and only the first tier that has any is considered:
registrations in the server's code, then bare data literals there, then anything in tests
(which copy tools to check them).  A copy in a test never makes a server's tool ambiguous, and
a registration that disagrees is never passed over for a literal that happens to agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from mcplint.findings import Finding, SourceLocation
from mcplint.model import Manifest, Tool
from mcplint.sources.definitions import Definition, same_text
from mcplint.sources.index import SourceIndex, build_index
from mcplint.sources.walk import is_test_path, shown

_LISTED = 8  # names or places a note lists before "and N more"


@dataclass(frozen=True)
class Located:
    """The tools of one manifest that were found, by tool pointer, and what was not."""

    tools: Mapping[str, tuple[Tool, Definition]]
    notes: tuple[str, ...]


def _listing(items: Sequence[str]) -> str:
    shown = ", ".join(items[:_LISTED])
    return shown + (f" and {len(items) - _LISTED} more" if len(items) > _LISTED else "")


def _agrees(definition: Definition, tool: Tool) -> bool:
    if definition.description is None:
        return True  # computed in source: the name alone decides
    return same_text(definition.description, tool.description or "")


def _tier(definition: Definition) -> int:
    if is_test_path(definition.file):
        return 2
    return 0 if definition.registration else 1


def _first_tier(candidates: Sequence[Definition]) -> list[Definition]:
    best = min(_tier(d) for d in candidates)
    return [d for d in candidates if _tier(d) == best]


def locate_tools(manifest: Manifest, index: SourceIndex) -> Located:
    found: dict[str, tuple[Tool, Definition]] = {}
    notes: list[str] = []
    missing: list[str] = []
    where = f"under {shown(index.root)}"
    for tool in manifest.tools:
        defined = index.by_name.get(tool.name, ()) if tool.name else ()
        if not defined:
            if tool.name:
                missing.append(tool.name)
            continue
        candidates = _first_tier(defined)
        agreeing = [d for d in candidates if _agrees(d, tool)]
        if len(agreeing) == 1:
            found[tool.pointer] = (tool, agreeing[0])
        elif len(candidates) == 1:
            notes.append(f'{manifest.file}: tool "{tool.name}" is defined at '
                         f"{candidates[0].where}, but with another description than the "
                         "manifest's (another server, or a stale snapshot?); its findings keep "
                         "the manifest location")
        else:
            places = _listing([d.where for d in candidates])
            notes.append(f'{manifest.file}: tool "{tool.name}" is defined in {len(candidates)} '
                         f"places {where} ({places}); its findings keep the manifest location")
    if missing:
        notes.append(f"{manifest.file}: {len(missing)} of {len(manifest.tools)} tools not found "
                     f"in source {where}: {_listing(missing)}")
    return Located(found, tuple(notes))


def _tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def source_for(pointer: str, tool: Tool, definition: Definition) -> SourceLocation:
    """Where the text at ``pointer`` (inside ``tool``) is written.

    Anything without a literal of its own (a parameter declared in a model class, computed
    annotations) lands on the registration, which is still the tool's own code.
    """
    rest = _tokens(pointer[len(tool.pointer):])
    if not rest or rest[0] == "name":
        return definition.name_at
    head = rest[0]
    if head == "description":
        return definition.description_at or definition.site
    if head == "annotations":
        return definition.annotations_at or definition.site
    if head == "inputSchema" and len(rest) >= 3:
        param: str | None = None
        if rest[1] == "properties":
            param = rest[2]
        elif rest[1] == "required" and rest[2].isdigit():
            schema = tool.input_schema
            required = schema.get("required") if isinstance(schema, dict) else None
            if isinstance(required, list) and int(rest[2]) < len(required) \
                    and isinstance(required[int(rest[2])], str):
                param = required[int(rest[2])]
        if param is not None and param in definition.params:
            return definition.params[param]
    return definition.site


def _owner(pointer: str, tools: Mapping[str, tuple[Tool, Definition]]
           ) -> tuple[Tool, Definition] | None:
    """The located tool whose subtree holds ``pointer``."""
    prefix = pointer
    while prefix:
        hit = tools.get(prefix)
        if hit is not None:
            return hit
        prefix = prefix.rpartition("/")[0]
    return None


@dataclass(frozen=True)
class Target:
    """A linted manifest and the source tree its server's code is in."""

    manifest: Manifest
    root: Path


def locate_findings(findings: Iterable[Finding], targets: Sequence[Target]
                    ) -> tuple[list[Finding], list[str]]:
    """The findings, those about a located tool carrying ``source``; and the notes."""
    names_by_root: dict[Path, set[str]] = {}
    for target in targets:
        names_by_root.setdefault(target.root, set()).update(t.name for t in
                                                            target.manifest.tools)
    indexes = {root: build_index(root, names) for root, names in names_by_root.items()}
    by_file: dict[str, dict[str, tuple[Tool, Definition]]] = {}
    notes: list[str] = []
    for target in targets:
        located = locate_tools(target.manifest, indexes[target.root])
        by_file.setdefault(target.manifest.file, {}).update(located.tools)
        notes.extend(located.notes)
    mapped: list[Finding] = []
    for finding in findings:
        tools = by_file.get(finding.file)
        hit = _owner(finding.pointer, tools) if tools and finding.source is None else None
        if hit is not None:
            finding = replace(finding, source=source_for(finding.pointer, *hit))
        mapped.append(finding)
    return mapped, notes
