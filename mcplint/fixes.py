"""Safe fixes: turn a finding's JSON edits into text edits, and apply them to a file.

Owned by the fixes work (issue 7); ``text_edits`` is the interface the linter uses.
"""

from __future__ import annotations

from mcplint.findings import Edit, TextEdit
from mcplint.loaders.jsonsource import Document


def text_edits(document: Document, edits: tuple[Edit, ...]) -> tuple[TextEdit, ...]:
    raise NotImplementedError
