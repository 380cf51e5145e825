"""Standings (BOT-STD-1): points, withdrawals/disqualifications, FIRK tie-breaks, teams; RR table ranking."""

from __future__ import annotations

import pytest

from bot.rules.presets import load_preset
from bot.rules.ricochet.game import PlayerStatus, final_ranking
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.standings import (
    Deduction,
    EntryStatus,
    GameResult,
    Standing,
    TableEntry,
    TieBreaker,
    compute_standings,
    points_by_place,
    ricochet_tournament_points,
)

FIRK_RULES = TournamentRules.from_preset(load_preset("risiko-firk-1"))


def _game(rnd, table, rows):
    return GameResult(rnd, table, tuple(TableEntry(p, k + 1, tp, tab) for k, (p, tp, tab) in enumerate(rows)))


def test_firk_pts_1_rulebook_example_feeds_the_standings():
    """FIRK-PTS-1 example (FIRK §1-2): 40 vs 32 table points -> 31.8 and 14.2 in the general standings."""
    from bot.rules.risiko.points import tournament_points

    pts = tournament_points(load_preset("risiko-firk-1"), [40, 32, 20, 10])
    assert pts[:2] == [31.8, 14.2]
    res = [
        GameResult(
            1,
            1,
            tuple(
                TableEntry(p, k + 1, pts[k], tp)
                for k, (p, tp) in enumerate([("anna", 40), ("bruno", 32), ("carla", 20), ("dario", 10)])
            ),
        )
    ]
    st = compute_standings(res, tie_breakers=FIRK_RULES.tie_breakers)
    assert [(r.rank, r.player, r.points) for r in st.rows[:2]] == [(1, "anna", 31.8), (2, "bruno", 14.2)]


def test_firk_tie_2_after_the_first_game_absolute_table_points_decide():
    """FIRK-TIE-2 (FIRK §8): after game 1, level players are ordered by the table points they scored."""
    res = [
        _game(1, 1, [("a", 31.0, 40), ("b", 15.0, 40)]),
        _game(1, 2, [("c", 31.0, 55), ("d", 15.0, 30)]),
    ]
    st = compute_standings(res, tie_breakers=FIRK_RULES.tie_breakers)
    assert [r.player for r in st.rows] == ["c", "a", "b", "d"]
    assert [r.rank for r in st.rows] == [1, 2, 3, 4]
    dec = st.decisions[0]
    assert dec.tie_breaker == TieBreaker.FIRST_GAME_TABLE_POINTS
    assert dec.players == ("c", "a") and dict(dec.values) == {"a": 40, "c": 55}


def test_firk_tie_2_later_the_lower_numbered_table_of_the_last_game_ranks_higher():
    """FIRK-TIE-2: level on points after game 2 -> who played at the lower-numbered table in game 2."""
    res = [
        _game(1, 1, [("a", 31.0, 40), ("b", 15.0, 30)]),
        _game(1, 2, [("c", 31.0, 55), ("d", 15.0, 30)]),
        _game(2, 1, [("b", 31.0, 50), ("c", 15.0, 45)]),
        _game(2, 3, [("d", 31.0, 60), ("a", 15.0, 20)]),
    ]
    st = compute_standings(res, tie_breakers=FIRK_RULES.tie_breakers)
    # all four have 46 points: table 1 in game 2 (b, c) before table 3 (d, a)
    assert {r.points for r in st.rows} == {46.0}
    assert [r.player for r in st.rows[:2]] in (["b", "c"], ["c", "b"])
    assert {r.player for r in st.rows[2:]} == {"d", "a"}
    assert st.decisions[0].tie_breaker == TieBreaker.LAST_GAME_TABLE
    # b and c sat at the same table: nothing left to separate them -> shared rank, and it is said
    assert st.rows[0].rank == st.rows[1].rank == 1
    assert any(not d.resolved and set(d.players) == {"b", "c"} for d in st.decisions)


def test_firk_wd_1_a_withdrawal_costs_twenty_five_points_and_withdrawn_players_rank_last():
    """FIRK-WD-1 (FIRK §21): -25 in the general standings; a tournament withdrawal goes below everyone."""
    res = [
        GameResult(
            1,
            1,
            (
                TableEntry("a", 1, 31.0, 40),
                TableEntry("b", 2, 15.0, 30),
                TableEntry("c", 3, 7.0, 20, EntryStatus.FORFEIT),
                TableEntry("d", 4, 3.0, 10),
            ),
        )
    ]
    st = compute_standings(
        res, tie_breakers=FIRK_RULES.tie_breakers, withdrawn={"c"}, withdrawal_deduction=FIRK_RULES.withdrawal_deduction
    )
    c = next(r for r in st.rows if r.player == "c")
    assert c.points == 7.0 - 25.0 and c.deductions == 25.0
    assert st.rows[-1].player == "c" and c.standing is Standing.WITHDRAWN


def test_firk_pen_1_a_seven_point_deduction_and_arb_25_disqualified_ranks_with_withdrawn():
    """FIRK penalità 4: -7 for disturbing a table. ARB art. 23 (last sentence) and 25, reading 6: a disqualified
    RisiKo! player is treated as a withdrawn one (same tier, ordered by points); RR 13.4 puts them below."""
    res = [_game(1, 1, [("a", 31.0, 40), ("b", 15.0, 30), ("c", 7.0, 20), ("d", 3.0, 10)])]
    kwargs = {"deductions": [Deduction("b", 7.0, "disturbance", 1)], "withdrawn": {"c"}, "disqualified": {"a"}}
    st = compute_standings(res, **kwargs)
    assert [r.player for r in st.rows] == ["b", "d", "a", "c"]
    assert st.rows[0].points == 8.0
    assert st.rows[2].standing is Standing.DISQUALIFIED and st.rows[2].rank == 3
    rr = compute_standings(res, disqualified_below_withdrawn=True, **kwargs)
    assert [r.player for r in rr.rows] == ["b", "d", "c", "a"]


def test_firk_wd_1_the_withdrawal_deduction_is_not_taken_from_a_disqualified_entry():
    """FIRK §21 (reading 5): −25 for a withdrawal only; a disqualified entry at a table loses no 25."""
    entries = (
        TableEntry("a", 1, 31.0, 40),
        TableEntry("b", 2, 15.0, 30),
        TableEntry("c", 3, 7.0, 20, EntryStatus.FORFEIT),
        TableEntry("d", 4, 3.0, 10, EntryStatus.DISQUALIFIED),
    )
    st = compute_standings([GameResult(1, 1, entries)], withdrawal_deduction=FIRK_RULES.withdrawal_deduction)
    deducted = {r.player: r.deductions for r in st.rows}
    assert deducted == {"a": 0.0, "b": 0.0, "c": 25.0, "d": 0.0}


def test_bot_std_1_unresolved_ties_share_the_rank_when_the_preset_has_no_tie_breaker():
    """UFF/NP fix no tie-breaker: level players share the rank and the decision says so."""
    res = [_game(1, 1, [("a", 12.0, 50), ("b", 9.0, 40)]), _game(1, 2, [("c", 12.0, 60), ("d", 9.0, 40)])]
    st = compute_standings(res, tie_breakers=())
    assert [(r.rank, r.points) for r in st.rows] == [(1, 12.0), (1, 12.0), (3, 9.0), (3, 9.0)]
    assert all(not d.resolved and d.tie_breaker is None for d in st.decisions)


def test_bot_std_1_team_standings_sum_the_members_points():
    """NP-TAB-1 team event: team standings are the sum of each team's players."""
    res = [_game(1, 1, [("a1", 12.0, 50), ("b1", 9.0, 40), ("a2", 6.0, 30), ("b2", 3.0, 20)])]
    st = compute_standings(res, teams={"a1": "A", "a2": "A", "b1": "B", "b2": "B"})
    assert [(t.rank, t.team, t.points) for t in st.teams] == [(1, "A", 18.0), (2, "B", 12.0)]


def test_np_pts_1_places_to_points_and_shared_places_share_points():
    """NP-PTS-1: 12/9/6/3; two players sharing 1st split 12 + 9."""
    assert points_by_place([("a", 1), ("b", 2), ("c", 3), ("d", 4)], [12, 9, 6, 3]) == {"a": 12, "b": 9, "c": 6, "d": 3}
    assert points_by_place([("a", 1), ("b", 1), ("c", 3)], [12, 9, 6, 3]) == {"a": 10.5, "b": 10.5, "c": 6}


def test_rr_end_1_tournament_points_default_to_the_tokens_won():
    """RR-END-1: one token = one game point; with no points table in the preset the tokens count."""
    table = TournamentRules.from_preset(load_preset("ricochet-v3.3")).points_by_place
    played = final_ranking({"a": 4, "b": 2, "c": 1}, left=[("c", PlayerStatus.FORFEIT)])
    assert ricochet_tournament_points(table, played) == {"a": 4, "b": 2, "c": 0}
    pts2 = ricochet_tournament_points([5, 3, 1], final_ranking({"a": 4, "b": 2, "c": 2}))
    assert pts2 == {"a": 5, "b": 2, "c": 2}


def test_an_unknown_tie_breaker_is_refused_with_a_code():
    with pytest.raises(ValueError) as err:
        compute_standings([_game(1, 1, [("a", 1.0, 1), ("b", 1.0, 1)])], tie_breakers=["coin"])
    assert getattr(err.value, "code", None) == "unknown_tie_breaker"


@pytest.mark.parametrize(
    ("games", "code"),
    [
        ([(1, 1, ["anna", "anna"])], "player_twice_at_table"),
        ([(1, 1, ["anna", "bruno"]), (1, 2, ["anna", "carla"])], "player_at_two_tables"),
        ([(1, 1, ["anna", "bruno"]), (1, 1, ["carla", "dario"])], "table_twice"),
    ],
)
def test_a_player_counted_twice_in_one_round_is_refused_not_summed(games, code):  # type: ignore[no-untyped-def]
    """Issue 15 item 11 (silent acceptance): one table per player per round, once — the standings refuse the rest
    instead of adding a player's points twice (bot and `steward standings` alike)."""
    from bot.rules.tournament.model import TournamentError
    from bot.rules.tournament.standings import EntryStatus, GameResult, TableEntry, compute_standings

    results = [
        GameResult(r, t, tuple(TableEntry(p, i + 1, 10.0 - i, 40.0, EntryStatus.PLAYED) for i, p in enumerate(ids)))
        for r, t, ids in games
    ]
    with pytest.raises(TournamentError) as err:
        compute_standings(results)
    assert (err.value.code == code and "anna" in str(err.value.value)) or err.value.code == "table_twice"
