"""FIRK ties on a real database: round 1 seated from typed previous ranks with players level there (FIRK §6,
FIRK-SEED-1), and the last round's sitter level at 4th in the general classification (FIRK §9, FIRK-SIZE-1)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.db.models import TableResult
from bot.services import Services
from bot.services.reports import TableRef
from tests.support.rounds import GUILD, ORGANIZER, PLAYER, firk_alike_round_1, setup_tournament, stay_home, steward_draw

PREVIOUS = (1, 2, 3, 4, 4, 4, 7, 8, 9, 10, 11, 12)  # typed previous ranks: three share 4th place


async def test_firk_6_round_1_typed_previous_ranks_level_across_table_1_are_seated_by_the_published_lot(
    services: Services, capsys, tmp_path
):
    """FIRK-SEED-1 (FIRK §6): three players typed 4th in the previous tournament, one seat left at table 1. The draw
    sends the typed ranks to the planner (the export carries them), the round's lot decides who takes the seat, the
    organizer's preview names the tie, and `steward draw` with the published seed replays the same tables."""
    extra = {i: {"previous_rank": rank} for i, rank in enumerate(PREVIOUS)}
    await setup_tournament(services, 12, preset="risiko-firk-1", extra=extra)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    tables = [[s.registration_id for s in t.seats] for t in view.tables]
    rank_of = {s.registration_id: PREVIOUS[s.user_id - 1000] for t in view.tables for s in t.seats}
    level = {rid for rid, rank in rank_of.items() if rank == 4}
    assert [rank_of[p] for p in tables[0][:3]] == [1, 2, 3] and tables[0][3] in level
    assert set(tables[1][:2]) == level - {tables[0][3]}
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=1)
    assert doc["previous_ranks"] == list(PREVIOUS) and [rank_of[p] for p in doc["previous_standings"]] == list(PREVIOUS)
    assert view.report is not None
    ties = dict(view.report.seat_ties)
    assert set(ties) == {4} and ties[4][0] == tables[0][3] and set(ties[4]) == level
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == tables and [(t["rank"], t["seed"]) for t in cli["report"]["ties"]] == [(4, view.seed)]


async def _level_at_4th_after_round_1(services: Services) -> list[tuple[int, int]]:
    """Round 1's three tables finished alike (``firk_alike_round_1``): the (player, rank) lines."""
    return [(line.player_id, line.rank) for line in (await firk_alike_round_1(services)).lines]


async def test_firk_size_1_9_a_sitter_level_at_4th_in_the_general_classification_is_5th_and_scores_15(
    services: Services, capsys, tmp_path
):
    """FIRK-SIZE-1 (FIRK §9): in the last round only the three 1st and two of the three 4th come. The lot seats one
    4th at table 1; the other, 5th of those present, sits out. He is 4th level with two more in the general
    classification — places 4 to 6, the 5th among them — so he is "classificato 5°": 15 points, not 1."""
    lines = await _level_at_4th_after_round_1(services)
    firsts = [p for p, rank in lines if rank == 1]
    fourths = [p for p, rank in lines if rank == 4]
    await stay_home(services, [fourths[2], *(p for p, rank in lines if rank > 4)])
    before = await services.standings.compute(GUILD, "Coppa")
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    tables = [[s.registration_id for s in t.seats] for t in view.tables]
    assert [t.special for t in view.tables] == [None, "sit_out"] and len(tables[1]) == 1
    (sitter,) = tables[1]
    assert set(tables[0]) == {*firsts, *fourths[:2]} - {sitter} and sitter in fourths[:2]
    assert view.report is not None and dict(view.report.seat_ties)[4][1] == sitter  # the lot put him 5th
    report = await services.reports.lookup(PLAYER, TableRef("Coppa", 2, 2))
    assert [(s.registration_id, s.rank, s.tournament_points) for s in report.seats] == [(sitter, 1, 15.0)]
    async with services.sessionmaker() as session:
        row = (await session.execute(select(TableResult).where(TableResult.registration_id == sitter)
                                     .order_by(TableResult.id.desc()))).scalars().first()  # fmt: skip
    assert row is not None and row.tiebreak == {"decided_by": "sit_out", "overall_rank": 4, "shared": 3}
    after = await services.standings.compute(GUILD, "Coppa")
    assert after.line_of(sitter).points - before.line_of(sitter).points == pytest.approx(15.0)
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=2)
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == tables and cli["special_tables"] == {"2": "sit_out"}
