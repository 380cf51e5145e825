"""What a sanction does beyond its row, and how it is undone: standings or table points, a disqualification of the
player, a table's result re-scored. Called by the desk when a sanction is recorded, revoked, annulled or changed on
appeal, so each consequence has one implementation. ``uc``: the use case about the sanction's tournament."""

from __future__ import annotations

from bot.db.models import GameTable, Registration, RegistrationStatus, Sanction
from bot.errors import InvalidInput
from bot.rules.sanctions import Consequence, SanctionError, consequence_of, infraction
from bot.rules.sanctions import Proposal as RuleProposal
from bot.services._base import UseCase, id_of
from bot.services.report_lines import rescore_table
from bot.services.sanction_views import CHANGES_THE_TABLE

TABLE_CHANGING = frozenset(CHANGES_THE_TABLE)


def sanction_points(
    consequence: Consequence, proposal: RuleProposal, chosen: str, points: float | None
) -> float | None:
    """Standings points from the preset (FIRK) unless the referee sets them; table points are the referee's
    amount (ARB 13: at the referees' discretion), so they are required."""
    if consequence is Consequence.TABLE_POINTS:
        if points is None or points <= 0:
            raise InvalidInput("error.sanction.points_needed", kind=chosen)
        return float(points)
    if consequence is Consequence.STANDING_POINTS and points is None and not proposal.standing_points:
        raise InvalidInput("error.sanction.points_needed", kind=chosen)
    if points is not None:
        return -abs(float(points)) if consequence is Consequence.STANDING_POINTS else float(points)
    return proposal.standing_points or None


def disqualify(s: Sanction, reg: Registration) -> None:
    """A disqualification takes the player out of the tournament (later draws, the finals); the status it replaces
    is kept on the sanction, to be given back when it is revoked or annulled."""
    if reg.status != RegistrationStatus.DISQUALIFIED:
        s.previous_status = reg.status
        reg.status = RegistrationStatus.DISQUALIFIED


async def undo(uc: UseCase, s: Sanction, reg: Registration) -> None:
    """Undo what the sanction applied: a disqualification gives the player back their earlier status (unless
    another disqualification of theirs is still in force)."""
    if s.consequence != Consequence.DISQUALIFIED or s.previous_status is None:
        return
    others = await uc.sanctions.sanction_list(tournament_id=s.tournament_id, registration_id=id_of(reg))
    still = any(o.active and o.id != s.id and o.consequence == Consequence.DISQUALIFIED for o in others)
    if not still and reg.status == RegistrationStatus.DISQUALIFIED:
        reg.status = s.previous_status


async def rescore_if_needed(uc: UseCase, s: Sanction, *, also_if: str | None = None) -> None:
    """A sanction that changes a table's result (last of the game, out of the game, table points, a
    disqualification) re-scores the table's report at once, so the standings follow the sanction, its revoke, its
    annulment or its change (``also_if``: the consequence it had before)."""
    if s.table_id is None or not ({s.consequence, also_if} & TABLE_CHANGING):
        return
    table = await uc.get(GameTable, s.table_id)
    if table is not None:
        await rescore_table(uc, table)


async def change_kind(uc: UseCase, s: Sanction, reg: Registration, kind: str, points: float | None) -> None:
    """The head referee changed the sanction on appeal (RR 11, BOT-SAN-3): its consequence follows the new kind —
    a disqualification applied or lifted, standings or table points as the new kind takes them — and the table is
    re-scored when the old or the new consequence changes its result."""
    before = s.consequence
    await undo(uc, s, reg)
    new = consequence_of(kind)
    standing = 0.0
    if s.infraction:
        try:
            standing = infraction(uc.rules, s.infraction).standing_points
        except SanctionError:  # a lateness case: no standings points of its own
            standing = 0.0
    kept = abs(s.points) if s.points is not None and new == before else None
    stand_in = RuleProposal(
        s.infraction or "", s.article or "", s.offence, kind, new, 0, True, standing_points=standing
    )
    s.points = sanction_points(new, stand_in, kind, points if points is not None else kept)
    s.kind, s.consequence = kind, new
    if new is Consequence.DISQUALIFIED:
        disqualify(s, reg)
    await uc.flush()
    await rescore_if_needed(uc, s, also_if=before)
