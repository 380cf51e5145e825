"""Shared reading helpers of the rounds use cases (one session each; nothing here commits)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db import repo
from bot.db.documents import DrawDocument
from bot.db.models import (
    CheckInStatus,
    GameTable,
    Registration,
    RegistrationStatus,
    Round,
    RoundKind,
    RoundStatus,
    Seat,
    Tournament,
)
from bot.errors import Conflict, InvalidInput, NotFound
from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.model import Player, TournamentError
from bot.rules.tournament.planner import (
    DrawRequest,
)
from bot.services._base import BaseService, clean_text, tournament_or_404
from bot.services.access import Actor, StaffRole, require
from bot.services.rounds._reading import tables_of
from bot.services.rounds.knockout import knockout_advancing, knockout_refusal, knockout_view
from bot.services.rounds.views import (
    CutView,
    FinalSeatView,
    KnockoutView,
    RoundView,
    SeatView,
    TableView,
    _report_view,
    new_seed,
)
from bot.services.standings import StandingsService
from bot.workers import Workers

# --------------------------------------------------------------------------------------------------- helpers


def _engine_error(exc: TournamentError) -> Conflict:
    if exc.code == "firk_sizes_impossible":
        return Conflict("error.round_firk_cannot_seat", count=exc.value)
    if exc.code in ("too_few_players_for_tables", "too_few_ranked_players"):
        value = (
            exc.value if isinstance(exc.value, int) else exc.value.get("have", 0) if isinstance(exc.value, dict) else 0
        )
        return Conflict("error.round_too_few_players", count=value)
    if exc.code == "team_larger_than_tables" and isinstance(exc.value, dict):
        counts = ", ".join(f"{team}: {n}" for team, n in sorted(exc.value["teams"].items()))
        return Conflict("error.round_team_larger_than_tables", counts=counts[:300], tables=exc.value["tables"])
    if exc.code == "player_without_team":
        return Conflict("error.round_player_without_team")
    if exc.code == "no_knockout_plan" and isinstance(exc.value, dict):
        return Conflict("error.knockout_no_plan", **knockout_refusal(exc.value))
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


class RoundBase(BaseService):
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime],
        seed_source: Callable[[], int] = new_seed,
        workers: Workers | None = None,
    ) -> None:
        super().__init__(sessionmaker, clock, workers)
        # Where draw seeds come from: the OS by default; the demo and tests inject a seeded source.
        self._seed_source = seed_source

    # ------------------------------------------------------------------------------------- reading helpers

    async def _config_and_tournament(self, session: AsyncSession, actor: Actor, name: str) -> Tournament:
        config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
        require(actor, config, StaffRole.ORGANIZER)
        return await tournament_or_404(session, actor.guild_id, name)

    async def _view(self, session: AsyncSession, t: Tournament, r: Round, only: GameTable | None = None) -> RoundView:
        """The round as users see it; with ``only``, that one table (what /my-table needs: loading every seat and
        registration of a 300-player round for each of 300 simultaneous calls was issue 15's defect 7)."""
        assert r.id is not None and t.id is not None
        if only is not None and only.id is not None:
            seats_of = await repo.list_seats_for_tables(session=session, guild_id=t.guild_id, table_ids=[only.id])
            by_round: dict[int, list[GameTable]] = {r.id: [only]}
            by_table: dict[int, list[Seat]] = {only.id: list(seats_of)}
        else:
            by_round, by_table = await tables_of(session, t.guild_id, [r.id])
        reg_ids = sorted({s.registration_id for seats in by_table.values() for s in seats})
        doc = DrawDocument.from_json(r.draw_report)
        cut_ids = [int(p) for p in (doc.cut or {}).get("tied", [])]
        extra_ids = [*doc.declined, *doc.direct_finalists, *cut_ids]
        regs = await repo.registrations_by_ids(session=session, guild_id=t.guild_id, ids=[*reg_ids, *extra_ids])
        group_of = {number: group.label for group in doc.groups for number in group.tables}
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
                    regs[s.registration_id].team,
                )
                for s in sorted(by_table.get(gt.id, []), key=lambda s: s.position)
            )
            label = group_of.get(gt.number)
            tables.append(
                TableView(
                    gt.number,
                    seats,
                    gt.size,
                    gt.thread_id,
                    label if label and label != "all" else None,
                    special=doc.special_tables.get(gt.number),
                    note=gt.note,
                    thread_requested_at=gt.thread_requested_at,
                    thread_pinged=gt.thread_pinged,
                )
            )

        def name(rid: Any) -> str:
            reg = regs.get(int(rid))
            return reg.display_name if reg else str(rid)

        final_seats = tuple(
            FinalSeatView(
                name(s.player),
                s.source,
                s.semifinal_table,
                s.semifinal_place,
                s.replaces_table,
                group.label if len(doc.groups) > 1 else None,
            )
            for group in doc.groups
            for s in group.seats
        )
        directs = tuple(name(p) for p in doc.direct_finalists)
        knockout: KnockoutView | None = None
        stored = (doc.engine.extra.get("knockout") if doc.engine is not None else None) or {}
        if stored.get("plan"):  # a drawn knockout round: the plan it was drawn with
            plan = tuple((int(k["players"]), tuple(int(x) for x in k["tables"])) for k in stored["plan"])
            knockout = KnockoutView(plan[0][0], plan, final_size=int(stored.get("final_size", 0)))
        elif r.status == RoundStatus.PLANNED.value and r.kind == RoundKind.QUALIFYING.value:
            rules = _rules(t)
            if rules.knockout:
                try:
                    knockout = knockout_view(rules, len(await self._participants(session, t, r)))
                except Conflict:  # the previous round's results are not all in yet
                    knockout = None
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
            discord_event_id=r.discord_event_id,
            tables=tuple(tables),
            report=_report_view(doc, r.draw_seed) if doc.engine is not None else None,
            direct_finalists=directs if r.kind == RoundKind.SEMIFINAL.value else (),
            final_seats=final_seats if r.kind == RoundKind.FINAL.value else (),
            declined=tuple(name(x) for x in doc.declined),
            unfilled=sum(g.unfilled for g in doc.groups),
            cut=_cut_view(doc.cut, name) if r.kind == RoundKind.SEMIFINAL.value and doc.cut else None,
            club_pairs=(sum(g.club_pairs for g in doc.groups), sum(g.club_pairs_plain for g in doc.groups))
            if r.kind == RoundKind.SEMIFINAL.value and doc.groups
            else None,
            knockout=knockout,
        )

    async def _participants(self, session: AsyncSession, t: Tournament, round_row: Round | None) -> list[Registration]:
        """Validated players (registered ones when nobody was validated), minus forfeits of this round. In a knockout
        (NP-FMT-1) from round 2 on: the winner of each table of the previous round."""
        assert t.id is not None
        regs = await repo.list_registrations(session=session, guild_id=t.guild_id, tournament_id=t.id)
        validated = [r for r in regs if r.status == RegistrationStatus.VALIDATED.value]
        pool = validated or [r for r in regs if r.status == RegistrationStatus.REGISTERED.value]
        out: set[int] = set()
        if round_row is not None and round_row.id is not None:
            checkins = await repo.list_checkins(session=session, guild_id=t.guild_id, round_id=round_row.id)
            out = {c.registration_id for c in checkins if c.status == CheckInStatus.FORFEIT.value}
            pool = [r for r in pool if r.id not in out]
        if _rules(t).knockout:
            number = round_row.number if round_row is not None else None
            advancing = await knockout_advancing(session, t, regs, number, out)
            if advancing is not None:
                pool = advancing
        return sorted(pool, key=lambda r: r.id or 0)

    async def _history(
        self, session: AsyncSession, t: Tournament, rounds: Sequence[Round], before: int, large: int
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]:
        """Earlier qualifying rounds, the whole history (TOUR-R2-1 from round 2 on, issue 17): every table (repeat
        pairs), every table's winner (TableResult rank 1) and every 5-player-table player of every earlier round;
        also how many of the last round's tables lack results."""
        earlier = [r for r in rounds if r.kind == RoundKind.QUALIFYING.value and r.number < before and r.id]
        if not earlier:
            return (), (), (), 0
        by_round, by_table = await tables_of(session, t.guild_id, [r.id for r in earlier if r.id])
        previous: list[tuple[int, ...]] = []
        for r in earlier:
            for gt in by_round.get(r.id or 0, []):
                previous.append(tuple(s.registration_id for s in by_table.get(gt.id or 0, [])))
        every_table = [gt for r in earlier for gt in by_round.get(r.id or 0, [])]
        results = await repo.list_results_for_tables(
            session=session, guild_id=t.guild_id, table_ids=[gt.id for gt in every_table if gt.id is not None]
        )
        winners = tuple(sorted({res.registration_id for res in results if res.table_rank == 1}))
        reported = {res.table_id for res in results if res.table_rank is not None}
        missing = sum(1 for gt in by_round.get(earlier[-1].id or 0, []) if gt.id not in reported)
        five = tuple(
            sorted(
                {
                    s.registration_id
                    for gt in every_table
                    for s in by_table.get(gt.id or 0, [])
                    if len(by_table.get(gt.id or 0, [])) >= large
                }
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
        ranks: tuple[int, ...] = ()
        if rules.seeded_round1 and number == 1:  # FIRK-SEED-1: the previous tournament's standings
            ranking = tuple(
                sorted((r.id for r in players if r.id and r.previous_rank is not None),
                       key=lambda i: (next(p.previous_rank for p in players if p.id == i) or 0, i))
            )  # fmt: skip
        elif (rules.seeded_round1 or rules.later_round_tables == "standings") and previous:
            # FIRK §9 last round, reading 8 (seated by rank), reading 4: the standings before this round, with
            # each line's rank so that the planner sees who is level
            view = await StandingsService(self._sessionmaker, self._clock).compute_in(session, t, before_round=number)
            present = {r.id for r in players}
            lines = [line for line in view.lines if line.player_id in present]
            ranking = tuple(line.player_id for line in lines)
            ranks = tuple(line.rank for line in lines)
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
            ranks=ranks,
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

    # ---------------------------------------------------------------------------------------- standings

    async def _qualifying_ranking(self, session: AsyncSession, t: Tournament, rules: TournamentRules) -> list[int]:
        return [p for p, _ in await self._qualifying_ranks(session, t, rules)]

    async def _qualifying_ranks(
        self, session: AsyncSession, t: Tournament, rules: TournamentRules
    ) -> list[tuple[int, int]]:
        """The standings after the qualifying rounds (ARB art. 5: semifinals and the final's recoveries use
        them), active players best first; refused while a published qualifying table has no result.

        The ranking itself is ``StandingsService.compute_in`` (the tournament engine's standings with
        the preset's tie-breakers over the stored TableResults of the qualifying rounds); with each player, their
        rank — players the tie-breakers leave level share it (a tie across a cut is decided by the semifinals' draw).
        """
        assert t.id is not None
        rounds = [
            r
            for r in await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id)
            if r.kind == RoundKind.QUALIFYING.value and _closed_or_published(r) and r.id
        ]
        if not rounds:
            raise Conflict("error.round_no_results", tournament=t.name)
        by_round, _ = await tables_of(session, t.guild_id, [r.id for r in rounds if r.id])
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
        view = await StandingsService(self._sessionmaker, self._clock).compute_in(session, t)
        return [(line.player_id, line.rank) for line in view.lines if line.standing == "active"]

    async def ranking(self, guild_id: int, *, tournament: str) -> list[int]:
        """Registration ids of the active players, best first, by the standings after the qualifying rounds."""
        async with self._sessionmaker() as session:
            t = await tournament_or_404(session, guild_id, tournament)
            return await self._qualifying_ranking(session, t, _rules(t))

    async def _seated(
        self, session: AsyncSession, t: Tournament, r: Round
    ) -> tuple[list[GameTable], dict[int, list[Seat]], dict[int, Registration]]:
        assert r.id is not None
        by_round, by_table = await tables_of(session, t.guild_id, [r.id])
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


def _cut_view(cut: Mapping[str, Any], name: Callable[[Any], str]) -> CutView:
    seed = cut.get("seed")
    return CutView(
        rank=int(cut["rank"]),
        tied=tuple(name(p) for p in cut["tied"]),
        seats=int(cut["seats"]),
        qualified=tuple(name(p) for p in cut["qualified"]),
        method=str(cut["method"]),
        seed=None if seed is None else int(seed),
    )
