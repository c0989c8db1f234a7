"""The linted world: a manifest of tools, their parameters and annotations.

Every node carries the JSON pointer of its source node and its position there (a parameter's
and the annotations' found when first asked for), so any finding about it can be located
without going back to the text.  Facts that several rules need are derived here once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from mcplint.loaders.jsonsource import Document, Position, join_pointer
from mcplint.names import Style, name_style, split_name

JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")


@dataclass(frozen=True)
class Annotations:
    """Tool annotations with the MCP spec's defaults applied where a hint is absent."""

    pointer: str
    declared: Mapping[str, Any] = field(compare=False)
    # Found when first asked for, as a parameter's: no rule asks, and finding it for every tool
    # walked into each tool's text while the manifest was built.
    document: Document = field(compare=False, repr=False)
    title: str | None = None
    read_only: bool = False
    destructive: bool = True
    idempotent: bool = False
    open_world: bool = True

    @cached_property
    def position(self) -> Position:
        return self.document.position(self.pointer)


@dataclass(frozen=True)
class Parameter:
    """One property of a tool's input schema, nested ones included.

    ``path`` is dotted (``filter.status``); array items add ``[]`` (``labels[].name``).
    """

    name: str
    path: str
    pointer: str
    schema: Mapping[str, Any] = field(compare=False)
    required: bool
    depth: int
    # Where the parameter is written is asked for by few findings and costs a walk of the
    # text to find, so it is found when first asked for, not when the manifest is built.
    document: Document = field(compare=False, repr=False)

    @cached_property
    def position(self) -> Position:
        return self.document.position(self.pointer)

    @property
    def types(self) -> tuple[str, ...]:
        declared = self.schema.get("type")
        if isinstance(declared, str):
            return (declared,)
        if isinstance(declared, list):
            return tuple(t for t in declared if isinstance(t, str))
        return ()

    @property
    def description(self) -> str | None:
        text = self.schema.get("description")
        return text if isinstance(text, str) else None

    @property
    def has_closed_set(self) -> bool:
        return any(key in self.schema for key in ("enum", "const", "oneOf", "anyOf"))


@dataclass(frozen=True)
class Tool:
    index: int
    pointer: str
    position: Position
    raw: Mapping[str, Any] = field(compare=False)
    parameters: tuple[Parameter, ...] = field(compare=False)
    annotations: Annotations | None = field(compare=False)

    @cached_property
    def name(self) -> str:
        """The name as a string; empty when missing or not a string (a spec rule reports it)."""
        value = self.raw.get("name")
        return value if isinstance(value, str) else ""

    @cached_property
    def label(self) -> str:
        return self.name or f"tools[{self.index}]"

    @property
    def description(self) -> str | None:
        text = self.raw.get("description")
        return text if isinstance(text, str) else None

    @property
    def title(self) -> str | None:
        text = self.raw.get("title")
        return text if isinstance(text, str) else None

    @property
    def input_schema(self) -> Any:
        return self.raw.get("inputSchema")

    @property
    def output_schema(self) -> Any:
        return self.raw.get("outputSchema")

    @cached_property
    def name_tokens(self) -> tuple[str, ...]:
        return split_name(self.name)

    @cached_property
    def name_style(self) -> Style:
        return name_style(self.name)

    @property
    def verb(self) -> str | None:
        """The leading word of the name, which in tool names is nearly always the verb."""
        return self.name_tokens[0] if self.name_tokens else None

    def reads_as_write(self, write_verbs: frozenset[str]) -> bool:
        """Whether any name word is a write verb (``delete_user``, ``user_delete``)."""
        return any(token in write_verbs for token in self.name_tokens)

    def child(self, *tokens: str | int) -> str:
        pointer = self.pointer
        for token in tokens:
            pointer = join_pointer(pointer, token)
        return pointer


@dataclass(frozen=True)
class Manifest:
    """The tools of one file (or one live server), and where they came from."""

    file: str
    kind: str
    tools_pointer: str
    tools: tuple[Tool, ...]
    document: Document = field(repr=False, compare=False)
    # A snapshot set (several servers in one file) holds one manifest per server here, and
    # all their tools above; rules about one server run on each part.
    parts: tuple[Manifest, ...] = field(default=(), repr=False, compare=False)
    # A server read from a client config: the key naming it there, and the config's kind
    # ("Claude Code"), so it is checked for the client that reads the config.
    config_server: str | None = field(default=None, compare=False)
    config_kind: str | None = field(default=None, compare=False)

    @property
    def root(self) -> Any:
        return self.document.data

    @cached_property
    def server(self) -> Mapping[str, Any]:
        """The object holding ``serverInfo`` and friends, if the file is a snapshot."""
        holder = self.root.get("result", self.root) if isinstance(self.root, dict) else None
        return holder if isinstance(holder, dict) else {}

    @property
    def server_name(self) -> str | None:
        info = self.server.get("serverInfo")
        name = info.get("name") if isinstance(info, dict) else None
        return name if isinstance(name, str) else None

    @cached_property
    def tools_by_name(self) -> Mapping[str, tuple[Tool, ...]]:
        index: dict[str, list[Tool]] = {}
        for tool in self.tools:
            if tool.name:
                index.setdefault(tool.name, []).append(tool)
        return {name: tuple(tools) for name, tools in index.items()}

    def position(self, pointer: str) -> Position:
        return self.document.position(pointer)
