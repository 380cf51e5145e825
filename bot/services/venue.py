"""The venue page's data: one tournament's public snapshot, built once per change, and its access token.

The snapshot is what the public announcements already carry, as plain JSON-able data: the current round's tables
(seats, clubs, clock, report state), the standings, the final phase and, for a tournament of a season, the season's
ranking. No Discord id, no sanction's note, no table note, no direct message. It is read from the same views the bot
uses (``round_view``, ``StandingsService``, ``SeasonService.show``, the clock's rules) so the page, the images and
``/season show`` agree.

Access: the page lives at the tournament's ``venue_token``, never at its id. ``link`` gives it to organizers,
``revoke`` replaces it (the old URL is a 404 from then on); a token names one tournament of one server.

Cost: :meth:`VenueService.versions` is the server's change counter (the last audit entry: every use case that
changes what the page shows writes one in its own transaction). The web layer keeps one snapshot per tournament and
rebuilds it only when that counter moves, so the database work does not grow with the number of viewers.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.db import repo
from bot.db.models import GameTable, Round, RoundKind, RoundStatus, TableClock, Tournament
from bot.db.repo import TableReportState
from bot.errors import InvalidInput, NotFound
from bot.rules import clock as rules_clock
from bot.rules.clock import ClockRules, ClockState
from bot.rules.ruleset import load_ruleset
from bot.services._base import NO_SERVER, BaseService, UseCase
from bot.services.access import Actor, StaffRole
from bot.services.classification import ClassificationView, classification_in
from bot.services.report_page import ReportPageService
from bot.services.rounds.reading import round_view
from bot.services.rounds.views import RoundView, TableView
from bot.services.seasons import SeasonService, SeasonView
from bot.services.standings import StandingsService, StandingsView

log = logging.getLogger(__name__)

SHOWN = (RoundStatus.PUBLISHED.value, RoundStatus.CLOSED.value)  # what the public announcements have shown


@dataclass(frozen=True, slots=True)
class VenueLink:
    tournament_name: str
    token: str


@dataclass(frozen=True, slots=True)
class VenueSnapshot:
    """One tournament's page data at one change counter. ``data`` holds no Discord id (``guild_id`` here is for the
    cache's bookkeeping only and is never sent)."""

    token: str
    guild_id: int
    tournament_id: int
    version: int
    locale: str
    data: dict[str, Any]


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _seat(seat: Any) -> dict[str, Any]:
    return {"name": seat.name, "club": seat.club, "team": seat.team}


def _clock(row: TableClock | None, rules: ClockRules, now: datetime) -> dict[str, Any] | None:
    """The table's clock as the page shows it: running (with the instant the time is up), paused (with the time left
    frozen), time up (``ending`` says which timed ending: the sdadata, FIRK's last rounds) or ended."""
    if row is None:
        return None
    state = ClockState(started_at=row.started_at, paused_at=row.paused_at, paused_seconds=row.paused_seconds,
                       pauses=row.pauses)  # fmt: skip
    limit = rules.time_limit_minutes
    played = rules_clock.played_seconds(state, now)
    time_up = row.time_up_at is not None or rules_clock.is_time_up(state, rules, now)
    remaining = None if limit is None else max(0, limit * 60 - played)
    if row.ended_at is not None:
        status = "ended"
    elif time_up:
        status = "time_up"
    elif not state.running:
        status = "paused"
    else:
        status = "running"
    return {
        "status": status,
        "ending": rules.ending.value,
        "limit_minutes": limit,
        # the time left while it stands still (paused, up, ended); a running clock is counted down by the page from
        # ``time_up_at``: nothing in the snapshot moves with the clock, so an idle page is never sent again
        "remaining_seconds": None if status == "running" else remaining,
        "time_up_at": _iso(rules_clock.time_up_at(state, rules)) if status == "running" else None,
        "recovery_minutes": rules_clock.interrupted_seconds(state, now) // 60,
        "pauses": row.pauses,
    }


def _report(state: TableReportState | None, seats: int) -> dict[str, Any]:
    if state is None or (state.reported_at is None and state.lines == 0):
        return {"status": "waiting", "signed": 0, "seats": seats}
    if state.countersigned_at is not None or state.locked:
        status = "countersigned"
    elif state.lines and state.signed >= state.lines:
        status = "signed"
    else:
        status = "entered"
    return {"status": status, "signed": state.signed, "seats": state.lines or seats}


async def _results(uc: UseCase, guild_id: int, tables: Sequence[TableView], ids: dict[int, int]) -> dict[int, Any]:
    """Each table's entered results by seat: final order and points (what the report posted in the thread says)."""
    rows = await repo.list_results_for_tables(session=uc.session, guild_id=guild_id, table_ids=list(ids.values()))
    by_table: dict[int, dict[int, Any]] = {}
    for r in rows:
        if r.table_rank is None:
            continue
        by_table.setdefault(r.table_id, {})[r.registration_id] = {
            "rank": r.table_rank,
            "table_points": r.table_points,
            "tournament_points": r.tournament_points,
        }
    return {number: by_table.get(tid, {}) for number, tid in ids.items()}


class VenueService(BaseService):
    """The venue page's use cases: the link (organizers), a new link (organizers), the snapshot and the counters."""

    standings: StandingsService  # set by Services: the tournament's standings as /standings reads them
    seasons: SeasonService  # set by Services: the season's ranking as /season show reads it
    report_pages: ReportPageService | None = None  # set by Services: the tables' report pages (issue 42)

    def now_ms(self) -> int:
        """The services' clock in milliseconds: the page counts its clocks down against it (not the viewer's)."""
        return int(self._clock().timestamp() * 1000)

    async def link(self, actor: Actor, *, tournament: str) -> VenueLink:
        """The tournament's page token (given one first if it has none)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            token = await repo.venue_token_set_if_missing(
                session=uc.session, guild_id=uc.guild_id, tournament_id=uc.tournament_id
            )
            return VenueLink(uc.tournament.name, token)

    async def revoke(self, actor: Actor, *, tournament: str) -> VenueLink:
        """A new token: every page open on the old one stops (404), the new link must be shared again."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            token = await repo.venue_token_renew(
                session=uc.session, guild_id=uc.guild_id, tournament_id=uc.tournament_id
            )
            await uc.audit("venue.revoke", "tournament", uc.tournament_id, tournament=uc.tournament.name)
            return VenueLink(uc.tournament.name, token)

    async def pages(self) -> list[VenueLink]:
        """Every tournament of the database with its token (``steward web`` prints them), oldest first."""
        async with self.run(NO_SERVER) as uc:
            out = []
            for t in await repo.list_tournaments_everywhere(session=uc.session):
                assert t.id is not None
                token = await repo.venue_token_set_if_missing(
                    session=uc.session, guild_id=t.guild_id, tournament_id=t.id
                )
                out.append(VenueLink(t.name, token))
            return out

    async def versions(self, guild_ids: Sequence[int]) -> dict[int, int]:
        """Each server's change counter: one query for all the pages the web layer keeps."""
        async with self.run(NO_SERVER) as uc:
            return await repo.change_counters(session=uc.session, guild_ids=list(guild_ids))

    async def snapshot(self, token: str) -> VenueSnapshot | None:
        """The page of the tournament whose token this is; None for any other string (a wrong or revoked token)."""
        async with self.run(NO_SERVER) as uc:
            t = await repo.tournament_by_venue_token(session=uc.session, token=token)
            if t is None or t.id is None:
                return None
            guild_id = t.guild_id
            version = await repo.change_counter(session=uc.session, guild_id=guild_id)
            config = await repo.get_guild_config(session=uc.session, guild_id=guild_id)
            now = self._clock()
            rounds = await repo.list_rounds(session=uc.session, guild_id=guild_id, tournament_id=t.id)
            shown = [r for r in rounds if r.status in SHOWN]
            current = shown[-1] if shown else None
            standings = await self.standings.compute_in(uc.session, t)
            classification = await classification_in(uc.session, t, self.standings, standings)
            in_season = await repo.season_of_tournament(session=uc.session, guild_id=guild_id, tournament_id=t.id)
            data: dict[str, Any] = {
                "tournament": {"name": t.name, "game": t.game, "status": t.status},
                "round": await self._round(uc, t, current, now) if current is not None else None,
                "standings": _standings(standings),
                "classification": _classification(classification) if classification is not None else None,
                "bracket": await self._bracket(uc, t, shown),
                "season": None,
            }
            locale = config.locale if config else "it"
        if in_season is not None:  # after the page's own read: the counter read above cannot be newer than this
            data["season"] = await self._season(guild_id, in_season[0].name, t.name)
        return VenueSnapshot(token, guild_id, t.id, version, locale, data)

    async def _season(self, guild_id: int, season: str, tournament: str) -> dict[str, Any] | None:
        """The season's ranking, the one computation ``/season show`` makes; None (and a log line) if it cannot be
        read, so one faulty tournament of the season does not take the evening's page down."""
        try:
            view = await self.seasons.show(guild_id, season)
        except (InvalidInput, NotFound) as exc:
            log.warning("venue page: the season %r could not be read (%s); the page shows none", season, exc)
            return None
        return _season_block(view, tournament)

    async def _round(self, uc: UseCase, t: Tournament, r: Round, now: datetime) -> dict[str, Any]:
        view = await round_view(uc.session, t, r)
        ids = await self._table_ids(uc, t, r)
        rules = ClockRules.of(load_ruleset(t.preset, t.overrides or None))
        clocks = {
            c.table_id: c
            for c in await repo.list_table_clocks(session=uc.session, guild_id=t.guild_id, table_ids=list(ids.values()))
        }
        states = await repo.table_report_states(session=uc.session, guild_id=t.guild_id, table_ids=list(ids.values()))
        results = await _results(uc, t.guild_id, view.tables, ids)
        tables = []
        for table in view.tables:
            tid = ids.get(table.number)
            tables.append(
                _table(table, results.get(table.number, {}))
                | {
                    "clock": _clock(clocks.get(tid) if tid else None, rules, now),
                    "report": _report(states.get(tid) if tid else None, len(table.seats)),
                }
            )
        return _round_head(view) | {"tables": tables}

    async def _table_ids(self, uc: UseCase, t: Tournament, r: Round) -> dict[int, int]:
        assert r.id is not None
        rows: Sequence[GameTable] = await repo.list_tables(session=uc.session, guild_id=t.guild_id, round_id=r.id)
        return {gt.number: gt.id for gt in rows if gt.id is not None}

    async def _bracket(self, uc: UseCase, t: Tournament, shown: Sequence[Round]) -> dict[str, Any] | None:
        """The final phase: its published semifinals and final, each table with its seats and results."""
        phase = [r for r in shown if r.kind in (RoundKind.SEMIFINAL.value, RoundKind.FINAL.value)]
        if not phase:
            return None
        out = []
        for r in phase:
            view = await round_view(uc.session, t, r)
            ids = await self._table_ids(uc, t, r)
            results = await _results(uc, t.guild_id, view.tables, ids)
            out.append(_round_head(view) | {"tables": [_table(tb, results.get(tb.number, {})) for tb in view.tables]})
        return {"rounds": out}


def _round_head(view: RoundView) -> dict[str, Any]:
    return {
        "number": view.number,
        "kind": view.kind,
        "status": view.status,
        "scheduled_start": _iso(view.scheduled_start),
        "direct_finalists": list(view.direct_finalists),
    }


def _table(table: TableView, results: dict[int, Any]) -> dict[str, Any]:
    seats = []
    for s in table.seats:
        seat = _seat(s) | {"result": results.get(s.registration_id)}
        seats.append(seat)
    return {"number": table.number, "group": table.group, "special": table.special, "seats": seats}


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


def _season_block(view: SeasonView, tournament: str) -> dict[str, Any]:
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
