"""``mcplint dump``: write the snapshot of each live server, for committing and static linting."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from mcplint.live.options import live_options

if TYPE_CHECKING:
    from mcplint.live.settings import LiveOptions


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "server"


@click.command()
@click.argument("configs", nargs=-1)
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="File for one server's snapshot; with several, a directory for "
              "<server>.json files. Default: standard output (one server only).")
@live_options
def dump(configs: tuple[str, ...], output: Path | None, live: LiveOptions) -> None:
    """Write live servers' snapshots (serverInfo, capabilities, instructions, tools, prompts,
    resources) as deterministic pretty JSON. Takes --stdio/--http/--sse and client configs;
    several servers go to -o SET.json (one server-set file) or -o DIRECTORY.
    """
    from mcplint.live.client import fetch_all
    from mcplint.live.loading import label, plan
    from mcplint.loaders.clientconfig import read_config
    from mcplint.snapshot import build_snapshot, dumps

    targets = list(live.targets)
    failed = False
    for path in configs:
        config = read_config(path, live.allow_env)
        if config is None:
            click.echo(f"mcplint: {path}: not an MCP client config (expected mcpServers or "
                       "servers)", err=True)
            sys.exit(2)
        allowed, errors = plan(config, live)
        for error in errors:
            click.echo(f"error: {error}", err=True)
            failed = True
        targets.extend(allowed)
    if not targets:
        if not failed:
            click.echo("mcplint: nothing to dump; give --stdio, --http, --sse or a client "
                       "config", err=True)
        sys.exit(2)
    # Several servers go to one server-set file (-o FILE.json), which the cross-server rules
    # lint statically, or to a directory of one snapshot per server.
    as_set = len(targets) > 1 and output is not None and output.suffix == ".json"
    if len(targets) > 1 and output is None:
        click.echo("mcplint: several servers: give -o SET.json for one server-set file, or "
                   "-o DIRECTORY for a snapshot per server", err=True)
        sys.exit(2)
    snapshots: dict[str, Any] = {}
    for fetched in fetch_all(targets, live.timeout, live.concurrency, live.progress):
        if fetched.error is not None or fetched.initialize is None:
            click.echo(f"error: {label(fetched.target)}: {fetched.error}", err=True)
            failed = True
            continue
        snapshot = build_snapshot(fetched.initialize, fetched.lists)
        if as_set:
            snapshots[fetched.target.name] = snapshot
            continue
        text = dumps(snapshot)
        if output is None:
            sys.stdout.write(text)
            continue
        dest = output / f"{_file_name(fetched.target.name)}.json" if len(targets) > 1 else output
        _write(dest, text)
    if as_set and output is not None:
        _write(output, dumps({"servers": snapshots}))
    sys.exit(2 if failed else 0)


def _write(dest: Path, text: str) -> None:
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
    except OSError as exc:
        click.echo(f"mcplint: {dest}: cannot write: {exc.strerror}", err=True)
        sys.exit(2)
    click.echo(f"wrote {dest}", err=True)
