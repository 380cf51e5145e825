"""What the organizer reads about a draw's optimality (issue 30, TOUR-R2-1): exactly what was proven, in both
languages, in the preview's text and on the table image's badge."""

from __future__ import annotations

import dataclasses

import pytest

from bot.db.documents import DrawDocument, EngineReport
from bot.present.images import image_words
from bot.present.rounds import optimality_line
from bot.services.rounds.views import report_view
from renderer.tables import layout_tables
from tests.support.renderer_fixtures import sample_tables


def _view(optimality: str, *, values: dict[str, int], bound: dict[str, int], nodes: int = 0, current=None):
    engine = EngineReport(
        kind="round3",
        criteria_order=tuple(values),
        criteria=values,
        lower_bound=bound,
        optimality=optimality,
        extra={"search_nodes": nodes},
    )
    return report_view(DrawDocument(kind="round3", engine=engine, current=current or {}), seed=7)


AT_BOUND = {"five_repeat": 0, "club_pairs": 2}
ABOVE = {"five_repeat": 0, "club_pairs": 3}


@pytest.mark.parametrize(
    ("optimality", "values", "nodes", "proof", "en", "it"),
    [
        ("bound_met", AT_BOUND, 0, "bound", "every criterion is at its lowest possible",
         "ogni criterio è al suo minimo possibile"),
        ("proven_optimal_by_search", ABOVE, 812, "search", "an exhaustive search found no better draw",
         "una ricerca completa non ha trovato"),
        ("optimal_for_cinquisti", ABOVE, 812, "cinquisti", "Optimal for these cinquisti",
         "Sorteggio migliore possibile per questi cinquisti"),
        ("not_proven", ABOVE, 21, "", "the search stopped after 21 steps",
         "si è fermata dopo 21 combinazioni esaminate"),
        ("not_proven", ABOVE, 1, "", "the search stopped after 1 step.", "si è fermata dopo 1 combinazione esaminata."),
        ("not_proven", ABOVE, 0, "", "Not proven optimal: the best draw found.",
         "Miglior sorteggio trovato, non verificato come migliore possibile."),
    ],
)  # fmt: skip
def test_tour_r2_1_the_preview_says_what_the_draw_proved(optimality, values, nodes, proof, en, it) -> None:
    view = _view(optimality, values=values, bound=AT_BOUND, nodes=nodes)
    assert view.proof == proof and view.provably_optimal == bool(proof)
    assert en in optimality_line("en", view)
    assert it in optimality_line("it", view)


def test_tour_r2_1_a_hand_change_voids_a_search_proof_but_not_the_bound() -> None:
    """A proof by search holds for the drawn tables only: after a swap the preview no longer claims it."""
    changed = _view("optimal_for_cinquisti", values=ABOVE, bound=AT_BOUND, current={"five_repeat": 0, "club_pairs": 4})
    assert changed.proof == "" and not changed.provably_optimal
    back_at_bound = _view("optimal_for_cinquisti", values=ABOVE, bound=AT_BOUND, current=dict(AT_BOUND))
    assert back_at_bound.proof == "bound"


def test_bot_img_1_the_table_badge_says_optimal_for_these_cinquisti() -> None:
    data = dataclasses.replace(sample_tables(18), optimal=True, optimal_for_cinquisti=True)
    it = {t.text for t in layout_tables(data, words=image_words("it")).texts}
    en = {t.text for t in layout_tables(data, words=image_words("en")).texts}
    assert "Migliore possibile per questi cinquisti" in it and "Sorteggio migliore possibile, verificato" not in it
    assert "Optimal for this 5-seat draw" in en  # issue 44: cinquisti explained in English images
    plain = {t.text for t in layout_tables(dataclasses.replace(data, optimal_for_cinquisti=False),
                                           words=image_words("en")).texts}  # fmt: skip
    assert "Draw proven optimal" in plain
