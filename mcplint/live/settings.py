"""What a run may do with live servers, and its defaults: no SDK, process or network code, so
a static lint and the CLI's option table import this and nothing else of ``mcplint.live``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcplint.live.client import Progress
    from mcplint.live.targets import LiveTarget

DEFAULT_TIMEOUT = 30.0
DEFAULT_CONCURRENCY = 8


class SdkMissing(Exception):
    """The MCP SDK, which live targets need, is not installed."""


@dataclass(frozen=True)
class LiveOptions:
    targets: tuple[LiveTarget, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    concurrency: int = DEFAULT_CONCURRENCY
    allow_exec: bool = False
    allow_network: bool = False
    allow_env: frozenset[str] = frozenset()
    progress: Progress | None = field(default=None, compare=False)
