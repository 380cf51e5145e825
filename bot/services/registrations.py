"""Registration use cases: a player registers, the list of players (BOT-REG-1, BOT-REG-2 cap/waitlist)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.db import repo
from bot.db.models import Registration, RegistrationStatus, TournamentStatus
from bot.errors import Conflict
from bot.services._base import BaseService, clean_text, tournament_or_404
from bot.services.access import Actor, StaffRole, require

NAME_MAX = 64
CLUB_MAX = 64
TEAM_MAX = 64


@dataclass(frozen=True, slots=True)
class RegistrationView:
    id: int
    user_id: int | None
    display_name: str
    club: str | None
    team: str | None
    status: str


@dataclass(frozen=True, slots=True)
class RegistrationOutcome:
    registration: RegistrationView
    tournament_name: str
    waitlisted: bool
    active_count: int
    cap: int | None


@dataclass(frozen=True, slots=True)
class PlayerList:
    tournament_name: str
    game: str
    cap: int | None
    players: tuple[RegistrationView, ...]
    counts: dict[str, int]


def _view(r: Registration) -> RegistrationView:
    assert r.id is not None
    return RegistrationView(r.id, r.user_id, r.display_name, r.club, r.team, r.status)


class RegistrationService(BaseService):
    async def register(
        self,
        actor: Actor,
        *,
        tournament: str,
        display_name: str,
        club: str | None,
        team: str | None = None,
    ) -> RegistrationOutcome:
        """The actor registers themself; over the cap they go to the waitlist (BOT-REG-1, BOT-REG-2)."""
        name = clean_text(display_name, field="name", max_len=NAME_MAX)
        club_name = clean_text(club, field="club", max_len=CLUB_MAX, required=False)
        team_name = clean_text(team, field="team", max_len=TEAM_MAX, required=False)
        assert name is not None
        now = self._clock()
        async with self._sessionmaker() as session, session.begin():
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            require(actor, config, StaffRole.PLAYER)
            t = await tournament_or_404(session, actor.guild_id, tournament)
            assert t.id is not None
            if t.status != TournamentStatus.REGISTRATION_OPEN.value:
                raise Conflict("error.registration_closed", tournament=t.name)
            if t.registration_deadline is not None and now > t.registration_deadline:
                raise Conflict("error.registration_deadline_passed", tournament=t.name)
            existing = await repo.get_registration_for_user(
                session=session, guild_id=actor.guild_id, tournament_id=t.id, user_id=actor.user_id
            )
            if existing is not None and existing.status not in (RegistrationStatus.WITHDRAWN.value,):
                raise Conflict("error.already_registered", tournament=t.name, status=existing.status)
            clash = await repo.get_registration_by_name(
                session=session, guild_id=actor.guild_id, tournament_id=t.id, display_name=name
            )
            if clash is not None and clash.user_id != actor.user_id:
                raise Conflict("error.name_taken", name=name)
            active = await repo.count_active_registrations(session=session, guild_id=actor.guild_id, tournament_id=t.id)
            waitlisted = t.cap is not None and active >= t.cap
            status = RegistrationStatus.WAITLISTED if waitlisted else RegistrationStatus.REGISTERED
            if existing is None:
                reg = Registration(
                    guild_id=actor.guild_id,
                    tournament_id=t.id,
                    user_id=actor.user_id,
                    display_name=name,
                    club=club_name,
                    team=team_name,
                    status=status.value,
                    registered_at=now,
                )
                session.add(reg)
            else:  # a withdrawn player comes back
                reg = existing
                reg.display_name, reg.club, reg.team = name, club_name, team_name
                reg.status, reg.registered_at, reg.withdrawn_at = status.value, now, None
            await session.flush()
            await repo.add_audit(
                session=session,
                guild_id=actor.guild_id,
                actor_id=actor.user_id,
                action="registration.create",
                entity="registration",
                entity_id=reg.id,
                details={
                    "tournament": t.name,
                    "name": name,
                    "club": club_name,
                    "team": team_name,
                    "status": reg.status,
                },
            )
            return RegistrationOutcome(
                registration=_view(reg),
                tournament_name=t.name,
                waitlisted=waitlisted,
                active_count=active + (0 if waitlisted else 1),
                cap=t.cap,
            )

    async def list_players(self, guild_id: int, *, tournament: str) -> PlayerList:
        async with self._sessionmaker() as session:
            t = await tournament_or_404(session, guild_id, tournament)
            assert t.id is not None
            rows = await repo.list_registrations(session=session, guild_id=guild_id, tournament_id=t.id)
            players = tuple(_view(r) for r in rows)
            counts = Counter(p.status for p in players)
            return PlayerList(t.name, t.game, t.cap, players, dict(counts))
