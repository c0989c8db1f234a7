"""One lint run: targets in, a report of findings and input errors out.

Each target is linted with the configuration found nearest to it, so a monorepo can keep a
config per server.  Nothing here prints or decides the exit code.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TextIO

from mcplint.config import Config, ConfigError, discover, parse_config
from mcplint.engine import parallel
from mcplint.engine.linter import Linted, Linter, Selection
from mcplint.findings import (
    Finding,
    InputError,
    ParameterSummary,
    RuleInfo,
    Severity,
    ToolSummary,
)
from mcplint.live.settings import LiveOptions
from mcplint.loaders.configshape import looks_like_config
from mcplint.loaders.files import STDIN, Loaded, Source, display_name, load
from mcplint.loaders.selection import FileOptions, identity, select
from mcplint.model import Manifest
from mcplint.sources import SourceRoots

if TYPE_CHECKING:
    from mcplint.loaders.clientconfig import ClientConfig
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
    # Read from standard input (``file`` is "<stdin>" or the --stdin-filename): no file to fix.
    stdin: bool = False


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
    # What every run says on stderr, findings or not: named files skipped as no manifest.
    messages: tuple[str, ...] = ()

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)

    @property
    def linted(self) -> tuple[FileSummary, ...]:
        # Files that failed to load have no token count; they are input errors, not linted.
        return tuple(f for f in self.files if f.tokens is not None)


def _config_for(path: str, explicit: Config | None, seen: dict[Path, Config]) -> Config:
    if explicit is not None:
        return explicit
    try:
        resolved = Path.cwd() if path == STDIN else Path(path).resolve()
    except (OSError, RuntimeError):  # a symlink loop: loading the target says so, located
        resolved = Path(os.path.abspath(path))
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
    files_options: FileOptions | None = None,
    stdin_filename: str | None = None,
) -> Report:
    """Lint the targets; with none, what the config's include globs find under the cwd.

    ``live`` holds servers given on the command line and the policy for client configs found
    among the targets (which are never found by expanding a directory).  ``source_roots``
    says where the servers' code is, to give findings a source location.  ``files_options``
    are the command line's file-selection flags (gitignore, force-exclude, non-manifests).
    ``stdin_filename`` names standard input (``-``): in the report, for the config to discover
    and for its per-file overrides to match, as if the text had been read from that file.
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
    notes: list[str] = []
    messages: list[str] = []
    seen: set[str] = set()
    # Live servers alone are a complete run; only with no target at all is the cwd linted.
    for target in targets or ([] if live is not None and live.targets else ["."]):
        named = stdin_filename if target == STDIN and stdin_filename else target
        config = _config_for(named, explicit, configs)
        selected = select(target, config, files_options)
        if selected.excluded:
            notes.append(f"{target}: not linted: excluded by the exclude globs of "
                         f"{config.label} (force-exclude)")
        elif selected.directory and not selected.sources:
            # An empty folder is no passing lint: say so, as for a file with no tools.
            errors.append(InputError(target, 0, 0, selected.why))
        for source in selected.sources:
            # Overlapping targets (a folder and a file in it, ./x and x) lint a file once.
            key = identity(source)
            if key is not None:
                if key in seen:
                    continue
                seen.add(key)
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

    def record(manifest: Manifest | None, linted: Linted, summary: FileSummary,
               linter: Linter, root: Path | None) -> None:
        nonlocal method
        if root is not None and manifest is not None:
            from mcplint.sources.locate import Target

            located.append(Target(manifest, root))
        findings.extend(linted.findings)
        method = linter.tokens.method
        files.append(summary)
        ran = linter.ruleset(summary.file).rules
        rules.update((code, linter.rule_info(code)) for code in ran if code not in rules)
        rules.update((f.code, linter.rule_info(f.code)) for f in linted.findings
                     if f.code not in rules)

    def lint_manifest(manifest: Manifest, linter: Linter, root: Path | None,
                      live: bool = False) -> None:
        linted = linter.lint(manifest)
        record(manifest, linted, _summary(manifest, linted, live), linter, root)

    # Linters are built before any worker is forked, so the workers inherit them.
    for _, config in sources:
        linter_for(config)
    keep = roots.files is not None  # mapping to source needs the manifests back
    allow_env = live.allow_env if live is not None else frozenset()

    def read_span(start: int, end: int) -> list[_Read]:
        return [_read(source, linters[config], stdin, keep, allow_env, stdin_filename)
                for source, config in sources[start:end]]

    # Many files are read and linted in forked workers, a span of files each, unless the
    # manifests are needed here afterwards or standard input is among them.
    forkable = not keep and all(source.path != STDIN for source, _ in sources)
    parts = (parallel.run_spans(read_span, len(sources), parallel.MIN_FILES_PER_WORKER,
                                [_size(source.path) for source, _ in sources])
             if forkable
             else [read_span(0, len(sources))])
    reads = [read for part in parts for read in part]
    for (source, config), read in zip(sources, reads, strict=True):
        if read.client is not None:
            client_configs.append(read.client)
            continue
        errors.extend(read.errors)
        if read.linted is None:
            # A file that could not be read or parsed is an input error, counted there only;
            # a file that is no manifest is skipped, and a named one said so.
            if not read.errors:
                files.append(read.summary)
                if source.explicit and read.summary.skipped is not None:
                    messages.append(f"{source.path}: skipped: it holds no tool manifest")
            continue
        record(read.manifest, read.linted, read.summary, linters[config], roots.files)
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
    if located:
        from mcplint.sources.locate import locate_findings

        findings, located_notes = locate_findings(findings, located)
        notes.extend(located_notes)
    return Report(tuple(findings), tuple(errors), tuple(files), method,
                  dict(sorted(rules.items())), tuple(notes), tuple(messages))


class _Read(NamedTuple):
    """One file target, read and linted, in this process or a worker."""

    summary: FileSummary
    client: ClientConfig | None = None
    errors: tuple[InputError, ...] = ()
    linted: Linted | None = None
    manifest: Manifest | None = None  # only when asked for: it is large to send back


def _size(path: str) -> int:
    """A file's size, to even out the workers' spans of files (a missing one counts as 1)."""
    try:
        return max(1, os.stat(path).st_size)
    except OSError:
        return 1


def _named(loaded: Loaded, name: str) -> Loaded:
    """Standard input, read, under the name --stdin-filename gives it."""
    default = display_name(loaded.source)
    manifest = loaded.manifest
    if manifest is not None:
        # A server set's parts are named file#server.
        parts = tuple(replace(part, file=name + part.file.removeprefix(default))
                      for part in manifest.parts)
        manifest = replace(manifest, file=name, parts=parts)
    errors = tuple(replace(e, file=name + e.file.removeprefix(default)) for e in loaded.errors)
    return replace(loaded, manifest=manifest, errors=errors)


def _read(source: Source, linter: Linter, stdin: TextIO | None, keep: bool,
          allow_env: frozenset[str] = frozenset(), stdin_filename: str | None = None) -> _Read:
    loaded: Loaded = load(source, stdin)
    from_stdin = source.path == STDIN
    if from_stdin and stdin_filename:
        loaded = _named(loaded, stdin_filename)
    if source.explicit and source.path != STDIN and loaded.document \
            and looks_like_config(loaded.document.data):
        # Only now: reading a config's servers needs the live targets, which a manifest's
        # lint never does.
        from mcplint.loaders.clientconfig import config_from_document

        client = config_from_document(source.path, loaded.document, allow_env)
        if client is not None:
            return _Read(FileSummary(source.path, 0, None), client=client)
    errors = tuple(InputError(e.file, e.position.line, e.position.column, e.message)
                   for e in loaded.errors)
    if loaded.manifest is None:
        return _Read(FileSummary(source.path, 0, None, loaded.skipped), errors=errors)
    linted = linter.lint(loaded.manifest)
    return _Read(_summary(loaded.manifest, linted, False, from_stdin), errors=errors,
                 linted=linted,
                 manifest=loaded.manifest if keep else None)


def _summary(manifest: Manifest, linted: Linted, live: bool, stdin: bool = False
             ) -> FileSummary:
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
                       server=manifest.server_name, tool_details=details, live=live,
                       stdin=stdin)
