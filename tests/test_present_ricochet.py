"""How ``/rr`` reads and answers in each language (BOT-I18N-1): every refusal of the notation has its
message in both catalogues naming the piece and what is accepted, and the examples the commands show parse in the
language they are shown in."""

import pytest

from bot.errors import InvalidInput
from bot.i18n import catalogue, render_error
from bot.present import ricochet as present
from bot.rules.ricochet import notation

REFUSED = {  # one input per refusal of the notation
    "robots_unreadable": (notation.parse_robots, "RF16 GH"),
    "robot_unknown": (notation.parse_robots, "viola A1"),
    "robot_twice": (notation.parse_robots, "RA1 rosso B2"),
    "cell_unknown": (notation.parse_robots, "RQ3"),
    "moves_unreadable": (notation.parse_moves, "RN XX"),
    "moves_too_many": (notation.parse_moves, "RN " * 61),
    "target_unreadable": (notation.parse_target, "J3 blu"),
    "target_word_unknown": (notation.parse_target, "J3 blu stella"),
}


def test_every_refusal_of_the_notation_is_exercised():
    assert set(REFUSED) == set(notation.ERROR_CODES)


@pytest.mark.parametrize("locale", ["it", "en"])
@pytest.mark.parametrize("code", notation.ERROR_CODES)
def test_bot_i18n_1_every_refusal_reads_in_both_languages_with_all_its_words_filled(code: str, locale: str):
    parse, text = REFUSED[code]
    with pytest.raises(InvalidInput) as caught:
        present.read(parse, text, locale)
    assert caught.value.key == f"error.adjudicator.rr_{code}" and caught.value.key in catalogue(locale)
    message = render_error(caught.value.key, caught.value.params, locale)
    assert "{" not in message and message != caught.value.key, message


def test_a_refusal_names_the_piece_and_the_reader_s_letters():
    with pytest.raises(InvalidInput) as it:
        present.read(notation.parse_moves, "RN XX", "it")
    text = render_error(it.value.key, it.value.params, "it")
    assert text.startswith(("«XX» non è una mossa", "“XX” non è una mossa")) and "es. RN VE BS GO o R↑ V→ B↓ G←" in text
    assert (
        "Robot: R rosso, V verde, B blu, G giallo, N nero, A argento; direzioni: N E S O · nord est sud ovest." in text
    )
    with pytest.raises(InvalidInput) as en:  # V (verde) is read by an English reader too: green, like G
        present.read(notation.parse_robots, "GH11 VA1", "en")
    assert render_error(en.value.key, en.value.params, "en").startswith(
        "The green robot is given twice: “GH11” and “VA1”. Robots: R red, G green, B blue, Y yellow, K black, S silver."
    )


@pytest.mark.parametrize("locale", ["it", "en"])
@pytest.mark.parametrize("command", ["rr solve", "rr verify"])
def test_bot_i18n_1_the_examples_in_the_commands_descriptions_read_in_their_language(command: str, locale: str):
    """The descriptions show the letters of the reader's board: they parse as the same position in both languages."""
    robots = catalogue(locale)[f"cmd.{command}.opt.robots.description"].split(":")[0]
    assert notation.parse_robots(robots, locale) == dict(present.EXAMPLE_ROBOTS)
    target = catalogue(locale)[f"cmd.{command}.opt.target.description"].split(" (")[0]
    assert notation.parse_target(target, locale) == present.EXAMPLE_TARGET
    if command == "rr verify":
        moves = catalogue(locale)[f"cmd.{command}.opt.moves.description"]
        typed, arrows = moves.split(" oppure " if locale == "it" else " or ")
        assert (
            notation.parse_moves(typed, locale) == notation.parse_moves(arrows, locale) == list(present.EXAMPLE_MOVES)
        )
