"""The command line: parse options, run, render, and decide the exit code.

Exit codes: 0 when nothing is at or above --fail-on (or with --exit-zero), 1 when something is,
2 for usage, config or input errors (a file that could not be read, parsed or recognised).
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from mcplint import __version__
from mcplint.findings import FAIL_ON, Severity
from mcplint.hitrate.cli import hitrate
from mcplint.live.commands import dump
from mcplint.live.options import live_options
from mcplint.profiles import PROFILE_NAMES
from mcplint.reporters import FORMATS, TERMINAL_FORMATS
from mcplint.revisions import REVISIONS

if TYPE_CHECKING:
    from mcplint.engine.linter import Linter, Selection
    from mcplint.fixes.command import FixOutcome
    from mcplint.live.settings import LiveOptions
    from mcplint.loaders.selection import FileOptions
    from mcplint.reporters import Reporter, ReportOptions
    from mcplint.run import Report

# Commands import the engine when they run, so `mcplint --version` and `--help` stay instant.

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _split(values: Sequence[str]) -> tuple[str, ...]:
    """Accept both ``--select A --select B`` and ``--select A,B``."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def _shown(text: str) -> str:
    """A line that may quote a manifest, with its control, bidi and newline characters as
    escapes, so it stays one line and shows what is there."""
    from mcplint.reporters.visible import reveal_line

    return reveal_line(text)


def _fail(message: str) -> None:
    click.echo(f"mcplint: {message}", err=True)
    sys.exit(EXIT_ERROR)


def exit_code(findings_severities: Sequence[Severity], input_errors: int, fail_on: str) -> int:
    if input_errors:
        return EXIT_ERROR
    if fail_on == "never":
        return EXIT_OK
    threshold = Severity.parse(fail_on)
    return EXIT_FINDINGS if any(s >= threshold for s in findings_severities) else EXIT_OK


_SOURCE_OPTION = click.option(
    "--source", type=click.Path(exists=True, file_okay=False, path_type=Path), metavar="DIR",
    help="Find each tool's definition in the server's code under DIR and report findings "
    "there too [default for live servers: the git work tree the command runs in].")
_TARGET_SPEC_OPTION = click.option(
    "--target-spec", type=click.Choice(REVISIONS), default=None,
    help="MCP revision to check against [default: the config's, else a snapshot's "
    "protocolVersion, else the newest].")
_CLIENT_OPTIONS = (
    click.option("--client", "clients", multiple=True, metavar="NAME",
                 help="Also check what breaks in this client or provider: "
                 + ", ".join(PROFILE_NAMES) + " (repeatable or comma-separated) [default: the "
                 "config's clients; a client config is checked for its own client].",
                 shell_complete=lambda ctx, param, incomplete: [
                     n for n in PROFILE_NAMES if n.startswith(incomplete)]),
    click.option("--server-name", metavar="NAME",
                 help="The server's name in the client's config, which clients put in tool "
                 "names (mcp__NAME__tool) [default: the config's server-name, else the "
                 "snapshot's serverInfo.name].", type=click.STRING),
    click.option("--plugin", metavar="NAME",
                 help="The plugin the server comes with (Claude Code: "
                 "mcp__plugin_NAME_server__tool) [default: the config's plugin]."),
)


def _client_options(fn: Callable[..., None]) -> Callable[..., None]:
    """Add --client, --server-name and --plugin to a command, received as ``clients``: the
    keyword arguments of Selection they set."""

    @functools.wraps(fn)
    def wrapper(*args: Any, clients: tuple[str, ...], server_name: str | None,
                plugin: str | None, **kwargs: Any) -> None:
        chosen = _split(clients)
        unknown = [name for name in chosen if name not in PROFILE_NAMES]
        if unknown:
            raise click.BadParameter(f"{unknown[0]!r} is no client mcplint knows; choose from "
                                     + ", ".join(PROFILE_NAMES), param_hint="'--client'")
        kwargs["clients"] = {"clients": tuple(dict.fromkeys(chosen)),
                             "server_name": server_name, "plugin": plugin}
        fn(*args, **kwargs)

    for option in reversed(_CLIENT_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


_VERBOSE_OPTION = click.option(
    "-v", "--verbose", is_flag=True,
    help="Also print notes to stderr (tools whose source was not found or was ambiguous), "
         "and in the concise output every finding of a rule that fires on many tools.")


_FILE_OPTIONS = (
    click.option("--respect-gitignore/--no-respect-gitignore", default=None,
                 help="Leave out the files git ignores when expanding directories [default: "
                 "on, or the config's respect-gitignore]."),
    click.option("--force-exclude/--no-force-exclude", default=None,
                 help="Apply exclude and extend-exclude to files named on the command line "
                 "too, as pre-commit names them [default: off, or the config's force-exclude]."),
    click.option("--skip-non-manifests", is_flag=True,
                 help="Skip, with a note, a JSON file named on the command line that holds no "
                 "tool manifest, instead of failing on it (the pre-commit hook sets this)."),
)


def _file_options(fn: Callable[..., None]) -> Callable[..., None]:
    """Add the file-selection options to a command, which receives them as ``files``."""

    @functools.wraps(fn)
    def wrapper(*args: Any, respect_gitignore: bool | None, force_exclude: bool | None,
                skip_non_manifests: bool, **kwargs: Any) -> None:
        from mcplint.loaders.selection import FileOptions

        kwargs["files"] = FileOptions(respect_gitignore, force_exclude, skip_non_manifests)
        fn(*args, **kwargs)

    for option in reversed(_FILE_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


def _notes(report: Report, verbose: bool) -> None:
    for message in report.messages:
        click.echo(f"mcplint: note: {_shown(message)}", err=True)
    if verbose:
        for note in report.notes:
            click.echo(f"mcplint: note: {_shown(note)}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mcplint")
def main() -> None:
    """Lint MCP tool definitions for the problems that make agents fail."""


main.add_command(dump)
main.add_command(hitrate)


_MIN_SEVERITY = ("info", "warning", "error")


@main.command()
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
@click.option("--select", multiple=True, help="Rules to run (code, prefix, name, group or ALL); "
              "replaces the configured selection. Repeat or separate with commas.")
@click.option("--extend-select", multiple=True, help="Rules to run in addition.")
@click.option("--ignore", multiple=True, help="Rules not to run.")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False,
              path_type=Path), help="Use this config file instead of discovering one.")
@_file_options
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
@_SOURCE_OPTION
@_TARGET_SPEC_OPTION
@_client_options
@_VERBOSE_OPTION
@live_options
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
    report = _lint(targets, select, extend_select, ignore, config_path, live, source,
                   target_spec, files, stdin_filename, clients, stdin)
    _notes(report, verbose)
    if fail_on is None:
        try:
            config = parse_config(config_path) if config_path else discover(Path.cwd())
        except ConfigError as exc:
            _fail(str(exc))
            return
        fail_on = (config.fail_on if config else None) or "error"
    if baseline or write_baseline:
        report = _baseline(report, baseline, write_baseline)
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
                            every=verbose, **_verdict(fail_on, exit_zero, final))
    if shown is not report:
        kept = set(map(id, shown.findings))
        options = replace(options, hidden_failing=sum(
            1 for f in report.findings if id(f) not in kept and options.fails(f.severity)))
    silent = quiet >= 2
    if not (silent and (output is None or str(output) == "-")):
        _write(get_reporter(fmt), shown, output, options,
               sys.stderr if fix_stdin else sys.stdout)
    # Every other report of the same run: one lint, many formats (CI writes SARIF for code
    # scanning and annotations for the log at once).  Files are for machines: no colour,
    # no wrapping, never quiet.
    for extra_fmt, path in output_files:
        _write(get_reporter(extra_fmt), shown, path,
               replace(options, color=False, width=0, quiet=False, statistics=False))
    if report.errors and not silent and (output or fmt not in TERMINAL_FORMATS):
        # Machine-readable output stays clean on stdout; people still see what failed.
        for error in report.errors:
            click.echo(f"error: {_shown(str(error))}", err=True)
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


def _verdict(fail_on: str, exit_zero: bool, exit_code: int) -> dict[str, Any]:
    """What the reporters need to agree with the exit code: the severity that fails the run
    (none with --fail-on never or --exit-zero), as the user said it, and the code itself."""
    if fail_on == "never" or exit_zero:
        return {"fail_on": None, "fail_on_label": "never" if fail_on == "never"
                else "--exit-zero", "exit_code": exit_code}
    return {"fail_on": Severity.parse(fail_on), "fail_on_label": fail_on,
            "exit_code": exit_code}


def _selection(select: tuple[str, ...], extend_select: tuple[str, ...],
               ignore: tuple[str, ...], target_spec: str | None = None,
               clients: dict[str, Any] | None = None) -> Selection:
    from mcplint.engine.linter import Selection

    return Selection(select=_split(select) if select else None,
                     extend_select=_split(extend_select), ignore=_split(ignore),
                     target_spec=target_spec, **(clients or {}))


def _fix(targets: tuple[str, ...], select: tuple[str, ...], extend_select: tuple[str, ...],
         ignore: tuple[str, ...], config_path: Path | None, live: LiveOptions,
         preview: bool, target_spec: str | None = None,
         files: FileOptions | None = None, clients: dict[str, Any] | None = None) -> FixOutcome:
    """Apply the safe fixes to the files among the targets, or print them as a diff."""
    from mcplint.config import ConfigError
    from mcplint.fixes.command import run_fixes

    selection = _selection(select, extend_select, ignore, target_spec, clients)
    try:
        return run_fixes(targets, selection, config_path, bool(live.targets), preview=preview,
                         out=sys.stdout, err=sys.stderr, files_options=files)
    except ConfigError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


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
        result = fix_stdin(text, stdin_filename or STDIN, _selection(select, extend_select,
                           ignore, target_spec), config_path, stdin_filename or ".")
    except ConfigError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits
    if result.error is not None:
        click.echo(f"error: {stdin_filename or STDIN}: {result.error}", err=True)
    sys.stdout.write(result.text)
    sys.stdout.flush()
    problems = len(result.applied)
    outcome = FixOutcome(problems, 1 if problems else 0, result.error is not None, False)
    return outcome, io.StringIO(result.text)


def _lint(targets: tuple[str, ...], select: tuple[str, ...], extend_select: tuple[str, ...],
          ignore: tuple[str, ...], config_path: Path | None, live: LiveOptions,
          source: Path | None = None, target_spec: str | None = None,
          files: FileOptions | None = None, stdin_filename: str | None = None,
          clients: dict[str, Any] | None = None, stdin: TextIO | None = None) -> Report:
    """Run the lint that check and report share; a bad config exits 2 with its message."""
    from mcplint.config import ConfigError
    from mcplint.run import run
    from mcplint.sources import SourceRoots

    selection = _selection(select, extend_select, ignore, target_spec, clients)
    try:
        return run(list(targets), selection, config_path, stdin=stdin or sys.stdin, live=live,
                   source_roots=SourceRoots.from_option(source, Path.cwd()), files_options=files,
                   stdin_filename=stdin_filename)
    except ConfigError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


def _write(reporter: Reporter, report: Report, output: Path | None,
           options: ReportOptions, stream: TextIO | None = None) -> None:
    """Render to a file, or to ``stream`` (standard output) when there is none (or it is
    ``-``)."""
    if output is None or str(output) == "-":
        reporter(report, stream or sys.stdout, options)
        return
    try:
        with open(output, "w", encoding="utf-8") as handle:
            reporter(report, handle, options)
    except OSError as exc:
        _fail(f"{output}: cannot write the report: {exc.strerror}")


def _baseline(report: Report, use: Path | None, write_to: Path | None) -> Report:
    from mcplint.baseline import BaselineError, adopt

    try:
        report, notes = adopt(report, use, write_to)
    except BaselineError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits
    for note in notes:
        click.echo(f"mcplint: {_shown(note)}", err=True)
    return report


def _linter() -> Linter:
    from mcplint.config import ConfigError, discover
    from mcplint.engine.linter import Linter

    try:
        return Linter(discover(Path.cwd()))
    except ConfigError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


@main.command()
@click.option("--output-format", "--format", "fmt", type=click.Choice(["text", "json"]),
              default="text", show_default=True, help="Output format.")
def rules(fmt: str) -> None:
    """List every rule: code, name, default severity, groups and what it flags."""
    linter = _linter()
    ordered = sorted(linter.rules.values(), key=lambda r: (r.pack, r.code))
    if fmt == "json":
        data: list[dict[str, Any]] = [
            {"code": r.code, "name": r.name, "severity": r.severity.label,
             "groups": list(r.groups), "target": r.target.value, "summary": r.summary,
             "default": r.default, "pack": r.pack}
            for r in ordered
        ]
        click.echo(json.dumps(data, indent=2))
        return
    # Plain aligned columns: one rule a line, greppable, never wrapped mid-word.
    name_width = max(len(r.name) for r in ordered) + 2
    groups_width = max(len(", ".join(r.groups)) for r in ordered) + 2
    click.echo(f"{'code':<9}{'name':<{name_width}}{'severity':<9}{'groups':<{groups_width}}summary")
    for rule in ordered:
        summary = rule.summary if rule.default else f"(off by default) {rule.summary}"
        click.echo(f"{rule.code:<9}{rule.name:<{name_width}}{rule.severity.label:<9}"
                   f"{', '.join(rule.groups):<{groups_width}}{summary}")
    click.echo(f"\n{len(ordered)} rules. `mcplint explain CODE` shows what a rule flags and why.")


@main.command()
@click.argument("rule")
def explain(rule: str) -> None:
    """Show a rule's documentation: what it flags, why, examples and options.

    RULE is a rule's code or name, or a change code of `mcplint diff` (BREAK001, RISK001,
    DRIFT001, ...).
    """
    from mcplint.diff import KINDS
    from mcplint.explain import render_change, render_rule

    linter = _linter()
    found = linter.rule(rule) or linter.rule(rule.upper())
    if found is None:
        change = KINDS.get(rule.lower()) or next(
            (k for k in KINDS.values() if k.code == rule.upper()), None)
        if change is not None:
            click.echo(render_change(change))
            return
        from rapidfuzz import process

        keys = [*linter.rules, *(r.name for r in linter.rules.values()),
                *(k.code for k in KINDS.values())]
        guess = process.extractOne(rule, keys, score_cutoff=60)
        hint = f'; did you mean "{guess[0]}"?' if guess else "; see `mcplint rules`"
        _fail(f'no rule "{rule}"{hint}')
        return
    click.echo(render_rule(found))


@main.command()
@click.argument("targets", nargs=-1)
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              default=Path("mcplint-report.html"), show_default=True,
              help="Write the HTML report to this file; - for standard output.")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default="never", show_default=True,
              help="Lowest severity that makes the exit code 1; a report is for reading, "
              "so by default only input errors fail.")
@click.option("--select", multiple=True, help="Rules to run (code, prefix, name, group or ALL); "
              "replaces the configured selection. Repeat or separate with commas.")
@click.option("--extend-select", multiple=True, help="Rules to run in addition.")
@click.option("--ignore", multiple=True, help="Rules not to run.")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False,
              path_type=Path), help="Use this config file instead of discovering one.")
@click.option("--baseline", type=click.Path(dir_okay=False, path_type=Path),
              help="Report only findings not recorded in this baseline file (as check does).")
@_SOURCE_OPTION
@_TARGET_SPEC_OPTION
@_client_options
@_VERBOSE_OPTION
@live_options
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

    result = _lint(targets, select, extend_select, ignore, config_path, live, source,
                   target_spec, clients=clients)
    _notes(result, verbose)
    if baseline:
        result = _baseline(result, baseline, None)
    code = exit_code([f.severity for f in result.findings], len(result.errors), fail_on)
    _write(get_reporter("html"), result, output,
           ReportOptions(color=False, **_verdict(fail_on, False, code)))
    if str(output) != "-":
        tools = sum(f.tools for f in result.linted)
        click.echo(f"Wrote {output}: {len(result.findings)} findings in {tools} tools.", err=True)
    for error in result.errors:
        click.echo(f"error: {_shown(str(error))}", err=True)
    sys.exit(code)


@main.command()
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
        click.echo(f"error: {_shown(str(error))}", err=True)
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
            _fail(f"{output}: cannot write the report: {exc.strerror}")
    else:
        snapshot_diff.render(changes, before, after, fmt, sys.stdout, fail_on, code)
    sys.exit(code)
