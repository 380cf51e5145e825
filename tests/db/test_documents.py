"""The JSON columns' documents read every stored shape and write it back unchanged (one parse/serialise pair per
JSON column; TOUR-SF-1, TOUR-FIN-1, BOT-TAB-1 reproducibility)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.db.documents import DrawDocument, EngineReport, FinalsGroup, TableSituation, TieBreakNote
from bot.rules.tournament.planner import SCHEMA, DrawRequest, FinalsRequest, plan_draw, plan_final, plan_semifinals

PRESET = "risiko-ufficiali-2018"


def _qualifying_doc(players: int, seed: int) -> dict[str, Any]:
    """A qualifying round's stored report as the draw service writes it."""
    request = DrawRequest.from_json(
        {
            "schema": SCHEMA,
            "preset": PRESET,
            "round": 1,
            "players": [{"id": i, "name": f"P{i}", "club": f"C{i % 5}"} for i in range(1, players + 1)],
        }
    )
    planned = plan_draw(request, seed)
    engine = EngineReport.from_json(planned.report)
    return DrawDocument(
        kind=engine.kind,
        seed=seed,
        request=request.to_json(),
        engine=engine,
        tables_drawn=tuple(tuple(int(p) for p in t) for t in planned.tables),
        current=dict(engine.criteria),
        participants=players,
        special_tables=dict(planned.special),
    ).to_json()


@given(st.sampled_from([8, 9, 10, 12, 13, 16, 20, 37]), st.integers(min_value=0, max_value=2**31))
def test_bot_tab_1_a_qualifying_report_round_trips(players: int, seed: int):
    stored = _qualifying_doc(players, seed)
    doc = DrawDocument.from_json(stored)
    assert doc.to_json() == stored
    assert doc.engine is not None and tuple(doc.engine.criteria) == doc.engine.criteria_order
    assert DrawRequest.from_json(doc.request or {}).to_json() == doc.request  # the export is the request


def test_tour_sf_1_tour_fin_1_semifinal_and_final_reports_round_trip():
    ranking = tuple(range(1, 21))
    clubs = {p: f"C{p % 4}" for p in ranking}
    semi_request = FinalsRequest("semifinal", PRESET, {}, ranking, clubs, 4)
    tables, groups, _ = plan_semifinals(semi_request, 7)
    semi = DrawDocument(
        kind="semifinal",
        seed=7,
        semifinal_tables=4,
        ranking=ranking,
        groups=tuple(FinalsGroup.from_json(g) for g in groups),
        declined=(),
        request=semi_request.to_json(),
    ).to_json()
    assert semi["groups"] == groups  # the planner's groups are stored as the planner gave them
    assert DrawDocument.from_json(semi).to_json() == semi

    orders = {n: list(t) for n, t in enumerate(tables, start=1)}
    final_request = FinalsRequest(
        "final",
        PRESET,
        {},
        ranking=ranking,
        groups=({"label": "all", "tables": list(orders), "orders": list(orders.values()), "direct_finalist": None},),
        declined=(orders[1][0],),
    )
    _, final_groups, _ = plan_final(final_request)
    final = DrawDocument(
        kind="final",
        groups=tuple(FinalsGroup.from_json(g) for g in final_groups),
        declined=(orders[1][0],),
        standings_after_qualifying=ranking,
        request=final_request.to_json(),
    ).to_json()
    assert final["groups"] == final_groups
    parsed = DrawDocument.from_json(final)
    assert parsed.to_json() == final
    assert "semifinal_winner" in {s.source for g in parsed.groups for s in g.seats}


def test_an_empty_or_missing_column_reads_as_the_empty_document():
    assert DrawDocument.from_json(None) == DrawDocument()
    assert TableSituation.from_json(None) is None
    assert TieBreakNote.from_json(None) == TieBreakNote()


@given(
    st.sampled_from(["points", "situation", "ricochet", "sit_out"]),
    st.dictionaries(st.text(min_size=1, max_size=8), st.integers() | st.text(max_size=8), max_size=4),
)
def test_table_situation_and_tiebreak_note_round_trip(kind: str, payload: dict[str, Any]):
    situation = {"kind": kind, "input": payload}
    assert TableSituation.from_json(situation).to_json() == situation  # type: ignore[union-attr]
    note = {**{k: v for k, v in payload.items() if k != "decided_by"}, "decided_by": kind}
    assert TieBreakNote.from_json(note).to_json() == note
