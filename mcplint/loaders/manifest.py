"""Find the tools in a parsed JSON document, by shape, and build the model from them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from mcplint.loaders.jsonsource import Document, Position, join_pointer
from mcplint.model import Annotations, Manifest, Parameter, Tool

# Deeper nesting than this is not a parameter an agent fills in by hand; stopping also keeps a
# hostile self-similar schema from costing unbounded time.
MAX_PARAMETER_DEPTH = 12
# The largest tool of the real-world corpus is ~40,000 characters of JSON.  Checks read every
# text of a tool, so one tool of 100 MB would hold the run for minutes: a tool past this size
# is reported and skipped, and the rest of the file is linted.
MAX_TOOL_CHARS = 1_000_000

EXPECTED_SHAPES = (
    'a tools/list result {"tools": [...]}, '
    'a JSON-RPC response {"jsonrpc": "2.0", "id": ..., "result": {"tools": [...]}}, '
    "a bare array of tool objects, "
    'or a server snapshot {"serverInfo": ..., "protocolVersion": ..., "tools": [...]}'
)
_SNAPSHOT_KEYS = ("serverInfo", "protocolVersion", "capabilities")


@dataclass(frozen=True)
class LoadError:
    """Input that could not be read as a manifest, located for the person who must fix it."""

    file: str
    position: Position
    message: str
    pointer: str = ""


def _locate_tools(data: Any) -> tuple[str, str] | str:
    """Return (kind, pointer of the tools array) or a message saying what is wrong."""
    if isinstance(data, list):
        if data and not any(isinstance(item, dict) and ("inputSchema" in item or "name" in item)
                            for item in data):
            return ('no tools found: the array holds no objects with "name" or "inputSchema"; '
                    f"expected {EXPECTED_SHAPES}")
        return "tools array", ""
    if not isinstance(data, dict):
        return f"the document is a {_json_type(data)}, expected {EXPECTED_SHAPES}"
    if "jsonrpc" in data:
        if "error" in data and "result" not in data:
            error = data["error"]
            detail = error.get("message") if isinstance(error, dict) else None
            return (
                "this is a JSON-RPC error response"
                + (f" ({detail!s})" if detail else "")
                + ", not a tools/list result; capture the response of a successful tools/list"
            )
        result = data.get("result")
        if isinstance(result, dict) and "tools" in result:
            return "JSON-RPC response", "/result/tools"
        return f'JSON-RPC response without "result.tools": expected {EXPECTED_SHAPES}'
    if "tools" in data:
        if any(key in data for key in _SNAPSHOT_KEYS):
            return "server snapshot", "/tools"
        return "tools/list result", "/tools"
    return f"no tools found: expected {EXPECTED_SHAPES}"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _parameters(
    doc: Document, schema: Any, pointer: str, path: str, depth: int,
    root: tuple[Any, str] | None = None, seen: set[str] | None = None,
) -> Iterator[Parameter]:
    """Every property an agent fills in, with its path and where it is written.  Properties
    behind a local ``$ref`` and inside ``anyOf``/``oneOf``/``allOf`` branches count: pydantic
    writes every nested model that way, and its fields are as much the tool's surface as inline
    ones.  Each ``$ref`` target is walked once per tool, so a shared definition is reported at
    the one place it is written."""
    if depth > MAX_PARAMETER_DEPTH or not isinstance(schema, dict):
        return
    if root is None:
        root, seen = (schema, pointer), set()
    assert seen is not None
    properties = schema.get("properties")
    required = schema.get("required")
    required_names = {name for name in required if isinstance(name, str)} if isinstance(
        required, list) else set()
    if isinstance(properties, dict):
        props_pointer = join_pointer(pointer, "properties")
        for name, sub in properties.items():
            sub_pointer = join_pointer(props_pointer, name)
            sub_path = f"{path}.{name}" if path else name
            yield Parameter(
                name=name,
                path=sub_path,
                pointer=sub_pointer,
                schema=sub if isinstance(sub, dict) else {},
                required=name in required_names,
                depth=depth,
                document=doc,
            )
            yield from _parameters(doc, sub, sub_pointer, sub_path, depth + 1, root, seen)
    items = schema.get("items")
    if isinstance(items, dict) and path:
        yield from _parameters(doc, items, join_pointer(pointer, "items"), f"{path}[]", depth,
                               root, seen)
    for key in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for index, branch in enumerate(branches):
                yield from _parameters(doc, branch, join_pointer(join_pointer(pointer, key),
                                                                 str(index)),
                                       path, depth, root, seen)
    target = _local_ref(schema.get("$ref"), root)
    if target is not None and target[1] not in seen:
        seen.add(target[1])
        yield from _parameters(doc, target[0], target[1], path, depth, root, seen)


def _local_ref(ref: Any, root: tuple[Any, str]) -> tuple[Any, str] | None:
    """The node a ``#/...`` reference points to within the input schema, and its pointer."""
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return None
    node, pointer = root
    for part in ref[2:].split("/"):
        key = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or key not in node:
            return None
        node, pointer = node[key], join_pointer(pointer, key)
    return (node, pointer) if isinstance(node, dict) else None


def _annotations(doc: Document, raw: Any, pointer: str) -> Annotations | None:
    if not isinstance(raw, dict):
        return None

    def hint(key: str, default: bool) -> bool:
        value = raw.get(key)
        return value if isinstance(value, bool) else default

    title = raw.get("title")
    return Annotations(
        pointer=pointer,
        declared=raw,
        document=doc,
        title=title if isinstance(title, str) else None,
        read_only=hint("readOnlyHint", False),
        destructive=hint("destructiveHint", True),
        idempotent=hint("idempotentHint", False),
        open_world=hint("openWorldHint", True),
    )


def _size(raw: Any, pointer: str) -> tuple[int, str, int]:
    """The tool's size in characters (strings, keys and one per value), and its longest
    string with that string's pointer; counting stops past MAX_TOOL_CHARS."""
    size, longest, longest_at = 0, -1, pointer
    stack = [(raw, pointer)]
    while stack and size <= MAX_TOOL_CHARS:
        value, at = stack.pop()
        size += 1
        if isinstance(value, str):
            size += len(value)
            if len(value) > longest:
                longest, longest_at = len(value), at
        elif isinstance(value, dict):
            size += sum(len(key) for key in value)
            stack.extend((v, join_pointer(at, k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, join_pointer(at, i)) for i, v in enumerate(value))
    return size, longest_at, longest


def _oversized(file: str, doc: Document, raw: Any, pointer: str, next_pointer: str
               ) -> LoadError | None:
    """An error for a tool past MAX_TOOL_CHARS, located at its longest string; None for the
    others, found by their extent in the text without walking them."""
    start = doc.offset_of(pointer)
    end = doc.offset_of(next_pointer) if doc.has(next_pointer) else len(doc.text)
    if end - start <= MAX_TOOL_CHARS:
        return None
    size, at, longest = _size(raw, pointer)
    if size <= MAX_TOOL_CHARS:
        return None
    what = (f"its string at {at} has {longest:,} characters" if longest > MAX_TOOL_CHARS // 2
            else "it has too many values")
    return LoadError(file, doc.position(at), f"{pointer} is larger than {MAX_TOOL_CHARS:,} "
                     f"characters ({what}); no agent reads a tool that size, so this entry was "
                     "skipped", at)


def build_tool(doc: Document, raw: Mapping[str, Any], index: int, pointer: str) -> Tool:
    schema_pointer = join_pointer(pointer, "inputSchema")
    annotations_pointer = join_pointer(pointer, "annotations")
    return Tool(
        index=index,
        pointer=pointer,
        position=doc.position(pointer),
        raw=raw,
        parameters=tuple(_parameters(doc, raw.get("inputSchema"), schema_pointer, "", 0)),
        annotations=_annotations(doc, raw.get("annotations"), annotations_pointer),
    )


def is_server_set(data: Any) -> bool:
    """``{"servers": {"<name>": <snapshot>, ...}}``: the servers of one client config."""
    servers = data.get("servers") if isinstance(data, dict) else None
    return isinstance(servers, dict) and bool(servers) and all(
        isinstance(s, dict) and isinstance(s.get("tools"), list) for s in servers.values())


def _server_set(file: str, doc: Document) -> tuple[Manifest, list[LoadError]]:
    parts: list[Manifest] = []
    errors: list[LoadError] = []
    for name in doc.data["servers"]:
        pointer = join_pointer("/servers", name)
        part, part_errors = build_manifest(f"{file}#{name}", doc, join_pointer(pointer, "tools"))
        errors.extend(part_errors)
        if part is not None:
            parts.append(part)
    tools = tuple(tool for part in parts for tool in part.tools)
    return Manifest(file=file, kind="server set", tools_pointer="/servers", tools=tools,
                    document=doc, parts=tuple(parts)), errors


def build_manifest(file: str, doc: Document, tools_at: str | None = None
                   ) -> tuple[Manifest | None, list[LoadError]]:
    """The manifest in a document, and the errors of the parts that could not be read.

    A non-object tool is an error, but it does not stop the other tools from being linted.
    ``tools_at`` names the tools array of one server in a server set.
    """
    if tools_at is None and is_server_set(doc.data):
        return _server_set(file, doc)
    located = ("server snapshot", tools_at) if tools_at else _locate_tools(doc.data)
    if isinstance(located, str):
        return None, [LoadError(file, doc.position(""), located)]
    kind, tools_pointer = located
    container: Any = doc.data
    for key in tools_pointer.split("/")[1:]:
        container = container[key.replace("~1", "/").replace("~0", "~")]
    if not isinstance(container, list):
        return None, [
            LoadError(
                file,
                doc.position(tools_pointer),
                f'"tools" is a {_json_type(container)}, expected an array of tool objects',
                tools_pointer,
            )
        ]
    tools: list[Tool] = []
    errors: list[LoadError] = []
    for index, raw in enumerate(container):
        pointer = join_pointer(tools_pointer, index)
        if not isinstance(raw, dict):
            errors.append(
                LoadError(
                    file,
                    doc.position(pointer),
                    f"{pointer} is a {_json_type(raw)}, expected a tool object "
                    '{"name": ..., "description": ..., "inputSchema": {...}}; '
                    "this entry was skipped",
                    pointer,
                )
            )
            continue
        oversized = _oversized(file, doc, raw, pointer, join_pointer(tools_pointer, index + 1))
        if oversized is not None:
            errors.append(oversized)
            continue
        tools.append(build_tool(doc, raw, index, pointer))
    manifest = Manifest(file=file, kind=kind, tools_pointer=tools_pointer, tools=tuple(tools),
                        document=doc)
    return manifest, errors
