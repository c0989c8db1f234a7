"""Find the source files worth reading under a root, cheaply.

A server's repository can hold a virtualenv or ``node_modules`` with tens of thousands of files
that are never the server's own code, and build output that copies its tools (``dist/index.js``
next to ``src/index.ts``) and would make every tool look defined twice.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from mcplint import regex_cache as rx

PYTHON = "python"
SCRIPT = "script"  # TypeScript and JavaScript
GO = "go"

LANGUAGES = {
    ".py": PYTHON,
    ".ts": SCRIPT, ".tsx": SCRIPT, ".mts": SCRIPT, ".cts": SCRIPT,
    ".js": SCRIPT, ".jsx": SCRIPT, ".mjs": SCRIPT, ".cjs": SCRIPT,
    ".go": GO,
}
SKIP_DIRS = frozenset({
    "node_modules", "__pycache__", "venv", "build", "dist", "out", "target", "vendor",
    "coverage", "htmlcov", "bower_components", "jspm_packages",
})
# Hand-written tool definitions are small; a file past this is generated or bundled.
MAX_FILE_BYTES = 1_000_000


@dataclass(frozen=True)
class SourceFile:
    path: Path  # as opened
    shown: str  # as findings name it: relative to the cwd when under it, else absolute
    language: str


_TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "testdata", "testing", "spec", "e2e"})
_TEST_FILE = rx.compile(r"(^test_.*\.py|_test\.(py|go)|^conftest\.py"
                        r"|\.(test|spec)\.[cm]?[jt]sx?)$")


def is_test_path(shown: str) -> bool:
    """Whether a file is a test: tests copy tool definitions to check them, they do not
    serve them."""
    parts = re.split(r"[\\/]", shown)
    return bool(_TEST_FILE.search(parts[-1])) or any(p in _TEST_FOLDERS for p in parts[:-1])


def _skipped_file(name: str) -> bool:
    # Declarations, bundles and source maps describe code; they never register a tool.
    return name.endswith((".d.ts", ".d.mts", ".d.cts", ".min.js", ".bundle.js"))


def shown(path: Path) -> Path:
    """A path as output names it: relative to the cwd when under it, else absolute."""
    resolved = path.resolve()
    try:
        return resolved.relative_to(Path.cwd().resolve())
    except ValueError:
        return resolved


def source_files(root: Path) -> Iterator[SourceFile]:
    """Every file of a scanned language under ``root``, in a stable order."""
    base = root.resolve()
    # Named relative to the cwd when under it (as targets are), else absolute: the root may
    # be a work tree above the cwd.
    cwd = str(Path.cwd().resolve())
    cwd_prefix = cwd if cwd.endswith(os.sep) else cwd + os.sep
    stack = [base]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError:
            continue
        if folder != base and any(e.name == "pyvenv.cfg" for e in entries):
            continue  # a virtualenv under any name
        subfolders = []
        for entry in entries:
            name = entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not name.startswith(".") and name not in SKIP_DIRS:
                        subfolders.append(Path(entry.path))
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue
                language = LANGUAGES.get(os.path.splitext(name)[1])
                if language is None or _skipped_file(name):
                    continue
                if entry.stat(follow_symlinks=False).st_size > MAX_FILE_BYTES:
                    continue
            except OSError:
                continue
            path = entry.path
            yield SourceFile(Path(path), path[len(cwd_prefix):] if path.startswith(cwd_prefix)
                             else path, language)
        stack.extend(reversed(subfolders))


def read_text(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text[1:] if text.startswith("\ufeff") else text


def git_work_tree(start: Path) -> Path | None:
    """The work tree holding ``start``: the nearest folder upwards with a ``.git``."""
    folder = start.resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None
