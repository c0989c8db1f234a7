"""The live-target options shared by ``check`` and ``dump``, gathered into one LiveOptions.

Only click is imported here; the SDK and the loaders load when a command runs, so ``--help``
stays instant.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from mcplint import regex_cache as rx
from mcplint.live.settings import DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, SdkMissing

if TYPE_CHECKING:
    from mcplint.live.targets import LiveTarget

_OPTIONS = (
    click.option("--stdio", "live_stdio", multiple=True, metavar="'CMD ARG …'",
                 help="Start this MCP server and lint what it lists (split like a shell; "
                 "repeatable). Never calls a tool."),
    click.option("--http", "live_http", multiple=True, metavar="URL",
                 help="Lint the MCP server at this streamable HTTP URL (repeatable)."),
    click.option("--sse", "live_sse", multiple=True, metavar="URL",
                 help="Lint the MCP server at this legacy SSE URL (repeatable)."),
    click.option("--env", "live_env", multiple=True, metavar="KEY=VALUE",
                 help="Environment variable for --stdio servers (repeatable)."),
    click.option("--cwd", "live_cwd", type=click.Path(exists=True, file_okay=False),
                 help="Working directory for --stdio servers."),
    click.option("--header", "live_header", multiple=True, metavar="'Name: value'",
                 help="HTTP header for --http/--sse servers (repeatable)."),
    click.option("--timeout", "live_timeout", type=click.FloatRange(min=0.1),
                 default=DEFAULT_TIMEOUT, show_default=True,
                 help="Seconds each live server gets to answer everything."),
    click.option("--allow-exec", "live_allow_exec", is_flag=True,
                 help="Start the server commands listed in client config targets."),
    click.option("--allow-network", "live_allow_network", is_flag=True,
                 help="Contact the HTTP/SSE server URLs listed in client config targets."),
    click.option("--allow-live", "live_allow_live", is_flag=True,
                 help="Both --allow-exec and --allow-network."),
    click.option("--allow-env", "live_allow_env", multiple=True, metavar="VAR,…",
                 help="Environment variables a client config's ${VAR} / ${env:VAR} may expand "
                 "(repeatable or comma-separated); no other variable is read."),
    click.option("--concurrency", "live_concurrency", type=click.IntRange(min=1),
                 default=DEFAULT_CONCURRENCY, show_default=True,
                 help="Live servers read at once."),
)


_ENV_NAME = rx.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _fail(message: str) -> None:
    click.echo(f"mcplint: {message}", err=True)
    sys.exit(2)


def _env_names(values: tuple[str, ...]) -> frozenset[str]:
    names = {part.strip() for value in values for part in value.split(",") if part.strip()}
    for name in sorted(names):
        if not _ENV_NAME.fullmatch(name):
            _fail(f"--allow-env {name!r}: expected environment variable names, separated by "
                  "commas")
    return frozenset(names)


def live_options(fn: Callable[..., None]) -> Callable[..., None]:
    """Add the live-target options to a command, which receives them as ``live``."""

    @functools.wraps(fn)
    def wrapper(*args: Any, live_stdio: tuple[str, ...], live_http: tuple[str, ...],
                live_sse: tuple[str, ...], live_env: tuple[str, ...], live_cwd: str | None,
                live_header: tuple[str, ...], live_timeout: float, live_allow_exec: bool,
                live_allow_network: bool, live_allow_live: bool, live_allow_env: tuple[str, ...],
                live_concurrency: int, **kwargs: Any) -> None:
        from mcplint.live.progress import progress_for
        from mcplint.live.settings import LiveOptions

        targets: list[LiveTarget] = []
        # A static lint (no live option given) need not import the target parser.
        if live_stdio or live_http or live_sse or live_env or live_header:
            from mcplint.live.targets import TargetError, command_line_targets

            try:
                targets = command_line_targets(live_stdio, live_http, live_sse, live_env,
                                               live_header, live_cwd)
            except TargetError as exc:
                _fail(str(exc))
        kwargs["live"] = LiveOptions(
            tuple(targets), live_timeout, live_concurrency,
            allow_exec=live_allow_exec or live_allow_live,
            allow_network=live_allow_network or live_allow_live,
            allow_env=_env_names(live_allow_env), progress=progress_for(sys.stderr))
        try:
            fn(*args, **kwargs)
        except SdkMissing as exc:
            _fail(str(exc))

    for option in reversed(_OPTIONS):
        wrapper = option(wrapper)
    return wrapper
