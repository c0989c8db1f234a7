"""Regular expressions compiled once per machine, not once per run.

``re.compile`` parses a pattern and generates its matching program in Python; for the few
hundred patterns of the built-in packs and modules that is 35–50 ms of every run, a seventh of
a small lint, and the answer never changes for one pattern, flags and interpreter.  ``compile``
keeps the generated program (a list of integers, what ``re`` hands to the C engine) in the
user's cache directory and builds the pattern from it with ``_sre.compile``, as ``re`` itself
does: about 2 µs a pattern instead of about 250 (138 patterns: 0.3 ms against 36).

The program is only valid for the interpreter that generated it, so the file is named for the
Python version, the C engine's ``MAGIC`` and this module's own source; the engine also checks
every program it is given and rejects a malformed one.  Like the pack cache, it is only an
optimisation: a file that cannot be read, an interpreter whose ``re`` internals differ from
what this module expects, or any error building a pattern from the cache falls back to
``re.compile``.  The file is as trusted as the interpreter's own ``__pycache__`` (both are
``marshal`` data in a folder only the user writes).

The process that loaded the cache writes what it added when it exits (``save``, also callable
earlier); a forked worker writes nothing, so a pattern first compiled in a worker is compiled
there again next time (about 35 patterns a worker at 500 tools, 9 ms).
"""

from __future__ import annotations

import atexit
import marshal
import os
import re
import sys
from pathlib import Path
from typing import Any

try:  # private modules: their absence or a change of shape turns the cache off
    import _sre  # type: ignore[import-not-found]

    if sys.version_info >= (3, 11):
        from re import _compiler as _sre_compile  # type: ignore[attr-defined]
        from re import _parser as _sre_parse  # type: ignore[attr-defined]
    else:  # pragma: no cover - Python 3.10
        import sre_compile as _sre_compile
        import sre_parse as _sre_parse
    _BUILD = callable(getattr(_sre, "compile", None)) and callable(
        getattr(_sre_compile, "_code", None))
except ImportError:  # pragma: no cover - an interpreter without them
    _BUILD = False

# (flags, pattern) -> (flags with the pattern's inline ones, program, groups, names, index)
_Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]

_entries: dict[tuple[int, str], _Entry] | None = None
# The patterns built in this process: a rule that compiles its option per tool gets the same
# object back, as from re's own cache, instead of a new one.
_built: dict[tuple[int, str], re.Pattern[str]] = {}
_pid = 0
_changed = False
_path: Path | None = None
_registered = False


def _file() -> Path | None:
    from mcplint.engine.pack_cache import keyed_file

    return keyed_file("regex", __file__, ".marshal", extra=f"{getattr(_sre, 'MAGIC', '')}")


def _load() -> dict[tuple[int, str], _Entry]:
    global _entries, _path, _pid, _registered
    _entries, _pid = {}, os.getpid()
    _path = _file()
    if not _registered:
        # At exit, so the report's own patterns (compiled after the lint) are kept as well.
        atexit.register(save)
        _registered = True
    if _path is None:
        return _entries
    try:
        data = marshal.loads(_path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return _entries
    if isinstance(data, dict):
        _entries = data
    return _entries


def _entry(pattern: str, flags: int) -> _Entry:
    """What ``re``'s compiler passes to ``_sre.compile`` for this pattern, as plain data."""
    parsed = _sre_parse.parse(pattern, flags)
    code = [int(op) for op in _sre_compile._code(parsed, flags)]  # type: ignore[attr-defined]
    names = dict(parsed.state.groupdict)
    index: list[str | None] = [None] * parsed.state.groups
    for name, number in names.items():
        index[number] = name
    return (int(flags | parsed.state.flags), code, parsed.state.groups - 1, names, tuple(index))


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the machine's cache of compiled programs."""
    global _changed
    if not _BUILD or not isinstance(pattern, str) or flags & re.DEBUG:
        return re.compile(pattern, flags)  # DEBUG prints the program as it is compiled
    key = (int(flags), pattern)
    known = _built.get(key)
    if known is not None:
        return known
    entries = _entries if _entries is not None else _load()
    entry = entries.get(key)
    if entry is not None:
        try:
            built: re.Pattern[str] = _sre.compile(pattern, *entry)
            _built[key] = built
            return built
        except Exception:  # a program this interpreter refuses: compile it afresh
            del entries[key]
    try:
        entry = _entry(pattern, flags)
        built = _sre.compile(pattern, *entry)
    except re.error:
        raise
    except Exception:  # re's internals are not what this module expects
        return re.compile(pattern, flags)
    entries[key] = entry
    _built[key] = built
    _changed = True
    return built


def save() -> None:
    """Store the programs compiled in this run that the cache did not hold yet."""
    global _changed
    if not _changed or _entries is None or _path is None or os.getpid() != _pid:
        return
    from mcplint.engine.pack_cache import store_bytes

    try:
        data = marshal.dumps(_entries)
    except ValueError:  # pragma: no cover - the entries are plain data
        return
    if store_bytes(_path, data, prefix=".regex-"):
        _changed = False


def entries() -> dict[tuple[int, str], Any]:
    """The programs known to this process (for tests)."""
    return dict(_entries if _entries is not None else _load())
