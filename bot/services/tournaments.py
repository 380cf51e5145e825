"""Tournament use cases: create, edit, list, show, close registration, validate the list (BOT-REG-1, BOT-REG-2), and
delete a test tournament that has no results (issue 44)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

from bot.db.models import RegistrationStatus, RoundKind, RoundStatus, Tournament, TournamentStatus
from bot.errors import Conflict, InvalidInput, NotFound
from bot.rules.jsondoc import DocumentError, NotJson, loads_bounded
from bot.rules.presets import PRESET_NAMES, PresetError, PresetFieldError, UnknownOverrideKey
from bot.rules.ruleset import Ruleset, load_ruleset
from bot.services._base import BaseService, UseCase, clean_text, document_refusal, id_of
from bot.services.access import STAFF, Actor, StaffRole
from bot.services.schedules import plan_registration_close, server_instant

NAME_MAX = 100
CAP_MAX = 2000
OVERRIDES_MAX = 2000
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
QUALIFYING_ROUNDS_MAX = 20  # qualifying rounds a tournament may fix (0: not fixed, the organizers close it by hand)


def parse_overrides(text: str | None) -> dict[str, Any] | None:
    """The ``overrides`` option: a JSON object (e.g. ``{"tournament": {"rounds": 3}}``); empty → None."""
    if text is None or not text.strip():
        return None
    if len(text) > OVERRIDES_MAX:
        raise InvalidInput("error.field_too_long", field="overrides", max=OVERRIDES_MAX, length=len(text))
    try:
        value = loads_bounded(text, max_chars=OVERRIDES_MAX, max_depth=4)  # table → field → value
    except DocumentError as exc:
        if isinstance(exc, NotJson):
            raise InvalidInput("error.overrides_not_json", detail=exc.message[:80], column=exc.column) from None
        raise document_refusal(exc, field="overrides") from None
    if not isinstance(value, dict):
        raise InvalidInput("error.overrides_not_object")
    return value


def _preset_refusal(exc: PresetError) -> InvalidInput:
    """A preset override no engine can use, as one localised line naming the field (and what is allowed)."""
    if isinstance(exc, PresetFieldError):
        return InvalidInput(
            "error.preset_field", setting=exc.field, value=repr(exc.bad_value)[:80], allowed=exc.allowed[:200]
        )
    detail = str(exc.value)[:200]
    if isinstance(exc, UnknownOverrideKey):
        return InvalidInput("error.bad_override", detail=detail, known=", ".join(exc.known)[:400])
    if exc.code in ("override_wrong_type", "override_not_table"):
        return InvalidInput("error.override_wrong_type", key=detail)
    return InvalidInput("error.override_invalid", detail=detail)


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
    format: str = "italian"  # NP-FMT-1: "italian" (cumulative points) or "knockout"
    final_size: int = 0
    qualifying_rounds: int = 0  # the preset's number, or the tournament's own (0: not fixed)


@dataclass(frozen=True, slots=True)
class TournamentDetail:
    tournament: TournamentView
    counts: Mapping[str, int]
    rounds: int
    current_round: int | None


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """BOT-REG-2 / ARB 4: what validating the list did."""

    tournament: TournamentView
    validated: int
    already_validated: int
    late: tuple[str, ...]
    waitlisted: int


@dataclass(frozen=True, slots=True)
class TournamentDeletion:
    """A tournament with no results, and what deleting it removes (issue 44: a test tournament goes)."""

    id: int
    name: str
    registrations: int
    rounds: int
    tables: int
    stamp: int  # the tournament's creation instant (µs): with the id, it names this tournament and no later one


def creation_stamp(created_at: datetime) -> int:
    """A tournament's creation instant in whole microseconds since the epoch: a Confirm button carries it with the
    id, because SQLite gives a deleted tournament's id to the next one created."""
    return (created_at - EPOCH) // timedelta(microseconds=1)


def _view(t: Tournament, ruleset: Ruleset) -> TournamentView:
    """``t`` as users see it, with its ruleset's format (``uc.rules``, or ``uc.about(t).rules``)."""
    rules = ruleset.tournament
    return TournamentView(
        id=id_of(t),
        name=t.name,
        game=t.game,
        preset=t.preset,
        status=t.status,
        cap=t.cap,
        registration_deadline=t.registration_deadline,
        overrides=dict(t.overrides or {}),
        format=rules.format,
        final_size=rules.final_size,
        qualifying_rounds=rules.qualifying_rounds,
    )


def _check_qualifying_rounds(value: int) -> None:
    if not 0 <= value <= QUALIFYING_ROUNDS_MAX:
        raise InvalidInput("error.tournament.qualifying_rounds_range", value=value, max=QUALIFYING_ROUNDS_MAX)


def _with_tournament_setting(overrides: Mapping[str, Any] | None, name: str, value: Any) -> dict[str, Any]:
    """``overrides`` with one field of the preset's ``[tournament]`` table set, stored as a JSON override is."""
    section = dict((overrides or {}).get("tournament") or {})
    return {**(overrides or {}), "tournament": {**section, name: value}}


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
        format: str | None = None,
        qualifying_rounds: int | None = None,
    ) -> TournamentView:
        """Create a tournament with a ruleset preset (organizer role); ``format`` (NP-FMT-1: "italian" or
        "knockout") is the preset's ``tournament.format``, refused where the preset does not offer it;
        ``qualifying_rounds`` (0 … 20, 0: not fixed) the number of qualifying rounds, the preset's otherwise. Both
        are stored as the JSON overrides are (and win over the same field typed there)."""
        clean_name = clean_text(name, field="name", max_len=NAME_MAX)
        if preset not in PRESET_NAMES:
            raise InvalidInput("error.unknown_preset", preset=preset[:64], known=", ".join(PRESET_NAMES))
        if format is not None:
            overrides = _with_tournament_setting(overrides, "format", format)
        if qualifying_rounds is not None:
            _check_qualifying_rounds(qualifying_rounds)
            overrides = _with_tournament_setting(overrides, "qualifying_rounds", qualifying_rounds)
        try:  # every section parsed with its engine's own checks: a bad override is refused now, not weeks later
            ruleset = load_ruleset(preset, overrides)  # not stored yet: no use case has it
        except PresetError as exc:
            raise _preset_refusal(exc) from None
        if cap is not None and not 2 <= cap <= CAP_MAX:
            raise InvalidInput("error.out_of_range", field="cap", min=2, max=CAP_MAX, value=cap)
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            if registration_deadline is not None:  # naive: the server's wall clock
                registration_deadline = server_instant(uc.config, registration_deadline)
                if registration_deadline <= uc.clock():
                    raise InvalidInput("error.deadline_in_past")
            if await uc.tournaments.by_name(clean_name):
                raise Conflict("error.tournament_exists", name=clean_name)
            tournament = Tournament(
                guild_id=actor.guild_id,
                name=clean_name,
                game=ruleset.preset.game,
                preset=preset,
                overrides=dict(overrides or {}),
                status=TournamentStatus.REGISTRATION_OPEN,
                registration_deadline=registration_deadline,
                cap=cap,
                created_by=actor.user_id,
                created_at=uc.clock(),
            )
            try:
                await uc.insert(tournament)
            except IntegrityError:  # a concurrent create with the same name won the race
                raise Conflict("error.tournament_exists", name=clean_name) from None
            await plan_registration_close(uc, tournament, uc.clock())
            await uc.audit("tournament.create", "tournament", tournament.id, name=clean_name, preset=preset, cap=cap)
            return _view(tournament, ruleset)

    async def edit(self, actor: Actor, name: str, *, qualifying_rounds: int | None = None) -> TournamentView:
        """Change a tournament's settings (organizers): ``qualifying_rounds`` (0 … 20, 0: not fixed), stored as a
        JSON override is. Refused once the finals began, or below the qualifying rounds already drawn."""
        if qualifying_rounds is None:
            raise InvalidInput("error.tournament.nothing_to_edit")
        _check_qualifying_rounds(qualifying_rounds)
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=name, lock=True) as uc:
            t = uc.tournament
            rounds = await uc.rounds.list_rounds(tournament_id=uc.tournament_id)
            if any(r.kind != RoundKind.QUALIFYING for r in rounds):
                raise Conflict("error.round_after_finals", tournament=t.name)
            drawn = sum(1 for r in rounds if r.status != RoundStatus.PLANNED)
            if 0 < qualifying_rounds < drawn:
                raise Conflict("error.tournament.qualifying_rounds_drawn", tournament=t.name, count=drawn,
                               value=qualifying_rounds)  # fmt: skip
            before = uc.rules.tournament.qualifying_rounds
            overrides = _with_tournament_setting(t.overrides, "qualifying_rounds", qualifying_rounds)
            try:
                uc.change_overrides(overrides)
            except PresetError as exc:  # pragma: no cover - the range above is what the preset accepts
                raise _preset_refusal(exc) from None
            await uc.flush()
            await uc.audit("tournament.edit", "tournament", t.id, name=t.name,
                           qualifying_rounds={"before": before, "after": qualifying_rounds})  # fmt: skip
            return _view(t, uc.rules)

    async def get(self, guild_id: int, name: str) -> TournamentView:
        async with self.run(guild_id, tournament=name) as uc:
            return _view(uc.tournament, uc.rules)

    async def list(self, guild_id: int, *, name_prefix: str = "", limit: int = 25) -> list[TournamentView]:
        async with self.run(guild_id) as uc:
            rows = await uc.tournaments.listed(name_prefix=name_prefix, limit=limit)
            return [_view(t, uc.about(t).rules) for t in rows]

    async def show(self, guild_id: int, name: str) -> TournamentDetail:
        """A tournament with its registration counts per status and its rounds."""
        async with self.run(guild_id, tournament=name) as uc:
            tid = uc.tournament_id
            counts = await uc.registrations.counts(tournament_id=tid)
            rounds = await uc.registrations.rounds(tournament_id=tid)
            current = await uc.registrations.checkin_current_round(tournament_id=tid)
            return TournamentDetail(_view(uc.tournament, uc.rules), counts, len(rounds),
                                    current.number if current else None)  # fmt: skip

    async def close_registration(self, actor: Actor, name: str) -> TournamentView:
        """Close registration (organizers): /register is refused from now on (BOT-REG-1)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=name) as uc:
            t = uc.tournament
            if t.status != TournamentStatus.REGISTRATION_OPEN:
                raise Conflict("error.registration_not_open", tournament=t.name, status=t.status)
            t.status = TournamentStatus.REGISTRATION_CLOSED
            await uc.flush()
            await uc.audit("tournament.close", "tournament", t.id, name=t.name)
            return _view(t, uc.rules)

    async def validate(self, actor: Actor, name: str) -> ValidationReport:
        """Validate the list by the deadline (organizer or referee; BOT-REG-2, ARB 4).

        Registered players become validated; a registration made after the deadline is refused (recorded as
        withdrawn, reason "late"); waitlisted players stay on the waitlist. Registration closes.
        """
        async with self.run(actor, role=STAFF, tournament=name) as uc:
            t, now = uc.tournament, uc.clock()
            if t.status not in (TournamentStatus.REGISTRATION_OPEN, TournamentStatus.REGISTRATION_CLOSED):
                raise Conflict("error.tournament_started", tournament=t.name)
            rows = await uc.registrations.listed(tournament_id=uc.tournament_id)
            validated = already = waitlisted = 0
            late: list[str] = []
            deadline = t.registration_deadline
            for r in rows:
                if r.status == RegistrationStatus.VALIDATED:
                    already += 1
                elif r.status == RegistrationStatus.WAITLISTED:
                    waitlisted += 1
                elif r.status == RegistrationStatus.REGISTERED:
                    if deadline is not None and r.registered_at > deadline:
                        r.status, r.withdrawn_at = RegistrationStatus.WITHDRAWN, now
                        late.append(r.display_name)
                    else:
                        r.status, r.validated_at = RegistrationStatus.VALIDATED, now
                        validated += 1
            if validated + already == 0:
                raise Conflict("error.nobody_to_validate", tournament=t.name)
            t.status = TournamentStatus.REGISTRATION_CLOSED
            await uc.flush()
            await uc.audit("tournament.validate", "tournament", t.id, validated=validated, already=already, late=late,
                           waitlisted=waitlisted)  # fmt: skip
            return ValidationReport(_view(t, uc.rules), validated, already, tuple(late), waitlisted)

    # ----------------------------------------------------------------------------- deleting a test tournament

    async def deletion(self, actor: Actor, name: str) -> TournamentDeletion:
        """What deleting ``name`` would remove (organizers), shown before the Confirm button; refused at once when
        the tournament has results (it stays in the history)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=name) as uc:
            return await _deletable(uc)

    async def delete(self, actor: Actor, tournament_id: int, stamp: int) -> TournamentDeletion:
        """Delete a tournament with no results and every row of it (organizers; the Confirm button).

        "No results" (decided for issue 44): no table of it has a report (a result line, or a report stamped on the
        table: points, a final situation, FIRK's sit-out), and no sanction was ever logged in it (revoked and
        annulled cases too: their numbers were given). Registrations, draws, check-ins, clocks, calls and reminders
        may exist: they go with it. A season it belongs to loses it; a one-off game or season sanction dated at it
        is dated at the season's tournament before it. Once only: the tournament's row is locked first and the
        check and the delete are one transaction, so of simultaneous presses one deletes and the others are told it
        is already gone. ``stamp`` (:func:`creation_stamp`) must be the tournament's: a Confirm left over from a
        deleted tournament never deletes a later one that got its id."""
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:  # the role first, and the name the id has now
            found = await uc.tournaments.by_id(tournament_id)
        if found is None or creation_stamp(found.created_at) != stamp:
            raise NotFound("error.tournament.already_deleted")
        try:
            async with self.run(actor, role=StaffRole.ORGANIZER, tournament=found.name, lock=True) as uc:
                t = uc.tournament
                if t.id != tournament_id or creation_stamp(t.created_at) != stamp:  # another one made since
                    raise NotFound("error.tournament.already_deleted")
                facts = await _deletable(uc)
                instead = await _season_date_before(uc)
                removed = await uc.tournaments.delete_tournament_rows(tournament_id=tournament_id, name=t.name,
                                                                      given_at_instead=instead)  # fmt: skip
                await uc.audit("tournament.delete", "tournament", tournament_id, name=t.name, preset=t.preset,
                               registrations=facts.registrations, rounds=facts.rounds, tables=facts.tables,
                               rows=removed)  # fmt: skip
                return facts
        except NotFound as exc:
            if exc.key == "error.tournament_not_found":  # deleted by a simultaneous press, after the name was read
                raise NotFound("error.tournament.already_deleted") from None
            raise


async def _deletable(uc: UseCase) -> TournamentDeletion:
    """The use case's tournament's size, or the refusal of a tournament with results (issue 44)."""
    t, tid = uc.tournament, uc.tournament_id
    results = await uc.tournaments.results(tid)
    if results.any:
        raise Conflict("error.tournament.has_results", tournament=t.name, tables=results.reported_tables,
                       sanctions=results.sanctions)  # fmt: skip
    registrations, rounds, tables = await uc.tournaments.size(tid)
    return TournamentDeletion(tid, t.name, registrations, rounds, tables, creation_stamp(t.created_at))


async def _season_date_before(uc: UseCase) -> int | None:
    """The season's tournament just before the use case's (what is dated at it is dated there once it is gone);
    None when it is first in its season, or in none."""
    earlier = await uc.seasons.tournaments_before_in_season(tournament_id=uc.tournament_id)
    return earlier[-1].id if earlier else None
