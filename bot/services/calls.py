"""Call the referee (BOT-RUL-2): a table asks for a referee; the first referee to claim the call takes it.

Who may call: a player seated in the round, for their own table, and the staff (referees, organizers) for any
table. A table has at most one open call: the table's row is locked first, so of two players pressing at the same
moment one makes the call and the other is shown it (who called, when). A call is a row; the claim is one
conditional UPDATE (``claimed_by`` set only while empty), so two referees pressing "I'm on it" at the same moment
cannot both take it — the second is told who did.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.models import GameTable, RefereeCall, Round, RoundStatus, Tournament
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services._base import BaseService, UseCase, clean_text, retry_when_locked
from bot.services.access import Actor, StaffRole

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
class CallOutcome:
    view: CallView
    created: bool  # False: the table already had a call no referee has taken (``view`` is that call)


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

    async def call(
        self, actor: Actor, *, tournament: str, table: int | None = None, note: str | None = None
    ) -> CallOutcome:
        """Call a referee to ``table`` of the tournament's published round (default: the caller's own table)."""
        text = clean_text(note, field="note", max_len=NOTE_MAX, required=False)
        return await retry_when_locked(lambda: self._call(actor, tournament, None, table, text))

    async def call_from_table(self, actor: Actor, *, round_id: int, table_number: int) -> CallOutcome:
        """The thread's button: the round and table are the button's (an old round's thread calls nobody)."""
        if not 0 < round_id < 2**31:  # a forged button id: no row can have it
            raise NotFound("error.call.no_such_table", table=table_number, tournament="?")
        return await retry_when_locked(lambda: self._call(actor, None, round_id, table_number, None))

    async def _call(
        self, actor: Actor, tournament: str | None, round_id: int | None, table: int | None, note: str | None
    ) -> CallOutcome:
        async with self.run(actor, tournament=tournament) as uc:
            session = uc.session
            t, rnd = await self._round(uc, round_id)
            assert t.id is not None and rnd.id is not None
            staff = uc.has_role(StaffRole.REFEREE) or uc.has_role(StaffRole.ORGANIZER)
            own = await self._own_table(session, t, rnd, actor.user_id)
            if not staff:
                if own is None:
                    raise PermissionDenied("error.call.not_seated", tournament=t.name)
                if table is not None and table != own.number:
                    raise PermissionDenied("error.call.not_your_table", table=table, own=own.number)
            if table is None and own is None:
                raise InvalidInput("error.call.which_table")
            target = own if table is None else await self._table(session, t, rnd, table)
            assert target is not None and target.id is not None
            await repo.lock_table(session=session, guild_id=actor.guild_id, table_id=target.id)
            already = await repo.open_call_at_table(session=session, guild_id=actor.guild_id, table_id=target.id)
            if already is not None:
                return CallOutcome(await self._view(session, already), created=False)
            call = RefereeCall(guild_id=actor.guild_id, tournament_id=t.id, round_id=rnd.id, table_id=target.id,
                               caller_id=actor.user_id, note=note, created_at=uc.clock())  # fmt: skip
            session.add(call)
            await session.flush()
            return CallOutcome(await self._view(session, call), created=True)

    async def _round(self, uc: UseCase, round_id: int | None) -> tuple[Tournament, Round]:
        """The round being played: the button's own, or the use case's tournament's latest published one."""
        session = uc.session
        if round_id is not None:
            rnd = await session.get(Round, round_id)
            if rnd is None or rnd.guild_id != uc.guild_id:
                raise NotFound("error.call.no_such_table", table="?", tournament="?")
            t = await session.get(Tournament, rnd.tournament_id)
            assert t is not None
        else:
            t = uc.tournament
            rounds = await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=uc.tournament_id)
            rnd = next((r for r in reversed(rounds) if r.status == RoundStatus.PUBLISHED.value), None)
            if rnd is None:
                raise Conflict("error.call.no_round_in_play", tournament=t.name)
        if rnd.status != RoundStatus.PUBLISHED.value:
            raise Conflict("error.call.round_over", tournament=t.name, round=rnd.number)
        return t, rnd

    async def _own_table(self, session: AsyncSession, t: Tournament, rnd: Round, user_id: int) -> GameTable | None:
        """The caller's table in the round, if they are seated in it."""
        assert t.id is not None
        reg = await repo.get_registration_for_user(session=session, guild_id=t.guild_id, tournament_id=t.id,
                                                   user_id=user_id)  # fmt: skip
        if reg is None or reg.id is None:
            return None
        tables = await repo.list_tables(session=session, guild_id=t.guild_id, round_id=rnd.id or 0)
        seats = await repo.list_seats_for_tables(session=session, guild_id=t.guild_id,
                                                 table_ids=[x.id for x in tables if x.id is not None])  # fmt: skip
        mine = {s.table_id for s in seats if s.registration_id == reg.id}
        return next((x for x in tables if x.id in mine), None)

    async def _table(self, session: AsyncSession, t: Tournament, rnd: Round, number: int) -> GameTable:
        tables = await repo.list_tables(session=session, guild_id=t.guild_id, round_id=rnd.id or 0)
        found = next((gt for gt in tables if gt.number == number), None)
        if found is None:
            raise NotFound("error.call.no_such_table", table=number, tournament=t.name)
        return found

    async def claim(self, actor: Actor, call_id: int) -> ClaimOutcome:
        """The first referee to claim the call takes it; later claims are told who did (one UPDATE, no race)."""
        async with self.run(actor, role=StaffRole.REFEREE) as uc:
            session = uc.session
            if not 0 < call_id < 2**31:  # a forged button id: no row can have it
                raise NotFound("error.call.not_found", call=call_id)
            taken = await repo.claim_call(session=session, guild_id=actor.guild_id, call_id=call_id,
                                          referee_id=actor.user_id, at=uc.clock())  # fmt: skip
            call = await session.get(RefereeCall, call_id)
            if call is None or call.guild_id != actor.guild_id:
                raise NotFound("error.call.not_found", call=call_id)
            await session.refresh(call)
            if not taken and call.claimed_by == actor.user_id:
                raise Conflict("error.call.already_yours")
            return ClaimOutcome(await self._view(session, call), taken)
