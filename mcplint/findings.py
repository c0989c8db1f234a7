"""What a lint run produces: findings about tools, and errors about input that could not be read."""

from __future__ import annotations

import enum
from dataclasses import dataclass

FAIL_ON = ("error", "warning", "info", "never")


class Severity(enum.IntEnum):
    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        return cls[text.upper()]


# The classes a finding is made of have slots: a gateway's lint holds tens of thousands of
# findings (46,569 for 10,000 generated tools), and an instance dictionary each was about
# an eighth of their memory.
@dataclass(frozen=True, slots=True)
class Related:
    """A second place a finding is about: the other tool of a pair, the first duplicate."""

    tool: str
    pointer: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class SourceLocation:
    """Where, in the server's own code, the text a finding is about was written.

    Lines and columns are 1-based; columns count characters.  ``end_*`` close the span of the
    literal (name, description string, docstring or parameter declaration).
    """

    file: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True, slots=True)
class Edit:
    """A safe change to the linted JSON: set member ``key`` of the object at ``pointer``.

    The value is kept as JSON text, so findings stay hashable and the edit is exactly what
    gets written.
    """

    pointer: str
    key: str
    value_json: str


@dataclass(frozen=True, slots=True)
class TextEdit:
    """The text form of an edit: replace the span from (line, column) up to but not
    including (end_line, end_column) with ``text``; an empty span inserts."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A change mcplint may apply by itself (``check --fix``): it only adds what the tool's
    own text makes certain, and never changes meaning."""

    description: str
    edits: tuple[Edit, ...]
    text_edits: tuple[TextEdit, ...]


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    name: str
    severity: Severity
    message: str
    file: str
    pointer: str
    line: int
    column: int
    tool: str | None = None
    related: tuple[Related, ...] = ()
    # What to write instead, concrete (the enum values, the annotations); None when the fix
    # is not mechanical.
    suggestion: str | None = None
    fix: Fix | None = None
    # Set when the tool was found in the server's source (``--source``); the manifest
    # location above stays the finding's identity (baselines, fingerprints).
    source: SourceLocation | None = None

    @property
    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.file, self.line, self.column, self.code, self.message)


@dataclass(frozen=True)
class InputError:
    """Input that could not be linted: unreadable, not JSON, not a manifest, bad config."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}: {self.message}"
        return f"{self.file}: {self.message}"


@dataclass(frozen=True)
class RuleInfo:
    """What a reporter may show about a rule: its identity and its documentation."""

    code: str
    name: str
    summary: str
    severity: Severity
    groups: tuple[str, ...]
    what: str
    why: str
    bad: str
    good: str


@dataclass(frozen=True)
class ParameterSummary:
    path: str
    types: tuple[str, ...]
    required: bool
    description: str | None


@dataclass(frozen=True)
class ToolSummary:
    """A tool as a reviewer sees it in a report: what it says and what it costs."""

    name: str
    description: str | None
    tokens: int
    pointer: str
    line: int
    parameters: tuple[ParameterSummary, ...]
