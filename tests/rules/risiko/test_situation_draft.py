"""The report page's draft (issue 42): edits applied in arrival order (the last write of a territory wins), bad
edits refused with a code and nothing changed, what is missing or impossible named where it is, each seat's live
figures from the engine's own functions, and the document the draft becomes read by the one parser."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.risiko.board import standard_board
from bot.rules.risiko.config import load_rules
from bot.rules.risiko.scoring import parse_situation, score_situation
from bot.rules.risiko.situation_draft import (
    DraftError,
    SituationDraft,
    apply_edit,
    draft_document,
    draft_problems,
    seat_figures,
)

NP = load_rules("risiko-nostra-passione-2018")
FIRK = load_rules("risiko-firk-1")
BOARD = standard_board()
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def edit(draft: SituationDraft, op: dict, rules=NP, seats: int = 4) -> SituationDraft:
    return apply_edit(draft, op, board=rules.board, seats=seats, rules=rules)


territory_op = st.fixed_dictionaries(
    {
        "t": st.just("territory"),
        "name": st.sampled_from(BOARD.territories),
        "seat": st.one_of(st.none(), st.integers(0, 3)),
        "armies": st.integers(1, 999),
    }
)


@settings(max_examples=60, deadline=None)
@given(st.lists(territory_op, max_size=80))
def test_issue_42_the_last_write_of_each_territory_wins(ops):
    draft = SituationDraft()
    for op in ops:
        draft = edit(draft, op)
    last: dict[str, dict] = {}
    for op in ops:
        last[op["name"]] = op
    expected = {n: (op["seat"], op["armies"]) for n, op in last.items() if op["seat"] is not None}
    assert {n: (h.seat, h.armies) for n, h in draft.territories.items()} == expected
    doc = draft_document(draft, NAMES, NP)
    parsed = parse_situation(doc, BOARD)  # the one parser reads what the page submits
    assert sum(len(p.territories) for p in parsed.players) == len(expected)


@pytest.mark.parametrize(
    "op",
    [
        {"t": "territory", "name": "Atlantide", "seat": 0, "armies": 1},
        {"t": "territory", "name": "Alaska", "seat": 4, "armies": 1},
        {"t": "territory", "name": "Alaska", "seat": 0, "armies": 0},
        {"t": "territory", "name": "Alaska", "seat": 0, "armies": 1000},
        {"t": "territory", "name": "Alaska", "seat": True, "armies": 1},
        {"t": "objective", "seat": 0, "name": "Non esiste"},
        {"t": "status", "seat": 0, "status": "frozen"},
        {"t": "achieved", "seat": 0, "value": "yes"},
        {"t": "cards", "seat": 0, "value": 45},
        {"t": "points", "seat": 0, "value": "1" * 17},
        {"t": "nope"},
        "territory",
    ],
)
def test_issue_42_an_edit_the_page_cannot_mean_is_refused_with_a_code(op):
    with pytest.raises(DraftError) as refused:
        edit(SituationDraft(), op)
    assert refused.value.code


def test_issue_42_objective_names_are_read_as_typed_anywhere():
    draft = edit(SituationDraft(), {"t": "objective", "seat": 1, "name": "letto"})
    assert draft.objectives == {1: "Letto"}
    with pytest.raises(DraftError):
        edit(SituationDraft(), {"t": "objective", "seat": 1, "name": "Letto"}, rules=FIRK)  # FIRK has none


def test_issue_42_problems_name_where_they_are():
    draft = SituationDraft()
    for name in BOARD.territories[:40]:
        draft = edit(draft, {"t": "territory", "name": name, "seat": 0, "armies": 2})
    draft = edit(draft, {"t": "objective", "seat": 0, "name": "Letto"})
    draft = edit(draft, {"t": "objective", "seat": 1, "name": "Letto"})
    draft = edit(draft, {"t": "status", "seat": 3, "status": "withdrawn"})
    problems = draft_problems(draft, 4, NP)
    assert (problems[0].code, problems[0].number) == ("missing", 2)
    assert ("objective_taken", 1, 0) in [(p.code, p.seat, p.other) for p in problems]
    assert [p.seat for p in problems if p.code == "objective_missing"] == [2]  # the withdrawn seat needs none


def test_issue_42_over_the_army_limit_is_named_with_the_limit():
    rules = load_rules("risiko-ufficiali-2018")
    limit = rules.limits.army_limit
    assert limit > 0
    draft = edit(SituationDraft(), {"t": "territory", "name": "Cina", "seat": 2, "armies": limit + 1}, rules=rules)
    (over,) = [p for p in draft_problems(draft, 4, rules) if p.code == "over_limit"]
    assert (over.seat, over.number, over.other) == (2, limit + 1, limit)


def test_issue_42_figures_follow_the_engine_continents_strip_and_objective():
    draft = SituationDraft()
    for name in ("Indonesia", "Nuova Guinea", "Australia Occidentale", "Australia Orientale", "Siam", "Cina"):
        draft = edit(draft, {"t": "territory", "name": name, "seat": 1, "armies": 3}, rules=FIRK)
    figures = seat_figures(draft, 4, FIRK)[1]
    assert figures.continents == ("Oceania",) and figures.territories == 6 and figures.armies == 18
    doc = draft_document(draft, NAMES, FIRK)
    scored = score_situation(doc, FIRK)
    bruno = next(p for p in scored.table.players if p.name == "Bruno")
    assert tuple(sorted(figures.strip)) == tuple(sorted(bruno.strip))


def test_issue_42_a_withdrawn_player_without_objective_scores_zero_under_the_objective_method():
    doc = {"players": [{"name": "Anna", "territories": {"Cina": 3}, "objective": "Letto"},
                       {"name": "Bruno", "territories": {"Siam": 2}, "status": "withdrawn"}]}  # fmt: skip
    scored = score_situation(doc, NP)
    bruno = next(p for p in scored.table.players if p.name == "Bruno")
    assert bruno.table_points == 0 and bruno.rank == 2
