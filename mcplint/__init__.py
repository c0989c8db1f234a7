"""mcplint: a linter for MCP tool definitions."""

__version__ = "0.1.0"
