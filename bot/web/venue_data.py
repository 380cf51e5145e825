"""The venue page's JSON, written from the service's typed view (``VenuePage``): the page's script reads these keys.

The service decides what the page shows (``bot.services.venue``); this module only spells it as JSON-able data: dates
as ISO 8601, enums as their codes, no Discord id (``guild_id`` stays in :class:`VenueSnapshot` for the cache's
bookkeeping and is never sent).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.services.classification import ClassificationView
from bot.services.rounds.views import RoundView
from bot.services.seasons import SeasonView
from bot.services.standings import StandingsView
from bot.services.venue import ClockView, ReportStateView, VenuePage, VenueRound, VenueTable


@dataclass(frozen=True, slots=True)
class VenueSnapshot:
    """One tournament's page data at one change counter: the view's JSON (``data``) and what the cache keys on."""

    token: str
    guild_id: int
    tournament_id: int
    version: int
    locale: str
    data: dict[str, Any]


def snapshot_of(page: VenuePage) -> VenueSnapshot:
    data: dict[str, Any] = {
        "tournament": {"name": page.name, "game": page.game, "status": str(page.status)},
        "round": _round(page.round) if page.round is not None else None,
        "standings": _standings(page.standings),
        "classification": _classification(page.classification) if page.classification is not None else None,
        "bracket": {"rounds": [_round(r) for r in page.bracket]} if page.bracket else None,
        "season": _season(page.season, page.name) if page.season is not None else None,
    }
    return VenueSnapshot(page.token, page.guild_id, page.tournament_id, page.version, page.locale, data)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _round(venue_round: VenueRound) -> dict[str, Any]:
    return _round_head(venue_round.view) | {"tables": [_table(table) for table in venue_round.tables]}


def _round_head(view: RoundView) -> dict[str, Any]:
    return {
        "number": view.number,
        "kind": view.kind,
        "status": view.status,
        "scheduled_start": _iso(view.scheduled_start),
        "direct_finalists": list(view.direct_finalists),
    }


def _table(venue_table: VenueTable) -> dict[str, Any]:
    table = venue_table.table
    seats = []
    for s in table.seats:
        result = venue_table.results.get(s.registration_id)
        seats.append({
            "name": s.name,
            "club": s.club,
            "team": s.team,
            "result": None if result is None else {"rank": result.rank, "table_points": result.table_points,
                                                   "tournament_points": result.tournament_points},
        })  # fmt: skip
    out: dict[str, Any] = {"number": table.number, "group": table.group, "special": table.special, "seats": seats}
    if venue_table.report is not None:  # the current round's tables: their clock and report state
        out["clock"] = _clock(venue_table.clock)
        out["report"] = _report(venue_table.report)
    return out


def _clock(clock: ClockView | None) -> dict[str, Any] | None:
    if clock is None:
        return None
    return {
        "status": clock.status,
        "ending": clock.ending,
        "limit_minutes": clock.limit_minutes,
        "remaining_seconds": clock.remaining_seconds,
        "time_up_at": _iso(clock.time_up_at),
        "recovery_minutes": clock.recovery_minutes,
        "pauses": clock.pauses,
    }


def _report(report: ReportStateView) -> dict[str, Any]:
    return {"status": report.status, "signed": report.signed, "seats": report.seats}


def _standings(view: StandingsView) -> dict[str, Any]:
    return {
        "rounds": view.rounds,
        "unconfirmed_tables": view.unconfirmed_tables,
        "lines": [
            {
                "rank": line.rank,
                "name": line.name,
                "club": line.club,
                "team": line.team,
                "points": line.points,
                "games": line.games,
                "table_points": line.table_points,
                "standing": line.standing,
            }
            for line in view.lines
        ],
        "teams": [{"rank": tl.rank, "team": tl.team, "points": tl.points} for tl in view.teams],
    }


def _classification(view: ClassificationView) -> dict[str, Any]:
    """The final classification: the champion(s) once the final phase is played, each place with where it was
    decided (the page words it), and the places still open."""
    return {
        "complete": view.complete,
        "format": view.format,
        "champions": [line.name for line in view.champions],
        "lines": [
            {
                "place": line.place,
                "name": line.name,
                "club": line.club,
                "team": line.team,
                "stage": line.stage,
                "round": line.round,
                "table": line.table,
                "table_place": line.table_place,
                "qualifying_rank": line.qualifying_rank,
                "points": line.points,
            }
            for line in view.lines
        ],
        "open": [{"first": b.first, "last": b.last, "names": list(b.names), "stage": b.stage} for b in view.open],
    }


def _season(view: SeasonView, tournament: str) -> dict[str, Any]:
    """The season's public ranking: no Discord id, only what ``/season show`` prints."""
    return {
        "name": view.name,
        "points_kind": view.points_kind,
        "tournaments": list(view.tournaments),
        "current": view.tournaments.index(tournament) if tournament in view.tournaments else None,
        "unconfirmed_tables": view.unconfirmed_tables,
        "lines": [
            {
                "rank": line.rank,
                "name": line.name,
                "club": line.club,
                "points": line.points,
                "tournaments": line.tournaments,
                "by_tournament": list(line.by_tournament),
                "counted": list(line.counted),
                "standings": list(line.standings),
                "deductions": line.deductions,
                "previous_rank": line.previous_rank,
            }
            for line in view.lines
        ],
    }
