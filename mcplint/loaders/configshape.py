"""Whether a parsed JSON document is an MCP client's config rather than a tool manifest.

Kept apart from ``clientconfig`` because every explicitly named file is asked this, and most
are manifests: reading a config's servers needs the live targets and the secret masking, which a
static lint of a manifest never uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def servers_of(data: Any) -> tuple[str, Mapping[str, Any]] | None:
    """The key holding the servers and the servers, when the document has a config's shape."""
    if not isinstance(data, dict) or "tools" in data:
        return None
    for key in ("mcpServers", "servers"):
        servers = data.get(key)
        if isinstance(servers, dict) and all(
            isinstance(entry, dict) and any(k in entry for k in ("command", "url", "serverUrl"))
            for entry in servers.values()
        ):
            return key, servers
    return None


def looks_like_config(data: Any) -> bool:
    return servers_of(data) is not None
