"""Read many live servers concurrently, each bounded in time and size, none able to stop the rest.

The MCP SDK (through ``capture`` and ``transports``) and everything else heavy is imported
inside the functions, only when a live target is linted: the CLI imports this module for its
defaults, and ``mcplint --version`` must stay instant.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mcplint.live.faults import LiveError, stderr_tail
from mcplint.live.process import kill_group, read_stderr, split_stderr
from mcplint.live.secrets import mask, mask_url, mask_values
from mcplint.live.settings import DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, SdkMissing
from mcplint.live.targets import STDIO, LiveTarget

# The SDK the "live" extra installs, named by itself: mcplint is not on PyPI yet, and its
# distribution there will be mcp-tool-lint, so an extra of "mcplint" would install nothing.
INSTALL_HINT = 'live targets need the MCP SDK; install it with: pip install "mcp>=2.3,<3"'


def require_sdk() -> None:
    try:
        import mcp.client.stdio  # noqa: F401
    except ImportError as exc:
        raise SdkMissing(INSTALL_HINT) from exc


@dataclass(frozen=True)
class Fetched:
    target: LiveTarget
    initialize: dict[str, Any] | None
    lists: dict[str, list[Any]]
    error: str | None
    seconds: float


# state is "queued", "connecting", "done" or "failed"; tools is the count once known.
Progress = Callable[[LiveTarget, str, int | None], None]


def _leaf(exc: BaseException) -> BaseException:
    """The first real error inside the task groups' exception groups."""
    while True:
        inner = getattr(exc, "exceptions", None)
        if not inner:
            return exc
        exc = inner[0]


def _describe(exc: BaseException, target: LiveTarget) -> str:
    import ssl

    if isinstance(exc, LiveError):
        return str(exc)
    if isinstance(exc, FileNotFoundError) and target.transport == STDIO:
        return f"cannot start {target.command!r}: command not found (is it installed and on PATH?)"
    if isinstance(exc, PermissionError) and target.transport == STDIO:
        return f"cannot start {target.command!r}: permission denied"
    text = str(exc).strip().splitlines()
    detail = text[0][:300] if text else type(exc).__name__
    where = mask_url(target.url)
    if isinstance(exc, ssl.SSLError) or "SSL" in detail or "CERTIFICATE" in detail.upper():
        return f"TLS failure connecting to {where}: {detail}"
    if type(exc).__name__ in ("ConnectError", "ConnectTimeout"):
        return f"cannot connect to {where}: {detail} (is the server running, on that port?)"
    return f"{type(exc).__name__}: {detail}"


_HTTP_HINTS = {
    401: "the server wants credentials; pass them with --header 'Authorization: Bearer …'",
    403: "the credentials given are not allowed to use this server",
    404: "no MCP endpoint at this URL (streamable HTTP servers usually serve /mcp, SSE ones /sse)",
    405: "this URL does not accept MCP requests; check the path and the transport (--http/--sse)",
}


def _http_error(code: int, reason: str) -> str:
    hint = _HTTP_HINTS.get(code) or ("the server failed; see its logs" if code >= 500
                                     else "the server refused the request")
    return f"HTTP {code} {reason}: {hint}"


async def _fetch(target: LiveTarget, timeout: float, limits: Any) -> Fetched:
    import tempfile

    import anyio

    from mcplint.live.capture import Capture, capture_server
    from mcplint.live.transports import HttpStatus, open_transport

    started = time.monotonic()
    capture = Capture()
    status = HttpStatus()
    error: str | None = None
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        try:
            with anyio.fail_after(timeout):
                async with open_transport(target, errlog, status, timeout) as (read, write):
                    await capture_server(read, write, capture, limits)
        except TimeoutError:
            error = f"timed out after {timeout:g} s waiting for the answer to {capture.step}"
        except Exception as exc:  # every fault is this server's error, never the run's
            error = _describe(_leaf(exc), target)
        if target.transport == STDIO:
            pid, exec_error, stderr = split_stderr(read_stderr(errlog))
            kill_group(pid)
            if exec_error is not None:
                error = f"cannot start {target.command!r}: {exec_error}"
                if "No such file" in exec_error:
                    error += " (is it installed and on PATH?)"
            elif error is not None:
                error = error.replace("closed the connection", "exited (or closed its stdout)")
                tail = stderr_tail(stderr)
                if tail:
                    error += "\n    stderr (last lines):\n" + "\n".join(
                        f"      {line}" for line in tail.splitlines())
        if error is not None and status.code is not None:
            # The SDK reports any failing status as one generic JSON-RPC error.
            error = _http_error(status.code, status.reason)
    # Every message, stderr tail included, and whatever the server echoed back in its lists.
    secrets = target.secrets
    if error is not None:
        return Fetched(target, None, {}, mask(error, secrets), time.monotonic() - started)
    return Fetched(target, mask_values(capture.initialize, secrets),
                   mask_values(capture.lists, secrets), None, time.monotonic() - started)


def fetch_all(targets: Sequence[LiveTarget], timeout: float = DEFAULT_TIMEOUT,
              concurrency: int = DEFAULT_CONCURRENCY, progress: Progress | None = None
              ) -> list[Fetched]:
    """Every target's capture or error, in the order given."""
    require_sdk()
    import logging

    import anyio

    from mcplint.live.capture import Limits

    # The SDK logs a server's bad output with tracebacks; here it becomes one error line.
    logging.getLogger("mcp").addHandler(logging.NullHandler())
    logging.getLogger("mcp").propagate = False
    results: list[Fetched | None] = [None] * len(targets)
    limits = Limits()

    async def one(index: int, target: LiveTarget, limiter: anyio.CapacityLimiter) -> None:
        async with limiter:
            if progress:
                progress(target, "connecting", None)
            fetched = await _fetch(target, timeout, limits)
            results[index] = fetched
            if progress:
                tools = len(fetched.lists.get("tools", []))
                progress(target, "failed" if fetched.error else "done", tools)

    async def main() -> None:
        if progress:
            for target in targets:
                progress(target, "queued", None)
        limiter = anyio.CapacityLimiter(max(1, concurrency))
        async with anyio.create_task_group() as group:
            for index, target in enumerate(targets):
                group.start_soon(one, index, target, limiter)

    anyio.run(main)
    return [r for r in results if r is not None]
