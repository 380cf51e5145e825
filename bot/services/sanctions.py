"""The referee's desk (BOT-SAN-1, BOT-SAN-2, BOT-SAN-3, RR-SAN-1, RR-REF-1, RK-SAN-1, FIRK-PEN-1).

Referees log a sanction for an infraction of the preset; the rules (``bot.rules.sanctions``) propose the ladder's
next step from the player's earlier offences in the tournament, and the referee confirms it or gives another kind
(kept as an override). Each sanction gets the server's next case number (taken with a row lock, so concurrent
sanctions never share one) and an audit entry. The bot applies what it can apply on its own:

- a disqualification sets the registration to disqualified: later draws and the finals leave the player out;
- standings points (FIRK −7 for disturbing a table, −25 for a deliberate over-placement) come off the general
  standings (``StandingsService`` reads the sanctions in force).

The last place of a game, an expulsion from a game and table-point penalties change a table's result: the referee
enters them in the report (``/review correct``); the sanction records them and the reply says so.

Only the head referee revokes a sanction (audited, with the reason) or decides an appeal; a revoke or an annulled
appeal undoes the consequences. A player appeals their own sanction within the preset's window (RR 11); where the
preset has no window (NP: the official judge's decisions are final) there is no appeal.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from bot.db.models import AppealState, Registration, Sanction
from bot.db.repo.sanctions import SanctionCase
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.rules.sanctions import (
    Consequence,
    SanctionError,
    appeal_rules,
    check_kind,
    consequence_of,
    propose,
    sanction_kinds,
)
from bot.rules.sanctions import Proposal as RuleProposal
from bot.rules.sanctions import infraction as infraction_rules
from bot.services._base import BaseService, UseCase, clean_text, id_of, retry_when_locked
from bot.services.access import Actor, StaffRole
from bot.services.sanction_effects import change_kind, disqualify, rescore_if_needed, sanction_points, undo
from bot.services.sanction_places import round_and_table, sanctioned_player, seat_of, where
from bot.services.sanction_views import (
    ProposalView,
    SanctionList,
    SanctionView,
)

DETAILS_MAX = 1000
REASON_MAX = 500
POINTS_MAX = 1000.0
APPEAL_DECISIONS = ("upheld", "annulled")


async def previous_offences(uc: UseCase, reg: Registration, code: str, table_id: int | None) -> int:
    """The player's earlier offences the ladder counts: in the whole tournament, or — for an infraction whose text
    counts within the game (ARB 23, UFF's forgotten sdadata roll) — at this table only. ``uc``: the use case about
    the tournament (its ruleset says the infraction's scope)."""
    try:
        scope = infraction_rules(uc.rules, code).scope
    except SanctionError as exc:
        raise sanction_refusal(exc) from None
    return await uc.sanctions.count_offences(
        tournament_id=uc.tournament_id, registration_id=id_of(reg), infraction=code, game=table_id,
        in_game_only=scope == "game",
    )  # fmt: skip


def checked_details(details: str | None) -> str | None:
    return clean_text(details, field="details", max_len=DETAILS_MAX, required=False)


def checked_points(points: float | None) -> None:
    if points is not None and not 0 <= abs(points) <= POINTS_MAX:
        raise InvalidInput("error.sanction.bad_points", max=int(POINTS_MAX))


def sanction_refusal(exc: SanctionError) -> InvalidInput:
    return InvalidInput(f"error.sanction.{exc.code}", value=str(exc.value)[:60])


async def tournament_named(uc: UseCase, name: str) -> UseCase:
    """The use case about the tournament ``name`` names in the actor's server (a proposal's, a season's), or "not
    found" in their words."""
    t = await uc.tournaments.by_name(name=name)
    if t is None:
        raise NotFound("error.tournament_not_found", name=name.strip()[:100])
    return uc.about(t)


def referee_of(uc: UseCase) -> Actor:
    """Who gives the sanction (a use case of the desk always has someone acting)."""
    if uc.actor is None:  # pragma: no cover - a programming error: a sanction is given by someone
        raise AssertionError("a sanction needs a referee")
    return uc.actor


async def audit_case(uc: UseCase, action: str, s: Sanction, **details: object) -> None:
    """The audit entry of what a use case did to a case (its number and kind, then ``details``)."""
    await uc.audit(action, "sanction", s.id, case=s.case_number, kind=s.kind, **details)


def case_view(uc: UseCase, case: SanctionCase) -> SanctionView:
    """A case as the desk shows it (``uc``: the use case about its tournament, whose ruleset sets the appeal window)."""
    s, t, reg, rnd, table = case
    window = appeal_rules(uc.rules).appeal_window_minutes
    return SanctionView(
        case_number=s.case_number,
        tournament_name=t.name,
        player_id=id_of(reg),
        player_name=reg.display_name,
        player_user_id=reg.user_id,
        infraction=s.infraction,
        article=s.article,
        kind=s.kind,
        proposed_kind=s.proposed_kind,
        offence=s.offence,
        consequence=s.consequence,
        points=s.points,
        round_number=rnd.number if rnd else None,
        table_number=table.number if table else None,
        table_thread_id=table.thread_id if table else None,
        referee_id=s.referee_id,
        details=s.details,
        created_at=s.created_at,
        revoked=s.revoked_at is not None,
        revoke_reason=s.revoke_reason,
        appeal_state=s.appeal_state,
        appeal_deadline=s.created_at + timedelta(minutes=window) if window else None,
    )


async def views_of(uc: UseCase, rows: Sequence[Sanction]) -> tuple[SanctionView, ...]:
    """The views of these sanctions of the use case's tournament (one query for their players, rounds and tables)."""
    return tuple(
        case_view(uc.about(case.tournament), case) for case in await uc.sanctions.cases([id_of(s) for s in rows])
    )


async def view_of(uc: UseCase, s: Sanction) -> SanctionView:
    (view,) = await views_of(uc, [s])
    return view


async def case_of(uc: UseCase, case_number: int) -> SanctionCase:
    """Case ``case_number`` of the server, with its tournament, player, round and table."""
    s = await uc.sanctions.by_case(case_number=case_number)
    found = await uc.sanctions.cases([id_of(s)]) if s is not None else []
    if not found:
        raise NotFound("error.sanction.not_found", case=case_number)
    return found[0]


class SanctionService(BaseService):
    # --------------------------------------------------------------------------------------- use cases

    async def propose(
        self,
        actor: Actor,
        *,
        tournament: str,
        player: str | None,
        user_id: int | None,
        infraction: str,
        cards_in_hand: int = 0,
        round_number: int | None = None,
        table: int | None = None,
    ) -> ProposalView:
        """What the ladder gives for this player's next offence of ``infraction`` (referees)."""
        async with self.run(actor, role=StaffRole.REFEREE, tournament=tournament) as uc:
            return await self.proposal_in(uc, player=player, user_id=user_id, infraction=infraction,
                                          cards_in_hand=cards_in_hand, round_number=round_number,
                                          table=table)  # fmt: skip

    async def proposal_in(
        self,
        uc: UseCase,
        *,
        player: str | None,
        user_id: int | None,
        infraction: str,
        cards_in_hand: int,
        round_number: int | None,
        table: int | None,
    ) -> ProposalView:
        """The ladder's proposal inside the caller's use case (about the tournament): the player, their table, their
        earlier offences, the step."""
        reg = await sanctioned_player(uc, player, user_id)
        _, table_id = await where(uc, reg, round_number, table)
        previous = await previous_offences(uc, reg, infraction, table_id)
        try:
            proposal = propose(uc.rules, infraction, previous=previous, cards_in_hand=cards_in_hand)
        except SanctionError as exc:
            raise sanction_refusal(exc) from None
        return ProposalView(uc.tournament.name, reg.display_name, previous, proposal)

    async def record(
        self,
        actor: Actor,
        *,
        tournament: str,
        player: str | None,
        user_id: int | None,
        infraction: str,
        kind: str | None = None,
        points: float | None = None,
        cards_in_hand: int = 0,
        details: str | None = None,
        round_number: int | None = None,
        table: int | None = None,
    ) -> SanctionView:
        """Log a sanction (referees): the ladder's proposal, or ``kind`` as an override; its consequences applied."""
        note = checked_details(details)
        checked_points(points)
        async with self.run(actor) as uc:
            # the case number first: the server row's lock then serialises concurrent sanctions of this server
            case = await uc.sanctions.allocate_case_number()
            uc.require(StaffRole.REFEREE)
            if case is None:  # pragma: no cover - require() refuses a server without its row first
                raise PermissionDenied("error.permission_unmapped", role=StaffRole.REFEREE)
            return await self.record_request(
                uc, case, tournament=tournament, player=player, user_id=user_id, infraction=infraction, kind=kind,
                points=points, cards_in_hand=cards_in_hand, details=note, round_number=round_number, table=table,
            )  # fmt: skip

    async def record_request(
        self,
        uc: UseCase,
        case: int,
        *,
        tournament: str,
        player: str | None,
        user_id: int | None,
        infraction: str,
        kind: str | None,
        points: float | None,
        cards_in_hand: int,
        details: str | None,
        round_number: int | None,
        table: int | None,
    ) -> SanctionView:
        """The sanction a referee asked for, written inside the caller's use case under case number ``case``
        (already allocated: its lock serialises the server's sanctions). The ladder is read again now, from the
        tournament's ruleset parsed once for the whole use case."""
        tuc = await tournament_named(uc, tournament)
        reg = await sanctioned_player(tuc, player, user_id)
        round_id, table_id = await where(tuc, reg, round_number, table)
        previous = await previous_offences(tuc, reg, infraction, table_id)
        try:
            proposal = propose(tuc.rules, infraction, previous=previous, cards_in_hand=cards_in_hand)
            chosen = check_kind(tuc.rules, kind) if kind else proposal.kind
        except SanctionError as exc:
            raise sanction_refusal(exc) from None
        return await self.record_in(tuc, reg, proposal, case=case, kind=chosen, points=points, details=details,
                                    round_id=round_id, table_id=table_id)  # fmt: skip

    async def record_in(
        self,
        uc: UseCase,
        reg: Registration,
        proposal: RuleProposal,
        *,
        case: int | None = None,
        kind: str | None = None,
        points: float | None = None,
        details: str | None = None,
        round_id: int | None = None,
        table_id: int | None = None,
    ) -> SanctionView:
        """Write the sanction inside the caller's use case (the desk's, or /arrival's for lateness; ``uc``: about the
        tournament): the server's next case number, the consequences applied, an audit entry. By default at the
        player's table."""
        referee = referee_of(uc)
        if case is None:
            case = await uc.sanctions.allocate_case_number()
            if case is None:  # pragma: no cover - the role check needs the server's row, so it exists
                raise PermissionDenied("error.permission_unmapped", role=StaffRole.REFEREE)
        if round_id is None and table_id is None:
            seat = await seat_of(uc, reg)
            round_id, table_id = (id_of(seat[0]), seat[1]) if seat else (None, None)
        chosen = kind or proposal.kind
        consequence = proposal.consequence if chosen == proposal.kind else consequence_of(chosen)
        amount = sanction_points(consequence, proposal, chosen, points)
        s = Sanction(
            guild_id=uc.guild_id,
            case_number=case,
            kind=chosen,
            article=proposal.article,
            registration_id=id_of(reg),
            tournament_id=uc.tournament_id,
            round_id=round_id,
            table_id=table_id,
            referee_id=referee.user_id,
            details=details,
            infraction=proposal.infraction,
            offence=proposal.offence,
            proposed_kind=proposal.kind,
            consequence=consequence,
            points=amount,
            created_at=self._clock(),
        )
        if consequence is Consequence.DISQUALIFIED:
            disqualify(s, reg)
        await uc.insert(s)
        await rescore_if_needed(uc, s)
        override = chosen != proposal.kind
        # the caller's use case (the desk's, /arrival's, a latecomer's): its own audit entry, written here
        await uc.audit("sanction.record", "sanction", s.id, case=s.case_number, kind=s.kind, player=reg.id,
                       infraction=proposal.infraction, override=override)  # fmt: skip
        return await view_of(uc, s)

    async def kinds(self, guild_id: int, *, tournament: str) -> tuple[str, ...]:
        """Every sanction kind of the tournament's preset (the referee's override menu)."""
        async with self.run(guild_id, tournament=tournament) as uc:
            return sanction_kinds(uc.rules)

    async def revoke(self, actor: Actor, *, case_number: int, reason: str) -> SanctionView:
        """Only the head referee revokes a sanction; its consequences are undone and the standings follow. The
        revoke is one conditional UPDATE: of two at once (or a revoke and an appeal's decision) one wins."""
        why = clean_text(reason, field="reason", max_len=REASON_MAX)
        return await retry_when_locked(lambda: self._revoke(actor, case_number, why))

    async def _revoke(self, actor: Actor, case_number: int, why: str) -> SanctionView:
        async with self.run(actor, role=StaffRole.HEAD_REFEREE) as uc:
            won = await uc.sanctions.revoke_once(case_number=case_number, at=uc.clock(), by=actor.user_id, reason=why)
            case = await case_of(uc, case_number)
            s = case.sanction
            await uc.refresh(s)
            if not won:
                if s.revoked_at is not None:
                    raise Conflict("error.sanction.already_revoked", case=case_number)
                if s.appeal_state == AppealState.OVERTURNED:
                    raise Conflict("error.sanction.already_annulled", case=case_number)
                raise Conflict("error.sanction.appeal_decided_final", case=case_number)
            tuc = uc.about(case.tournament)
            await undo(tuc, s, case.registration)
            await tuc.flush()
            await rescore_if_needed(tuc, s)
            await audit_case(tuc, "sanction.revoke", s, reason=why)
            return case_view(tuc, case)

    async def appeal(self, actor: Actor, *, case_number: int, reason: str) -> SanctionView:
        """The sanctioned player appeals to the head referee within the preset's window (RR 11, BOT-SAN-3)."""
        why = clean_text(reason, field="reason", max_len=REASON_MAX)
        return await retry_when_locked(lambda: self._appeal(actor, case_number, why))

    async def _appeal(self, actor: Actor, case_number: int, why: str) -> SanctionView:
        async with self.run(actor) as uc:
            case = await case_of(uc, case_number)
            s, t, reg = case.sanction, case.tournament, case.registration
            if reg.user_id is None or reg.user_id != actor.user_id:
                raise PermissionDenied("error.sanction.not_yours", case=case_number)
            tuc = uc.about(t)
            rules = appeal_rules(tuc.rules)
            if not rules.appealable:
                raise Conflict("error.sanction.no_appeal", tournament=t.name)
            if uc.clock() > s.created_at + timedelta(minutes=rules.appeal_window_minutes):
                raise Conflict("error.sanction.appeal_late", minutes=rules.appeal_window_minutes)
            if not await uc.sanctions.appeal_once(case_number=case_number, at=uc.clock(), reason=why):
                raise Conflict("error.sanction.appeal_closed", case=case_number)
            await uc.refresh(s)
            await audit_case(tuc, "sanction.appeal", s, reason=why)
            return case_view(tuc, case)

    async def decide_appeal(
        self,
        actor: Actor,
        *,
        case_number: int,
        decision: str,
        note: str | None = None,
        kind: str | None = None,
        points: float | None = None,
    ) -> SanctionView:
        """The head referee's final decision (RR-REF-1): upheld, changed to another kind (its consequence follows
        the new kind; ``points`` for a kind that takes them), or annulled (undone)."""
        text = clean_text(note, field="note", max_len=REASON_MAX, required=False)
        if decision not in (*APPEAL_DECISIONS, "changed"):
            raise InvalidInput("error.sanction.bad_decision", value=decision[:30])
        checked_points(points)
        return await retry_when_locked(lambda: self._decide(actor, case_number, decision, text, kind, points))

    async def _decide(
        self, actor: Actor, case_number: int, decision: str, text: str | None, kind: str | None, points: float | None
    ) -> SanctionView:
        async with self.run(actor, role=StaffRole.HEAD_REFEREE) as uc:
            case = await case_of(uc, case_number)
            s = case.sanction
            tuc = uc.about(case.tournament)
            changed_kind: str | None = None
            if decision == "changed":
                if not kind:
                    raise InvalidInput("error.sanction.kind_needed")
                try:
                    changed_kind = check_kind(tuc.rules, kind)
                except SanctionError as exc:
                    raise sanction_refusal(exc) from None
                state = AppealState.CHANGED
            else:
                state = AppealState.UPHELD if decision == "upheld" else AppealState.OVERTURNED
            won = await uc.sanctions.decide_once(case_number=case_number, state=state, note=text, by=actor.user_id,
                                                 at=uc.clock())  # fmt: skip
            await uc.refresh(s)
            if not won:
                if s.revoked_at is not None:
                    raise Conflict("error.sanction.already_revoked", case=case_number)
                raise Conflict("error.sanction.no_pending_appeal", case=case_number)
            if changed_kind is not None:
                await change_kind(tuc, s, case.registration, changed_kind, points)
            if state is AppealState.OVERTURNED:
                await undo(tuc, s, case.registration)
            await tuc.flush()
            await rescore_if_needed(tuc, s)
            await audit_case(tuc, "sanction.appeal_decided", s, decision=state, note=text)
            return case_view(tuc, case)

    async def list(
        self, actor: Actor, *, tournament: str, round_number: int | None = None, table: int | None = None
    ) -> tuple[SanctionView, ...]:
        """The tournament's sanctions, optionally of one round or table (referees)."""
        async with self.run(actor, role=StaffRole.REFEREE, tournament=tournament) as uc:
            round_id = table_id = None
            if round_number is not None or table is not None:
                round_id, table_id = await round_and_table(uc, round_number, table)
            rows = await uc.sanctions.sanction_list(tournament_id=uc.tournament_id, round_id=round_id,
                                                    table_id=table_id)  # fmt: skip
            return await views_of(uc, rows)

    async def record_of(
        self, actor: Actor, *, tournament: str, player: str | None = None, user_id: int | None = None
    ) -> tuple[SanctionView, ...]:
        """A player's record: your own, or anyone's for a referee (BOT-SAN-1)."""
        async with self.run(actor, tournament=tournament) as uc:  # the tournament first, then who may read
            own = player is None and (user_id is None or user_id == actor.user_id)
            if not own:
                uc.require(StaffRole.REFEREE)
            elif await uc.registrations.for_user(tournament_id=uc.tournament_id, user_id=actor.user_id) is None:
                raise Conflict("error.not_registered", tournament=uc.tournament.name)  # your own record: no entry
            reg = await sanctioned_player(uc, player, actor.user_id if own else user_id)
            rows = await uc.sanctions.sanction_list(tournament_id=uc.tournament_id, registration_id=id_of(reg))
            return await views_of(uc, rows)

    async def export(self, actor: Actor, *, tournament: str) -> SanctionList:
        """The tournament's sanctions for spreadsheets (referees): the CSV's and the XLSX's rows."""
        views = await self.list(actor, tournament=tournament)
        return SanctionList(views[0].tournament_name if views else tournament, tuple(views))
