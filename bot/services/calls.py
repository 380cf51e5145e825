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

from bot.db.models import GameTable, RefereeCall, Round, RoundStatus
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services._base import BaseService, UseCase, clean_text, id_of, retry_when_locked
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
    @staticmethod
    async def _view(uc: UseCase, call: RefereeCall) -> CallView:
        """The call as the thread shows it (``uc``: about the call's tournament)."""
        rnd = await uc.get(Round, call.round_id) if call.round_id else None
        table = await uc.get(GameTable, call.table_id) if call.table_id else None
        config = uc.config if uc.config is not None else await uc.guild.config()
        return CallView(
            call_id=id_of(call),
            tournament_name=uc.tournament.name,
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
            tuc, rnd = await self._round(uc, round_id)
            t = tuc.tournament
            staff = uc.has_role(StaffRole.REFEREE) or uc.has_role(StaffRole.ORGANIZER)
            own = await own_table(tuc, rnd, actor.user_id)
            if not staff:
                if own is None:
                    raise PermissionDenied("error.call.not_seated", tournament=t.name)
                if table is not None and table != own.number:
                    raise PermissionDenied("error.call.not_your_table", table=table, own=own.number)
            if table is not None:
                target = await self._table(tuc, rnd, table)
            elif own is not None:
                target = own
            else:
                raise InvalidInput("error.call.which_table")
            await uc.calls.lock_table(table_id=id_of(target))
            already = await uc.calls.open_call_at_table(table_id=id_of(target))
            if already is not None:
                return CallOutcome(await self._view(tuc, already), created=False)
            call = await uc.insert(RefereeCall(guild_id=actor.guild_id, tournament_id=tuc.tournament_id,
                                               round_id=id_of(rnd), table_id=id_of(target), caller_id=actor.user_id,
                                               note=note, created_at=uc.clock()))  # fmt: skip
            return CallOutcome(await self._view(tuc, call), created=True)

    async def _round(self, uc: UseCase, round_id: int | None) -> tuple[UseCase, Round]:
        """The round being played — the button's own, or the use case's tournament's latest published one — and the
        use case about its tournament."""
        if round_id is not None:
            rnd = await uc.get(Round, round_id)
            t = await uc.tournaments.by_id(tournament_id=rnd.tournament_id) if rnd is not None else None
            if rnd is None or t is None:
                raise NotFound("error.call.no_such_table", table="?", tournament="?")
            tuc = uc.about(t)
        else:
            tuc = uc
            rounds = await uc.rounds.list_rounds(tournament_id=uc.tournament_id)
            found = next((r for r in reversed(rounds) if r.status == RoundStatus.PUBLISHED), None)
            if found is None:
                raise Conflict("error.call.no_round_in_play", tournament=uc.tournament.name)
            rnd = found
        if rnd.status != RoundStatus.PUBLISHED:
            raise Conflict("error.call.round_over", tournament=tuc.tournament.name, round=rnd.number)
        return tuc, rnd

    @staticmethod
    async def _table(uc: UseCase, rnd: Round, number: int) -> GameTable:
        tables = await uc.rounds.list_tables(round_id=id_of(rnd))
        found = next((gt for gt in tables if gt.number == number), None)
        if found is None:
            raise NotFound("error.call.no_such_table", table=number, tournament=uc.tournament.name)
        return found

    async def claim(self, actor: Actor, call_id: int) -> ClaimOutcome:
        """The first referee to claim the call takes it; later claims are told who did (one UPDATE, no race)."""
        async with self.run(actor, role=StaffRole.REFEREE) as uc:
            if not 0 < call_id < 2**31:  # a forged button id: no row can have it
                raise NotFound("error.call.not_found", call=call_id)
            taken = await uc.calls.claim_call(call_id=call_id, referee_id=actor.user_id, at=uc.clock())
            call = await uc.get(RefereeCall, call_id)
            t = await uc.tournaments.by_id(tournament_id=call.tournament_id) if call is not None else None
            if call is None or t is None:
                raise NotFound("error.call.not_found", call=call_id)
            await uc.refresh(call)
            if not taken and call.claimed_by == actor.user_id:
                raise Conflict("error.call.already_yours")
            return ClaimOutcome(await self._view(uc.about(t), call), taken)


async def own_table(uc: UseCase, rnd: Round, user_id: int) -> GameTable | None:
    """The player's table in the round, if they are seated in it (``uc``: about the round's tournament)."""
    reg = await uc.registrations.for_user(tournament_id=uc.tournament_id, user_id=user_id)
    if reg is None:
        return None
    tables = await uc.rounds.list_tables(round_id=id_of(rnd))
    seats = await uc.rounds.list_seats_for_tables(table_ids=[id_of(x) for x in tables])
    mine = {s.table_id for s in seats if s.registration_id == reg.id}
    return next((x for x in tables if x.id in mine), None)
