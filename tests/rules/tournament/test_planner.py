"""The one draw planner (issue 10): FIRK last round, numbering by strength, special tables' points, the export."""

from __future__ import annotations

import pytest

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
def test_firk_tie_2_reading_4_tables_are_numbered_by_strength_table_1_of_four(seed: int):
    """FIRK punteggio 8-9: the lower-numbered table is the harder one; table 1 always holds four."""
    ranking = tuple(range(1, 14))  # player i is i-th in the standings
    request = DrawRequest(
        "risiko-firk-1",
        2,
        tuple(Player(i) for i in range(1, 14)),
        previous_tables=((1, 2, 3, 4, 5), (6, 7, 8, 9), (10, 11, 12, 13)),
        ranking=ranking,
    )
    tables = plan_draw(request, seed).tables
    means = [sum(t) / len(t) for t in tables]
    assert len(tables[0]) == 4
    rest = means[1:]
    assert rest == sorted(rest) and means[0] <= min(m for t, m in zip(tables, means, strict=True) if len(t) == 4)
    assert "numbered_by_strength" in plan_draw(request, seed).report["notes"]


def test_bot_tab_1_the_export_round_trips_and_refuses_unknown_fields():
    request = _request(8, 2, (1, 2, 3, 4, 5, 6, 7, 8))
    assert DrawRequest.from_json(request.to_json()) == request
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
    assert planned.report["optimality"] in ("bound_met", "not_proven")  # never a proof the procedure cannot give
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
