"""The board (RK-MAP-1, FIRK-MAP-1): territories, borders, values, aliases and the referee border toggle."""

import pytest

from bot.rules.risiko.board import DISPUTED_BORDERS, board_for, standard_board
from bot.rules.risiko.config import load_rules
from bot.rules.risiko.errors import RisikoError

# The boxed tournament value table (NP rulebook, "Punteggi"), typed in from the rulebook as a golden table.
NP_VALUE_TABLE = {
    "Afganistan": 4, "Africa del Nord": 6, "Africa del Sud": 3, "Africa Orientale": 5, "Alaska": 3, "Alberta": 4,
    "America Centrale": 3, "Argentina": 2, "Australia Occidentale": 3, "Australia Orientale": 2, "Brasile": 4,
    "Cina": 7, "Čita": 4, "Congo": 3, "Egitto": 4, "Europa Meridionale": 6, "Europa Occidentale": 4,
    "Europa Settentrionale": 5, "Giappone": 2, "Gran Bretagna": 4, "Groenlandia": 4, "India": 3, "Indonesia": 3,
    "Islanda": 3, "Jacuzia": 3, "Kamchatka": 5, "Madagascar": 2, "Medio Oriente": 6, "Mongolia": 5,
    "Nuova Guinea": 3, "Ontario": 6, "Perù": 3, "Quebec": 3, "Scandinavia": 4, "Siam": 3, "Siberia": 5,
    "Stati Uniti Occ.": 4, "Stati Uniti Orient.": 4, "Territori del Nord O.": 4, "Ucraina": 6, "Urali": 4,
    "Venezuela": 3,
}  # fmt: skip


def test_rk_map_1_board_has_42_territories_6_continents_and_82_borders():
    board = standard_board()
    assert len(board.territories) == 42
    assert len(board.continents) == 6
    assert len(board.borders) == 82


def test_rk_map_1_territory_values_equal_border_counts_and_total_164():
    board = standard_board()
    assert sum(board.degree(t) for t in board.territories) == 164
    for name, value in NP_VALUE_TABLE.items():
        assert board.degree(name) == value, name


def test_rk_map_1_continent_bonuses_match_the_boxed_rules():
    board = standard_board()
    bonuses = {c.name: c.bonus for c in board.continents}
    assert bonuses == {"Nord America": 5, "Sud America": 2, "Europa": 5, "Africa": 3, "Asia": 7, "Oceania": 2}


def test_rk_map_1_sea_line_alaska_kamchatka_is_a_border():
    assert standard_board().adjacent("Alaska", "Kamchatka")


def test_firk_map_1_middle_east_and_egypt_border_each_other():
    assert standard_board().adjacent("Medio Oriente", "Egitto")


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [("Cita", "Čita"), ("Afghanistan", "Afganistan"), ("irkutsk", "Čita"), ("Yakutsk", "Jacuzia"),
     ("Peru", "Perù"), ("Territori del Nord-Ovest", "Territori del Nord Ovest"), ("  cina ", "Cina")],
)  # fmt: skip
def test_rk_map_1_spelling_aliases_are_accepted(alias, canonical):
    assert standard_board().canonical(alias) == canonical


def test_rk_map_1_unknown_territory_is_refused_quoting_the_name():
    with pytest.raises(RisikoError) as err:
        standard_board().canonical("Atlantide")
    assert err.value.code == "unknown_territory"
    assert "Atlantide" in str(err.value)


def test_rk_map_1_referee_can_disable_a_disputed_border():
    board = board_for([list(DISPUTED_BORDERS[0])])
    assert not board.adjacent("America Centrale", "Stati Uniti Orientali")
    assert len(board.borders) == 81
    rules = load_rules("risiko-firk-1", {"risiko": {"disabled_borders": [["Egitto", "Medio Oriente"]]}})
    assert not rules.board.adjacent("Egitto", "Medio Oriente")
    assert rules.board.degree("Egitto") == 3


def test_rk_map_1_disabling_a_non_border_is_refused():
    with pytest.raises(RisikoError) as err:
        board_for([["Cina", "Brasile"]])
    assert err.value.code == "not_a_border"


def test_firk_score_1_external_borders_two_readings_europe_8_links_or_4_territories():
    board = standard_board()
    europe = board.continent("Europa")
    assert board.external_border_links(europe) == 8
    assert board.border_territories(europe) == 4
