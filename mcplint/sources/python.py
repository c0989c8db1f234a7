"""Tool definitions in Python source, read with ``ast`` so every span is exact.

Recognised: functions decorated with ``@<server>.tool`` / ``@<server>.tool(...)`` (``FastMCP``
from ``mcp.server.fastmcp`` and the ``fastmcp`` package, ``MCPServer`` in ``mcp>=2``),
functions registered with ``<server>.add_tool(fn, ...)``, explicit ``Tool(name=...,
description=..., inputSchema=...)`` constructions of the low-level server, and plain dict
literals with a ``"name"`` and an ``"inputSchema"``.  The SDKs name a decorated tool after its
function unless ``name=`` is given, and describe it with ``description=`` or else the docstring.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from mcplint import regex_cache as rx
from mcplint.findings import SourceLocation
from mcplint.sources.definitions import Definition

_DEF = rx.compile(r"(?:async\s+)?def\s+")
# How deep a module constant may refer to another before the chain counts as computed.
_MAX_INDIRECTION = 4


@dataclass(frozen=True)
class _Module:
    file: str
    lines: list[str]
    constants: Mapping[str, ast.expr]
    functions: Mapping[str, ast.FunctionDef | ast.AsyncFunctionDef]

    def column(self, lineno: int, byte_offset: int) -> int:
        """1-based character column of an ast byte offset (ast counts UTF-8 bytes)."""
        line = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
        if line.isascii():
            return byte_offset + 1
        return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="replace")) + 1

    def span(self, node: ast.AST, start: ast.AST | None = None) -> SourceLocation:
        first = start or node
        end_line = getattr(node, "end_lineno", None) or node.lineno  # type: ignore[attr-defined]
        end_col = getattr(node, "end_col_offset", None)
        if end_col is None:
            end_col = node.col_offset  # type: ignore[attr-defined]
        return SourceLocation(
            self.file,
            first.lineno,  # type: ignore[attr-defined]
            self.column(first.lineno, first.col_offset),  # type: ignore[attr-defined]
            end_line,
            self.column(end_line, end_col),
        )

    def text(self, node: ast.AST | None, depth: int = 0) -> tuple[str | None, ast.AST | None]:
        """The static string value of an expression and the node where it is written.

        A bare name resolves through module-level constants, so ``description=DESCRIPTION``
        points at the literal assigned to ``DESCRIPTION``.
        """
        if node is None or depth > _MAX_INDIRECTION:
            return None, node
        if isinstance(node, ast.Constant):
            return (node.value if isinstance(node.value, str) else None), node
        if isinstance(node, ast.Name | ast.Attribute):
            value = self.constants.get(_dotted(node))
            if value is None:
                return None, node
            return self.text(value, depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, _ = self.text(node.left, depth + 1)
            right, _ = self.text(node.right, depth + 1)
            if left is None or right is None:
                return None, node
            return left + right, node
        if isinstance(node, ast.JoinedStr):
            if all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in node.values):
                return "".join(v.value for v in node.values), node  # type: ignore[attr-defined]
            return None, node
        if isinstance(node, ast.Call):
            return self._text_call(node, depth)
        return None, node

    def _text_call(self, node: ast.Call, depth: int) -> tuple[str | None, ast.AST | None]:
        # dedent(...)/cleandoc(...) around a literal, and "...".strip(): common for long texts.
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if called in ("dedent", "cleandoc") and len(node.args) == 1 and not node.keywords:
            inner, _ = self.text(node.args[0], depth + 1)
            if inner is None:
                return None, node
            return (textwrap.dedent(inner) if called == "dedent" else inspect.cleandoc(inner)), node
        if isinstance(func, ast.Attribute) and called == "strip" and not node.args:
            inner, _ = self.text(func.value, depth + 1)
            return (inner.strip() if inner is not None else None), node
        return None, node


def _dotted(node: ast.expr) -> str:
    """``NAME``, or ``Class.MEMBER`` (``.value`` dropped: an enum member's value is the
    literal assigned to it), as constants are keyed; "" for anything else."""
    if isinstance(node, ast.Attribute) and node.attr == "value":
        node = node.value
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return ""


def _assignments(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.expr]]:
    for statement in body:
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                yield prefix + target.id, value


def _module(file: str, text: str, tree: ast.Module) -> _Module:
    constants: dict[str, ast.expr] = {}
    reassigned: set[str] = set()
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    redefined: set[str] = set()
    # Module constants, and class-level ones: reference servers name their tools with an
    # enum (`name=GitTools.STATUS`, `name=ToolNames.GET_TIME.value`).
    bindings = list(_assignments(tree.body, ""))
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            bindings.extend(_assignments(statement.body, statement.name + "."))
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            if statement.name in functions:
                redefined.add(statement.name)
            functions[statement.name] = statement
    for key, value in bindings:
        if key in constants:
            reassigned.add(key)
        constants[key] = value
    # A name bound twice has no single value; leave it computed rather than pick one.
    return _Module(
        file,
        text.split("\n"),
        {k: v for k, v in constants.items() if k not in reassigned},
        {k: v for k, v in functions.items() if k not in redefined},
    )


def _keyword(call: ast.Call, *names: str) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg in names:
            return keyword.value
    return None


def _is_tool_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Attribute) and target.attr == "tool"


def _called(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _decorator_span(module: _Module, node: ast.expr) -> SourceLocation:
    # The decorator's node starts after the "@"; the span a person sees includes it.
    span = module.span(node)
    line = module.lines[span.line - 1] if span.line <= len(module.lines) else ""
    if span.column > 1 and line[span.column - 2:span.column - 1] == "@":
        return SourceLocation(span.file, span.line, span.column - 1, span.end_line,
                              span.end_column)
    return span


def _def_name_span(module: _Module, fn: ast.FunctionDef | ast.AsyncFunctionDef
                   ) -> SourceLocation:
    """The function's name identifier after ``def``; the def line when it cannot be found."""
    line = module.lines[fn.lineno - 1] if fn.lineno <= len(module.lines) else ""
    start = module.column(fn.lineno, fn.col_offset) - 1
    match = _DEF.match(line, start)
    if match and line.startswith(fn.name, match.end()):
        column = match.end() + 1
        return SourceLocation(module.file, fn.lineno, column, fn.lineno, column + len(fn.name))
    return SourceLocation(module.file, fn.lineno, start + 1, fn.lineno, len(line) + 1)


def _aliases(*nodes: ast.AST | None) -> Iterator[str]:
    """``Field(alias="x")`` in an annotation or default: the schema property is named ``x``."""
    for node in nodes:
        if node is None:
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and _called(sub) == "Field":
                alias = _keyword(sub, "alias")
                if isinstance(alias, ast.Constant) and isinstance(alias.value, str):
                    yield alias.value


def _signature_params(module: _Module, fn: ast.FunctionDef | ast.AsyncFunctionDef
                      ) -> dict[str, SourceLocation]:
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    defaults: dict[int, ast.expr | None] = {}
    offset = len(positional) - len(args.defaults)
    for index, default in enumerate(args.defaults):
        defaults[id(positional[offset + index])] = default
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        defaults[id(arg)] = kw_default
    params: dict[str, SourceLocation] = {}
    for arg in [*positional, *args.kwonlyargs]:
        span = module.span(arg)
        params.setdefault(arg.arg, span)
        for alias in _aliases(arg.annotation, defaults.get(id(arg))):
            params.setdefault(alias, span)
    return params


def _docstring(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Constant | None:
    first = fn.body[0] if fn.body else None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return first.value
    return None


def _function_tool(module: _Module, fn: ast.FunctionDef | ast.AsyncFunctionDef,
                   site: SourceLocation, call: ast.Call | None,
                   positional_name: bool) -> Definition | None:
    """A function registered as a tool, by decorator or ``add_tool``; ``call`` holds the
    registration's arguments, if any."""
    name_node = None
    if call is not None:
        name_node = _keyword(call, "name")
        if name_node is None and positional_name and call.args:
            name_node = call.args[0]
    if name_node is not None:
        name, where = module.text(name_node)
        if name is None or where is None:
            return None  # a computed name cannot be matched, and must not be guessed
        name_at = module.span(where)
    else:
        name, name_at = fn.name, _def_name_span(module, fn)
    description_node = _keyword(call, "description") if call is not None else None
    if isinstance(description_node, ast.Constant) and not description_node.value:
        description_node = None  # the SDKs take `description or fn.__doc__`
    description: str | None
    description_at: SourceLocation | None
    if description_node is not None:
        description, where = module.text(description_node)
        description_at = module.span(where or description_node)
    else:
        doc = _docstring(fn)
        # No docstring: the SDKs list no description, which is known, not computed.
        description = doc.value if doc is not None and isinstance(doc.value, str) else ""
        description_at = module.span(doc) if doc is not None else None
    annotations = _keyword(call, "annotations") if call is not None else None
    return Definition(
        name=name,
        site=site,
        name_at=name_at,
        description=description,
        description_at=description_at,
        annotations_at=module.span(annotations) if annotations is not None else None,
        params=_signature_params(module, fn),
    )


def _schema_params(module: _Module, schema: ast.expr | None) -> dict[str, SourceLocation]:
    """``{"properties": {"x": {...}}}`` written as a literal: each property's key to value."""
    if isinstance(schema, ast.Name):
        schema = module.constants.get(schema.id)
    if not isinstance(schema, ast.Dict):
        return {}
    params: dict[str, SourceLocation] = {}
    for key, value in zip(schema.keys, schema.values, strict=True):
        if isinstance(key, ast.Constant) and key.value == "properties" \
                and isinstance(value, ast.Dict):
            for prop, prop_value in zip(value.keys, value.values, strict=True):
                if isinstance(prop, ast.Constant) and isinstance(prop.value, str):
                    params.setdefault(prop.value, module.span(prop_value, start=prop))
    return params


def _explicit_tool(module: _Module, node: ast.AST, fields: Mapping[str, ast.expr],
                   registration: bool = True) -> Definition | None:
    """``Tool(name=..., ...)`` or ``{"name": ..., "inputSchema": ...}``."""
    name, where = module.text(fields.get("name"))
    if name is None or where is None:
        return None
    description_node = fields.get("description")
    description, described = module.text(description_node)
    if description_node is None:
        description = ""  # absent, which is known, not computed
    annotations = fields.get("annotations")
    return Definition(
        name=name,
        site=module.span(node),
        name_at=module.span(where),
        description=description,
        description_at=module.span(described) if described is not None else None,
        annotations_at=module.span(annotations) if annotations is not None else None,
        params=_schema_params(module, fields.get("inputSchema") or fields.get("input_schema")),
        registration=registration,
    )


def _dict_fields(node: ast.Dict) -> dict[str, ast.expr]:
    return {key.value: value for key, value in zip(node.keys, node.values, strict=True)
            if isinstance(key, ast.Constant) and isinstance(key.value, str)}


def _definitions(module: _Module, tree: ast.Module) -> Iterator[Definition]:
    for node in ast.walk(tree):
        found: Definition | None = None
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                if _is_tool_decorator(decorator):
                    call = decorator if isinstance(decorator, ast.Call) else None
                    found = _function_tool(module, node, _decorator_span(module, decorator),
                                           call, positional_name=True)
                    if found is not None:
                        yield found
            continue
        if isinstance(node, ast.Call):
            called = _called(node)
            if called == "Tool":
                found = _explicit_tool(module, node, {k.arg: k.value for k in node.keywords
                                                      if k.arg is not None})
            elif called == "add_tool" and node.args and isinstance(node.args[0], ast.Name):
                fn = module.functions.get(node.args[0].id)
                if fn is not None:
                    call = ast.Call(func=node.func, args=node.args[1:], keywords=node.keywords)
                    found = _function_tool(module, fn, module.span(node), call,
                                           positional_name=True)
        elif isinstance(node, ast.Dict):
            fields = _dict_fields(node)
            if "name" in fields and ("inputSchema" in fields or "input_schema" in fields):
                found = _explicit_tool(module, node, fields, registration=False)
        if found is not None:
            yield found


def python_definitions(file: str, text: str) -> list[Definition]:
    """Every tool definition in one Python file; a file that does not parse has none."""
    try:
        # Someone else's "\d" in a string is no concern of a lint run's output.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=file)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    try:
        return list(_definitions(_module(file, text, tree), tree))
    except RecursionError:
        return []
