"""A round's table cards as people see them: the renderer's input from the service's ``RoundView``.

The bot (``/round draw``, publication) and ``steward demo`` both draw table cards through this one adapter, so a
semifinal is titled "Semifinale" everywhere and the seed and optimality badge come from the same fields.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial

from bot.present.images import image_words
from bot.present.markup import ROME
from bot.services.rounds import RoundView
from bot.workers import default_workers
from renderer.models import ROUND_KINDS, SeatCard, TableCard, TablesData
from renderer.tables import render_tables_pages

MAX_PAGES = 10  # a message's attachments


def tables_render_data(view: RoundView, *, date: str) -> TablesData:
    """The renderer's input for a round's tables (tables without seats are left out)."""
    cards = tuple(
        TableCard(number=t.number, seats=tuple(SeatCard(name=s.name, club=s.group) for s in t.seats))
        for t in view.tables
        if t.seats
    )
    return TablesData(
        tournament=view.tournament_name,
        round=view.number,
        date=date,
        tables=cards,
        seed=view.seed,
        optimal=view.report.provably_optimal if view.report else None,
        optimal_for_cinquisti=bool(view.report and view.report.proof == "cinquisti"),
        kind=_kind(view),
    )


def _kind(view: RoundView) -> str:
    """The card's title: a knockout's last round is the final (NP-FMT-1), whatever its number."""
    if view.knockout is not None and view.knockout.final:
        return "final"
    return view.kind if view.kind in ROUND_KINDS else "qualifying"


def round_date(view: RoundView, now: datetime) -> str:
    """The date a round's cards carry: its start, else its publication, else today (the clubs' wall clock)."""
    when = view.scheduled_start or view.published_at or now
    return when.astimezone(ROME).date().isoformat()


async def table_pages(view: RoundView, locale: str, *, now: datetime) -> list[bytes]:
    """The round's table cards as PNG pages (at most a message's worth), rendered off the event loop."""
    if not any(t.seats for t in view.tables):
        return []
    data = tables_render_data(view, date=round_date(view, now))
    pages = await default_workers().thread(partial(render_tables_pages, data, words=image_words(locale)))
    return list(pages[:MAX_PAGES])
