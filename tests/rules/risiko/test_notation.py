"""Parse/serialise pairs with hypothesis round trips: player situations (score input), cards; RK-SET-1 armies."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.risiko.board import ALIASES, standard_board
from bot.rules.risiko.cards import Card, Symbol
from bot.rules.risiko.config import shipped_rules
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.limits import initial_armies
from bot.rules.risiko.scoring import PlayerSituation, Status, parse_player

BOARD = standard_board()
ALL = list(BOARD.territories)

players = st.builds(
    PlayerSituation,
    name=st.text(min_size=1, max_size=12),
    territories=st.dictionaries(st.sampled_from(ALL), st.integers(1, 60), max_size=12),
    cards=st.integers(0, 9),
    objective=st.one_of(st.none(), st.lists(st.sampled_from(ALL), max_size=10, unique=True).map(tuple)),
    achieved_objective=st.booleans(),
    status=st.sampled_from(list(Status)),
    frozen_in_supplementary=st.booleans(),
)


@given(players)
def test_np_score_1_and_firk_score_1_player_situation_notation_round_trips(player):
    assert parse_player(player.serialise(), BOARD) == player


@given(st.sampled_from(sorted(ALIASES)), st.integers(1, 9))
def test_rk_map_1_aliases_in_the_score_input_become_canonical_names(alias, armies):
    parsed = parse_player({"name": "Anna", "territories": {alias: armies}}, BOARD)
    assert parsed.territories == {ALIASES[alias]: armies}
    assert parse_player(parsed.serialise(), BOARD) == parsed


def test_np_score_1_objective_card_name_survives_the_round_trip_and_stays_marked_unverified():
    parsed = parse_player({"name": "Anna", "territories": {}, "objective": "Letto"}, BOARD)
    assert parsed.objective_source == "unverified_card:Letto"
    assert parse_player(parsed.serialise(), BOARD) == parsed


@given(st.sampled_from(list(Symbol)), st.sampled_from(ALL))
def test_rk_tris_1_card_notation_round_trips(symbol, territory):
    card = Card(symbol, None if symbol is Symbol.JOLLY else territory)
    assert Card.parse(card.serialise(), BOARD) == card


@pytest.mark.parametrize(
    "bad", [{"name": "A", "territories": {"Cina": -2}}, {"name": "A", "territories": {}, "hat": 1}]
)
def test_np_score_1_bad_player_objects_are_refused_quoting_the_value(bad):
    with pytest.raises(RisikoError) as err:
        parse_player(bad, BOARD)
    assert ("-2" in str(err.value)) or ("hat" in str(err.value))


@pytest.mark.parametrize(("n", "armies"), [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_rk_set_1_initial_armies_by_number_of_players(n, armies):
    rules = shipped_rules("risiko-ufficiali-2018")
    assert initial_armies(n, rules) == armies


def test_rk_set_1_seven_players_are_refused():
    rules = shipped_rules("risiko-ufficiali-2018")
    with pytest.raises(RisikoError):
        initial_armies(7, rules)
