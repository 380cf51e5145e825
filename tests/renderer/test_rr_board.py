"""Ricochet Robots board image (BOT-IMG-1, RR-COMP-1, RR-MOVE-1, RR-VAR-2)."""

import dataclasses
import itertools
import math

from bot.present.images import image_words
from renderer import _style as st
from renderer import render_rr_board
from renderer.models import RRDiagonal, RRMove
from renderer.rr_board import BLOCK, LANE, LINE, WALL, layout_rr_board
from tests.renderer.checks import close, dhash, hamming, open_png, overlapping, texts_outside
from tests.support.renderer_fixtures import sample_board

CELL, MARGIN, HEADER = 44, 42, 65  # margin and title band hold their texts at 26 px: 11 px at 340 px wide
GOLDEN_DHASH = 0x865A6B67735769E5  # 788×853: margins and labels sized for a phone


def centre(row: int, col: int, header: int = HEADER) -> tuple[int, int]:
    return (MARGIN + col * CELL + CELL // 2, MARGIN + header + row * CELL + CELL // 2)


def test_bot_img_1_board_size_mode_and_perceptual_hash():
    image = open_png(render_rr_board(sample_board(), words=image_words("it")))
    assert image.mode == "RGB" and image.size == (16 * CELL + 2 * MARGIN, 16 * CELL + 2 * MARGIN + HEADER)
    assert hamming(dhash(image), GOLDEN_DHASH) <= 10
    plain = open_png(render_rr_board(sample_board(with_path=False), words=image_words("it")))
    assert plain.size == (16 * CELL + 2 * MARGIN, 16 * CELL + 2 * MARGIN)  # no title band without title or path


def test_rr_comp_1_robots_are_drawn_in_their_colour_at_their_cell():
    data = sample_board()
    cv = layout_rr_board(data, words=image_words("it"))
    for robot in data.robots:
        x, y = centre(robot.row, robot.col)
        # between its letter (drawn at the smallest text's size, 26 px) and its rim: the robot's own colour
        assert close(cv.image.getpixel((x - 13, y + 2)), st.ROBOT_RGB[robot.colour], 12), robot
    letters = sorted(t.text for t in cv.texts if t.group == "robot")
    assert letters == ["B", "G", "R", "V"]  # Italian initials: rosso, verde, blu, giallo


def test_rr_move_1_walls_and_the_central_block_are_solid():
    data = sample_board(with_path=False)
    image = layout_rr_board(data, words=image_words("it")).image
    assert "E" in data.cell_walls[0][1]  # board A: a wall east of (0, 1)
    x, y = centre(0, 1, header=0)
    assert close(image.getpixel((x + CELL // 2, y)), WALL, 6)
    assert not close(image.getpixel((x + CELL // 2 + CELL, y)), WALL, 40)  # no wall east of (0, 2)
    bx, by = centre(7, 7, header=0)
    assert close(image.getpixel((bx - 15, by - 15)), BLOCK, 6)
    assert close(image.getpixel((3, 3)), st.PAPER, 2)


def test_bot_img_1_the_active_target_is_highlighted_and_repeated_in_the_centre():
    data = sample_board(with_path=False)
    image = layout_rr_board(data, words=image_words("it")).image
    row, col = data.active_target or (0, 0)
    x, y = centre(row, col, header=0)
    blue = st.ROBOT_RGB["blue"]
    assert close(image.getpixel((x - CELL // 2 - 1, y)), blue, 30)  # the ring around the active cell
    cx, cy = centre(7, 7, header=0)
    assert close(image.getpixel((cx + CELL // 2, cy + CELL // 2 + 4)), blue, 30)  # the token in the central block
    other = next(t for t in data.targets if (t.row, t.col) != data.active_target and t.colour == "red")
    ox, oy = centre(other.row, other.col, header=0)
    assert not close(image.getpixel((ox - CELL // 2 - 1, oy)), st.ROBOT_RGB["red"], 30)


def test_bot_img_1_the_solution_path_is_numbered_move_by_move():
    data = sample_board()
    cv = layout_rr_board(data, words=image_words("it"))
    steps = [t.text for t in cv.texts if t.group == "step"]
    assert steps == [str(i) for i in range(1, len(data.path) + 1)] and len(steps) == 12
    assert texts_outside(cv) == []
    assert overlapping([t for t in cv.texts if t.group == "step"]) == []
    # the first move (blue north from (5, 15) to (4, 15)... stop) is drawn in blue between start and stop
    first = data.path[0]
    assert first.colour == "blue"
    sx, sy = centre(*first.stops[-1])
    assert any(close(cv.image.getpixel((sx + dx, sy + dy)), st.ROBOT_RGB["blue"], 45)
               for dx in range(-12, 13) for dy in range(-12, 13))  # fmt: skip


def test_rr_var_2_diagonal_walls_are_drawn_in_their_colour_and_bent_moves_follow_them():
    base = sample_board(with_path=False)
    diag = RRDiagonal(4, 2, "green", "/")
    bent = RRMove("yellow", ((4, 3), (0, 3)))
    data = dataclasses.replace(base, diagonals=(diag,), path=(bent,), title=None)
    cv = layout_rr_board(data, words=image_words("it"))
    x, y = centre(4, 2)
    assert close(cv.image.getpixel((x, y)), st.ROBOT_RGB["green"], 20)
    plain = layout_rr_board(base, words=image_words("it")).image
    assert not close(plain.getpixel(centre(4, 2, header=0)), st.ROBOT_RGB["green"], 60)
    assert [t.text for t in cv.texts if t.group == "step"] == ["1"]


def test_bot_img_1_english_board_uses_english_robot_initials():
    cv = layout_rr_board(sample_board(), words=image_words("en"))
    assert sorted(t.text for t in cv.texts if t.group == "robot") == ["B", "G", "R", "Y"]
    assert "12 moves" in [t.text for t in cv.texts]


def test_bot_img_1_a_long_title_is_shrunk_or_wrapped_never_cut():
    title = "Campionato italiano Ricochet Robots 2026 — semifinale, posizione 17 (tavolo 3)"
    cv = layout_rr_board(dataclasses.replace(sample_board(), title=title), words=image_words("it"))
    (item,) = [t for t in cv.texts if t.group == "title" and t.text.startswith("Campionato")]
    assert item.text == title  # recorded whole: no ellipsis anywhere
    assert texts_outside(cv) == [] and overlapping([t for t in cv.texts if t.group == "title"]) == []


def test_bot_img_1_lanes_are_thinner_than_the_gap_between_robots_so_paths_never_cover_each_other():
    offsets = sorted(LANE.values())
    assert min(b - a for a, b in itertools.pairwise(offsets)) >= LINE  # distinct robots: distinct, separate lanes
    assert max(offsets) + LINE / 2 < 0.5  # and every lane stays inside its cell


def test_bot_img_1_the_target_stays_visible_under_the_end_of_the_path_and_each_stop_is_numbered():
    """The last move stops on the active target: its symbol is drawn above the path and no number covers it."""
    data = sample_board()
    cv = layout_rr_board(data, words=image_words("it"))
    target = next(t for t in data.targets if (t.row, t.col) == data.active_target)
    x, y = centre(target.row, target.col)
    assert close(cv.image.getpixel((x, y + 4)), st.ROBOT_RGB[target.colour], 40)  # the symbol, not the ring
    last = [t for t in cv.texts if t.group == "step"][-1]
    bx, by = (last.box[0] + last.box[2]) / 2, (last.box[1] + last.box[3]) / 2
    assert math.dist((bx, by), (x, y)) > 0.4 * CELL  # the 12's badge sits beside the target, not on it
