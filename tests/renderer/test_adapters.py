"""The engine→renderer adapter the command line and the bot share (BOT-IMG-1, RR-MOVE-1): a replayed solution
becomes the drawn path move by move, each stop where the engine stopped the robot."""

from __future__ import annotations

import json
from pathlib import Path

from bot.present.images import image_words
from bot.rules.ricochet.board import Board
from bot.rules.ricochet.moves import replay
from renderer.adapters import move_stops, rr_board_data
from renderer.rr_board import layout_rr_board

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "rr" / "verify.json"


def test_rr_move_1_a_replayed_solution_is_drawn_as_its_moves_with_the_engine_s_stops():
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    board = Board.from_json(doc["board"])
    steps = replay(board, doc["robots"], doc["moves"])
    data = rr_board_data(board, doc["robots"], steps, active_target=(2, 9), title="Verify")
    assert len(data.path) == len(doc["moves"]) == 12
    assert [m.colour for m in data.path] == [c for c, _ in doc["moves"]]
    assert [m.stops[-1] for m in data.path] == [s.stop for s in steps]
    assert data.path[-1].stops[-1] == (2, 9) and data.active_target == (2, 9)
    assert {(t.row, t.col) for t in data.targets} == {(t.row, t.col) for t in board.targets}
    steps_drawn = [t.text for t in layout_rr_board(data, words=image_words("it")).texts if t.group == "step"]
    assert steps_drawn == [str(i) for i in range(1, 13)]


def test_a_straight_slide_has_one_stop_and_a_bent_one_stops_at_each_bend():
    assert move_stops([(5, 5), (5, 6), (5, 7)]) == ((5, 7),)
    assert move_stops([(5, 5), (5, 6), (4, 6), (3, 6)]) == ((5, 6), (3, 6))
    assert move_stops([(1, 1)]) == ((1, 1),)
