"""Issue 47 in the standings image: with discards each row shows its rounds in small columns under its line, the
discarded results struck through in a lighter grey, the total the counted sum; readable on a phone; without
discards the image is drawn as before (BOT-STD-1, BOT-IMG-1)."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from bot.present.images import image_words
from bot.present.standings import standings_image, standings_render_data, tie_break_legend
from bot.services.standings import StandingLine, StandingsView
from renderer import _style as st
from renderer import pages as pg
from renderer.models import RoundResult, StandingRow, StandingsData
from renderer.standings import COLHEAD_H, PAD, ROW_H, STRIKE, WIDTH, layout_standings, standings_pages
from tests.renderer.checks import close, open_png, overlapping, texts_outside

# each player's points evening by evening (None: absent) and the evenings discarded (the 2 worst, absences first)
EVENINGS: dict[str, tuple[list[float | None], set[int]]] = {
    "Anna Bellini": ([87, 92.5, 60, 75, 81, 40, 90, 88], {3, 6}),
    "Bruno Caruso": ([70, 65, 95, 30, 80, 85, 55, 77], {4, 7}),
    "Elena Ferraro": ([None, None, 90, 85, 70, 60, 80, 82], {1, 2}),  # a late entry: evenings 1 and 2 absent
    "Carla De Santis": ([50, 60, 70, 80, 90, 20, 65, 75], {1, 6}),
    "Dario Esposito": ([45, 55, 65, 35, 25, 75, 85, 95], {4, 5}),
    "Fabio Gallo": ([66, 44, 33.5, None, 22, None, 99, 11], {4, 6}),  # absent twice: both absences go
}


def championship(*, discards: int = 2, evenings: int = 8) -> StandingsView:
    """The club championship after ``evenings`` evenings, built by hand as the standings service returns it."""
    lines = []
    for rank, (name, (scores, dropped)) in enumerate(EVENINGS.items(), start=1):
        rounds = tuple((n, scores[n - 1], n not in dropped) for n in range(1, evenings + 1)) if discards else ()
        total = sum(p or 0 for n, p, kept in rounds if kept) if discards else sum(p or 0 for p in scores)
        games = sum(p is not None for p in scores[:evenings])
        club = None if rank == 2 else "RisiKo! Club Palermo"
        lines.append(StandingLine(rank, rank, None, name, club, None, float(total), games, float(total), 0.0,
                                  "active", previous_rank=7 - rank, rounds=rounds))  # fmt: skip
    return StandingsView(1, "Campionato Sociale", "club-championship", "risiko", evenings, tuple(lines), (), (), 0,
                         tie_breakers=("table_points_total",), last_round=evenings, discards=discards)  # fmt: skip


@pytest.fixture(scope="module")
def view() -> StandingsView:
    return championship()


@pytest.fixture(scope="module")
def pages(view: StandingsView) -> list[st.Canvas]:
    return layout_standings(standings_render_data(view, date="2026-11-24", locale="it"), words=image_words("it"))


def test_issue_47_each_row_carries_its_rounds_and_the_legend_says_what_struck_through_means(view):
    data = standings_render_data(view, date="2026-11-24", locale="it")
    anna = data.rows[0]
    assert anna.points == 513.5  # the total drawn is the counted sum
    assert anna.rounds[:3] == (RoundResult(1, 87, True), RoundResult(2, 92.5, True), RoundResult(3, 60, False))
    assert data.rows[2].rounds[0] == RoundResult(1, None, False)  # an absence, discarded
    assert data.legend is not None and data.legend.startswith(tie_break_legend(view, "it"))
    assert "I risultati barrati sono gli scarti di ciascuno: i 2 peggiori" in data.legend
    english = standings_render_data(view, date="2026-11-24", locale="en").legend or ""
    assert "Struck-through results are each player's discards: the worst 2, absences first" in english
    one = standings_render_data(championship(discards=1), date="2026-11-24", locale="it").legend or ""
    assert "Il risultato barrato è lo scarto di ciascuno" in one
    # the render document keeps the rounds (``steward render`` reads it back)
    assert StandingsData.from_json(data.to_json()) == data


def test_issue_47_discarded_results_are_drawn_struck_through_in_a_lighter_colour(pages):
    (page,) = pages
    struck = [t for t in page.texts if t.group == "round_discarded"]
    counted = [t for t in page.texts if t.group == "round"]
    assert len(struck) == 2 * len(EVENINGS) and len(counted) == 6 * len(EVENINGS)
    # in reading order: Anna's 60 (evening 3) and 40 (evening 6), Bruno's 30 and 55, Elena's two absences …
    assert [t.text for t in struck[:6]] == ["60", "40", "30", "55", "ass", "ass"]
    assert "92,5" in {t.text for t in counted}  # decimal comma, as many decimals as the result has
    image = page.image.convert("RGB")

    def strike_share(box: tuple[int, int, int, int]) -> float:
        mid = (box[1] + box[3]) // 2
        xs = range(box[0], box[2])
        hit = [any(close(image.getpixel((x, y)), STRIKE, 12) for y in (mid - 1, mid, mid + 1)) for x in xs]
        return sum(hit) / len(hit)

    assert all(strike_share(t.box) == 1.0 for t in struck)  # a line right through every discarded result
    assert all(strike_share(t.box) < 0.6 for t in counted if t.text != "ass")  # and through no counted one

    def darkest(box: tuple[int, int, int, int]) -> int:
        mid = (box[1] + box[3]) // 2
        return min(sum(image.getpixel((x, y))[:3]) for x in range(box[0], box[2]) for y in range(box[1], box[3])
                   if abs(y - mid) > 2)  # fmt: skip

    assert min(darkest(t.box) for t in struck) > max(darkest(t.box) for t in counted) + 150  # lighter digits


def test_issue_47_round_columns_have_their_labels_and_stay_apart_inside_the_image(pages):
    (page,) = pages
    heads = [t.text for t in page.texts if t.group == "colhead"]
    assert [f"T{n}" for n in range(1, 9)] == [h for h in heads if h.startswith("T") and h[1:].isdigit()]
    assert not texts_outside(page)
    assert not overlapping(page.texts)
    # the eight cells of a row sit on one strip, left to right, under the row's line
    anna = [t for t in page.texts if t.group in ("round", "round_discarded")][:8]
    assert len({t.box[1] // 10 for t in anna}) == 1 and [t.box[0] for t in anna] == sorted(t.box[0] for t in anna)


def test_issue_47_the_image_is_readable_on_a_phone(pages):
    for page in pages:
        assert pg.at_phone_width(page.smallest_text(), page.image.width) >= pg.PHONE_MIN_TEXT
        assert page.image.height <= pg.page_height_budget(page.image.width)
    # shown 340 px wide: the struck line is still there (it is drawn 2 px thick at full size)
    (page,) = pages
    phone = page.image.resize((pg.PHONE_WIDTH, round(page.image.height * pg.PHONE_WIDTH / WIDTH)),
                              Image.Resampling.LANCZOS)  # fmt: skip
    box = next(t.box for t in page.texts if t.group == "round_discarded")
    scale = pg.PHONE_WIDTH / WIDTH
    mid = (box[1] + box[3]) / 2 * scale
    xs = range(round(box[0] * scale), round(box[2] * scale))
    line = [min(sum(phone.getpixel((x, y))[:3]) for y in (int(mid) - 1, int(mid), int(mid) + 1)) for x in xs]
    assert max(line) < sum(st.PAPER) - 120  # a grey line right across the result, not washed out


def test_issue_47_twelve_evenings_wrap_onto_two_strips_and_pages_follow_the_taller_rows():
    extra = {n: ([*s, 70, 71, 72, 73], d) for n, (s, d) in EVENINGS.items()}
    rows = []
    for rank, (name, (scores, dropped)) in enumerate(extra.items(), start=1):
        results = tuple(RoundResult(n, scores[n - 1], n not in dropped) for n in range(1, 13))
        rows.append(StandingRow(rank, name, 500.5 - rank, 12, club="Ludica Catania", rounds=results))
    legend = "A pari punti il posto è condiviso."
    data = StandingsData("Campionato", 12, "2026-11-24", tuple(rows * 5), legend=legend)
    words = image_words("it")
    canvases = layout_standings(data, words=words)
    assert len(canvases) == len(standings_pages(data, words=words)) > 1
    first = canvases[0]
    labels = {t.text: t.box for t in first.texts if t.group == "colhead"}
    assert labels["T7"][1] > labels["T1"][3] and abs(labels["T7"][0] - labels["T1"][0]) <= 2  # T7 under T1
    for cv in canvases:
        assert not texts_outside(cv) and not overlapping(cv.texts)
        assert cv.image.height <= pg.page_height_budget(cv.image.width)
        assert pg.at_phone_width(cv.smallest_text(), cv.image.width) >= pg.PHONE_MIN_TEXT


def test_issue_47_big_totals_widen_their_column_instead_of_being_cut():
    data = standings_render_data(championship(), date="2026-11-24", locale="it")
    (page,) = layout_standings(data, words=image_words("it"))
    assert "513,5" in {t.text for t in page.texts if t.group == "points"}
    assert "…" not in "".join(t.text for t in page.texts if t.group in ("points", "tiebreak"))


async def test_issue_47_the_png_pages_render_and_decode(view):
    image = await standings_image(view, date="2026-11-24", locale="en")
    assert image.total_pages == len(image.pages) == 1
    png = open_png(image.pages[0])
    assert png.width == WIDTH and png.height <= pg.page_height_budget(WIDTH)
    Image.open(io.BytesIO(image.pages[0])).verify()


def test_issue_47_without_discards_the_rows_carry_no_rounds_and_the_image_is_laid_out_as_before():
    view = championship(discards=0)
    data = standings_render_data(view, date="2026-11-24", locale="it")
    assert all(row.rounds == () for row in data.rows) and data.legend == tie_break_legend(view, "it")
    assert "rounds" not in data.to_json()["rows"][0]
    (page,) = layout_standings(data, words=image_words("it"))
    assert not [t for t in page.texts if t.group.startswith("round")]
    header = st.header_height(f"x · {image_words('it').date('2026-11-24')}", WIDTH, PAD)
    footer = page.image.height - (header + 8 + COLHEAD_H + ROW_H * len(EVENINGS) + PAD)
    assert 22 <= footer <= 22 + 40 + 28 * 2  # the rows are as tall as ever; only the legend follows them
    # the same rows with rounds are taller, by the strip
    with_rounds = standings_render_data(championship(), date="2026-11-24", locale="it")
    (taller,) = layout_standings(dataclasses.replace(with_rounds, legend=data.legend), words=image_words("it"))
    assert taller.image.height > page.image.height
