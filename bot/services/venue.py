"""The venue page's data: one tournament's public snapshot, built once per change, and its access token.

The page is what the public announcements already carry, as a typed view (``VenuePage``; ``bot.web`` writes its
JSON): the current round's tables (seats, clubs, clock, report state), the standings, the final phase and, for a
tournament of a season, the season's ranking. No Discord id, no sanction's note, no table note, no direct message.
It is read from the same views the bot uses (``round_view``, ``StandingsService``, ``SeasonService.show``, the
clock's rules) so the page, the images and ``/season show`` agree.

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

from bot.db.models import Round, RoundKind, RoundStatus, TableClock, Tournament
from bot.db.repo import TableReportState
from bot.errors import InvalidInput, NotFound
from bot.rules import clock as rules_clock
from bot.rules.clock import ClockRules, ClockState
from bot.services._base import NO_SERVER, BaseService, UseCase, id_of
from bot.services.access import Actor, StaffRole
from bot.services.classification import ClassificationView, classification_in
from bot.services.report_page import ReportPageService
from bot.services.rounds.reading import round_view
from bot.services.rounds.views import RoundView, TableView
from bot.services.seasons import SeasonService, SeasonView
from bot.services.standings import StandingsService, StandingsView

log = logging.getLogger(__name__)

SHOWN = (RoundStatus.PUBLISHED, RoundStatus.CLOSED)  # what the public announcements have shown


@dataclass(frozen=True, slots=True)
class VenueLink:
    tournament_name: str
    token: str


@dataclass(frozen=True, slots=True)
class ClockView:
    """A table's clock as the page shows it: ``status`` running (counted down by the page from ``time_up_at``),
    paused (``remaining_seconds`` frozen), ``time_up`` (``ending`` says which timed ending: the sdadata, FIRK's last
    rounds) or ended. Nothing here moves with the clock, so an idle page is never sent again."""

    status: str
    ending: str
    limit_minutes: int | None
    remaining_seconds: int | None
    time_up_at: datetime | None
    recovery_minutes: int
    pauses: int


@dataclass(frozen=True, slots=True)
class ReportStateView:
    """Where a table's report stands: waiting, entered, signed (by every line) or countersigned."""

    status: str
    signed: int
    seats: int


@dataclass(frozen=True, slots=True)
class SeatResult:
    rank: int
    table_points: float | None
    tournament_points: float | None


@dataclass(frozen=True, slots=True)
class VenueTable:
    """One table of a shown round: its seats (``table``), each seat's entered result by registration id, and — for
    the current round — its clock and report state."""

    table: TableView
    results: dict[int, SeatResult]
    clock: ClockView | None = None
    report: ReportStateView | None = None


@dataclass(frozen=True, slots=True)
class VenueRound:
    view: RoundView
    tables: tuple[VenueTable, ...]


@dataclass(frozen=True, slots=True)
class VenuePage:
    """One tournament's public page at one change counter: what the announcements already carry, nothing more (no
    Discord id, no sanction's note, no table note). ``guild_id`` is for the web cache's bookkeeping only; ``bot.web``
    writes the page's JSON from this view."""

    token: str
    guild_id: int
    tournament_id: int
    version: int
    locale: str
    name: str
    game: str
    status: str
    round: VenueRound | None
    standings: StandingsView
    classification: ClassificationView | None
    bracket: tuple[VenueRound, ...]
    season: SeasonView | None


def _clock(row: TableClock | None, rules: ClockRules, now: datetime) -> ClockView | None:
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
    return ClockView(
        status=status,
        ending=rules.ending.value,
        limit_minutes=limit,
        remaining_seconds=None if status == "running" else remaining,
        time_up_at=rules_clock.time_up_at(state, rules) if status == "running" else None,
        recovery_minutes=rules_clock.interrupted_seconds(state, now) // 60,
        pauses=row.pauses,
    )


def _report(state: TableReportState | None, seats: int) -> ReportStateView:
    if state is None or (state.reported_at is None and state.lines == 0):
        return ReportStateView("waiting", 0, seats)
    if state.countersigned_at is not None or state.locked:
        status = "countersigned"
    elif state.lines and state.signed >= state.lines:
        status = "signed"
    else:
        status = "entered"
    return ReportStateView(status, state.signed, state.lines or seats)


async def _results(uc: UseCase, ids: dict[int, int]) -> dict[int, dict[int, SeatResult]]:
    """Each table's entered results by seat: final order and points (what the report posted in the thread says)."""
    rows = await uc.rounds.list_results_for_tables(table_ids=list(ids.values()))
    by_table: dict[int, dict[int, SeatResult]] = {}
    for r in rows:
        if r.table_rank is None:
            continue
        by_table.setdefault(r.table_id, {})[r.registration_id] = SeatResult(r.table_rank, r.table_points,
                                                                           r.tournament_points)  # fmt: skip
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
            token = await uc.venue.token_set_if_missing(tournament_id=uc.tournament_id)
            return VenueLink(uc.tournament.name, token)

    async def revoke(self, actor: Actor, *, tournament: str) -> VenueLink:
        """A new token: every page open on the old one stops (404), the new link must be shared again."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            token = await uc.venue.token_renew(tournament_id=uc.tournament_id)
            await uc.audit("venue.revoke", "tournament", uc.tournament_id, tournament=uc.tournament.name)
            return VenueLink(uc.tournament.name, token)

    async def pages(self) -> list[VenueLink]:
        """Every tournament of the database with its token (``steward web`` prints them), oldest first."""
        async with self.run(NO_SERVER) as uc:
            out = []
            for t in await uc.venue.list_tournaments_everywhere():
                token = await uc.server(t.guild_id).venue.token_set_if_missing(tournament_id=id_of(t))
                out.append(VenueLink(t.name, token))
            return out

    async def versions(self, guild_ids: Sequence[int]) -> dict[int, int]:
        """Each server's change counter: one query for all the pages the web layer keeps."""
        async with self.run(NO_SERVER) as uc:
            return await uc.venue.change_counters(guild_ids=list(guild_ids))

    async def page(self, token: str) -> VenuePage | None:
        """The page of the tournament whose token this is; None for any other string (a wrong or revoked token)."""
        async with self.run(NO_SERVER) as uc:
            t = await uc.venue.tournament_by_venue_token(token=token)
            if t is None:
                return None
            uc.enter(t)
            guild_id, tid = t.guild_id, uc.tournament_id
            version = await uc.venue.change_counter()
            config = await uc.guild.config()
            now = self._clock()
            rounds = await uc.rounds.list_rounds(tournament_id=tid)
            shown = [r for r in rounds if r.status in SHOWN]
            current = shown[-1] if shown else None
            standings = await self.standings.compute_in(uc)
            classification = await classification_in(uc, self.standings, standings)
            in_season = await uc.seasons.of_tournament(tournament_id=tid)
            this_round = await self._round(uc, t, current, now) if current is not None else None
            bracket = await self._bracket(uc, t, shown)
            locale = config.locale if config else "it"
        # after the page's own read: the counter read above cannot be newer than this
        season = await self._season(guild_id, in_season[0].name) if in_season is not None else None
        return VenuePage(token, guild_id, tid, version, locale, t.name, t.game, t.status, this_round, standings,
                         classification, bracket, season)  # fmt: skip

    async def _season(self, guild_id: int, season: str) -> SeasonView | None:
        """The season's ranking, the one computation ``/season show`` makes; None (and a log line) if it cannot be
        read, so one faulty tournament of the season does not take the evening's page down."""
        try:
            view = await self.seasons.show(guild_id, season)
        except (InvalidInput, NotFound) as exc:
            log.warning("venue page: the season %r could not be read (%s); the page shows none", season, exc)
            return None
        return view

    async def _round(self, uc: UseCase, t: Tournament, r: Round, now: datetime) -> VenueRound:
        view = await round_view(uc, r)
        ids = await self._table_ids(uc, r)
        rules = ClockRules.of(uc.rules)
        clocks = {c.table_id: c for c in await uc.clocks.list_table_clocks(table_ids=list(ids.values()))}
        states = await uc.venue.table_report_states(table_ids=list(ids.values()))
        results = await _results(uc, ids)
        tables = []
        for table in view.tables:
            tid = ids.get(table.number)
            clock = _clock(clocks.get(tid) if tid else None, rules, now)
            report = _report(states.get(tid) if tid else None, len(table.seats))
            tables.append(VenueTable(table, results.get(table.number, {}), clock, report))
        return VenueRound(view, tuple(tables))

    async def _table_ids(self, uc: UseCase, r: Round) -> dict[int, int]:
        return {gt.number: id_of(gt) for gt in await uc.rounds.list_tables(round_id=id_of(r))}

    async def _bracket(self, uc: UseCase, t: Tournament, shown: Sequence[Round]) -> tuple[VenueRound, ...]:
        """The final phase: its published semifinals and final, each table with its seats and results."""
        out = []
        for r in shown:
            if r.kind not in (RoundKind.SEMIFINAL, RoundKind.FINAL):
                continue
            view = await round_view(uc, r)
            ids = await self._table_ids(uc, r)
            results = await _results(uc, ids)
            out.append(VenueRound(view, tuple(VenueTable(tb, results.get(tb.number, {})) for tb in view.tables)))
        return tuple(out)
