"""What the commands share: exit codes, option groups, and running a lint from options.

Exit codes: 0 when nothing is at or above --fail-on (or with --exit-zero), 1 when something is,
2 for usage, config or input errors (a file that could not be read, parsed or recognised).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from mcplint.findings import Severity
from mcplint.live.options import live_options
from mcplint.profiles import PROFILE_NAMES
from mcplint.revisions import REVISIONS

if TYPE_CHECKING:
    from mcplint.engine.linter import Linter, Selection
    from mcplint.live.settings import LiveOptions
    from mcplint.loaders.selection import FileOptions
    from mcplint.reporters import Reporter, ReportOptions
    from mcplint.run import Report

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def split_values(values: Sequence[str]) -> tuple[str, ...]:
    """Accept both ``--select A --select B`` and ``--select A,B``."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def one_line(text: str) -> str:
    """A line that may quote a manifest, with its control, bidi and newline characters as
    escapes, so it stays one line and shows what is there."""
    from mcplint.reporters.visible import reveal_line

    return reveal_line(text)


def fail(message: str) -> None:
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


def client_options(fn: Callable[..., None]) -> Callable[..., None]:
    """Add --client, --server-name and --plugin to a command, received as ``clients``: the
    keyword arguments of Selection they set."""

    @functools.wraps(fn)
    def wrapper(*args: Any, clients: tuple[str, ...], server_name: str | None,
                plugin: str | None, **kwargs: Any) -> None:
        chosen = split_values(clients)
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


_SELECTION_OPTIONS = (
    click.option("--select", multiple=True, help="Rules to run (code, prefix, name, group or "
                 "ALL); replaces the configured selection. Repeat or separate with commas."),
    click.option("--extend-select", multiple=True, help="Rules to run in addition."),
    click.option("--ignore", multiple=True, help="Rules not to run."),
    click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False,
                 path_type=Path), help="Use this config file instead of discovering one."),
)


def selection_options(fn: Callable[..., None]) -> Callable[..., None]:
    """Add --select, --extend-select, --ignore and --config, in that order, to a command."""
    for option in reversed(_SELECTION_OPTIONS):
        fn = option(fn)
    return fn


def lint_options(fn: Callable[..., None]) -> Callable[..., None]:
    """Add what a command that lints takes besides its own options: --source, --target-spec,
    the client options, --verbose and the live-server options, in that order."""
    for option in (live_options, _VERBOSE_OPTION, client_options, _TARGET_SPEC_OPTION,
                   _SOURCE_OPTION):
        fn = option(fn)
    return fn


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


def file_options(fn: Callable[..., None]) -> Callable[..., None]:
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


def print_notes(report: Report, verbose: bool) -> None:
    for message in report.messages:
        click.echo(f"mcplint: note: {one_line(message)}", err=True)
    if verbose:
        for note in report.notes:
            click.echo(f"mcplint: note: {one_line(note)}", err=True)


def verdict(fail_on: str, exit_zero: bool, exit_code: int) -> dict[str, Any]:
    """What the reporters need to agree with the exit code: the severity that fails the run
    (none with --fail-on never or --exit-zero), as the user said it, and the code itself."""
    if fail_on == "never" or exit_zero:
        return {"fail_on": None, "fail_on_label": "never" if fail_on == "never"
                else "--exit-zero", "exit_code": exit_code}
    return {"fail_on": Severity.parse(fail_on), "fail_on_label": fail_on,
            "exit_code": exit_code}


def make_selection(select: tuple[str, ...], extend_select: tuple[str, ...],
               ignore: tuple[str, ...], target_spec: str | None = None,
               clients: dict[str, Any] | None = None) -> Selection:
    from mcplint.engine.linter import Selection

    return Selection(select=split_values(select) if select else None,
                     extend_select=split_values(extend_select), ignore=split_values(ignore),
                     target_spec=target_spec, **(clients or {}))


def lint(targets: tuple[str, ...], select: tuple[str, ...], extend_select: tuple[str, ...],
          ignore: tuple[str, ...], config_path: Path | None, live: LiveOptions,
          source: Path | None = None, target_spec: str | None = None,
          files: FileOptions | None = None, stdin_filename: str | None = None,
          clients: dict[str, Any] | None = None, stdin: TextIO | None = None) -> Report:
    """Run the lint that check and report share; a bad config exits 2 with its message."""
    from mcplint.config import ConfigError
    from mcplint.run import run
    from mcplint.sources import SourceRoots

    selection = make_selection(select, extend_select, ignore, target_spec, clients)
    try:
        return run(list(targets), selection, config_path, stdin=stdin or sys.stdin, live=live,
                   source_roots=SourceRoots.from_option(source, Path.cwd()), files_options=files,
                   stdin_filename=stdin_filename)
    except ConfigError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits


def write_report(reporter: Reporter, report: Report, output: Path | None,
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
        fail(f"{output}: cannot write the report: {exc.strerror}")


def apply_baseline(report: Report, use: Path | None, write_to: Path | None) -> Report:
    from mcplint.baseline import BaselineError, adopt

    try:
        report, notes = adopt(report, use, write_to)
    except BaselineError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits
    for note in notes:
        click.echo(f"mcplint: {one_line(note)}", err=True)
    return report


def load_linter() -> Linter:
    from mcplint.config import ConfigError, discover
    from mcplint.engine.linter import Linter

    try:
        return Linter(discover(Path.cwd()))
    except ConfigError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits
