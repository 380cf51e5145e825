"""Check-in, arrival and one-game forfeit (BOT-REG-4, BOT-REG-3 forfeit of one game, RR 9.3).

Every presence is a ``CheckIn`` row of the tournament's current round (the lowest-numbered round not
closed): ``present`` or ``late`` with the minutes past ``Round.scheduled_start``, ``forfeit`` when the
player gives up that game or arrives past the preset's limit. The rounds and reports areas read these rows.

Lateness thresholds come from the preset when it defines them (RR-LATE-1: ``[sanctions]`` ``late_at_start``
and ``late_after_minutes``); past the forfeit threshold the arrival is recorded as ``forfeit``. Presets
without them (FIRK-LATE-1 is not in the FIRK preset yet) only record the minutes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.models import CheckIn, CheckInStatus, Registration, RegistrationStatus, Round, RoundStatus, Tournament
from bot.errors import Conflict
from bot.rules.presets import PresetError, load_preset
from bot.services._base import BaseService, tournament_or_404
from bot.services.access import Actor
from bot.services.registrations import find_player, require_staff

PLAYING = (RegistrationStatus.REGISTERED.value, RegistrationStatus.VALIDATED.value)
CHECKIN_ROUND_STATES = (RoundStatus.PLANNED.value, RoundStatus.DRAWN.value, RoundStatus.PUBLISHED.value)


@dataclass(frozen=True, slots=True)
class LatenessRule:
    warning_after_minutes: int | None = None
    forfeit_after_minutes: int | None = None


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
    consequence: str | None = None  # "warning" or "forfeit" when the preset's lateness rule applies


def lateness_rule(preset: str, overrides: Mapping[str, Any] | None) -> LatenessRule:
    """The preset's lateness thresholds (RR-LATE-1, RR 13.5), or none.

    Read from ``[sanctions]``: ``late_at_start`` (a sanction as soon as the player is late: warning after 0
    minutes) and ``late_after_minutes`` (past it the game is forfeit), else ``[ricochet]``
    ``lateness_forfeit_minutes``. A preset without them (FIRK, UFF, NP today) only records the minutes.
    """
    try:
        loaded = load_preset(preset, overrides)
    except PresetError:
        return LatenessRule()
    sanctions = loaded.section("sanctions") if loaded.has_section("sanctions") else {}
    game = loaded.section(loaded.game) if loaded.has_section(loaded.game) else {}

    def minutes(table: Mapping[str, Any], key: str) -> int | None:
        value = table.get(key)
        return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

    warning = 0 if sanctions.get("late_at_start") else None
    forfeit = minutes(sanctions, "late_after_minutes")
    if forfeit is None:
        forfeit = minutes(game, "lateness_forfeit_minutes")
    return LatenessRule(warning, forfeit)


def minutes_late(scheduled_start: datetime | None, now: datetime) -> int:
    """Whole minutes past the scheduled start, rounded up (a started minute counts); 0 when on time."""
    if scheduled_start is None or now <= scheduled_start:
        return 0
    return math.ceil((now - scheduled_start).total_seconds() / 60)


def judge(rule: LatenessRule, late: int) -> tuple[str, str | None]:
    """Status and consequence of arriving ``late`` minutes late under ``rule``."""
    if rule.forfeit_after_minutes is not None and late > rule.forfeit_after_minutes:
        return CheckInStatus.FORFEIT.value, "forfeit"
    status = CheckInStatus.LATE.value if late > 0 else CheckInStatus.PRESENT.value
    if rule.warning_after_minutes is not None and late > rule.warning_after_minutes:
        return status, "warning"
    return status, None


class CheckInService(BaseService):
    async def _round(self, session: AsyncSession, t: Tournament) -> Round:
        assert t.id is not None
        rnd = await repo.checkin_current_round(session=session, guild_id=t.guild_id, tournament_id=t.id)
        if rnd is None:
            raise Conflict("error.no_current_round", tournament=t.name)
        if rnd.status not in CHECKIN_ROUND_STATES:
            raise Conflict("error.round_not_open_for_checkin", tournament=t.name, round=rnd.number)
        return rnd

    async def _record(
        self,
        session: AsyncSession,
        t: Tournament,
        rnd: Round,
        reg: Registration,
        *,
        status: str,
        late: int,
        actor_id: int,
        marked_by: int | None,
        action: str,
        consequence: str | None,
        replace: bool,
    ) -> CheckInView:
        assert rnd.id is not None and reg.id is not None
        now = self._clock()
        row = await repo.checkin_get(session=session, guild_id=t.guild_id, round_id=rnd.id, registration_id=reg.id)
        before = None
        if row is not None:
            if row.status == CheckInStatus.FORFEIT.value:
                raise Conflict("error.already_forfeited", name=reg.display_name, round=rnd.number)
            if not replace:
                raise Conflict("error.already_checked_in", name=reg.display_name, round=rnd.number)
            before = row.status
        else:
            row = CheckIn(guild_id=t.guild_id, round_id=rnd.id, registration_id=reg.id, checked_in_at=now)
        row.status, row.minutes_late, row.checked_in_at, row.marked_by = status, late, now, marked_by
        session.add(row)
        await session.flush()
        await repo.add_audit(
            session=session,
            guild_id=t.guild_id,
            actor_id=actor_id,
            action=action,
            entity="check_in",
            entity_id=row.id,
            details={
                "tournament": t.name,
                "round": rnd.number,
                "name": reg.display_name,
                "status": status,
                "minutes_late": late,
                "before": before,
                "consequence": consequence,
            },
        )
        return CheckInView(
            t.name, rnd.number, reg.display_name, reg.user_id, status, late, now, rnd.scheduled_start, consequence
        )

    async def _own_registration(self, session: AsyncSession, t: Tournament, user_id: int) -> Registration:
        assert t.id is not None
        reg = await repo.get_registration_for_user(
            session=session, guild_id=t.guild_id, tournament_id=t.id, user_id=user_id
        )
        if reg is None or reg.status not in PLAYING:
            raise Conflict("error.not_playing", tournament=t.name)
        return reg

    async def check_in(self, actor: Actor, *, tournament: str) -> CheckInView:
        """A player checks in for the current round (BOT-REG-4); minutes past the start are recorded."""
        async with self._sessionmaker() as session, session.begin():
            t = await tournament_or_404(session, actor.guild_id, tournament)
            reg = await self._own_registration(session, t, actor.user_id)
            rnd = await self._round(session, t)
            late = minutes_late(rnd.scheduled_start, self._clock())
            status, consequence = judge(lateness_rule(t.preset, t.overrides), late)
            return await self._record(
                session,
                t,
                rnd,
                reg,
                status=status,
                late=late,
                actor_id=actor.user_id,
                marked_by=None,
                action="checkin.self",
                consequence=consequence,
                replace=False,
            )

    async def forfeit(self, actor: Actor, *, tournament: str) -> CheckInView:
        """A player forfeits the current round's game (BOT-REG-3, RR 9.3): a ``forfeit`` check-in."""
        async with self._sessionmaker() as session, session.begin():
            t = await tournament_or_404(session, actor.guild_id, tournament)
            reg = await self._own_registration(session, t, actor.user_id)
            rnd = await self._round(session, t)
            return await self._record(
                session,
                t,
                rnd,
                reg,
                status=CheckInStatus.FORFEIT.value,
                late=0,
                actor_id=actor.user_id,
                marked_by=None,
                action="checkin.forfeit",
                consequence=None,
                replace=True,
            )

    async def mark_arrival(
        self, actor: Actor, *, tournament: str, name: str | None = None, user_id: int | None = None
    ) -> CheckInView:
        """Staff mark a player arrived (organizer or referee; BOT-REG-4, RR-LATE-1, FIRK-LATE-1)."""
        async with self._sessionmaker() as session, session.begin():
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            require_staff(actor, config)
            t = await tournament_or_404(session, actor.guild_id, tournament)
            reg = await find_player(session, t, name=name, user_id=user_id)
            if reg.status not in PLAYING:
                raise Conflict("error.player_not_playing", name=reg.display_name, tournament=t.name)
            rnd = await self._round(session, t)
            late = minutes_late(rnd.scheduled_start, self._clock())
            status, consequence = judge(lateness_rule(t.preset, t.overrides), late)
            return await self._record(
                session,
                t,
                rnd,
                reg,
                status=status,
                late=late,
                actor_id=actor.user_id,
                marked_by=actor.user_id,
                action="checkin.arrival",
                consequence=consequence,
                replace=True,
            )
