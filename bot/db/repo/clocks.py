"""Queries of the clocks feature (filled as the services' statements move here)."""

from __future__ import annotations

__all__: list[str] = []
