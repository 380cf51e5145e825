"""Rounds: the table draw, its preview and hand changes, publication, semifinals and the final.

BOT-TAB-1, BOT-TAB-2, TOUR-SIZE-1, TOUR-R1-1, TOUR-R2-1, TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1, FIRK-SEED-1,
FIRK-FAM-1, FIRK-SIZE-1, BOT-ROLE-1. Every decision is the tournament engine's (``bot.rules.tournament``);
this module gathers its inputs from the database, runs it off the event loop and stores what it decided.

Verifiable draws (DESIGN.md): the seed comes once from ``random.SystemRandom``, is stored on the Round
(``draw_seed``) and in ``Round.draw_report`` together with the engine's report and the tables it drew;
``replay_draw`` re-runs the engine from the stored inputs and seed and gives the same tables.

Round.draw_report (JSON) holds what the schema has no column for: the engine report (criteria, lower
bound, optimality, seed), the tables as drawn, the criteria after hand changes (``current``) and the list
of hand changes; for semifinals the bands and the direct finalist; for the final the composition and the
players who declined (TOUR-FIN-1).

Publication order (no half-state): ``publish`` first commits the round as published in the database;
the Discord side effects (announcement, table threads) come after and their outcome is stored with
``record_publication``. A failed side effect never rolls the round back: ``publish`` on a published round
returns the same job again so the cog retries only what is missing (no announcement id, tables without
a thread).
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db import repo
from bot.db.models import (
    CheckInStatus,
    GameTable,
    Registration,
    RegistrationStatus,
    Round,
    RoundKind,
    RoundStatus,
    Seat,
    TableResult,
    Tournament,
)
from bot.errors import Conflict, InvalidInput, NotFound
from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.draw import move_player, swap_players
from bot.rules.tournament.model import Criterion, Optimality, Player, PlayerId, TournamentError
from bot.rules.tournament.planner import (
    SIT_OUT,
    DrawRequest,
    FinalsRequest,
    PlannedDraw,
    plan_draw,
    plan_final,
    plan_semifinals,
)
from bot.rules.tournament.planner import context as planner_context
from bot.rules.tournament.planner import criteria as planner_criteria
from bot.rules.tournament.sizes import firk_sit_out_points
from bot.services._base import BaseService, clean_text, tournament_or_404
from bot.services.access import Actor, StaffRole, has_role, require
from bot.services.standings import StandingsService

SEED_BITS = 31  # short enough to read out loud; the same range as ``steward draw --seed``

# -------------------------------------------------------------------------------------------------- views


@dataclass(frozen=True, slots=True)
class SeatView:
    registration_id: int
    user_id: int | None
    name: str
    club: str | None
    position: int


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    seats: tuple[SeatView, ...]
    size: int | None  # seats including a FIRK dummy, when that differs from the players
    thread_id: int | None
    group: str | None = None  # semifinal/final group: "odd"/"even" in a 100+ player event (TOUR-SF-2)


@dataclass(frozen=True, slots=True)
class CriterionLine:
    name: str
    value: int
    lower_bound: int


@dataclass(frozen=True, slots=True)
class DrawReportView:
    """What the preview shows: each criterion with its lower bound, optimality, seed, hand changes."""

    kind: str
    criteria: tuple[CriterionLine, ...]
    optimality: str  # bot.rules.tournament.model.Optimality value of the engine's draw
    provably_optimal: bool  # of the tables as they are now (after hand changes)
    seed: int | None
    adjustments: int
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FinalSeatView:
    name: str
    source: str  # bot.rules.tournament.seeding.FinalSource value
    semifinal_table: int | None
    semifinal_place: int | None
    replaces_table: int | None
    group: str | None


@dataclass(frozen=True, slots=True)
class RoundView:
    tournament_id: int
    tournament_name: str
    game: str
    round_id: int
    number: int
    kind: str
    status: str
    seed: int | None
    scheduled_start: datetime | None
    published_at: datetime | None
    announcement_message_id: int | None
    tables: tuple[TableView, ...]
    report: DrawReportView | None
    direct_finalists: tuple[str, ...] = ()
    final_seats: tuple[FinalSeatView, ...] = ()
    declined: tuple[str, ...] = ()
    unfilled: int = 0
    club_pairs: tuple[int, int] | None = None  # semifinals: same-club pairs after / before the band shuffle

    def table_of(self, registration_id: int) -> TableView | None:
        for table in self.tables:
            if any(s.registration_id == registration_id for s in table.seats):
                return table
        return None


@dataclass(frozen=True, slots=True)
class AdjustmentView:
    """A hand change (BOT-TAB-2): the round after it and the criteria before → after."""

    round: RoundView
    before: Mapping[str, int]
    after: Mapping[str, int]
    worse: bool
    players: tuple[str, ...]
    tables: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PublishJob:
    """What the cog must do in Discord after the database says "published" (or what is left to retry)."""

    round: RoundView
    channel_id: int | None  # the server's announcement channel, None: the invoking channel
    first_time: bool


@dataclass(frozen=True, slots=True)
class MyTable:
    round: RoundView
    table: TableView
    registration_id: int


def new_seed() -> int:
    """The one place a draw's randomness comes from: the operating system, once; then it is stored."""
    return random.SystemRandom().getrandbits(SEED_BITS)


# --------------------------------------------------------------------------------------------------- helpers


def _engine_error(exc: TournamentError) -> Conflict:
    if exc.code in ("too_few_players_for_tables", "firk_sizes_impossible", "too_few_ranked_players"):
        value = (
            exc.value if isinstance(exc.value, int) else exc.value.get("have", 0) if isinstance(exc.value, dict) else 0
        )
        return Conflict("error.round_too_few_players", count=value)
    if exc.code == "unequal_teams" and isinstance(exc.value, dict):
        counts = ", ".join(f"{team}: {n}" for team, n in sorted(exc.value.items()))
        return Conflict("error.round_unequal_teams", counts=counts[:300])
    if exc.code == "player_without_team":
        return Conflict("error.round_player_without_team")
    if exc.code == "firk_sit_out_not_supported":
        return Conflict("error.round_firk_sit_out")
    return Conflict("error.round_engine", code=exc.code, value=str(exc.value)[:120])


def _rules(t: Tournament) -> TournamentRules:
    return load_ruleset(t.preset, t.overrides or None).tournament


def _closed_or_published(r: Round) -> bool:
    return r.status in (RoundStatus.PUBLISHED.value, RoundStatus.CLOSED.value)


def _pairs_of_groups(groups: Mapping[str, list[int]]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for members in groups.values():
        ms = sorted(members)
        out += [(a, b) for i, a in enumerate(ms) for b in ms[i + 1 :]]
    return tuple(out)


def _player_key(name: str) -> str:
    return " ".join(name.split()).lower()


class RoundService(BaseService):
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime],
        seed_source: Callable[[], int] = new_seed,
    ) -> None:
        super().__init__(sessionmaker, clock)
        # Where draw seeds come from: the OS by default; the demo and tests inject a seeded source.
        self._seed_source = seed_source

    # ------------------------------------------------------------------------------------- reading helpers

    async def _config_and_tournament(self, session: AsyncSession, actor: Actor, name: str) -> Tournament:
        config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
        require(actor, config, StaffRole.ORGANIZER)
        return await tournament_or_404(session, actor.guild_id, name)

    async def _tables_of(
        self, session: AsyncSession, guild_id: int, round_ids: Sequence[int]
    ) -> tuple[dict[int, list[GameTable]], dict[int, list[Seat]]]:
        tables = await repo.list_tables_for_rounds(session=session, guild_id=guild_id, round_ids=round_ids)
        by_round: dict[int, list[GameTable]] = defaultdict(list)
        for gt in tables:
            by_round[gt.round_id].append(gt)
        seats = await repo.list_seats_for_tables(
            session=session, guild_id=guild_id, table_ids=[gt.id for gt in tables if gt.id is not None]
        )
        by_table: dict[int, list[Seat]] = defaultdict(list)
        for s in seats:
            by_table[s.table_id].append(s)
        return by_round, by_table

    async def _view(self, session: AsyncSession, t: Tournament, r: Round) -> RoundView:
        assert r.id is not None and t.id is not None
        by_round, by_table = await self._tables_of(session, t.guild_id, [r.id])
        reg_ids = sorted({s.registration_id for seats in by_table.values() for s in seats})
        report = dict(r.draw_report or {})
        extra_ids = [int(x) for x in report.get("declined", [])]
        for group in report.get("groups", []):
            if group.get("direct_finalist") is not None:
                extra_ids.append(int(group["direct_finalist"]))
        regs = await repo.registrations_by_ids(session=session, guild_id=t.guild_id, ids=[*reg_ids, *extra_ids])
        group_of: dict[int, str] = {}
        for group in report.get("groups", []):
            for number in group.get("tables", []):
                group_of[int(number)] = str(group.get("label"))
        tables: list[TableView] = []
        for gt in by_round.get(r.id, []):
            assert gt.id is not None
            seats = tuple(
                SeatView(
                    s.registration_id,
                    regs[s.registration_id].user_id,
                    regs[s.registration_id].display_name,
                    regs[s.registration_id].club,
                    s.position,
                )
                for s in sorted(by_table.get(gt.id, []), key=lambda s: s.position)
            )
            label = group_of.get(gt.number)
            tables.append(
                TableView(gt.number, seats, gt.size, gt.thread_id, label if label and label != "all" else None)
            )

        def name(rid: Any) -> str:
            reg = regs.get(int(rid))
            return reg.display_name if reg else str(rid)

        final_seats = tuple(
            FinalSeatView(
                name(s["player"]),
                str(s["source"]),
                s.get("semifinal_table"),
                s.get("semifinal_place"),
                s.get("replaces_table"),
                str(group.get("label")) if len(report.get("groups", [])) > 1 else None,
            )
            for group in report.get("groups", [])
            for s in group.get("seats", [])
        )
        directs = tuple(
            name(g["direct_finalist"]) for g in report.get("groups", []) if g.get("direct_finalist") is not None
        )
        return RoundView(
            tournament_id=t.id,
            tournament_name=t.name,
            game=t.game,
            round_id=r.id,
            number=r.number,
            kind=r.kind,
            status=r.status,
            seed=r.draw_seed,
            scheduled_start=r.scheduled_start,
            published_at=r.published_at,
            announcement_message_id=r.announcement_message_id,
            tables=tuple(tables),
            report=_report_view(report, r.draw_seed) if "criteria" in report else None,
            direct_finalists=directs if r.kind == RoundKind.SEMIFINAL.value else (),
            final_seats=final_seats if r.kind == RoundKind.FINAL.value else (),
            declined=tuple(name(x) for x in report.get("declined", [])),
            unfilled=sum(int(g.get("unfilled", 0)) for g in report.get("groups", [])),
            club_pairs=(
                sum(int(g.get("club_pairs", 0)) for g in report["groups"]),
                sum(int(g.get("club_pairs_plain", 0)) for g in report["groups"]),
            )
            if r.kind == RoundKind.SEMIFINAL.value and report.get("groups")
            else None,
        )

    async def _participants(self, session: AsyncSession, t: Tournament, round_row: Round | None) -> list[Registration]:
        """Validated players (registered ones when nobody was validated), minus forfeits of this round."""
        assert t.id is not None
        regs = await repo.list_registrations(session=session, guild_id=t.guild_id, tournament_id=t.id)
        validated = [r for r in regs if r.status == RegistrationStatus.VALIDATED.value]
        pool = validated or [r for r in regs if r.status == RegistrationStatus.REGISTERED.value]
        if round_row is not None and round_row.id is not None:
            checkins = await repo.list_checkins(session=session, guild_id=t.guild_id, round_id=round_row.id)
            out = {c.registration_id for c in checkins if c.status == CheckInStatus.FORFEIT.value}
            pool = [r for r in pool if r.id not in out]
        return sorted(pool, key=lambda r: r.id or 0)

    async def _history(
        self, session: AsyncSession, t: Tournament, rounds: Sequence[Round], before: int, large: int
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]:
        """Earlier qualifying rounds: every table (repeat pairs), the last round's winners (TableResult rank 1)
        and its 5-player-table players (TOUR-R2-1); also how many of the last round's tables lack results."""
        earlier = [r for r in rounds if r.kind == RoundKind.QUALIFYING.value and r.number < before and r.id]
        if not earlier:
            return (), (), (), 0
        by_round, by_table = await self._tables_of(session, t.guild_id, [r.id for r in earlier if r.id])
        previous: list[tuple[int, ...]] = []
        for r in earlier:
            for gt in by_round.get(r.id or 0, []):
                previous.append(tuple(s.registration_id for s in by_table.get(gt.id or 0, [])))
        last = earlier[-1]
        last_tables = by_round.get(last.id or 0, [])
        results = await repo.list_results_for_tables(
            session=session, guild_id=t.guild_id, table_ids=[gt.id for gt in last_tables if gt.id is not None]
        )
        winners = tuple(sorted({res.registration_id for res in results if res.table_rank == 1}))
        reported = {res.table_id for res in results if res.table_rank is not None}
        missing = sum(1 for gt in last_tables if gt.id not in reported)
        five = tuple(
            sorted(
                s.registration_id
                for gt in last_tables
                for s in by_table.get(gt.id or 0, [])
                if len(by_table.get(gt.id or 0, [])) >= large
            )
        )
        return tuple(previous), winners, five, missing

    async def _inputs(
        self,
        session: AsyncSession,
        t: Tournament,
        rounds: Sequence[Round],
        number: int,
        players: Sequence[Registration],
    ) -> tuple[DrawRequest, int]:
        """The planner's request for round ``number`` (also the round's published export) and how many tables of
        the previous round still lack a result."""
        rules = _rules(t)
        previous, winners, five, missing = await self._history(session, t, rounds, number, rules.large_table_size)
        families: dict[str, list[int]] = defaultdict(list)
        for r in players:
            if r.family_group and r.id is not None:
                families[r.family_group.strip().lower()].append(r.id)
        ranking: tuple[int, ...] = ()
        if rules.seeded_round1 and number == 1:  # FIRK-SEED-1: the previous tournament's standings
            ranking = tuple(
                sorted((r.id for r in players if r.id and r.previous_rank is not None),
                       key=lambda i: (next(p.previous_rank for p in players if p.id == i) or 0, i))
            )  # fmt: skip
        elif rules.seeded_round1 and previous:  # FIRK §9 last round, reading 4: the standings before this round
            view = await StandingsService(self._sessionmaker, self._clock).compute_in(session, t)
            present = {r.id for r in players}
            ranking = tuple(line.player_id for line in view.lines if line.player_id in present)
        request = DrawRequest(
            preset=t.preset,
            round_no=number,
            players=tuple(Player(r.id, r.club, r.team) for r in players if r.id is not None),
            overrides=dict(t.overrides or {}),
            names={r.id: r.display_name for r in players if r.id is not None},
            previous_tables=previous,
            winners=winners,
            five_table_players=five,
            family_pairs=_pairs_of_groups(families),
            ranking=ranking,
        )
        return request, missing

    async def _store_tables(
        self,
        session: AsyncSession,
        guild_id: int,
        round_id: int,
        tables: Sequence[Sequence[int]],
        *,
        dummy_tables: Sequence[int] = (),
        dummy_size: int | None = None,
    ) -> None:
        for number, players in enumerate(tables, start=1):
            gt = GameTable(
                guild_id=guild_id,
                round_id=round_id,
                number=number,
                size=dummy_size if number in dummy_tables else None,
            )
            session.add(gt)
            await session.flush()
            assert gt.id is not None
            for position, rid in enumerate(players, start=1):
                session.add(Seat(guild_id=guild_id, table_id=gt.id, registration_id=int(rid), position=position))
        await session.flush()

    async def _pick_round(
        self, session: AsyncSession, t: Tournament, number: int | None, statuses: Sequence[str]
    ) -> Round:
        assert t.id is not None
        if number is not None:
            r = await repo.get_round(session=session, guild_id=t.guild_id, tournament_id=t.id, number=number)
            if r is None:
                raise NotFound("error.round_not_found", number=number, tournament=t.name)
            return r
        rounds = await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id)
        chosen = [r for r in rounds if r.status in statuses]
        if chosen:
            return chosen[-1]
        if rounds:
            return rounds[-1]
        raise NotFound("error.round_none", tournament=t.name)

    async def _audit(self, session: AsyncSession, actor: Actor, action: str, r: Round, details: dict[str, Any]) -> None:
        await repo.add_audit(
            session=session,
            guild_id=actor.guild_id,
            actor_id=actor.user_id,
            action=action,
            entity="round",
            entity_id=r.id,
            details=details,
        )

    # ------------------------------------------------------------------------------------ plan and close

    async def plan(self, actor: Actor, *, tournament: str, start: datetime | None = None) -> RoundView:
        """Create the next qualifying round as ``planned`` (or reschedule the planned one), so players can
        check in or forfeit before the draw (BOT-REG-4, BOT-SCH-1); ``start`` is aware UTC."""
        if start is not None and start <= self._clock():
            raise InvalidInput("error.round_start_in_past")
        async with self._sessionmaker() as session, session.begin():
            t = await self._config_and_tournament(session, actor, tournament)
            assert t.id is not None
            rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id))
            if any(r.kind != RoundKind.QUALIFYING.value for r in rounds):
                raise Conflict("error.round_after_finals", tournament=t.name)
            r = next((x for x in rounds if x.status == RoundStatus.PLANNED.value), None)
            if r is None:
                r = Round(
                    guild_id=t.guild_id,
                    tournament_id=t.id,
                    number=max((x.number for x in rounds), default=0) + 1,
                    created_at=self._clock(),
                )
                session.add(r)
            r.scheduled_start = start
            try:
                await session.flush()
            except IntegrityError:
                raise Conflict("error.round_already_drawn", number=r.number, status="planned") from None
            await self._audit(
                session,
                actor,
                "round.plan",
                r,
                {"tournament": t.name, "number": r.number, "start": start.isoformat() if start else None},
            )
            return await self._view(session, t, r)

    async def close(self, actor: Actor, *, tournament: str) -> RoundView:
        """Close the oldest published round once every table has its result (check-ins move to the next)."""
        async with self._sessionmaker() as session, session.begin():
            t = await self._config_and_tournament(session, actor, tournament)
            assert t.id is not None
            rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id))
            r = next((x for x in rounds if x.status == RoundStatus.PUBLISHED.value), None)
            if r is None or r.id is None:
                raise Conflict("error.round_nothing_to_close", tournament=t.name)
            tables = await repo.list_tables(session=session, guild_id=t.guild_id, round_id=r.id)
            results = await repo.list_results_for_tables(
                session=session, guild_id=t.guild_id, table_ids=[gt.id for gt in tables if gt.id is not None]
            )
            reported = {res.table_id for res in results if res.table_rank is not None}
            missing = [f"{r.number}/{gt.number}" for gt in tables if gt.id not in reported]
            if missing:
                raise Conflict("error.round_results_missing", tables=", ".join(missing[:20]))
            r.status = RoundStatus.CLOSED.value
            await session.flush()
            await self._audit(session, actor, "round.close", r, {"tournament": t.name, "number": r.number})
            return await self._view(session, t, r)

    # ------------------------------------------------------------------------------------------- the draw

    async def draw(self, actor: Actor, *, tournament: str, number: int | None = None) -> RoundView:
        """Draw the next qualifying round (organizer): tables and seats stored, status ``drawn`` (BOT-TAB-1)."""
        async with self._sessionmaker() as session, session.begin():
            t = await self._config_and_tournament(session, actor, tournament)
            assert t.id is not None
            rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id))
            if any(r.kind != RoundKind.QUALIFYING.value for r in rounds):
                raise Conflict("error.round_after_finals", tournament=t.name)
            if number is None:
                planned = [r for r in rounds if r.status == RoundStatus.PLANNED.value]
                number = planned[0].number if planned else (rounds[-1].number + 1 if rounds else 1)
            if number < 1 or number > (max((r.number for r in rounds), default=0) + 1):
                raise InvalidInput(
                    "error.round_gap", number=number, next=max((r.number for r in rounds), default=0) + 1
                )
            existing = next((r for r in rounds if r.number == number), None)
            if existing is not None and existing.status != RoundStatus.PLANNED.value:
                raise Conflict("error.round_already_drawn", number=number, status=existing.status)
            before = [r for r in rounds if r.number < number]
            if before and not _closed_or_published(before[-1]):
                raise Conflict("error.round_previous_not_published", number=before[-1].number)
            players = await self._participants(session, t, existing)
            inputs, missing = await self._inputs(session, t, rounds, number, players)
            seed = self._seed_source()
            computed = await self._compute(inputs, seed)
            if existing is None:
                existing = Round(guild_id=t.guild_id, tournament_id=t.id, number=number, created_at=self._clock())
                session.add(existing)
                try:
                    await session.flush()
                except IntegrityError:
                    raise Conflict("error.round_already_drawn", number=number, status="drawn") from None
            assert existing.id is not None
            await self._save_draw(session, t, existing, inputs, computed, seed, missing)
            await self._audit(
                session,
                actor,
                "round.draw",
                existing,
                {"tournament": t.name, "number": number, "seed": seed, "players": len(players)},
            )
            return await self._view(session, t, existing)

    async def redraw(self, actor: Actor, *, tournament: str, number: int | None = None) -> RoundView:
        """Draw a drawn-but-unpublished qualifying round again with a new seed (BOT-TAB-2)."""
        async with self._sessionmaker() as session, session.begin():
            t = await self._config_and_tournament(session, actor, tournament)
            assert t.id is not None
            r = await self._pick_round(session, t, number, (RoundStatus.DRAWN.value,))
            if r.status != RoundStatus.DRAWN.value:
                raise Conflict(
                    "error.round_not_drawn" if r.status == "planned" else "error.round_already_published",
                    number=r.number,
                )
            if r.kind != RoundKind.QUALIFYING.value:
                raise Conflict("error.round_redraw_kind", number=r.number)
            assert r.id is not None
            rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id))
            players = await self._participants(session, t, r)
            inputs, missing = await self._inputs(session, t, rounds, r.number, players)
            old_seed = r.draw_seed
            seed = self._seed_source()
            computed = await self._compute(inputs, seed)
            await repo.delete_round_tables(session=session, guild_id=t.guild_id, round_id=r.id)
            await self._save_draw(session, t, r, inputs, computed, seed, missing)
            await self._audit(
                session,
                actor,
                "round.redraw",
                r,
                {"tournament": t.name, "number": r.number, "old_seed": old_seed, "seed": seed},
            )
            return await self._view(session, t, r)

    async def _compute(self, request: DrawRequest, seed: int) -> PlannedDraw:
        try:
            return await asyncio.to_thread(plan_draw, request, seed)
        except TournamentError as exc:
            raise _engine_error(exc) from None

    async def _save_draw(
        self,
        session: AsyncSession,
        t: Tournament,
        r: Round,
        request: DrawRequest,
        planned: PlannedDraw,
        seed: int,
        missing: int,
    ) -> None:
        number = r.number
        try:
            await self._store_draw(session, t, r, request, planned, seed, missing)
        except IntegrityError:  # a concurrent draw of the same round won the race
            raise Conflict("error.round_already_drawn", number=number, status="drawn") from None

    async def _store_draw(
        self,
        session: AsyncSession,
        t: Tournament,
        r: Round,
        request: DrawRequest,
        planned: PlannedDraw,
        seed: int,
        missing: int,
    ) -> None:
        assert r.id is not None
        rules = _rules(t)
        await self._store_tables(
            session,
            t.guild_id,
            r.id,
            [[int(x) for x in table] for table in planned.tables],
            dummy_tables=planned.dummy_tables,
            dummy_size=rules.table_size,
        )
        report = dict(planned.report)
        report.update(
            {
                "engine": dict(planned.report),
                "tables_drawn": [list(x) for x in planned.tables],
                "current": dict(planned.report["criteria"]),
                "adjustments": [],
                "participants": len(request.players),
                "results_missing": missing,
                "seed": seed,
                "request": request.to_json(),  # the published export: steward draw --seed reproduces the tables
                "special_tables": {str(n): kind for n, kind in planned.special.items()},
            }
        )
        r.kind = RoundKind.QUALIFYING.value
        r.draw_seed = seed
        r.draw_report = report
        r.status = RoundStatus.DRAWN.value
        await session.flush()
        await self._score_sit_out(session, t, r, request, planned, rules)

    async def _score_sit_out(
        self,
        session: AsyncSession,
        t: Tournament,
        r: Round,
        request: DrawRequest,
        planned: PlannedDraw,
        rules: TournamentRules,
    ) -> None:
        """FIRK §9 with 5 present: the 5th sits out and scores 15 if 5th in the general standings, else 1 — the
        result is written (and locked) with the draw, so the standings count it like any other table."""
        number = next((n for n, kind in planned.special.items() if kind == SIT_OUT), None)
        if number is None or r.id is None:
            return
        player = int(planned.tables[number - 1][0])
        view = await StandingsService(self._sessionmaker, self._clock).compute_in(session, t)
        overall = next((line.rank for line in view.lines if line.player_id == player), 0)
        points = firk_sit_out_points(player, overall_rank=overall, cfg=rules.firk).points
        table = next(gt for gt in await repo.list_tables(session=session, guild_id=t.guild_id, round_id=r.id)
                     if gt.number == number)  # fmt: skip
        assert table.id is not None
        now = self._clock()
        session.add(
            TableResult(
                guild_id=t.guild_id,
                table_id=table.id,
                registration_id=player,
                table_points=None,
                table_rank=1,
                tournament_points=points,
                tiebreak={"decided_by": SIT_OUT, "overall_rank": overall},
                signed_at=now,
                locked=True,
            )
        )
        table.locked = True
        table.final_situation = {"kind": SIT_OUT, "input": {"overall_rank": overall, "points": points}}
        table.reported_at = now
        await session.flush()

    async def _request_of(self, session: AsyncSession, t: Tournament, r: Round) -> DrawRequest:
        stored = (r.draw_report or {}).get("request")
        if r.draw_seed is None or r.kind != RoundKind.QUALIFYING.value or not stored:
            raise Conflict("error.round_not_drawn", number=r.number)
        return DrawRequest.from_json(stored)

    def _stored_request(self, r: Round) -> dict[str, Any]:
        stored = (r.draw_report or {}).get("request")
        if not stored or r.status == RoundStatus.PLANNED.value:
            raise Conflict("error.round_not_drawn", number=r.number)
        return dict(stored)

    async def replay_draw(self, guild_id: int, *, tournament: str, number: int) -> tuple[tuple[int, ...], ...]:
        """Re-run the planner with the stored seed on the round's published request: the tables it gives."""
        async with self._sessionmaker() as session:
            t = await tournament_or_404(session, guild_id, tournament)
            r = await self._pick_round(session, t, number, ())
            request = await self._request_of(session, t, r)
            assert r.draw_seed is not None
            planned = await self._compute(request, r.draw_seed)
            return tuple(tuple(int(p) for p in table) for table in planned.tables)

    async def export_inputs(self, guild_id: int, *, tournament: str, number: int) -> dict[str, Any]:
        """A drawn qualifying round's planner request as a ``steward-tournament/1`` document (docs/cli.md):
        ``steward draw --seed <the round's seed>`` on it runs the same planner on the same inputs and prints the
        tables the bot drew — for every preset and round (the document is what the bot drew from)."""
        async with self._sessionmaker() as session:
            t = await tournament_or_404(session, guild_id, tournament)
            r = await self._pick_round(session, t, number, ())
            return self._stored_request(r)

    # ------------------------------------------------------------------------------------------ preview

    async def show(self, actor: Actor, *, tournament: str, number: int | None = None) -> RoundView:
        """A round's tables. Players see published rounds only; organizers also the drawn preview."""
        async with self._sessionmaker() as session:
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            staff = has_role(actor, config, StaffRole.ORGANIZER)
            t = await tournament_or_404(session, actor.guild_id, tournament)
            visible: tuple[str, ...] = (RoundStatus.PUBLISHED.value, RoundStatus.CLOSED.value)
            if staff:
                visible = (RoundStatus.DRAWN.value, *visible)
            r = await self._pick_round(session, t, number, visible)
            if r.status not in visible:
                raise NotFound(
                    "error.round_not_published" if r.status == "drawn" else "error.round_not_drawn", number=r.number
                )
            return await self._view(session, t, r)

    async def my_table(self, actor: Actor, *, tournament: str) -> MyTable:
        """The actor's table in the latest published round of the tournament."""
        async with self._sessionmaker() as session:
            t = await tournament_or_404(session, actor.guild_id, tournament)
            assert t.id is not None
            reg = await repo.get_registration_for_user(
                session=session, guild_id=actor.guild_id, tournament_id=t.id, user_id=actor.user_id
            )
            if reg is None or reg.id is None:
                raise NotFound("error.round_not_registered", tournament=t.name)
            rounds = await repo.list_rounds(session=session, guild_id=actor.guild_id, tournament_id=t.id)
            for r in reversed(rounds):
                if not _closed_or_published(r):
                    continue
                view = await self._view(session, t, r)
                table = view.table_of(reg.id)
                if table is not None:
                    return MyTable(view, table, reg.id)
            raise NotFound("error.round_no_table", tournament=t.name)

    # ------------------------------------------------------------------------------------- hand changes

    async def _drawn_round(self, session: AsyncSession, t: Tournament, number: int | None) -> Round:
        r = await self._pick_round(session, t, number, (RoundStatus.DRAWN.value,))
        if r.status == RoundStatus.PLANNED.value:
            raise Conflict("error.round_not_drawn", number=r.number)
        if r.status != RoundStatus.DRAWN.value:
            raise Conflict("error.round_already_published", number=r.number)
        return r

    async def _seated(
        self, session: AsyncSession, t: Tournament, r: Round
    ) -> tuple[list[GameTable], dict[int, list[Seat]], dict[int, Registration]]:
        assert r.id is not None
        by_round, by_table = await self._tables_of(session, t.guild_id, [r.id])
        tables = by_round.get(r.id, [])
        ids = sorted({s.registration_id for seats in by_table.values() for s in seats})
        regs = await repo.registrations_by_ids(session=session, guild_id=t.guild_id, ids=ids)
        return tables, by_table, regs

    def _find_player(self, regs: Mapping[int, Registration], name: str) -> Registration:
        cleaned = clean_text(name, field="player", max_len=64)
        assert cleaned is not None
        key = _player_key(cleaned)
        for reg in regs.values():
            if _player_key(reg.display_name) == key:
                return reg
        raise InvalidInput("error.round_player_not_seated", name=cleaned)

    async def swap(self, actor: Actor, *, tournament: str, a: str, b: str, number: int | None = None) -> AdjustmentView:
        """Swap two seated players by hand; the reply shows each criterion before → after (BOT-TAB-2)."""
        return await self._adjust(actor, tournament=tournament, number=number, names=(a, b), to_table=None)

    async def move(
        self, actor: Actor, *, tournament: str, player: str, table: int, number: int | None = None
    ) -> AdjustmentView:
        """Move one player to another table (both table sizes change) and show the cost (BOT-TAB-2)."""
        return await self._adjust(actor, tournament=tournament, number=number, names=(player,), to_table=table)

    async def _adjust(
        self, actor: Actor, *, tournament: str, number: int | None, names: tuple[str, ...], to_table: int | None
    ) -> AdjustmentView:
        async with self._sessionmaker() as session, session.begin():
            t = await self._config_and_tournament(session, actor, tournament)
            assert t.id is not None
            r = await self._drawn_round(session, t, number)
            tables, by_table, regs = await self._seated(session, t, r)
            players = [self._find_player(regs, n) for n in names]
            if len(players) == 2 and players[0].id == players[1].id:
                raise InvalidInput("error.round_same_player", name=players[0].display_name)
            current = tuple(
                tuple(s.registration_id for s in sorted(by_table.get(gt.id or 0, []), key=lambda s: s.position))
                for gt in tables
            )
            rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id))
            seated = [regs[i] for i in sorted(regs)]
            inputs, _ = await self._inputs(session, t, rounds, r.number, seated)
            report = dict(r.draw_report or {})
            rules = _rules(t)
            crit = tuple(
                Criterion(c) for c in report.get("criteria_order", [c.value for c in planner_criteria(inputs, rules)])
            )
            ctx = planner_context(inputs, rules)
            ids = [int(p.id or 0) for p in players]
            try:
                if to_table is None:
                    adj = swap_players(current, ids[0], ids[1], ctx, crit)
                else:
                    if not 1 <= to_table <= len(current):
                        raise InvalidInput("error.round_no_such_table", table=to_table, tables=len(current))
                    if current[to_table - 1] and ids[0] in current[to_table - 1]:
                        raise InvalidInput("error.round_already_at_table", name=players[0].display_name, table=to_table)
                    adj = move_player(current, ids[0], to_table, ctx, crit)
            except TournamentError as exc:
                raise _engine_error(exc) from None
            if any(len(x) < rules.min_table_size for x in adj.tables):
                raise InvalidInput("error.round_table_too_small", min=rules.min_table_size)
            touched: list[int] = []
            for gt, (old, new) in zip(tables, zip(current, adj.tables, strict=True), strict=True):
                if old == new:
                    continue
                assert gt.id is not None
                touched.append(gt.number)
                for s in by_table.get(gt.id, []):
                    await session.delete(s)
            await session.flush()
            for gt, (old, new) in zip(tables, zip(current, adj.tables, strict=True), strict=True):
                if old == new:
                    continue
                assert gt.id is not None
                for position, rid in enumerate(new, start=1):
                    session.add(Seat(guild_id=t.guild_id, table_id=gt.id, registration_id=int(rid), position=position))
            change = {
                "kind": "swap" if to_table is None else "move",
                "players": ids,
                "to_table": to_table,
                "before": adj.before,
                "after": adj.after,
                "by": actor.user_id,
            }
            report["current"] = dict(adj.after)
            report["adjustments"] = [*report.get("adjustments", []), change]
            r.draw_report = report
            await session.flush()
            await self._audit(
                session, actor, f"round.{change['kind']}", r, {"tournament": t.name, "number": r.number, **change}
            )
            view = await self._view(session, t, r)
            return AdjustmentView(
                view,
                dict(adj.before),
                dict(adj.after),
                adj.worse,
                tuple(p.display_name for p in players),
                tuple(touched),
            )

    # --------------------------------------------------------------------------------------------- publish

    async def publish(self, actor: Actor, *, tournament: str, number: int | None = None) -> PublishJob:
        """Mark a drawn round published (the database first); the cog then announces it in Discord.

        On a round already published this changes nothing and returns the job again, so the Discord side
        effects that failed (announcement, table threads) can be retried.
        """
        async with self._sessionmaker() as session, session.begin():
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            require(actor, config, StaffRole.ORGANIZER)
            t = await tournament_or_404(session, actor.guild_id, tournament)
            r = await self._pick_round(session, t, number, (RoundStatus.DRAWN.value, RoundStatus.PUBLISHED.value))
            if r.status == RoundStatus.PLANNED.value:
                raise Conflict("error.round_not_drawn", number=r.number)
            if r.status == RoundStatus.CLOSED.value:
                raise Conflict("error.round_closed", number=r.number)
            first = r.status == RoundStatus.DRAWN.value
            if first:
                r.status = RoundStatus.PUBLISHED.value
                r.published_at = self._clock()
                await session.flush()
                await self._audit(
                    session, actor, "round.publish", r, {"tournament": t.name, "number": r.number, "seed": r.draw_seed}
                )
            channel = config.announcement_channel_id if config else None
            return PublishJob(await self._view(session, t, r), channel, first)

    async def record_publication(
        self,
        actor: Actor,
        *,
        round_id: int,
        announcement_message_id: int | None,
        thread_ids: Mapping[int, int],
        failures: Sequence[str] = (),
    ) -> None:
        """Store what the Discord side of a publication achieved: the announcement and each table's thread."""
        async with self._sessionmaker() as session, session.begin():
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            require(actor, config, StaffRole.ORGANIZER)
            r = await repo.get_round_by_id(session=session, guild_id=actor.guild_id, round_id=round_id)
            if r is None:
                raise NotFound("error.round_none", tournament="?")
            if announcement_message_id is not None:
                r.announcement_message_id = announcement_message_id
            tables = await repo.list_tables(session=session, guild_id=actor.guild_id, round_id=round_id)
            for gt in tables:
                if gt.number in thread_ids:
                    gt.thread_id = thread_ids[gt.number]
            await session.flush()
            await self._audit(
                session,
                actor,
                "round.publish.discord",
                r,
                {
                    "announcement_message_id": announcement_message_id,
                    "threads": {str(k): v for k, v in thread_ids.items()},
                    "failures": list(failures),
                },
            )

    # ---------------------------------------------------------------------------------------- standings

    async def _qualifying_ranking(self, session: AsyncSession, t: Tournament, rules: TournamentRules) -> list[int]:
        """The standings after the qualifying rounds (ARB art. 5: semifinals and the final's recoveries use
        them), active players best first; refused while a published qualifying table has no result.

        The ranking itself is part C's ``StandingsService.compute`` (the tournament engine's standings with
        the preset's tie-breakers over the stored TableResults of the qualifying rounds).
        """
        assert t.id is not None
        rounds = [
            r
            for r in await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id)
            if r.kind == RoundKind.QUALIFYING.value and _closed_or_published(r) and r.id
        ]
        if not rounds:
            raise Conflict("error.round_no_results", tournament=t.name)
        by_round, _ = await self._tables_of(session, t.guild_id, [r.id for r in rounds if r.id])
        tables = [gt for r in rounds for gt in by_round.get(r.id or 0, [])]
        results = await repo.list_results_for_tables(
            session=session, guild_id=t.guild_id, table_ids=[gt.id for gt in tables if gt.id is not None]
        )
        reported = {res.table_id for res in results if res.table_rank is not None}
        missing = [
            f"{r.number}/{gt.number}" for r in rounds for gt in by_round.get(r.id or 0, []) if gt.id not in reported
        ]
        if missing:
            raise Conflict("error.round_results_missing", tables=", ".join(missing[:20]))
        view = await StandingsService(self._sessionmaker, self._clock).compute(t.guild_id, t.name)
        return [line.player_id for line in view.lines if line.standing == "active"]

    async def ranking(self, guild_id: int, *, tournament: str) -> list[int]:
        """Registration ids of the active players, best first, by the standings after the qualifying rounds."""
        async with self._sessionmaker() as session:
            t = await tournament_or_404(session, guild_id, tournament)
            return await self._qualifying_ranking(session, t, _rules(t))

    # ------------------------------------------------------------------------------------ semifinals/final

    async def seed_semifinals(self, actor: Actor, *, tournament: str, tables: int | None = None) -> RoundView:
        """Semifinal tables from the qualifying standings in bands (TOUR-SF-1), odd/even at 100+ (TOUR-SF-2)."""
        async with self._sessionmaker() as session, session.begin():
            t = await self._config_and_tournament(session, actor, tournament)
            return await self._seed_semifinals(session, actor, t, tables)

    async def _seed_semifinals(
        self, session: AsyncSession, actor: Actor, t: Tournament, tables: int | None
    ) -> RoundView:
        assert t.id is not None
        rules = _rules(t)
        count = tables or rules.semifinal_tables
        if count == 0:
            raise Conflict("error.round_no_semifinals", preset=t.preset)
        if count not in (3, 4):
            raise InvalidInput("error.out_of_range", field="tables", min=3, max=4, value=count)
        rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id))
        if any(r.kind == RoundKind.FINAL.value for r in rounds):
            raise Conflict("error.round_final_exists", tournament=t.name)
        semi = next((r for r in rounds if r.kind == RoundKind.SEMIFINAL.value), None)
        if semi is not None and semi.status != RoundStatus.DRAWN.value:
            raise Conflict("error.round_already_published", number=semi.number)
        pending = [r for r in rounds if r.kind == RoundKind.QUALIFYING.value and not _closed_or_published(r)]
        if pending:
            raise Conflict("error.round_previous_not_published", number=pending[0].number)
        declined = [int(x) for x in (semi.draw_report or {}).get("declined", [])] if semi else []
        ranking = [p for p in await self._qualifying_ranking(session, t, rules) if p not in declined]
        regs = await repo.registrations_by_ids(session=session, guild_id=t.guild_id, ids=ranking)
        clubs: dict[PlayerId, str | None] = {i: regs[i].club for i in ranking}
        seed = self._seed_source()
        request = FinalsRequest("semifinal", t.preset, dict(t.overrides or {}), tuple(ranking), clubs, count)
        try:
            planned_tables, groups = await asyncio.to_thread(plan_semifinals, request, seed)
        except TournamentError as exc:
            raise _engine_error(exc) from None
        all_tables = [tuple(int(p) for p in x) for x in planned_tables]
        if semi is None:
            semi = Round(
                guild_id=t.guild_id,
                tournament_id=t.id,
                number=max((r.number for r in rounds), default=0) + 1,
                kind=RoundKind.SEMIFINAL.value,
                created_at=self._clock(),
            )
            session.add(semi)
            await session.flush()
        else:
            assert semi.id is not None
            await repo.delete_round_tables(session=session, guild_id=t.guild_id, round_id=semi.id)
        assert semi.id is not None
        await self._store_tables(session, t.guild_id, semi.id, all_tables)
        semi.draw_seed = seed
        semi.status = RoundStatus.DRAWN.value
        semi.draw_report = {
            "kind": "semifinal",
            "seed": seed,
            "semifinal_tables": count,
            "ranking": ranking,
            "groups": groups,
            "declined": declined,
            "request": request.to_json(),  # the export: steward draw --seed reproduces these tables
        }
        await session.flush()
        await self._audit(
            session,
            actor,
            "round.semifinals",
            semi,
            {"tournament": t.name, "number": semi.number, "seed": seed, "tables": count, "groups": len(groups)},
        )
        return await self._view(session, t, semi)

    async def compose_final(self, actor: Actor, *, tournament: str) -> RoundView:
        """The final from the semifinal results, with the replacement chain for declines (TOUR-FIN-1)."""
        async with self._sessionmaker() as session, session.begin():
            t = await self._config_and_tournament(session, actor, tournament)
            return await self._compose_final(session, actor, t, add_declined=None)

    async def decline(self, actor: Actor, *, tournament: str, player: str) -> RoundView:
        """A finalist declines: recorded, and the final recomputed with the replacement chain (TOUR-FIN-1).

        Before the semifinals are published, a direct finalist who declines is dropped from the ranking and
        four semifinals are seeded instead (ARB art. 5).
        """
        async with self._sessionmaker() as session, session.begin():
            t = await self._config_and_tournament(session, actor, tournament)
            assert t.id is not None
            rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id))
            semi = next((r for r in rounds if r.kind == RoundKind.SEMIFINAL.value), None)
            final = next((r for r in rounds if r.kind == RoundKind.FINAL.value), None)
            if semi is None:
                raise Conflict("error.round_no_semifinal_round", tournament=t.name)
            _, _, regs = await self._seated(session, t, semi)
            report = dict(semi.draw_report or {})
            directs = [int(g["direct_finalist"]) for g in report.get("groups", []) if g.get("direct_finalist")]
            regs.update(await repo.registrations_by_ids(session=session, guild_id=t.guild_id, ids=directs))
            reg = self._find_player(regs, player)
            assert reg.id is not None
            if final is None and semi.status == RoundStatus.DRAWN.value and reg.id in directs:
                report["declined"] = [*report.get("declined", []), reg.id]
                semi.draw_report = report
                await session.flush()
                await self._audit(
                    session,
                    actor,
                    "round.decline",
                    semi,
                    {"tournament": t.name, "player": reg.id, "before_semifinals": True},
                )
                return await self._seed_semifinals(session, actor, t, 4)
            return await self._compose_final(session, actor, t, add_declined=reg.id)

    async def _compose_final(
        self, session: AsyncSession, actor: Actor, t: Tournament, *, add_declined: int | None
    ) -> RoundView:
        assert t.id is not None
        rules = _rules(t)
        rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id))
        semi = next((r for r in rounds if r.kind == RoundKind.SEMIFINAL.value), None)
        final = next((r for r in rounds if r.kind == RoundKind.FINAL.value), None)
        if semi is None:
            raise Conflict("error.round_no_semifinal_round", tournament=t.name)
        if not _closed_or_published(semi):
            raise Conflict("error.round_previous_not_published", number=semi.number)
        if final is not None and final.status != RoundStatus.DRAWN.value:
            raise Conflict("error.round_already_published", number=final.number)
        if final is None and add_declined is not None:
            raise Conflict("error.round_no_final", tournament=t.name)
        assert semi.id is not None
        by_round, by_table = await self._tables_of(session, t.guild_id, [semi.id])
        semi_tables = by_round.get(semi.id, [])
        results = await repo.list_results_for_tables(
            session=session, guild_id=t.guild_id, table_ids=[gt.id for gt in semi_tables if gt.id is not None]
        )
        ranks: dict[int, dict[int, int]] = defaultdict(dict)
        for res in results:
            if res.table_rank is not None:
                ranks[res.table_id][res.registration_id] = res.table_rank
        missing = [
            str(gt.number) for gt in semi_tables if len(ranks.get(gt.id or 0, {})) < len(by_table.get(gt.id or 0, []))
        ]
        if missing:
            raise Conflict("error.round_results_missing", tables=", ".join(missing))
        orders: dict[int, list[int]] = {}
        for gt in semi_tables:
            seats = sorted(by_table.get(gt.id or 0, []), key=lambda s: s.position)
            r_of = ranks[gt.id or 0]
            orders[gt.number] = [
                s.registration_id for s in sorted(seats, key=lambda s: (r_of[s.registration_id], s.position))
            ]
        semi_report = dict(semi.draw_report or {})
        final_report = dict(final.draw_report or {}) if final else {}
        declined = [int(x) for x in final_report.get("declined", [])]
        if add_declined is not None:
            semi_players = {p for o in orders.values() for p in o} | {
                int(g["direct_finalist"]) for g in semi_report.get("groups", []) if g.get("direct_finalist")
            }
            if add_declined not in semi_players:
                raise InvalidInput("error.round_not_finalist")
            if add_declined in declined:
                raise Conflict("error.round_already_declined")
            declined.append(add_declined)
        standings = await self._qualifying_ranking(session, t, rules)
        request = FinalsRequest(
            "final",
            t.preset,
            dict(t.overrides or {}),
            ranking=tuple(standings),
            groups=tuple(
                {
                    "label": group.get("label", "all"),
                    "tables": [int(n) for n in group.get("tables", [])],
                    "orders": [orders[int(n)] for n in group.get("tables", [])],
                    "direct_finalist": group.get("direct_finalist"),
                }
                for group in semi_report.get("groups", []) or [{"label": "all", "tables": sorted(orders)}]
            ),
            declined=tuple(declined),
        )
        planned_final, groups = plan_final(request)
        final_tables = [tuple(int(p) for p in x) for x in planned_final]
        if any(not x for x in final_tables):
            raise Conflict("error.round_final_empty")
        if final is None:
            final = Round(
                guild_id=t.guild_id,
                tournament_id=t.id,
                number=max((r.number for r in rounds), default=0) + 1,
                kind=RoundKind.FINAL.value,
                created_at=self._clock(),
            )
            session.add(final)
            await session.flush()
        else:
            assert final.id is not None
            await repo.delete_round_tables(session=session, guild_id=t.guild_id, round_id=final.id)
        assert final.id is not None
        await self._store_tables(session, t.guild_id, final.id, final_tables)
        final.status = RoundStatus.DRAWN.value
        final.draw_report = {
            "kind": "final",
            "groups": groups,
            "declined": declined,
            "standings_after_qualifying": standings,
            "request": request.to_json(),
        }
        await session.flush()
        await self._audit(
            session,
            actor,
            "round.decline" if add_declined is not None else "round.final",
            final,
            {"tournament": t.name, "number": final.number, "declined": declined, "player": add_declined},
        )
        return await self._view(session, t, final)


def _report_view(report: Mapping[str, Any], seed: int | None) -> DrawReportView:
    order = list(report.get("criteria_order") or list(report.get("criteria", {})))
    current = dict(report.get("current") or report.get("criteria") or {})
    bound = dict(report.get("lower_bound") or {})
    engine = dict(report.get("engine") or report)
    lines = tuple(CriterionLine(c, int(current.get(c, 0)), int(bound.get(c, 0))) for c in order)
    optimal = all(line.value <= line.lower_bound for line in lines) or (
        engine.get("optimality") == Optimality.PROVEN_BY_SEARCH.value and current == dict(engine.get("criteria", {}))
    )
    return DrawReportView(
        kind=str(report.get("kind", "")),
        criteria=lines,
        optimality=str(engine.get("optimality", "")),
        provably_optimal=bool(optimal),
        seed=seed if seed is not None else report.get("seed"),
        adjustments=len(report.get("adjustments", [])),
        notes=tuple(str(n) for n in report.get("notes", [])),
    )
