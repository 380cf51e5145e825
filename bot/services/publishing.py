"""National publishing (ModuloTorneo): a tournament's publishing settings, each player's identity for the national
ranking, and the check of what the national ranking's validator would refuse (``bot.rules.tournament.modulo``).

Identity fields are optional and asked only when a tournament publishes: first name, surname, birth date, national
id (the player's id in the national ranking), region. The organizer sets anyone's (``/publishing player``), a player
their own (``/publishing me``); a probable duplicate (same name and birth date as another player of the tournament)
is said at once, as the national side refuses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from bot.db.models import Registration
from bot.errors import Conflict, InvalidInput
from bot.rules.tournament.export import read_export
from bot.rules.tournament.modulo import DEFAULT_TYPE, TYPES, ModuloOptions, ModuloProblem, modulo_problems
from bot.services._base import BaseService, clean_text
from bot.services.access import Actor, StaffRole
from bot.services.exports import export_document
from bot.services.registrations import find_player
from bot.services.standings import StandingsService

NAME_MAX = 64
REGION_MAX = 32
ORGANISER_MAX = 100
VENUE_MAX = 200
CLEAR = "-"  # a field given as "-" is cleared
_DATE_FORMS = (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$"), re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$"))


@dataclass(frozen=True, slots=True)
class PublishingView:
    tournament_name: str
    on: bool
    organiser: str | None
    type: str | None
    venue: str | None


@dataclass(frozen=True, slots=True)
class IdentityView:
    name: str
    first_name: str | None
    surname: str | None
    birth_date: date | None
    national_id: int | None
    region: str | None
    duplicates: tuple[str, ...]  # other players of the tournament with the same name and birth date


def parse_birth_date(text: str, *, today: date) -> date:
    """A birth date typed as ``YYYY-MM-DD`` or ``DD/MM/YYYY`` (as the national workbook writes it), in the past."""
    raw = text.strip()
    for form, order in ((_DATE_FORMS[0], (0, 1, 2)), (_DATE_FORMS[1], (2, 1, 0))):
        m = form.match(raw)
        if m is None:
            continue
        parts = [int(m.group(i + 1)) for i in range(3)]
        try:
            born = date(parts[order[0]], parts[order[1]], parts[order[2]])
        except ValueError:
            break
        if born >= today or born.year < 1900:
            break
        return born
    raise InvalidInput("error.publishing.birth_date", value=raw[:20])


def _same_person(reg: Registration, others: list[Registration]) -> tuple[str, ...]:
    if not (reg.first_name and reg.surname):
        return ()
    key = (f"{reg.first_name} {reg.surname}".casefold(), reg.birth_date)
    return tuple(
        o.display_name
        for o in others
        if o.id != reg.id
        and o.first_name
        and o.surname
        and (f"{o.first_name} {o.surname}".casefold(), o.birth_date) == key
    )


class PublishingService(BaseService):
    standings: StandingsService  # set by Services

    async def settings(
        self,
        actor: Actor,
        *,
        tournament: str,
        organiser: str | None = None,
        type: str | None = None,
        venue: str | None = None,
        off: bool = False,
    ) -> PublishingView:
        """Turn national publishing on (and set the workbook's organiser ``CITY [Club]``, type and venue) or off."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            t = uc.tournament
            if off:
                t.publishing = None
            else:
                current = dict(t.publishing or {})
                if organiser is not None:
                    current["organiser"] = clean_text(organiser, field="organiser", max_len=ORGANISER_MAX)
                if venue is not None:
                    current["venue"] = clean_text(venue, field="venue", max_len=VENUE_MAX)
                if type is not None:
                    chosen = next((x for x in TYPES if x.casefold() == type.strip().casefold()), None)
                    if chosen is None:
                        raise InvalidInput("error.publishing.type", value=type[:40], types=", ".join(TYPES))
                    current["type"] = chosen
                current.setdefault("type", DEFAULT_TYPE)
                t.publishing = current
            await uc.flush()
            await uc.audit(
                "publishing.settings", "tournament", uc.tournament_id, tournament=t.name, publishing=t.publishing
            )
            return _publishing_view(t.name, t.publishing)

    async def identity(
        self,
        actor: Actor,
        *,
        tournament: str,
        player: str | None = None,
        first_name: str | None = None,
        surname: str | None = None,
        birth_date: str | None = None,
        national_id: int | None = None,
        region: str | None = None,
    ) -> IdentityView:
        """Set a player's identity for the national ranking: the organizer anyone's (``player``), a player their
        own (``player`` None). A field given as "-" is cleared; the others stay."""
        if all(v is None for v in (first_name, surname, birth_date, national_id, region)):
            raise InvalidInput("error.nothing_to_change")
        role = StaffRole.ORGANIZER if player is not None else None
        async with self.run(actor, role=role, tournament=tournament, lock=True) as uc:
            t = uc.tournament
            if player is None:  # your own identity: you need an entry of your own
                own = await uc.registrations.for_user(tournament_id=uc.tournament_id, user_id=actor.user_id)
                if own is None:
                    raise Conflict("error.not_registered", tournament=t.name)
                reg = own
            else:
                reg = await find_player(uc, name=player, user_id=None)
            for attr, value, fld, limit in (
                ("first_name", first_name, "first_name", NAME_MAX),
                ("surname", surname, "surname", NAME_MAX),
                ("region", region, "region", REGION_MAX),
            ):
                if value is not None:
                    setattr(reg, attr, None if value.strip() == CLEAR else clean_text(value, field=fld, max_len=limit))
            if birth_date is not None:
                reg.birth_date = (
                    None if birth_date.strip() == CLEAR else parse_birth_date(birth_date, today=uc.clock().date())
                )
            if national_id is not None:
                if not 0 <= national_id < 2**53:
                    raise InvalidInput("error.publishing.national_id", value=national_id)
                reg.national_id = national_id or None
            await uc.flush()
            others = list(await uc.registrations.listed(tournament_id=uc.tournament_id))
            await uc.audit("publishing.identity", "registration", reg.id, tournament=t.name)
            return IdentityView(
                reg.display_name,
                reg.first_name,
                reg.surname,
                reg.birth_date,
                reg.national_id,
                reg.region,
                _same_person(reg, others),
            )

    async def check(self, actor: Actor, *, tournament: str) -> tuple[PublishingView, list[ModuloProblem]]:
        """What the national ranking's validator would refuse or warn about, from the tournament as it stands."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            t = uc.tournament
            if t.game != "risiko":
                raise Conflict("error.publishing.not_risiko")
            document = await export_document(uc, self.standings, now=uc.clock())
            export = read_export(document)
            return _publishing_view(t.name, t.publishing), modulo_problems(export, ModuloOptions(type=""))


def _publishing_view(name: str, publishing: dict[str, Any] | None) -> PublishingView:
    p = publishing or {}
    return PublishingView(name, publishing is not None, p.get("organiser"), p.get("type"), p.get("venue"))
