"""`mcplint check`: lint, report in one or more formats, fix, and baseline."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from mcplint.commands.common import (
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    apply_baseline,
    exit_code,
    fail,
    file_options,
    lint,
    lint_options,
    make_selection,
    one_line,
    print_notes,
    selection_options,
    verdict,
    write_report,
)
from mcplint.findings import FAIL_ON, Severity
from mcplint.reporters import FORMATS, TERMINAL_FORMATS

if TYPE_CHECKING:
    from mcplint.fixes.command import FixOutcome
    from mcplint.live.settings import LiveOptions
    from mcplint.loaders.selection import FileOptions

_MIN_SEVERITY = ("info", "warning", "error")


@click.command()
@click.argument("targets", nargs=-1)
@click.option("--output-format", "--format", "fmt", type=click.Choice(FORMATS),
              default="concise", show_default=True,
              help="concise: one line a finding; full: grouped by tool, with the help and "
              "manifest lines, wrapped to the terminal (text is the old name of full); or a "
              "machine format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report to this file instead of standard output.")
@click.option("--output-file", "output_files", multiple=True, metavar="FORMAT=PATH",
              callback=lambda ctx, param, value: _output_files(value),
              help="Also write the report in FORMAT to PATH, from the same run (repeatable: "
              "--output-file sarif=mcplint.sarif --output-file json=report.json).")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default=None,
              help="Lowest severity that makes the exit code 1 [default: error, or the config's]. "
              "It counts every finding, also those --min-severity does not show.")
@click.option("--exit-zero", is_flag=True,
              help="Exit 0 even when findings are at or above --fail-on; input and config "
              "errors still exit 2.")
@click.option("--min-severity", type=click.Choice(_MIN_SEVERITY), default=None,
              help="Show only findings of this severity or higher [default: all]. Output only: "
              "the exit code follows --fail-on.")
@selection_options
@file_options
@click.option("--statistics", is_flag=True,
              help="Show how often each rule fired, not each finding (with --output-format "
              "json: a list of {code, name, severity, count, fixable}).")
@click.option("--show-fixes", is_flag=True,
              help="After the findings, list the safe fixes --fix would apply (concise output).")
@click.option("--stdin-filename", metavar="NAME",
              help="The name of standard input (target -): shown in the report and matched by "
              "the config's per-file overrides.")
@click.option("-q", "--quiet", count=True,
              help="Print findings only, no headers or summary; -qq prints nothing (the exit "
              "code tells; a report file asked for with -o is still written).")
@click.option("--color/--no-color", default=None, help="Force colour on or off.")
@click.option("--baseline", type=click.Path(dir_okay=False, path_type=Path),
              help="Report only findings not recorded in this baseline file.")
@click.option("--write-baseline", type=click.Path(dir_okay=False, path_type=Path),
              help="Record every current finding in this baseline file.")
@click.option("--fix", is_flag=True, help="Apply the safe fixes to the JSON files linted, "
              "then report what is left.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the safe fixes as a unified "
              "diff and change nothing; exit 1 if there is something to fix.")
@lint_options
def check(targets: tuple[str, ...], fmt: str, output: Path | None, fail_on: str | None,
          select: tuple[str, ...], extend_select: tuple[str, ...], ignore: tuple[str, ...],
          config_path: Path | None, statistics: bool, quiet: int, color: bool | None,
          baseline: Path | None, write_baseline: Path | None, fix: bool, show_diff: bool,
          source: Path | None, target_spec: str | None, verbose: bool,
          live: LiveOptions, files: FileOptions, exit_zero: bool,
          min_severity: str | None, show_fixes: bool, stdin_filename: str | None,
          clients: dict[str, Any], output_files: tuple[tuple[str, Path], ...]) -> None:
    """Lint tool manifests: files, directories, or - for standard input.

    With no TARGETS, lint the JSON files under the current directory that the config's
    include globs select.
    """
    from mcplint.config import ConfigError, discover, parse_config
    from mcplint.reporters import ReportOptions, get_reporter

    if statistics and fmt not in (*TERMINAL_FORMATS, "json"):
        raise click.UsageError(f"--statistics prints a table or JSON; it does not apply to "
                               f"--output-format {fmt}")
    fixed = None
    stdin: TextIO = sys.stdin
    # `check --fix -`, as `ruff check --fix -`: the fixed document goes to standard output,
    # and the report of what is left to standard error (or to -o).  With other targets too,
    # standard input is linted but not fixed (a note says so), as before.
    fix_stdin = fix and not show_diff and targets == ("-",) and not live.targets
    if fix_stdin:
        fixed, stdin = _fix_stdin(select, extend_select, ignore, config_path, target_spec,
                                  stdin_filename)
    elif fix or show_diff:
        fixed = _fix(targets, select, extend_select, ignore, config_path, live, show_diff,
                     target_spec, files, clients)
        if show_diff:
            click.echo(fixed.summary, err=True)
            sys.exit(EXIT_OK if exit_zero and fixed.diff_exit_code == EXIT_FINDINGS
                     else fixed.diff_exit_code)
    report = lint(targets, select, extend_select, ignore, config_path, live, source,
                   target_spec, files, stdin_filename, clients, stdin)
    print_notes(report, verbose)
    if fail_on is None:
        try:
            config = parse_config(config_path) if config_path else discover(Path.cwd())
        except ConfigError as exc:
            fail(str(exc))
            return
        fail_on = (config.fail_on if config else None) or "error"
    if baseline or write_baseline:
        report = apply_baseline(report, baseline, write_baseline)
    # The exit code is decided on every finding; --min-severity only thins what is shown.
    code = exit_code([f.severity for f in report.findings], len(report.errors), fail_on)
    if exit_zero and code == EXIT_FINDINGS:
        code = EXIT_OK
    shown = report
    if min_severity is not None:
        floor = Severity.parse(min_severity)
        shown = replace(report, findings=tuple(f for f in report.findings
                                               if f.severity >= floor))
    final = EXIT_ERROR if fixed is not None and fixed.failed else code
    options = ReportOptions(color=False if output else color, quiet=quiet > 0,
                            statistics=statistics, show_fixes=show_fixes,
                            width=0 if output else None,
                            hidden=len(report.findings) - len(shown.findings),
                            every=verbose, **verdict(fail_on, exit_zero, final))
    if shown is not report:
        kept = set(map(id, shown.findings))
        options = replace(options, hidden_failing=sum(
            1 for f in report.findings if id(f) not in kept and options.fails(f.severity)))
    silent = quiet >= 2
    if not (silent and (output is None or str(output) == "-")):
        write_report(get_reporter(fmt), shown, output, options,
               sys.stderr if fix_stdin else sys.stdout)
    # Every other report of the same run: one lint, many formats (CI writes SARIF for code
    # scanning and annotations for the log at once).  Files are for machines: no colour,
    # no wrapping, never quiet.
    for extra_fmt, path in output_files:
        write_report(get_reporter(extra_fmt), shown, path,
               replace(options, color=False, width=0, quiet=False, statistics=False))
    if report.errors and not silent and (output or fmt not in TERMINAL_FORMATS):
        # Machine-readable output stays clean on stdout; people still see what failed.
        for error in report.errors:
            click.echo(f"error: {one_line(str(error))}", err=True)
    if fixed is not None and not quiet:
        click.echo(fixed.summary, err=True)
    sys.exit(final)


def _output_files(values: Sequence[str]) -> tuple[tuple[str, Path], ...]:
    """Parse the repeatable ``--output-file FORMAT=PATH``."""
    parsed = []
    for value in values:
        fmt, sep, path = value.partition("=")
        fmt = fmt.strip().lower()
        if not sep or not path:
            raise click.BadParameter(f"{value!r}: give FORMAT=PATH, e.g. sarif=mcplint.sarif",
                                     param_hint="--output-file")
        if fmt not in FORMATS:
            raise click.BadParameter(f"{value!r}: unknown format {fmt!r}; one of "
                                     f"{', '.join(FORMATS)}", param_hint="--output-file")
        if path == "-":
            raise click.BadParameter(f"{value!r}: standard output is for --output-format; "
                                     "give a file", param_hint="--output-file")
        parsed.append((fmt, Path(path)))
    return tuple(parsed)


def _fix(targets: tuple[str, ...], select: tuple[str, ...], extend_select: tuple[str, ...],
         ignore: tuple[str, ...], config_path: Path | None, live: LiveOptions,
         preview: bool, target_spec: str | None = None,
         files: FileOptions | None = None, clients: dict[str, Any] | None = None) -> FixOutcome:
    """Apply the safe fixes to the files among the targets, or print them as a diff."""
    from mcplint.config import ConfigError
    from mcplint.fixes.command import run_fixes

    selection = make_selection(select, extend_select, ignore, target_spec, clients)
    try:
        return run_fixes(targets, selection, config_path, bool(live.targets), preview=preview,
                         out=sys.stdout, err=sys.stderr, files_options=files)
    except ConfigError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits


def _fix_stdin(select: tuple[str, ...], extend_select: tuple[str, ...],
               ignore: tuple[str, ...], config_path: Path | None, target_spec: str | None,
               stdin_filename: str | None) -> tuple[FixOutcome, TextIO]:
    """Fix standard input and write the result to standard output (unchanged when nothing
    applies or it does not parse); the fixed text is what is then linted and reported."""
    import io

    from mcplint.config import ConfigError
    from mcplint.fixes.command import FixOutcome
    from mcplint.fixes.files import fix_stdin
    from mcplint.loaders.files import STDIN

    text = sys.stdin.read()
    try:
        result = fix_stdin(text, stdin_filename or STDIN, make_selection(select, extend_select,
                           ignore, target_spec), config_path, stdin_filename or ".")
    except ConfigError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits
    if result.error is not None:
        click.echo(f"error: {stdin_filename or STDIN}: {result.error}", err=True)
    sys.stdout.write(result.text)
    sys.stdout.flush()
    problems = len(result.applied)
    outcome = FixOutcome(problems, 1 if problems else 0, result.error is not None, False)
    return outcome, io.StringIO(result.text)
