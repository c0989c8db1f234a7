#!/usr/bin/env python3
"""Write seeded, realistic large manifests for the benchmark, made from the real corpus.

    python3 bench/generate.py                      # 25, 500, 2,000 and 10,000 tools, in a temp dir
    python3 bench/generate.py OUT --sizes 500,2000 --seed 7

A gateway manifest is many servers' tools under server prefixes, so each output is built as a run
of virtual servers: a real manifest is sampled, its tools are renamed with a server-like prefix and
mutated (descriptions reworded, sentences dropped or added, parameters renamed, dropped or added),
and near-duplicates and overlapping tools are planted at rates seen in the corpus. The same seed
and corpus always give byte-identical files. Nothing is ever written into the repository.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"
DEFAULT_SIZES = (25, 500, 2000, 10000)
DEFAULT_SEED = 20260

# Rates per generated tool; near-duplicates and overlaps are what the pairwise rules search for,
# so they are planted often enough to give those rules real candidate pairs to score.
NEAR_DUPLICATE_RATE = 0.03
OVERLAP_RATE = 0.03
EXACT_DUPLICATE_RATE = 0.002

PREFIXES = (
    "acme", "gh", "gl", "jira", "notion", "slack", "s3", "pg", "mongo", "k8s", "stripe", "hub",
    "crm", "docs", "wiki", "mail", "cal", "drive", "sentry", "grafana", "vault", "redis", "es",
    "linear", "asana", "figma", "shop", "zendesk", "twilio", "okta", "dbx", "bq", "snow",
)
SEPARATORS = ("_", "__", "-", ".")
VERB_SWAPS = {
    "get": "fetch", "fetch": "get", "list": "search", "search": "find", "find": "search",
    "create": "add", "add": "create", "delete": "remove", "remove": "delete",
    "update": "edit", "edit": "update", "read": "get", "query": "search",
}
WORD_SWAPS = {
    "Retrieve": "Get", "Get": "Fetch", "Returns": "Gives back", "Search": "Find", "List": "Show",
    "Create": "Make", "Delete": "Remove", "Update": "Modify", "specific": "given",
    "information": "details", "the": "the", "a": "one",
}
EXTRA_SENTENCES = (
    "Use this when the user names the item explicitly.",
    "Results are paged; pass the cursor from the previous call.",
    "Returns an empty list when nothing matches.",
    "Fails when the caller lacks permission.",
    "Do not use this for bulk exports.",
    "Requires an authenticated session.",
)
EXTRA_PARAMETERS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("limit", {"type": "integer", "description": "Maximum number of results, 1 to 100."}),
    ("cursor", {"type": "string", "description": "Opaque cursor from the previous page."}),
    ("workspace", {"type": "string"}),
    ("format", {"type": "string", "description": "Output format: json or markdown."}),
    ("since", {"type": "string", "description": "Only items changed after this time."}),
)
SENTENCE = re.compile(r"(?<=[.!?])\s+")


def load_corpus(corpus: Path) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every corpus manifest with at least one tool, as (stem, tools), in file-name order."""
    servers: list[tuple[str, list[dict[str, Any]]]] = []
    for path in sorted(corpus.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue
        tools = data.get("tools") if isinstance(data, dict) else data
        if isinstance(tools, list):
            tools = [t for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]
            if tools:
                servers.append((path.stem, tools))
    return servers


def camel(name: str) -> str:
    head, *rest = re.split(r"[_\-.]+", name)
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def vary_description(text: str, rng: random.Random) -> str:
    sentences = [s for s in SENTENCE.split(text.strip()) if s]
    if len(sentences) > 2 and rng.random() < 0.3:
        del sentences[rng.randrange(1, len(sentences))]
    if sentences and rng.random() < 0.4:
        words = sentences[0].split(" ")
        sentences[0] = " ".join(WORD_SWAPS.get(w, w) for w in words)
    if rng.random() < 0.35:
        sentences.append(rng.choice(EXTRA_SENTENCES))
    return " ".join(sentences)


def vary_schema(schema: Any, rng: random.Random) -> Any:
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return schema
    properties: dict[str, Any] = schema["properties"]
    listed = schema.get("required")
    required: list[Any] = listed if isinstance(listed, list) else []
    optional = [name for name in properties if name not in required]
    if optional and rng.random() < 0.2:
        del properties[rng.choice(optional)]
    if properties and rng.random() < 0.15:
        # A different case style for one parameter, as another team on the gateway would write.
        old = rng.choice(list(properties))
        new = camel(old) if "_" in old else snake(old)
        if new not in properties:
            properties[new] = properties.pop(old)
            if old in required:
                schema["required"] = [new if r == old else r for r in required]
    if rng.random() < 0.25:
        name, extra = rng.choice(EXTRA_PARAMETERS)
        properties.setdefault(name, copy.deepcopy(extra))
    return schema


def mutate(tool: dict[str, Any], name: str, rng: random.Random) -> dict[str, Any]:
    new = copy.deepcopy(tool)
    new["name"] = name
    if isinstance(new.get("description"), str) and rng.random() < 0.7:
        new["description"] = vary_description(new["description"], rng)
    if "inputSchema" in new and rng.random() < 0.6:
        new["inputSchema"] = vary_schema(new["inputSchema"], rng)
    return new


def near_duplicate_name(name: str, rng: random.Random) -> str:
    """A name an agent would swap with ``name``: another verb, a plural, or another case style."""
    parts = re.split(r"([_\-.]+)", name)
    choice = rng.random()
    if choice < 0.4:
        for i, part in enumerate(parts):
            if part.lower() in VERB_SWAPS:
                parts[i] = VERB_SWAPS[part.lower()]
                return "".join(parts)
    if choice < 0.7:
        return name[:-1] if name.endswith("s") else name + "s"
    return camel(name) if camel(name) != name else name + "_v2"


def build(servers: list[tuple[str, list[dict[str, Any]]]], size: int,
          rng: random.Random) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    names: set[str] = set()
    serial = 0
    while len(tools) < size:
        stem, source = servers[rng.randrange(len(servers))]
        serial += 1
        prefix = f"{rng.choice(PREFIXES)}{serial}" if size > 50 else rng.choice(PREFIXES)
        separator = rng.choice(SEPARATORS)
        take = min(len(source), size - len(tools), rng.randint(5, 40))
        for tool in rng.sample(source, take):
            name = f"{prefix}{separator}{tool['name']}"
            if name in names and len(tools) < size:
                continue
            names.add(name)
            tools.append(mutate(tool, name, rng))
            if len(tools) < size and rng.random() < NEAR_DUPLICATE_RATE:
                twin = near_duplicate_name(name, rng)
                if twin not in names:
                    names.add(twin)
                    tools.append(mutate(tool, twin, rng))
            if len(tools) < size and rng.random() < OVERLAP_RATE:
                # Another name, the same job: what DESC004 looks for.
                other = f"{prefix}{separator}{stem.replace('-', '_')}_{tool['name']}"
                if other not in names:
                    names.add(other)
                    tools.append(mutate(tool, other, rng))
            if len(tools) < size and rng.random() < EXACT_DUPLICATE_RATE:
                tools.append(mutate(tool, name, rng))
    return tools[:size]


def generate(out: Path, sizes: tuple[int, ...] = DEFAULT_SIZES, seed: int = DEFAULT_SEED,
             corpus: Path = CORPUS) -> list[Path]:
    """Write ``tools-<size>.json`` for each size into ``out``; returns the paths in size order."""
    servers = load_corpus(corpus)
    if not servers:
        raise SystemExit(f"no tool manifests found in {corpus}")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for size in sizes:
        # One stream per size, so adding a size never changes the files of the others.
        rng = random.Random(f"{seed}:{size}")
        manifest = {"tools": build(servers, size, rng)}
        path = out / f"tools-{size}.json"
        path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                        encoding="utf-8")
        written.append(path)
    return written


def parse_sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part.replace("_", "")) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of sizes: {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError("sizes must be positive")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", nargs="?", type=Path, help="output directory (default: a temp dir)")
    parser.add_argument("--sizes", type=parse_sizes, default=DEFAULT_SIZES,
                        help="comma-separated tool counts (default 25,500,2000,10000)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    out: Path = args.out or Path(tempfile.mkdtemp(prefix="mcplint-bench-"))
    if out.resolve().is_relative_to(ROOT):
        parser.error(f"{out} is inside the repository; write the manifests elsewhere")
    if not args.corpus.is_dir():
        parser.error(f"corpus not found: {args.corpus}")
    for path in generate(out, args.sizes, args.seed, args.corpus):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
