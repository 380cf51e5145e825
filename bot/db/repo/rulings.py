"""Queries of the rulings feature (filled as the services' statements move here)."""

from __future__ import annotations

__all__: list[str] = []
