"""Pure Pillow renderer: data in, PNG bytes out. No discord, no database.

Public API (BOT-IMG-1); inputs are the frozen value types of :mod:`renderer.models` (each has ``from_json``) and
the :class:`~renderer.models.Words` to draw them with (labels, numbers, dates: the caller's language):

- ``render_standings(data, *, words, rows_per_page=None) -> list[bytes]`` — one PNG per page
- ``render_tables_pages(data, *, words, tables_per_page=None) -> list[bytes]`` (``render_tables``: one image)
- ``render_bracket_pages(data, *, words) -> list[bytes]`` (``render_bracket``: one image)
- ``render_rr_board(data, *, words) -> bytes``
- ``render_risiko_map_pages(data, *, words) -> list[bytes]`` (``render_risiko_map``: the world in one wide image)

Every image is laid out for a phone (``renderer.pages``): its smallest text is at least 11 px once the image is
shown 340 px wide, and the ``…_pages`` functions split what would be taller than 3× its width into pages, by one
rule (the bot, the demo and ``steward`` call the same functions).

Fonts (DejaVu, Bitstream Vera licence) are package data in ``renderer/fonts``; nothing is read from the host.
Rendering is CPU work: async callers use ``asyncio.to_thread``.
"""

from renderer.bracket import render_bracket, render_bracket_pages
from renderer.models import (
    BracketData,
    RenderInputError,
    RiskMapData,
    RRBoardData,
    StandingsData,
    TablesData,
    Words,
)
from renderer.risiko_map import render_risiko_map, render_risiko_map_pages
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
    "render_bracket_pages",
    "render_risiko_map",
    "render_risiko_map_pages",
    "render_rr_board",
    "render_standings",
    "render_tables",
    "render_tables_pages",
]
