"""Registration use cases (BOT-REG-1, BOT-REG-2, BOT-REG-3): players register or withdraw; organizers add,
remove and edit players; the waitlist moves up when a place frees. CSV import/export: ``roster``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError

from bot.db.models import Registration, RegistrationStatus, RoundKind, RoundStatus, Tournament, TournamentStatus
from bot.errors import Conflict, InvalidInput, NotFound
from bot.services._base import BaseService, Spellings, UseCase, clean_text, id_of
from bot.services.access import Actor, StaffRole

NAME_MAX = 64
CLUB_MAX = 64
TEAM_MAX = 64
FAMILY_MAX = 64

# Tournament states in which the player list may still change by staff hand.
EDITABLE_STATES = (TournamentStatus.REGISTRATION_OPEN, TournamentStatus.REGISTRATION_CLOSED)
HOLDS_A_PLACE = (RegistrationStatus.REGISTERED, RegistrationStatus.VALIDATED)


@dataclass(frozen=True, slots=True)
class RegistrationView:
    id: int
    user_id: int | None
    display_name: str
    club: str | None
    team: str | None
    status: str
    family_group: str | None = None


@dataclass(frozen=True, slots=True)
class RegistrationOutcome:
    registration: RegistrationView
    tournament_name: str
    waitlisted: bool
    active_count: int
    cap: int | None
    identity_wanted: bool = False  # the tournament goes to the national ranking and this player's identity is missing
    late_from_round: int | None = None  # a late entry (issue 47): the first round they can play; earlier ones absences


@dataclass(frozen=True, slots=True)
class PlayerList:
    tournament_name: str
    game: str
    cap: int | None
    players: tuple[RegistrationView, ...]
    counts: dict[str, int]
    teams: tuple[tuple[str, int], ...] = ()  # NP-TAB-1: each team and its players holding a place, largest first


@dataclass(frozen=True, slots=True)
class WithdrawalOutcome:
    """A player left (withdrawn or removed); ``promoted`` is the waitlisted player who took the place."""

    registration: RegistrationView
    tournament_name: str
    promoted: RegistrationView | None
    deleted: bool = False


def _view(r: Registration) -> RegistrationView:
    return RegistrationView(id_of(r), r.user_id, r.display_name, r.club, r.team, r.status, r.family_group)


async def promote_from_waitlist(uc: UseCase, *, now: datetime) -> Registration | None:
    """BOT-REG-2: when the use case's tournament has a free place, the first waitlisted player takes it."""
    tournament, tid = uc.tournament, uc.tournament_id
    if tournament.status not in EDITABLE_STATES:
        return None
    active = await uc.registrations.count_active(tournament_id=tid)
    if tournament.cap is not None and active >= tournament.cap:
        return None
    nxt = await uc.registrations.first_waitlisted_registration(tournament_id=tid)
    if nxt is None:
        return None
    # Once the list is validated (registration closed), a promoted player joins the validated list.
    if tournament.status == TournamentStatus.REGISTRATION_CLOSED:
        nxt.status, nxt.validated_at = RegistrationStatus.VALIDATED, now
    else:
        nxt.status = RegistrationStatus.REGISTERED
    await uc.flush()
    await uc.audit("registration.promote", "registration", nxt.id, tournament=tournament.name,
                   name=nxt.display_name, status=nxt.status)  # fmt: skip
    return nxt


async def find_player(uc: UseCase, *, name: str | None, user_id: int | None) -> Registration:
    """A registration of the use case's tournament by Discord user or by name (withdrawn players are found only by
    user)."""
    tid = uc.tournament_id
    reg: Registration | None = None
    if user_id is not None:
        reg = await uc.registrations.for_user(tournament_id=tid, user_id=user_id)
    elif name is not None and name.strip():
        reg = await uc.registrations.by_name(tournament_id=tid, display_name=name)
    if reg is None:
        shown = (name or "").strip()[:64] or (f"<@{user_id}>" if user_id else "?")
        raise NotFound("error.player_not_found", name=shown, tournament=uc.tournament.name)
    return reg


def staff_status(t: Tournament, waitlisted: bool, *, list_validated: bool = True) -> RegistrationStatus:
    """Staff additions (and late entries) skip the deadline; once registration has closed they join the list as it
    stands: validated when it was validated (``list_validated``: a draw takes the validated players only when there
    are some), registered otherwise."""
    if waitlisted:
        return RegistrationStatus.WAITLISTED
    if list_validated and t.status in (TournamentStatus.REGISTRATION_CLOSED, TournamentStatus.RUNNING):
        return RegistrationStatus.VALIDATED
    return RegistrationStatus.REGISTERED


async def list_is_validated(uc: UseCase) -> bool:
    """Whether any player of the use case's tournament is validated (then the draws take the validated players
    only)."""
    counts = await uc.registrations.counts(tournament_id=uc.tournament_id)
    return counts.get(RegistrationStatus.VALIDATED, 0) > 0


async def late_entry_round(uc: UseCase) -> int | None:
    """A late entry (issue 47, ``tournament.late_entry``): once registration has closed or the tournament runs, the
    round a player entering now would play first, while the preset still takes entries (``open``: a qualifying
    round is still to be drawn; a round K: up to round K); None when it does not (or registration is simply open)."""
    t, rules = uc.tournament, uc.rules.tournament
    if rules.late_entry == "closed" or t.status not in (TournamentStatus.REGISTRATION_CLOSED, TournamentStatus.RUNNING):
        return None
    rounds = await uc.rounds.list_rounds(tournament_id=uc.tournament_id)
    if any(r.kind != RoundKind.QUALIFYING for r in rounds):
        return None  # the final phase has begun: the qualification is over
    drawn = sum(1 for r in rounds if r.status != RoundStatus.PLANNED)
    return drawn + 1 if rules.late_entry_allowed(drawn) else None


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
        now = self._clock()
        # The refusals that need no lock first; the tournament's lock last, held only for the count and the write
        # (a rush of hundreds queues for as short a time as possible), and the state checked again under it.
        async with self.run(actor, role=StaffRole.PLAYER, tournament=tournament) as uc:
            t, tid = uc.tournament, uc.tournament_id
            await self._open_for_entries(uc, now)
            clash = await uc.registrations.by_name(tournament_id=tid, display_name=name)
            if clash is not None and clash.user_id != actor.user_id:
                raise Conflict("error.name_taken", name=name)
            await uc.tournaments.lock(name=tournament)
            await uc.refresh(t)
            late = await self._open_for_entries(uc, now)
            existing = await uc.registrations.for_user(tournament_id=tid, user_id=actor.user_id)
            if existing is not None and existing.status != RegistrationStatus.WITHDRAWN:
                raise Conflict("error.already_registered", tournament=t.name, status=existing.status)
            active = await uc.registrations.count_active(tournament_id=tid)
            waitlisted = t.cap is not None and active >= t.cap
            status = RegistrationStatus.WAITLISTED if waitlisted else RegistrationStatus.REGISTERED
            if late is not None:
                status = staff_status(t, waitlisted, list_validated=await list_is_validated(uc))
            spellings = await Spellings.of(uc)
            club_name, team_name = spellings.spell("club", club_name), spellings.spell("team", team_name)
            try:
                async with uc.savepoint():  # a refused write leaves the transaction usable
                    if existing is None:
                        reg = Registration(guild_id=actor.guild_id, tournament_id=tid, user_id=actor.user_id,
                                           display_name=name, club=club_name, team=team_name, status=status,
                                           registered_at=now)  # fmt: skip
                        uc.add(reg)
                    else:  # a withdrawn player comes back
                        reg = existing
                        reg.display_name, reg.club, reg.team = name, club_name, team_name
                        reg.status, reg.registered_at, reg.withdrawn_at = status, now, None
                    if status is RegistrationStatus.VALIDATED:
                        reg.validated_at = now
            except IntegrityError as exc:  # a simultaneous registration won: the database's constraint says which
                raise entry_conflict(exc, t.name, name) from None
            await uc.audit("registration.create", "registration", reg.id, tournament=t.name, name=name,
                           club=club_name, team=team_name, status=reg.status, late_from_round=late)  # fmt: skip
            return RegistrationOutcome(
                registration=_view(reg),
                tournament_name=t.name,
                waitlisted=waitlisted,
                active_count=active + (0 if waitlisted else 1),
                cap=t.cap,
                identity_wanted=t.publishing is not None and not (reg.first_name and reg.surname),
                late_from_round=late,
            )

    @staticmethod
    async def _open_for_entries(uc: UseCase, now: datetime) -> int | None:
        """Refuses an entry the tournament no longer takes; a late entry (issue 47) returns the first round the
        player can play (the registration deadline was for the start: a late entry is after it by definition)."""
        t = uc.tournament
        if t.status != TournamentStatus.REGISTRATION_OPEN:
            late = await late_entry_round(uc)
            if late is None:
                raise Conflict("error.registration_closed", tournament=t.name)
            return late
        if t.registration_deadline is not None and now > t.registration_deadline:
            raise Conflict("error.registration_deadline_passed", tournament=t.name)
        return None

    async def list_players(self, guild_id: int, *, tournament: str) -> PlayerList:
        async with self.run(guild_id, tournament=tournament) as uc:
            t = uc.tournament
            rows = await uc.registrations.listed(tournament_id=uc.tournament_id)
            players = tuple(_view(r) for r in rows)
            counts = Counter(p.status for p in players)
            teams = Counter(p.team for p in players if p.team and p.status in HOLDS_A_PLACE)
            ordered = tuple(sorted(teams.items(), key=lambda kv: (-kv[1], kv[0].casefold())))
            return PlayerList(t.name, t.game, t.cap, players, dict(counts), ordered)

    async def player_names(self, guild_id: int, *, tournament: str, prefix: str = "", limit: int = 25) -> list[str]:
        """Names of the players still in the tournament, for autocomplete."""
        async with self.run(guild_id) as uc:  # an unknown tournament: no names, not an error
            t = await uc.tournaments.by_name(tournament)
            if t is None:
                return []
            rows = await uc.registrations.listed(tournament_id=id_of(t))
            needle = prefix.strip().lower()
            return [
                r.display_name
                for r in rows
                if r.status != RegistrationStatus.WITHDRAWN and needle in r.display_name.lower()
            ][:limit]

    async def withdraw(self, actor: Actor, *, tournament: str) -> WithdrawalOutcome:
        """BOT-REG-3: the actor withdraws themself; a freed place goes to the first waitlisted player."""
        now = self._clock()
        async with self.run(actor, tournament=tournament, lock=True) as uc:
            t = uc.tournament
            reg = await uc.registrations.for_user(tournament_id=uc.tournament_id, user_id=actor.user_id)
            if reg is None or reg.status == RegistrationStatus.WITHDRAWN:
                raise Conflict("error.not_registered", tournament=t.name)
            if reg.status == RegistrationStatus.DISQUALIFIED:
                raise Conflict("error.player_disqualified", name=reg.display_name)
            if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
                raise Conflict("error.tournament_over", tournament=t.name)
            return await self._leave(uc, reg, now=now, action="registration.withdraw")

    async def _leave(
        self,
        uc: UseCase,
        reg: Registration,
        *,
        now: datetime,
        action: str,
        delete_if_unused: bool = False,
    ) -> WithdrawalOutcome:
        t = uc.tournament
        before = reg.status
        view_before = _view(reg)
        deleted = False
        if delete_if_unused and not await uc.registrations.is_referenced(registration_id=view_before.id):
            await uc.registrations.delete(registration=reg)
            deleted = True
        else:
            reg.status, reg.withdrawn_at = RegistrationStatus.WITHDRAWN, now
        await uc.flush()
        await uc.audit(action, "registration", view_before.id, tournament=t.name, name=view_before.display_name,
                       before=before, deleted=deleted)  # fmt: skip
        promoted = None
        if before in HOLDS_A_PLACE:
            promoted = await promote_from_waitlist(uc, now=now)
        shown = view_before if deleted else _view(reg)
        return WithdrawalOutcome(shown, t.name, _view(promoted) if promoted else None, deleted)

    async def add_player(
        self,
        actor: Actor,
        *,
        tournament: str,
        display_name: str,
        user_id: int | None = None,
        club: str | None = None,
        team: str | None = None,
        family_group: str | None = None,
    ) -> RegistrationOutcome:
        """An organizer registers someone: a server member or a name without a Discord account (BOT-REG-1)."""
        name = clean_text(display_name, field="name", max_len=NAME_MAX)
        club_name = clean_text(club, field="club", max_len=CLUB_MAX, required=False)
        team_name = clean_text(team, field="team", max_len=TEAM_MAX, required=False)
        family = clean_text(family_group, field="family", max_len=FAMILY_MAX, required=False)
        now = self._clock()
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament, lock=True) as uc:
            t, tid = uc.tournament, uc.tournament_id
            late = await late_entry_round(uc)
            if t.status not in EDITABLE_STATES and late is None:
                raise Conflict("error.tournament_started", tournament=t.name)
            existing = None
            if user_id is not None:
                existing = await uc.registrations.for_user(tournament_id=tid, user_id=user_id)
                if existing is not None and existing.status != RegistrationStatus.WITHDRAWN:
                    raise Conflict("error.member_already_registered", name=existing.display_name, tournament=t.name)
            clash = await uc.registrations.by_name(tournament_id=tid, display_name=name)
            if clash is not None:
                raise Conflict("error.name_taken", name=name)
            active = await uc.registrations.count_active(tournament_id=tid)
            waitlisted = t.cap is not None and active >= t.cap
            status = staff_status(t, waitlisted, list_validated=await list_is_validated(uc))
            spellings = await Spellings.of(uc)
            club_name, team_name = spellings.spell("club", club_name), spellings.spell("team", team_name)
            family = spellings.spell("family_group", family)
            try:
                async with uc.savepoint():  # a refused write leaves the transaction usable
                    reg = existing or Registration(
                        guild_id=actor.guild_id, tournament_id=tid, user_id=user_id, display_name=name
                    )
                    reg.display_name, reg.club, reg.team, reg.family_group = name, club_name, team_name, family
                    reg.status, reg.registered_at, reg.withdrawn_at = status, now, None
                    reg.validated_at = now if status == RegistrationStatus.VALIDATED else None
                    uc.add(reg)
            except IntegrityError as exc:
                raise entry_conflict(exc, t.name, name) from None
            await uc.audit("registration.add", "registration", reg.id, tournament=t.name, name=name, user_id=user_id,
                           status=status, late_from_round=late)  # fmt: skip
            return RegistrationOutcome(_view(reg), t.name, waitlisted, active + (0 if waitlisted else 1), t.cap,
                                       late_from_round=late)  # fmt: skip

    async def remove_player(
        self, actor: Actor, *, tournament: str, name: str | None = None, user_id: int | None = None
    ) -> WithdrawalOutcome:
        """An organizer removes a player: deleted if never seated or checked in, else recorded as withdrawn."""
        now = self._clock()
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament, lock=True) as uc:
            reg = await find_player(uc, name=name, user_id=user_id)
            if reg.status == RegistrationStatus.WITHDRAWN:
                raise Conflict("error.player_already_withdrawn", name=reg.display_name)
            return await self._leave(uc, reg, now=now, action="registration.remove", delete_if_unused=True)

    async def edit_player(
        self,
        actor: Actor,
        *,
        tournament: str,
        player: str,
        name: str | None = None,
        club: str | None = None,
        team: str | None = None,
        family_group: str | None = None,
    ) -> RegistrationView:
        """An organizer corrects a player's name, club, team or family group ("-" clears a field)."""
        if all(v is None for v in (name, club, team, family_group)):
            raise InvalidInput("error.nothing_to_change")
        new_name = clean_text(name, field="name", max_len=NAME_MAX, required=False) if name is not None else None
        if name is not None and new_name is None:
            raise InvalidInput("error.field_empty", field="name")
        changes: dict[str, str | None] = {}
        for attr, value, fld, limit in (
            ("club", club, "club", CLUB_MAX),
            ("team", team, "team", TEAM_MAX),
            ("family_group", family_group, "family", FAMILY_MAX),
        ):
            if value is not None:
                changes[attr] = None if value.strip() == "-" else clean_text(value, field=fld, max_len=limit)
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament, lock=True) as uc:
            t, tid = uc.tournament, uc.tournament_id
            reg = await find_player(uc, name=player, user_id=None)
            if new_name is not None and new_name.lower() != reg.display_name.lower():
                clash = await uc.registrations.by_name(tournament_id=tid, display_name=new_name)
                if clash is not None:
                    raise Conflict("error.name_taken", name=new_name)
            spellings = await Spellings.of(uc, but=reg.id)
            changes = {attr: spellings.spell(attr, value) for attr, value in changes.items()}
            before = {"name": reg.display_name, "club": reg.club, "team": reg.team, "family": reg.family_group}
            try:
                async with uc.savepoint():  # a refused rename leaves the transaction usable
                    if new_name is not None:
                        reg.display_name = new_name
                    for attr, value in changes.items():
                        setattr(reg, attr, value)
            except IntegrityError as exc:
                raise entry_conflict(exc, t.name, new_name or reg.display_name) from None
            after = {"name": reg.display_name, "club": reg.club, "team": reg.team, "family": reg.family_group}
            await uc.audit("registration.edit", "registration", reg.id, tournament=t.name, before=before, after=after)
            return _view(reg)


def entry_conflict(exc: IntegrityError, tournament: str, name: str) -> Conflict:
    """A registration refused by a unique constraint: the same Discord user (already registered) or an entry
    with the same name (case and invisible characters folded)."""
    detail = str(exc.orig).lower()
    if "user_id" in detail:
        return Conflict("error.already_registered", tournament=tournament, status="registered")
    return Conflict("error.name_taken", name=name)
