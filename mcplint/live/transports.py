"""Open the official SDK's transport for a target: stdio, streamable HTTP or legacy SSE.

Each yields the transport's raw message streams; ``capture`` speaks over them.  The stdio
transport starts the server in its own session (process group) and kills the whole group on
exit, so nothing the server spawned outlives the run.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import IO, Any
from urllib.parse import urlsplit

import httpx2
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from mcplint.live.process import launch_argv
from mcplint.live.targets import SSE, STDIO, LiveTarget


@dataclass
class HttpStatus:
    """The first failing HTTP status seen; the SDK turns it into a generic JSON-RPC error."""

    code: int | None = None
    reason: str = ""

    async def hook(self, response: httpx2.Response) -> None:
        if response.status_code >= 400 and self.code is None:
            self.code, self.reason = response.status_code, response.reason_phrase


def _http_client(target: LiveTarget, timeout: float, status: HttpStatus,
                 headers: dict[str, str] | None = None,
                 http_timeout: httpx2.Timeout | None = None) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        headers={**target.headers, **(headers or {})},
        timeout=http_timeout or httpx2.Timeout(timeout),
        event_hooks={"response": [status.hook]},
        # A proxy from the environment must not intercept a server on this machine.
        trust_env=urlsplit(target.url).hostname not in ("127.0.0.1", "localhost", "::1"),
    )


@asynccontextmanager
async def open_transport(target: LiveTarget, errlog: IO[str], status: HttpStatus,
                         timeout: float) -> AsyncIterator[tuple[Any, Any]]:
    if target.transport == STDIO:
        command, args = launch_argv(target.command, target.args)
        params = StdioServerParameters(command=command, args=args,
                                       env=dict(target.env) or None, cwd=target.cwd,
                                       encoding_error_handler="replace")
        async with stdio_client(params, errlog=errlog) as streams:  # type: ignore[arg-type]
            yield streams
    elif target.transport == SSE:

        def factory(headers: dict[str, str] | None = None,
                    timeout: httpx2.Timeout | None = None,
                    auth: httpx2.Auth | None = None) -> httpx2.AsyncClient:
            return _http_client(target, 0, status, headers, timeout)

        async with sse_client(target.url, timeout=timeout, sse_read_timeout=timeout,
                              httpx_client_factory=factory) as streams:
            yield streams
    else:
        async with (
            _http_client(target, timeout, status) as client,
            streamable_http_client(target.url, http_client=client) as streams,
        ):
            yield streams
