"""Hand changes: swap and move in a drawn round, with each criterion before -> after (BOT-TAB-2); and the seat of
a player replaced by the organizers once the round is published (ARB 3, UFF "Ritardi")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.documents import Adjustment, DrawDocument
from bot.db.models import CheckIn, CheckInStatus, Registration, RegistrationStatus, Round, RoundStatus
from bot.errors import Conflict, InvalidInput
from bot.rules.tournament.draw import move_player, swap_players
from bot.rules.tournament.model import Criterion, TournamentError
from bot.rules.tournament.planner import context as planner_context
from bot.rules.tournament.planner import criteria as planner_criteria
from bot.services._base import BaseService, UseCase, id_of
from bot.services.access import Actor, StaffRole
from bot.services.rounds.reading import draw_inputs, engine_error, find_player, pick_round, round_view, seated
from bot.services.rounds.views import AdjustmentView, ReplacementView
from bot.services.standings import StandingsService
from bot.workers import Workers

SUBSTITUTES = (RegistrationStatus.WAITLISTED, RegistrationStatus.REGISTERED, RegistrationStatus.VALIDATED)


class RoundChanges(BaseService):
    """Changes by hand: swap or move players in a drawn round, replace a player in a published one."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime],
        workers: Workers | None = None,
    ) -> None:
        super().__init__(sessionmaker, clock, workers)
        self._standings = StandingsService(sessionmaker, clock, workers=self._workers)

    # ------------------------------------------------------------------------------------- hand changes

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
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            t, tid = uc.tournament, uc.tournament_id
            r = await _drawn_round(uc, number)
            tables, by_table, regs = await seated(uc, r)
            players = [find_player(regs, n) for n in names]
            if len(players) == 2 and players[0].id == players[1].id:
                raise InvalidInput("error.round_same_player", name=players[0].display_name)
            current = tuple(
                tuple(s.registration_id for s in sorted(by_table.get(id_of(gt), []), key=lambda s: s.position))
                for gt in tables
            )
            rounds = list(await uc.rounds.list_rounds(tournament_id=tid))
            seated_players = [regs[i] for i in sorted(regs)]
            inputs, _ = await draw_inputs(uc, rounds, r.number, seated_players, self._standings)
            doc = DrawDocument.from_json(r.draw_report)
            rules = uc.rules.tournament
            order = doc.engine.criteria_order if doc.engine else ()
            crit = tuple(Criterion(c) for c in order or [c.value for c in planner_criteria(inputs, rules)])
            ctx = planner_context(inputs, rules)
            ids = [id_of(p) for p in players]
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
                raise engine_error(exc) from None
            if any(len(x) < rules.min_table_size for x in adj.tables):
                raise InvalidInput("error.round_table_too_small", min=rules.min_table_size)
            changed = [(gt, new) for gt, old, new in zip(tables, current, adj.tables, strict=True) if old != new]
            touched = [gt.number for gt, _ in changed]
            await uc.rounds.reseat_tables(
                old=[s for gt, _ in changed for s in by_table.get(id_of(gt), [])],
                new=[(id_of(gt), [int(x) for x in new]) for gt, new in changed],
            )
            change = Adjustment(
                "swap" if to_table is None else "move", tuple(ids), to_table, adj.before, adj.after, actor.user_id
            )
            r.draw_report = replace(doc, current=dict(adj.after), adjustments=(*doc.adjustments, change)).to_json()
            await uc.flush()
            await uc.audit(
                f"round.{change.kind}", "round", r.id, tournament=t.name, number=r.number, **change.to_json()
            )
            view = await round_view(uc, r)
            return AdjustmentView(
                view,
                dict(adj.before),
                dict(adj.after),
                adj.worse,
                tuple(p.display_name for p in players),
                tuple(touched),
            )

    async def replace_player(
        self, actor: Actor, *, tournament: str, player: str, by: str, number: int | None = None
    ) -> ReplacementView:
        """ARB 3 / UFF "Ritardi": a player not at their table at the start is replaced by the organizers. The
        substitute (a waitlisted or reserve player not seated in the round, chosen by the organizer) takes the seat
        before the table reports; the game is scored with the substitute, and the replaced player has no result in
        it (their check-in says they forfeited it). A waitlisted substitute becomes an entrant."""
        # the lock first: one replacement (or registration) at a time, so the seat and the waitlist are seen as they are
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament, lock=True) as uc:
            t, tid = uc.tournament, uc.tournament_id
            r = await pick_round(uc, number, (RoundStatus.PUBLISHED,))
            if r.status != RoundStatus.PUBLISHED:
                raise Conflict("error.round_replace_not_published", number=r.number)
            tables, by_table, regs = await seated(uc, r)
            out = find_player(regs, player)
            seat = next(s for seats in by_table.values() for s in seats if s.registration_id == out.id)
            table = next(gt for gt in tables if gt.id == seat.table_id)
            # then the table's lock (issue 40, finding 3): a report being written on it finishes first and is seen
            # here, and no report starts until the seat has changed (the report then finds the new seating)
            await uc.reports.lock_report_table(table_id=id_of(table))
            if await uc.reports.list_report_results(table_id=id_of(table)):
                raise Conflict("error.round_replace_reported", table=table.number)
            entrants = await uc.registrations.listed(tournament_id=tid)
            key = " ".join(by.split()).casefold()
            sub = next((x for x in entrants if x.display_name.casefold() == key), None)
            if sub is None:
                raise InvalidInput("error.round_replace_unknown", name=by[:64], tournament=t.name)
            if sub.id in regs:
                raise Conflict("error.round_replace_seated", name=sub.display_name)
            if sub.status not in SUBSTITUTES:
                raise Conflict("error.round_replace_not_available", name=sub.display_name, status=sub.status)
            await _forfeit_check_in(uc, r, out)
            seat.registration_id = id_of(sub)
            if sub.status == RegistrationStatus.WAITLISTED:
                sub.status = RegistrationStatus.VALIDATED
            await uc.flush()
            await uc.audit("round.replace", "round", r.id, tournament=t.name, number=r.number, table=table.number,
                           replaced=out.id, by=sub.id)  # fmt: skip
            view = await round_view(uc, r)
            return ReplacementView(view, table.number, table.thread_id, out.display_name, out.user_id,
                                   sub.display_name, sub.user_id)  # fmt: skip


async def _drawn_round(uc: UseCase, number: int | None) -> Round:
    """The round hand changes apply to: drawn, not yet published."""
    r = await pick_round(uc, number, (RoundStatus.DRAWN,))
    if r.status == RoundStatus.PLANNED:
        raise Conflict("error.round_not_drawn", number=r.number)
    if r.status != RoundStatus.DRAWN:
        raise Conflict("error.round_already_published", number=r.number)
    return r


async def _forfeit_check_in(uc: UseCase, r: Round, reg: Registration) -> None:
    """The replaced player's game is forfeited (the check-in says so, whatever was recorded before)."""
    round_id, reg_id = id_of(r), id_of(reg)
    existing = {c.registration_id: c for c in await uc.rounds.list_checkins(round_id=round_id)}
    row = existing.get(reg_id)
    if row is None:
        uc.add(CheckIn(guild_id=uc.tournament.guild_id, round_id=round_id, registration_id=reg_id,
                       status=CheckInStatus.FORFEIT, checked_in_at=uc.clock(), marked_by=uc.user_id))  # fmt: skip
    else:
        row.status = CheckInStatus.FORFEIT
