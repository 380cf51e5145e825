"""Check-in, arrival and one-game forfeit (BOT-REG-4, BOT-REG-3 forfeit of one game, RR 9.3).

Every presence is a ``CheckIn`` row of the tournament's current round (the lowest-numbered round not
closed): ``present`` or ``late`` with the minutes past ``Round.scheduled_start``, ``forfeit`` when the
player gives up that game or arrives past the preset's limit. The rounds and reports areas read these rows.

The consequence of lateness is the rules' (``bot.rules.lateness.judge_lateness`` on the preset's ``[lateness]``
table: RR-LATE-1 warning then forfeit, FIRK-LATE-1 three cards given up then cannot play, UFF/ARB replaced by the
organizers, NP recorded only); when the player does not play, the check-in is a ``forfeit`` so the draw leaves
them out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.exc import IntegrityError

from bot.db.models import CheckIn, CheckInStatus, Registration, RegistrationStatus, Round, RoundStatus
from bot.errors import Conflict
from bot.rules.lateness import Lateness, LatenessCode, judge_lateness, minutes_late
from bot.rules.ruleset import Ruleset
from bot.rules.sanctions import lateness_proposal
from bot.services._base import BaseService, UseCase, id_of
from bot.services.access import STAFF, Actor
from bot.services.latecomers import already_logged
from bot.services.registrations import find_player
from bot.services.sanctions import SanctionService

PLAYING = (RegistrationStatus.REGISTERED, RegistrationStatus.VALIDATED)
CHECKIN_ROUND_STATES = (RoundStatus.PLANNED, RoundStatus.DRAWN, RoundStatus.PUBLISHED)


@dataclass(frozen=True, slots=True)
class CheckInView:
    tournament_name: str
    round_number: int
    player_name: str
    user_id: int | None
    status: str
    minutes_late: int
    at: datetime
    scheduled_start: datetime | None
    consequence: str | None = None  # a bot.rules.lateness.LatenessCode when the preset attaches a consequence
    cards_forfeited: int = 0  # FIRK-LATE-1: the first N cards earned are given up
    limit_minutes: int = 0
    case_number: int | None = None  # the lateness sanction logged on the referee's desk (/arrival)


def judge(rules: Ruleset, late: int) -> tuple[CheckInStatus, Lateness]:
    """Check-in status and the preset's lateness verdict (``bot.rules.lateness``) for ``late`` minutes."""
    verdict = judge_lateness(rules.lateness, late)
    if not verdict.plays:
        return CheckInStatus.FORFEIT, verdict
    return (CheckInStatus.LATE if late > 0 else CheckInStatus.PRESENT), verdict


async def current_round(uc: UseCase) -> Round:
    """The tournament's current round (the lowest-numbered not closed), while it is open for check-in."""
    t = uc.tournament
    rnd = await uc.registrations.checkin_current_round(tournament_id=uc.tournament_id)
    if rnd is None:
        raise Conflict("error.no_current_round", tournament=t.name)
    if rnd.status not in CHECKIN_ROUND_STATES:
        raise Conflict("error.round_not_open_for_checkin", tournament=t.name, round=rnd.number)
    return rnd


async def own_registration(uc: UseCase) -> Registration:
    """The acting player's entry in the use case's tournament, while they play in it."""
    if uc.user_id is None:  # pragma: no cover - a programming error: a player's use case has someone acting
        raise AssertionError("a check-in needs a player")
    reg = await uc.registrations.for_user(tournament_id=uc.tournament_id, user_id=uc.user_id)
    if reg is None or reg.status not in PLAYING:
        raise Conflict("error.not_playing", tournament=uc.tournament.name)
    return reg


class CheckInService(BaseService):
    async def _record(
        self,
        uc: UseCase,
        rnd: Round,
        reg: Registration,
        *,
        status: CheckInStatus,
        late: int,
        marked_by: int | None,
        action: str,
        verdict: Lateness | None,
        replace: bool,
    ) -> CheckInView:
        t = uc.tournament
        now = self._clock()
        quiet = (LatenessCode.ON_TIME, LatenessCode.RECORDED)
        consequence = verdict.code if verdict is not None and verdict.code not in quiet else None
        row = await uc.registrations.checkin_get(round_id=id_of(rnd), registration_id=id_of(reg))
        before = None
        if row is not None:
            if row.status == CheckInStatus.FORFEIT:
                raise Conflict("error.already_forfeited", name=reg.display_name, round=rnd.number)
            if not replace:
                raise Conflict("error.already_checked_in", name=reg.display_name, round=rnd.number)
            before = row.status
        else:
            row = CheckIn(guild_id=t.guild_id, round_id=id_of(rnd), registration_id=id_of(reg), checked_in_at=now)
        row.status, row.minutes_late, row.checked_in_at, row.marked_by = status, late, now, marked_by
        try:
            async with uc.savepoint():  # a savepoint: a refused insert leaves the transaction usable
                uc.add(row)
        except IntegrityError:  # the same check-in a moment ago (a double press): the database keeps one
            raise Conflict("error.already_checked_in", name=reg.display_name, round=rnd.number) from None
        await uc.audit(
            action,
            "check_in",
            row.id,
            tournament=t.name,
            round=rnd.number,
            name=reg.display_name,
            status=status,
            minutes_late=late,
            before=before,
            consequence=consequence,
            cards_forfeited=verdict.cards_forfeited if verdict else 0,
        )
        return CheckInView(
            t.name,
            rnd.number,
            reg.display_name,
            reg.user_id,
            status,
            late,
            now,
            rnd.scheduled_start,
            consequence,
            verdict.cards_forfeited if verdict and consequence else 0,
            verdict.limit_minutes if verdict and consequence else 0,
        )

    async def check_in(self, actor: Actor, *, tournament: str) -> CheckInView:
        """A player checks in for the current round (BOT-REG-4); minutes past the start are recorded."""
        async with self.run(actor, tournament=tournament) as uc:
            reg = await own_registration(uc)
            rnd = await current_round(uc)
            late = minutes_late(rnd.scheduled_start, uc.clock())
            status, verdict = judge(uc.rules, late)
            return await self._record(
                uc,
                rnd,
                reg,
                status=status,
                late=late,
                marked_by=None,
                action="checkin.self",
                verdict=verdict,
                replace=False,
            )

    async def forfeit(self, actor: Actor, *, tournament: str) -> CheckInView:
        """A player forfeits the current round's game (BOT-REG-3, RR 9.3): a ``forfeit`` check-in."""
        async with self.run(actor, tournament=tournament) as uc:
            reg = await own_registration(uc)
            rnd = await current_round(uc)
            return await self._record(
                uc,
                rnd,
                reg,
                status=CheckInStatus.FORFEIT,
                late=0,
                marked_by=None,
                action="checkin.forfeit",
                verdict=None,
                replace=True,
            )

    async def mark_arrival(
        self, actor: Actor, *, tournament: str, name: str | None = None, user_id: int | None = None
    ) -> CheckInView:
        """Staff mark a player arrived (organizer or referee; BOT-REG-4, RR-LATE-1, FIRK-LATE-1)."""
        async with self.run(actor, role=STAFF, tournament=tournament) as uc:
            t = uc.tournament
            reg = await find_player(uc, name=name, user_id=user_id)
            if reg.status not in PLAYING:
                raise Conflict("error.player_not_playing", name=reg.display_name, tournament=t.name)
            rnd = await current_round(uc)
            late = minutes_late(rnd.scheduled_start, uc.clock())
            status, verdict = judge(uc.rules, late)
            view = await self._record(
                uc,
                rnd,
                reg,
                status=status,
                late=late,
                marked_by=actor.user_id,
                action="checkin.arrival",
                verdict=verdict,
                replace=True,
            )
            # the preset's lateness sanction (RR warning or forfeit, FIRK cards or out, ARB replaced) is logged on
            # the referee's desk in the same transaction, with the server's next case number
            proposal = lateness_proposal(uc.rules, late)
            if proposal is None or await already_logged(uc, rnd, id_of(reg), proposal.kind):
                return view
            desk = SanctionService(self._sessionmaker, self._clock)
            case = await desk.record_in(uc, reg, proposal, details=f"{late} min")
            return replace(view, case_number=case.case_number)
