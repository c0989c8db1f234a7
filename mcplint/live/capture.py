"""Speak the read-only part of MCP over a transport's streams and keep what the server sent.

The SDK's session would parse results into pydantic models, which drop keys they do not know (a
misspelled ``readonlyHint``, an ``x-`` extension), and those are exactly what a linter must see.
So the requests are written, and the raw ``result`` objects read, on the transport's message
streams directly.  Only ``initialize``, ``notifications/initialized`` and the ``*/list`` methods
are ever sent: a tool is never called.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from mcplint import __version__
from mcplint.live.faults import LiveError

# The newest protocol version this client speaks; the server answers with the one it chose.
PROTOCOL_VERSION = "2025-06-18"

# (method, result key, capability that advertises it); tools are always asked for.
LISTS = (
    ("tools/list", "tools", "tools"),
    ("prompts/list", "prompts", "prompts"),
    ("resources/list", "resources", "resources"),
    ("resources/templates/list", "resourceTemplates", "resources"),
)
# The capability "resources" does not promise templates: servers that have none often answer
# this list with Method not found, which means "none here", not a broken server.
OPTIONAL_LISTS = frozenset({"resources/templates/list"})


class _MethodNotFound(LiveError):
    """The server does not implement the method it was asked for (JSON-RPC -32601)."""


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 8_000_000  # all list results of one server together
    max_pages: int = 500  # per list method


@dataclass
class Capture:
    """The raw results, as the server sent them."""

    initialize: dict[str, Any] = field(default_factory=dict)
    lists: dict[str, list[Any]] = field(default_factory=dict)
    step: str = "connecting"  # what was in progress, for a timeout's message


class _Session:
    def __init__(self, read: Any, write: Any, limits: Limits, capture: Capture) -> None:
        self.read, self.write, self.limits, self.capture = read, write, limits, capture
        self.ids = itertools.count(1)
        self.received = 0

    async def notify(self, method: str) -> None:
        message = types.JSONRPCNotification(jsonrpc="2.0", method=method)
        await self.write.send(SessionMessage(message))

    async def request(self, method: str, params: Mapping[str, Any] | None = None
                      ) -> dict[str, Any]:
        request_id = next(self.ids)
        # No params means the key is left out, never sent as null: JSON-RPC allows only an
        # object or an array there, and strict servers (the TypeScript SDK's) reject null.
        # The transports serialise with exclude_unset, so an unset field is not written.
        given = {} if params is None else {"params": dict(params)}
        message = types.JSONRPCRequest(jsonrpc="2.0", id=request_id, method=method, **given)
        try:
            await self.write.send(SessionMessage(message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError) as exc:
            raise LiveError(f"the connection closed before {method} could be sent") from exc
        while True:
            try:
                item = await self.read.receive()
            except (anyio.EndOfStream, anyio.ClosedResourceError,
                    anyio.BrokenResourceError) as exc:
                raise LiveError(f"the server closed the connection before answering "
                                f"{method}") from exc
            if isinstance(item, Exception):
                raise LiveError(f"the server wrote {_first_line(item)} (while answering "
                                f"{method}); stdout is for JSON-RPC messages only, logs go to "
                                "stderr")
            payload = item.message
            if isinstance(payload, types.JSONRPCRequest):
                await self._decline(payload)
                continue
            if isinstance(payload, types.JSONRPCNotification):
                continue
            if payload.id != request_id:
                continue  # a late answer to an earlier request; nothing waits for it
            if isinstance(payload, types.JSONRPCError):
                failure = (_MethodNotFound if payload.error.code == types.METHOD_NOT_FOUND
                           else LiveError)
                raise failure(f"{method} failed: JSON-RPC error {payload.error.code}: "
                                f"{payload.error.message}")
            result: dict[str, Any] = payload.result
            self.received += len(json.dumps(result, ensure_ascii=False))
            if self.received > self.limits.max_bytes:
                raise LiveError(f"the server's list results exceed {self.limits.max_bytes:,} "
                                f"bytes (while reading {method}); stopped reading it")
            return result

    async def _decline(self, request: types.JSONRPCRequest) -> None:
        # A server may ping or ask for roots/sampling; answer so it does not wait on us, but
        # grant nothing.
        if request.method == "ping":
            reply: Any = types.JSONRPCResponse(jsonrpc="2.0", id=request.id, result={})
        else:
            reply = types.JSONRPCError(jsonrpc="2.0", id=request.id, error=types.ErrorData(
                code=types.METHOD_NOT_FOUND, message="mcplint only lists; it offers nothing"))
        await self.write.send(SessionMessage(reply))


def _first_line(exc: Exception) -> str:
    """What the server sent, when the parse error kept it; else the error's first line."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
        except Exception:  # a foreign exception type with its own errors(); fall through
            first = {}
        sent = first.get("input")
        if isinstance(sent, (str, bytes)) and first.get("type") == "json_invalid":
            return f"a line that is not JSON: {str(sent)[:120]!r}"
        if sent is not None:
            return f"JSON that is not JSON-RPC 2.0: {json.dumps(sent, default=str)[:120]}"
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]


async def capture_server(read: Any, write: Any, capture: Capture, limits: Limits) -> None:
    """Fill ``capture`` with the server's initialize result and every advertised list."""
    session = _Session(read, write, limits, capture)
    capture.step = "initialize"
    result = await session.request("initialize", {
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "mcplint", "version": __version__},
    })
    if not isinstance(result, dict) or "protocolVersion" not in result:
        raise LiveError("the initialize result has no protocolVersion; this is not an MCP server "
                        "answering")
    capture.initialize = result
    await session.notify("notifications/initialized")
    capabilities = result.get("capabilities")
    advertised = capabilities if isinstance(capabilities, dict) else {}
    for method, key, capability in LISTS:
        if key != "tools" and capability not in advertised:
            continue
        capture.step = method
        try:
            capture.lists[key] = await _list_all(session, method, key, limits)
        except _MethodNotFound:
            if method not in OPTIONAL_LISTS:
                raise


async def _list_all(session: _Session, method: str, key: str, limits: Limits) -> list[Any]:
    items: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _page in range(limits.max_pages):
        result = await session.request(method, {"cursor": cursor} if cursor is not None else None)
        page = result.get(key)
        if not isinstance(page, list):
            raise LiveError(f'{method} result has no "{key}" array '
                            f"(got keys: {', '.join(sorted(result)) or 'none'})")
        items.extend(page)
        next_cursor = result.get("nextCursor")
        if next_cursor is None or next_cursor == "":
            return items
        if not isinstance(next_cursor, str):
            raise LiveError(f"{method} returned a nextCursor that is not a string")
        if next_cursor in seen:
            raise LiveError(f"{method} returned the nextCursor {next_cursor[:40]!r} again; "
                            "its pagination loops, so reading stopped")
        seen.add(next_cursor)
        cursor = next_cursor
    raise LiveError(f"{method} returned more than {limits.max_pages} pages; reading stopped")
