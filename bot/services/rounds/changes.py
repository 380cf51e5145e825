"""Hand changes of a drawn round: swap and move, with each criterion before -> after (BOT-TAB-2)."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.documents import Adjustment, DrawDocument
from bot.db.models import (
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
)


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
