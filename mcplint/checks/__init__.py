"""Check functions: the code behind the rules in ``rules/*.toml``."""
