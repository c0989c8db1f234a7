"""The built-in packs as parsed data, cached by the hash of their text.

Parsing the ten built-in TOML packs takes about 20 ms of every run, a tenth of a small lint;
``json.loads`` of the same data takes under 2.  The cache lives in the user's cache directory
(``$XDG_CACHE_HOME/mcplint``, else ``~/.cache/mcplint``), one JSON file per pack named by the
SHA-256 of its text, so an edited or upgraded pack is never read stale.  The cache is only an
optimisation: a file that cannot be read, written or decoded is ignored, and the TOML is
parsed as before.  User packs are not cached; they are validated on every run.  The literal
prefilter (``mcplint.checks._prefilter``) keeps its patterns' requirements in the same folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcplint import tomltext

# Part of every key, so a change in how packs are turned into data empties the cache.
_FORMAT = "1"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mcplint"


def keyed_file(kind: str, module_file: str, suffix: str, extra: str = "") -> Path | None:
    """A cache file for facts a module derives (``kind-<hash><suffix>``), named for the
    module's own source, the Python version and ``extra``, so a changed module or interpreter
    never reads stale ones; None when the source cannot be read."""
    try:
        source = Path(module_file).read_bytes()
    except OSError:
        return None
    digest = hashlib.sha256(source + sys.version.encode() + extra.encode()).hexdigest()[:32]
    return cache_dir() / f"{kind}-{digest}{suffix}"


def _path(text: str) -> Path:
    digest = hashlib.sha256(f"{_FORMAT}\0{text}".encode()).hexdigest()
    return cache_dir() / f"pack-{digest[:40]}.json"


def parsed_pack(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, from the cache when an earlier run stored it.

    Raises ``tomllib.TOMLDecodeError`` as ``tomllib.loads`` does (a broken pack is never cached).
    """
    path = _path(text)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return data
    except (OSError, ValueError):
        pass
    data = tomltext.loads(text)
    _store(path, data)
    return data


def _store(path: Path, data: dict[str, Any]) -> None:
    store_json(path, data, prefix=".pack-")  # TOML dates would fail to encode: not cached


def store_json(path: Path, data: Any, prefix: str) -> bool:
    """Write ``data`` as JSON to ``path`` in the cache, whole or not at all; False on trouble."""
    try:
        encoded = json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError):
        return False
    return store_bytes(path, encoded, prefix)


def store_bytes(path: Path, data: bytes, prefix: str) -> bool:
    """Write ``data`` to ``path`` in the cache, whole or not at all; False on trouble."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written aside and renamed, so a concurrent run never reads half a file.
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except OSError:
        return False
    _prune(path.parent)
    return True


# Files of packs or Python versions no longer in use are never read again; one not written for
# this long is removed when something new is stored (a run that still needs it writes it anew).
_MAX_AGE_S = 30 * 24 * 3600


def _prune(folder: Path) -> None:
    cutoff = time.time() - _MAX_AGE_S
    for pattern in ("pack-*.json", "literals-*.json", "regex-*.marshal",
                    ".pack-*.tmp", ".literals-*.tmp", ".regex-*.tmp"):
        for old in folder.glob(pattern):
            try:
                if old.stat().st_mtime < cutoff:
                    old.unlink()
            except OSError:
                continue
