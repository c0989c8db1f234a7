"""Configuration: discovered upward from the targets, validated against its own schema."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcplint import tomltext
from mcplint.findings import FAIL_ON
from mcplint.profiles import PROFILE_NAMES
from mcplint.revisions import REVISIONS

if TYPE_CHECKING:
    import pathspec

CONFIG_FILES = (".mcplint.toml", "mcplint.toml", "pyproject.toml")
DEFAULT_INCLUDE = ("**/*.json", "**/*.jsonc")
DEFAULT_EXCLUDE = (
    "**/node_modules/**",
    "**/.*/**",
    "**/package.json",
    "**/package-lock.json",
    "**/tsconfig*.json",
    "**/composer.json",
    "**/*.expected.json",
)

_STRINGS = {"type": "array", "items": {"type": "string"}}
_RULE_SETTINGS = {
    "type": "object",
    "additionalProperties": {"type": "object", "properties": {
        "severity": {"enum": ["error", "warning", "info"]}}},
}
CONFIG_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "include": _STRINGS,
        "exclude": _STRINGS,
        "extend-exclude": _STRINGS,
        "respect-gitignore": {"type": "boolean"},
        "force-exclude": {"type": "boolean"},
        "select": _STRINGS,
        "extend-select": _STRINGS,
        "ignore": _STRINGS,
        "fail-on": {"enum": list(FAIL_ON)},
        "target-spec": {"enum": list(REVISIONS)},
        "clients": {"type": "array", "items": {"enum": list(PROFILE_NAMES)}},
        "server-name": {"type": "string", "minLength": 1},
        "plugin": {"type": "string", "minLength": 1},
        "packs": _STRINGS,
        "plugins": _STRINGS,
        "rules": _RULE_SETTINGS,
        "overrides": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "anyOf": [{"required": ["files"]}, {"required": ["tools"]}],
                "properties": {
                    "files": _STRINGS,
                    "tools": _STRINGS,
                    "ignore": _STRINGS,
                    "extend-select": _STRINGS,
                    "rules": _RULE_SETTINGS,
                },
            },
        },
    },
}


class ConfigError(Exception):
    """A configuration that cannot be used: file, place, what is wrong and what to write."""


@dataclass(frozen=True)
class Override:
    files: tuple[str, ...]
    tools: tuple[str, ...]
    ignore: tuple[str, ...]
    extend_select: tuple[str, ...]
    rules: Mapping[str, Mapping[str, Any]] = field(compare=False)


@dataclass(frozen=True)
class Config:
    path: Path | None
    root: Path
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    # Leave out what git ignores (.gitignore files, .git/info/exclude) when expanding folders.
    respect_gitignore: bool = True
    # Apply exclude to files named on the command line too (pre-commit names every file).
    force_exclude: bool = False
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: str | None = None
    packs: tuple[Path, ...] = ()
    plugins: tuple[str, ...] = ()
    rules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, compare=False)
    overrides: tuple[Override, ...] = ()
    # The MCP revision to check against; None: the snapshot's protocolVersion, or the newest.
    target_spec: str | None = None
    # The client profiles the clients rules check for (mcplint.profiles); empty: none.
    clients: tuple[str, ...] = ()
    # The server and plugin names clients build tool names from (mcp__{server}__{tool}).
    server_name: str | None = None
    plugin: str | None = None

    @property
    def label(self) -> str:
        return str(self.path) if self.path else "the default configuration"


@cache
def path_spec(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    """The patterns as one gitignore-style spec (``*`` stays in a folder, ``**`` spans folders,
    a pattern without a slash matches at any depth, ``!`` re-includes, ``dir/`` a folder)."""
    import pathspec  # about a tenth of start-up, and a run with no patterns needs none

    return pathspec.GitIgnoreSpec.from_lines(patterns)


def matches_any(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether ``path`` (relative to the config's directory, ``/``-separated; a folder ends in
    ``/``) is matched by the patterns, as git would match it against a .gitignore there."""
    return bool(patterns) and path_spec(patterns).match_file(path)


def _line_of(text: str, key: str) -> int | None:
    match = re.search(rf'^\s*"?{re.escape(key)}"?\s*=', text, re.M)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _schema_error(text: str, where: str, data: Any) -> str | None:
    # Imported here: jsonschema is a tenth of a second of start-up that a run without a
    # config table never needs.
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(CONFIG_SCHEMA)
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), e.message))
    if not errors:
        return None
    error = errors[0]
    place = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = sorted(error.schema.get("properties", {}))
        unknown = sorted(set(error.instance) - set(known))[0]
        from rapidfuzz import process  # only for the message: 20 ms of every run otherwise

        guess = process.extractOne(unknown, known, score_cutoff=60)
        hint = f'did you mean "{guess[0]}"?' if guess else "known keys: " + ", ".join(known)
        line = _line_of(text, unknown)
        at = f":{line}" if line else ""
        return f'{at}: {where}{place}: unknown key "{unknown}"; {hint}'
    line = _line_of(text, str(error.absolute_path[-1])) if error.absolute_path else None
    at = f":{line}" if line else ""
    return f"{at}: {where}{place}: {error.message}"


def parse_config(path: Path) -> Config | None:
    """Read one config file; ``None`` when it is a pyproject.toml without ``[tool.mcplint]``."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8"
                          ) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from exc
    try:
        data = tomltext.loads(text)
    except ValueError as exc:  # tomllib.TOMLDecodeError
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
    where = "[tool.mcplint]" if path.name == "pyproject.toml" else "config"
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("mcplint")
        if data is None:
            return None
    problem = _schema_error(text, where, data)
    if problem:
        raise ConfigError(f"{path}{problem}")
    root = path.parent
    overrides = tuple(
        Override(
            files=tuple(o.get("files", ())),
            tools=tuple(o.get("tools", ())),
            ignore=tuple(o.get("ignore", ())),
            extend_select=tuple(o.get("extend-select", ())),
            rules=o.get("rules", {}),
        )
        for o in data.get("overrides", ())
    )
    return Config(
        path=path,
        root=root,
        include=tuple(data.get("include", DEFAULT_INCLUDE)),
        exclude=tuple(data.get("exclude", DEFAULT_EXCLUDE)) + tuple(data.get("extend-exclude", ())),
        respect_gitignore=data.get("respect-gitignore", True),
        force_exclude=data.get("force-exclude", False),
        select=tuple(data["select"]) if "select" in data else None,
        extend_select=tuple(data.get("extend-select", ())),
        ignore=tuple(data.get("ignore", ())),
        fail_on=data.get("fail-on"),
        packs=tuple(root / p for p in data.get("packs", ())),
        plugins=tuple(data.get("plugins", ())),
        rules=data.get("rules", {}),
        overrides=overrides,
        target_spec=data.get("target-spec"),
        clients=tuple(dict.fromkeys(data.get("clients", ()))),
        server_name=data.get("server-name"),
        plugin=data.get("plugin"),
    )


def discover(directory: Path) -> Config:
    """The nearest config file at or above ``directory``; defaults when there is none."""
    for folder in (directory, *directory.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if candidate.is_file():
                config = parse_config(candidate)
                if config is not None:
                    return config
    return Config(path=None, root=directory)
