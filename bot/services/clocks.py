"""Game clocks per table (BOT-SCH-2, TOUR-TIME-1, RR-INT-1, FIRK-TIME-1, RK-SD-1..3, RK-ELIM-1) and the end-of-game
tracker at the table.

A clock is a ``TableClock`` row; its calls (the sdadata, FIRK's third-to-last round, RR's replay) are
``ScheduledReminder`` rows of kind ``clock_call`` that a pause cancels and a resume plans again at the moved
instant, so the announcements move with the recovery minutes and survive a restart. Pause and resume are
conditional UPDATEs on the value read, so two referees pressing at once cannot count one interruption twice.

The tracker is the RisiKo! engine's :mod:`bot.rules.risiko.endgame` state, kept on the row: players (or a referee)
record each end of turn with its conquests, each roll, each pass and each player out; the engine says who rolls,
with what threshold, and when the game ends. It is clock-aware: an event recorded after the time limit first
records the time-up, and an elimination before the end of the preset's 4th turn is refused (RK-ELIM-1 /
FIRK-ELIM-1), counting the full rounds of turns recorded.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameTable, Registration, ReminderKind, Round, RoundStatus, ScheduledReminder, TableClock
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.rules import clock as rules_clock
from bot.rules.clock import Announcement, ClockError, ClockRules, ClockState, Ending
from bot.rules.errors import RuleError
from bot.rules.risiko import endgame
from bot.rules.risiko.endgame import EndState, Event
from bot.services._base import BaseService, UseCase, id_of
from bot.services.access import Actor, StaffRole
from bot.services.calls import own_table

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ClockView:
    tournament_name: str
    preset: str
    round_number: int
    table_number: int
    thread_id: int | None
    ending: str  # sdadata | firk | none
    started_at: datetime
    running: bool
    paused_at: datetime | None
    played_seconds: int
    recovery_seconds: int  # every interruption so far: the recovery time the table gets (TOUR-TIME-1)
    pauses: int
    time_limit_minutes: int | None
    time_up_at: datetime | None  # None while paused (it moves) or without a limit
    time_is_up: bool
    called_at: datetime | None  # when the timed ending was announced
    allowance_minutes: int | None  # RR 14
    interruption_verdict: str | None  # resume | replay (RR-INT-1)
    replay_due_at: datetime | None
    turns_completed: int
    elimination_allowed: bool
    tracker: dict[str, Any] | None  # the engine's state, serialised
    expecting: dict[str, Any] | None  # what the table waits for (a roll: who and the threshold)


@dataclass(frozen=True, slots=True)
class StartReport:
    started: tuple[ClockView, ...]
    already: tuple[int, ...]  # table numbers whose clock was already running


@dataclass(frozen=True, slots=True)
class TrackerStep:
    view: ClockView
    outcome: str  # the engine's Outcome code
    details: dict[str, Any]
    time_up_recorded: bool  # the clock's limit had passed: the time-up was recorded first


def _state(row: TableClock) -> ClockState:
    return ClockState(started_at=row.started_at, paused_at=row.paused_at, paused_seconds=row.paused_seconds,
                      pauses=row.pauses)  # fmt: skip


def _view(uc: UseCase, rnd: Round, table: GameTable, row: TableClock, now: datetime) -> ClockView:
    """A table's clock as the referee and the table see it (``uc``: about the tournament, whose ruleset times it)."""
    t, rules = uc.tournament, ClockRules.of(uc.rules)
    state = _state(row)
    verdict = rules_clock.interruption_verdict(state, rules, now)
    tracker = EndState.parse(row.tracker) if row.tracker else None
    return ClockView(
        tournament_name=t.name, preset=t.preset, round_number=rnd.number, table_number=table.number,
        thread_id=table.thread_id,
        ending=rules.ending.value, started_at=row.started_at, running=state.running, paused_at=row.paused_at,
        played_seconds=rules_clock.played_seconds(state, now),
        recovery_seconds=rules_clock.interrupted_seconds(state, now), pauses=row.pauses,
        time_limit_minutes=rules.time_limit_minutes, time_up_at=rules_clock.time_up_at(state, rules),
        time_is_up=rules_clock.is_time_up(state, rules, now) or row.time_up_at is not None, called_at=row.time_up_at,
        allowance_minutes=rules.interruption_allowance_minutes,
        interruption_verdict=verdict.value if verdict else None,
        replay_due_at=rules_clock.replay_due_at(state, rules), turns_completed=row.turns_completed,
        elimination_allowed=row.turns_completed >= rules.elimination_after_turn,
        tracker=tracker.serialise() if tracker else None,
        expecting=endgame.expectation(tracker) if tracker else None,
    )  # fmt: skip


async def _cancel_calls(uc: UseCase, table: GameTable, why: str) -> None:
    await uc.clocks.cancel_clock_calls(table_id=id_of(table), outcome=why)


async def _plan_call(uc: UseCase, table: GameTable, row: TableClock, now: datetime) -> ScheduledReminder | None:
    """The clock's next call as a row: the time-up (not yet made) while running, the RR replay while paused."""
    nxt = rules_clock.next_announcement(_state(row), ClockRules.of(uc.rules))
    if nxt is None:
        return None
    call, due = nxt
    if call is not Announcement.RR_REPLAY and row.time_up_at is not None:
        return None  # the ending was already called
    channel = table.thread_id
    if channel is None:
        config = uc.config if uc.config is not None else await uc.guild.config()
        channel = config.announcement_channel_id if config else None
    reminder = ScheduledReminder(guild_id=uc.guild_id, tournament_id=uc.tournament_id, round_id=table.round_id,
                                 table_id=table.id, kind=ReminderKind.CLOCK, call=call.value, channel_id=channel,
                                 due_at=max(due, now), created_at=now)  # fmt: skip
    return await uc.insert(reminder)


def _apply(
    state: EndState, event: Event, rules: Any, row: TableClock
) -> tuple[EndState, endgame.Outcome, dict[str, Any]]:
    """One tracker event with the clock's checks (RK-ELIM-1) and the full-round count."""
    if event.kind == "player_eliminated" and not endgame.elimination_allowed(rules, row.turns_completed):
        raise InvalidInput("error.clock.elimination_too_early", turns=row.turns_completed,
                           needed=rules.elimination_after_turn)  # fmt: skip
    ends_round = event.kind == "turn_ended" and state.current_is_last_seat and not state.supplementary
    new, outcome, details = endgame.step(state, event, rules.end)
    if ends_round:
        row.turns_completed += 1
    return new, outcome, details


async def clock_call(uc: UseCase | AsyncSession, reminder: ScheduledReminder, now: datetime) -> dict[str, Any] | None:
    """The runner's side of a clock call (inside its transaction): check the call still stands, record the time-up on
    the clock and its tracker, and return what the message needs; None when the clock moved (dropped). ``uc``: the
    runner's use case, or its raw transaction (``bot/services/deliveries.py`` reads a reminder before it knows its
    server: the use case of the reminder's server is opened on it here)."""
    if isinstance(uc, AsyncSession):
        uc = UseCase(uc, reminder.guild_id, None, None, lambda: now, None)
    if reminder.table_id is None:
        return None
    row = await uc.clocks.get_table_clock(table_id=reminder.table_id)
    found = await uc.reports.get_report_table_in_server(table_id=reminder.table_id) if row is not None else None
    if row is None or found is None:
        return None
    table, rnd, t = found
    tuc = uc.about(t)
    rules, ruleset = ClockRules.of(tuc.rules), tuc.rules
    state = _state(row)
    details: dict[str, Any] = {"table_number": table.number, "round_number": rnd.number}
    if reminder.call == Announcement.RR_REPLAY.value:
        if (
            state.running
            or rules_clock.interruption_verdict(state, rules, now) is not rules_clock.InterruptionOutcome.REPLAY
        ):
            return None
        return details | {"interrupted_minutes": rules_clock.interrupted_seconds(state, now) // 60,
                          "allowance_minutes": rules.interruption_allowance_minutes}  # fmt: skip
    if not state.running or not rules_clock.is_time_up(state, rules, now) or row.time_up_at is not None:
        return None
    row.time_up_at = now
    if row.tracker and ruleset.risiko is not None:
        tracker = EndState.parse(row.tracker)
        if not tracker.time_up and not tracker.ended:
            tracker, _, _ = endgame.step(tracker, Event("time_up"), ruleset.risiko.end)
            row.tracker = tracker.serialise()
            details["current"] = tracker.players[tracker.current]
    return details | {
        "limit_minutes": rules.time_limit_minutes,
        "recovery_minutes": row.paused_seconds // 60,
        "rounds_left": ruleset.risiko.end.announce_rounds_left if ruleset.risiko else 0,
    }


class ClockService(BaseService):
    async def _where(self, uc: UseCase, table: int | None) -> tuple[Round, list[GameTable]]:
        """The tournament's published round and its tables (or table ``table``)."""
        t = uc.tournament
        rounds = await uc.rounds.list_rounds(tournament_id=uc.tournament_id)
        rnd = next((r for r in reversed(rounds) if r.status == RoundStatus.PUBLISHED), None)
        if rnd is None:
            raise Conflict("error.clock.no_published_round", tournament=t.name)
        tables = list(await uc.rounds.list_tables(round_id=id_of(rnd)))
        if table is not None:
            tables = [x for x in tables if x.number == table]
            if not tables:
                raise NotFound("error.call.no_such_table", table=table, tournament=t.name)
        return rnd, tables

    @staticmethod
    async def _row(uc: UseCase, table: GameTable, *, lock: bool = False) -> TableClock:
        row = await uc.clocks.get_table_clock(table_id=id_of(table), lock=lock)
        if row is None:
            raise Conflict("error.clock.not_started", table=table.number)
        return row

    @staticmethod
    async def _players(uc: UseCase, table: GameTable) -> list[Registration]:
        seats = await uc.rounds.list_seats_for_tables(table_ids=[id_of(table)])
        regs = await uc.rounds.registrations_by_ids(ids=[s.registration_id for s in seats])
        return [regs[s.registration_id] for s in sorted(seats, key=lambda s: s.position) if s.registration_id in regs]

    async def start(
        self, actor: Actor, *, tournament: str, table: int | None = None, first: str | None = None
    ) -> StartReport:
        """Start one table's clock, or every table of the published round at once (``table`` None)."""
        async with self.run(actor, role=StaffRole.REFEREE, tournament=tournament) as uc:
            t, now = uc.tournament, uc.clock()
            rnd, tables = await self._where(uc, table)
            ruleset = uc.rules
            rules = ClockRules.of(ruleset)
            started: list[ClockView] = []
            already: list[int] = []
            for gt in tables:
                tracker = None
                if ruleset.risiko is not None:
                    names = [r.display_name for r in await self._players(uc, gt)]
                    if len(names) >= 2:
                        try:
                            tracker = endgame.start(names, ruleset.risiko.end, first if table is not None else None)
                        except RuleError as exc:
                            raise InvalidInput("error.clock.player_unknown", player=str(first)[:64]) from exc
                row = TableClock(guild_id=t.guild_id, table_id=id_of(gt), started_at=now, started_by=actor.user_id,
                                 tracker=tracker.serialise() if tracker else None)  # fmt: skip
                try:
                    async with uc.savepoint():
                        uc.add(row)
                except IntegrityError:
                    already.append(gt.number)
                    continue
                await _plan_call(uc, gt, row, now)
                started.append(_view(uc, rnd, gt, row, now))
            if started:
                await uc.audit("clock.start", "round", rnd.id, tables=[v.table_number for v in started],
                               ending=rules.ending.value)  # fmt: skip
            if not started and table is not None:
                raise Conflict("error.clock.already_started", table=table)
            return StartReport(tuple(started), tuple(already))

    async def pause(self, actor: Actor, *, tournament: str, table: int) -> ClockView:
        """A referee's intervention begins: the clock stops; its calls wait (RR: the replay call is planned)."""
        return await self._pause_or_resume(actor, tournament, table, pausing=True)

    async def resume(self, actor: Actor, *, tournament: str, table: int) -> ClockView:
        """The intervention ends: its length is recovery time and the calls move by it (TOUR-TIME-1)."""
        return await self._pause_or_resume(actor, tournament, table, pausing=False)

    async def _pause_or_resume(self, actor: Actor, tournament: str, table: int, *, pausing: bool) -> ClockView:
        async with self.run(actor, role=StaffRole.REFEREE, tournament=tournament) as uc:
            now = uc.clock()
            rnd, (gt,) = await self._where(uc, table)
            row = await self._row(uc, gt, lock=True)
            if row.ended_at is not None:
                raise Conflict("error.clock.ended", table=table)
            try:
                new = rules_clock.pause(_state(row), now) if pausing else rules_clock.resume(_state(row), now)
            except ClockError as exc:
                raise Conflict(f"error.clock.{exc.code}", table=table) from None
            changed = await uc.clocks.set_clock_pause_if_unchanged(clock=row, paused_at=new.paused_at,
                                                                   paused_seconds=new.paused_seconds,
                                                                   pauses=new.pauses)  # fmt: skip
            if not changed:  # another referee pressed first
                raise Conflict("error.clock.clock_already_paused" if pausing else "error.clock.clock_not_paused",
                               table=table)  # fmt: skip
            await uc.refresh(row)
            await _cancel_calls(uc, gt, "clock_paused" if pausing else "clock_resumed")
            await _plan_call(uc, gt, row, now)
            await uc.audit("clock.pause" if pausing else "clock.resume", "game_table", gt.id,
                           recovery_seconds=row.paused_seconds)  # fmt: skip
            return _view(uc, rnd, gt, row, now)

    async def status(self, actor: Actor, *, tournament: str, table: int | None = None) -> list[ClockView]:
        """The clocks of the published round (or one table): time played, recovery, the ending's instant."""
        async with self.run(actor, tournament=tournament) as uc:
            now = uc.clock()
            rnd, tables = await self._where(uc, table)
            tables = await self._readable(uc, rnd, tables, table)
            rows = await uc.clocks.list_table_clocks(table_ids=[id_of(x) for x in tables])
            by_table = {r.table_id: r for r in rows}
            views = [_view(uc, rnd, gt, by_table[id_of(gt)], now) for gt in tables if gt.id in by_table]
            if table is not None and not views:
                raise Conflict("error.clock.not_started", table=table)
            return views

    async def _readable(self, uc: UseCase, rnd: Round, tables: list[GameTable], asked: int | None) -> list[GameTable]:
        """Who may read the clocks: referees and organizers every table; a player seated in the round their own
        table only (the clock of another table is the referees' business); anyone else nothing."""
        if uc.has_role(StaffRole.REFEREE) or uc.has_role(StaffRole.ORGANIZER):
            return tables
        own = await own_table(uc, rnd, uc.user_id) if uc.user_id is not None else None
        if own is None:
            uc.require(StaffRole.REFEREE)  # neither staff nor seated: the role it takes (refused here)
            return tables  # pragma: no cover - require() refused: a member with the role is staff above
        if asked is not None and asked != own.number:
            raise PermissionDenied("error.clock.not_your_table", table=asked, own=own.number)
        return [own]

    async def record(self, actor: Actor, *, tournament: str, table: int | None, event: dict[str, Any]) -> TrackerStep:
        """Record one event of the end of the game at ``table`` (default: the actor's own table) by a player of the
        table or a referee. Without a ``player`` the event is the one the table waits for (whose turn, who rolls)."""
        if table is None:
            table = await self.table_of(actor, tournament=tournament)
            if table is None:
                raise InvalidInput("error.clock.which_table")
        async with self.run(actor, tournament=tournament) as uc:
            now = uc.clock()
            rnd, (gt,) = await self._where(uc, table)
            players = await self._players(uc, gt)
            if not uc.has_role(StaffRole.REFEREE) and actor.user_id not in {p.user_id for p in players}:
                uc.require(StaffRole.REFEREE)
            row = await self._row(uc, gt, lock=True)
            ruleset = uc.rules
            if row.tracker is None or ruleset.risiko is None:
                raise Conflict("error.clock.no_tracker", table=table)
            state = EndState.parse(row.tracker)
            if state.ended:
                raise Conflict("error.clock.game_already_ended", table=table)
            rules = ruleset.risiko
            time_up_recorded = False
            if not state.time_up and (rules_clock.is_time_up(_state(row), ClockRules.of(ruleset), now)
                                      or row.time_up_at is not None):  # fmt: skip
                state, _, _ = endgame.step(state, Event("time_up"), rules.end)
                row.time_up_at = row.time_up_at or now
                time_up_recorded = True
                await _cancel_calls(uc, gt, "time_up_recorded")
            wanted = dict(event)
            if wanted.get("event") != "time_up" and not wanted.get("player"):
                wanted["player"] = endgame.expectation(state).get("player")
            try:
                parsed = Event.parse(wanted)
                state, outcome, details = _apply(state, parsed, rules, row)
            except RuleError as exc:
                raise InvalidInput(f"error.clock.{exc.code}", value=str(exc.value)[:60]) from None
            row.tracker = state.serialise()
            if state.ended:
                row.ended_at = now
                await _cancel_calls(uc, gt, "game_ended")
            await uc.audit("clock.event", "game_table", gt.id, event=parsed.serialise(), outcome=outcome.value)
            await uc.flush()
            return TrackerStep(_view(uc, rnd, gt, row, now), outcome.value, details, time_up_recorded)

    async def table_of(self, actor: Actor, *, tournament: str) -> int | None:
        """The actor's own table in the published round (a player recording from their table)."""
        async with self.run(actor, tournament=tournament) as uc:
            reg = await uc.registrations.for_user(tournament_id=uc.tournament_id, user_id=actor.user_id)
            if reg is None:
                return None
            found = await uc.rounds.seat_in_latest_round(tournament_id=uc.tournament_id, registration_id=id_of(reg),
                                                         published_only=True)  # fmt: skip
            return found[1].number if found else None


__all__ = ["ClockService", "ClockView", "Ending", "StartReport", "TrackerStep", "clock_call"]
