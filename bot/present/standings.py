"""The standings as people see them: image pages (the renderer) and a table for CSV or XLSX, from the service's data.

Services return a ``StandingsView`` (data only); the cogs and the demo turn it into pictures and files here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from bot.i18n import t
from bot.i18n.numbers import format_data_number
from bot.present.images import image_words
from bot.services.sheets import DataTable, csv_bytes
from bot.services.standings import StandingsView
from bot.workers import default_workers
from renderer import render_standings
from renderer.models import StandingRow, StandingsData


@dataclass(frozen=True, slots=True)
class StandingsImage:
    view: StandingsView
    pages: tuple[bytes, ...]  # PNG pages, at most ``max_pages``
    total_pages: int


def standings_render_data(view: StandingsView, *, date: str, locale: str = "it") -> StandingsData:
    """The renderer's input for a standings view: the rows in the preset's order, the movement since the previous
    round, the table-points column only when the preset breaks ties with it, and a legend saying how ties break."""
    show_table_points = view.breaks_ties_on_table_points
    return StandingsData(
        tournament=view.tournament_name,
        round=view.rounds,
        date=date,
        rows=tuple(
            StandingRow(
                rank=line.rank,
                name=line.name,
                points=line.points,
                games=line.games,
                club=line.club,
                team=line.team,
                tiebreak=line.table_points if show_table_points else None,
                previous_rank=line.previous_rank,
            )
            for line in view.lines
        ),
        has_teams=bool(view.teams),
        tiebreak_label=t("standings.image.table_points_short", locale),
        legend=tie_break_legend(view, locale),
    )


def tie_break_legend(view: StandingsView, locale: str) -> str:
    """One line: what orders players level on points, in the preset's order (or that they share the place)."""
    if not view.tie_breakers:
        return t("standings.image.legend_shared", locale)
    criteria = [t(f"standings.tiebreaker.{code}", locale) for code in view.tie_breakers]
    return t("standings.image.legend", locale, criteria="; ".join(criteria))


async def standings_image(
    view: StandingsView,
    *,
    date: str,
    locale: str = "it",
    rows_per_page: int | None = None,
    max_pages: int = 4,
    max_bytes: int = 10 * 1024 * 1024,
) -> StandingsImage:
    """The standings rendered as PNG pages off the event loop (paged by the phone rule, ``renderer.pages``, unless
    ``rows_per_page`` is given); only the first pages that fit together in ``max_bytes`` (Discord's attachment
    limit) and ``max_pages``."""
    data = standings_render_data(view, date=date, locale=locale)
    draw = partial(render_standings, data, words=image_words(locale), rows_per_page=rows_per_page)
    pages = await default_workers().thread(draw)
    kept: list[bytes] = []
    used = 0
    for page in pages[:max_pages]:
        if used + len(page) > max_bytes:
            break
        kept.append(page)
        used += len(page)
    return StandingsImage(view=view, pages=tuple(kept), total_pages=len(pages))


STANDINGS_COLUMNS = ("rank", "name", "club", "team", "points", "games", "table_points", "deductions", "standing")


def standings_table(view: StandingsView, locale: str) -> DataTable:
    """The standings as a spreadsheet table in ``locale``: the CSV and the XLSX exports both write these rows."""
    rows = tuple(
        (
            line.rank,
            line.name,
            line.club,
            line.team,
            float(line.points),
            line.games,
            float(line.table_points),
            float(line.deductions),
            t(f"standings.standing.{line.standing}", locale),
        )
        for line in view.lines
    )
    header = tuple(t(f"standings.csv.{col}", locale) for col in STANDINGS_COLUMNS)
    return DataTable(t("standings.sheet", locale), header, rows)


def standings_csv(view: StandingsView, locale: str) -> bytes:
    """Standings as CSV: ``;`` separator, UTF-8 with BOM (Excel), decimal comma in Italian; text cells that a
    spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``) are quoted as the roster export does."""
    return csv_bytes(standings_table(view, locale), number=partial(format_data_number, locale=locale))
