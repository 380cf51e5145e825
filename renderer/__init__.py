"""Pure Pillow renderer: data in, PNG bytes out. No discord, no database.

Public API (BOT-IMG-1); inputs are the frozen value types of :mod:`renderer.models` (each has ``from_json``):

- ``render_standings(data, *, locale="it", rows_per_page=30) -> list[bytes]`` — one PNG per page
- ``render_tables(data, *, locale="it") -> bytes`` (``render_tables_pages(..., tables_per_page=16) -> list[bytes]``)
- ``render_bracket(data, *, locale="it") -> bytes``
- ``render_rr_board(data, *, locale="it") -> bytes``
- ``render_risiko_map(data, *, locale="it") -> bytes``

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
    "render_bracket",
    "render_risiko_map",
    "render_rr_board",
    "render_standings",
    "render_tables",
    "render_tables_pages",
]
