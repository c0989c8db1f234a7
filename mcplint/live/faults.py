"""A live server that could not be read, said in one line a person can act on."""

from __future__ import annotations


class LiveError(Exception):
    """Reading one server failed; the message says at which step and what to check."""


def stderr_tail(text: str, lines: int = 8, width: int = 2000) -> str:
    """The last lines of a server's stderr, where its own error usually is."""
    tail = "\n".join(text.strip().splitlines()[-lines:])
    return tail[-width:]
