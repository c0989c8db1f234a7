"""Two one-tool manifests the file-selection and pre-commit tests lint: one clean, one that
fails SPEC004 (no description)."""

from __future__ import annotations

GOOD = {"tools": [{
    "name": "get_ticket",
    "description": "Get one support ticket by id. Returns its subject, status and messages.",
    "inputSchema": {"type": "object",
                    "properties": {"ticket_id": {"type": "string", "description": "The id."}},
                    "required": ["ticket_id"]},
}]}
BAD = {"tools": [{"name": "close_ticket", "inputSchema": {"type": "object"}}]}
