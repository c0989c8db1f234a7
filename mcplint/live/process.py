"""Make sure nothing a stdio server started outlives the run.

The SDK starts the server in a new session and kills that process group only when the server
does not exit after its stdin closes.  A server that exits politely can still leave children
behind (a ``npx`` wrapper's node, a ``docker run``), so the whole group is killed afterwards too.
The SDK does not expose the pid; a tiny launcher reports it on stderr and then ``exec``s the
real command, which keeps the pid, the session and the process group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import IO

PID_MARK = "mcplint-pid:"
EXEC_ERROR_MARK = "mcplint-exec-error:"

_LAUNCHER = f"""
import os, sys
sys.stderr.write("{PID_MARK}%d\\n" % os.getpid())
sys.stderr.flush()
try:
    os.execvp(sys.argv[1], sys.argv[1:])
except OSError as exc:
    sys.stderr.write("{EXEC_ERROR_MARK}%s\\n" % (exc.strerror or exc))
    sys.exit(127)
"""

SUPPORTED = sys.platform != "win32"  # Windows: the SDK puts the server in a job object instead


def launch_argv(command: str, args: Sequence[str]) -> tuple[str, list[str]]:
    """The command and arguments that start ``command`` through the launcher."""
    if not SUPPORTED:
        return command, list(args)
    return sys.executable, ["-I", "-S", "-c", _LAUNCHER, command, *args]


def read_stderr(errlog: IO[str]) -> str:
    """Everything written so far, without moving the offset the server's writes share."""
    errlog.flush()
    size = os.fstat(errlog.fileno()).st_size
    return os.pread(errlog.fileno(), size, 0).decode("utf-8", "replace")


def split_stderr(text: str) -> tuple[int | None, str | None, str]:
    """(server pid, exec error, the server's own stderr) from the captured stderr."""
    pid: int | None = None
    exec_error: str | None = None
    lines = []
    for line in text.splitlines():
        if pid is None and line.startswith(PID_MARK):
            pid = int(line[len(PID_MARK):]) if line[len(PID_MARK):].isdigit() else None
        elif line.startswith(EXEC_ERROR_MARK):
            exec_error = line[len(EXEC_ERROR_MARK):]
        else:
            lines.append(line)
    return pid, exec_error, "\n".join(lines)


def kill_group(pid: int | None) -> None:
    if pid is None or not SUPPORTED:
        return
    # Already gone, or (after pid reuse) not ours: either way nothing of ours is left.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
