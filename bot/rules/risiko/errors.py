"""Errors of the RisiKo! engine: ``ValueError`` subclasses with a stable ``code`` that quote the bad value."""

from __future__ import annotations

from bot.rules.errors import RuleError


class RisikoError(RuleError):
    """Input that the RisiKo! rules cannot accept. ``code`` is stable; ``value`` is the offending input."""
