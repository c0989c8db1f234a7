"""The contract between the engine and a check function.

A check function looks at one subject (a manifest, a tool, a parameter, or a manifest's tool
pairs) and yields ``Hit``s: where the problem is and the values its rule's message template
needs.  It never prints, never formats the final message and never decides severity policy.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from mcplint.findings import Edit, Severity
from mcplint.model import Manifest, Parameter, Tool
from mcplint.tokens import TokenCounter, tool_text


class Target(str, enum.Enum):
    SERVER = "server"
    TOOL = "tool"
    PARAMETER = "parameter"
    PAIR = "tool-pair"
    # The servers an agent is given together (one client config, or a snapshot set).
    SERVERS = "servers"


@dataclass(frozen=True)
class Hit:
    pointer: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    tool: Tool | None = None
    related: tuple[tuple[Tool, str], ...] = ()
    # Tiered checks (warning above 20 tools, error above 40) pick the severity per hit; a
    # severity set in the user's config still wins.
    severity: Severity | None = None
    # Set by server-set checks: the server the finding is located in.
    manifest: Manifest | None = None
    # Safe, mechanical changes that fix this hit (``check --fix``); the rule's suggestion
    # template describes them.
    edits: tuple[Edit, ...] = ()


@dataclass
class Context:
    """Per-manifest facts shared by all checks, computed at most once."""

    manifest: Manifest
    tokens: TokenCounter
    # The spec revision chosen by --target-spec or the config; None: the snapshot's own.
    chosen_spec: str | None = None
    # The client profiles chosen by --client or the config's clients (mcplint.profiles), and
    # the server and plugin names a client builds tool names from; empty: no client rules.
    clients: tuple[str, ...] = ()
    server_key: str | None = None
    plugin: str | None = None
    # The server_key is the snapshot's serverInfo.name: no config or option named the server.
    server_key_guessed: bool = False
    _tool_tokens: dict[int, int] = field(default_factory=dict)
    _memo: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def target_spec(self) -> str:
        """The MCP revision this manifest is checked against (see mcplint.revisions)."""
        from mcplint.revisions import target_revision

        return target_revision(self.chosen_spec, self.manifest.server)

    def memo(self, key: str, build: Callable[[Manifest], Any]) -> Any:
        """A fact about the manifest that a check derives once and reuses for every tool (an
        index, so per-tool work does not rescan all tools)."""
        if key not in self._memo:
            self._memo[key] = build(self.manifest)
        return self._memo[key]

    def tool_tokens(self, tool: Tool) -> int:
        cached = self._tool_tokens.get(tool.index)
        if cached is None:
            cached = self._tool_tokens[tool.index] = self.tokens.count(tool_text(tool.raw))
        return cached

    def remember_tokens(self, counts: Iterable[tuple[Tool, int]]) -> None:
        """Token counts made elsewhere (in a worker process) for tools of this manifest."""
        for tool, count in counts:
            self._tool_tokens[tool.index] = count

    @cached_property
    def total_tokens(self) -> int:
        return sum(self.tool_tokens(tool) for tool in self.manifest.tools)


@dataclass
class GroupContext:
    """The servers linted together, with each one's per-manifest facts."""

    manifests: tuple[Manifest, ...]
    tokens: TokenCounter
    # The client profiles the servers are checked for together (see Context.clients).
    clients: tuple[str, ...] = ()
    _contexts: dict[int, Context] = field(default_factory=dict)

    def context(self, manifest: Manifest) -> Context:
        found = self._contexts.get(id(manifest))
        if found is None:
            found = self._contexts[id(manifest)] = Context(manifest, self.tokens)
        return found


# Option schemas that rule vocabularies share.  "format": "regex" lets the options validator
# reject a broken pattern as a configuration error rather than a crash at lint time.
WORDS: Mapping[str, Any] = {"type": "array", "items": {"type": "string", "minLength": 1}}
WORD_GROUPS: Mapping[str, Any] = {
    "type": "array", "items": {"type": "array", "items": {"type": "string"}, "minItems": 2}}
PATTERNS: Mapping[str, Any] = {
    "type": "array", "items": {"type": "string", "minLength": 1, "format": "regex"}}


ServerFn = Callable[[Manifest, Context, Mapping[str, Any]], Iterable[Hit]]
ServersFn = Callable[[tuple[Manifest, ...], GroupContext, Mapping[str, Any]], Iterable[Hit]]
ToolFn = Callable[[Tool, Context, Mapping[str, Any]], Iterable[Hit]]
ParameterFn = Callable[[Parameter, Tool, Context, Mapping[str, Any]], Iterable[Hit]]


@dataclass(frozen=True)
class Check:
    """A check function and its declared interface: target, options schema, message fields."""

    id: str
    target: Target
    fn: Callable[..., Iterable[Hit]] = field(compare=False)
    options_schema: Mapping[str, Any] = field(compare=False)
    fields: frozenset[str]
    # It reads every tool's token count (``Context.tool_tokens``, ``total_tokens``), so the
    # engine runs it once the workers have counted them.
    tokens: bool = False

    @property
    def option_defaults(self) -> dict[str, Any]:
        properties = self.options_schema.get("properties", {})
        return {key: spec["default"] for key, spec in properties.items() if "default" in spec}


def check(
    id: str,
    target: Target,
    *,
    fields: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
    tokens: bool = False,
) -> Callable[[Callable[..., Iterable[Hit]]], Check]:
    """Declare a check function; ``options`` are JSON Schema properties for its options, and
    ``tokens`` says that a server check reads every tool's token count."""

    def wrap(fn: Callable[..., Iterable[Hit]]) -> Check:
        schema = {
            "type": "object",
            "properties": dict(options or {}),
            "additionalProperties": False,
        }
        return Check(id, target, fn, schema, frozenset(fields), tokens)

    return wrap


def run_check(check: Check, subject: Any, *args: Any) -> Iterator[Hit]:
    yield from check.fn(subject, *args)
