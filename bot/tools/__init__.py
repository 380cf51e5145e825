"""Offline command-line tools over the engines (``steward rr``, ``steward risiko``, ``steward draw`` ...)."""
