"""A tool's ``icons`` (MCP 2025-11-25 and later): where they load from and what they claim."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcplint import regex_cache as rx
from mcplint.checks.base import WORDS, Context, Hit, Target, check
from mcplint.findings import Severity
from mcplint.loaders.jsonsource import join_pointer
from mcplint.model import Tool

_SCHEME = rx.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_SIZE = rx.compile(r"[1-9][0-9]*x[1-9][0-9]*")


def _icons(tool: Tool) -> Iterator[tuple[Any, str]]:
    icons = tool.raw.get("icons")
    if isinstance(icons, list):
        for index, icon in enumerate(icons):
            yield icon, tool.child("icons", index)


def _src_problem(src: Any, schemes: list[str], warn: list[str]
                 ) -> tuple[str, Severity | None] | None:
    if not isinstance(src, str) or not src.strip():
        return "has no src", None
    match = _SCHEME.match(src.strip())
    scheme = match.group(1).lower() if match else ""
    if scheme in schemes:
        return None
    if scheme in warn:
        return (f"loads over {scheme}:, which anyone on the network path can swap",
                Severity.WARNING)
    if not scheme:
        return "is a relative reference, which a client has no base to resolve against", None
    return f"uses the {scheme}: scheme; an icon may only be an https: URL or a data: URI", None


@check("icon-src", Target.TOOL, fields={"index", "problem"},
       options={"schemes": {**WORDS, "default": ["https", "data"],
                            "description": "URI schemes an icon may load from."},
                "warn-schemes": {**WORDS, "default": ["http"],
                                 "description": "Schemes reported as a warning, not an error."}})
def icon_src(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    for index, (icon, pointer) in enumerate(_icons(tool)):
        if not isinstance(icon, dict):
            yield Hit(pointer, {"index": index, "problem": "is not an object with a src"}, tool)
            continue
        found = _src_problem(icon.get("src"), options["schemes"], options["warn-schemes"])
        if found:
            problem, severity = found
            where = join_pointer(pointer, "src") if "src" in icon else pointer
            yield Hit(where, {"index": index, "problem": problem}, tool, severity=severity)


def _data_type(src: Any) -> str | None:
    if isinstance(src, str) and src[:5].lower() == "data:":
        return src[5:].split(",", 1)[0].split(";", 1)[0].strip().lower() or None
    return None


@check("icon-metadata", Target.TOOL, fields={"index", "problem"},
       options={"mime-types": {**WORDS, "description": "MIME types clients render."}})
def icon_metadata(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    known = {m.lower() for m in options["mime-types"]}
    for index, (icon, pointer) in enumerate(_icons(tool)):
        if not isinstance(icon, dict):
            continue  # icon-src reports it
        sizes = icon.get("sizes")
        if sizes is not None and not isinstance(sizes, list):
            yield Hit(join_pointer(pointer, "sizes"),
                      {"index": index, "problem": "has sizes that is not an array"}, tool)
        for position, size in enumerate(sizes if isinstance(sizes, list) else ()):
            if not (isinstance(size, str) and (size == "any" or _SIZE.fullmatch(size))):
                yield Hit(join_pointer(join_pointer(pointer, "sizes"), position),
                          {"index": index, "problem": f"has the size {size!r}, which is "
                           "neither WxH (48x48) nor \"any\""}, tool)
        mime = icon.get("mimeType")
        stated = mime if "mimeType" in icon else _data_type(icon.get("src"))
        if stated is None:
            continue
        if not isinstance(stated, str) or stated.strip().lower() not in known:
            where = join_pointer(pointer, "mimeType" if "mimeType" in icon else "src")
            yield Hit(where, {"index": index, "problem": f"has the MIME type {stated!r}, "
                              "which clients are not required to render"}, tool)


CHECKS = (icon_src, icon_metadata)
