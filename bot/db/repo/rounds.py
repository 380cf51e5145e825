"""Queries of the rounds area (re-exported by bot.db.repo)."""

from __future__ import annotations
