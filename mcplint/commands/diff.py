"""`mcplint diff`: what changed between two versions of a server's tools."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mcplint.commands.common import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, fail, one_line


@click.command()
@click.argument("old")
@click.argument("new")
@click.option("--output-format", "--format", "fmt", type=click.Choice(
    ("text", "json", "sarif", "github", "junit", "markdown")), default="text",
    show_default=True, help="Output format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report to this file instead of standard output.")
@click.option("--fail-on", type=click.Choice(("breaking", "risky", "drift", "never")),
              default="breaking", show_default=True,
              help="Lowest kind of change that makes the exit code 1.")
def diff(old: str, new: str, fmt: str, output: Path | None, fail_on: str) -> None:
    """Compare two versions of a server's tools (manifests or snapshots): OLD, then NEW.

    Reports breaking changes (removed or renamed tools and parameters, new required
    parameters, changed types, narrowed enums), risky ones (a read-only tool that may now
    destroy, removed annotations) and drift (changed descriptions, with the text diff).
    """
    from mcplint import diff as snapshot_diff

    before, old_errors = snapshot_diff.load_manifest(old)
    after, new_errors = snapshot_diff.load_manifest(new)
    for error in [*old_errors, *new_errors]:
        click.echo(f"error: {one_line(str(error))}", err=True)
    if before is None or after is None:
        sys.exit(EXIT_ERROR)
    changes = snapshot_diff.compare(before, after)
    code = (EXIT_ERROR if old_errors or new_errors
            else EXIT_FINDINGS if snapshot_diff.failed(changes, fail_on) else EXIT_OK)
    if output:
        try:
            with open(output, "w", encoding="utf-8") as handle:
                snapshot_diff.render(changes, before, after, fmt, handle, fail_on, code)
        except OSError as exc:
            fail(f"{output}: cannot write the report: {exc.strerror}")
    else:
        snapshot_diff.render(changes, before, after, fmt, sys.stdout, fail_on, code)
    sys.exit(code)
