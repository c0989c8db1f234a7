"""Compare two versions of a server's tools: what breaks callers, what got riskier, what drifted.

``compare`` takes two loaded manifests, wherever they came from (a committed snapshot, a
manifest file, or later a live server), so the command line only has to load them.  A change
of description is reported with its text diff: after a review, a quietly edited description
is how a "rug pull" hides.
"""

from __future__ import annotations

import difflib
import enum
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from mcplint.findings import Finding, RuleInfo, Severity, ToolSummary
from mcplint.model import Manifest, Parameter, Tool
from mcplint.run import FileSummary, Report


class Category(enum.IntEnum):
    DRIFT = 1
    RISKY = 2
    BREAKING = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def severity(self) -> Severity:
        return Severity(self.value)


FAIL_ON = ("breaking", "risky", "drift", "never")


@dataclass(frozen=True)
class Kind:
    code: str
    name: str
    category: Category
    summary: str
    why: str


KINDS = {k.name: k for k in (
    Kind("BREAK001", "tool-removed", Category.BREAKING, "A tool was removed",
         "Agents, saved prompts and client allow-lists that call it by name now fail."),
    Kind("BREAK002", "tool-renamed", Category.BREAKING, "A tool was renamed",
         "Calls by the old name fail; agents that learned the old name keep using it."),
    Kind("BREAK003", "parameter-removed", Category.BREAKING, "A parameter was removed",
         "Calls that pass it are rejected by strict servers or silently lose its meaning."),
    Kind("BREAK004", "parameter-now-required", Category.BREAKING,
         "A parameter is new and required, or became required",
         "Existing calls do not pass it and now fail validation."),
    Kind("BREAK005", "type-changed", Category.BREAKING,
         "A parameter no longer accepts a type it accepted",
         "Existing calls pass values of the old type and now fail validation."),
    Kind("BREAK006", "enum-narrowed", Category.BREAKING,
         "A parameter no longer accepts values it accepted",
         "Existing calls that pass a removed value now fail validation."),
    Kind("RISK001", "became-destructive", Category.RISKY,
         "A tool that was read-only or non-destructive may now destroy data",
         "Clients auto-approve read-only tools; the same name now deletes or overwrites "
         "without the confirmation a destructive tool gets."),
    Kind("RISK002", "annotations-removed", Category.RISKY, "Tool annotations were removed",
         "Without hints clients assume the worst defaults or stop trusting the tool; a hint "
         "that disappears after review is a change nobody approved."),
    Kind("DRIFT001", "description-changed", Category.DRIFT, "A tool description changed",
         "The agent obeys descriptions; an edit after review (a rug pull) can add "
         "instructions nobody reviewed. Read the diff."),
    Kind("DRIFT002", "parameter-description-changed", Category.DRIFT,
         "A parameter description changed",
         "Agents fill arguments from these descriptions; read the diff."),
    Kind("DRIFT003", "tool-added", Category.DRIFT, "A tool was added",
         "A new tool is new surface the agent will use; review it like the rest."),
    Kind("DRIFT004", "parameter-added", Category.DRIFT, "An optional parameter was added",
         "Not breaking, but new surface the agent will fill in; review its description."),
    Kind("DRIFT005", "schema-widened", Category.DRIFT,
         "A parameter accepts more types or values than before",
         "Not breaking; check the tool handles the new values."),
    Kind("DRIFT006", "instructions-changed", Category.DRIFT, "The server instructions changed",
         "Instructions go into the agent's context like descriptions do; read the diff."),
)}


@dataclass(frozen=True)
class Change:
    kind: Kind
    tool: str | None
    message: str
    pointer: str  # in the new manifest; for something removed, where it would have been
    line: int
    column: int
    old_pointer: str | None = None
    old_line: int = 0
    text_diff: str = ""


def _sentences(text: str) -> list[str]:
    # Descriptions are often one long line; diffing sentence by sentence shows what moved.
    parts = re.split(r"(?<=[.!?])\s+|\n+", text.strip())
    return [p for p in parts if p]


def text_diff(old: str, new: str) -> str:
    lines = difflib.unified_diff(_sentences(old), _sentences(new), lineterm="", n=1)
    return "\n".join(line for line in lines if not line.startswith(("---", "+++", "@@")))


# integer values are numbers too, so integer -> number accepts everything it did.
_ACCEPTS = {"number": {"number", "integer"}}


def _accepted(types: Sequence[str]) -> set[str] | None:
    if not types:
        return None  # no type: anything goes
    return set().union(*(_ACCEPTS.get(t, {t}) for t in types))


def _enum(param: Parameter) -> list[Any] | None:
    values = param.schema.get("enum")
    return values if isinstance(values, list) else None


def _shown(values: Sequence[Any]) -> str:
    return ", ".join(json.dumps(v, ensure_ascii=False) for v in values)


def _below(path: str, parents: Sequence[str]) -> bool:
    return any(path.startswith((p + ".", p + "[]")) for p in parents)


class _Comparer:
    def __init__(self, old: Manifest, new: Manifest) -> None:
        self.old, self.new = old, new

    def at(self, kind: str, tool: str | None, message: str, pointer: str,
           old_pointer: str | None = None, diff: str = "") -> Change:
        position = self.new.position(pointer)
        old_line = self.old.position(old_pointer).line if old_pointer is not None else 0
        return Change(KINDS[kind], tool, message, pointer, position.line, position.column,
                      old_pointer, old_line, diff)

    def where_old(self, tool: Tool) -> str:
        return f"{self.old.file}:{tool.position.line}"

    def tools(self) -> Iterator[Change]:
        old = {t.name: t for t in reversed(self.old.tools) if t.name}
        new = {t.name: t for t in reversed(self.new.tools) if t.name}
        removed = [t for name, t in old.items() if name not in new]
        added = [t for name, t in new.items() if name not in old]
        renamed = _renames(removed, added)
        for before in removed:
            after = renamed.get(before.name)
            if after is not None:
                yield self.at("tool-renamed", after.name,
                              f'Tool "{before.name}" seems to have been renamed to '
                              f'"{after.name}". Calls by the old name fail. Keep the old name '
                              "as an alias, or announce the rename as a breaking change.",
                              after.child("name"), before.child("name"))
                yield from self.tool(before, after)
            else:
                yield self.at("tool-removed", before.name,
                              f'Tool "{before.name}" (at {self.where_old(before)}) was removed. '
                              "Calls by its name now fail. Keep it, deprecated in its "
                              "description, until its callers have moved.",
                              self.new.tools_pointer, before.pointer)
        moved = {t.name for t in renamed.values()}
        for after in added:
            if after.name not in moved:
                yield self.at("tool-added", after.name,
                              f'Tool "{after.name}" was added. Review its name, description '
                              "and annotations as you did the others.", after.pointer)
        for name, after in new.items():
            if name in old:
                yield from self.tool(old[name], after)

    def tool(self, before: Tool, after: Tool) -> Iterator[Change]:
        name = after.name
        if before.description != after.description:
            diff = text_diff(before.description or "", after.description or "")
            pointer = after.child("description") if after.description is not None else \
                after.pointer
            yield self.at("description-changed", name,
                          f'The description of tool "{name}" changed. Descriptions steer the '
                          "agent; an edit after review can carry instructions nobody approved. "
                          "Read the change:", pointer, before.child("description"), diff)
        yield from self.annotations(before, after)
        yield from self.parameters(before, after)

    def annotations(self, before: Tool, after: Tool) -> Iterator[Change]:
        name = after.name
        old_declared = dict(before.annotations.declared) if before.annotations else {}
        new_declared = dict(after.annotations.declared) if after.annotations else {}
        was, now = _may_destroy(before), _may_destroy(after)
        if not was and now:
            pointer = after.annotations.pointer if after.annotations else after.pointer
            previously = ("read-only" if before.annotations and before.annotations.read_only
                          else "marked non-destructive")
            yield self.at("became-destructive", name,
                          f'Tool "{name}" was {previously} and may now be destructive '
                          "(readOnlyHint and destructiveHint, with MCP's defaults). Clients "
                          "that auto-approved it will not ask before it deletes or overwrites. "
                          "If it really changed, rename it so callers notice; if not, restore "
                          "the hints.", pointer, before.annotations.pointer
                          if before.annotations else None)
        gone = [key for key in old_declared if key not in new_declared]
        if gone:
            pointer = after.annotations.pointer if after.annotations else after.pointer
            yield self.at("annotations-removed", name,
                          f'Tool "{name}" lost the annotation{"s" if len(gone) > 1 else ""} '
                          f"{', '.join(gone)}. Clients fall back to the most cautious (or most "
                          "permissive) defaults. Restore them, or say why they no longer hold.",
                          pointer, before.annotations.pointer if before.annotations else None)

    def parameters(self, before: Tool, after: Tool) -> Iterator[Change]:
        name = after.name
        old = {p.path: p for p in before.parameters}
        new = {p.path: p for p in after.parameters}
        removed = [path for path in old if path not in new]
        for path in removed:
            if _below(path, removed):
                continue
            yield self.at("parameter-removed", name,
                          f'Parameter "{path}" of tool "{name}" was removed. Calls that pass '
                          "it fail or lose its meaning. Keep accepting it until callers have "
                          "moved.", after.child("inputSchema"), old[path].pointer)
        added = [path for path in new if path not in old]
        for path in added:
            param = new[path]
            if _below(path, added):
                continue
            if param.required:
                yield self.at("parameter-now-required", name,
                              f'Tool "{name}" has a new required parameter "{path}". Existing '
                              "calls do not pass it and now fail. Make it optional with a "
                              "default, or announce a breaking change.", param.pointer)
            else:
                yield self.at("parameter-added", name,
                              f'Tool "{name}" has a new optional parameter "{path}".',
                              param.pointer)
        for path, param in new.items():
            if path in old:
                yield from self.parameter(name, old[path], param)

    def parameter(self, tool: str, before: Parameter, after: Parameter) -> Iterator[Change]:
        path = after.path
        if after.required and not before.required:
            yield self.at("parameter-now-required", tool,
                          f'Parameter "{path}" of tool "{tool}" became required. Existing '
                          "calls that leave it out now fail. Keep it optional with a default, "
                          "or announce a breaking change.", after.pointer, before.pointer)
        old_types, new_types = _accepted(before.types), _accepted(after.types)
        if old_types != new_types:
            shown = f"{'/'.join(before.types) or 'any'} to {'/'.join(after.types) or 'any'}"
            if new_types is None or (old_types is not None and old_types <= new_types):
                yield self.at("schema-widened", tool,
                              f'Parameter "{path}" of tool "{tool}" widened its type from '
                              f"{shown}.", after.pointer, before.pointer)
            else:
                yield self.at("type-changed", tool,
                              f'Parameter "{path}" of tool "{tool}" changed type from {shown}. '
                              "Calls that pass the old type now fail validation. Accept both, "
                              "or announce a breaking change.", after.pointer, before.pointer)
        yield from self.enum(tool, before, after)
        if before.description != after.description:
            yield self.at("parameter-description-changed", tool,
                          f'The description of parameter "{path}" of tool "{tool}" changed:',
                          after.pointer, before.pointer,
                          text_diff(before.description or "", after.description or ""))

    def enum(self, tool: str, before: Parameter, after: Parameter) -> Iterator[Change]:
        old, new = _enum(before), _enum(after)
        if old == new:
            return
        path = after.path
        if new is None:
            yield self.at("schema-widened", tool,
                          f'Parameter "{path}" of tool "{tool}" no longer restricts its values '
                          "to a list.", after.pointer, before.pointer)
            return
        lost = [v for v in old if v not in new] if old is not None else None
        if lost is None or lost:
            what = (f"no longer accepts {_shown(lost)}" if lost
                    else f"now accepts only {_shown(new)}")
            yield self.at("enum-narrowed", tool,
                          f'Parameter "{path}" of tool "{tool}" {what}. Calls that pass the '
                          "other values now fail. Keep accepting them, or announce a breaking "
                          "change.", after.pointer, before.pointer)
        elif old is not None and len(new) > len(old):
            gained = [v for v in new if v not in old]
            yield self.at("schema-widened", tool,
                          f'Parameter "{path}" of tool "{tool}" also accepts {_shown(gained)}.',
                          after.pointer, before.pointer)

    def server(self) -> Iterator[Change]:
        old = self.old.server.get("instructions")
        new = self.new.server.get("instructions")
        if isinstance(old, str) and isinstance(new, str) and old != new:
            root = self.new.root
            holder = "/result" if isinstance(root, dict) and "result" in root else ""
            yield self.at("instructions-changed", None,
                          "The server instructions changed; they reach the agent like "
                          "descriptions do. Read the change:", f"{holder}/instructions",
                          None, text_diff(old, new))


def _may_destroy(tool: Tool) -> bool:
    hints = tool.annotations
    # MCP's defaults: a tool without hints may be destructive.
    return hints is None or (not hints.read_only and hints.destructive)


def _same_schema(a: Tool, b: Tool) -> bool:
    return a.input_schema == b.input_schema and a.input_schema is not None


def _rename_score(before: Tool, after: Tool) -> float | None:
    """How likely ``after`` is ``before`` under a new name; None when it is not.

    An identical schema or description is enough; otherwise two of three resemblances are
    needed (name, description, parameter names), so two unrelated tools never pair up.
    """
    from rapidfuzz import fuzz  # diff only; check runs never import it

    old_text, new_text = before.description or "", after.description or ""
    names = fuzz.ratio(before.name, after.name)
    text = fuzz.token_set_ratio(old_text, new_text) if old_text and new_text else 0.0
    old_params = {p.path for p in before.parameters}
    new_params = {p.path for p in after.parameters}
    union = old_params | new_params
    shared = len(old_params & new_params) / len(union) if union else 0.0
    score = names + text + 100 * shared
    if (_same_schema(before, after) and union) or (old_text and old_text == new_text):
        return score + 300
    signals = (names >= 70) + (text >= 85) + (shared >= 0.6)
    return score if signals >= 2 else None


def _renames(removed: Sequence[Tool], added: Sequence[Tool]) -> dict[str, Tool]:
    """Pair each removed tool with the added tool most like it, if any is."""
    candidates = []
    for before in removed:
        for after in added:
            score = _rename_score(before, after)
            if score is not None:
                candidates.append((score, before.name, after))
    pairs: dict[str, Tool] = {}
    taken: set[str] = set()
    for _, old_name, after in sorted(candidates, key=lambda c: -c[0]):
        if old_name not in pairs and after.name not in taken:
            pairs[old_name] = after
            taken.add(after.name)
    return pairs


def compare(old: Manifest, new: Manifest) -> list[Change]:
    comparer = _Comparer(old, new)
    changes = [*comparer.server(), *comparer.tools()]
    return sorted(changes, key=lambda c: (-c.kind.category, c.line, c.column, c.kind.code))


def failed(changes: Sequence[Change], fail_on: str) -> bool:
    if fail_on == "never":
        return False
    threshold = Category[fail_on.upper()]
    return any(c.kind.category >= threshold for c in changes)


def rule_info(kind: Kind) -> RuleInfo:
    return RuleInfo(kind.code, kind.name, kind.summary, kind.category.severity,
                    ("diff", kind.category.label), kind.summary + ".", kind.why, "", "")


def as_report(changes: Sequence[Change], old: Manifest, new: Manifest) -> Report:
    """The changes as findings on the new file, for the formats shared with ``check``."""
    findings = tuple(
        Finding(c.kind.code, c.kind.name, c.kind.category.severity,
                c.message + (f"\n{c.text_diff}" if c.text_diff else ""), new.file, c.pointer,
                c.line, c.column, c.tool)
        for c in changes
    )
    from mcplint.tokens import get_counter, tool_text

    # Counted like check counts them, so the formats that report by linted file (JUnit's
    # testsuite, Markdown's table) see the new file as linted.
    counter = get_counter()
    tokens = [counter.count(tool_text(t.raw)) for t in new.tools]
    details = tuple(ToolSummary(t.label, t.description, n, t.pointer, t.position.line, ())
                    for t, n in zip(new.tools, tokens, strict=True))
    summary = FileSummary(new.file, len(new.tools), sum(tokens), server=new.server_name,
                          tool_details=details)
    rules = {c.kind.code: rule_info(c.kind) for c in changes}
    return Report(findings, (), (summary,), "", dict(sorted(rules.items())))


def as_dict(changes: Sequence[Change], old: Manifest, new: Manifest) -> dict[str, Any]:
    counts: Mapping[str, int] = {
        c.label: sum(1 for ch in changes if ch.kind.category is c) for c in reversed(Category)
    }
    return {
        "schema": "mcplint/diff/v1",
        "old": old.file,
        "new": new.file,
        "summary": dict(counts),
        "changes": [
            {"category": c.kind.category.label, "code": c.kind.code, "name": c.kind.name,
             "tool": c.tool, "message": c.message, "diff": c.text_diff or None,
             "new": {"pointer": c.pointer, "line": c.line, "column": c.column},
             "old": ({"pointer": c.old_pointer, "line": c.old_line}
                     if c.old_pointer is not None else None)}
            for c in changes
        ],
    }


def as_text(changes: Sequence[Change], old: Manifest, new: Manifest) -> str:
    counts = as_dict(changes, old, new)["summary"]
    lines = [f"{old.file} -> {new.file}: " + ", ".join(f"{n} {c}" for c, n in counts.items())]
    for category in reversed(Category):
        of = [c for c in changes if c.kind.category is category]
        if not of:
            continue
        lines.append(f"\n{category.name.capitalize()}")
        for change in of:
            lines.append(f"  {new.file}:{change.line}:{change.column}  {change.kind.code} "
                         f"{change.kind.name}  {change.tool or '(server)'}")
            lines.append(f"    {change.message}")
            lines += [f"      {line}" for line in change.text_diff.splitlines()]
    if not changes:
        lines.append("No changes to the tools.")
    return "\n".join(lines) + "\n"


FORMATS = ("text", "json", "sarif", "github", "junit", "markdown")


def load_manifest(path: str) -> tuple[Manifest | None, list[str]]:
    """A manifest file or snapshot, and its input errors as ``file:line:col: message``."""
    from mcplint.findings import InputError
    from mcplint.loaders.files import Source, load

    loaded = load(Source(path))
    errors = [str(InputError(e.file, e.position.line, e.position.column, e.message))
              for e in loaded.errors]
    return loaded.manifest, errors


def render(changes: Sequence[Change], old: Manifest, new: Manifest, fmt: str,
           out: TextIO, fail_on: str = "breaking", exit_code: int | None = None) -> None:
    """Write the changes; ``fail_on`` and ``exit_code`` are the command's, so every format
    counts as failing exactly the changes that make the exit code 1."""
    from mcplint.reporters import ReportOptions, get_reporter, printable

    if fmt == "text":
        from mcplint.reporters.visible import reveal

        out.write(printable(reveal(as_text(changes, old, new))))
    elif fmt == "json":
        data = as_dict(changes, old, new)
        data["fail_on"] = fail_on
        data["failures"] = sum(1 for c in changes if failed([c], fail_on))
        data["exit_code"] = exit_code
        out.write(printable(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")
    else:
        threshold = None if fail_on == "never" else Category[fail_on.upper()].severity
        options = ReportOptions(color=False, fail_on=threshold, fail_on_label=fail_on,
                                exit_code=exit_code)
        get_reporter(fmt)(as_report(changes, old, new), out, options)
