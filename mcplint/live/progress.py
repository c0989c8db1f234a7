"""A live table of servers on a terminal (server, state, tool count); nothing in CI or a pipe.

The report itself goes to stdout; this goes to stderr and disappears when the last server is
done, so a terminal shows progress without it ending up in saved output.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # every lint builds its progress; the client is imported only by a live one
    from mcplint.live.client import Progress
    from mcplint.live.targets import LiveTarget

_STYLES = {"queued": "dim", "connecting": "yellow", "done": "green", "failed": "red"}


def progress_for(stream: TextIO) -> Progress | None:
    if os.environ.get("CI") or not stream.isatty():
        return None
    from rich.console import Console
    from rich.live import Live
    from rich.table import Table

    console = Console(file=stream, highlight=False)
    states: dict[str, tuple[str, int | None]] = {}
    live: list[Live] = []

    def table() -> Table:
        grid = Table(box=None, show_header=True, header_style="bold")
        grid.add_column("server")
        grid.add_column("state")
        grid.add_column("tools", justify="right")
        for name, (state, tools) in states.items():
            grid.add_row(name, f"[{_STYLES[state]}]{state}[/]",
                         "" if tools is None else str(tools))
        return grid

    def report(target: LiveTarget, state: str, tools: int | None) -> None:
        states[target.name] = (state, tools if state == "done" else None)
        if not live:
            live.append(Live(table(), console=console, transient=True,
                             refresh_per_second=8))
            live[0].start()
        live[0].update(table())
        if all(s in ("done", "failed") for s, _ in states.values()):
            live[0].stop()
            live.clear()

    return report
