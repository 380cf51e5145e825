"""The RisiKo! map of a final situation (BOT-IMG-1): who holds what, and under each player's name in the legend
what the engine scored for them — table points, the objective, the doubled strip and the continents that scored —
in the reader's language. Posted under a situation report and by ``/score``, through the same functions: the
renderer draws the lines it is given; the words are built here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial

from bot.i18n import format_number, t
from bot.present.images import image_words
from bot.rules.risiko.scoring import PlayerScore, ScoredSituation
from bot.services.reports import MapScore, ReportView
from bot.workers import default_workers
from renderer.adapters import risiko_map_data
from renderer.models import RiskMapData
from renderer.risiko_map import render_risiko_map_pages


def map_notes(score: MapScore, locale: str) -> tuple[str, ...]:
    """One player's lines under their name: table points, the objective (when the table had one), the strip and
    the continents (when they scored)."""
    notes = [t("map_note.table_points", locale, points=format_number(score.table_points, locale))]
    if score.objective is not None:
        notes.append(t("map_note.objective_achieved" if score.objective else "map_note.objective_missed", locale))
    if score.strip:
        notes.append(t("map_note.strip", locale, points=score.strip_points, territories=" – ".join(score.strip)))
    if score.continents:
        continents = ", ".join(f"{name} +{points}" for name, points in score.continents)
        notes.append(t("map_note.continents", locale, continents=continents))
    return tuple(notes)


def map_score(player: PlayerScore) -> MapScore:
    """What the engine scored for one player, as a report stores it (``bot.services.reports``)."""
    objective = None if player.objective_source is None else player.achieved_objective
    return MapScore(player.name, float(player.table_points), objective, player.strip, player.strip_points,
                    player.continents)  # fmt: skip


def situation_map_data(
    owners: Sequence[tuple[str, Mapping[str, int]]], scores: Sequence[MapScore], *, title: str, locale: str
) -> RiskMapData:
    """The renderer's input for a final situation: the players in table order with their notes, the strips."""
    strip = sorted({territory for s in scores for territory in s.strip})
    data = risiko_map_data(owners, title=title, doubled_strip=strip)
    by_name = {s.name: s for s in scores}
    players = tuple(
        replace(p, notes=map_notes(by_name[p.name], locale)) if p.name in by_name else p for p in data.players
    )
    return replace(data, players=players)


def report_map_data(view: ReportView, locale: str) -> RiskMapData:
    """The map of a situation report."""
    title = t("report.map_title", locale, tournament=view.tournament_name, round=view.round_number,
              table=view.table_number)  # fmt: skip
    owners = [(name, dict(held)) for name, held in view.map_owners]
    return situation_map_data(owners, view.map_scores, title=title, locale=locale)


def scored_map_data(scored: ScoredSituation, locale: str, title: str) -> RiskMapData:
    """The map of a situation scored by ``/score``: the same drawing and notes as a report's."""
    owners = [(p.name, p.territories) for p in scored.situation.players]
    return situation_map_data(owners, [map_score(p) for p in scored.table.players], title=title, locale=locale)


async def map_pages(data: RiskMapData, locale: str) -> list[bytes]:
    """The map's pages (one per pair of continents, renderer.pages' phone rule), rendered off the event loop."""
    return await default_workers().thread(partial(render_risiko_map_pages, data, words=image_words(locale)))


async def report_map_pages(view: ReportView, locale: str) -> list[bytes]:
    """The pages of a situation report's map."""
    return await map_pages(report_map_data(view, locale), locale)


async def scored_map_pages(scored: ScoredSituation, locale: str, title: str) -> list[bytes]:
    """The pages of the map ``/score`` posts."""
    return await map_pages(scored_map_data(scored, locale, title), locale)
