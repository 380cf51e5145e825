"""The final phase as a bracket: the renderer's input from the rounds and their reports (TOUR-SF-1, TOUR-FIN-1).

Each table shows its players in seating order with their seed (rank in the standings); once a table is reported,
its winner is marked and every player's table points and place at the table are given (the image shows the final's
places instead of its seeds: issue 44).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from bot.present.images import image_words
from bot.services.reports import ReportView
from bot.services.rounds import RoundView
from bot.workers import default_workers
from renderer import render_bracket_pages
from renderer.models import BracketData, BracketPlayer, BracketTable


def bracket_table(view: RoundView, index: int, report: ReportView | None, seeds: Mapping[str, int]) -> BracketTable:
    """Table ``index`` of a semifinal or final round; ``report`` (if any) gives the winner and the table points."""
    table = view.tables[index]
    reported = report is not None and report.reported
    lines = {line.registration_id: line for line in report.seats} if report and reported else {}
    players = []
    for s in table.seats:
        line = lines.get(s.registration_id)
        players.append(BracketPlayer(name=s.name, club=s.club, seed=seeds.get(s.name),
                                     table_points=line.table_points if line else None,
                                     place=line.rank if line else None))  # fmt: skip
    winner = None
    if report is not None and reported and report.ranking:
        ids = [s.registration_id for s in table.seats]
        first = report.ranking[0].registration_id
        winner = ids.index(first) if first in ids else None
    return BracketTable(number=table.number, players=tuple(players), winner=winner)


def bracket_render_data(
    semis: RoundView,
    semi_reports: list[ReportView | None],
    final: RoundView,
    final_report: ReportView | None,
    seeds: Mapping[str, int],
    *,
    date: str,
) -> BracketData:
    """Semifinal tables with their winners → the final, with the finalists' table points once it is reported."""
    return BracketData(
        tournament=semis.tournament_name,
        date=date,
        semifinals=tuple(bracket_table(semis, i, r, seeds) for i, r in enumerate(semi_reports)),
        final=bracket_table(final, 0, final_report, seeds),
        direct_finalists=tuple(BracketPlayer(name=n, seed=seeds.get(n)) for n in semis.direct_finalists),
    )


async def bracket_pages(data: BracketData, locale: str) -> list[bytes]:
    """The bracket's pages (the phone rule of ``renderer.pages``) in ``locale``'s words, rendered off the event
    loop: the cogs post images through ``bot.present``, never the renderer directly."""
    return await default_workers().thread(partial(render_bracket_pages, data, words=image_words(locale)))


def bracket_file_names(final_number: int, pages: int) -> list[str]:
    """``bracket-N.png`` for a one-page bracket, ``bracket-N-1.png`` … for more."""
    if pages == 1:
        return [f"bracket-{final_number}.png"]
    return [f"bracket-{final_number}-{i}.png" for i in range(1, pages + 1)]
