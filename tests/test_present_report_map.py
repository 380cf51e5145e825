"""The map under a situation report (BOT-IMG-1): each player's table points, objective and what scored, as the
report's text says them, drawn in the map's legend (``bot.present.report_map``)."""

from __future__ import annotations

from bot.db.documents import TableSituation
from bot.present.images import image_words
from bot.present.report_map import map_notes, report_map_data
from bot.services.reports import MapScore, ReportView, map_scores
from renderer.risiko_map import layout_risiko_map_pages


def _view(scores: tuple[MapScore, ...]) -> ReportView:
    return ReportView(
        table_id=1, tournament_name="Coppa", game="risiko", preset="risiko-firk-1", round_number=2, table_number=3,
        seats=(), kind="situation", reported_by=None, countersigned_by=None, locked=False,
        map_owners=(("Anna", (("Alaska", 3), ("Alberta", 2))), ("Bruno", (("Cina", 4),))),
        map_scores=scores,
    )  # fmt: skip


def test_bot_img_1_the_stored_explanation_becomes_each_player_s_score():
    stored = TableSituation("situation", {"situation": {}, "explanation": [
        {"name": "Anna", "table_points": 27, "explanation": {"strip": ["Alaska", "Alberta"], "strip_points": 5,
         "continents": [{"continent": "Oceania", "points": 2}], "achieved_objective": True,
         "objective_source": "explicit"}},
        {"name": "Bruno", "table_points": 4, "explanation": {"strip": [], "strip_points": 0, "continents": [],
         "achieved_objective": False, "objective_source": None}},
    ]})  # fmt: skip
    anna, bruno = map_scores(stored)
    assert anna == MapScore("Anna", 27.0, True, ("Alaska", "Alberta"), 5, (("Oceania", 2),))
    assert bruno == MapScore("Bruno", 4.0, None)  # no objective at this table: nothing said about it


def test_bot_img_1_the_map_legend_says_points_objective_strip_and_continents_in_the_server_s_language():
    anna = MapScore("Anna", 27.5, True, ("Alaska", "Alberta"), 5, (("Oceania", 2),))
    bruno = MapScore("Bruno", 4.0, False)
    assert map_notes(anna, "it") == ("Punti tavolo: 27,5", "Obiettivo raggiunto",
                                     "Striscia doppia (+5): Alaska – Alberta", "Continenti: Oceania +2")  # fmt: skip
    assert map_notes(bruno, "en") == ("Table points: 4", "Objective not achieved")
    data = report_map_data(_view((anna, bruno)), "it")
    assert [p.notes for p in data.players] == [map_notes(anna, "it"), map_notes(bruno, "it")]
    assert data.doubled_strip == ("Alaska", "Alberta") and data.title == "Coppa — turno 2, tavolo 3"
    pages = layout_risiko_map_pages(data, words=image_words("it"))
    assert len(pages) == 3
    for cv in pages:  # every page's legend carries the scores
        legend = [t.text for t in cv.texts if t.group == "legend"]
        assert "Punti tavolo: 27,5" in legend and "Obiettivo non raggiunto" in legend
        assert "Continenti: Oceania +2" in legend
