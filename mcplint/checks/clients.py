"""What breaks in the client that loads a tool list, for the clients chosen (mcplint.profiles).

A tool that is valid MCP can still fail in a client: Claude Code exposes it as
``mcp__{server}__{tool}``, and a name that fits in 64 characters alone no longer does once
prefixed; providers cap how many tools a request carries and how long a description is.  Each
check here reports only for the clients in ``ctx.clients`` (``--client``, the config's
``clients``, or the client whose config the server was read from), so with none chosen they
report nothing.  Clients that break for the same reason are named together in one finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from mcplint.checks.base import Context, GroupContext, Hit, Target, check
from mcplint.findings import Severity
from mcplint.loaders.jsonsource import join_pointer
from mcplint.model import Manifest, Tool
from mcplint.profiles import Profile, profiles


def _chosen(ctx: Context) -> list[Profile]:
    known = profiles()
    return [known[key] for key in ctx.clients if key in known]


def _titles(group: Sequence[Profile]) -> str:
    names = [p.title for p in group]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _grouped(items: Iterable[tuple[Any, Profile]]) -> list[tuple[Any, list[Profile]]]:
    """Profiles that share a key (the same name and limit), in the order first seen."""
    groups: dict[Any, list[Profile]] = {}
    for key, profile in items:
        groups.setdefault(key, []).append(profile)
    return list(groups.items())


def _limit(profile: Profile) -> int | None:
    limits = [n for n in (profile.name_max, profile.deferred_name_max) if n is not None]
    return min(limits) if limits else None


def _who(group: Sequence[Profile], plugin: str | None) -> str:
    if plugin and group[0].plugin_exposed:
        return f"As plugin `{plugin}` in {_titles(group)}"
    return f"In {_titles(group)}"


@check("client-name-length", Target.TOOL, fields={"breaks", "room", "clients"})
def client_name_length(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    """The name the client sends to the model is longer than the model API allows."""
    if not tool.name or not ctx.clients:
        return
    found: list[tuple[Any, Profile]] = []
    for profile in _chosen(ctx):
        limit = _limit(profile)
        if limit is None:
            continue
        template = profile.template(ctx.plugin)
        exposed = profile.exposed_name(tool.name, ctx.server_key, ctx.plugin)
        if exposed is None:
            # No server name known: report only what breaks whatever the server is called.
            least = len(tool.name) + profile.overhead(ctx.plugin)
            if least > limit:
                found.append(((template, None, least, limit), profile))
        elif len(exposed) > limit:
            found.append(((template, exposed, len(exposed), limit), profile))
    for (template, exposed, length, limit), group in _grouped(found):
        what = "the model API" if template else "the API"
        who = _who(group, ctx.plugin)
        if exposed is None:
            assert template is not None
            shape = template.format(server="<server>", tool=tool.name, plugin=ctx.plugin)
            breaks = (f"{who} this tool is exposed as `{shape}`, at least {length} characters "
                      f"whatever the server is called, where {what} allows {limit}")
        else:
            verb = "exposed" if template else "sent"
            breaks = (f"{who} this tool is {verb} as `{exposed}`, {length} characters where "
                      f"{what} allows {limit}")
            if template and ctx.server_key_guessed:
                breaks += (". The server is named by its serverInfo.name here; --server-name "
                           "sets the name your client config gives it")
        room = limit - (length - len(tool.name))
        yield Hit(tool.child("name"), {"breaks": breaks, "room": max(room, 1),
                                       "clients": _titles(group)}, tool)


def _bad_characters(name: str, pattern: re.Pattern[str]) -> tuple[list[str], bool]:
    """Characters of ``name`` the pattern does not allow, and whether its first one is not
    allowed to open a name (Gemini: a letter or an underscore)."""
    bad = sorted({c for c in name if not pattern.fullmatch("a" + c)})
    first = bool(name) and name[0] not in bad and not pattern.fullmatch(name[0] + "a")
    return bad, first


@check("client-name-charset", Target.TOOL, fields={"breaks", "clients"})
def client_name_charset(tool: Tool, ctx: Context, options: Mapping[str, Any]) -> Iterator[Hit]:
    """The tool name has characters the client's model API rejects."""
    if not tool.name or not ctx.clients:
        return
    found: list[tuple[Any, Profile]] = []
    for profile in _chosen(ctx):
        pattern = profile.name_regex
        if pattern is None:
            continue
        bad, first = _bad_characters(tool.name, pattern)
        if bad or first:
            found.append(((tuple(bad), first, profile.name_pattern), profile))
    for (bad, first, pattern), group in _grouped(found):
        problems = []
        if bad:
            shown = ", ".join(repr(c) if c.isprintable() and c != " " else
                              f"U+{ord(c):04X}" for c in bad)
            problems.append(f"has {shown}")
        if first:
            problems.append(f"starts with {tool.name[0]!r}")
        breaks = (f"In {_titles(group)} the tool name `{tool.name}` {' and '.join(problems)}, "
                  f"which the API's name rule {pattern} rejects")
        yield Hit(tool.child("name"), {"breaks": breaks, "clients": _titles(group)}, tool)


@check("client-tool-count", Target.SERVER, fields={"count", "breaks", "clients"})
def client_tool_count(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                      ) -> Iterator[Hit]:
    """More tools than the client sends in one request."""
    if not ctx.clients:
        return
    count = len(manifest.tools)
    found = [(profile.max_tools, profile) for profile in _chosen(ctx)
             if profile.max_tools is not None and count > profile.max_tools]
    for limit, group in _grouped(found):
        breaks = (f"This server has {count} tools where {_titles(group)} "
                  f"{'sends' if len(group) == 1 else 'send'} at most {limit} in one request")
        yield Hit(manifest.tools_pointer, {"count": count, "breaks": breaks,
                                           "clients": _titles(group)})


@check("client-description-length", Target.TOOL, fields={"breaks", "length", "clients"})
def client_description_length(tool: Tool, ctx: Context, options: Mapping[str, Any]
                              ) -> Iterator[Hit]:
    """A description longer (or shorter) than the client's API accepts."""
    text = tool.description
    if text is None or not ctx.clients:
        return
    length = len(text)
    found: list[tuple[Any, Profile]] = []
    for profile in _chosen(ctx):
        if profile.description_max is not None and length > profile.description_max:
            found.append((("max", profile.description_max), profile))
        elif profile.description_min is not None and length < profile.description_min:
            found.append((("min", profile.description_min), profile))
    for (kind, limit), group in _grouped(found):
        verb = "accepts" if len(group) == 1 else "accept"
        if kind == "max":
            breaks = (f"Tool \"{tool.label}\" has a description of {length:,} characters, "
                      f"over the {limit:,} {_titles(group)} {verb}")
        elif length == 0:
            breaks = (f"Tool \"{tool.label}\" has an empty description, which {_titles(group)} "
                      f"{'rejects' if len(group) == 1 else 'reject'}")
        else:
            breaks = (f"Tool \"{tool.label}\" has a description of {length} characters, under "
                      f"the {limit} {_titles(group)} {verb}")
        yield Hit(tool.child("description"), {"breaks": breaks, "length": f"{length:,}",
                                              "clients": _titles(group)}, tool)


# --- input-schema subsets -------------------------------------------------------------------


def _objects(schema: Any, pointer: str) -> Iterator[tuple[Mapping[str, Any], str]]:
    """Every schema object in ``schema`` with its pointer: properties, items, the branches of
    anyOf/oneOf/allOf and definitions."""
    if not isinstance(schema, dict):
        return
    yield schema, pointer
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for key, sub in properties.items():
            yield from _objects(sub, join_pointer(join_pointer(pointer, "properties"), key))
    items = schema.get("items")
    if isinstance(items, dict):
        yield from _objects(items, join_pointer(pointer, "items"))
    elif isinstance(items, list):
        for index, sub in enumerate(items):
            yield from _objects(sub, join_pointer(join_pointer(pointer, "items"), index))
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for index, sub in enumerate(branches):
                yield from _objects(sub, join_pointer(join_pointer(pointer, key), index))
    for key in ("$defs", "definitions"):
        defs = schema.get(key)
        if isinstance(defs, dict):
            for name, sub in defs.items():
                yield from _objects(sub, join_pointer(join_pointer(pointer, key), name))
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        yield from _objects(extra, join_pointer(pointer, "additionalProperties"))


def _openai_strict(node: Mapping[str, Any]) -> str | None:
    properties = node.get("properties")
    is_object = node.get("type") == "object" or isinstance(properties, dict)
    if not is_object:
        return None
    if node.get("additionalProperties") is not False:
        return "an object without `\"additionalProperties\": false`"
    if isinstance(properties, dict):
        required = node.get("required")
        listed = set(required) if isinstance(required, list) else set()
        missing = [key for key in properties if key not in listed]
        if missing:
            shown = ", ".join(f"`{key}`" for key in missing[:3])
            more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
            return f"properties not in `required` ({shown}{more})"
    return None


def _openapi_30(node: Mapping[str, Any]) -> str | None:
    declared = node.get("type")
    if isinstance(declared, list):
        return (f"a list of types {declared} (OpenAPI 3.0 takes one type, with "
                "`nullable: true` for null)")
    enum = node.get("enum")
    if isinstance(enum, list) and any(not isinstance(v, str) for v in enum):
        return "an `enum` of non-strings (Gemini allows `enum` only on strings)"
    return None


_SUBSETS = {
    "openai-strict": (_openai_strict, "strict mode requires every object to set "
                      "`\"additionalProperties\": false` and list every property in "
                      "`required` (make optional ones nullable instead)"),
    "openapi-3.0": (_openapi_30, "function parameters are an OpenAPI 3.0 subset"),
}


@check("client-schema-subset", Target.TOOL, fields={"breaks", "clients"})
def client_schema_subset(tool: Tool, ctx: Context, options: Mapping[str, Any]
                         ) -> Iterator[Hit]:
    """An input schema outside the schema subset the client's API accepts."""
    schema = tool.input_schema
    if not isinstance(schema, dict) or not ctx.clients:
        return
    found: list[tuple[Any, Profile]] = []
    for profile in _chosen(ctx):
        subset = _SUBSETS.get(profile.schema or "")
        if subset is None:
            continue
        problems = [(pointer, problem) for node, pointer in
                    _objects(schema, tool.child("inputSchema"))
                    if (problem := subset[0](node)) is not None]
        if problems:
            found.append(((profile.schema, tuple(problems)), profile))
    for (kind, problems), group in _grouped(found):
        pointer, problem = problems[0]
        where = pointer.removeprefix(tool.child("inputSchema")) or "/"
        more = f" (and {len(problems) - 1} more place{'s' if len(problems) > 2 else ''})" \
            if len(problems) > 1 else ""
        breaks = (f"In {_titles(group)} the input schema has {problem} at `{where}`{more}; "
                  f"{_SUBSETS[kind][1]}")
        yield Hit(pointer, {"breaks": breaks, "clients": _titles(group)}, tool)


# --- budgets by how the client loads tools ---------------------------------------------------


def _index_cost(manifest: Manifest, ctx: Context, profile: Profile) -> tuple[int, str]:
    """Tokens the model is shown for the tools a client defers, and what that is."""
    if profile.deferred == "names":
        names = [profile.exposed_name(t.name, ctx.server_key, ctx.plugin) or t.name
                 for t in manifest.tools]
        return ctx.tokens.count("\n".join(names)), f"the {len(names)} tool names"
    if profile.deferred == "names+descriptions":
        lines = [f"{t.name}: {t.description or ''}" for t in manifest.tools]
        return ctx.tokens.count("\n".join(lines)), "the tool names and descriptions"
    return 0, "nothing per tool until a search returns it"


@check("client-definitions-budget", Target.SERVER,
       fields={"tokens", "limit", "method", "breaks", "clients"},
       options={"warning-above": {
           "type": ["integer", "null"], "minimum": 0, "default": None,
           "description": "Tokens above which to report, for every chosen client that loads "
                          "tools eagerly or warns (null: each client's own level)."}},
       tokens=True)
def client_definitions_budget(manifest: Manifest, ctx: Context, options: Mapping[str, Any]
                              ) -> Iterator[Hit]:
    """Tool definitions over the client's warning level, with the cost of each way it loads
    them: every definition sent (eager), or only the index of deferred tools."""
    if not ctx.clients:
        return
    total = ctx.total_tokens
    for profile in _chosen(ctx):
        limit = profile.eager_warning
        if limit is not None and options.get("warning-above") is not None:
            limit = options["warning-above"]
        if limit is None or total <= limit:
            continue
        if profile.deferred:
            cost, what = _index_cost(manifest, ctx, profile)
            deferred = (f"; with tool search, which defers them, the model is shown {what} "
                        f"(about {cost:,} tokens) and loads a definition when it needs one")
        else:
            deferred = ""
        level = ("at which it warns" if limit == profile.eager_warning else
                 "set in warning-above")
        breaks = (f"In {profile.title} the MCP tool definitions take about {total:,} tokens "
                  f"loaded eagerly, over the {limit:,} {level}{deferred}")
        yield Hit(manifest.tools_pointer,
                  {"tokens": f"{total:,}", "limit": f"{limit:,}", "method": ctx.tokens.method,
                   "breaks": breaks, "clients": profile.title},
                  severity=Severity.WARNING)


def _server_label(manifest: Manifest) -> str:
    """A server as its config (or snapshot set, ``file#key``) names it."""
    if manifest.config_server:
        return manifest.config_server
    if "#" in manifest.file:
        return manifest.file.rpartition("#")[2]
    return manifest.server_name or manifest.file


@check("client-config-tool-count", Target.SERVERS,
       fields={"count", "servers", "breaks", "breakdown", "clients"})
def client_config_tool_count(group: tuple[Manifest, ...], ctx: GroupContext,
                             options: Mapping[str, Any]) -> Iterator[Hit]:
    """The servers an agent is given together have more tools than the client sends in one
    request; the finding is on the server with the most tools."""
    if not ctx.clients:
        return
    known = profiles()
    total = sum(len(m.tools) for m in group)
    found = [(p.max_tools, p) for p in (known[c] for c in ctx.clients if c in known)
             if p.max_tools is not None and total > p.max_tools]
    largest = max(group, key=lambda m: len(m.tools))
    breakdown = ", ".join(f"{_server_label(m)} {len(m.tools)}"
                          for m in sorted(group, key=lambda m: -len(m.tools)))
    for limit, profiles_ in _grouped(found):
        breaks = (f"The {len(group)} servers of this config have {total} tools together where "
                  f"{_titles(profiles_)} {'sends' if len(profiles_) == 1 else 'send'} at most "
                  f"{limit} in one request")
        yield Hit(largest.tools_pointer, {"count": total, "servers": len(group),
                                          "breaks": breaks, "breakdown": breakdown,
                                          "clients": _titles(profiles_)}, manifest=largest)


CHECKS = (client_name_length, client_name_charset, client_tool_count, client_description_length,
          client_schema_subset, client_definitions_budget, client_config_tool_count)
