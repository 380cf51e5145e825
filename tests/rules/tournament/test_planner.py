"""The one draw planner: FIRK last round, numbering by strength, special tables' points, the export."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.model import Player, TournamentError
from bot.rules.tournament.planner import DrawRequest, plan_draw, special_table_points

FIRK = load_ruleset("risiko-firk-1").tournament


def _request(n: int, round_no: int, ranking: tuple[int, ...] = ()) -> DrawRequest:
    players = tuple(Player(i, f"club{i % 3}") for i in range(1, n + 1))
    prev = tuple(tuple(range(k, min(k + 4, n + 1))) for k in range(1, n + 1, 4)) if round_no > 1 else ()
    return DrawRequest("risiko-firk-1", round_no, players, previous_tables=prev, ranking=ranking)


def test_firk_size_1_six_present_in_the_last_round_the_fifth_and_sixth_of_the_standings_meet():
    """FIRK punteggio 9: the pair is the 5th and 6th of the standings, whatever the seed."""
    ranking = (6, 2, 5, 1, 4, 3)
    for seed in (1, 2, 3):
        planned = plan_draw(_request(6, 2, ranking), seed)
        assert planned.tables == ((6, 2, 5, 1), (4, 3)) and planned.special == {2: "head_to_head"}


def test_firk_size_1_five_present_the_fifth_sits_out_and_the_standings_are_required():
    planned = plan_draw(_request(5, 2, (3, 1, 2, 5, 4)), 7)
    assert planned.tables == ((3, 1, 2, 5), (4,)) and planned.special == {2: "sit_out"}
    with pytest.raises(TournamentError) as err:
        plan_draw(_request(5, 2, ()), 7)
    assert err.value.code == "standings_needed_for_last_round"


def test_firk_size_1_reading_3_head_to_head_points_are_31_and_15():
    assert special_table_points(FIRK, "head_to_head", 2) == (31.0, 15.0)
    assert special_table_points(FIRK, None, 4) is None


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_firk_tie_2_reading_4_with_criteria_tables_are_numbered_by_strength_table_1_of_four(seed: int):
    """FIRK punteggio 8-9 with ``later_round_tables = "criteria"`` (an override): the criteria form the tables, then
    the lower-numbered table is the harder one; table 1 always holds four."""
    ranking = tuple(range(1, 14))  # player i is i-th in the standings
    request = DrawRequest(
        "risiko-firk-1",
        2,
        tuple(Player(i) for i in range(1, 14)),
        overrides={"tournament": {"later_round_tables": "criteria"}},
        previous_tables=((1, 2, 3, 4, 5), (6, 7, 8, 9), (10, 11, 12, 13)),
        ranking=ranking,
    )
    tables = plan_draw(request, seed).tables
    means = [sum(t) / len(t) for t in tables]
    assert len(tables[0]) == 4
    rest = means[1:]
    assert rest == sorted(rest) and means[0] <= min(m for t, m in zip(tables, means, strict=True) if len(t) == 4)
    assert "numbered_by_strength" in plan_draw(request, seed).report["notes"]


def _round2(n: int, ranking: tuple[int, ...], ranks: tuple[int, ...] = (), **kw: object) -> DrawRequest:
    players = tuple(Player(i, f"club{i % 2}") for i in range(1, n + 1))  # clubs collide: the standings still decide
    prev = tuple(tuple(range(k, min(k + 4, n + 1))) for k in range(1, n + 1, 4))
    return DrawRequest("risiko-firk-1", 2, players, previous_tables=prev, ranking=ranking, ranks=ranks, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_firk_6_8_9_reading_8_round_2_is_seated_from_the_standings_the_leader_at_table_1(seed: int):
    """FIRK §6 (round 1 from the standings), §8 (the lower-numbered table is "the hardest game") and §9 (table 1
    always of four), read together: round 2 is seated from the standings before it — the best four at table 1, the
    next four at table 2, the table of five last — whatever clubs or repeats the draw's criteria would avoid."""
    ranking = (13, 7, 2, 11, 5, 1, 9, 3, 12, 4, 8, 10, 6)
    planned = plan_draw(_round2(13, ranking), seed)
    assert planned.tables == (ranking[:4], ranking[4:8], ranking[8:])
    assert planned.report["kind"] == "by_standings" and "ties" not in planned.report
    assert planned.report["criteria"]["club_pairs"] > 0  # reported, not optimised: the standings leave no choice


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([8, 9, 12, 13, 16, 17, 20, 23]), st.randoms(use_true_random=False), st.integers(0, 2**31))
def test_firk_reading_8_every_table_is_no_stronger_than_the_one_before(n: int, rnd: random.Random, seed: int):
    """Invariant: with the standings deciding, the leader is at table 1 (of four) and every player of table k ranks
    above every player of table k + 1 — also with players level (their shared rank) and newcomers (last)."""
    ids = list(range(1, n + 1))
    rnd.shuffle(ids)
    newcomers = rnd.randint(0, 2)
    ranked = ids[: n - newcomers]
    ranks: list[int] = []
    for i in range(len(ranked)):
        ranks.append(ranks[-1] if ranks and rnd.random() < 0.3 else i + 1)
    planned = plan_draw(_round2(n, tuple(ranked), tuple(ranks)), seed)
    place = {p: r for p, r in zip(ranked, ranks, strict=True)} | {p: n + 1 for p in ids[n - newcomers :]}
    assert len(planned.tables[0]) == 4 and min(place[p] for p in planned.tables[0]) == 1  # a leader at table 1
    for upper, lower in itertools.pairwise(planned.tables):
        assert max(place[p] for p in upper) <= min(place[p] for p in lower)
    assert sorted(p for t in planned.tables for p in t) == sorted(ids)


def test_firk_reading_8_players_level_across_a_table_boundary_are_ordered_by_the_seeded_lot_never_the_list():
    """4th and 5th level (rank 4 shared): who plays table 1 is a lot drawn with the round's seed — the same seed
    gives the same seats (``steward draw`` replays it), other seeds give both outcomes, the report names the tie;
    players level inside one table keep the standings order (no lot)."""
    ranking = (1, 2, 3, 4, 5, 6, 7, 8)
    ranks = (1, 2, 3, 4, 4, 6, 6, 8)
    seen = set()
    for seed in range(40):
        planned = plan_draw(_round2(8, ranking, ranks), seed)
        assert planned.tables[0][:3] == (1, 2, 3) and planned.tables[1][1:] == (6, 7, 8)  # 6, 7 level: inside
        assert planned == plan_draw(_round2(8, ranking, ranks), seed)
        (tie,) = planned.report["ties"]
        assert tie["rank"] == 4 and tie["tied"] == [4, 5] and tie["method"] == "lot" and tie["seed"] == seed
        seen.add(planned.tables[0][3])
    assert seen == {4, 5}
    inside = plan_draw(_round2(8, ranking, (1, 2, 3, 4, 5, 6, 6, 8)), 3)
    assert inside.tables == ((1, 2, 3, 4), (5, 6, 7, 8)) and "ties" not in inside.report


def test_firk_reading_8_five_present_in_the_last_round_a_tie_at_the_fifth_place_is_a_lot_too():
    """FIRK §9 (five present: the 5th sits out): the 4th and 5th level — who sits out is the seeded lot's."""
    sitters = {plan_draw(_round2(5, (1, 2, 3, 4, 5), (1, 2, 3, 4, 4)), seed).tables[1] for seed in range(30)}
    assert sitters == {(4,), (5,)}


def test_bot_tab_1_the_export_round_trips_and_refuses_unknown_fields():
    request = _request(8, 2, (1, 2, 3, 4, 5, 6, 7, 8))
    assert DrawRequest.from_json(request.to_json()) == request
    ranked = _round2(8, (1, 2, 3, 4, 5, 6, 7, 8), (1, 2, 3, 4, 4, 6, 7, 8))
    assert DrawRequest.from_json(ranked.to_json()) == ranked
    with pytest.raises(TournamentError):  # one rank per standings line
        DrawRequest.from_json({**ranked.to_json(), "previous_ranks": [1, 2, 3]})
    with pytest.raises(TournamentError):  # ranks never decrease down the standings
        DrawRequest.from_json({**ranked.to_json(), "previous_ranks": [1, 2, 3, 5, 4, 6, 7, 8]})
    with pytest.raises(TournamentError):
        DrawRequest.from_json({**request.to_json(), "tables_please": True})


def _cinquisti_request(**overrides: object) -> DrawRequest:
    clubs = ("Roma", "Roma", "Milano", "Torino", None)
    players = tuple(Player(i, clubs[i % 5]) for i in range(1, 23))  # 22 players: 4, 4, 4, 5, 5 (two cinquisti)
    return DrawRequest("risiko-ufficiali-2018", 1, players, overrides=overrides)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tour_r1_1_arb_5_c_d_the_cinquisti_are_swapped_among_themselves_after_the_others(seed: int):
    """ARB art. 5 c)-d), reading 9 (default): the others are placed ignoring the cinquisti's clubs, then the
    cinquisti are swapped among the 5-player tables for the fewest same-club pairs."""
    from bot.rules.tournament.draw import evaluate
    from bot.rules.tournament.planner import context

    request = _cinquisti_request()
    planned = plan_draw(request, seed)
    assert "arb5_steps_c_d" in planned.report["notes"]
    ctx = context(request, request.rules)
    chosen = evaluate(planned.tables, ctx, request.rules.round1_criteria)["club_pairs"]
    assert [len(t) for t in planned.tables] == [4, 4, 4, 5, 5]
    assert chosen >= planned.report["lower_bound"]["club_pairs"]
    # never a proof the procedure cannot give: optimal over every draw only at the bound, else for these cinquisti
    assert planned.report["optimality"] in ("bound_met", "optimal_for_cinquisti", "not_proven")
    assert len(planned.report["cinquisti"]) == 2 and set(planned.report["cinquisti"]) <= set(
        planned.tables[3] + planned.tables[4]
    )
    assert planned.report["criteria"]["club_pairs"] == chosen


def test_tour_r1_1_arb_5_c_the_joint_optimisation_stays_as_an_option():
    planned = plan_draw(_cinquisti_request(tournament={"cinquisti_clubs_in_step_c": True}), 1)
    assert "arb5_steps_c_d" not in planned.report["notes"] and "cinquisti_drawn" in planned.report["notes"]


NP = "risiko-nostra-passione-2018"


def _team_players(teams: dict[str, int]) -> tuple[Player, ...]:
    return tuple(Player(f"{team}{k}", None, team) for team, size in teams.items() for k in range(size))


def _teams_at(tables, players) -> list[list[str]]:
    team = {p.id: p.team for p in players}
    return [sorted(team[x] for x in t) for t in tables]


def test_np_tab_1_four_teams_one_player_of_each_per_table_and_round_two_avoids_tablemates():
    """NP-TAB-1: four teams of five -> five tables of four, one player per team; round 2 keeps that and seats no
    earlier tablemates together (team_pairs first, then repeats)."""
    players = _team_players({t: 5 for t in "ABCD"})
    first = plan_draw(DrawRequest(NP, 1, players), 1)
    assert all(t == ["A", "B", "C", "D"] for t in _teams_at(first.tables, players))
    assert first.report["criteria_order"][0] == "team_pairs" and first.report["optimality"] == "bound_met"
    second = plan_draw(DrawRequest(NP, 2, players, previous_tables=first.tables), 2)
    assert all(t == ["A", "B", "C", "D"] for t in _teams_at(second.tables, players))
    assert second.report["criteria"]["team_pairs"] == second.report["criteria"]["repeat_pairs"] == 0


def test_np_tab_1_six_teams_at_tables_of_four_never_seat_teammates_together():
    """NP-TAB-1 with six teams of four (24 players): six tables of four, each with four different teams."""
    players = _team_players({f"T{k}": 4 for k in range(6)})
    for seed in range(5):
        draw = plan_draw(DrawRequest(NP, 1, players), seed)
        assert [len(t) for t in draw.tables] == [4] * 6
        assert all(len(set(t)) == 4 for t in _teams_at(draw.tables, players))
        assert draw.report["criteria"]["team_pairs"] == 0


def test_np_tab_1_a_team_missing_a_player_leaves_one_table_of_three():
    """Our reading (tournament.short_tables, NP is silent): four teams, one short of a player -> 23 players at five
    tables of four and one of three; still one player per team at each table."""
    players = _team_players({"A": 6, "B": 6, "C": 6, "D": 5})
    draw = plan_draw(DrawRequest(NP, 1, players), 3)
    assert sorted(len(t) for t in draw.tables) == [3, 4, 4, 4, 4, 4]
    assert all(len(set(t)) == len(t) for t in _teams_at(draw.tables, players))
    short = next(t for t in _teams_at(draw.tables, players) if len(t) == 3)
    assert short in (["A", "B", "C"],) or "D" in short  # the table of three lacks one team's seat


def test_np_tab_1_a_team_larger_than_the_tables_and_a_player_without_a_team_are_refused_with_codes():
    players = _team_players({"A": 5, "B": 2, "C": 1})
    with pytest.raises(TournamentError) as err:
        plan_draw(DrawRequest(NP, 1, players), 0)
    assert err.value.code == "team_larger_than_tables" and err.value.value == {"teams": {"A": 5}, "tables": 2}
    with pytest.raises(TournamentError) as err:
        plan_draw(DrawRequest(NP, 1, (*_team_players({"A": 2, "B": 2, "C": 2}), Player("x"))), 0)
    assert err.value.code == "player_without_team"
