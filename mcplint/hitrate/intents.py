"""Intents files: the requests a user would make, each with the tool that should serve it.

JSON (an array of intents, or ``{"intents": [...]}``) or TOML (``[[intents]]`` tables), checked
against ``intents.schema.json`` next to this module and then against the manifest: every tool
named must exist.  Each problem is reported with the file and the place (line and column, and
the JSON pointer of the intent), never as a traceback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from mcplint import regex_cache as rx
from mcplint import tomltext
from mcplint.loaders.jsonsource import ParseError, parse_json

SCHEMA_FILE = "intents.schema.json"


@dataclass(frozen=True)
class Intent:
    request: str
    tool: str
    not_: tuple[str, ...] = ()
    server: str | None = None
    line: int = 0  # where the intent is written, 0 when unknown
    pointer: str = ""


class IntentsError(Exception):
    """A bad intents file; the message names the file and the places, one problem a line."""


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    text = resources.files("mcplint.hitrate").joinpath(SCHEMA_FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _toml_lines(text: str) -> list[tuple[int, dict[str, int]]]:
    """For each ``[[intents]]`` table in order: its line, and the line of each key in it."""
    tables: list[tuple[int, dict[str, int]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if re.fullmatch(r"\[\[\s*intents\s*\]\](\s*#.*)?", stripped):
            tables.append((number, {}))
        elif tables:
            key = re.match(r'["\']?([A-Za-z0-9_$-]+)["\']?\s*=', stripped)
            if key:
                tables[-1][1].setdefault(key.group(1), number)
    return tables


class _Places:
    """Where a JSON pointer is written in the file, as ``file:line:col``."""

    def __init__(self, path: str, text: str, kind: str, document: Any = None) -> None:
        self.path, self.kind, self.document = path, kind, document
        self.tables = _toml_lines(text) if kind == "toml" else []

    def __call__(self, pointer: str) -> str:
        if self.kind == "json" and self.document is not None:
            position = self.document.position(pointer)
            return f"{self.path}:{position.line}:{position.column}"
        match = re.match(r"/intents/(\d+)(?:/([^/]+))?", pointer)
        if match and int(match.group(1)) < len(self.tables):
            line, keys = self.tables[int(match.group(1))]
            return f"{self.path}:{keys.get(match.group(2) or '', line)}"
        return self.path

    def line(self, pointer: str) -> int:
        place = self(pointer).split(":")
        return int(place[1]) if len(place) > 1 else 0


def _where(pointer: str) -> str:
    return f" (at {pointer})" if pointer else ""


def read_intents(path: str) -> tuple[list[Intent], _Places]:
    """The intents of a file, checked for shape; tool names are checked by :func:`resolve`."""
    try:
        text = Path(path).read_text("utf-8")
    except UnicodeDecodeError as exc:
        raise IntentsError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise IntentsError(f"{path}: cannot read the intents file: "
                           f"{exc.strerror or exc}") from None
    kind = "toml" if path.lower().endswith(".toml") else "json"
    if kind == "toml":
        try:
            data: Any = tomltext.loads(text)
        except ValueError as exc:  # tomllib.TOMLDecodeError
            raise IntentsError(f"{path}: invalid TOML: {exc}") from None
        places = _Places(path, text, kind)
    else:
        parsed = parse_json(text) if text.strip() else None
        if parsed is None:
            raise IntentsError(f"{path}: empty: expected a JSON array of intents")
        if isinstance(parsed, ParseError):
            raise IntentsError(f"{path}:{parsed.position.line}:{parsed.position.column}: "
                               f"invalid JSON: {parsed.message}")
        data = parsed.data
        places = _Places(path, text, kind, parsed)
    base = ""
    if isinstance(data, dict):
        unknown = sorted(set(data) - {"intents", "$schema"})
        if "intents" not in data or unknown:
            what = (f"unknown key {unknown[0]!r}" if unknown else 'no "intents"')
            raise IntentsError(f"{places('')}: {what}: expected "
                               + ("[[intents]] tables with request and tool"
                                  if kind == "toml" else
                                  'an array of intents, or an object with an "intents" array'))
        data, base = data["intents"], "/intents"
    elif kind == "json" and not isinstance(data, list):
        raise IntentsError(f"{places('')}: expected an array of intents, found "
                           f"{type(data).__name__}")
    if kind == "toml":
        base = "/intents"
    _validate(data, base, places)
    intents = []
    for i, item in enumerate(data):
        pointer = f"{base}/{i}"
        intents.append(Intent(item["request"], item["tool"], tuple(item.get("not", ())),
                              item.get("server"), places.line(pointer), pointer))
    return intents, places


_KEYS = frozenset({"request", "tool", "not", "server"})
_HAS_WORD = rx.compile(r"[A-Za-z0-9]")


def _name(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def well_formed(data: Any) -> bool:
    """Whether the intents meet the schema, checked directly: the schema validator is slow
    on thousands of intents, and it only has to run to say what is wrong."""
    if not isinstance(data, list) or not data:
        return False
    for item in data:
        if not isinstance(item, dict) or not item.keys() <= _KEYS:
            return False
        request, excluded = item.get("request"), item.get("not", [])
        if not (isinstance(request, str) and _HAS_WORD.search(request)
                and _name(item.get("tool")) and ("server" not in item or _name(item["server"]))
                and isinstance(excluded, list) and all(_name(n) for n in excluded)
                and len(set(excluded)) == len(excluded)):
            return False
    return True


def _validate(data: Any, base: str, places: _Places) -> None:
    if well_formed(data):
        return
    from jsonschema import Draft202012Validator

    full = schema()
    validator = Draft202012Validator({"$defs": full["$defs"], "$ref": "#/$defs/intents"})
    problems = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path))):
        pointer = base + "".join(f"/{p}" for p in error.absolute_path)
        message = error.message
        if error.validator == "minItems" and not error.absolute_path:
            message = "no intents: give at least one request with its tool"
        elif error.validator == "pattern":
            message = "the request has no words"
        elif error.validator == "type" and error.absolute_path:
            message = f"{error.absolute_path[-1]!s}: {message}"
        problems.append(f"{places(pointer)}: {message}{_where(pointer)}")
    if problems:
        raise IntentsError("\n".join(problems[:20]) + (
            f"\n... and {len(problems) - 20} more problems" if len(problems) > 20 else ""))


@dataclass(frozen=True)
class Resolved:
    """An intent with its tools as document numbers of the index."""

    intent: Intent
    tool: int
    not_: tuple[int, ...]


def resolve(intents: Sequence[Intent], places: _Places,
            names: Sequence[tuple[str, str | None]]) -> list[Resolved]:
    """Each intent's tools by position among ``names`` ((tool name, server) in index order).

    An unknown tool, an unknown server, or a name several servers share without ``server``
    is an error naming the place, with the closest names offered.
    """
    by_name: dict[str, list[int]] = {}
    for i, (name, _server) in enumerate(names):
        by_name.setdefault(name, []).append(i)
    servers = {s for _, s in names if s is not None}
    problems: list[str] = []
    found: list[Resolved] = []

    def lookup(name: str, server: str | None, pointer: str) -> int | None:
        candidates = by_name.get(name, [])
        if server is not None:
            candidates = [i for i in candidates if names[i][1] == server]
        if len(candidates) == 1:
            return candidates[0]
        if candidates and len({names[i][1] for i in candidates}) < len(candidates):
            problems.append(f"{places(pointer)}: the manifest has {len(candidates)} tools "
                            f"named {name!r}, so no request can single one out; give each "
                            f"tool its own name{_where(pointer)}")
            return None
        if candidates:
            choices = ", ".join(sorted({str(names[i][1]) for i in candidates}))
            problems.append(f"{places(pointer)}: several servers have a tool {name!r} "
                            f"({choices}); say which with \"server\"{_where(pointer)}")
            return None
        problems.append(f"{places(pointer)}: no tool {name!r} in the manifest"
                        f"{_suggest(name, list(by_name))}{_where(pointer)}")
        return None

    for intent in intents:
        if intent.server is not None and intent.server not in servers:
            known = f" (servers: {', '.join(sorted(servers))})" if servers else (
                "; the manifest is one server: leave \"server\" out")
            problems.append(f"{places(intent.pointer + '/server')}: no server "
                            f"{intent.server!r}{known}{_where(intent.pointer + '/server')}")
            continue
        tool = lookup(intent.tool, intent.server, intent.pointer + "/tool")
        excluded: list[int] = []
        for j, name in enumerate(intent.not_):
            where = f"{intent.pointer}/not/{j}"
            if name == intent.tool:
                problems.append(f"{places(where)}: {name!r} is the intent's own tool; a tool "
                                f"cannot be both right and forbidden{_where(where)}")
                continue
            other = lookup(name, intent.server, where)
            if other is not None:
                excluded.append(other)
        if tool is not None:
            found.append(Resolved(intent, tool, tuple(excluded)))
    if problems:
        raise IntentsError("\n".join(problems[:20]) + (
            f"\n... and {len(problems) - 20} more problems" if len(problems) > 20 else ""))
    return found


def _suggest(name: str, known: Sequence[str]) -> str:
    from rapidfuzz import process

    guess = process.extractOne(name, known, score_cutoff=70) if known else None
    return f'; did you mean "{guess[0]}"?' if guess else ""

