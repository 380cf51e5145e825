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

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.models import AppealState, GameTable, Registration, Round, Sanction, Tournament
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.rules.ruleset import Ruleset, load_ruleset
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
from bot.services._base import BaseService, UseCase, clean_text, retry_when_locked, tournament_or_404
from bot.services.access import Actor, StaffRole
from bot.services.sanction_effects import change_kind, disqualify, rescore_if_needed, sanction_points, undo
from bot.services.sanction_places import round_and_table, sanctioned_player, seat_of, where
from bot.services.sanction_views import (
    ProposalView,
    SanctionsExport,
    SanctionView,
    sanctions_csv,
    sanctions_filename,
    sanctions_table,
)
from bot.services.sheets import TableExport

DETAILS_MAX = 1000
REASON_MAX = 500
POINTS_MAX = 1000.0
APPEAL_DECISIONS = ("upheld", "annulled")


async def previous_offences(
    session: AsyncSession,
    t: Tournament,
    reg: Registration,
    code: str,
    table_id: int | None,
    *,
    rules: Ruleset | None = None,
) -> int:
    """The player's earlier offences the ladder counts: in the whole tournament, or — for an infraction whose text
    counts within the game (ARB 23, UFF's forgotten sdadata roll) — at this table only. ``rules``: the tournament's
    ruleset, when the caller has it parsed already."""
    assert t.id is not None and reg.id is not None
    try:
        scope = infraction_rules(rules or tournament_rules(t), code).scope
    except SanctionError as exc:
        raise sanction_refusal(exc) from None
    return await repo.sanction_count_offences(
        session=session, guild_id=t.guild_id, tournament_id=t.id, registration_id=reg.id, infraction=code,
        game=table_id, in_game_only=scope == "game",
    )  # fmt: skip


def checked_details(details: str | None) -> str | None:
    return clean_text(details, field="details", max_len=DETAILS_MAX, required=False)


def checked_points(points: float | None) -> None:
    if points is not None and not 0 <= abs(points) <= POINTS_MAX:
        raise InvalidInput("error.sanction.bad_points", max=int(POINTS_MAX))


def tournament_rules(t: Tournament) -> Ruleset:
    return load_ruleset(t.preset, t.overrides or None)


def sanction_refusal(exc: SanctionError) -> InvalidInput:
    return InvalidInput(f"error.sanction.{exc.code}", value=str(exc.value)[:60])


async def audit_case(uc: UseCase, action: str, s: Sanction, **details: object) -> None:
    """The audit entry of what a use case did to a case (its number and kind, then ``details``)."""
    await uc.audit(action, "sanction", s.id, case=s.case_number, kind=s.kind, **details)


class SanctionService(BaseService):
    async def _view(self, session: AsyncSession, s: Sanction) -> SanctionView:
        t = await session.get(Tournament, s.tournament_id)
        reg = await session.get(Registration, s.registration_id)
        assert t is not None and reg is not None and reg.id is not None
        rnd = await session.get(Round, s.round_id) if s.round_id else None
        table = await session.get(GameTable, s.table_id) if s.table_id is not None else None
        window = appeal_rules(tournament_rules(t)).appeal_window_minutes
        return SanctionView(
            case_number=s.case_number,
            tournament_name=t.name,
            player_id=reg.id,
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
            session, t = uc.session, uc.tournament
            reg = await sanctioned_player(session, t, player, user_id)
            _, table_id = await where(session, t, reg, round_number, table)
            previous = await previous_offences(session, t, reg, infraction, table_id, rules=uc.rules)
            try:
                proposal = propose(uc.rules, infraction, previous=previous, cards_in_hand=cards_in_hand)
            except SanctionError as exc:
                raise sanction_refusal(exc) from None
            return ProposalView(t.name, reg.display_name, previous, proposal)

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
            case = await repo.sanction_allocate_case_number(session=uc.session, guild_id=actor.guild_id)
            uc.require(StaffRole.REFEREE)
            if case is None:  # pragma: no cover - require() refuses a server without its row first
                raise PermissionDenied("error.permission_unmapped", role=StaffRole.REFEREE.value)
            return await self.record_request(
                uc.session, actor, case, tournament=tournament, player=player, user_id=user_id, infraction=infraction,
                kind=kind, points=points, cards_in_hand=cards_in_hand, details=note, round_number=round_number,
                table=table,
            )  # fmt: skip

    async def record_request(
        self,
        session: AsyncSession,
        actor: Actor,
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
        """The sanction a referee asked for, written inside the caller's transaction under case number ``case``
        (already allocated: its lock serialises the server's sanctions). The ladder is read again now."""
        t = await tournament_or_404(session, actor.guild_id, tournament)
        reg = await sanctioned_player(session, t, player, user_id)
        assert t.id is not None and reg.id is not None
        ruleset = tournament_rules(t)
        round_id, table_id = await where(session, t, reg, round_number, table)
        previous = await previous_offences(session, t, reg, infraction, table_id, rules=ruleset)
        try:
            proposal = propose(ruleset, infraction, previous=previous, cards_in_hand=cards_in_hand)
            chosen = check_kind(ruleset, kind) if kind else proposal.kind
        except SanctionError as exc:
            raise sanction_refusal(exc) from None
        return await self.record_in(
            session, actor, t, reg, proposal, case=case, kind=chosen, points=points, details=details,
            round_id=round_id, table_id=table_id,
        )  # fmt: skip

    async def record_in(
        self,
        session: AsyncSession,
        actor: Actor,
        t: Tournament,
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
        """Write the sanction inside the caller's transaction (the desk's, or /arrival's for lateness): the
        server's next case number, the consequences applied, an audit entry. By default at the player's table."""
        assert t.id is not None and reg.id is not None
        if case is None:
            case = await repo.sanction_allocate_case_number(session=session, guild_id=actor.guild_id)
            assert case is not None  # the role check needs the server's row, so it exists
        if round_id is None and table_id is None:
            seat = await seat_of(session, t, reg)
            round_id, table_id = (seat[0].id, seat[1]) if seat else (None, None)
        chosen = kind or proposal.kind
        consequence = proposal.consequence if chosen == proposal.kind else consequence_of(chosen)
        amount = sanction_points(consequence, proposal, chosen, points)
        s = Sanction(
            guild_id=actor.guild_id,
            case_number=case,
            kind=chosen,
            article=proposal.article,
            registration_id=reg.id,
            tournament_id=t.id,
            round_id=round_id,
            table_id=table_id,
            referee_id=actor.user_id,
            details=details,
            infraction=proposal.infraction,
            offence=proposal.offence,
            proposed_kind=proposal.kind,
            consequence=consequence.value,
            points=amount,
            created_at=self._clock(),
        )
        if consequence is Consequence.DISQUALIFIED:
            await disqualify(session, s, reg)
        session.add(s)
        await session.flush()
        await rescore_if_needed(session, s)
        override = chosen != proposal.kind
        # the caller's transaction (the desk's, /arrival's, a latecomer's): its own audit entry, written here
        await repo.add_audit(session=session, guild_id=actor.guild_id, actor_id=actor.user_id, action="sanction.record",
                             entity="sanction", entity_id=s.id,
                             details={"case": s.case_number, "kind": s.kind, "player": reg.id,
                                      "infraction": proposal.infraction, "override": override})  # fmt: skip
        return await self._view(session, s)

    async def kinds(self, guild_id: int, *, tournament: str) -> tuple[str, ...]:
        """Every sanction kind of the tournament's preset (the referee's override menu)."""
        async with self.run(guild_id, tournament=tournament) as uc:
            return sanction_kinds(uc.rules)

    async def revoke(self, actor: Actor, *, case_number: int, reason: str) -> SanctionView:
        """Only the head referee revokes a sanction; its consequences are undone and the standings follow. The
        revoke is one conditional UPDATE: of two at once (or a revoke and an appeal's decision) one wins."""
        why = clean_text(reason, field="reason", max_len=REASON_MAX)
        assert why is not None
        return await retry_when_locked(lambda: self._revoke(actor, case_number, why))

    async def _revoke(self, actor: Actor, case_number: int, why: str) -> SanctionView:
        async with self.run(actor, role=StaffRole.HEAD_REFEREE) as uc:
            session = uc.session
            won = await repo.sanction_revoke_once(session=session, guild_id=actor.guild_id, case_number=case_number,
                                                  at=uc.clock(), by=actor.user_id, reason=why)  # fmt: skip
            s = await self._case(session, actor, case_number)
            await session.refresh(s)
            if not won:
                if s.revoked_at is not None:
                    raise Conflict("error.sanction.already_revoked", case=case_number)
                if s.appeal_state == AppealState.OVERTURNED.value:
                    raise Conflict("error.sanction.already_annulled", case=case_number)
                raise Conflict("error.sanction.appeal_decided_final", case=case_number)
            await undo(session, s)
            await session.flush()
            await rescore_if_needed(session, s)
            await audit_case(uc, "sanction.revoke", s, reason=why)
            return await self._view(session, s)

    async def _case(self, session: AsyncSession, actor: Actor, case_number: int) -> Sanction:
        s = await repo.sanction_by_case(session=session, guild_id=actor.guild_id, case_number=case_number)
        if s is None:
            raise NotFound("error.sanction.not_found", case=case_number)
        return s

    async def appeal(self, actor: Actor, *, case_number: int, reason: str) -> SanctionView:
        """The sanctioned player appeals to the head referee within the preset's window (RR 11, BOT-SAN-3)."""
        why = clean_text(reason, field="reason", max_len=REASON_MAX)
        assert why is not None
        return await retry_when_locked(lambda: self._appeal(actor, case_number, why))

    async def _appeal(self, actor: Actor, case_number: int, why: str) -> SanctionView:
        async with self.run(actor) as uc:
            session = uc.session
            s = await self._case(session, actor, case_number)
            reg = await session.get(Registration, s.registration_id)
            t = await session.get(Tournament, s.tournament_id)
            assert reg is not None and t is not None
            if reg.user_id is None or reg.user_id != actor.user_id:
                raise PermissionDenied("error.sanction.not_yours", case=case_number)
            rules = appeal_rules(tournament_rules(t))
            if not rules.appealable:
                raise Conflict("error.sanction.no_appeal", tournament=t.name)
            if uc.clock() > s.created_at + timedelta(minutes=rules.appeal_window_minutes):
                raise Conflict("error.sanction.appeal_late", minutes=rules.appeal_window_minutes)
            if not await repo.sanction_appeal_once(session=session, guild_id=actor.guild_id, case_number=case_number,
                                                   at=uc.clock(), reason=why):  # fmt: skip
                raise Conflict("error.sanction.appeal_closed", case=case_number)
            await session.refresh(s)
            await audit_case(uc, "sanction.appeal", s, reason=why)
            return await self._view(session, s)

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
            session = uc.session
            s = await self._case(session, actor, case_number)
            t = await session.get(Tournament, s.tournament_id)
            assert t is not None
            changed_kind: str | None = None
            ruleset: Ruleset | None = None
            if decision == "changed":
                if not kind:
                    raise InvalidInput("error.sanction.kind_needed")
                ruleset = tournament_rules(t)
                try:
                    changed_kind = check_kind(ruleset, kind)
                except SanctionError as exc:
                    raise sanction_refusal(exc) from None
                state = AppealState.CHANGED
            else:
                state = AppealState.UPHELD if decision == "upheld" else AppealState.OVERTURNED
            won = await repo.sanction_decide_once(session=session, guild_id=actor.guild_id, case_number=case_number,
                                                  state=state.value, note=text, by=actor.user_id,
                                                  at=uc.clock())  # fmt: skip
            await session.refresh(s)
            if not won:
                if s.revoked_at is not None:
                    raise Conflict("error.sanction.already_revoked", case=case_number)
                raise Conflict("error.sanction.no_pending_appeal", case=case_number)
            if changed_kind is not None and ruleset is not None:
                await change_kind(session, s, ruleset, changed_kind, points)
            if state is AppealState.OVERTURNED:
                await undo(session, s)
            await session.flush()
            await rescore_if_needed(session, s)
            await audit_case(uc, "sanction.appeal_decided", s, decision=state.value, note=text)
            return await self._view(session, s)

    async def list(
        self, actor: Actor, *, tournament: str, round_number: int | None = None, table: int | None = None
    ) -> tuple[SanctionView, ...]:
        """The tournament's sanctions, optionally of one round or table (referees)."""
        async with self.run(actor, role=StaffRole.REFEREE, tournament=tournament) as uc:
            session, t = uc.session, uc.tournament
            round_id = table_id = None
            if round_number is not None or table is not None:
                round_id, table_id = await round_and_table(session, t, round_number, table)
            rows = await repo.sanction_list(
                session=session,
                guild_id=t.guild_id,
                tournament_id=uc.tournament_id,
                round_id=round_id,
                table_id=table_id,
            )
            return tuple([await self._view(session, s) for s in rows])

    async def record_of(
        self, actor: Actor, *, tournament: str, player: str | None = None, user_id: int | None = None
    ) -> tuple[SanctionView, ...]:
        """A player's record: your own, or anyone's for a referee (BOT-SAN-1)."""
        async with self.run(actor, tournament=tournament) as uc:  # the tournament first, then who may read
            session, t, tid = uc.session, uc.tournament, uc.tournament_id
            own = player is None and (user_id is None or user_id == actor.user_id)
            if not own:
                uc.require(StaffRole.REFEREE)
            elif await repo.get_registration_for_user(session=session, guild_id=t.guild_id, tournament_id=tid,
                                                      user_id=actor.user_id) is None:  # fmt: skip
                raise Conflict("error.not_registered", tournament=t.name)  # your own record: you have no entry
            reg = await sanctioned_player(session, t, player, actor.user_id if own else user_id)
            rows = await repo.sanction_list(session=session, guild_id=t.guild_id, tournament_id=tid,
                                            registration_id=reg.id)  # fmt: skip
            return tuple([await self._view(session, s) for s in rows])

    async def export(self, actor: Actor, *, tournament: str) -> TableExport:
        """The tournament's sanctions as a table for spreadsheets (referees): the CSV's and the XLSX's rows."""
        views = await self.list(actor, tournament=tournament)
        name = views[0].tournament_name if views else tournament
        return TableExport(name, sanctions_filename(name).removesuffix(".csv"), sanctions_table(views))

    async def export_csv(self, actor: Actor, *, tournament: str) -> SanctionsExport:
        """The tournament's sanctions as CSV (referees), formula-safe like the roster export."""
        views = await self.list(actor, tournament=tournament)
        return SanctionsExport(
            views[0].tournament_name if views else tournament,
            sanctions_filename(views[0].tournament_name if views else tournament),
            sanctions_csv(views),
            len(views),
        )
