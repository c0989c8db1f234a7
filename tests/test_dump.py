"""Snapshots: a fixed, reviewable layout that the static loader reads back as a server."""

from __future__ import annotations

import json

from mcplint.loaders.manifest import build_manifest
from mcplint.snapshot import build_snapshot, dumps, snapshot_document

INITIALIZE = {
    "serverInfo": {"name": "notes", "version": "1.0"},
    "capabilities": {"tools": {}},
    "protocolVersion": "2025-06-18",
    "instructions": "Keeps notes.",
    "_meta": {"ignored": True},
}
TOOLS = [{"name": "get_note", "inputSchema": {"type": "object"}, "description": "Read a note.",
          "x-vendor": {"tier": 2}, "annotations": {"readonlyHint": True}}]


def test_top_level_order_is_fixed_and_only_known_keys_are_kept() -> None:
    snapshot = build_snapshot(INITIALIZE, {"resources": [], "tools": TOOLS})
    assert list(snapshot) == ["protocolVersion", "serverInfo", "capabilities", "instructions",
                              "tools", "resources"]


def test_what_the_server_sent_is_kept_exactly() -> None:
    text = dumps(build_snapshot(INITIALIZE, {"tools": TOOLS}))
    tool = json.loads(text)["tools"][0]
    assert tool == TOOLS[0]
    assert list(tool) == list(TOOLS[0])  # the server's key order, for readable diffs


def test_same_input_same_bytes_and_unicode_is_readable() -> None:
    lists = {"tools": [{**TOOLS[0], "description": "Lire une note — par son titre."}]}
    first, second = (dumps(build_snapshot(INITIALIZE, lists)) for _ in range(2))
    assert first == second
    assert "— par son titre" in first
    assert first.endswith("}\n") and "\n  \"tools\": [\n" in first


def test_the_static_loader_reads_a_snapshot_as_a_server() -> None:
    doc = snapshot_document(build_snapshot(INITIALIZE, {"tools": TOOLS}))
    manifest, errors = build_manifest("notes.json", doc)
    assert errors == [] and manifest is not None
    assert (manifest.kind, manifest.server_name, manifest.tools_pointer) == (
        "server snapshot", "notes", "/tools")
    assert manifest.tools[0].annotations is not None
    assert dict(manifest.tools[0].annotations.declared) == {"readonlyHint": True}
    assert manifest.position("/tools/0/annotations/readonlyHint").line == 22
