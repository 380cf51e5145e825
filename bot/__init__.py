"""Tournament Steward: the Discord bot, its rules engine and the `steward` command line."""

__version__ = "0.1.0"  # keep equal to pyproject.toml [project] version (tests/test_cli.py checks)
