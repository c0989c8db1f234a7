"""Turn live targets (from the command line and from client configs) into manifests or errors.

A server's manifest is built from its snapshot text, so a finding's pointer and line are those
of the snapshot ``mcplint dump`` writes for it.  A config is data someone else may have
written: its commands are started only with ``allow_exec``, its URLs contacted only with
``allow_network``, and its ``${VAR}`` read only for the variables in ``allow_env``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from mcplint.findings import InputError
from mcplint.live.client import Fetched
from mcplint.live.settings import LiveOptions
from mcplint.live.targets import STDIO, LiveTarget
from mcplint.loaders.clientconfig import ClientConfig
from mcplint.loaders.manifest import build_manifest
from mcplint.model import Manifest
from mcplint.snapshot import build_snapshot, snapshot_document


@dataclass
class LiveLoaded:
    manifests: list[Manifest] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    # Servers an agent sees together (one config, or all command-line targets), for the
    # cross-server rules.
    groups: list[list[Manifest]] = field(default_factory=list)


def label(target: LiveTarget) -> str:
    """How findings name a live server: its name, qualified by the config it came from."""
    return target.name if target.origin == "command line" else f"{target.origin}#{target.name}"


def _allowed(target: LiveTarget, options: LiveOptions) -> bool:
    return options.allow_exec if target.transport == STDIO else options.allow_network


def refusals(config: ClientConfig, options: LiveOptions) -> list[InputError]:
    """What the config would start or contact that the options do not allow, one error for
    commands and one for URLs, each naming the flag that allows it."""
    errors = []
    for stdio, doing, flag in ((True, "start {} server command(s), which mcplint runs",
                                "--allow-exec"),
                               (False, "contact {} server URL(s), which mcplint connects to",
                                "--allow-network")):
        refused = [t for t in config.targets if not t.skip_reason
                   and (t.transport == STDIO) == stdio and not _allowed(t, options)]
        if refused:
            listed = "; ".join(f"{t.name}: {t.describe()}" for t in refused)
            errors.append(InputError(config.path, 0, 0, f"{config.format} config would "
                                     f"{doing.format(len(refused))} only with {flag}: {listed}"))
    return errors


def plan(config: ClientConfig, options: LiveOptions) -> tuple[list[LiveTarget],
                                                               list[InputError]]:
    """The config's servers the options allow to be read, and an error for each one not."""
    errors = [InputError(config.path, p.position.line, p.position.column, p.message)
              for p in config.problems]
    errors += refusals(config, options)
    runnable = [t for t in config.targets if not t.skip_reason and not t.needs_env
                and _allowed(t, options)]
    return runnable, errors


def fetched_manifest(fetched: Fetched) -> tuple[Manifest | None, list[InputError]]:
    name = label(fetched.target)
    if fetched.error is not None or fetched.initialize is None:
        return None, [InputError(name, 0, 0, fetched.error or "no answer")]
    doc = snapshot_document(build_snapshot(fetched.initialize, fetched.lists))
    manifest, problems = build_manifest(name, doc)
    errors = [InputError(name, p.position.line, p.position.column, p.message) for p in problems]
    return manifest, errors


def load_live(options: LiveOptions, configs: Sequence[ClientConfig]) -> LiveLoaded:
    from mcplint.live.client import fetch_all

    loaded = LiveLoaded()
    runnable: list[LiveTarget] = list(options.targets)
    for config in configs:
        allowed, errors = plan(config, options)
        runnable.extend(allowed)
        loaded.errors.extend(errors)
    if not runnable:
        return loaded
    results = fetch_all(runnable, options.timeout, options.concurrency, options.progress)
    kinds = {config.path: config.format for config in configs}
    by_origin: dict[str, list[Manifest]] = {}
    for fetched in results:
        manifest, errors = fetched_manifest(fetched)
        loaded.errors.extend(errors)
        if manifest is not None:
            kind = kinds.get(fetched.target.origin)
            if kind is not None:
                # Clients name a server's tools after its key in the config (mcp__key__tool).
                manifest = replace(manifest, config_server=fetched.target.name,
                                   config_kind=kind)
            loaded.manifests.append(manifest)
            by_origin.setdefault(fetched.target.origin, []).append(manifest)
    loaded.groups = [group for group in by_origin.values() if len(group) > 1]
    return loaded
