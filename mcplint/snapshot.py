"""A live server's answers as one document: what ``mcplint dump`` writes and ``check`` lints.

The snapshot is pretty JSON with a fixed top-level order and the server's own order inside, so
committing it and diffing two of them shows only what the server changed.  A live server is
linted through the same text: its findings carry pointers and lines into the snapshot that
``mcplint dump`` would write for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcplint.loaders.jsonsource import Document, ParseError, parse_json

# Top-level keys, in the order written; the list keys are present only when fetched.
HEADER_KEYS = ("protocolVersion", "serverInfo", "capabilities", "instructions")
LIST_KEYS = ("tools", "prompts", "resources", "resourceTemplates")


def build_snapshot(initialize: Mapping[str, Any], lists: Mapping[str, list[Any]]
                   ) -> dict[str, Any]:
    snapshot: dict[str, Any] = {}
    for key in HEADER_KEYS:
        if key in initialize:
            snapshot[key] = initialize[key]
    for key in LIST_KEYS:
        if key in lists:
            snapshot[key] = lists[key]
    return snapshot


def dumps(snapshot: Mapping[str, Any]) -> str:
    # ensure_ascii=False keeps non-English descriptions readable in review diffs.
    return json.dumps(snapshot, indent=2, ensure_ascii=False) + "\n"


def snapshot_document(snapshot: Mapping[str, Any]) -> Document:
    parsed = parse_json(dumps(snapshot))
    if isinstance(parsed, ParseError):  # json.dumps output is always valid JSON
        raise ValueError(parsed.message)
    return parsed
