"""The standings as people see them: image pages (the renderer) and a table for CSV or XLSX, from the service's data.

Services return a ``StandingsView`` (data only); the cogs and the demo turn it into pictures and files here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from bot.files.sheets import Cell, DataTable, csv_bytes
from bot.i18n import t
from bot.i18n.numbers import format_data_number
from bot.present.images import image_words
from bot.services.classification import ClassificationLine, ClassificationView
from bot.services.standings import StandingLine, StandingsView
from bot.workers import default_workers
from renderer import render_standings
from renderer.models import RoundResult, StandingRow, StandingsData


@dataclass(frozen=True, slots=True)
class StandingsImage:
    view: StandingsView
    pages: tuple[bytes, ...]  # PNG pages, at most ``max_pages``
    total_pages: int


def standings_render_data(view: StandingsView, *, date: str, locale: str = "it") -> StandingsData:
    """The renderer's input for a standings view: the rows in the preset's order, the movement since the previous
    round, the table-points column only when the preset breaks ties with it, and a legend saying how ties break.
    With discards (issue 47) each row also carries its rounds, the discarded ones drawn struck through, and the
    legend says so."""
    show_table_points = view.breaks_ties_on_table_points
    legend = tie_break_legend(view, locale)
    if view.with_discards:
        legend += " " + t("standings.image.discards", locale, count=view.discards)
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
                rounds=_round_results(line) if view.with_discards else (),
            )
            for line in view.lines
        ),
        has_teams=bool(view.teams),
        tiebreak_label=t("standings.image.table_points_short", locale),
        legend=legend,
    )


def _round_results(line: StandingLine) -> tuple[RoundResult, ...]:
    return tuple(RoundResult(number, points, counted) for number, points, counted in line.rounds)


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
    """The standings as a spreadsheet table in ``locale``: the CSV and the XLSX exports both write these rows.
    With discards (a club championship, issue 47) each row goes on with one column per round held (its points,
    empty for an absence) and the rounds discarded ("2, 5"); without, the table is what it always was."""
    rounds = view_rounds(view) if view.with_discards else ()
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
            *(_discard_cells(line, rounds) if view.with_discards else ()),
        )
        for line in view.lines
    )
    header = tuple(t(f"standings.csv.{col}", locale) for col in STANDINGS_COLUMNS)
    if view.with_discards:
        header += (*(t("standings.csv.round", locale, round=r) for r in rounds), t("standings.csv.discarded", locale))
    return DataTable(t("standings.sheet", locale), header, rows)


def view_rounds(view: StandingsView) -> tuple[int, ...]:
    """The rounds the lines list (with discards), in order: one column each in the image and the files."""
    return tuple(sorted({number for line in view.lines for number, _, _ in line.rounds}))


def _discard_cells(line: StandingLine, rounds: tuple[int, ...]) -> tuple[Cell, ...]:
    """A line's points in each of ``rounds`` (None: absent, or a round not on the line) and its discarded rounds."""
    points = {number: value for number, value, _ in line.rounds}
    cells = tuple(None if (value := points.get(r)) is None else float(value) for r in rounds)
    return (*cells, ", ".join(str(r) for r in line.discarded))


def standings_csv(view: StandingsView, locale: str) -> bytes:
    """Standings as CSV: ``;`` separator, UTF-8 with BOM (Excel), decimal comma in Italian; text cells that a
    spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``) are quoted as the roster export does."""
    return csv_bytes(standings_table(view, locale), number=partial(format_data_number, locale=locale))


# ------------------------------------------------------------------------------------ the final classification


def stage_note(line: ClassificationLine, locale: str) -> str | None:
    """Where a player's final place was decided, in a few words ("Final: 2nd place", "Semifinal 3: 1st place");
    None for a format without a final phase (the standings are the classification)."""
    if line.table_place is None and line.stage == "qualifying":
        return t("classification.stage.qualifying", locale, rank=line.qualifying_rank or "—")
    if line.table_place is None:
        return None
    if line.stage == "final":
        return t("classification.stage.final", locale, place=line.table_place)
    if line.stage == "semifinal":
        return t("classification.stage.semifinal", locale, table=line.table or "—", place=line.table_place)
    return t("classification.stage.knockout", locale, round=line.round or "—", table=line.table or "—",
             place=line.table_place)  # fmt: skip


def classification_render_data(view: ClassificationView, *, date: str, locale: str = "it") -> StandingsData:
    """The renderer's input for a final classification: the places (medals for the first three), where each was
    decided under the name, the qualifying points beside it."""
    notes = view.format != "standings"
    return StandingsData(
        tournament=view.tournament_name,
        round=view.standings.rounds if view.standings is not None else 0,
        date=date,
        rows=tuple(
            StandingRow(
                rank=line.place or 0,
                name=line.name,
                points=line.points,
                games=_games(view, line.player_id),
                club=line.club,
                team=line.team,
                note=stage_note(line, locale) if notes else None,
            )
            for line in view.lines
            if line.place is not None
        ),
        has_teams=bool(view.standings and view.standings.teams),
        legend=t(f"classification.image.legend.{view.format}", locale),
        title=t("classification.image.title", locale),
        points_label=t("classification.image.points", locale) if view.format == "finals" else None,
    )


def _games(view: ClassificationView, player_id: int) -> int:
    line = view.standings.line_of(player_id) if view.standings is not None else None
    return line.games if line is not None else 0


async def classification_image(
    view: ClassificationView, *, date: str, locale: str = "it", max_pages: int = 4, max_bytes: int = 10 * 1024 * 1024
) -> tuple[bytes, ...]:
    """The final classification as PNG pages off the event loop (the first ``max_pages`` within ``max_bytes``)."""
    data = classification_render_data(view, date=date, locale=locale)
    pages = await default_workers().thread(partial(render_standings, data, words=image_words(locale)))
    kept: list[bytes] = []
    for page in pages[:max_pages]:
        if sum(map(len, kept)) + len(page) > max_bytes:
            break
        kept.append(page)
    return tuple(kept)


CLASSIFICATION_COLUMNS = ("place", "name", "club", "team", "stage", "qualifying_rank", "points")


def classification_table(view: ClassificationView, locale: str) -> DataTable:
    """The final classification as a spreadsheet table (CSV and XLSX): place (empty while open), where it was
    decided, the qualifying rank and points."""
    rows = tuple(
        (
            line.place,
            line.name,
            line.club,
            line.team,
            stage_note(line, locale),
            line.qualifying_rank,
            float(line.points),
        )
        for line in view.lines
    )
    header = tuple(t(f"classification.csv.{col}", locale) for col in CLASSIFICATION_COLUMNS)
    return DataTable(t("classification.sheet", locale), header, rows)


def classification_csv(view: ClassificationView, locale: str) -> bytes:
    """The final classification as CSV, written as the standings' CSV is (``;``, BOM, decimal comma in Italian)."""
    return csv_bytes(classification_table(view, locale), number=partial(format_data_number, locale=locale))
