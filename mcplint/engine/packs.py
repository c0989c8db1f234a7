"""Rule packs: rules as TOML data, checked against the check functions they name."""

from __future__ import annotations

import string
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcplint import tomltext
from mcplint.checks.base import Check, Target
from mcplint.engine.pack_cache import parsed_pack
from mcplint.findings import Severity

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:  # pragma: no cover
        from importlib.abc import Traversable

# Fields every message template may use, whatever its check provides.
COMMON_FIELDS = frozenset({"tool", "server", "file"})

PACK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["pack", "rules"],
    "additionalProperties": False,
    "properties": {
        "pack": {
            "type": "object",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "description": {"type": "string"}},
        },
        "rules": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["code", "name", "summary", "severity", "target", "check", "message",
                             "docs"],
                "additionalProperties": False,
                "properties": {
                    "code": {"type": "string", "pattern": "^[A-Z]+[0-9]+$"},
                    "name": {"type": "string", "pattern": "^[a-z][a-z0-9]*(-[a-z0-9]+)*$"},
                    "summary": {"type": "string", "minLength": 1},
                    "groups": {"type": "array", "items": {"type": "string"}},
                    "severity": {"enum": ["error", "warning", "info"]},
                    "target": {"enum": [t.value for t in Target]},
                    "check": {"type": "string"},
                    "default": {"type": "boolean"},
                    "message": {"type": "string", "minLength": 1},
                    "suggestion": {"type": "string", "minLength": 1},
                    "options": {"type": "object"},
                    "docs": {
                        "type": "object",
                        "required": ["what", "why", "bad", "good"],
                        "additionalProperties": False,
                        "properties": {
                            key: {"type": "string", "minLength": 1}
                            for key in ("what", "why", "bad", "good", "options")
                        } | {"example-options": {"type": "object"},
                             "example-clients": {"type": "array",
                                                 "items": {"type": "string"}}},
                    },
                },
            },
        },
    },
}


class PackError(Exception):
    """A pack that cannot be used; the message names the file and the rule."""


@dataclass(frozen=True)
class RuleDocs:
    what: str
    why: str
    bad: str
    good: str
    options: str | None = None
    # Options the bad/good examples are linted with, where defaults need a large example.
    example_options: Mapping[str, Any] = field(default_factory=dict)
    # The clients (--client) the examples are linted for, for rules that check only for those.
    example_clients: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    groups: tuple[str, ...]
    severity: Severity
    target: Target
    check: Check = field(compare=False)
    options: Mapping[str, Any] = field(compare=False)
    message: str
    docs: RuleDocs = field(compare=False)
    pack: str
    default: bool = True
    # What to write instead, as a template over the same fields as the message.
    suggestion: str | None = None

    def render(self, fields: Mapping[str, Any]) -> str:
        # A check may leave out a field it has nothing for (``rename`` when no name is free);
        # a user's message that uses it shows the placeholder instead of failing the run.
        return self.message.format_map(_Lenient(fields))

    def render_suggestion(self, fields: Mapping[str, Any]) -> str | None:
        """The concrete fix, or None when this hit lacks what the template needs (a check
        leaves out ``enum`` when the prose gives no values to propose)."""
        if self.suggestion is None:
            return None
        try:
            return self.suggestion.format_map(fields)
        except KeyError:
            return None


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def builtin_pack_dir() -> Traversable:
    """The packs shipped in the wheel, or the repository's ``rules/`` when run from a checkout."""
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "_rules", package.parent / "rules"):
        if folder.is_dir():
            return folder
    # Neither is a folder when the package is imported from a zip: ask importlib, whose
    # resource readers (and zipfile) are otherwise left unimported: about 5 ms of start-up.
    from importlib.resources import files

    return files("mcplint") / "_rules"


def _template_fields(template: str) -> set[str]:
    names = set()
    for _, field_name, _, _ in string.Formatter().parse(template):
        if field_name is not None:
            names.add(field_name.split(".")[0].split("[")[0])
    return names


def validate_options(check: Check, options: Mapping[str, Any], where: str,
                     validate: bool = True) -> dict[str, Any]:
    """Fill a check's defaults in and validate the result against its options schema.

    ``validate=False`` only fills defaults in and rejects unknown keys: for the built-in packs,
    which tests/test_packs.py validates in full, so a run does not pay for it.
    """
    merged = {**check.option_defaults, **options}
    known = list(check.options_schema.get("properties", {}))
    for key in merged:
        if key not in known:
            from rapidfuzz import process  # only for the message

            guess = process.extractOne(key, known, score_cutoff=60) if known else None
            hint = (f'did you mean "{guess[0]}"?' if guess else
                    "known options: " + ", ".join(known) if known else "it has no options")
            raise PackError(f'{where}: unknown option "{key}"; {hint}')
    if not validate:
        return merged
    from jsonschema import Draft202012Validator

    # The format checker turns a broken regular expression ("format": "regex") into a config
    # error here, instead of a traceback when the check compiles it.
    validator = Draft202012Validator(check.options_schema,
                                     format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(merged), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        place = "/".join(str(p) for p in error.absolute_path) or "options"
        raise PackError(f"{where}: option {place}: {error.message}")
    missing = set(check.options_schema.get("properties", {})) - set(merged)
    if missing:
        raise PackError(f"{where}: options missing: {', '.join(sorted(missing))}")
    return merged


def _docs(table: Mapping[str, Any]) -> RuleDocs:
    fields = {key.replace("-", "_"): value for key, value in table.items()}
    if "example_clients" in fields:
        fields["example_clients"] = tuple(fields["example_clients"])
    return RuleDocs(**fields)


def parse_pack(text: str, origin: str, checks: Mapping[str, Check],
               validate: bool = True) -> list[Rule]:
    """The rules of one pack; ``validate=False`` trusts its shape (the built-in packs, which
    tests validate) to keep jsonschema out of a lint's start-up, and reads the pack's parsed
    form from the cache (see ``pack_cache``)."""
    try:
        data = tomltext.loads(text) if validate else parsed_pack(text)
    except ValueError as exc:  # tomllib.TOMLDecodeError
        raise PackError(f"{origin}: invalid TOML: {exc}") from exc
    errors = []
    if validate:
        from jsonschema import Draft202012Validator

        errors = sorted(Draft202012Validator(PACK_SCHEMA).iter_errors(data),
                        key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        place = "/".join(str(p) for p in error.absolute_path)
        raise PackError(f"{origin}: {place or 'top level'}: {error.message}")
    pack_name = data["pack"]["name"]
    rules = []
    for entry in data["rules"]:
        where = f"{origin}: rule {entry['code']}"
        check = checks.get(entry["check"])
        if check is None:
            raise PackError(f'{where}: unknown check "{entry["check"]}"; known: '
                            + ", ".join(sorted(checks)))
        if check.target.value != entry["target"]:
            raise PackError(f'{where}: check "{check.id}" works on target '
                            f'"{check.target.value}", not "{entry["target"]}"')
        for key in ("message", "suggestion"):
            unknown = _template_fields(entry.get(key, "")) - check.fields - COMMON_FIELDS
            if unknown:
                raise PackError(f"{where}: {key} uses unknown fields {sorted(unknown)}; "
                                f"this check provides {sorted(check.fields | COMMON_FIELDS)}")
        rules.append(Rule(
            code=entry["code"],
            name=entry["name"],
            summary=entry["summary"],
            groups=tuple(entry.get("groups", ())),
            severity=Severity.parse(entry["severity"]),
            target=check.target,
            check=check,
            options=validate_options(check, entry.get("options", {}), where, validate),
            message=entry["message"],
            docs=_docs(entry["docs"]),
            pack=pack_name,
            default=entry.get("default", True),
            suggestion=entry.get("suggestion"),
        ))
    return rules


def load_packs(
    checks: Mapping[str, Check], extra: Iterable[Path] = (), validate_builtin: bool = False
) -> dict[str, Rule]:
    """All built-in packs plus the user's; a code or name used twice is an error."""
    sources: list[tuple[str, str, bool]] = []
    builtin = builtin_pack_dir()
    for item in sorted(builtin.iterdir(), key=lambda t: t.name):
        if item.name.endswith(".toml"):
            sources.append((f"rules/{item.name}", item.read_text(encoding="utf-8"),
                            validate_builtin))
    for path in extra:
        try:
            sources.append((str(path), path.read_text(encoding="utf-8"), True))
        except UnicodeDecodeError as exc:
            raise PackError(f"{path}: rule pack is not UTF-8 text (byte {exc.start}); save it "
                            "as UTF-8") from None
        except OSError as exc:
            raise PackError(f"{path}: cannot read rule pack: {exc.strerror}") from exc
    rules: dict[str, Rule] = {}
    names: dict[str, str] = {}
    for origin, text, validate in sources:
        for rule in parse_pack(text, origin, checks, validate):
            if rule.code in rules:
                raise PackError(f"{origin}: rule code {rule.code} is already used by "
                                f"{rules[rule.code].name} in pack {rules[rule.code].pack}")
            if rule.name in names:
                raise PackError(f"{origin}: rule name {rule.name} is already used by "
                                f"{names[rule.name]}")
            rules[rule.code] = rule
            names[rule.name] = rule.code
    return rules
