"""Source locations: where in a server's own code each finding's text is written.

Most servers write their tools in code, not JSON.  Given a source tree, this package finds each
linted tool's definition (Python by ``ast``; TypeScript/JavaScript and Go by a literal search
near the SDKs' registration calls) and gives findings a ``source`` location; the manifest
location stays their identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mcplint.sources.walk import git_work_tree

# The locators (mcplint.sources.locate and the parsers behind it) are imported by run() only
# when there is a tree to search, so a lint without one does not pay for them.
__all__ = ["SourceRoots", "git_work_tree"]


@dataclass(frozen=True)
class SourceRoots:
    """Where to look for the servers' code: for manifests read from files, and for live
    servers.  ``None`` means no source mapping for that kind of target."""

    files: Path | None = None
    live: Path | None = None

    @classmethod
    def from_option(cls, source: Path | None, cwd: Path) -> SourceRoots:
        """``--source DIR`` applies to every target.  Without it, a live server is looked for
        in the git work tree the command runs in (its code is usually what is being worked
        on); a static manifest or snapshot has no such default, it may come from anywhere."""
        if source is not None:
            return cls(source, source)
        return cls(None, git_work_tree(cwd))
