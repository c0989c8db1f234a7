"""The command line's entry point: the group, and where each command lives.

A command's module is imported only when that command runs (or when help lists them all), so
`mcplint --version` loads click and nothing of the engine, the model or the reporters.
Exit codes are in `mcplint.commands.common`.
"""

from __future__ import annotations

import gc
from importlib import import_module

import click

from mcplint import __version__

# A lint allocates millions of objects and makes almost no reference cycles (reference counting
# frees the rest), so the collector's default pace, a pass every 700 allocations and full passes
# over the whole parsed manifest, is pure cost: 2.3 s of collection at 10,000 tools, 0.7 s with
# these thresholds, peak memory within 1 MB (bench/README.md). mypy tunes its collector likewise.
GC_THRESHOLDS = (100_000, 50, 100)

# name -> "module:attribute"; --help lists them in this order's sorted form, as click does.
COMMANDS = {
    "check": "mcplint.commands.check:check",
    "diff": "mcplint.commands.diff:diff",
    "dump": "mcplint.live.commands:dump",
    "explain": "mcplint.commands.rules:explain",
    "hitrate": "mcplint.hitrate.cli:hitrate",
    "report": "mcplint.commands.report:report",
    "rules": "mcplint.commands.rules:rules",
}


class _LazyGroup(click.Group):
    """A group whose commands are imported by name when first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, _, attribute = COMMANDS[cmd_name].partition(":")
            self.add_command(getattr(import_module(module), attribute), cmd_name)
        return self.commands.get(cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mcplint")
def main() -> None:
    """Lint MCP tool definitions for the problems that make agents fail."""
    gc.set_threshold(*GC_THRESHOLDS)
