"""Read a file's text for linting, bounded and located, whatever the path names.

A path may name a FIFO with no writer (opening it would wait forever), a device that never
ends (``/dev/zero``), a symlink loop, a binary file or UTF-16 text saved with a ``.json``
name.  Each becomes a ``LoadError`` that says where and what, never a hang, a traceback or
unbounded memory.
"""

from __future__ import annotations

import codecs
import os
import stat

from mcplint.loaders.jsonsource import Position
from mcplint.loaders.manifest import LoadError

# A tools/list of ten thousand tools is ~30 MB; past this a file is no manifest to lint.
MAX_BYTES = 256 * 1024 * 1024
# Longest first: the UTF-32 little-endian mark begins with the UTF-16 one.
_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
         (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))
_WHOLE_FILE = Position(0, 0)


def too_large(path: str) -> LoadError:
    return LoadError(path, _WHOLE_FILE, f"larger than {MAX_BYTES // 2**20} MiB; mcplint reads "
                     "files of up to that size")


def not_regular(path: str) -> str | None:
    """Why ``path`` is not a regular file (a FIFO, a device, a socket), or None; found without
    opening it, so a FIFO with no writer does not block."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # reading says why
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode)
            or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "a special file")
    return f"not a regular file ({kind})"


def read_bytes(path: str) -> bytes | LoadError:
    """At most MAX_BYTES + 1 bytes of the file.  A FIFO is opened without waiting for a writer
    (``<(command)`` has one already; a FIFO with none reads as empty)."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        message = ("a symlink to a missing file" if os.path.islink(path)
                   else "no such file or directory")
        return LoadError(path, _WHOLE_FILE, message)
    except IsADirectoryError:
        return LoadError(path, _WHOLE_FILE, "is a directory")
    except OSError as exc:
        return LoadError(path, _WHOLE_FILE, f"cannot read: {exc.strerror or exc}")
    try:
        with os.fdopen(descriptor, "rb") as handle:
            info = os.fstat(descriptor)
            if stat.S_ISDIR(info.st_mode):
                return LoadError(path, _WHOLE_FILE, "is a directory")
            if stat.S_ISREG(info.st_mode) and info.st_size > MAX_BYTES:
                return too_large(path)
            if nonblocking:
                os.set_blocking(descriptor, True)
            # read(n) allocates n bytes before it reads: ask a regular file for its size (and
            # one byte more, to see it grew), not for the 256 MB limit every time.
            size = info.st_size if stat.S_ISREG(info.st_mode) else MAX_BYTES
            data = handle.read(size + 1)
            if len(data) > size:
                data += handle.read(MAX_BYTES + 1 - len(data))
    except OSError as exc:
        return LoadError(path, _WHOLE_FILE, f"cannot read: {exc.strerror or exc}")
    if len(data) > MAX_BYTES:
        return too_large(path)
    return data


def _position(data: bytes, offset: int) -> Position:
    before = data[:offset].decode("utf-8", "replace")
    line_start = before.rfind("\n") + 1
    return Position(before.count("\n") + 1, len(before) - line_start + 1)


def decode(path: str, data: bytes) -> str | LoadError:
    """The UTF-8 text of the bytes, with newlines as Python's text mode reads them; else where
    and why it is not UTF-8 text."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return LoadError(path, Position(1, 1), f"{encoding} text (it starts with a "
                             f"{encoding} byte order mark); JSON must be UTF-8: save it as UTF-8")
    nul = data.find(b"\0")
    if nul >= 0:
        # JSON holds no NUL byte, not even in a string: this is binary, or UTF-16/32 text.
        return LoadError(path, _position(data, nul), "holds NUL bytes: a binary file, or "
                         "UTF-16/UTF-32 text without a byte order mark; JSON must be UTF-8 text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        cut = exc.end >= len(data) and exc.reason.startswith("unexpected end")
        what = ("ends in the middle of a character (the file was cut short)" if cut
                else f"byte 0x{data[exc.start]:02x} is not UTF-8")
        return LoadError(path, _position(data, exc.start),
                         f"not UTF-8 text: {what}; save the file as UTF-8 JSON")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text
