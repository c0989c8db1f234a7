"""Safe fixes: turn a finding's JSON edits into text edits, and apply them to files.

``text_edits`` is the interface the linter uses; ``apply`` applies text edits to a file's text,
``files`` fixes whole files (``check --fix`` and ``--diff``).
"""

from mcplint.fixes.insert import text_edits

__all__ = ["text_edits"]
