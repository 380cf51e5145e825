"""Hand changes: swap and move in a drawn round, with each criterion before -> after (BOT-TAB-2); and the seat of
a player replaced by the organizers once the round is published (ARB 3, UFF "Ritardi")."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.documents import Adjustment, DrawDocument
from bot.db.models import (
    CheckIn,
    CheckInStatus,
    Registration,
    RegistrationStatus,
    Round,
    RoundStatus,
    Seat,
    Tournament,
)
from bot.errors import Conflict, InvalidInput
from bot.rules.tournament.draw import move_player, swap_players
from bot.rules.tournament.model import Criterion, TournamentError
from bot.rules.tournament.planner import context as planner_context
from bot.rules.tournament.planner import criteria as planner_criteria
from bot.services.access import Actor
from bot.services.rounds._base import (
    RoundBase,
    _engine_error,
    _rules,
)
from bot.services.rounds.views import (
    AdjustmentView,
    ReplacementView,
)

SUBSTITUTES = (RegistrationStatus.WAITLISTED.value, RegistrationStatus.REGISTERED.value,
               RegistrationStatus.VALIDATED.value)  # fmt: skip


class ChangesMixin(RoundBase):
    # ------------------------------------------------------------------------------------- hand changes

    async def _drawn_round(self, session: AsyncSession, t: Tournament, number: int | None) -> Round:
        r = await self._pick_round(session, t, number, (RoundStatus.DRAWN.value,))
        if r.status == RoundStatus.PLANNED.value:
            raise Conflict("error.round_not_drawn", number=r.number)
        if r.status != RoundStatus.DRAWN.value:
            raise Conflict("error.round_already_published", number=r.number)
        return r

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
            doc = DrawDocument.from_json(r.draw_report)
            rules = _rules(t)
            order = doc.engine.criteria_order if doc.engine else ()
            crit = tuple(Criterion(c) for c in order or [c.value for c in planner_criteria(inputs, rules)])
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
            change = Adjustment(
                "swap" if to_table is None else "move", tuple(ids), to_table, adj.before, adj.after, actor.user_id
            )
            r.draw_report = replace(doc, current=dict(adj.after), adjustments=(*doc.adjustments, change)).to_json()
            await session.flush()
            await self._audit(
                session,
                actor,
                f"round.{change.kind}",
                r,
                {"tournament": t.name, "number": r.number, **change.to_json()},
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

    async def replace_player(
        self, actor: Actor, *, tournament: str, player: str, by: str, number: int | None = None
    ) -> ReplacementView:
        """ARB 3 / UFF "Ritardi": a player not at their table at the start is replaced by the organizers. The
        substitute (a waitlisted or reserve player not seated in the round, chosen by the organizer) takes the seat
        before the table reports; the game is scored with the substitute, and the replaced player has no result in
        it (their check-in says they forfeited it). A waitlisted substitute becomes an entrant."""
        async with self._sessionmaker() as session, session.begin():
            # first: one replacement (or registration) at a time, so the seat and the waitlist are seen as they are
            await repo.lock_tournament(session=session, guild_id=actor.guild_id, name=tournament)
            t = await self._config_and_tournament(session, actor, tournament)
            assert t.id is not None
            r = await self._pick_round(session, t, number, (RoundStatus.PUBLISHED.value,))
            if r.status != RoundStatus.PUBLISHED.value:
                raise Conflict("error.round_replace_not_published", number=r.number)
            tables, by_table, regs = await self._seated(session, t, r)
            out = self._find_player(regs, player)
            seat = next(s for seats in by_table.values() for s in seats if s.registration_id == out.id)
            table = next(gt for gt in tables if gt.id == seat.table_id)
            if await repo.list_report_results(session=session, guild_id=t.guild_id, table_id=table.id or 0):
                raise Conflict("error.round_replace_reported", table=table.number)
            entrants = await repo.list_registrations(session=session, guild_id=t.guild_id, tournament_id=t.id)
            key = " ".join(by.split()).casefold()
            sub = next((x for x in entrants if x.display_name.casefold() == key), None)
            if sub is None or sub.id is None:
                raise InvalidInput("error.round_replace_unknown", name=by[:64], tournament=t.name)
            if sub.id in regs:
                raise Conflict("error.round_replace_seated", name=sub.display_name)
            if sub.status not in SUBSTITUTES:
                raise Conflict("error.round_replace_not_available", name=sub.display_name, status=sub.status)
            assert out.id is not None and sub.id is not None
            await self._forfeit_check_in(session, t, r, out, actor)
            seat.registration_id = sub.id
            if sub.status == RegistrationStatus.WAITLISTED.value:
                sub.status = RegistrationStatus.VALIDATED.value
            await session.flush()
            await self._audit(session, actor, "round.replace", r, {"tournament": t.name, "number": r.number,
                              "table": table.number, "replaced": out.id, "by": sub.id})  # fmt: skip
            view = await self._view(session, t, r)
            return ReplacementView(view, table.number, table.thread_id, out.display_name, out.user_id,
                                   sub.display_name, sub.user_id)  # fmt: skip

    async def _forfeit_check_in(
        self, session: AsyncSession, t: Tournament, r: Round, reg: Registration, actor: Actor
    ) -> None:
        """The replaced player's game is forfeited (the check-in says so, whatever was recorded before)."""
        assert r.id is not None and reg.id is not None
        existing = {c.registration_id: c for c in await repo.list_checkins(session=session, guild_id=t.guild_id,
                                                                              round_id=r.id)}  # fmt: skip
        row = existing.get(reg.id)
        if row is None:
            session.add(CheckIn(guild_id=t.guild_id, round_id=r.id, registration_id=reg.id,
                                status=CheckInStatus.FORFEIT.value, checked_in_at=self._clock(),
                                marked_by=actor.user_id))  # fmt: skip
        else:
            row.status = CheckInStatus.FORFEIT.value
