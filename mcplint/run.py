"""One lint run: targets in, a report of findings and input errors out.

Each target is linted with the configuration found nearest to it, so a monorepo can keep a
config per server.  Nothing here prints or decides the exit code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from mcplint.config import Config, ConfigError, discover, parse_config
from mcplint.engine.linter import Linted, Linter, Selection
from mcplint.findings import (
    Finding,
    InputError,
    ParameterSummary,
    RuleInfo,
    Severity,
    ToolSummary,
)
from mcplint.live.loading import LiveOptions
from mcplint.loaders.clientconfig import ClientConfig, config_from_document
from mcplint.loaders.files import STDIN, Loaded, Source, expand, load
from mcplint.model import Manifest
from mcplint.sources import SourceRoots

if TYPE_CHECKING:
    from mcplint.sources.locate import Target


@dataclass(frozen=True)
class FileSummary:
    file: str
    tools: int
    tokens: int | None
    skipped: str | None = None
    server: str | None = None  # serverInfo.name of a snapshot
    tool_details: tuple[ToolSummary, ...] = ()
    # A live server: ``file`` names it, and its lines are in a snapshot held only in memory.
    live: bool = False


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...]
    errors: tuple[InputError, ...]
    files: tuple[FileSummary, ...]
    token_method: str
    # The rules that ran, with their docs, for formats that explain findings (SARIF, HTML).
    rules: Mapping[str, RuleInfo] = field(default_factory=dict)
    # What a person may want to know but that is no finding: tools whose source was not
    # found or was ambiguous (the CLI prints them with --verbose).
    notes: tuple[str, ...] = ()

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)

    @property
    def linted(self) -> tuple[FileSummary, ...]:
        # Files that failed to load have no token count; they are input errors, not linted.
        return tuple(f for f in self.files if f.tokens is not None)


def _config_for(path: str, explicit: Config | None, seen: dict[Path, Config]) -> Config:
    if explicit is not None:
        return explicit
    resolved = Path.cwd() if path == STDIN else Path(path).resolve()
    folder = resolved if resolved.is_dir() else resolved.parent
    if folder not in seen:
        seen[folder] = discover(folder)
    return seen[folder]


def run(
    targets: Sequence[str],
    selection: Selection | None = None,
    config_path: Path | None = None,
    stdin: TextIO | None = None,
    live: LiveOptions | None = None,
    source_roots: SourceRoots | None = None,
) -> Report:
    """Lint the targets; with none, what the config's include globs find under the cwd.

    ``live`` holds servers given on the command line and the policy for client configs found
    among the targets (which are never found by expanding a directory).  ``source_roots``
    says where the servers' code is, to give findings a source location.
    """
    errors: list[InputError] = []
    explicit = None
    if config_path is not None:
        explicit = parse_config(config_path)
        if explicit is None:
            raise ConfigError(f"{config_path}: has no [tool.mcplint] table")
    linters: dict[Config, Linter] = {}
    configs: dict[Path, Config] = {}
    sources: list[tuple[Source, Config]] = []
    # Live servers alone are a complete run; only with no target at all is the cwd linted.
    for target in targets or ([] if live is not None and live.targets else ["."]):
        config = _config_for(target, explicit, configs)
        for source in expand(target, config.include, config.exclude):
            sources.append((source, config))
    findings: list[Finding] = []
    files: list[FileSummary] = []
    rules: dict[str, RuleInfo] = {}
    method = ""
    client_configs: list[ClientConfig] = []
    roots = source_roots or SourceRoots()
    located: list[Target] = []

    def linter_for(config: Config) -> Linter:
        linter = linters.get(config)
        if linter is None:
            linter = linters[config] = Linter(config, selection or Selection())
        return linter

    def lint_manifest(manifest: Manifest, linter: Linter, root: Path | None,
                      live: bool = False) -> None:
        nonlocal method
        if root is not None:
            from mcplint.sources.locate import Target

            located.append(Target(manifest, root))
        linted = linter.lint(manifest)
        findings.extend(linted.findings)
        method = linter.tokens.method
        files.append(_summary(manifest, linted, live))
        ran = linter.ruleset(manifest.file).rules
        rules.update((code, linter.rule_info(code)) for code in ran if code not in rules)
        rules.update((f.code, linter.rule_info(f.code)) for f in linted.findings
                     if f.code not in rules)

    for source, config in sources:
        linter = linter_for(config)
        loaded: Loaded = load(source, stdin)
        client = (config_from_document(source.path, loaded.document)
                  if source.explicit and source.path != STDIN and loaded.document else None)
        if client is not None:
            client_configs.append(client)
            continue
        errors.extend(InputError(e.file, e.position.line, e.position.column, e.message)
                      for e in loaded.errors)
        name = loaded.manifest.file if loaded.manifest else source.path
        if loaded.manifest is None:
            files.append(FileSummary(name, 0, None, loaded.skipped))
            continue
        lint_manifest(loaded.manifest, linter, roots.files)
    live = live or LiveOptions()
    if live.targets or client_configs:
        from mcplint.live.loading import load_live

        got = load_live(live, client_configs)
        errors.extend(got.errors)
        linter = linter_for(_config_for(".", explicit, configs))
        for manifest in got.manifests:
            lint_manifest(manifest, linter, roots.live, live=True)
        for group in got.groups:
            grouped = linter.lint_group(group)
            findings.extend(grouped)
            rules.update((f.code, linter.rule_info(f.code)) for f in grouped
                         if f.code not in rules)
    notes: list[str] = []
    if located:
        from mcplint.sources.locate import locate_findings

        findings, notes = locate_findings(findings, located)
    return Report(tuple(findings), tuple(errors), tuple(files), method,
                  dict(sorted(rules.items())), tuple(notes))


def _summary(manifest: Manifest, linted: Linted, live: bool) -> FileSummary:
    details = tuple(
        ToolSummary(
            name=tool.label,
            description=tool.description,
            tokens=tokens,
            pointer=tool.pointer,
            line=tool.position.line,
            parameters=tuple(ParameterSummary(p.path, p.types, p.required, p.description)
                             for p in tool.parameters),
        )
        for tool, tokens in zip(manifest.tools, linted.tool_tokens, strict=True)
    )
    return FileSummary(manifest.file, len(manifest.tools), linted.tokens,
                       server=manifest.server_name, tool_details=details, live=live)
