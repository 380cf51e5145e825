"""Call the referee (BOT-RUL-2): a table asks for a referee; the first referee to claim the call takes it.

A call is a row; the claim is one conditional UPDATE (``claimed_by`` set only while empty), so two referees
pressing "I'm on it" at the same moment cannot both take it — the second is told who did.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.db import repo
from bot.db.models import GameTable, RefereeCall, Round, Tournament
from bot.errors import Conflict, NotFound
from bot.services._base import BaseService, clean_text, tournament_or_404
from bot.services.access import Actor, StaffRole, require

NOTE_MAX = 200


@dataclass(frozen=True, slots=True)
class CallView:
    call_id: int
    tournament_name: str
    round_number: int | None
    table_number: int | None
    thread_id: int | None
    caller_id: int
    note: str | None
    referee_role_id: int | None  # the role the call pings (the one mention this bot makes on purpose)
    claimed_by: int | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ClaimOutcome:
    view: CallView
    taken: bool  # False: another referee had already claimed it (``view.claimed_by``)


class CallService(BaseService):
    async def _view(self, session: AsyncSession, call: RefereeCall) -> CallView:
        assert call.id is not None
        t = await session.get(Tournament, call.tournament_id)
        rnd = await session.get(Round, call.round_id) if call.round_id else None
        table = await session.get(GameTable, call.table_id) if call.table_id else None
        config = await repo.get_guild_config(session=session, guild_id=call.guild_id)
        assert t is not None
        return CallView(
            call_id=call.id,
            tournament_name=t.name,
            round_number=rnd.number if rnd else None,
            table_number=table.number if table else None,
            thread_id=table.thread_id if table else None,
            caller_id=call.caller_id,
            note=call.note,
            referee_role_id=config.referee_role_id if config else None,
            claimed_by=call.claimed_by,
            created_at=call.created_at,
        )

    async def _caller_table(self, session: AsyncSession, t: Tournament, user_id: int) -> tuple[Round, GameTable] | None:
        """The caller's table in the latest published round (a player calling from their table)."""
        assert t.id is not None
        reg = await repo.get_registration_for_user(
            session=session, guild_id=t.guild_id, tournament_id=t.id, user_id=user_id
        )
        if reg is None or reg.id is None:
            return None
        return await repo.seat_in_latest_round(
            session=session, guild_id=t.guild_id, tournament_id=t.id, registration_id=reg.id, published_only=True
        )

    async def call(
        self, actor: Actor, *, tournament: str, table: int | None = None, note: str | None = None
    ) -> CallView:
        """Call a referee to ``table`` of the latest round (default: the caller's own table)."""
        text = clean_text(note, field="note", max_len=NOTE_MAX, required=False)
        async with self._sessionmaker() as session, session.begin():
            t = await tournament_or_404(session, actor.guild_id, tournament)
            assert t.id is not None
            where = await self._caller_table(session, t, actor.user_id)
            if table is not None:
                rounds = await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id)
                latest = max(rounds, key=lambda r: r.number, default=None)
                tables = (
                    await repo.list_tables(session=session, guild_id=t.guild_id, round_id=latest.id)
                    if latest and latest.id
                    else []
                )
                found = next((gt for gt in tables if gt.number == table), None)
                if latest is None or found is None:
                    raise NotFound("error.call.no_such_table", table=table, tournament=t.name)
                where = (latest, found)
            call = RefereeCall(
                guild_id=actor.guild_id,
                tournament_id=t.id,
                round_id=where[0].id if where else None,
                table_id=where[1].id if where else None,
                caller_id=actor.user_id,
                note=text,
                created_at=self._clock(),
            )
            session.add(call)
            await session.flush()
            return await self._view(session, call)

    async def call_from_table(self, actor: Actor, *, round_id: int, table_number: int) -> CallView:
        """The thread's button: the round and table are the button's."""
        async with self._sessionmaker() as session:
            rnd = await session.get(Round, round_id) if 0 < round_id < 2**31 else None
            if rnd is None or rnd.guild_id != actor.guild_id:
                raise NotFound("error.call.no_such_table", table=table_number, tournament="?")
            t = await session.get(Tournament, rnd.tournament_id)
            assert t is not None
            name = t.name
        return await self.call(actor, tournament=name, table=table_number)

    async def claim(self, actor: Actor, call_id: int) -> ClaimOutcome:
        """The first referee to claim the call takes it; later claims are told who did (one UPDATE, no race)."""
        async with self._sessionmaker() as session, session.begin():
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            require(actor, config, StaffRole.REFEREE)
            if not 0 < call_id < 2**31:  # a forged button id: no row can have it
                raise NotFound("error.call.not_found", call=call_id)
            result = await session.execute(
                update(RefereeCall)
                .where(
                    col(RefereeCall.id) == call_id,
                    col(RefereeCall.guild_id) == actor.guild_id,
                    col(RefereeCall.claimed_by).is_(None),
                )
                .values(claimed_by=actor.user_id, claimed_at=self._clock())
            )
            call = await session.get(RefereeCall, call_id)
            if call is None or call.guild_id != actor.guild_id:
                raise NotFound("error.call.not_found", call=call_id)
            await session.refresh(call)
            taken = bool(result.rowcount)  # type: ignore[attr-defined]
            if not taken and call.claimed_by == actor.user_id:
                raise Conflict("error.call.already_yours")
            return ClaimOutcome(await self._view(session, call), taken)
