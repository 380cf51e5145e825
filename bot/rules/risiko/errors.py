"""Errors of the RisiKo! engine: ``ValueError`` subclasses with a stable ``code`` that quote the bad value."""

from __future__ import annotations


class RisikoError(ValueError):
    """Input that the RisiKo! rules cannot accept. ``code`` is stable; ``value`` is the offending input."""

    def __init__(self, code: str, value: object) -> None:
        super().__init__(f"{code}: {value!r}")
        self.code = code
        self.value = value
