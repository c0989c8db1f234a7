"""``mcplint hitrate``: does a search over the tool surface lead each request to the right tool?

Exit codes: 0 when the gated retriever's top-1 hit rate is at or above --fail-under (or no
--fail-under is given), 1 when it is below, 2 for bad input (the manifest or the intents file).
Static only: a manifest, a snapshot or a server set is read from disk; no server is started.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mcplint.hitrate import DEFAULT_RETRIEVER, DEFAULT_TOP_K, FORMATS, RETRIEVERS

if TYPE_CHECKING:
    from mcplint.model import Manifest

EXIT_OK, EXIT_BELOW, EXIT_ERROR = 0, 1, 2


def _fail(message: str) -> None:
    from mcplint.reporters.visible import reveal

    click.echo(f"mcplint: {reveal(message)}", err=True)
    sys.exit(EXIT_ERROR)


@click.command()
@click.argument("target")
@click.option("--intents", "intents_path", metavar="FILE",
              help="Requests and the tool each should reach (JSON or TOML, see "
              "docs/hitrate.md). Without it, a self-check: each tool's first sentence and "
              "name words are the requests.")
@click.option("--retriever", type=click.Choice(tuple(RETRIEVERS)), default=DEFAULT_RETRIEVER,
              show_default=True, help="The retriever --fail-under gates on and the report "
              "details; every retriever is measured.")
@click.option("-k", "--top-k", type=click.IntRange(min=1), default=DEFAULT_TOP_K,
              show_default=True, help="How many tools a search returns (top-k hit rate, "
              "unreachable tools).")
@click.option("--fail-under", type=click.FloatRange(0, 1), default=None, metavar="RATE",
              help="Exit 1 when the retriever's top-1 hit rate is below RATE (0 to 1, e.g. "
              "0.9).")
@click.option("--output-format", "--format", "fmt", type=click.Choice(FORMATS),
              default="text", show_default=True, help="Output format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report to this file instead of standard output.")
def hitrate(target: str, intents_path: str | None, retriever: str, top_k: int,
            fail_under: float | None, fmt: str, output: Path | None) -> None:
    """Measure how often a search over TARGET's tools ranks the right tool first.

    TARGET is a tool manifest, a snapshot or a server set (mcplint dump -o SET.json), or -
    for standard input. Retrievers: BM25, regex (as clients' regex tool search) and TF-IDF
    cosine, offline and deterministic: stand-ins for a client's tool search, not a model.
    """
    from mcplint.hitrate.evaluate import evaluate, intent_queries, self_queries
    from mcplint.hitrate.intents import IntentsError, read_intents, resolve
    from mcplint.hitrate.report import RENDERERS, HitRateReport
    from mcplint.similarity import SimilarityIndex

    manifest = _load(target)
    index = SimilarityIndex.from_manifest(manifest)
    if intents_path is not None:
        try:
            intents, places = read_intents(intents_path)
            resolved = resolve(intents, places,
                               [(e.name, e.server) for e in index.entries])
        except IntentsError as exc:
            _fail(str(exc))
            return
        queries = intent_queries(resolved)
    else:
        queries = self_queries(index)
        if not queries:
            _fail(f"{target}: no tool has a name or description to ask with")
    results = [evaluate(index, queries, name, top_k, covered=intents_path is not None)
               for name in RETRIEVERS]
    report = HitRateReport(manifest.file, intents_path, index, results, retriever, top_k,
                           fail_under)
    render = RENDERERS[fmt]
    if output is None or str(output) == "-":
        render(report, sys.stdout)
    else:
        try:
            with open(output, "w", encoding="utf-8") as handle:
                render(report, handle)
        except OSError as exc:
            _fail(f"{output}: cannot write the report: {exc.strerror}")
    sys.exit(EXIT_BELOW if report.passed is False else EXIT_OK)


def _load(target: str) -> Manifest:
    """The manifest of a file (or standard input); any load error exits 2 with its place."""
    from mcplint.loaders.configshape import looks_like_config
    from mcplint.loaders.files import Source, load

    loaded = load(Source(target))
    if loaded.manifest is None and loaded.document is not None and looks_like_config(
            loaded.document.data):
        _fail(f"{target}: a client config: hitrate reads tool definitions and starts no "
              f"server; write the servers' snapshots first (mcplint dump {target} -o "
              "servers.json) and measure that file")
    for error in loaded.errors:
        where = (f"{error.file}:{error.position.line}:{error.position.column}"
                 if error.position.line else error.file)
        click.echo(f"error: {where}: {error.message}", err=True)
    manifest = loaded.manifest
    if loaded.errors or manifest is None:
        sys.exit(EXIT_ERROR)
    if not manifest.tools:
        _fail(f"{target}: no tools to search")
    return manifest
