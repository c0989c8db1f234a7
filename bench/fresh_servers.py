"""Re-create snapshots of published MCP servers that are not in the shared corpus.

The rules were tuned on shared/corpus/real; these servers were never looked at while tuning,
so linting them shows how the rules do on servers they were not fitted to.  Each server is
installed at a pinned version into a scratch folder (npm prefix or venv, one per server),
started with dummy credentials, and read with ``mcplint dump``, which only initializes and
lists: no tool is ever called.  A ``source`` block like the corpus's is added to each snapshot.
Gathering these found that mcplint sent ``"params": null``, which the TypeScript SDK's servers
reject; fixtures/servers/strict_server.py now keeps that from coming back.  Batch 1 was
audited (the fourth audit) and then read while fixing what it found, so it is seen now; batch 2
was gathered afterwards and first read by the fifth audit.

    python bench/fresh_servers.py SCRATCH OUT [--batch 1|2] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import venv
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Server:
    name: str
    registry: str  # "npm" or "pypi"
    package: str
    version: str
    argv: tuple[str, ...]  # argv[0] is the installed executable; "{home}" is a scratch dir
    env: dict[str, str] = field(default_factory=dict)
    batch: int = 1  # 1: the fourth precision audit's servers; 2: the fifth's


# The AWS servers start without calling AWS when given a region and dummy keys.
_AWS = {"AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIADUMMY",
        "AWS_SECRET_ACCESS_KEY": "dummy", "AWS_EC2_METADATA_DISABLED": "true",
        "FASTMCP_LOG_LEVEL": "ERROR"}


SERVERS: tuple[Server, ...] = (
    Server("aws-dynamodb", "pypi", "awslabs.dynamodb-mcp-server", "2.1.8",
           ("awslabs.dynamodb-mcp-server",),
           {"AWS_REGION": "us-east-1", "FASTMCP_LOG_LEVEL": "ERROR"}),
    Server("aws-iam", "pypi", "awslabs.iam-mcp-server", "1.1.2", ("awslabs.iam-mcp-server",),
           {"AWS_REGION": "us-east-1", "FASTMCP_LOG_LEVEL": "ERROR"}),
    Server("aws-cloudtrail", "pypi", "awslabs.cloudtrail-mcp-server", "0.1.1",
           ("awslabs.cloudtrail-mcp-server",),
           {"AWS_REGION": "us-east-1", "FASTMCP_LOG_LEVEL": "ERROR"}),
    Server("obsidian", "pypi", "mcp-obsidian", "0.2.3", ("mcp-obsidian",),
           {"OBSIDIAN_API_KEY": "dummy"}),
    Server("excel", "pypi", "excel-mcp-server", "2.2.2", ("excel-mcp-server", "stdio"),
           {"EXCEL_FILES_PATH": "{home}"}),
    Server("arxiv", "pypi", "arxiv-mcp-server", "0.8.2",
           ("arxiv-mcp-server", "--storage-path", "{home}/arxiv")),
    Server("wikipedia", "pypi", "wikipedia-mcp", "2.0.1", ("wikipedia-mcp",)),
    Server("tavily", "npm", "tavily-mcp", "0.2.22", ("tavily-mcp",),
           {"TAVILY_API_KEY": "dummy"}),
    Server("firecrawl", "npm", "firecrawl-mcp", "3.26.0", ("firecrawl-mcp",),
           {"FIRECRAWL_API_KEY": "fc-dummy"}),
    Server("mongodb", "npm", "mongodb-mcp-server", "3.0.4", ("mongodb-mcp-server",),
           {"MDB_MCP_TELEMETRY": "disabled"}),
    Server("airtable", "npm", "airtable-mcp-server", "1.14.0", ("airtable-mcp-server",),
           {"AIRTABLE_API_KEY": "patdummy"}),
    Server("todoist", "npm", "todoist-mcp", "1.3.4", ("todoist-mcp",),
           {"API_KEY": "dummy", "TODOIST_API_TOKEN": "dummy"}),
    Server("desktop-commander", "npm", "@wonderwhy-er/desktop-commander", "0.2.52",
           ("desktop-commander",)),
    Server("sentry", "npm", "@sentry/mcp-server", "0.39.0",
           ("sentry-mcp", "--access-token=dummy"), {"SENTRY_ACCESS_TOKEN": "dummy"}),
    Server("mapbox", "npm", "@mapbox/mcp-server", "0.14.0", ("mcp-server",),
           {"MAPBOX_ACCESS_TOKEN": "pk.dummy"}),
    Server("pubmed", "npm", "@cyanheads/pubmed-mcp-server", "2.7.4", ("pubmed-mcp-server",)),
    Server("pinecone", "npm", "@pinecone-database/mcp", "0.3.0", ("pinecone-mcp",),
           {"PINECONE_API_KEY": "dummy"}),
    Server("jira-cloud", "npm", "@aaronsb/jira-cloud-mcp", "0.11.3", ("jira-cloud-mcp",),
           {"JIRA_API_TOKEN": "dummy", "JIRA_EMAIL": "a@example.com",
            "JIRA_HOST": "https://example.atlassian.net"}),
    # Advertises resources but answers resources/templates/list with Method not found.
    Server("linear", "npm", "@tacticlaunch/mcp-linear", "1.4.3", ("mcp-linear",),
           {"LINEAR_API_TOKEN": "lin_dummy"}),
    Server("taskmanager", "npm", "@kazuph/mcp-taskmanager", "1.1.1", ("mcp-taskmanager",),
           {"TASK_MANAGER_FILE_PATH": "{home}/tasks.json"}),
    # Batch 2 (2026-12-08), gathered after the fourth audit's fixes, for the fifth audit.
    Server("aws-billing", "pypi", "awslabs.billing-cost-management-mcp-server", "0.0.42",
           ("awslabs.billing-cost-management-mcp-server",), _AWS, batch=2),
    Server("aws-documentdb", "pypi", "awslabs.documentdb-mcp-server", "2.0.1",
           ("awslabs.documentdb-mcp-server",), _AWS, batch=2),
    Server("aws-healthomics", "pypi", "awslabs.aws-healthomics-mcp-server", "0.1.5",
           ("awslabs.aws-healthomics-mcp-server",), _AWS, batch=2),
    Server("aws-s3-tables", "pypi", "awslabs.s3-tables-mcp-server", "0.1.1",
           ("awslabs.s3-tables-mcp-server", "--allow-write"), _AWS, batch=2),
    Server("aws-serverless", "pypi", "awslabs.aws-serverless-mcp-server", "0.2.0",
           ("awslabs.aws-serverless-mcp-server", "--allow-write"), _AWS, batch=2),
    Server("aws-valkey", "pypi", "awslabs.valkey-mcp-server", "1.1.1",
           ("awslabs.valkey-mcp-server",), _AWS, batch=2),
    Server("servicenow", "pypi", "mfa-servicenow-mcp", "1.25.4", ("servicenow-mcp",),
           {"SERVICENOW_INSTANCE_URL": "https://dummy.service-now.com",
            "SERVICENOW_USERNAME": "dummy", "SERVICENOW_PASSWORD": "dummy"}, batch=2),
    Server("word", "pypi", "office-word-mcp-server", "1.1.11", ("word_mcp_server",), batch=2),
    Server("google-workspace", "pypi", "workspace-mcp", "2.2.1",
           ("workspace-mcp", "--transport", "stdio", "--tool-tier", "core"),
           {"GOOGLE_OAUTH_CLIENT_ID": "dummy.apps.googleusercontent.com",
            "GOOGLE_OAUTH_CLIENT_SECRET": "dummy"}, batch=2),
    Server("circleci", "npm", "@circleci/mcp-server-circleci", "0.20.0",
           ("mcp-server-circleci",),
           {"CIRCLECI_TOKEN": "dummy", "CIRCLECI_BASE_URL": "https://circleci.com"}, batch=2),
    Server("launchdarkly", "npm", "@launchdarkly/mcp-server", "0.6.2",
           ("mcp", "start", "--api-key", "api-dummy"), batch=2),
    Server("asana", "npm", "@roychri/mcp-server-asana", "1.8.0", ("mcp-server-asana",),
           {"ASANA_ACCESS_TOKEN": "dummy"}, batch=2),
    Server("ms-365", "npm", "@softeria/ms-365-mcp-server", "0.155.0",
           ("ms-365-mcp-server", "--preset", "mail,calendar"), batch=2),
    Server("bitbucket", "npm", "@nexus2520/bitbucket-mcp-server", "3.0.0",
           ("bitbucket-mcp-server",),
           {"BITBUCKET_USERNAME": "dummy", "BITBUCKET_APP_PASSWORD": "dummy"}, batch=2),
    Server("postman", "npm", "@postman/postman-mcp-server", "2.13.0", ("postman-mcp-server",),
           {"POSTMAN_API_KEY": "PMAK-dummy"}, batch=2),
    Server("line-bot", "npm", "@line/line-bot-mcp-server", "0.5.0", ("line-bot-mcp-server",),
           {"CHANNEL_ACCESS_TOKEN": "dummy", "DESTINATION_USER_ID": "Udummy"}, batch=2),
    Server("argocd", "npm", "argocd-mcp", "0.9.0", ("argocd-mcp", "stdio"),
           {"ARGOCD_BASE_URL": "https://127.0.0.1:8443", "ARGOCD_API_TOKEN": "dummy"}, batch=2),
    Server("netlify", "npm", "@netlify/mcp", "1.15.1", ("netlify-mcp",),
           {"NETLIFY_PERSONAL_ACCESS_TOKEN": "dummy"}, batch=2),
    Server("gcp-observability", "npm", "@google-cloud/observability-mcp", "0.2.3",
           ("observability-mcp",), batch=2),
    Server("shopify", "npm", "shopify-mcp", "1.0.8",
           ("shopify-mcp", "--accessToken", "shpat_dummy", "--domain", "dummy.myshopify.com"),
           batch=2),
)


def install(server: Server, scratch: Path) -> Path:
    """Install the pinned package; return the folder its executables are in."""
    if server.registry == "npm":
        prefix = scratch / "npm" / server.name
        subprocess.run(["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                        "--ignore-scripts", f"{server.package}@{server.version}"],
                       check=True, stdout=subprocess.DEVNULL)
        return prefix / "node_modules" / ".bin"
    if server.registry == "pypi":
        env_dir = scratch / "py" / server.name
        if not (env_dir / "bin" / "python").exists():
            venv.create(env_dir, with_pip=True)
        subprocess.run([str(env_dir / "bin" / "pip"), "install", "-q",
                        f"{server.package}=={server.version}"], check=True)
        return env_dir / "bin"
    raise ValueError(f"{server.name}: unknown registry {server.registry!r}")


def dump(server: Server, scratch: Path, out_dir: Path) -> bool:
    """Start the server, write its snapshot to out_dir/<name>.json; True when it worked."""
    home = scratch / "home" / server.name
    home.mkdir(parents=True, exist_ok=True)
    bin_dir = install(server, scratch)
    argv = [str(bin_dir / server.argv[0])]
    argv += [arg.replace("{home}", str(home)) for arg in server.argv[1:]]
    out = out_dir / f"{server.name}.json"
    command = ["mcplint", "dump", "--timeout", "60", "--stdio", shlex.join(argv), "-o", str(out)]
    for key, value in server.env.items():
        command += ["--env", f"{key}={value.replace('{home}', str(home))}"]
    if subprocess.run(command, cwd=home).returncode != 0:
        return False
    snapshot = json.loads(out.read_text(encoding="utf-8"))
    source = {"registry": server.registry, "package": server.package,
              "version": server.version, "command": list(server.argv)}
    out.write_text(json.dumps({"source": source, **snapshot}, indent=2, ensure_ascii=False)
                   + "\n", encoding="utf-8")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scratch", type=Path, help="folder to install the servers into")
    parser.add_argument("out", type=Path, help="folder for <name>.json snapshots")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="just these servers")
    parser.add_argument("--batch", type=int, choices=(1, 2),
                        help="just one batch (default: both)")
    args = parser.parse_args()
    chosen = [s for s in SERVERS if (not args.only or s.name in args.only)
              and (args.batch is None or s.batch == args.batch)]
    args.out.mkdir(parents=True, exist_ok=True)
    failed = []
    for server in chosen:
        print(f"== {server.name} ({server.package}@{server.version})", flush=True)
        try:
            ok = dump(server, args.scratch.resolve(), args.out.resolve())
        except subprocess.CalledProcessError as exc:
            print(f"install failed: {exc}", file=sys.stderr)
            ok = False
        if not ok:
            failed.append(server.name)
    print(f"{len(chosen) - len(failed)} written, failed: {', '.join(failed) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
