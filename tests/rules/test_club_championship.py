"""Issue 47: the club championship as clubs run it — evenings, discards, late entries, repechage, direct finalists.

Golden tables written from the clubs' published formats (issue 47): eight evenings and two discards (an absence is
discarded first), a player who enters on evening 3, one absent twice, a repechage decided by a single game with the
minimum-games rule, two direct finalists, and ties at every cut settled by the organizer's order or the published
lot — never by list order.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.presets import PresetFieldError
from bot.rules.risiko.points import PointsRules, tournament_points_for_places
from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.planner import FinalsRequest, plan_final, plan_semifinals, repechage_pick
from bot.rules.tournament.seeding import FinalSource, compose_final
from bot.rules.tournament.standings import (
    GameResult,
    TableEntry,
    best_single_games,
    compute_standings,
    discards_in_force,
    with_discards,
)

CLUB = load_ruleset("club-championship").tournament


def evening(round_no: int, *tables: tuple[tuple[str, float], ...]) -> list[GameResult]:
    """One evening: each table's players best first with their table points (= tournament points here)."""
    return [
        GameResult(round_no, t, tuple(TableEntry(p, i + 1, pts, pts) for i, (p, pts) in enumerate(table)))
        for t, table in enumerate(tables, start=1)
    ]


# Eight evenings. Anna plays all eight; Bruno is absent on evenings 4 and 6; Carla enters on evening 3 (evenings 1
# and 2 are absences); Dario plays all eight; Elio and Fede fill the tables.
SEASON = [
    *evening(1, (("anna", 90), ("bruno", 60), ("dario", 40), ("elio", 10))),
    *evening(2, (("bruno", 95), ("anna", 50), ("elio", 30), ("dario", 25))),
    *evening(3, (("carla", 100), ("anna", 70), ("dario", 20), ("bruno", 15))),
    *evening(4, (("anna", 80), ("carla", 75), ("dario", 35), ("fede", 5))),
    *evening(5, (("carla", 92.5), ("bruno", 88), ("anna", 30), ("dario", 12))),
    *evening(6, (("dario", 99), ("carla", 64), ("anna", 45), ("elio", 2))),
    *evening(7, (("bruno", 87), ("anna", 77), ("carla", 50), ("dario", 3))),
    *evening(8, (("anna", 91), ("carla", 81), ("bruno", 70), ("dario", 33))),
]


def test_issue_47_eight_evenings_two_discards_golden():
    """Hand-computed: each player's two worst evenings are dropped, absences first."""
    standings = compute_standings(SEASON, **CLUB.standings_fields())
    rows = {r.player: r for r in standings.rows}
    # anna 90 50 70 80 30 45 77 91: drops 30 (ev. 5) and 45 (ev. 6) -> 458
    assert (rows["anna"].points, rows["anna"].discarded) == (458.0, (5, 6))
    # bruno 60 95 15 — 88 — 87 70: absences 4 and 6 go first -> 415, evening 3's 15 counts
    assert (rows["bruno"].points, rows["bruno"].discarded) == (415.0, (4, 6))
    # carla — — 100 75 92.5 64 50 81: the two evenings before she entered are the discards -> 462.5
    assert (rows["carla"].points, rows["carla"].discarded) == (462.5, (1, 2))
    assert rows["carla"].counted == (3, 4, 5, 6, 7, 8)
    # dario 40 25 20 35 12 99 3 33: drops 3 (ev. 7) and 12 (ev. 5) -> 252
    assert (rows["dario"].points, rows["dario"].discarded) == (252.0, (5, 7))
    assert [r.player for r in standings.rows[:4]] == ["carla", "anna", "bruno", "dario"]
    absent = next(r for r in rows["carla"].rounds if r.round == 1)
    assert absent.points is None and not absent.counted


def test_issue_47_nothing_is_discarded_before_more_evenings_are_held_than_will_count():
    """The best six of eight count: after three evenings every result counts, after seven one is dropped."""
    assert [discards_in_force(2, held, 8) for held in range(9)] == [0, 0, 0, 0, 0, 0, 0, 1, 2]
    assert discards_in_force(3, 12, 12) == 3  # the national team championship: the best 9 of 12
    assert discards_in_force(2, 3, 0) == 2 and discards_in_force(2, 1, 0) == 0  # no evenings foreseen
    early = compute_standings(SEASON[:3], **CLUB.standings_fields())
    assert all(r.discarded == () for r in early.rows)
    assert next(r for r in early.rows if r.player == "anna").points == 210.0


def test_issue_47_the_lowest_results_go_absences_first_then_the_earliest_of_equal_ones():
    scores = with_discards({1: 10.0, 2: 5.0, 4: 5.0}, [1, 2, 3, 4], 2)
    assert [(r.round, r.counted) for r in scores] == [(1, True), (2, False), (3, False), (4, True)]


def test_issue_47_tie_breaks_as_clubs_publish_them_wins_then_best_win_then_the_total_before_discards():
    """Level on counted points: more wins first; then the best win; then the points before discards."""
    results = [
        *evening(1, (("a", 60), ("b", 50), ("c", 40), ("d", 30))),
        *evening(2, (("b", 60), ("c", 50), ("a", 40), ("d", 10))),
        *evening(3, (("c", 70), ("a", 50), ("b", 50), ("d", 20))),
    ]
    fields = {**CLUB.standings_fields(), "rounds_foreseen": 3, "discards": 1}
    standings = compute_standings(results, **fields)
    # counted: a 60+50=110, b 60+50=110, c 50+70=120 → c first; a and b level with one win each, best win 60 each;
    # before discards a 150, b 160 → b ahead
    assert [(r.player, r.points) for r in standings.rows[:3]] == [("c", 120.0), ("b", 110.0), ("a", 110.0)]
    decision = next(d for d in standings.decisions if set(d.players) == {"a", "b"})
    assert decision.tie_breaker == "total_without_discards" and decision.players == ("b", "a")


def test_issue_47_a_club_championship_scores_the_table_points_themselves():
    rules = PointsRules.from_table({"base": [12, 9, 6, 3], "gap_factor": 0, "clamp_at_zero": False,
                                    "method": "table_points"})  # fmt: skip
    assert [float(x) for x in tournament_points_for_places(rules, [87, 62.5, 40, 0], [1, 2, 3, 4])] == [
        87.0, 62.5, 40.0, 0.0]  # fmt: skip
    with pytest.raises(PresetFieldError):
        PointsRules.from_table({"base": [1], "gap_factor": 0, "clamp_at_zero": False, "method": "sum"})


# ----------------------------------------------------------------------------------------------- preset fields


def test_issue_47_fields_parse_and_refuse_what_no_club_runs():
    assert (CLUB.discards, CLUB.late_entry, CLUB.repechage, CLUB.repechage_min_games, CLUB.direct_finalists,
            CLUB.semifinal_tables) == (2, "open", "best_single_game", 3, 2, 2)  # fmt: skip
    until = load_ruleset("risiko-ufficiali-2018", {"tournament": {"late_entry": 3}}).tournament
    assert (until.late_entry, until.late_entry_round) == ("until", 3)
    assert [until.late_entry_allowed(n) for n in range(5)] == [True, True, True, False, False]
    assert [CLUB.late_entry_allowed(n) for n in (0, 7, 8)] == [True, True, False]
    assert not load_ruleset("risiko-ufficiali-2018").tournament.late_entry_allowed(0)
    one = load_ruleset("club-championship", {"tournament": {"direct_finalists": 1}}).tournament
    assert (one.direct_finalists, one.semifinal_tables) == (1, 3)
    official = load_ruleset("risiko-ufficiali-2018").tournament
    assert (official.direct_finalists, official.semifinal_tables, official.direct_for(3)) == (0, 4, 1)
    for bad in ({"direct_finalists": 3}, {"discards": 8}, {"late_entry": "sometimes"}, {"late_entry": 0},
                {"repechage": "best_total"}, {"repechage_min_games": 0}):  # fmt: skip
        with pytest.raises(PresetFieldError):
            load_ruleset("club-championship", {"tournament": bad})


# ------------------------------------------------------------------------------------------------- repechage


def test_issue_47_the_repechage_takes_the_best_single_game_among_those_with_the_minimum_games():
    """Rank 10 played only two games (its 99 does not count); 87 by rank 14 beats 80 by rank 11."""
    below = [10, 11, 12, 13, 14]
    rank_of = {p: p for p in below}
    games = [(10, 99.0, 2), (11, 80.0, 5), (12, 60.0, 3), (13, 79.0, 6), (14, 87.0, 3)]
    pick, tie = repechage_pick(below, rank_of, games, min_games=3, seed=1)
    assert pick == {"player": 14, "reason": "best_single_game", "points": 87.0, "games": 3} and tie is None
    pick, _ = repechage_pick(below, rank_of, games, min_games=2, seed=1)
    assert pick is not None and pick["player"] == 10


def test_issue_47_a_repechage_level_on_best_game_goes_to_the_better_rank_then_the_lot_or_the_organizer():
    games = [(20, 87.0, 4), (21, 87.0, 4), (22, 87.0, 4)]
    pick, tie = repechage_pick([21, 20, 22], {20: 12, 21: 11, 22: 12}, games, min_games=3, seed=5)
    assert pick is not None and pick["player"] == 21 and tie is None  # the better standings rank
    level = {20: 12, 21: 12, 22: 12}
    drawn = {repechage_pick(order, level, games, min_games=3, seed=5)[0]["player"]  # type: ignore[index]
             for order in ([20, 21, 22], [22, 21, 20], [21, 22, 20])}  # fmt: skip
    assert len(drawn) == 1  # the lot depends on who is level and the seed, never on the list order
    pick, tie = repechage_pick([20, 21, 22], level, games, min_games=3, seed=5, order=[22, 20, 21])
    assert pick is not None and pick["player"] == 22
    assert tie is not None and (tie.method, tie.boundary) == ("organizer", "repechage")
    _, lot = repechage_pick([20, 21, 22], level, games, min_games=3, seed=5)
    assert lot is not None and (lot.method, lot.seed, lot.boundary) == ("lot", 5, "repechage")


def test_issue_47_nobody_with_the_minimum_games_gives_the_seat_to_the_next_of_the_standings():
    pick, _ = repechage_pick([9, 10], {9: 9, 10: 10}, [(9, 40.0, 1), (10, 90.0, 2)], min_games=3, seed=0)
    assert pick == {"player": 9, "reason": "standings", "points": 40.0, "games": 1}


def club_request(ranks: list[int], *, tie_order: tuple[int, ...] = (), best: dict[int, float] | None = None,
                 games: int = 4) -> FinalsRequest:  # fmt: skip
    players = tuple(range(1, len(ranks) + 1))
    best = best or {}
    return FinalsRequest("semifinal", "club-championship", {}, players, {p: None for p in players}, 2,
                         ranks=tuple(ranks), tie_order=tie_order,
                         repechage=tuple((p, best.get(p, 50.0), games) for p in players))  # fmt: skip


def test_issue_47_two_direct_finalists_two_semifinals_seven_from_the_standings_and_the_repechage():
    """Ranks 1–2 to the final; 3–9 and the repechage (rank 15's 93-point game) play two semifinals in bands."""
    request = club_request(list(range(1, 21)), best={15: 93.0, 4: 99.0})
    tables, groups, ties = plan_semifinals(request, seed=7)
    (group,) = groups
    assert group["direct_finalist"] == 1 and group["direct_finalists"] == [1, 2]
    assert group["repechage"] == {"player": 15, "reason": "best_single_game", "points": 93.0, "games": 4}
    assert group["bands"] == [[3, 4], [5, 6], [7, 8], [9, 15]]
    assert sorted(p for t in tables for p in t) == [3, 4, 5, 6, 7, 8, 9, 15] and ties == []
    assert FinalsRequest.from_json(request.to_json()) == request  # the export replays it


def test_issue_47_ties_at_the_direct_seat_and_the_cut_are_drawn_by_the_published_lot_or_the_organizer():
    """Ranks 2 and 3 level across the direct seat; 9 and 10 level across the standings' last semifinal seat."""
    ranks = [1, 2, 2, 4, 5, 6, 7, 8, 9, 9, *range(11, 21)]
    _, groups, ties = plan_semifinals(club_request(ranks), seed=11)
    by_line = {t.boundary: t for t in ties}
    assert set(by_line) == {"direct", "cut"} and all(t.method == "lot" and t.seed == 11 for t in ties)
    assert set(by_line["direct"].tied) == {2, 3} and set(by_line["cut"].tied) == {9, 10}
    assert groups[0]["direct_finalists"][1] == by_line["direct"].qualified[0]
    same = plan_semifinals(club_request(ranks), seed=11)
    assert same[1] == groups  # the same seed replays the same lot
    _, chosen, decided = plan_semifinals(club_request(ranks, tie_order=(3, 2, 10, 9)), seed=11)
    assert chosen[0]["direct_finalists"] == [1, 3] and all(t.method == "organizer" for t in decided)
    # the one the cut left out may still take the repechage with the best single game
    _, rescued, _ = plan_semifinals(club_request(ranks, tie_order=(3, 2, 10, 9), best={9: 95.0}), seed=11)
    assert rescued[0]["repechage"]["player"] == 9


def test_issue_47_the_final_seats_both_direct_finalists_and_replaces_one_who_declines():
    groups = [{"label": "all", "tables": [1, 2], "orders": [[3, 6, 7, 15], [4, 5, 8, 9]], "direct_finalist": 1,
               "direct_finalists": [1, 2]}]  # fmt: skip
    ranking = tuple(range(1, 21))
    request = FinalsRequest("final", "club-championship", {}, ranking=ranking, groups=tuple(groups), seed=3)
    (final,), _, _ = plan_final(request)
    assert sorted(final) == [1, 2, 3, 4]
    comp = compose_final([[3, 6, 7, 15], [4, 5, 8, 9]], list(ranking), direct_finalists=[1, 2], declined=[2])
    replacement = next(s for s in comp.seats if s.source is FinalSource.DIRECT_REPLACEMENT)
    assert replacement.player == 5  # the best 2nd of the semifinals by the standings (5 ranks above 6)
    assert sorted(comp.players) == [1, 3, 4, 5]


def test_issue_47_the_final_s_seats_are_the_semifinal_winners_and_the_direct_finalists():
    two = load_ruleset("risiko-ufficiali-2018", {"tournament": {"semifinal_tables": 2}}).tournament
    assert (two.semifinal_tables, two.direct_finalists) == (2, 2)
    with pytest.raises(PresetFieldError, match="semifinal_tables"):
        load_ruleset("risiko-ufficiali-2018", {"tournament": {"semifinal_tables": 3, "direct_finalists": 0}})
    with pytest.raises(TournamentError):
        plan_semifinals(club_request(list(range(1, 9))), seed=1)  # eight players cannot fill ten seats


# ------------------------------------------------------------------------------------------------- invariants


def results_strategy() -> st.SearchStrategy[list[GameResult]]:
    players = [f"p{i}" for i in range(8)]

    @st.composite
    def build(draw: st.DrawFn) -> list[GameResult]:
        rounds = draw(st.integers(1, 6))
        out: list[GameResult] = []
        for r in range(1, rounds + 1):
            present = draw(st.lists(st.sampled_from(players), min_size=2, max_size=8, unique=True))
            pts = draw(st.lists(st.integers(0, 120), min_size=len(present), max_size=len(present)))
            ordered = sorted(zip(present, pts, strict=True), key=lambda x: -x[1])
            out.append(GameResult(r, 1, tuple(TableEntry(p, i + 1, float(v), float(v))
                                              for i, (p, v) in enumerate(ordered))))  # fmt: skip
        return out

    return build()


@settings(max_examples=80, deadline=None)
@given(results_strategy(), st.integers(0, 3), st.randoms(use_true_random=False))
def test_issue_47_discards_invariants(results: list[GameResult], discards: int, rnd: random.Random):
    """Counted and discarded rounds split the rounds held; the total is the counted sum; a player never has more
    discards than in force; the order results are listed in changes nothing."""
    held = sorted({r.round for r in results})
    standings = compute_standings(results, discards=discards, rounds_foreseen=0)
    dropping = discards_in_force(discards, len(held), 0)
    for row in standings.rows:
        if discards == 0:
            assert row.rounds == ()
            continue
        assert sorted(row.counted + row.discarded) == held and len(row.discarded) == dropping
        assert row.points == pytest.approx(sum(r.points or 0.0 for r in row.rounds if r.counted))
        kept = [r.points or 0.0 for r in row.rounds if r.counted]
        dropped = [r.points for r in row.rounds if not r.counted]
        if kept and any(p is not None for p in dropped):  # nothing counted is worse than something discarded
            assert min(kept) >= max(p for p in dropped if p is not None)
    shuffled = list(results)
    rnd.shuffle(shuffled)
    again = compute_standings(shuffled, discards=discards, rounds_foreseen=0)
    assert sorted((r.rank, r.player, r.points) for r in again.rows) == sorted(
        (r.rank, r.player, r.points) for r in standings.rows
    )


def test_issue_47_best_single_games_counts_every_table_sat_at():
    assert best_single_games(SEASON)[:2] == (("anna", 91.0, 8), ("bruno", 95.0, 6))


def test_issue_47_a_repechage_in_odd_and_even_halves_is_refused_with_a_code():
    field = tuple(range(1, 41))
    request = FinalsRequest("semifinal", "club-championship", {"tournament": {"odd_even_threshold": 20}}, field,
                            dict.fromkeys(field), 2, ranks=field)  # fmt: skip
    with pytest.raises(TournamentError) as refused:
        plan_semifinals(request, seed=1)
    assert (refused.value.code, refused.value.value) == ("repechage_with_odd_even_halves", 40)
