"""Run the selected rules over a manifest and turn their hits into located findings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, NamedTuple

from mcplint.checks.base import Context, GroupContext, Hit, Target
from mcplint.config import Config, ConfigError, Override, matches_any
from mcplint.engine.packs import PackError, Rule, load_packs, validate_options
from mcplint.engine.parallel import run_spans
from mcplint.engine.registry import RegistryError, builtin_checks, load_plugins
from mcplint.engine.selection import SelectionError, check_selectors, resolve
from mcplint.findings import Finding, Fix, Related, RuleInfo, Severity
from mcplint.model import Manifest, Tool
from mcplint.tokens import TokenCounter, get_counter


@dataclass(frozen=True)
class Selection:
    """Rule selection given on the command line; it applies on top of the config file."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    # --target-spec: the MCP revision to check against, over the config's.
    target_spec: str | None = None
    # --client (repeatable), --server-name, --plugin: over the config's clients.
    clients: tuple[str, ...] = ()
    server_name: str | None = None
    plugin: str | None = None


class Linted(NamedTuple):
    findings: tuple[Finding, ...]
    tokens: int  # the whole manifest's tool definitions
    tool_tokens: tuple[int, ...]  # per tool, in manifest order


@dataclass(frozen=True)
class ActiveRule:
    rule: Rule
    options: Mapping[str, Any] = field(compare=False)
    severity: Severity | None  # set only when the user chose one


class RuleSet(NamedTuple):
    rules: Mapping[str, ActiveRule]

    def for_target(self, target: Target) -> list[ActiveRule]:
        return [active for active in self.rules.values() if active.rule.target is target]


def _relative(path: str, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


class Linter:
    """Rules resolved for one configuration; lints any number of manifests."""

    def __init__(self, config: Config, selection: Selection | None = None,
                 tokens: TokenCounter | None = None) -> None:
        self.config = config
        self.selection = selection or Selection()
        self.tokens = tokens or get_counter()
        try:
            checks = {**builtin_checks(), **load_plugins(config.plugins)}
            self.rules: dict[str, Rule] = load_packs(checks, config.packs)
        except (PackError, RegistryError) as exc:
            raise ConfigError(f"{config.label}: {exc}") from exc
        self._by_name = {rule.name: rule for rule in self.rules.values()}
        try:
            check_selectors([*(config.select or ()), *config.extend_select, *config.ignore],
                            self.rules, config.label)
            cli = self.selection
            check_selectors([*(cli.select or ()), *cli.extend_select, *cli.ignore], self.rules,
                            "command line")
            for index, override in enumerate(config.overrides):
                check_selectors([*override.ignore, *override.extend_select], self.rules,
                                f"{config.label}: overrides[{index}]")
        except SelectionError as exc:
            raise ConfigError(str(exc)) from exc
        # Validate every settings table now, so a typo fails the run before any file is read.
        self._settings(config.rules, config.label)
        for index, override in enumerate(config.overrides):
            self._settings(override.rules, f"{config.label}: overrides[{index}]")
        self._cache: dict[tuple[int, ...], RuleSet] = {}
        self.target_spec = self.selection.target_spec or config.target_spec
        self.clients = self.selection.clients or config.clients
        self.plugin = self.selection.plugin or config.plugin

    def rule_info(self, code: str) -> RuleInfo:
        rule = self.rules[code]
        docs = rule.docs
        return RuleInfo(rule.code, rule.name, rule.summary, rule.severity, rule.groups,
                        docs.what, docs.why, docs.bad, docs.good)

    def rule(self, key: str) -> Rule | None:
        return self.rules.get(key) or self._by_name.get(key)

    def _settings(
        self, tables: Mapping[str, Mapping[str, Any]], where: str
    ) -> dict[str, tuple[Severity | None, dict[str, Any]]]:
        resolved = {}
        for key, table in tables.items():
            rule = self.rule(key)
            if rule is None:
                raise ConfigError(f'{where}: rules.{key}: no rule has this code or name; '
                                  "see `mcplint rules`")
            resolved[rule.code] = self._apply(rule, rule.options, table, f"{where}: rules.{key}")
        return resolved

    @staticmethod
    def _apply(rule: Rule, base: Mapping[str, Any], table: Mapping[str, Any], where: str
               ) -> tuple[Severity | None, dict[str, Any]]:
        options = dict(base)
        severity = None
        for key, value in table.items():
            if key == "severity":
                severity = Severity.parse(value)
            elif key.startswith("extend-") and isinstance(options.get(key[7:]), list):
                # Vocabularies are list options; extend-X adds to X instead of replacing it.
                options[key[7:]] = [*options[key[7:]], *value]
            else:
                options[key] = value
        try:
            return severity, validate_options(rule.check, options, where)
        except PackError as exc:
            raise ConfigError(str(exc)) from exc

    def ruleset(self, file: str, tool: str | None = None) -> RuleSet:
        relative = _relative(file, self.config.root)
        matched = tuple(
            index for index, override in enumerate(self.config.overrides)
            if _override_matches(override, relative, tool)
        )
        cached = self._cache.get(matched)
        if cached is None:
            cached = self._cache[matched] = self._build(
                [self.config.overrides[i] for i in matched])
        return cached

    def _build(self, overrides: Sequence[Override]) -> RuleSet:
        config, cli = self.config, self.selection
        select = cli.select if cli.select is not None else config.select
        extend = [*config.extend_select, *cli.extend_select]
        ignore = [*config.ignore, *cli.ignore]
        for override in overrides:
            extend.extend(override.extend_select)
            ignore.extend(override.ignore)
        codes = resolve(self.rules, select, extend, ignore)
        active: dict[str, ActiveRule] = {}
        tables = [config.rules, *(o.rules for o in overrides)]
        for code in sorted(codes):
            rule = self.rules[code]
            severity: Severity | None = None
            options: Mapping[str, Any] = rule.options
            for table in tables:
                for key, settings in table.items():
                    if self.rule(key) is rule:
                        chosen, options = self._apply(rule, options, settings, config.label)
                        severity = chosen or severity
            active[code] = ActiveRule(rule, options, severity)
        return RuleSet(active)

    def lint(self, manifest: Manifest) -> Linted:
        if manifest.parts:
            return self._lint_set(manifest)
        ctx = Context(manifest, self.tokens, self.target_spec, *self._client_facts(manifest))
        base = self.ruleset(manifest.file)

        def tools(start: int, end: int) -> tuple[list[Finding], list[int]]:
            found: list[Finding] = []
            for tool in manifest.tools[start:end]:
                rules = self.ruleset(manifest.file, tool.name) if self.config.overrides else base
                for active in rules.for_target(Target.TOOL):
                    hits = active.rule.check.fn(tool, ctx, active.options)
                    found.extend(self._findings(manifest, active, hits))
                params = rules.for_target(Target.PARAMETER)
                for parameter in tool.parameters if params else ():
                    for active in params:
                        hits = active.rule.check.fn(parameter, tool, ctx, active.options)
                        found.extend(self._findings(manifest, active, hits))
            # Token counts travel back with the findings: a worker counted them already.
            return found, [ctx.tool_tokens(tool) for tool in manifest.tools[start:end]]

        whole = base.for_target(Target.SERVER) + base.for_target(Target.PAIR)
        # The whole-manifest rules run here while the workers lint the tools, but those that
        # read the tools' token counts wait for the workers' counts, so that no tool is
        # counted twice.
        early: list[Finding] = []

        def manifest_rules() -> None:
            early.extend(self._manifest_findings(
                manifest, ctx, [a for a in whole if not a.rule.check.tokens]))

        parts = run_spans(tools, len(manifest.tools), weights=_sizes(manifest),
                          meanwhile=manifest_rules)
        findings = [finding for found, _ in parts for finding in found]
        tool_tokens = tuple(count for _, counts in parts for count in counts)
        ctx.remember_tokens(zip(manifest.tools, tool_tokens, strict=True))
        findings.extend(early)
        findings.extend(self._manifest_findings(
            manifest, ctx, [a for a in whole if a.rule.check.tokens]))
        findings.sort(key=lambda f: f.sort_key)
        return Linted(tuple(findings), sum(tool_tokens), tool_tokens)

    def _manifest_findings(self, manifest: Manifest, ctx: Context,
                           actives: Sequence[ActiveRule]) -> list[Finding]:
        found: list[Finding] = []
        for active in actives:
            hits = active.rule.check.fn(manifest, ctx, active.options)
            found.extend(self._findings(manifest, active, hits, tool_filter=True))
        return found

    def _client_facts(self, manifest: Manifest
                      ) -> tuple[tuple[str, ...], str | None, str | None, bool]:
        """The clients a manifest is checked for (the chosen ones, and the one whose config
        it was read from) and the server name those clients build tool names with."""
        from mcplint.profiles import CONFIG_CLIENTS

        clients = self.clients
        implied = CONFIG_CLIENTS.get(manifest.config_kind or "")
        if implied and implied not in clients:
            clients = (*clients, implied)
        named = (manifest.config_server or self.selection.server_name
                 or self.config.server_name)
        return clients, named or manifest.server_name, self.plugin, named is None

    def _lint_set(self, manifest: Manifest) -> Linted:
        parts = [self.lint(part) for part in manifest.parts]
        findings = [f for linted in parts for f in linted.findings]
        findings.extend(self.lint_group(manifest.parts))
        findings.sort(key=lambda f: f.sort_key)
        return Linted(tuple(findings), sum(p.tokens for p in parts),
                      tuple(t for p in parts for t in p.tool_tokens))

    def lint_group(self, manifests: Sequence[Manifest]) -> tuple[Finding, ...]:
        """Rules about servers an agent is given together; each hit names its server."""
        group = tuple(manifests)
        if len(group) < 2:
            return ()
        clients = tuple(dict.fromkeys(
            client for manifest in group for client in self._client_facts(manifest)[0]))
        ctx = GroupContext(group, self.tokens, clients)
        findings: list[Finding] = []
        for active in self.ruleset(group[0].file).for_target(Target.SERVERS):
            for hit in active.rule.check.fn(group, ctx, active.options):
                findings.extend(self._findings(hit.manifest or group[0], active, [hit]))
        findings.sort(key=lambda f: f.sort_key)
        return tuple(findings)

    def _findings(self, manifest: Manifest, active: ActiveRule, hits: Iterable[Hit],
                  tool_filter: bool = False) -> Iterable[Finding]:
        rule = active.rule
        for hit in hits:
            severity = active.severity
            if tool_filter and hit.tool is not None and self.config.overrides:
                # A manifest-wide rule's finding about one tool honours that tool's overrides.
                tool_rules = self.ruleset(manifest.file, hit.tool.name).rules
                if rule.code not in tool_rules:
                    continue
                severity = tool_rules[rule.code].severity or severity
            severity = severity or hit.severity or rule.severity
            fields = {
                "tool": hit.tool.label if hit.tool else "",
                "server": manifest.server_name or manifest.file,
                "file": manifest.file,
                **hit.fields,
            }
            position = manifest.position(hit.pointer)
            suggestion = rule.render_suggestion(fields)
            fix = None
            if hit.edits:
                from mcplint.fixes import text_edits

                fix = Fix(suggestion or rule.summary, hit.edits,
                          text_edits(manifest.document, hit.edits))
            yield Finding(
                code=rule.code,
                name=rule.name,
                severity=severity,
                message=rule.render(fields),
                file=manifest.file,
                pointer=hit.pointer,
                line=position.line,
                column=position.column,
                tool=hit.tool.label if hit.tool else None,
                related=tuple(_related(manifest, tool, pointer) for tool, pointer in hit.related),
                suggestion=suggestion,
                fix=fix,
            )


def _sizes(manifest: Manifest) -> list[int]:
    """Each tool's length in the file (from one tool's start to the next), for even spans of
    work; the last one runs to the end of the text, which only makes it look a little bigger."""
    starts = [manifest.document.offset_of(tool.pointer) for tool in manifest.tools]
    ends = [*starts[1:], len(manifest.document.text)] if starts else []
    return [max(1, end - start) for start, end in zip(starts, ends, strict=True)]


def _related(manifest: Manifest, tool: Tool, pointer: str) -> Related:
    position = manifest.position(pointer)
    return Related(tool.label, pointer, position.line, position.column)


def _override_matches(override: Override, relative: str, tool: str | None) -> bool:
    if override.files and not matches_any(relative, override.files):
        return False
    if override.tools:
        return tool is not None and any(fnmatchcase(tool, p) for p in override.tools)
    return True
