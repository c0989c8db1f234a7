"""Client and provider profiles: what each client does to a tool list, read from profiles.toml.

A profile says how the client names a tool for the model (``mcp__{server}__{tool}`` in Claude
Code), what that name may be, and the caps it puts on a request.  The clients rule pack checks a
manifest against the profiles chosen with ``--client`` (or the config's ``clients``), and a client
config against the client it belongs to.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from mcplint import regex_cache as rx
from mcplint import tomltext


@dataclass(frozen=True)
class Profile:
    key: str
    title: str
    sources: tuple[str, ...]
    name_pattern: str | None = None
    name_max: int | None = None
    exposed: str | None = None
    plugin_exposed: str | None = None
    server_charset: str | None = None
    max_tools: int | None = None
    description_max: int | None = None
    description_min: int | None = None
    schema: str | None = None
    eager_warning: int | None = None
    deferred: str | None = None
    deferred_name_max: int | None = None

    @property
    def name_regex(self) -> re.Pattern[str] | None:
        return rx.compile(self.name_pattern) if self.name_pattern else None

    def server_part(self, server: str) -> str:
        """The server name as the client writes it into a tool's name."""
        if self.server_charset is None:
            return server
        return re.sub(f"[^{self.server_charset}]", "_", server)

    def template(self, plugin: str | None) -> str | None:
        """How the client builds a tool's name (plugin servers have their own), if it does."""
        return self.plugin_exposed if plugin and self.plugin_exposed else self.exposed

    def exposed_name(self, tool: str, server: str | None, plugin: str | None) -> str | None:
        """The name the model sees for ``tool``; None when it needs a server name not known."""
        template = self.template(plugin)
        if template is None:
            return tool
        if server is None:
            return None
        return template.format(server=self.server_part(server), tool=tool,
                               plugin=self.server_part(plugin or ""))

    def overhead(self, plugin: str | None) -> int:
        """Characters the client adds around the tool name, with a one-letter server name:
        the least any server name can add."""
        name = self.exposed_name("", "s", plugin)
        return len(name) if name is not None else 0


# How a client config's kind (mcplint.loaders.clientconfig) maps to the profile of the client
# that reads it.  Windsurf and the bare ``mcpServers`` shape have no profile of their own.
CONFIG_CLIENTS: Mapping[str, str] = {
    "Claude Desktop": "claude-desktop",
    "Claude Code": "claude-code",
    "VS Code": "vscode",
    "Cursor": "cursor",
}


def _profile(key: str, table: Mapping[str, Any]) -> Profile:
    fields = {k.replace("-", "_"): v for k, v in table.items()}
    fields["sources"] = tuple(fields.get("sources", ()))
    return Profile(key=key, **fields)


@cache
def profiles() -> Mapping[str, Profile]:
    # Imported here: the command line imports this module for PROFILE_NAMES at start-up.
    from importlib.resources import files

    text = (files("mcplint") / "profiles.toml").read_text(encoding="utf-8")
    data = tomltext.loads(text)
    return {key: _profile(key, table) for key, table in data["profiles"].items()}


# The profiles in profiles.toml, in order; tests/test_clients.py keeps the two the same.
PROFILE_NAMES = ("openai", "openai-strict", "anthropic", "claude-desktop", "claude-code",
                 "gemini", "bedrock", "vscode", "cursor")
