"""The board image and the ``/rr`` parser share one notation (BOT-IMG-1, BOT-I18N-1): the letters drawn
on the robots and the cells' names drawn along the edges, read off a rendered board in Italian and in English,
parse back to the position that was drawn."""

import dataclasses

import pytest

from bot.present.images import image_words
from bot.rules.ricochet.notation import ROBOT_LETTERS, parse_robots
from renderer import _style as st
from renderer.models import RRRobot
from renderer.rr_board import layout_rr_board
from tests.support.renderer_fixtures import sample_board


def _centre(item: st.TextItem) -> tuple[float, float]:
    left, top, right, bottom = item.box
    return ((left + right) / 2, (top + bottom) / 2)


def read_robots_off(cv: st.Canvas) -> str:
    """What a referee copies off the image: each robot's letter, then the column letter drawn above it and the row
    number drawn beside it (the nearest edge labels, by the recorded text boxes: no OCR)."""
    coords = [t for t in cv.texts if t.group == "coord"]
    columns = [(_centre(t)[0], t.text) for t in coords if t.text.isalpha()]
    rows = [(_centre(t)[1], t.text) for t in coords if t.text.isdigit()]
    typed = []
    for robot in (t for t in cv.texts if t.group == "robot"):
        x, y = _centre(robot)
        column = min(columns, key=lambda c: abs(c[0] - x))[1]
        row = min(rows, key=lambda r: abs(r[0] - y))[1]
        typed.append(f"{robot.text}{column}{row}")
    return " ".join(typed)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_bot_img_1_the_labels_drawn_on_the_board_parse_back_to_the_position_drawn(lang: str):
    data = sample_board(with_path=False)
    # all six robots (RR-COMP-1: black of the 2nd edition, silver of the 3rd/4th), one on row 16 and column P
    data = dataclasses.replace(data, robots=(*data.robots, RRRobot("black", 15, 15), RRRobot("silver", 0, 12)))
    cv = layout_rr_board(data, words=image_words(lang))
    typed = read_robots_off(cv)
    assert sorted(t.text for t in cv.texts if t.group == "robot") == sorted(ROBOT_LETTERS[lang].values())
    assert parse_robots(typed, lang) == {r.colour: (r.row, r.col) for r in data.robots}, typed


def test_bot_i18n_1_the_italian_board_s_g_is_the_yellow_robot_when_read_back():
    data = sample_board(with_path=False)
    yellow = next(r for r in data.robots if r.colour == "yellow")
    typed = read_robots_off(layout_rr_board(data, words=image_words("it")))
    g = next(piece for piece in typed.split() if piece.startswith("G"))
    assert parse_robots(g, "it") == {"yellow": (yellow.row, yellow.col)}
