"""Tournament use cases: create, list, find (BOT-REG-1, BOT-ROLE-1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from bot.db import repo
from bot.db.models import Tournament, TournamentStatus
from bot.errors import Conflict, InvalidInput
from bot.rules.presets import PRESET_NAMES, PresetError, load_preset
from bot.services._base import BaseService, clean_text, tournament_or_404
from bot.services.access import Actor, StaffRole, require

NAME_MAX = 100
CAP_MAX = 2000


@dataclass(frozen=True, slots=True)
class TournamentView:
    id: int
    name: str
    game: str
    preset: str
    status: str
    cap: int | None
    registration_deadline: datetime | None
    overrides: Mapping[str, Any]


def _view(t: Tournament) -> TournamentView:
    assert t.id is not None
    return TournamentView(
        id=t.id,
        name=t.name,
        game=t.game,
        preset=t.preset,
        status=t.status,
        cap=t.cap,
        registration_deadline=t.registration_deadline,
        overrides=dict(t.overrides or {}),
    )


class TournamentService(BaseService):
    async def create(
        self,
        actor: Actor,
        *,
        name: str,
        preset: str,
        cap: int | None = None,
        registration_deadline: datetime | None = None,
        overrides: Mapping[str, Any] | None = None,
    ) -> TournamentView:
        """Create a tournament with a ruleset preset (organizer role)."""
        clean_name = clean_text(name, field="name", max_len=NAME_MAX)
        assert clean_name is not None
        if preset not in PRESET_NAMES:
            raise InvalidInput("error.unknown_preset", preset=preset[:64], known=", ".join(PRESET_NAMES))
        try:
            loaded = load_preset(preset, overrides)
        except PresetError as exc:
            raise InvalidInput("error.bad_override", detail=str(exc.value)[:200]) from None
        if cap is not None and not 2 <= cap <= CAP_MAX:
            raise InvalidInput("error.out_of_range", field="cap", min=2, max=CAP_MAX, value=cap)
        if registration_deadline is not None and registration_deadline <= self._clock():
            raise InvalidInput("error.deadline_in_past")
        async with self._sessionmaker() as session, session.begin():
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            require(actor, config, StaffRole.ORGANIZER)
            if await repo.get_tournament_by_name(session=session, guild_id=actor.guild_id, name=clean_name):
                raise Conflict("error.tournament_exists", name=clean_name)
            tournament = Tournament(
                guild_id=actor.guild_id,
                name=clean_name,
                game=loaded.game,
                preset=preset,
                overrides=dict(overrides or {}),
                status=TournamentStatus.REGISTRATION_OPEN.value,
                registration_deadline=registration_deadline,
                cap=cap,
                created_by=actor.user_id,
                created_at=self._clock(),
            )
            session.add(tournament)
            try:
                await session.flush()
            except IntegrityError:  # a concurrent create with the same name won the race
                raise Conflict("error.tournament_exists", name=clean_name) from None
            await repo.add_audit(
                session=session,
                guild_id=actor.guild_id,
                actor_id=actor.user_id,
                action="tournament.create",
                entity="tournament",
                entity_id=tournament.id,
                details={"name": clean_name, "preset": preset, "cap": cap},
            )
            return _view(tournament)

    async def get(self, guild_id: int, name: str) -> TournamentView:
        async with self._sessionmaker() as session:
            return _view(await tournament_or_404(session, guild_id, name))

    async def list(self, guild_id: int, *, name_prefix: str = "", limit: int = 25) -> list[TournamentView]:
        async with self._sessionmaker() as session:
            rows = await repo.list_tournaments(session=session, guild_id=guild_id, name_prefix=name_prefix, limit=limit)
            return [_view(t) for t in rows]
