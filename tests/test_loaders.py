"""Finding tools by shape, building the model, and reporting bad input as located errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcplint.loaders.files import Source, load
from mcplint.loaders.jsonsource import Document, Position, parse_json
from mcplint.loaders.manifest import build_manifest
from mcplint.loaders.selection import select

TOOL = {"name": "get_user", "description": "Get a user.", "inputSchema": {"type": "object"}}


def _manifest(data: object, name: str = "m.json"):  # type: ignore[no-untyped-def]
    doc = parse_json(json.dumps(data, indent=2))
    assert isinstance(doc, Document)
    return build_manifest(name, doc)


@pytest.mark.parametrize(
    ("data", "kind", "pointer"),
    [
        ({"tools": [TOOL]}, "tools/list result", "/tools"),
        ({"tools": [TOOL], "nextCursor": "abc"}, "tools/list result", "/tools"),
        ({"jsonrpc": "2.0", "id": 1, "result": {"tools": [TOOL]}}, "JSON-RPC response",
         "/result/tools"),
        ([TOOL], "tools array", ""),
        ({"serverInfo": {"name": "s", "version": "1"}, "protocolVersion": "2025-11-25",
          "capabilities": {"tools": {}}, "instructions": "Use me.", "tools": [TOOL],
          "prompts": [], "resources": []}, "server snapshot", "/tools"),
    ],
)
def test_shapes(data: object, kind: str, pointer: str) -> None:
    manifest, errors = _manifest(data)
    assert not errors
    assert manifest is not None
    assert (manifest.kind, manifest.tools_pointer) == (kind, pointer)
    assert [t.name for t in manifest.tools] == ["get_user"]
    assert manifest.tools[0].pointer == f"{pointer}/0"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "x"}, "no tools found: expected"),
        ("tools", "the document is a string"),
        ({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}},
         "JSON-RPC error response (Method not found)"),
        ({"jsonrpc": "2.0", "id": 1, "result": {}}, 'without "result.tools"'),
        ({"tools": {"a": 1}}, '"tools" is a object, expected an array'),
        ([{"code": "SPEC001"}], "the array holds no objects"),
    ],
)
def test_wrong_shapes_are_errors_naming_the_expected_shapes(data: object, message: str) -> None:
    manifest, errors = _manifest(data)
    assert manifest is None
    assert len(errors) == 1 and message in errors[0].message


def test_non_object_tool_is_an_error_and_the_rest_is_linted() -> None:
    manifest, errors = _manifest({"tools": [TOOL, "oops", {**TOOL, "name": "b"}]})
    assert manifest is not None
    assert [t.name for t in manifest.tools] == ["get_user", "b"]
    assert [t.index for t in manifest.tools] == [0, 2]
    assert len(errors) == 1
    assert errors[0].pointer == "/tools/1"
    assert "is a string, expected a tool object" in errors[0].message
    assert (errors[0].position.line, errors[0].position.column) == (10, 5)


def test_parameters_are_flattened_with_paths_pointers_and_required() -> None:
    tool = {
        "name": "create_order",
        "description": "Create an order.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "customer": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "email": {"type": "string"}},
                    "required": ["id"],
                },
                "lines": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"sku": {"type": "string"}}},
                },
                "note": {"type": ["string", "null"], "description": "Free text."},
            },
            "required": ["customer"],
        },
        "annotations": {"readOnlyHint": False, "idempotentHint": True},
    }
    manifest, _ = _manifest({"tools": [tool]})
    assert manifest is not None
    params = {p.path: p for p in manifest.tools[0].parameters}
    assert list(params) == ["customer", "customer.id", "customer.email", "lines", "lines[].sku",
                            "note"]
    assert params["customer"].required and not params["lines"].required
    assert params["customer.id"].required and not params["customer.email"].required
    assert params["lines[].sku"].pointer == \
        "/tools/0/inputSchema/properties/lines/items/properties/sku"
    assert params["note"].types == ("string", "null")
    assert params["note"].description == "Free text."
    assert params["customer.id"].position.line > params["customer"].position.line
    annotations = manifest.tools[0].annotations
    assert annotations is not None
    # Spec defaults apply where a hint is absent.
    assert (annotations.read_only, annotations.destructive, annotations.idempotent,
            annotations.open_world) == (False, True, True, True)
    # Located when first asked for, where the annotations object is written.
    assert "position" not in vars(annotations)
    text = manifest.document.text.splitlines()
    assert '"annotations": {' in text[annotations.position.line - 1]
    assert annotations.position == manifest.position("/tools/0/annotations")


def test_name_facts_are_derived_once_in_the_model() -> None:
    manifest, _ = _manifest({"tools": [{**TOOL, "name": "deleteHTTPRoute_v2"}]})
    assert manifest is not None
    tool = manifest.tools[0]
    assert tool.name_tokens == ("delete", "http", "route", "v2")
    assert tool.verb == "delete"
    assert tool.name_style == "snake-camel"
    assert tool.reads_as_write(frozenset({"delete"}))
    assert not tool.reads_as_write(frozenset({"create"}))


def test_unreadable_files(tmp_path: Path) -> None:
    missing = load(Source(str(tmp_path / "nope.json")))
    assert missing.manifest is None and "no such file" in missing.errors[0].message
    binary = tmp_path / "bin.json"
    binary.write_bytes(b'{\n "a\xff": 1}')
    loaded = load(Source(str(binary)))
    assert loaded.manifest is None and "not UTF-8" in loaded.errors[0].message
    assert loaded.errors[0].position == Position(2, 4)  # located at the byte, not the file
    binary.write_bytes(b"\xff\xfe\x00{")
    loaded = load(Source(str(binary)))
    assert "UTF-16 text" in loaded.errors[0].message
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "tools": [\n    {"name": "a"}\n    {"name": "b"}\n  ]\n}')
    loaded = load(Source(str(broken)))
    error = loaded.errors[0]
    assert (error.position.line, error.position.column) == (4, 5)
    assert "Expecting ',' delimiter" in error.message


def test_directory_expansion_skips_non_manifests_but_reports_broken_json(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [TOOL]}))
    (tmp_path / "package.json").write_text("{}")
    (tmp_path / "other.json").write_text('{"name": "not a manifest"}')
    (tmp_path / "broken.json").write_text("{")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "dep.json").write_text(json.dumps({"tools": [TOOL]}))
    (tmp_path / "notes.txt").write_text("x")
    from mcplint.config import DEFAULT_EXCLUDE, DEFAULT_INCLUDE, Config

    sources = select(str(tmp_path), Config(None, tmp_path, DEFAULT_INCLUDE, DEFAULT_EXCLUDE)
                     ).sources
    assert sorted(Path(s.path).name for s in sources) == ["broken.json", "other.json",
                                                          "tools.json"]
    results = {Path(s.path).name: load(s) for s in sources}
    assert results["tools.json"].manifest is not None
    assert results["other.json"].skipped and not results["other.json"].errors
    assert results["broken.json"].errors
