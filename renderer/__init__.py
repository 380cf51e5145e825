"""Pure Pillow renderer: data in, PNG bytes out. No discord, no database.

Public API (BOT-IMG-1); inputs are the frozen value types of :mod:`renderer.models` (each has ``from_json``) and
the :class:`~renderer.models.Words` to draw them with (labels, numbers, dates: the caller's language):

- ``render_standings(data, *, words, rows_per_page=30) -> list[bytes]`` — one PNG per page
- ``render_tables(data, *, words) -> bytes`` (``render_tables_pages(..., tables_per_page=16) -> list[bytes]``)
- ``render_bracket(data, *, words) -> bytes``
- ``render_rr_board(data, *, words) -> bytes``
- ``render_risiko_map(data, *, words) -> bytes``

Fonts (DejaVu, Bitstream Vera licence) are package data in ``renderer/fonts``; nothing is read from the host.
Rendering is CPU work: async callers use ``asyncio.to_thread``.
"""

from renderer.bracket import render_bracket
from renderer.models import (
    BracketData,
    RenderInputError,
    RiskMapData,
    RRBoardData,
    StandingsData,
    TablesData,
    Words,
)
from renderer.risiko_map import render_risiko_map
from renderer.rr_board import render_rr_board
from renderer.standings import render_standings
from renderer.tables import render_tables, render_tables_pages

__all__ = [
    "BracketData",
    "RRBoardData",
    "RenderInputError",
    "RiskMapData",
    "StandingsData",
    "TablesData",
    "Words",
    "render_bracket",
    "render_risiko_map",
    "render_rr_board",
    "render_standings",
    "render_tables",
    "render_tables_pages",
]
