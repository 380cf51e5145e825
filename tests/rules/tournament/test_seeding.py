"""Semifinal bands, odd/even split, final replacement chain (ARB art. 5), FIRK seeding and family moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.presets import load_preset
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.seeding import (
    FamilyMove,
    FinalSource,
    compose_final,
    firk_round1,
    semifinals,
    split_odd_even,
)

FIRK = TournamentRules.from_preset(load_preset("risiko-firk-1")).firk
RANKING = list(range(1, 21))  # player id == rank after two games


def test_tour_sf_1_four_semifinals_take_one_player_from_each_band_of_four():
    """ARB art. 5, 3rd game (< 100 players): every table one of 1-4, 5-8, 9-12, 13-16."""
    plan = semifinals(RANKING, {}, tables=4, table_size=4, rng=random.Random(0))
    assert plan.direct_finalist is None
    assert plan.bands == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16))
    assert [t[0] for t in plan.tables] == [1, 2, 3, 4]  # band 1: rank i at table i
    for table in plan.tables:
        assert [(p - 1) // 4 for p in table] == [0, 1, 2, 3]
    assert sorted(p for t in plan.tables for p in t) == list(range(1, 17))


def test_tour_sf_1_three_semifinals_send_rank_one_to_the_final_with_bands_from_rank_two():
    """ARB art. 5: with three semifinals, rank 1 is a direct finalist; bands 2-4, 5-7, 8-10, 11-13."""
    plan = semifinals(RANKING, {}, tables=3, table_size=4, rng=random.Random(0))
    assert plan.direct_finalist == 1
    assert plan.bands == ((2, 3, 4), (5, 6, 7), (8, 9, 10), (11, 12, 13))
    assert all(len(t) == 4 for t in plan.tables)


def test_tour_sf_1_club_separation_redistributes_inside_the_bands_only():
    """ARB art. 5: players may be redistributed to separate clubs; bands are kept (TOUR-SF-1)."""
    clubs = {1: "A", 5: "A", 9: "A", 13: "A", 2: "B", 6: "B"}
    plan = semifinals(RANKING, clubs, tables=4, table_size=4, rng=random.Random(4))
    assert plan.club_pairs_plain == 7  # plain seeding: 1, 5, 9, 13 together (6 pairs) and 2 with 6
    assert plan.club_pairs == 0
    for table in plan.tables:
        assert [(p - 1) // 4 for p in table] == [0, 1, 2, 3]


def test_tour_sf_1_too_few_ranked_players_is_refused():
    with pytest.raises(TournamentError) as err:
        semifinals(list(range(10)), {}, tables=4, table_size=4, rng=random.Random(0))
    assert err.value.code == "too_few_ranked_players"


def test_tour_sf_2_two_quartets_split_odd_one_to_thirty_one_and_even_two_to_thirty_two():
    """ARB art. 5, 100+ players: odd 1st-31st and even 2nd-32nd, withdrawn qualifiers removed first."""
    ranking = list(range(1, 121))
    split = split_odd_even(ranking, tables=4, table_size=4, withdrawn=[3])
    net = [p for p in ranking if p != 3]
    assert split.odd == tuple(net[0:32:2])
    assert split.even == tuple(net[1:32:2])
    assert len(split.odd) == len(split.even) == 16
    assert 3 not in split.odd + split.even


def test_tour_sf_2_two_trios_keep_rank_one_and_two_as_direct_finalists_of_their_halves():
    """ARB art. 5: two trios -> odd 3rd-25th join rank 1, even 4th-26th join rank 2."""
    split = split_odd_even(list(range(1, 121)), tables=3, table_size=4)
    assert split.odd == (1, *range(3, 26, 2))
    assert split.even == (2, *range(4, 27, 2))
    odd = semifinals(split.odd, {}, tables=3, table_size=4, rng=random.Random(0))
    even = semifinals(split.even, {}, tables=3, table_size=4, rng=random.Random(0))
    assert odd.direct_finalist == 1 and even.direct_finalist == 2
    assert odd.bands[0] == (3, 5, 7) and even.bands[-1] == (20, 22, 24, 26)[1:]


SF = [[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]]
STANDINGS = list(range(1, 17))


def test_tour_fin_1_the_final_is_the_four_semifinal_winners():
    final = compose_final(SF, STANDINGS)
    assert final.players == (1, 2, 3, 4)
    assert {s.source for s in final.seats} == {FinalSource.WINNER}


def test_tour_fin_1_a_declining_winner_is_replaced_by_the_second_then_third_of_the_same_table():
    """ARB art. 5, 4th game: the 2nd of the table, then the 3rd, then the 4th."""
    final = compose_final(SF, STANDINGS, declined={1, 2, 6})
    seat1, seat2 = final.seats[0], final.seats[1]
    assert (seat1.player, seat1.source, seat1.semifinal_place) == (5, FinalSource.SAME_TABLE, 2)
    assert (seat2.player, seat2.source, seat2.semifinal_place) == (10, FinalSource.SAME_TABLE, 3)


def test_tour_fin_1_a_whole_table_declining_recovers_the_best_second_by_the_standings_after_two_games():
    """ARB art. 5: best 2nd of the other semifinals by the standings after games 1-2 (not semifinal
    points), then the best 3rd."""
    standings = [1, 2, 3, 4, 8, 7, 6, 5, 9, 10, 11, 12, 13, 14, 15, 16]  # 8 ranks above 7 and 6
    final = compose_final(SF, standings, declined={2, 6, 10, 14})
    rec = [s for s in final.seats if s.source is FinalSource.OTHER_TABLE]
    assert len(rec) == 1
    assert (rec[0].player, rec[0].semifinal_table, rec[0].replaces_table) == (8, 4, 2)
    # every 2nd taken or declining -> the best 3rd
    final = compose_final(SF, STANDINGS, declined={2, 6, 10, 14, 5, 7, 8})
    rec = [s for s in final.seats if s.source is FinalSource.OTHER_TABLE]
    assert [(s.player, s.semifinal_table, s.semifinal_place) for s in rec] == [(9, 1, 3)]


def test_tour_fin_1_a_direct_finalist_declining_after_the_semifinals_is_replaced_by_the_best_second():
    """ARB art. 5: direct finalist declines after the semifinals started -> best 2nd of the three tables."""
    sf3 = [[2, 5, 8, 11], [3, 6, 9, 12], [4, 7, 10, 13]]
    final = compose_final(sf3, list(range(1, 14)), direct_finalist=1, declined={1})
    assert final.players[:3] == (2, 3, 4)
    assert final.seats[3].source is FinalSource.DIRECT_REPLACEMENT
    assert final.seats[3].player == 5
    kept = compose_final(sf3, list(range(1, 14)), direct_finalist=1)
    assert kept.seats[0].source is FinalSource.DIRECT and kept.players == (1, 2, 3, 4)


@given(st.sets(st.integers(1, 16)))
def test_tour_fin_1_property_finalists_are_distinct_never_declined_and_at_most_four(declined):
    final = compose_final(SF, STANDINGS, declined=declined)
    assert len(set(final.players)) == len(final.players) == 4 - final.unfilled
    assert not set(final.players) & declined


def test_firk_seed_1_round_one_tables_follow_the_previous_standings():
    """FIRK-SEED-1 (FIRK §6): table 1 = the top four of the previous standings; five at table 1 in round 1."""
    seeding = firk_round1(list(range(1, 14)), cfg=FIRK)
    assert seeding.tables == ((1, 2, 3, 4, 5), (6, 7, 8, 9), (10, 11, 12, 13))
    assert seeding.moves == ()


def test_firk_fam_1_spouses_split_by_moving_the_lower_ranked_one_down_a_table():
    """FIRK-FAM-1 (FIRK §10): 1 and 2 are married -> 2 moves to table 2, swapping with its best-ranked player."""
    seeding = firk_round1(list(range(1, 13)), family_pairs=[(1, 2)], cfg=FIRK)
    assert seeding.moves == (FamilyMove(2, 1, 2, 5),)
    assert seeding.tables == ((1, 3, 4, 5), (2, 6, 7, 8), (9, 10, 11, 12))
    assert seeding.unresolved_family_pairs == ()


def test_firk_fam_1_at_the_last_table_the_higher_ranked_one_moves_up():
    """FIRK §10: siblings 11 and 12 at the last table -> 11 moves up, swapping with table 2's lowest."""
    seeding = firk_round1(list(range(1, 13)), family_pairs=[(11, 12)], cfg=FIRK)
    assert seeding.moves == (FamilyMove(11, 3, 2, 8),)
    assert seeding.tables[1] == (5, 6, 7, 11) and seeding.tables[2] == (8, 9, 10, 12)


def test_firk_fam_1_an_unsplittable_family_is_reported_not_hidden():
    """FIRK §10 applies "when possible": one table only -> the pair stays and is reported."""
    seeding = firk_round1([1, 2, 3, 4], family_pairs=[(1, 2)], cfg=FIRK)
    assert seeding.unresolved_family_pairs == ((1, 2),)
