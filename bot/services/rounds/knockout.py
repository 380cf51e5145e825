"""The knockout as the services read it (NP-FMT-1): its plan, why a field cannot be planned, who goes on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.documents import DrawDocument
from bot.db.models import Registration, RegistrationStatus, RoundKind, Tournament
from bot.errors import Conflict
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.model import TournamentError
from bot.services.rounds._reading import tables_of
from bot.services.rounds.views import KnockoutView


def knockout_refusal(value: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of "this field cannot be planned" (NP-FMT-1): the nearest fields and finals that can."""
    below, above = value.get("below"), value.get("above")
    return {
        "players": value.get("players"),
        "final_size": value.get("final_size"),
        "nearest": " / ".join(str(x) for x in (below, above) if x is not None) or "-",
        "finals": " / ".join(str(x) for x in value.get("other_finals", ())) or "-",
    }


def knockout_view(rules: TournamentRules, players: int) -> KnockoutView:
    """NP-FMT-1: the knockout plan for ``players`` (or the nearest workable field sizes when there is none)."""
    try:
        plan = rules.knockout_plan(players)
    except TournamentError as exc:
        value = exc.value if isinstance(exc.value, dict) else {}
        return KnockoutView(players, (), value.get("below"), value.get("above"), rules.final_size,
                            tuple(value.get("other_finals", ())))  # fmt: skip
    return KnockoutView(players, tuple((k.players, k.sizes) for k in plan), final_size=rules.final_size)


async def knockout_advancing(
    session: AsyncSession,
    t: Tournament,
    regs: Sequence[Registration],
    number: int | None,
    forfeits: set[int],
) -> list[Registration] | None:
    """NP-FMT-1: who goes on from the previous knockout round — each table's winner (its first place, decided by
    the preset's table tie-breaks when the report was scored). Our readings where NP is silent: a winner who has
    withdrawn, was disqualified or forfeits this round is replaced by the next of the same table; a table with
    nobody left gives its seat to the best runner-up of the other tables (the best 2nd by table points, then
    the best 3rd…, as ARB 5 recovers a final's seat), so the plan's table count holds. None before the first
    round; refused while a table has no result or a shared first."""
    assert t.id is not None
    rounds = [
        r for r in await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id)
        if r.kind == RoundKind.QUALIFYING.value and (number is None or r.number < number) and r.id
    ]  # fmt: skip
    if not rounds:
        return None
    last = rounds[-1]
    engine = DrawDocument.from_json(last.draw_report).engine
    if engine is not None and (engine.extra.get("knockout") or {}).get("final"):
        raise Conflict("error.knockout_over", tournament=t.name)
    by_round, by_table = await tables_of(session, t.guild_id, [last.id or 0])
    tables = by_round.get(last.id or 0, [])
    results = await repo.list_results_for_tables(
        session=session, guild_id=t.guild_id, table_ids=[gt.id for gt in tables if gt.id is not None]
    )
    rank: dict[tuple[int, int], int] = {
        (res.table_id, res.registration_id): res.table_rank for res in results if res.table_rank is not None
    }
    points = {(res.table_id, res.registration_id): res.table_points or 0.0 for res in results}
    active = {RegistrationStatus.VALIDATED.value, RegistrationStatus.REGISTERED.value}
    by_id = {r.id: r for r in regs}
    advancing: list[Registration] = []
    runners_up: list[tuple[int, float, int]] = []  # (place, -table points, id) of everyone eligible not first
    empty_tables = 0
    missing: list[str] = []
    for gt in tables:
        seats = by_table.get(gt.id or 0, [])
        ranked = sorted(
            (rank[(gt.id or 0, s.registration_id)], s.registration_id)
            for s in seats
            if (gt.id or 0, s.registration_id) in rank
        )
        if len(ranked) < len(seats):
            missing.append(f"{last.number}/{gt.number}")
            continue
        eligible = [
            (place, rid) for place, rid in ranked
            if rid in by_id and by_id[rid].status in active and rid not in forfeits
        ]  # fmt: skip
        if not eligible:
            empty_tables += 1
            continue
        if len(eligible) > 1 and eligible[0][0] == eligible[1][0]:
            raise Conflict("error.knockout_tied_winner", table=gt.number, round=last.number)
        advancing.append(by_id[eligible[0][1]])
        runners_up += [(place, -points.get((gt.id or 0, rid), 0.0), rid) for place, rid in eligible[1:]]
    if missing:
        raise Conflict("error.round_results_missing", tables=", ".join(missing[:20]))
    advancing += [by_id[rid] for _, _, rid in sorted(runners_up)[:empty_tables]]
    return advancing
