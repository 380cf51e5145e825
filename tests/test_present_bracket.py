"""The bracket's data from the rounds and their reports (TOUR-SF-1, TOUR-FIN-1): the demo's final phase, drawn
through the adapter the bot shares (``bot.present.bracket``), marks each semifinal's winner and shows the
finalists' table points once the final is reported."""

from __future__ import annotations

import io

import pytest

import bot.demo as demo
from bot.present.images import image_words
from renderer import _style as st
from renderer.bracket import bracket_blocks, layout_bracket, layout_bracket_pages, legend_items
from renderer.models import BracketData, Words
from tests.support.renderer_fixtures import sample_bracket


@pytest.fixture(scope="module")
def demo_bracket(tmp_path_factory: pytest.TempPathFactory) -> BracketData:
    """The bracket the demo draws after its final (through ``bot.present.bracket``, as the bot does)."""
    drawn: list[BracketData] = []
    original = demo.render_bracket_pages

    def keep(data: BracketData, *, words: Words) -> list[bytes]:
        drawn.append(data)
        return original(data, words=words)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(demo, "render_bracket_pages", keep)
        assert demo.run_demo(output_dir=str(tmp_path_factory.mktemp("demo")), locale="it", out=io.StringIO()) == 0
    (data,) = drawn
    return data


def test_tour_fin_1_the_demo_bracket_marks_winners_and_shows_the_final_s_table_points(demo_bracket: BracketData):
    data = demo_bracket
    assert all(table.winner is not None for table in data.semifinals)
    final = data.final
    assert final.winner is not None
    points = [p.table_points for p in final.players]
    assert all(v is not None for v in points)
    assert final.players[final.winner].table_points == max(v for v in points if v is not None)
    assert len([t for t in layout_bracket(data, words=image_words("it")).texts if t.group == "points"]) == sum(
        len(t.players) for t in (*data.semifinals, final)
    )


def numbers_by_row(cv: st.Canvas, card: str) -> dict[str, tuple[str, str]]:
    """In the card titled ``card``: each player's name → (what the number beside it is, its text): ``seed`` (a
    circle) or ``place`` (a played final's badge); a row with none is absent."""
    titles = sorted((t.box[1], t.text) for t in cv.texts if t.group == "card")
    top = next(y for y, text in titles if text == card)
    bottom = min((y for y, _ in titles if y > top + 30), default=cv.image.height)  # the next card's head
    inside = [t for t in cv.texts if top < t.box[1] < bottom]
    out = {}
    for number in (t for t in inside if t.group in ("seed", "place")):
        middle = (number.box[1] + number.box[3]) / 2
        row = [t for t in inside if t.group == "name" and abs((t.box[1] + t.box[3]) / 2 - middle) < 20]
        out[row[0].text] = (number.group, number.text)
    return out


def test_issue_44_the_final_s_ranks_are_its_places_no_1_beside_who_lost_it(demo_bracket: BracketData):
    """Issue 44: a "1" stood beside the player who lost the final — their seed (first in the qualifying standings)
    drawn like a place. The final's players now carry their places from its report, and once the final is played
    its card shows those places (the winner's 1 alone), never the seeds; the seeds stay in the semifinals."""
    final = demo_bracket.final
    assert final.winner is not None
    places = [p.place for p in final.players]
    assert sorted(places) == list(range(1, len(final.players) + 1)), places  # type: ignore[type-var]
    assert final.players[final.winner].place == 1
    cv = layout_bracket(demo_bracket, words=image_words("it"))
    shown = numbers_by_row(cv, "Finale")
    assert shown == {p.name: ("place", str(p.place)) for p in final.players}
    ones = [name for name, (_, text) in shown.items() if text == "1"]
    assert ones == [final.players[final.winner].name]
    semi = numbers_by_row(cv, "Semifinale 1")
    assert semi and {kind for kind, _ in semi.values()} == {"seed"}


def test_issue_44_a_played_final_without_places_shows_the_winner_s_1_alone():
    """A bracket document that gives the final's winner but no places (``steward render bracket``): the top seed,
    who reached the final straight and lost it, gets no "1" there — only the winner's badge is drawn."""
    data = sample_bracket(direct=True)  # the direct finalist is seed 1; the final's winner is another player
    assert data.final.winner is not None and data.final.players[0].seed == 1 and data.final.winner != 0
    shown = numbers_by_row(layout_bracket(data, words=image_words("it")), "Finale")
    assert shown == {data.final.players[data.final.winner].name: ("place", "1")}


@pytest.mark.parametrize(
    ("lang", "seed", "points", "place"),
    [
        ("it", "= posto nella classifica di qualificazione", "= punti tavolo", "= posto in finale"),
        ("en", "= place in the qualifying standings", "= table points", "= place in the final"),
    ],
)
def test_issue_44_the_bracket_has_a_legend_for_its_numbers(
    demo_bracket: BracketData, lang: str, seed: str, points: str, place: str
):
    """Issue 44: the bracket had no legend. Under the cards, in the image's language: the circled number (the seed:
    the place in the qualifying standings), the number at the right (the table points) and, once the final is
    played, its places' badge — each line only when the image shows that number."""
    words = image_words(lang)
    legend = [t.text for t in layout_bracket(demo_bracket, words=words).texts if t.group == "legend"]
    assert legend == [seed, points, place]
    assert legend_items(bracket_blocks(demo_bracket, words)) == ["seed", "points", "place"]
    unplayed = sample_bracket(direct=True, played=False)  # the bracket posted with the final's announcement
    drawn = layout_bracket(unplayed, words=words)
    assert [t.text for t in drawn.texts if t.group == "legend"] == [seed]
    assert {kind for kind, _ in numbers_by_row(drawn, words.label("final")).values()} == {"seed"}
    samples = [t.text for t in drawn.texts if t.group == "legend-sample"]
    assert samples == ["7"]  # a sample circle as the cards draw it, then its meaning
    for page in layout_bracket_pages(demo_bracket, words=words):  # every page of a long bracket explains itself
        assert [t.text for t in page.texts if t.group == "legend"]
