"""What a live target is, and how the command line spells one.

Nothing here imports the MCP SDK, so describing targets (and refusing to start them) stays cheap.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from mcplint.live.secrets import (
    MASK,
    arg_secrets,
    collect,
    header_secrets,
    mask,
    mask_args,
    mask_url,
    url_secrets,
)

STDIO, HTTP, SSE = "stdio", "http", "sse"


class TargetError(Exception):
    """A live target that cannot even be described (an empty command, a malformed header)."""


@dataclass(frozen=True)
class LiveTarget:
    """One server to read: a command to start, or a URL to reach.

    ``env``, ``headers``, arguments and the URL may hold secrets, so they are never part of the
    repr, and ``describe()`` masks them (see ``mcplint.live.secrets``).
    """

    name: str
    transport: str
    command: str = ""
    args: tuple[str, ...] = field(default=(), repr=False)
    env: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    cwd: str | None = None
    url: str = field(default="", repr=False)
    headers: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    # Where the target came from: "command line" or the client config file's path.
    origin: str = "command line"
    # Set by a config loader when the server cannot be started without a person (an
    # ``${input:...}`` prompt); the run reports it instead of starting the server.
    skip_reason: str | None = None
    # Environment variables the config uses that --allow-env does not name: the server is
    # reported, not linted, and these stay unexpanded.
    needs_env: tuple[str, ...] = ()
    # Values of the variables that were expanded into the target: secrets, whatever field.
    expanded: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def describe(self) -> str:
        """The target as a person would recognise it, without secrets."""
        if self.transport == STDIO:
            text = shlex.join([self.command, *mask_args(self.args)])
            text = f"{text} (in {self.cwd})" if self.cwd else text
        else:
            text = f"{self.transport} {mask_url(self.url)}"
        return mask(text, self.secrets)

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values that must never be printed: env and header values, expanded variables, URL
        credentials and query values, the arguments of secret-looking flags."""
        return collect([*self.env.values(), *header_secrets(self.headers), *self.expanded,
                        *url_secrets(self.url), *arg_secrets(self.args)])


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
    # A secret flag's value is never the name: findings and progress would print it.
    launchers = {"python", "python3", "node", "npx", "uvx", "uv", "deno", "bun", "pipx", "docker"}
    shown = [argv[0], *mask_args(argv[1:])]
    for word in shown:
        base = os.path.basename(word)
        if word.startswith("-") or base in launchers or base.startswith("python") or \
                MASK in word:
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
                raise TargetError(f"--{transport} {mask_url(url)}: expected an http:// or "
                                  "https:// URL")
            targets.append(LiveTarget(mask_url(url), transport, url=url, headers=header_map))
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
