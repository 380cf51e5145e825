"""Queries of the reports area (re-exported by bot.db.repo)."""

from __future__ import annotations
