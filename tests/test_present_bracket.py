"""The bracket's data from the rounds and their reports (TOUR-SF-1, TOUR-FIN-1): the demo's final phase, drawn
through the adapter the bot shares (``bot.present.bracket``), marks each semifinal's winner and shows the
finalists' table points once the final is reported."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import bot.demo as demo
from bot.present.images import image_words
from renderer.bracket import layout_bracket
from renderer.models import BracketData, Words


def test_tour_fin_1_the_demo_bracket_marks_winners_and_shows_the_final_s_table_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    drawn: list[BracketData] = []
    original = demo.render_bracket_pages

    def keep(data: BracketData, *, words: Words) -> list[bytes]:
        drawn.append(data)
        return original(data, words=words)

    monkeypatch.setattr(demo, "render_bracket_pages", keep)
    assert demo.run_demo(output_dir=str(tmp_path), locale="it", out=io.StringIO()) == 0
    (data,) = drawn
    assert all(table.winner is not None for table in data.semifinals)
    final = data.final
    assert final.winner is not None
    points = [p.table_points for p in final.players]
    assert all(v is not None for v in points)
    assert final.players[final.winner].table_points == max(v for v in points if v is not None)
    assert len([t for t in layout_bracket(data, words=image_words("it")).texts if t.group == "points"]) == sum(
        len(t.players) for t in (*data.semifinals, final)
    )
