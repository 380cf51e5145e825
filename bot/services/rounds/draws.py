"""Draws: plan, draw, redraw, replay, export, show, my table, close.

BOT-TAB-1, TOUR-SIZE-1, TOUR-R1-1, TOUR-R2-1, FIRK-SIZE-1: the planner (bot.rules.tournament.planner) decides.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from bot.db.documents import DrawDocument, EngineReport, TableSituation, TieBreakNote
from bot.db.models import Round, RoundKind, RoundStatus, TableResult
from bot.errors import Conflict, InvalidInput, NotFound
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.planner import SIT_OUT, DrawRequest, PlannedDraw, plan_draw, special_table_points
from bot.services._base import UseCase, id_of
from bot.services.access import Actor, StaffRole
from bot.services.rounds.reading import (
    closed_or_published,
    draw_inputs,
    engine_error,
    participants,
    pick_round,
    round_view,
)
from bot.services.rounds.seeded import SeededRoundsService
from bot.services.rounds.views import MyTable, RoundView
from bot.services.schedules import plan_round_reminders, planned_round, server_instant


class RoundDraws(SeededRoundsService):
    """The qualifying rounds' draws: plan a round, draw it (and again), replay or export a draw, show a round or
    one's table, close a round."""

    # ------------------------------------------------------------------------------------ plan and close

    async def plan(self, actor: Actor, *, tournament: str, start: datetime | None = None) -> RoundView:
        """Create the next qualifying round as ``planned`` (or find the planned one), so players can check in or
        forfeit before the draw (BOT-REG-4). ``/round plan`` gives no ``start`` (a round's start is set with
        ``/schedule round``): a start already set is kept. The demo and the command line may give one (a naive
        ``start`` is the server's wall clock); its reminders are planned with it (BOT-SCH-1)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            t = uc.tournament
            if start is not None:  # naive: the server's wall clock
                start = server_instant(uc.config, start)
                if start <= uc.clock():
                    raise InvalidInput("error.round_start_in_past")
            r = await planned_round(uc, uc.clock())
            if start is not None:
                r.scheduled_start = start
                await uc.flush()
                await plan_round_reminders(uc, r, uc.clock())
            await uc.audit("round.plan", "round", r.id, tournament=t.name, number=r.number,
                           start=start.isoformat() if start else None)  # fmt: skip
            return await round_view(uc, r)

    async def close(self, actor: Actor, *, tournament: str) -> RoundView:
        """Close the oldest published round once every table has its result (check-ins move to the next)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            t = uc.tournament
            rounds = list(await uc.rounds.list_rounds(tournament_id=uc.tournament_id))
            r = next((x for x in rounds if x.status == RoundStatus.PUBLISHED), None)
            if r is None:
                raise Conflict("error.round_nothing_to_close", tournament=t.name)
            tables = await uc.rounds.list_tables(round_id=id_of(r))
            results = await uc.rounds.list_results_for_tables(table_ids=[id_of(gt) for gt in tables])
            reported = {res.table_id for res in results if res.table_rank is not None}
            missing = [f"{r.number}/{gt.number}" for gt in tables if gt.id not in reported]
            if missing:
                raise Conflict("error.round_results_missing", tables=", ".join(missing[:20]))
            r.status = RoundStatus.CLOSED
            await uc.flush()
            await uc.audit("round.close", "round", r.id, tournament=t.name, number=r.number)
            return await round_view(uc, r)

    # ------------------------------------------------------------------------------------------- the draw

    async def draw(self, actor: Actor, *, tournament: str, number: int | None = None) -> RoundView:
        """Draw the next qualifying round (organizer): tables and seats stored, status ``drawn`` (BOT-TAB-1)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            t, tid = uc.tournament, uc.tournament_id
            rounds = list(await uc.rounds.list_rounds(tournament_id=tid))
            if any(r.kind != RoundKind.QUALIFYING for r in rounds):
                raise Conflict("error.round_after_finals", tournament=t.name)
            if number is None:
                planned = [r for r in rounds if r.status == RoundStatus.PLANNED]
                number = planned[0].number if planned else (rounds[-1].number + 1 if rounds else 1)
            if number < 1 or number > (max((r.number for r in rounds), default=0) + 1):
                raise InvalidInput(
                    "error.round_gap", number=number, next=max((r.number for r in rounds), default=0) + 1
                )
            existing = next((r for r in rounds if r.number == number), None)
            if existing is not None and existing.status != RoundStatus.PLANNED:
                raise Conflict("error.round_already_drawn", number=number, status=existing.status)
            before = [r for r in rounds if r.number < number]
            if before and not closed_or_published(before[-1]):
                raise Conflict("error.round_previous_not_published", number=before[-1].number)
            players = await participants(uc, existing)
            inputs, missing = await draw_inputs(uc, rounds, number, players, self._standings)
            seed = self._seed_source()
            computed = await self._compute(inputs, seed)
            if existing is None:
                existing = Round(guild_id=t.guild_id, tournament_id=tid, number=number, created_at=uc.clock())
                try:
                    await uc.insert(existing)
                except IntegrityError:
                    raise Conflict("error.round_already_drawn", number=number, status="drawn") from None
            await self._save_draw(uc, existing, inputs, computed, seed, missing)
            await uc.audit("round.draw", "round", existing.id, tournament=t.name, number=number, seed=seed,
                           players=len(players))  # fmt: skip
            return await round_view(uc, existing)

    async def redraw(self, actor: Actor, *, tournament: str, number: int | None = None) -> RoundView:
        """Draw a drawn-but-unpublished qualifying round again with a new seed (BOT-TAB-2).

        Two organizers pressing at once: the tournament's row lock makes them take turns, and the second is refused
        because the draw it meant to replace is gone — nobody is left looking at tables that
        no longer exist."""
        async with self.run(actor.guild_id, tournament=tournament) as seen_uc:  # what the presser saw, unlocked
            seen = {r.id: r.draw_seed for r in await seen_uc.rounds.list_rounds(tournament_id=seen_uc.tournament_id)}
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament, lock=True) as uc:
            t, tid = uc.tournament, uc.tournament_id
            r = await pick_round(uc, number, (RoundStatus.DRAWN,))
            if r.id in seen and seen[r.id] != r.draw_seed:
                raise Conflict("error.round_changed_meanwhile", number=r.number)
            if r.status != RoundStatus.DRAWN:
                raise Conflict(
                    "error.round_not_drawn" if r.status == RoundStatus.PLANNED else "error.round_already_published",
                    number=r.number,
                )
            if r.kind != RoundKind.QUALIFYING:
                raise Conflict("error.round_redraw_kind", number=r.number)
            rounds = list(await uc.rounds.list_rounds(tournament_id=tid))
            players = await participants(uc, r)
            inputs, missing = await draw_inputs(uc, rounds, r.number, players, self._standings)
            old_seed = r.draw_seed
            seed = self._seed_source()
            computed = await self._compute(inputs, seed)
            await uc.rounds.delete_round_tables(round_id=id_of(r))
            await self._save_draw(uc, r, inputs, computed, seed, missing)
            await uc.audit("round.redraw", "round", r.id, tournament=t.name, number=r.number, old_seed=old_seed,
                           seed=seed)  # fmt: skip
            return await round_view(uc, r)

    async def _compute(self, request: DrawRequest, seed: int) -> PlannedDraw:
        try:
            return await self._workers.in_transaction(plan_draw, request, seed)
        except TournamentError as exc:
            raise engine_error(exc) from None

    async def _save_draw(
        self, uc: UseCase, r: Round, request: DrawRequest, planned: PlannedDraw, seed: int, missing: int
    ) -> None:
        number = r.number
        try:
            await self._store_draw(uc, r, request, planned, seed, missing)
        except IntegrityError:  # a concurrent draw of the same round won the race
            raise Conflict("error.round_already_drawn", number=number, status="drawn") from None

    async def _store_draw(
        self, uc: UseCase, r: Round, request: DrawRequest, planned: PlannedDraw, seed: int, missing: int
    ) -> None:
        rules = uc.rules.tournament
        await uc.rounds.add_tables(
            round_id=id_of(r),
            tables=[[int(x) for x in table] for table in planned.tables],
            dummy_tables=planned.dummy_tables,
            dummy_size=rules.table_size,
        )
        engine = EngineReport.from_json(planned.report)
        r.kind = RoundKind.QUALIFYING
        r.draw_seed = seed
        r.draw_report = DrawDocument(
            kind=engine.kind,
            seed=seed,
            request=request.to_json(),  # the published export: steward draw --seed reproduces the tables
            engine=engine,
            tables_drawn=tuple(tuple(int(p) for p in x) for x in planned.tables),
            current=dict(engine.criteria),
            participants=len(request.players),
            results_missing=missing,
            special_tables=dict(planned.special),
        ).to_json()
        r.status = RoundStatus.DRAWN
        await uc.flush()
        await self._score_sit_out(uc, r, planned, rules)

    async def _score_sit_out(self, uc: UseCase, r: Round, planned: PlannedDraw, rules: TournamentRules) -> None:
        """FIRK §9 with 5 present: the 5th sits out and scores 15 if 5th in the general standings, else 1 — the
        result is written (and locked) with the draw, so the standings count it like any other table. A rank the
        sitter shares with others (level players) holds the places they share: 4th with two more covers the 5th."""
        number = next((n for n, kind in planned.special.items() if kind == SIT_OUT), None)
        if number is None:
            return
        player = int(planned.tables[number - 1][0])
        view = await self._standings.compute_in(uc, before_round=r.number)
        overall = next((line.rank for line in view.lines if line.player_id == player), len(view.lines) + 1)
        shared = sum(1 for line in view.lines if line.rank == overall) or 1
        (points,) = special_table_points(rules, SIT_OUT, 1, overall_rank=overall, shared=shared) or (0.0,)
        entered = {"overall_rank": overall} | ({"shared": shared} if shared > 1 else {})
        table = next(gt for gt in await uc.rounds.list_tables(round_id=id_of(r)) if gt.number == number)
        now = uc.clock()
        uc.add(
            TableResult(
                guild_id=uc.tournament.guild_id,
                table_id=id_of(table),
                registration_id=player,
                table_points=None,
                table_rank=1,
                tournament_points=points,
                tiebreak=TieBreakNote(SIT_OUT, entered).to_json(),
                signed_at=now,
                locked=True,
            )
        )
        table.locked = True
        table.final_situation = TableSituation(SIT_OUT, {**entered, "points": points}).to_json()
        table.reported_at = now
        await uc.flush()

    async def replay_draw(self, guild_id: int, *, tournament: str, number: int) -> tuple[tuple[int, ...], ...]:
        """Re-run the planner with the stored seed on the round's published request: the tables it gives."""
        async with self.run(guild_id, tournament=tournament) as uc:
            r = await pick_round(uc, number, ())
            request, seed = _request_of(r)
            planned = await self._compute(request, seed)
            return tuple(tuple(int(p) for p in table) for table in planned.tables)

    async def export_inputs(self, guild_id: int, *, tournament: str, number: int) -> dict[str, Any]:
        """A drawn qualifying round's planner request as a ``steward-tournament/1`` document (docs/cli.md):
        ``steward draw --seed <the round's seed>`` on it runs the same planner on the same inputs and prints the
        tables the bot drew — for every preset and round (the document is what the bot drew from)."""
        async with self.run(guild_id, tournament=tournament) as uc:
            r = await pick_round(uc, number, ())
            return _stored_request(r)

    # ------------------------------------------------------------------------------------------ preview

    async def show(self, actor: Actor, *, tournament: str, number: int | None = None) -> RoundView:
        """A round's tables. Players see published rounds only; organizers also the drawn preview."""
        async with self.run(actor, tournament=tournament) as uc:
            visible: tuple[RoundStatus, ...] = (RoundStatus.PUBLISHED, RoundStatus.CLOSED)
            if uc.has_role(StaffRole.ORGANIZER):
                visible = (RoundStatus.DRAWN, *visible)
            r = await pick_round(uc, number, visible)
            if r.status not in visible:
                raise NotFound(
                    "error.round_not_published" if r.status == RoundStatus.DRAWN else "error.round_not_drawn",
                    number=r.number,
                )
            return await round_view(uc, r)

    async def my_table(self, actor: Actor, *, tournament: str) -> MyTable:
        """The actor's table in the latest published round of the tournament."""
        async with self.run(actor, tournament=tournament) as uc:
            t, tid = uc.tournament, uc.tournament_id
            reg = await uc.registrations.for_user(tournament_id=tid, user_id=actor.user_id)
            if reg is None:
                raise NotFound("error.round_not_registered", tournament=t.name)
            found = await uc.rounds.seat_in_latest_round(tournament_id=tid, registration_id=id_of(reg),
                                                         published_only=True)  # fmt: skip
            if found is not None:
                view = await round_view(uc, found[0], only=found[1])
                table = view.table_of(id_of(reg))
                if table is not None:
                    return MyTable(view, table, id_of(reg))
            raise NotFound("error.round_no_table", tournament=t.name)


def _request_of(r: Round) -> tuple[DrawRequest, int]:
    """The planner request a drawn qualifying round was drawn from and its seed (what ``replay_draw`` runs again)."""
    stored = DrawDocument.from_json(r.draw_report).request
    if r.draw_seed is None or r.kind != RoundKind.QUALIFYING or not stored:
        raise Conflict("error.round_not_drawn", number=r.number)
    return DrawRequest.from_json(stored), r.draw_seed


def _stored_request(r: Round) -> dict[str, Any]:
    """A drawn round's stored planner request (what ``export_inputs`` gives)."""
    stored = DrawDocument.from_json(r.draw_report).request
    if not stored or r.status == RoundStatus.PLANNED:
        raise Conflict("error.round_not_drawn", number=r.number)
    return dict(stored)
