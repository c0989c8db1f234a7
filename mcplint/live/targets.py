"""What a live target is, and how the command line spells one.

Nothing here imports the MCP SDK, so describing targets (and refusing to start them) stays cheap.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

STDIO, HTTP, SSE = "stdio", "http", "sse"


class TargetError(Exception):
    """A live target that cannot even be described (an empty command, a malformed header)."""


@dataclass(frozen=True)
class LiveTarget:
    """One server to read: a command to start, or a URL to reach.

    ``env`` and ``headers`` may hold secrets, so they are never part of ``describe()`` or the
    repr; only their names are shown.
    """

    name: str
    transport: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    # Where the target came from: "command line" or the client config file's path.
    origin: str = "command line"
    # Set by a config loader when the server cannot be started without a person (an
    # ``${input:...}`` prompt); the run reports it instead of starting the server.
    skip_reason: str | None = None

    def describe(self) -> str:
        """The target as a person would recognise it, without secrets."""
        if self.transport == STDIO:
            text = shlex.join([self.command, *_redact_args(self.args)])
            return f"{text} (in {self.cwd})" if self.cwd else text
        return f"{self.transport} {redact_url(self.url)}"

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values that must never be printed: env and header values, URL credentials."""
        values = [*self.env.values(), *self.headers.values()]
        # "Bearer <token>": the token alone may turn up too, in a server's own error output.
        values += [part for value in self.headers.values() for part in value.split()[1:]]
        parts = urlsplit(self.url) if self.url else None
        if parts is not None and parts.password:
            values.append(parts.password)
        return tuple(v for v in values if len(v) >= 4)


_SECRET_NAME = re.compile(r"key|token|secret|passw|auth|credential", re.I)


def _redact_args(args: Sequence[str]) -> list[str]:
    """Arguments with the values of secret-looking flags (``--api-key X``, ``TOKEN=X``) hidden."""
    shown: list[str] = []
    for index, arg in enumerate(args):
        name, sep, _value = arg.partition("=")
        if sep and _SECRET_NAME.search(name):
            shown.append(f"{name}=***")
        elif index and args[index - 1].startswith("-") and "=" not in args[index - 1] \
                and _SECRET_NAME.search(args[index - 1]):
            shown.append("***")
        else:
            shown.append(arg)
    return shown


def redact_url(url: str) -> str:
    """The URL without a password or query string, which commonly carry API keys."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<malformed URL>"
    netloc = parts.hostname or ""
    if parts.port:
        netloc = f"{netloc}:{parts.port}"
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    query = "…" if parts.query else ""
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def redact(text: str, secrets: Sequence[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def parse_env(pairs: Sequence[str]) -> dict[str, str]:
    env: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise TargetError(f'--env "{key or pair}": expected KEY=VALUE')
        env[key] = value
    return env


def parse_headers(lines: Sequence[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for line in lines:
        name, sep, value = line.partition(":")
        if not sep or not name.strip() or any(c.isspace() for c in name.strip()):
            raise TargetError(f"--header: expected 'Name: value', got a header without a name "
                              f"or colon ({name.strip()[:40]!r})")
        headers[name.strip()] = value.strip()
    return headers


def _stdio_name(argv: Sequence[str]) -> str:
    # The script or package is more telling than the interpreter (python, node, npx, uvx).
    launchers = {"python", "python3", "node", "npx", "uvx", "uv", "deno", "bun", "pipx", "docker"}
    for word in argv:
        base = os.path.basename(word)
        if word.startswith("-") or base in launchers or base.startswith("python"):
            continue
        return base
    return os.path.basename(argv[0])


def command_line_targets(
    stdio: Sequence[str],
    http: Sequence[str],
    sse: Sequence[str],
    env: Sequence[str] = (),
    headers: Sequence[str] = (),
    cwd: str | None = None,
) -> list[LiveTarget]:
    """Targets from ``--stdio``/``--http``/``--sse``; names are unique within the run."""
    env_map, header_map = parse_env(env), parse_headers(headers)
    targets: list[LiveTarget] = []
    for command in stdio:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise TargetError(f"--stdio {command!r}: {exc}") from exc
        if not argv:
            raise TargetError("--stdio: the command is empty")
        targets.append(LiveTarget(_stdio_name(argv), STDIO, argv[0], tuple(argv[1:]), env_map,
                                  cwd))
    for transport, urls in ((HTTP, http), (SSE, sse)):
        for url in urls:
            scheme = urlsplit(url).scheme
            if scheme not in ("http", "https"):
                raise TargetError(f"--{transport} {redact_url(url)}: expected an http:// or "
                                  "https:// URL")
            targets.append(LiveTarget(redact_url(url), transport, url=url, headers=header_map))
    return unique_names(targets)


def unique_names(targets: Sequence[LiveTarget]) -> list[LiveTarget]:
    """Number repeated names (``server.py``, ``server.py#2``) so findings stay attributable."""
    seen: dict[str, int] = {}
    result = []
    for target in targets:
        count = seen[target.name] = seen.get(target.name, 0) + 1
        if count > 1:
            target = LiveTarget(**{**target.__dict__, "name": f"{target.name}#{count}"})
        result.append(target)
    return result
