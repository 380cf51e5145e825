"""A season's ranking as people see it: image pages drawn by the standings renderer with the season's words, the
text under the image, and the export's table (CSV now; the rows are the export, so another format is one writer).

The renderer draws the labels it is given (``renderer.render_standings``, paged by ``renderer.pages``' phone rule):
the season passes its own title, "after tournament" and tournaments column instead of the standings' words.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from bot.files.sheets import DataTable, csv_bytes, defuse_formula, file_stem
from bot.i18n import format_number, join_names, t
from bot.i18n.numbers import format_data_number
from bot.present.images import image_words
from bot.present.markup import safe
from bot.services.season_views import SchemeView
from bot.services.seasons import SeasonTieBreak, SeasonView
from bot.workers import default_workers
from renderer import render_standings
from renderer.models import StandingRow, StandingsData, Words

TEXT_ROWS = 20  # lines of the compact text under the image
TEXT_BUDGET = 3900  # characters of the embed description (Discord: 4096)


@dataclass(frozen=True, slots=True)
class SeasonImage:
    view: SeasonView
    pages: tuple[bytes, ...]  # PNG pages, at most ``max_pages``
    total_pages: int


def season_words(locale: str) -> Words:
    """The standings image's words with the season's: its title, "after tournament", the tournaments column."""
    words = image_words(locale)
    labels = dict(words.labels)
    labels |= {
        "standings": t("season.image.title", locale),
        "after_round": t("season.image.after", locale),
        "games": t("season.image.tournaments_short", locale),
    }
    return replace(words, labels=labels)


def season_legend(view: SeasonView, locale: str) -> str:
    """One line under the table: how the points are made, what orders players level on points."""
    how = t(f"season.image.points.{view.points_kind}", locale)
    if not view.tie_breakers:
        return f"{how} {t('season.image.legend_shared', locale)}"
    criteria = "; ".join(t(f"season.tiebreaker_short.{code}", locale) for code in view.tie_breakers)
    return f"{how} {t('season.image.legend', locale, criteria=criteria)}"


def season_render_data(view: SeasonView, *, date: str, locale: str = "it") -> StandingsData:
    """The renderer's input: the season's lines in rank order, the movement since the previous tournament, the
    tournaments played in the games column."""
    return StandingsData(
        tournament=view.name,
        round=len(view.tournaments),
        date=date,
        rows=tuple(
            StandingRow(
                rank=line.rank,
                name=line.name,
                points=line.points,
                games=line.tournaments,
                club=line.club,
                previous_rank=line.previous_rank,
            )
            for line in view.lines
        ),
        legend=season_legend(view, locale),
    )


async def season_image(
    view: SeasonView, *, date: str, locale: str = "it", max_pages: int = 4, max_bytes: int = 10 * 1024 * 1024
) -> SeasonImage:
    """The season's ranking as PNG pages off the event loop (the phone rule's pages); only the first pages that fit
    together in ``max_bytes`` (Discord's attachment limit) and ``max_pages``."""
    draw = partial(render_standings, season_render_data(view, date=date, locale=locale), words=season_words(locale))
    pages = await default_workers().thread(draw)
    kept: list[bytes] = []
    for page in pages[:max_pages]:
        if sum(map(len, kept)) + len(page) > max_bytes:
            break
        kept.append(page)
    return SeasonImage(view=view, pages=tuple(kept), total_pages=len(pages))


def explain(decision: SeasonTieBreak, locale: str) -> str:
    """A tie as a sentence: who, what decided it with each one's value, or that they share the place."""
    names = join_names(map(safe, decision.names), locale)
    if decision.tie_breaker is None or not decision.resolved:
        return t("standings.tie.shared", locale, names=names)
    values = ", ".join(
        f"{safe(n)} {format_number(v, locale) if isinstance(v, float | int) else '—'}" for n, v in decision.values
    )
    criterion = t(f"season.tiebreaker.{decision.tie_breaker}", locale)
    if decision.tournament is not None:
        criterion = t("season.tiebreaker.in", locale, criterion=criterion, tournament=safe(decision.tournament))
    return t("standings.tie.resolved", locale, names=names, criterion=criterion, values=values)


def season_text(view: SeasonView, locale: str) -> str:
    """The compact text under the image: the first lines with each tournament's points, the ties, the deductions."""
    if not view.lines:
        return t("season.empty", locale)
    lines = []
    for line in view.lines[:TEXT_ROWS]:
        parts = " · ".join("—" if p is None else format_number(p, locale) for p in line.by_tournament)
        if view.one_off_games:
            friendly = t("season.one_off_part", locale, points=format_number(line.one_off_points, locale))
            parts = f"{parts} · {friendly}" if parts else friendly
        lines.append(t("season.line", locale, rank=line.rank, name=safe(line.name),
                       points=format_number(line.points, locale), parts=parts))  # fmt: skip
    if len(view.lines) > TEXT_ROWS:
        lines.append(t("standings.more", locale, count=len(view.lines) - TEXT_ROWS))
    if view.explanations:
        lines += ["", t("standings.ties", locale)]
        lines += [f"• {explain(d, locale)}" for d in view.explanations]
    if view.penalties:
        lines += ["", t("season.penalties", locale)]
        lines += [
            "• "
            + t(
                "season.penalty_line",
                locale,
                name=safe(p.name),
                points=format_number(-p.points, locale),
                case=p.case_number,
                tournament=safe(p.tournament or "—"),
            )
            for p in view.penalties
        ]
    if view.scheme is not None:
        lines += ["", scheme_text(view.scheme, locale)]
    if view.unconfirmed_tables:
        lines += ["", t("standings.unconfirmed", locale, count=view.unconfirmed_tables)]
    text = "\n".join(lines)
    return text if len(text) <= TEXT_BUDGET else text[: TEXT_BUDGET - 1] + "…"


def _places_text(table: tuple[float, ...], locale: str) -> str:
    """Points by place as typed: runs of one value folded, ``2000, 1000×3, 500×12``."""
    runs: list[tuple[float, int]] = []
    for x in table:
        if runs and runs[-1][0] == x:
            runs[-1] = (x, runs[-1][1] + 1)
        else:
            runs.append((x, 1))
    return ", ".join(format_number(x, locale) + (f"×{n}" if n > 1 else "") for x, n in runs)


def scheme_text(scheme: SchemeView, locale: str) -> str:
    """The season's point scheme in words: points per game, each event type's points by place, the one-off games'
    type, each tournament's type."""
    lines = [t("season.scheme.title", locale, season=safe(scheme.season)),
             t("season.scheme.per_game", locale, points=format_number(scheme.per_game, locale))]  # fmt: skip
    for name, table in scheme.events:
        lines.append(t("season.scheme.event", locale, event_type=safe(name), places=_places_text(table, locale)))
    if scheme.one_off is not None:
        lines.append(t("season.scheme.one_off", locale, event_type=safe(scheme.one_off)))
    for name, event_type in scheme.tournaments:
        lines.append(t("season.scheme.tournament", locale, tournament=safe(name),
                       event_type=safe(event_type) if event_type else "—"))  # fmt: skip
    return "\n".join(lines)


SEASON_COLUMNS = ("rank", "name", "club")
TAIL_COLUMNS = ("deductions", "points", "tournaments", "games", "previous_rank")


def season_table(view: SeasonView, locale: str) -> DataTable:
    """The season's export: one line per player — rank, name, club, each tournament's points (empty: not played),
    the season's deductions, the total, tournaments and boards played, the rank before the latest tournament; a
    season with ranked one-off games adds their points after the tournaments."""
    friendly = bool(view.one_off_games)
    header = (
        *(t(f"season.sheet.{c}", locale) for c in SEASON_COLUMNS),
        *(defuse_formula(name) for name in view.tournaments),  # a tournament's name is typed: never a formula
        *((t("season.sheet.one_off", locale),) if friendly else ()),
        *(t(f"season.sheet.{c}", locale) for c in TAIL_COLUMNS),
    )
    rows = tuple(
        (
            line.rank,
            line.name,
            line.club,
            *line.by_tournament,
            *((line.one_off_points,) if friendly else ()),
            line.deductions,
            line.points,
            line.tournaments,
            line.games,
            line.previous_rank,
        )
        for line in view.lines
    )
    return DataTable(t("season.sheet", locale), header, rows)


def season_file_stem(view: SeasonView) -> str:
    return file_stem(view.name, "", fallback="stagione")


def season_csv(view: SeasonView, locale: str) -> bytes:
    """The season's table as CSV: ``;``, UTF-8 with BOM, decimal comma in Italian, formulas defused."""
    return csv_bytes(season_table(view, locale), number=lambda x: format_data_number(x, locale))
