"""Where a JSON node ends, read back from the document text, for reporters that give spans.

A finding carries the start of the node its pointer names (the member's key, or the value of
an array item or the root); SARIF regions may also say where it ends.  The model keeps only
starts, so the end is found here by scanning the text from that start: over the key and its
colon, then over the value (a string, a scalar, or a bracketed object or array, skipping
strings and JSONC comments inside).  The text is read as the loader reads it (the same
decoding and newlines), so lines and columns agree with the finding's.
"""

from __future__ import annotations

from pathlib import Path

from mcplint.loaders.jsonsource import TOKEN as _TOKEN
from mcplint.loaders.jsonsource import line_starts_of, next_token, position_at
from mcplint.loaders.reading import decode

# Files past this are not read again for spans; their findings keep start positions only.
MAX_TEXT = 64 * 1024 * 1024


class Text:
    """A document's text with its line starts, to turn positions into offsets and back."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = line_starts_of(text)

    def offset(self, line: int, column: int) -> int | None:
        if not 1 <= line <= len(self.line_starts):
            return None
        offset = self.line_starts[line - 1] + column - 1
        end = self.line_starts[line] if line < len(self.line_starts) else len(self.text)
        return offset if 0 <= offset < end else None

    def position(self, offset: int) -> tuple[int, int]:
        found = position_at(self.line_starts, offset)
        return found.line, found.column

    def node_end(self, line: int, column: int) -> tuple[int, int] | None:
        """(line, column) one past the end of the node starting at (line, column), or None
        when no JSON node starts there (the file changed since it was linted)."""
        start = self.offset(line, column)
        if start is None:
            return None
        end = _value_end(self.text, start)
        return self.position(end) if end is not None else None


def _value_end(text: str, start: int) -> int | None:
    first = _TOKEN.match(text, start)
    if first is None:
        return None
    token = first.group()
    if token.startswith('"'):
        after = next_token(text, first.end())
        if after is not None and after.group() == ":":  # a member's key: go on to its value
            first = next_token(text, after.end())
            if first is None:
                return None
            token = first.group()
    if token in (":", ",", "}", "]") or token.startswith(("//", "/*")):
        return None
    if token not in ("{", "["):
        return first.end()
    depth = 0
    for match in _TOKEN.finditer(text, first.start()):
        value = match.group()
        if value in ("{", "["):
            depth += 1
        elif value in ("}", "]"):
            depth -= 1
            if depth == 0:
                return match.end()
    return None  # unbalanced: the text is no longer what was linted


def read(path: str) -> Text | None:
    """The file's text as the loader decodes it; None when it cannot be read back."""
    try:
        file = Path(path)
        if not file.is_file() or file.stat().st_size > MAX_TEXT:
            return None
        text = decode(path, file.read_bytes())
    except OSError:
        return None
    return Text(text) if isinstance(text, str) else None
