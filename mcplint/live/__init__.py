"""Live targets: MCP servers started or reached over the network, read but never called."""
