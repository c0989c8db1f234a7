"""The MCP specification revisions mcplint knows, and which one a manifest is checked against.

The target is, in order: ``--target-spec`` (or the config's ``target-spec``), the
``protocolVersion`` a snapshot announces, then the newest revision.  Revisions are dates, so
comparing them as strings orders them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

REVISIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
NEWEST = REVISIONS[-1]


def announced(server: Mapping[str, Any]) -> str | None:
    """The protocolVersion a snapshot announces, when it is a revision-shaped date."""
    value = server.get("protocolVersion")
    if isinstance(value, str) and len(value) == 10 and value[4] == value[7] == "-":
        return value
    return None


def target_revision(chosen: str | None, server: Mapping[str, Any]) -> str:
    return chosen or announced(server) or NEWEST


def at_least(revision: str, since: str) -> bool:
    return revision >= since
