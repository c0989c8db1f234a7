"""Read the MCP client configs agents are given, as live targets.

Recognised by shape (an ``mcpServers`` or ``servers`` object whose entries have a ``command``,
``url`` or ``serverUrl``) as well as by name: Claude Desktop ``claude_desktop_config.json``,
Claude Code ``.mcp.json``, VS Code ``.vscode/mcp.json`` (``servers``, ``inputs``, JSONC), Cursor
``.cursor/mcp.json`` and Windsurf ``mcp_config.json``.  Nothing here starts or contacts a
server, and an environment variable is read only when the caller allows it by name.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mcplint import regex_cache as rx
from mcplint.live.targets import HTTP, SSE, STDIO, LiveTarget
from mcplint.loaders.configshape import servers_of
from mcplint.loaders.jsonsource import Document, ParseError, Position, parse_json

CONFIG_NAMES = {"claude_desktop_config.json", ".mcp.json", "mcp.json", "mcp_config.json"}
_VARIABLE = rx.compile(r"\$\{([^}]*)\}")
_TRANSPORTS = {"stdio": STDIO, "http": HTTP, "streamable-http": HTTP, "streamablehttp": HTTP,
               "sse": SSE}


@dataclass(frozen=True)
class ConfigProblem:
    position: Position
    message: str


@dataclass(frozen=True)
class ClientConfig:
    path: str
    format: str
    targets: tuple[LiveTarget, ...]
    problems: tuple[ConfigProblem, ...] = field(default=())


def _format(path: Path, key: str, servers: Mapping[str, Any]) -> str:
    if key == "servers" or path.parent.name == ".vscode":
        return "VS Code"
    if path.name == "claude_desktop_config.json":
        return "Claude Desktop"
    if path.name == "mcp_config.json" or any("serverUrl" in s for s in servers.values()):
        return "Windsurf"
    if path.parent.name == ".cursor":
        return "Cursor"
    if path.name == ".mcp.json":
        return "Claude Code"
    return "mcpServers"


class _Unresolved(Exception):
    pass


_ENV_NAME = rx.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Expander:
    """Expands ``${VAR}``, ``${env:VAR}`` and ``${VAR:-default}`` for the variables allowed.

    A variable --allow-env does not name is never read, not even to see whether it is set: it
    stays as written and is listed in ``needs``, and the server is reported, not linted.
    ``values`` keeps what was expanded, to be masked wherever it turns up.
    """

    def __init__(self, workspace: Path, allowed: frozenset[str]) -> None:
        self.workspace, self.allowed = workspace, allowed
        self.needs: list[str] = []
        self.values: list[str] = []

    def _replace(self, match: re.Match[str]) -> str:
        expr = match.group(1)
        if expr.startswith("input:"):
            raise _Unresolved(f"it needs the prompted input ${{{expr}}}, which mcplint never "
                              "asks for; lint it with --stdio/--http and the value given")
        if expr in ("workspaceFolder", "workspaceRoot"):
            return str(self.workspace)
        if expr == "userHome":
            return str(Path.home())
        name, sep, default = expr.partition(":-")
        if name.startswith("env:"):
            name = name[4:]
        if not _ENV_NAME.fullmatch(name):
            raise _Unresolved(f"${{{expr[:40]}}} is no variable mcplint knows")
        if name not in self.allowed:
            if name not in self.needs:
                self.needs.append(name)
            return match.group(0)
        value = os.environ.get(name)
        if value is not None and (value or not sep):
            self.values.append(value)
            return value
        if sep:
            return default
        raise _Unresolved(f"the environment variable {name} is not set (write "
                          f"${{{name}:-default}} for a default)")

    def __call__(self, value: Any) -> Any:
        if isinstance(value, str):
            return _VARIABLE.sub(self._replace, value)
        if isinstance(value, list):
            return [self(v) for v in value]
        if isinstance(value, dict):
            return {k: self(v) for k, v in value.items()}
        return value


def _target(name: str, entry: Mapping[str, Any], origin: str, workspace: Path,
            allowed: frozenset[str]) -> LiveTarget:
    kind = str(entry.get("type", "")).lower().replace("_", "-")
    expand = _Expander(workspace, allowed)
    try:
        expanded = expand(dict(entry))
    except _Unresolved as exc:
        return LiveTarget(name, STDIO if "command" in entry else HTTP, origin=origin,
                          skip_reason=str(exc))
    url = expanded.get("url", expanded.get("serverUrl"))
    needs, values = tuple(expand.needs), tuple(expand.values)
    transport = _TRANSPORTS.get(kind)
    if transport is None:
        if "command" in entry:
            transport = STDIO
        elif isinstance(url, str) and url.rstrip("/").endswith("/sse"):
            transport = SSE
        else:
            transport = HTTP
    if transport == STDIO:
        args = expanded.get("args", [])
        env = expanded.get("env", {})
        if not isinstance(expanded.get("command"), str) or not isinstance(args, list) or \
                not isinstance(env, dict):
            return LiveTarget(name, STDIO, origin=origin, skip_reason=(
                '"command" must be a string, "args" an array and "env" an object'))
        cwd = expanded.get("cwd")
        return LiveTarget(name, STDIO, expanded["command"], tuple(str(a) for a in args),
                          {str(k): str(v) for k, v in env.items()},
                          cwd if isinstance(cwd, str) else str(workspace), origin=origin,
                          needs_env=needs, expanded=values)
    headers = expanded.get("headers", {})
    if not isinstance(url, str) or not isinstance(headers, dict):
        return LiveTarget(name, transport, origin=origin, skip_reason=(
            'the server needs a "url" string and a "headers" object'))
    if not expand.needs and urlsplit(url).scheme not in ("http", "https"):
        return LiveTarget(name, transport, origin=origin, skip_reason=(
            "its URL is not an http:// or https:// URL"))
    return LiveTarget(name, transport, url=url,
                      headers={str(k): str(v) for k, v in headers.items()}, origin=origin,
                      needs_env=needs, expanded=values)


def _needs_env(target: LiveTarget) -> str:
    names = target.needs_env
    which = f"variable {names[0]}" if len(names) == 1 else f"variables {', '.join(names)}"
    return (f"it uses the environment {which}, which mcplint reads only when named: add "
            f"--allow-env {','.join(names)}")


def config_from_document(path: str, doc: Document, allow_env: frozenset[str] = frozenset()
                         ) -> ClientConfig | None:
    """The client config in a parsed document, or None when it is not one.

    Only the environment variables in ``allow_env`` are expanded; a config is data someone
    else may have written, and its URLs and arguments could carry any secret away.
    """
    found = servers_of(doc.data)
    if found is None:
        return None
    key, servers = found
    file = Path(path)
    folder = file.resolve().parent
    # VS Code and Cursor keep the config in a dot-folder of the project they run in.
    workspace = folder.parent if folder.name in (".vscode", ".cursor") else folder
    # A disabled server is not one the agent sees, so it is not linted either.
    targets = tuple(_target(name, entry, path, workspace, allow_env)
                    for name, entry in servers.items() if entry.get("disabled") is not True)
    problems = tuple(
        ConfigProblem(doc.position(f"/{key}/{t.name}"), f'server "{t.name}" skipped: '
                      f"{t.skip_reason or _needs_env(t)}")
        for t in targets if t.skip_reason or t.needs_env
    )
    return ClientConfig(path, _format(file, key, servers), targets, problems)


def read_config(path: str, allow_env: frozenset[str] = frozenset()) -> ClientConfig | None:
    """The client config at ``path``, or None when the file is not one (or not readable JSON)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return None
    parsed = parse_json(text)
    if isinstance(parsed, ParseError):
        return None
    return config_from_document(path, parsed, allow_env)
