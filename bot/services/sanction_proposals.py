"""``/sanction give``'s proposal as a row (BOT-SAN-2): the ladder's step shown to the referee with a kind menu and
a Confirm button that both work after a restart, and a sanction written once however often Confirm is pressed.

* ``offer`` checks the request, computes the ladder's proposal and stores what was asked;
* ``pick`` records another kind chosen in the menu (an override), while the proposal is open;
* ``confirm`` writes the sanction: the server's case number is taken first (its lock serialises the server's
  sanctions), then one conditional UPDATE marks the proposal confirmed — of two presses, one writes the case and the
  other is told its number. A proposal left unconfirmed for ``LIFETIME`` has expired: the referee asks again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.models import SanctionProposal
from bot.errors import Conflict, NotFound
from bot.rules.sanctions import SanctionError, check_kind
from bot.services._base import BaseService, retry_when_locked, tournament_or_404
from bot.services.access import Actor, StaffRole
from bot.services.sanction_views import ProposalView, SanctionView
from bot.services.sanctions import SanctionService, checked_details, checked_points, sanction_refusal, tournament_rules

LIFETIME = timedelta(hours=12)  # a tournament day: after that the ladder may have moved; the referee asks again


@dataclass(frozen=True, slots=True)
class Offer:
    proposal_id: int
    view: ProposalView
    kinds: tuple[str, ...]  # the menu: every kind of the tournament's preset, overrides applied


class SanctionProposalService(BaseService):
    desk: SanctionService  # set by ``Services``: the desk writes the sanction

    async def offer(
        self,
        actor: Actor,
        *,
        tournament: str,
        player: str | None,
        user_id: int | None,
        infraction: str,
        cards_in_hand: int = 0,
        points: float | None = None,
        round_number: int | None = None,
        table: int | None = None,
        details: str | None = None,
    ) -> Offer:
        """The ladder's proposal for this request (referees), kept until it is confirmed."""
        note = checked_details(details)
        checked_points(points)
        view = await self.desk.propose(actor, tournament=tournament, player=player, user_id=user_id,
                                       infraction=infraction, cards_in_hand=cards_in_hand, round_number=round_number,
                                       table=table)  # fmt: skip
        kinds = await self.desk.kinds(actor.guild_id, tournament=tournament)
        async with self.run(actor) as uc:
            row = SanctionProposal(guild_id=actor.guild_id, referee_id=actor.user_id, tournament=view.tournament_name,
                                   player=player, user_id=user_id, infraction=infraction, cards_in_hand=cards_in_hand,
                                   points=points, round_number=round_number, table_number=table, details=note,
                                   created_at=uc.clock())  # fmt: skip
            uc.session.add(row)
            await uc.session.flush()
            assert row.id is not None
            return Offer(row.id, view, kinds)

    async def _open(self, session: AsyncSession, actor: Actor, proposal_id: int) -> SanctionProposal:
        row = await session.get(SanctionProposal, proposal_id) if 0 < proposal_id < 2**31 else None
        if row is None or row.guild_id != actor.guild_id:
            raise NotFound("error.sanction.proposal_unknown")
        if row.confirmed_at is not None:
            raise Conflict("error.sanction.proposal_used", case=row.case_number or "?")
        if row.created_at < self._clock() - LIFETIME:
            raise Conflict("error.sanction.proposal_expired", hours=int(LIFETIME.total_seconds() // 3600))
        return row

    async def pick(self, actor: Actor, proposal_id: int, kind: str) -> None:
        """Another kind from the menu (an override of the ladder), while the proposal is open."""
        async with self.run(actor, role=StaffRole.REFEREE) as uc:
            session = uc.session
            row = await self._open(session, actor, proposal_id)
            t = await tournament_or_404(session, actor.guild_id, row.tournament)  # the proposal's, once it is found
            try:
                row.kind = check_kind(tournament_rules(t), kind)
            except SanctionError as exc:
                raise sanction_refusal(exc) from None

    async def confirm(self, actor: Actor, proposal_id: int) -> SanctionView:
        """Write the sanction the proposal describes, once."""
        return await retry_when_locked(lambda: self._confirm(actor, proposal_id))

    async def _confirm(self, actor: Actor, proposal_id: int) -> SanctionView:
        now = self._clock()
        async with self.run(actor) as uc:
            session = uc.session
            case = await repo.sanction_allocate_case_number(session=session, guild_id=actor.guild_id)  # the lock
            uc.require(StaffRole.REFEREE)
            won = 0 < proposal_id < 2**31 and await repo.sanction_proposal_confirm_once(
                session=session, guild_id=actor.guild_id, proposal_id=proposal_id, at=now, fresh_since=now - LIFETIME
            )
            if not won:
                await self._open(session, actor, proposal_id)  # says why: unknown, used or expired
                raise Conflict("error.sanction.proposal_used", case="?")  # pragma: no cover - _open raised
            row = await session.get(SanctionProposal, proposal_id)
            assert row is not None and case is not None
            view = await self.desk.record_request(
                session, actor, case, tournament=row.tournament, player=row.player, user_id=row.user_id,
                infraction=row.infraction, kind=row.kind, points=row.points, cards_in_hand=row.cards_in_hand,
                details=row.details, round_number=row.round_number, table=row.table_number,
            )  # fmt: skip
            row.case_number = view.case_number
            return view
