"""Rules about the servers an agent is given together: what one server does to another.

An agent given a client config sees every server's tools in one list.  Two servers can each be
fine alone and still collide (the same tool name), one can talk the agent out of using
another's tools, and together they can cost far more than any one budget.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from mcplint import regex_cache as rx
from mcplint.checks.base import GroupContext, Hit, Target, check
from mcplint.checks.budget import TIER_OPTIONS, tier
from mcplint.model import Manifest, Tool
from mcplint.names import render_style, split_name


def server_label(manifest: Manifest) -> str:
    # A config's key for the server, as the user wrote it, is after the "#".
    return manifest.file.rsplit("#", 1)[-1] if "#" in manifest.file else (
        manifest.server_name or manifest.file)


@check("shadowed-tool-name", Target.SERVERS,
       fields={"other_server", "this_server", "prefixed"})
def shadowed_tool_name(group: tuple[Manifest, ...], ctx: GroupContext,
                       options: Mapping[str, Any]) -> Iterator[Hit]:
    first: dict[str, tuple[Manifest, Tool]] = {}
    for manifest in group:
        for name, tools in manifest.tools_by_name.items():
            if name in first:
                other = first[name][0]
                fields = {"other_server": server_label(other),
                          "this_server": server_label(manifest)}
                prefixed = _prefixed(tools[0], server_label(manifest))
                if prefixed and not any(prefixed in m.tools_by_name for m in group):
                    fields["prefixed"] = prefixed
                yield Hit(tools[0].child("name"), fields, tools[0], manifest=manifest)
            else:
                first[name] = (manifest, tools[0])


def _prefixed(tool: Tool, server: str) -> str | None:
    """The tool's name with its server's name in front, in the name's own style
    (``search_issues`` on ``jira`` → ``jira_search_issues``); None when the server's label
    has no words or the name already starts with them."""
    base = re.sub(r"\.jsonc?$", "", server.rsplit("/", 1)[-1])
    prefix = split_name(re.sub(r"[^A-Za-z0-9]+", "_", base))
    if not prefix or tool.name_tokens[:len(prefix)] == prefix:
        return None
    style = tool.name_style if tool.name_style in ("camel", "pascal", "kebab") else "snake"
    return render_style(prefix + tool.name_tokens, style)


_IDENTIFIER = rx.compile(r"[\w.-]+")


def _mentioned(text: str, names: Mapping[str, Any]) -> list[str]:
    r"""The names the text mentions as a whole identifier, in order of first mention.

    A mention starts where no ``[\w.-]`` precedes it and ends where no ``[\w-]`` follows, so
    it is a run of those characters or a prefix of one that stops before a dot
    (``create_issue.`` at a sentence end).  Looking each such candidate up keeps the cost in
    the text's length instead of the number of tools of all servers.
    """
    found: list[str] = []
    for match in _IDENTIFIER.finditer(text):
        run = match.group()
        ends = [i for i, char in enumerate(run) if char == "."] + [len(run)]
        for end in ends:
            candidate = run[:end]
            if candidate in names and candidate not in found:
                found.append(candidate)
    # Names outside the spec's characters (a space, a slash) are not runs; look for each.
    found.extend(name for name in names if not _IDENTIFIER.fullmatch(name) and re.search(
        rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text))
    return found


def _compound(name: str, min_length: int) -> bool:
    # A one-word tool name ("search") is also an ordinary word in prose; only names that cannot
    # be prose count as a reference.
    return len(name) >= min_length and (
        any(c in name for c in "_-.") or re.search(r"[a-z][A-Z]", name) is not None)


@check("cross-server-reference", Target.SERVERS,
       fields={"other_tool", "other_server", "this_server", "instruction"},
       options={
           "min-name-length": {"type": "integer", "minimum": 1, "default": 5,
                               "description": "Shorter tool names are not looked for."},
           "instruction-words": {"type": "array", "items": {"type": "string"}, "default": [],
                                 "description": "Words that make a mention an instruction."},
       })
def cross_server_reference(group: tuple[Manifest, ...], ctx: GroupContext,
                           options: Mapping[str, Any]) -> Iterator[Hit]:
    min_length = options["min-name-length"]
    owners: dict[str, list[Manifest]] = {}
    for manifest in group:
        for name in manifest.tools_by_name:
            if _compound(name, min_length):
                owners.setdefault(name, []).append(manifest)
    words = [w.lower() for w in options["instruction-words"]]
    rank = {name: i for i, name in enumerate(owners)}
    for manifest in group:
        own = set(manifest.tools_by_name)
        for tool in manifest.tools:
            text = tool.description or ""
            # In the servers' order, as when every name was tried in turn.
            for name in sorted(_mentioned(text, owners), key=rank.__getitem__):
                others = [m for m in owners[name] if m is not manifest]
                # "update_issue" in a server whose own tool is "jira_update_issue" is that
                # tool without its prefix, not another server's.
                if not others or any(name in mine for mine in own):
                    continue
                lowered = text.lower()
                said = [w for w in words if re.search(rf"\b{re.escape(w)}\b", lowered)]
                instruction = (f' and instructs the agent ("{said[0]}")' if said else "")
                yield Hit(tool.child("description"),
                          {"other_tool": name, "other_server": server_label(others[0]),
                           "this_server": server_label(manifest), "instruction": instruction},
                          tool, manifest=manifest)
                break


def _largest(group: tuple[Manifest, ...], measure: Any) -> Manifest:
    return max(group, key=measure)


def _breakdown(group: tuple[Manifest, ...], measure: Any) -> str:
    ranked = sorted(group, key=lambda m: -measure(m))
    return ", ".join(f"{server_label(m)} {measure(m):,}" for m in ranked)


@check("config-tool-count", Target.SERVERS, fields={"count", "limit", "servers", "breakdown"},
       options=TIER_OPTIONS)
def config_tool_count(group: tuple[Manifest, ...], ctx: GroupContext,
                      options: Mapping[str, Any]) -> Iterator[Hit]:
    def count(manifest: Manifest) -> int:
        return len(manifest.tools)

    total = sum(count(m) for m in group)
    reached = tier(total, options)
    if reached:
        largest = _largest(group, count)
        yield Hit(largest.tools_pointer,
                  {"count": total, "limit": reached[1], "servers": len(group),
                   "breakdown": _breakdown(group, count)},
                  severity=reached[0], manifest=largest)


@check("config-token-budget", Target.SERVERS,
       fields={"tokens", "limit", "servers", "breakdown", "method"}, options=TIER_OPTIONS)
def config_token_budget(group: tuple[Manifest, ...], ctx: GroupContext,
                        options: Mapping[str, Any]) -> Iterator[Hit]:
    def tokens(manifest: Manifest) -> int:
        return ctx.context(manifest).total_tokens

    total = sum(tokens(m) for m in group)
    reached = tier(total, options)
    if reached:
        largest = _largest(group, tokens)
        yield Hit(largest.tools_pointer,
                  {"tokens": f"{total:,}", "limit": f"{reached[1]:,}", "servers": len(group),
                   "breakdown": _breakdown(group, tokens), "method": ctx.tokens.method},
                  severity=reached[0], manifest=largest)


CHECKS = (shadowed_tool_name, cross_server_reference, config_tool_count, config_token_budget)
