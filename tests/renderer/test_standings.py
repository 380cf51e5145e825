"""Standings image (BOT-IMG-1, BOT-STD-1, BOT-I18N-1): pages, Italian numbers, movement, text that fits."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from bot.present.images import image_words
from renderer import _style as st
from renderer import render_standings
from renderer.models import StandingRow, StandingsData
from renderer.standings import layout_standings
from tests.renderer.checks import close, dhash, hamming, open_png, overlapping, texts_outside
from tests.support.renderer_fixtures import sample_standings

DISCORD_LIMIT = 10 * 1024 * 1024
GOLDEN_DHASH = 0x67E4E4E4E4E4E4E4


@pytest.fixture(scope="module")
def field_250() -> StandingsData:
    return sample_standings(250)


@pytest.fixture(scope="module")
def pages_it(field_250: StandingsData) -> list[st.Canvas]:
    return layout_standings(field_250, words=image_words("it"))


def test_bot_img_1_250_players_split_into_phone_pages_each_far_below_the_discord_limit(field_250):
    pages = render_standings(field_250, words=image_words("it"))
    assert len(pages) == 10 <= 10  # 25 rows a page (renderer.pages); one message carries at most 10 files
    for png in pages:
        image = open_png(png)
        assert image.mode == "RGB" and image.width == 640 and image.height <= 3 * image.width
        assert len(png) < DISCORD_LIMIT / 5


def test_bot_img_1_no_glyph_leaves_the_image_and_no_labels_overlap_for_250_players(pages_it):
    total = 0
    for cv in pages_it:
        assert texts_outside(cv) == []
        assert overlapping(cv.texts) == []
        total += sum(1 for t in cv.texts if t.group == "name")
    assert total == 250


def test_bot_img_1_every_page_is_titled_with_tournament_round_date_and_page(pages_it):
    titles = [[t.text for t in cv.texts if t.group == "title"] for cv in pages_it]
    assert titles[0][0].startswith("3° Torneo FIRK")
    assert titles[0][1] == "Classifica dopo il turno 3 · 22 novembre 2026 · pagina 1/10"
    assert titles[9][1].endswith("pagina 10/10")


def test_bot_i18n_1_points_print_with_a_decimal_comma_in_italian_and_a_point_in_english():
    data = sample_standings(30)
    first = data.rows[0].points
    it_points = [t.text for t in layout_standings(data, words=image_words("it"))[0].texts if t.group == "points"]
    en_points = [t.text for t in layout_standings(data, words=image_words("en"))[0].texts if t.group == "points"]
    assert it_points[0] == f"{first:.1f}".replace(".", ",")
    assert en_points[0] == f"{first:.1f}"
    assert all("," in p for p in it_points) and not any("," in p for p in en_points)


def test_bot_std_1_movement_arrows_show_rises_falls_and_new_entries():
    rows = (
        StandingRow(1, "Anna", 31.8, 2, previous_rank=3),
        StandingRow(2, "Bruno", 14.2, 2, previous_rank=1),
        StandingRow(3, "Carla", 7, 2, previous_rank=3),
        StandingRow(4, "Dario", 3, 2),
    )
    cv = layout_standings(StandingsData("T", 2, "2026-11-22", rows), words=image_words("it"))[0]
    moves = [t.text for t in cv.texts if t.group == "move"]
    assert moves == ["2", "1", "nuovo"]  # Carla did not move: a dash, no text
    ys = {t.text: (t.box[1] + t.box[3]) // 2 for t in cv.texts if t.group == "name"}
    move_col = range(110, 140)
    assert any(close(cv.image.getpixel((x, ys["Anna"])), st.UP, 30) for x in move_col)
    assert any(close(cv.image.getpixel((x, ys["Bruno"])), st.DOWN, 30) for x in move_col)


def test_bot_std_1_first_round_standings_have_no_movement_column():
    rows = (StandingRow(1, "Anna", 12, 1, previous_rank=None),)
    cv = layout_standings(StandingsData("T", 1, "2026-11-22", rows), words=image_words("en"))[0]
    assert not [t for t in cv.texts if t.group == "move"]


def test_bot_std_1_team_presets_show_the_team_and_the_tiebreak_column():
    rows = (StandingRow(1, "Anna", 12, 1, club="Circolo", team="Squadra Azzurra", tiebreak=88),)
    data = StandingsData("T", 1, "2026-11-22", rows, has_teams=True)
    cv = layout_standings(data, words=image_words("it"))[0]
    texts = {t.text for t in cv.texts}
    assert "Squadra Azzurra" in texts and "Circolo" not in texts
    assert "GIOCATORE · SQUADRA" in texts and "SPAR." in texts and "88" in texts


def test_bot_img_1_golden_pixels_and_perceptual_hash_of_page_one(pages_it):
    image = pages_it[0].image
    assert close(image.getpixel((5, 5)), st.HEADER, 2)
    assert close(image.getpixel((5, 145)), st.ACCENT, 2)  # the accent rule under the (two-line) title band
    assert close(image.getpixel((47, 233)), (212, 160, 23), 12)  # the gold medal of rank 1
    assert hamming(dhash(image), GOLDEN_DHASH) <= 10


def test_bot_img_1_rows_per_page_is_honoured_and_validated():
    assert len(layout_standings(sample_standings(51), rows_per_page=25, words=image_words("it"))) == 3
    with pytest.raises(ValueError, match="rows_per_page"):
        render_standings(sample_standings(5), rows_per_page=0, words=image_words("it"))


def test_bot_img_1_an_empty_standings_still_renders_one_titled_page():
    data = dataclasses.replace(sample_standings(3), rows=())
    (png,) = render_standings(data, words=image_words("en"))
    assert open_png(png).size[0] == 640


@settings(max_examples=15, deadline=None)
@given(
    hs.lists(
        hs.tuples(
            hs.text(hs.sampled_from("AaBbČčŠšÜüÉéWwMm ·'-—…"), min_size=1, max_size=80),
            hs.none() | hs.text(hs.sampled_from("ClubĐđ Sant'Elpidio"), min_size=1, max_size=90),
            hs.floats(-999_999, 999_999, allow_nan=False),
            hs.none() | hs.integers(1, 9999),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_bot_img_1_any_names_clubs_and_numbers_stay_inside_their_cells(entries):
    rows = tuple(
        StandingRow(i + 1, name, points, 99, club=club, tiebreak=points / 3, previous_rank=prev)
        for i, (name, club, points, prev) in enumerate(entries)
    )
    data = StandingsData("W" * 120, 12, "2026-11-22", rows)
    for cv in layout_standings(data, words=image_words("it"), rows_per_page=7):
        assert texts_outside(cv) == []
        assert overlapping(cv.texts) == []


def test_bot_std_1_a_legend_line_says_how_ties_break_and_the_pt_column_only_with_table_point_tie_breaks():
    rows = (
        StandingRow(1, "Carla", 40, 2, tiebreak=None, previous_rank=2),
        StandingRow(2, "Nicola", 40, 2, tiebreak=None, previous_rank=1),
    )
    legend = "A pari punti decidono, nell'ordine: i punti tavolo della prima partita."
    data = StandingsData("Coppa", 2, "2026-11-24", rows, tiebreak_label="PT", legend=legend)
    (page,) = layout_standings(data, words=image_words("it"))
    assert [t.text for t in page.texts if t.group == "legend"] == [legend]
    assert "PT" not in {t.text for t in page.texts if t.group == "colhead"}  # no column that contradicts the order
    assert texts_outside(page) == [] and overlapping(page.texts) == []
    with_pt = dataclasses.replace(data, rows=tuple(dataclasses.replace(r, tiebreak=160.0) for r in rows))
    (page,) = layout_standings(with_pt, words=image_words("it"))
    assert "PT" in {t.text for t in page.texts if t.group == "colhead"}
    assert StandingsData.from_json(data.to_json()) == data
