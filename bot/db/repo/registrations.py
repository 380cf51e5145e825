"""Queries of the registrations area (re-exported by bot.db.repo)."""

from __future__ import annotations
