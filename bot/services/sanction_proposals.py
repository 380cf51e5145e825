"""``/sanction give``'s proposal as a row (BOT-SAN-2): the ladder's step shown to the referee with a kind menu and
a Confirm button that both work after a restart, and a sanction written once however often Confirm is pressed.

* ``offer`` checks the request, computes the ladder's proposal and stores what was asked — one use case (one
  transaction, the tournament's ruleset parsed once);
* ``pick`` records another kind chosen in the menu (an override), while the proposal is open;
* ``confirm`` writes the sanction: the server's case number is taken first (its lock serialises the server's
  sanctions), then one conditional UPDATE marks the proposal confirmed — of two presses, one writes the case and the
  other is told its number — one use case, the ladder read again from the ruleset parsed once. A proposal left
  unconfirmed for ``LIFETIME`` has expired: the referee asks again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from bot.db.models import SanctionProposal
from bot.errors import Conflict, NotFound, PermissionDenied
from bot.rules.sanctions import SanctionError, check_kind, sanction_kinds
from bot.services._base import BaseService, UseCase, id_of, retry_when_locked
from bot.services.access import Actor, StaffRole
from bot.services.sanction_views import ProposalView, SanctionView
from bot.services.sanctions import (
    SanctionService,
    checked_details,
    checked_points,
    sanction_refusal,
    tournament_named,
)

LIFETIME = timedelta(hours=12)  # a tournament day: after that the ladder may have moved; the referee asks again
ROW_ID_MAX = 2**31 - 1  # a button's id outside the ids a row can have is a forgery


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
        """The ladder's proposal for this request (referees), kept until it is confirmed: one use case — the
        proposal, the kind menu and the stored request read the tournament's ruleset once."""
        note = checked_details(details)
        checked_points(points)
        async with self.run(actor, role=StaffRole.REFEREE, tournament=tournament) as uc:
            view = await self.desk.proposal_in(uc, player=player, user_id=user_id, infraction=infraction,
                                               cards_in_hand=cards_in_hand, round_number=round_number,
                                               table=table)  # fmt: skip
            row = await uc.insert(
                SanctionProposal(
                    guild_id=actor.guild_id,
                    referee_id=actor.user_id,
                    tournament=view.tournament_name,
                    player=player,
                    user_id=user_id,
                    infraction=infraction,
                    cards_in_hand=cards_in_hand,
                    points=points,
                    round_number=round_number,
                    table_number=table,
                    details=note,
                    created_at=uc.clock(),
                )
            )
            return Offer(id_of(row), view, sanction_kinds(uc.rules))

    async def _open(self, uc: UseCase, proposal_id: int) -> SanctionProposal:
        row = await uc.get(SanctionProposal, proposal_id) if 0 < proposal_id <= ROW_ID_MAX else None
        if row is None:
            raise NotFound("error.sanction.proposal_unknown")
        if row.confirmed_at is not None:
            raise Conflict("error.sanction.proposal_used", case=row.case_number or "?")
        if row.created_at < self._clock() - LIFETIME:
            raise Conflict("error.sanction.proposal_expired", hours=int(LIFETIME.total_seconds() // 3600))
        return row

    async def pick(self, actor: Actor, proposal_id: int, kind: str) -> None:
        """Another kind from the menu (an override of the ladder), while the proposal is open."""
        async with self.run(actor, role=StaffRole.REFEREE) as uc:
            row = await self._open(uc, proposal_id)
            tuc = await tournament_named(uc, row.tournament)  # the proposal's, once it is found
            try:
                row.kind = check_kind(tuc.rules, kind)
            except SanctionError as exc:
                raise sanction_refusal(exc) from None

    async def confirm(self, actor: Actor, proposal_id: int) -> SanctionView:
        """Write the sanction the proposal describes, once."""
        return await retry_when_locked(lambda: self._confirm(actor, proposal_id))

    async def _confirm(self, actor: Actor, proposal_id: int) -> SanctionView:
        now = self._clock()
        async with self.run(actor) as uc:
            case = await uc.sanctions.allocate_case_number()  # the lock
            uc.require(StaffRole.REFEREE)
            if case is None:  # pragma: no cover - require() refuses a server without its row first
                raise PermissionDenied("error.permission_unmapped", role=StaffRole.REFEREE)
            won = 0 < proposal_id <= ROW_ID_MAX and await uc.sanctions.proposal_confirm_once(
                proposal_id=proposal_id, at=now, fresh_since=now - LIFETIME
            )
            row = await uc.get(SanctionProposal, proposal_id) if won else None
            if row is None:
                await self._open(uc, proposal_id)  # says why: unknown, used or expired
                raise Conflict("error.sanction.proposal_used", case="?")  # pragma: no cover - _open raised
            view = await self.desk.record_request(
                uc, case, tournament=row.tournament, player=row.player, user_id=row.user_id,
                infraction=row.infraction, kind=row.kind, points=row.points, cards_in_hand=row.cards_in_hand,
                details=row.details, round_number=row.round_number, table=row.table_number,
            )  # fmt: skip
            row.case_number = view.case_number
            return view
