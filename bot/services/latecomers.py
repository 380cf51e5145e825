"""Latecomers at the start of a game (RR-LATE-1, FIRK-LATE-1, ARB 3; BOT-SAN-1): once a round has started, the
referees see every seated player who has not checked in, each with the preset's lateness sanction for the minutes
gone by, and apply it with one press; the sanction goes on the referee's desk like any other case.

A player's lateness is logged once per kind and round: ``/arrival`` later logs only a heavier step (RR: the
warning at the set time, the forfeit after ten minutes).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.db.models import Registration, Round
from bot.errors import Conflict, NotFound
from bot.rules.lateness import minutes_late
from bot.rules.sanctions import LATE, Proposal, lateness_proposal
from bot.services._base import BaseService, UseCase, id_of
from bot.services.access import Actor, StaffRole
from bot.services.sanction_views import SanctionView
from bot.services.sanctions import SanctionService


@dataclass(frozen=True, slots=True)
class Latecomer:
    registration_id: int
    name: str
    user_id: int | None
    table_number: int
    proposal: Proposal


@dataclass(frozen=True, slots=True)
class LatecomersView:
    tournament_name: str
    round_id: int
    round_number: int
    minutes_late: int
    latecomers: tuple[Latecomer, ...]


async def already_logged(uc: UseCase, rnd: Round, registration_id: int, kind: str) -> bool:
    """A lateness sanction of this kind for this player in this round is in force already (``uc``: about the
    tournament)."""
    rows = await uc.sanctions.sanction_list(tournament_id=uc.tournament_id, registration_id=registration_id,
                                            round_id=id_of(rnd))  # fmt: skip
    return any(s.active and s.infraction == LATE and s.kind == kind for s in rows)


class LatecomerService(BaseService):
    async def _started_round(self, uc: UseCase) -> tuple[Round, int]:
        """The tournament's current round, once its start has passed, and the minutes gone by."""
        t = uc.tournament
        rnd = await uc.registrations.checkin_current_round(tournament_id=uc.tournament_id)
        if rnd is None:
            raise Conflict("error.no_current_round", tournament=t.name)
        minutes = minutes_late(rnd.scheduled_start, self._clock())
        if not minutes:
            raise Conflict("error.late.not_started", number=rnd.number)
        return rnd, minutes

    async def list(self, actor: Actor, *, tournament: str) -> LatecomersView:
        """Seated players of the started round without a check-in, with the preset's sanction for now (referees)."""
        async with self.run(actor, role=StaffRole.REFEREE, tournament=tournament) as uc:
            t = uc.tournament
            rnd, minutes = await self._started_round(uc)
            proposal = lateness_proposal(uc.rules, minutes)
            tables = await uc.rounds.list_tables(round_id=id_of(rnd))
            seats = await uc.rounds.list_seats_for_tables(table_ids=[id_of(gt) for gt in tables])
            checked = {c.registration_id for c in await uc.rounds.list_checkins(round_id=id_of(rnd))}
            number = {gt.id: gt.number for gt in tables}
            missing = sorted((s for s in seats if s.registration_id not in checked),
                             key=lambda s: (number[s.table_id], s.position))  # fmt: skip
            regs = await uc.rounds.registrations_by_ids(ids=[s.registration_id for s in missing])
            out = []
            for s in missing:
                reg = regs[s.registration_id]
                if proposal is None or await already_logged(uc, rnd, s.registration_id, proposal.kind):
                    continue
                out.append(Latecomer(s.registration_id, reg.display_name, reg.user_id, number[s.table_id], proposal))
            return LatecomersView(t.name, id_of(rnd), rnd.number, minutes, tuple(out))

    async def apply(self, actor: Actor, *, round_id: int, registration_id: int) -> SanctionView:
        """Log the lateness sanction for a seated player still missing (referees), once per kind and round."""
        async with self.run(actor, role=StaffRole.REFEREE) as uc:  # the tournament: the round's
            ids_fit = 0 < round_id < 2**31 and 0 < registration_id < 2**31  # else a forged button id
            rnd = await uc.get(Round, round_id) if ids_fit else None
            reg = await uc.get(Registration, registration_id) if ids_fit else None
            t = await uc.tournaments.by_id(tournament_id=rnd.tournament_id) if rnd is not None else None
            if rnd is None or reg is None or t is None or reg.tournament_id != rnd.tournament_id:
                raise NotFound("error.late.unknown")
            tuc = uc.about(t)
            current, minutes = await self._started_round(tuc)
            if current.id != rnd.id:
                raise Conflict("error.late.round_over", number=rnd.number)
            if await uc.registrations.checkin_get(round_id=round_id, registration_id=registration_id) is not None:
                raise Conflict("error.late.arrived", name=reg.display_name)
            proposal = lateness_proposal(tuc.rules, minutes)
            if proposal is None:
                raise Conflict("error.late.nothing", tournament=t.name)
            if await already_logged(tuc, rnd, registration_id, proposal.kind):
                raise Conflict("error.late.already", name=reg.display_name)
            desk = SanctionService(self._sessionmaker, self._clock)
            return await desk.record_in(tuc, reg, proposal, details=f"{minutes} min")
