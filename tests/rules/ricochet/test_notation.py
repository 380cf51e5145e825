"""The Ricochet Robots notation as read off the board, in Italian and English (BOT-I18N-1, RR-COMP-1):
robot letters per language, cells A–P × 1–16, directions; every format/parse pair round-trips; the old forms
(``row,col`` from 0, colour names) still read; what cannot be read is refused naming the piece."""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.ricochet.board import ROBOT_COLOURS, SIZE, SYMBOLS, TARGET_COLOURS, VORTEX_COLOUR
from bot.rules.ricochet.notation import (
    LANGUAGES,
    ROBOT_LETTERS,
    NotationError,
    TargetText,
    cell_name,
    format_moves,
    format_robots,
    format_target,
    parse_cell,
    parse_moves,
    parse_robots,
    parse_target,
)

cells = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))
languages = st.sampled_from(LANGUAGES)


@contextmanager
def expect_refusal(code: str, value: object) -> Iterator[None]:
    with pytest.raises(NotationError) as caught:
        yield
    assert (caught.value.code, caught.value.value) == (code, value)


def test_bot_i18n_1_each_language_draws_its_own_initials_on_the_robots():
    assert ROBOT_LETTERS["it"] == {"red": "R", "green": "V", "blue": "B", "yellow": "G", "black": "N", "silver": "A"}
    assert ROBOT_LETTERS["en"] == {"red": "R", "green": "G", "blue": "B", "yellow": "Y", "black": "K", "silver": "S"}
    for lang in LANGUAGES:  # one letter per robot, and every robot of RR-COMP-1 has one
        assert set(ROBOT_LETTERS[lang]) == set(ROBOT_COLOURS)
        assert len(set(ROBOT_LETTERS[lang].values())) == len(ROBOT_COLOURS)


@pytest.mark.parametrize(
    ("text", "cell"),
    [("A1", (0, 0)), ("P16", (15, 15)), ("h11", (10, 7)), ("F16", (15, 5)), ("10,7", (10, 7)), ("0 15", (0, 15))],
)
def test_a_cell_is_its_column_letter_and_row_number_or_the_old_row_col_from_zero(text, cell):
    assert parse_cell(text) == cell


@pytest.mark.parametrize("text", ["Q1", "A0", "A17", "16,0", "3,16", "H", "11", "HH11"])
def test_a_cell_off_the_board_is_refused_naming_it(text):
    with expect_refusal("cell_unknown", text):
        parse_cell(text)


@given(cells)
def test_cell_names_round_trip(cell):
    assert parse_cell(cell_name(cell)) == cell


def test_g_is_giallo_to_an_italian_reader_and_green_to_an_english_one():
    """A "GN" copied off the Italian board must move the yellow robot."""
    assert parse_robots("GH11", "it") == {"yellow": (10, 7)}
    assert parse_robots("GH11", "en") == {"green": (10, 7)}
    assert parse_moves("GN", "it") == [("yellow", "N")]
    assert parse_moves("GN", "en") == [("green", "N")]


def test_the_board_as_each_language_writes_it():
    position = {"red": (15, 5), "green": (10, 7), "blue": (5, 15), "yellow": (10, 3)}
    assert parse_robots("RF16 VH11 BP6 GD11", "it") == position
    assert parse_robots("RF16 GH11 BP6 YD11", "en") == position
    assert parse_robots("rosso F16, verde: H11; blu=P6 giallo@D11", "it") == position
    assert parse_robots("red F16 green H11 blue P6 yellow D11", "it") == position  # names read in either language
    assert parse_robots("nero A1 argento C1", "en") == {"black": (0, 0), "silver": (0, 2)}
    assert parse_robots("NA1 AB1", "it") == {"black": (0, 0), "silver": (0, 1)}
    assert parse_robots("KA1 SB1", "en") == {"black": (0, 0), "silver": (0, 1)}


def test_the_old_forms_still_read_where_they_mean_one_robot():
    old = {"red": (15, 5), "green": (10, 7), "blue": (5, 15), "yellow": (10, 3)}
    assert parse_robots("R15,5 G10,7 B5,15 Y10,3", "en") == old
    assert parse_robots("R15 5 G10 7 B5;15 Y10/3", "en") == old
    assert parse_robots("R15,5,G10,7", "en") == {"red": (15, 5), "green": (10, 7)}
    # an English letter that means one robot only is read by an Italian reader too, and an Italian one by an English
    assert parse_robots("Y10,3 K1,1 S2,2", "it") == {"yellow": (10, 3), "black": (1, 1), "silver": (2, 2)}
    assert parse_robots("V10,7 N1,1 A2,2", "en") == {"green": (10, 7), "black": (1, 1), "silver": (2, 2)}
    assert parse_moves("RN RE BS BW R↑ R→ B↓ B←", "en") == parse_moves("RN RE BS BO R↑ R→ B↓ B←", "it")


def test_the_longest_robot_name_wins_and_a_cell_may_follow_without_a_space():
    assert parse_robots("blu3,4", "it") == {"blue": (3, 4)}  # not "bl" at U3
    assert parse_robots("rossoH11 VA1", "it") == {"red": (10, 7), "green": (0, 0)}
    assert parse_robots("RF16VH11", "it") == {"red": (15, 5), "green": (10, 7)}


@pytest.mark.parametrize(
    ("text", "code", "value"),
    [
        ("X1,1", "robot_unknown", "X"),
        ("RF16 viola A1", "robot_unknown", "viola"),
        ("RQ3", "cell_unknown", "Q3"),
        ("R16,0", "cell_unknown", "16,0"),
        ("R", "robots_unreadable", "R"),
        ("R15 G10,7", "robots_unreadable", "R15"),
        ("RF16 ?", "robots_unreadable", "?"),
        ("  ", "robots_unreadable", ""),
        ("R1,1 R2,2", "robot_twice", ("R1,1", "R2,2")),
        ("R15,5 G10,7 B5,15 Y10,3", "robot_twice", ("G10,7", "Y10,3")),  # G is giallo in Italian, and so is Y
    ],
)
def test_robots_that_cannot_be_read_are_refused_naming_the_piece(text, code, value):
    with expect_refusal(code, value):
        parse_robots(text, "it")


def test_a_robot_given_twice_names_the_robot():
    with pytest.raises(NotationError) as caught:
        parse_robots("GH11 YA1", "it")
    assert caught.value.colour == "yellow"


@pytest.mark.parametrize(
    ("text", "code", "value"),
    [("RX", "moves_unreadable", "RX"), ("RN XN", "moves_unreadable", "XN"), ("RNE", "moves_unreadable", "RNE"),
     ("", "moves_unreadable", ""), ("RN " * 61, "moves_too_many", 61)],
)  # fmt: skip
def test_moves_that_cannot_be_read_are_refused_naming_the_piece(text, code, value):
    with expect_refusal(code, value):
        parse_moves(text, "en")


def test_a_target_is_its_cell_colour_and_symbol_in_either_language():
    blue_triangle = TargetText((2, 9), "blue", "triangle")
    assert parse_target("J3 blu triangolo", "it") == blue_triangle
    assert parse_target("2,9 blue triangle", "it") == blue_triangle  # the old form, in English words
    assert parse_target("(2, 9) blue triangle", "en") == blue_triangle
    assert parse_target("triangolo blu", "en") == TargetText(None, "blue", "triangle")
    assert parse_target("vortice", "it") == TargetText(None, VORTEX_COLOUR, "vortex")


@pytest.mark.parametrize(
    ("text", "code", "value"),
    [("J3 nero triangolo", "target_word_unknown", "nero"), ("J3 blu stella", "target_word_unknown", "stella"),
     ("J3 blu", "target_unreadable", "J3 blu"), ("J3 K3 blu triangolo", "target_unreadable", "J3 K3 blu triangolo"),
     ("2 blu triangolo", "target_unreadable", "2 blu triangolo"), ("Q3 blu triangolo", "cell_unknown", "Q3")],
)  # fmt: skip
def test_a_target_that_cannot_be_read_is_refused_naming_the_piece(text, code, value):
    with expect_refusal(code, value):
        parse_target(text, "it")


@given(st.dictionaries(st.sampled_from(ROBOT_COLOURS), cells, min_size=1), languages)
def test_robots_round_trip_in_each_language(robots, lang):
    assert parse_robots(format_robots(robots, lang), lang) == robots


@given(st.lists(st.tuples(st.sampled_from(ROBOT_COLOURS), st.sampled_from("NESW")), min_size=1, max_size=60),
       languages, st.booleans())  # fmt: skip
def test_moves_round_trip_in_each_language(moves, lang, arrows):
    assert parse_moves(format_moves(moves, lang, arrows=arrows), lang) == moves


@given(st.one_of(st.none(), cells), st.sampled_from([c for c in TARGET_COLOURS if c != VORTEX_COLOUR]),
       st.sampled_from([s for s in SYMBOLS if s != "vortex"]), languages)  # fmt: skip
def test_targets_round_trip_in_each_language(cell, colour, symbol, lang):
    target = TargetText(cell, colour, symbol)
    assert parse_target(format_target(target, lang), lang) == target
    vortex = TargetText(cell, VORTEX_COLOUR, "vortex")
    assert parse_target(format_target(vortex, lang), lang) == vortex


def test_italian_writes_west_as_o_and_english_as_w():
    assert format_moves([("yellow", "N"), ("red", "W")], "it") == "GN RO"
    assert format_moves([("yellow", "N"), ("red", "W")], "en") == "YN RW"


def test_an_unknown_language_is_a_programming_error():
    with pytest.raises(ValueError, match="language"):
        parse_robots("RA1", "fr")
