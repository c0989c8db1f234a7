"""TOML text read by ``tomllib`` (``tomli`` before Python 3.11), imported when first needed.

Importing the parser is about a twentieth of a small lint's start-up, and a lint with no config
file, whose built-in packs come from the cache (``engine.pack_cache``), reads no TOML at all.
"""

from __future__ import annotations

import sys
from typing import Any


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``; bad TOML raises ``tomllib.TOMLDecodeError``, a ``ValueError``."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib.loads(text)
