"""`mcplint report`: the self-contained HTML report for reviewers."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from mcplint.commands.common import (
    apply_baseline,
    exit_code,
    lint,
    lint_options,
    one_line,
    print_notes,
    selection_options,
    verdict,
    write_report,
)
from mcplint.findings import FAIL_ON

if TYPE_CHECKING:
    from mcplint.live.settings import LiveOptions


@click.command()
@click.argument("targets", nargs=-1)
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              default=Path("mcplint-report.html"), show_default=True,
              help="Write the HTML report to this file; - for standard output.")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default="never", show_default=True,
              help="Lowest severity that makes the exit code 1; a report is for reading, "
              "so by default only input errors fail.")
@selection_options
@click.option("--baseline", type=click.Path(dir_okay=False, path_type=Path),
              help="Report only findings not recorded in this baseline file (as check does).")
@lint_options
def report(targets: tuple[str, ...], output: Path, fail_on: str, select: tuple[str, ...],
           extend_select: tuple[str, ...], ignore: tuple[str, ...],
           config_path: Path | None, baseline: Path | None, source: Path | None,
           target_spec: str | None, verbose: bool, live: LiveOptions,
           clients: dict[str, Any]) -> None:
    """Write a self-contained HTML report for reviewers (same as check --format html).

    Findings per server and tool with the rule docs, token costs against the budgets, and
    filters by severity, rule and text.
    """
    from mcplint.reporters import ReportOptions, get_reporter

    result = lint(targets, select, extend_select, ignore, config_path, live, source,
                   target_spec, clients=clients)
    print_notes(result, verbose)
    if baseline:
        result = apply_baseline(result, baseline, None)
    code = exit_code([f.severity for f in result.findings], len(result.errors), fail_on)
    write_report(get_reporter("html"), result, output,
           ReportOptions(color=False, **verdict(fail_on, False, code)))
    if str(output) != "-":
        tools = sum(f.tools for f in result.linted)
        click.echo(f"Wrote {output}: {len(result.findings)} findings in {tools} tools.", err=True)
    for error in result.errors:
        click.echo(f"error: {one_line(str(error))}", err=True)
    sys.exit(code)
