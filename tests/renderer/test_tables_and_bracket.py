"""Table cards (BOT-TAB-1) and the final-phase bracket (TOUR-SF-1, TOUR-FIN-1) — BOT-IMG-1."""

import dataclasses

from bot.present.images import image_words
from renderer import _style as st
from renderer import render_bracket, render_tables, render_tables_pages
from renderer.bracket import REPLACEMENT, WIN, layout_bracket
from renderer.tables import CARD_COLOURS, layout_tables
from tests.renderer.checks import close, dhash, hamming, open_png, overlapping, texts_outside
from tests.support.renderer_fixtures import sample_bracket, sample_tables

GOLDEN_TABLES_DHASH = 0xE0C0C0C0C1C0C1E0
GOLDEN_BRACKET_DHASH = 0xCCE0A2C2C28282C4


def test_bot_tab_1_one_card_per_table_with_seats_clubs_seed_and_optimality():
    data = sample_tables(18)
    cv = layout_tables(data, words=image_words("it"))
    texts = [t.text for t in cv.texts]
    assert [t for t in texts if t.startswith("Tavolo ")] == ["Tavolo 1", "Tavolo 2", "Tavolo 3", "Tavolo 4"]
    assert texts.count("5 giocatori") == 2 and texts.count("4 giocatori") == 2  # TOUR-SIZE-1 sizes shown
    names = {t.text for t in cv.texts if t.group == "name"}
    assert names == {s.name for table in data.tables for s in table.seats}
    assert "4242" in texts and "Sorteggio migliore possibile, verificato" in texts
    en = {t.text for t in layout_tables(dataclasses.replace(data, optimal=False), words=image_words("en")).texts}
    assert "Optimum not proven" in en and "Draw code:" in en


def test_bot_img_1_table_cards_golden_pixels_size_and_hash():
    png = render_tables(sample_tables(18), words=image_words("it"))
    image = open_png(png)
    assert image.mode == "RGB" and image.size == (640, 2002)  # one card across (phone first), all four tables
    assert close(image.getpixel((5, 5)), st.HEADER, 2)
    assert close(image.getpixel((40, 150)), CARD_COLOURS[0], 2)  # header strip of table 1's card
    assert close(image.getpixel((40, 430)), st.CARD, 2)  # card body
    assert hamming(dhash(image), GOLDEN_TABLES_DHASH) <= 10


def test_bot_img_1_table_cards_for_250_players_fit_and_stay_under_the_attachment_limit():
    data = sample_tables(250)
    cv = layout_tables(data, words=image_words("it"))
    assert sum(1 for t in cv.texts if t.group == "name") == 250
    assert texts_outside(cv) == [] and overlapping(cv.texts) == []
    assert len(st.png_bytes(cv.image)) < 10 * 1024 * 1024 / 3


def test_bot_tab_1_players_of_the_same_club_at_a_table_are_flagged():
    data = sample_tables(18)
    cv = layout_tables(data, words=image_words("it"))
    clubs = [t for t in cv.texts if t.group == "club"]
    flagged = [t for t in clubs if _has_colour(cv, t.box, st.DOWN)]
    shared = sum(1 for t in data.tables for s in t.seats if [x.club for x in t.seats].count(s.club) > 1)
    assert 0 < len(flagged) == shared < len(clubs)


def test_semifinal_and_final_cards_are_titled_by_the_phase_not_by_the_round_number():
    """TOUR-SF-1, TOUR-FIN-1: "Semifinale 1…3" and "Finale", never "Turno 3" / "Turno 4"."""
    semi = dataclasses.replace(sample_tables(12), round=3, kind="semifinal")
    texts = [t.text for t in layout_tables(semi, words=image_words("it")).texts]
    assert [t for t in texts if t.startswith("Semifinale ")] == ["Semifinale 1", "Semifinale 2", "Semifinale 3"]
    assert not any("Turno" in t or t.startswith("Tavolo ") for t in texts)
    final = dataclasses.replace(sample_tables(5), round=4, kind="final")
    cv = layout_tables(final, words=image_words("en"))
    titles = [t for t in cv.texts if t.group == "card" and not t.text[0].isdigit()]
    assert titles[0].text == "Final" and any("Final ·" in t.text for t in cv.texts if t.group == "title")


def test_the_final_s_single_card_spans_the_image_instead_of_half_of_it():
    final = dataclasses.replace(sample_tables(5), kind="final")
    cv = layout_tables(final, words=image_words("it"))
    (head,) = [t for t in cv.texts if t.text == "Finale"]
    counter = next(t for t in cv.texts if t.text == "5 giocatori")
    assert counter.box[2] > 0.9 * cv.image.width  # the card's right edge is near the image's
    assert texts_outside(cv) == [] and overlapping(cv.texts) == []
    assert head.box[0] < 100


def test_bot_tab_1_the_same_club_highlight_has_a_legend_and_only_when_it_is_used():
    shared = layout_tables(sample_tables(18), words=image_words("it"))
    legend = [t.text for t in shared.texts if t.group == "legend"]
    assert legend == ["Club", "= stesso club allo stesso tavolo"]
    alone = dataclasses.replace(
        sample_tables(8),
        tables=tuple(
            dataclasses.replace(
                t, seats=tuple(dataclasses.replace(s, club=f"C{i}-{t.number}") for i, s in enumerate(t.seats))
            )
            for t in sample_tables(8).tables
        ),
    )
    assert not [t for t in layout_tables(alone, words=image_words("en")).texts if t.group == "legend"]


def _has_colour(cv: st.Canvas, box: tuple[int, int, int, int], colour: st.Colour) -> bool:
    raw = cv.image.crop(box).tobytes()
    return any(close(tuple(raw[i : i + 3]), colour, 40) for i in range(0, len(raw), 3))


def test_tour_fin_1_bracket_marks_the_declined_winner_and_the_replacement():
    data = sample_bracket()
    cv = layout_bracket(data, words=image_words("it"))
    notes = [t.text for t in cv.texts if t.group == "note"]
    declined = next(p for t in data.semifinals for p in t.players if p.declined)
    assert "rinuncia" in notes
    assert f"↺ sostituisce {declined.name}" in notes
    name_box = next(t.box for t in cv.texts if t.text == declined.name)
    mid = (name_box[1] + name_box[3]) // 2
    assert any(close(cv.image.getpixel((x, y)), REPLACEMENT, 30) for x in range(name_box[0], name_box[2])
               for y in (mid - 1, mid, mid + 1))  # the strike-through line  # fmt: skip
    assert texts_outside(cv) == [] and overlapping(cv.texts) == []


def test_tour_fin_1_the_champion_is_named_and_the_final_winner_row_is_gold():
    data = sample_bracket()
    cv = layout_bracket(data, words=image_words("en"))
    winner = data.final.players[data.final.winner or 0].name
    champion = [t.text for t in cv.texts if t.group == "champion"]
    assert champion == ["CHAMPION", winner]
    final_rows = [t for t in cv.texts if t.text == winner and t.group == "name"]
    right_most = max(final_rows, key=lambda t: t.box[0])
    y = (right_most.box[1] + right_most.box[3]) // 2
    assert close(cv.image.getpixel((right_most.box[0] - 56 + 3, y)), WIN, 12)


def test_tour_sf_1_direct_finalist_and_unplayed_final_render():
    data = sample_bracket(direct=True, played=False)
    cv = layout_bracket(data, words=image_words("it"))
    texts = [t.text for t in cv.texts]
    assert "Accesso diretto alla finale" in texts and "da giocare" in texts
    assert not [t for t in cv.texts if t.group == "champion"]


def test_bot_img_1_bracket_size_mode_golden_pixel_and_hash():
    image = open_png(render_bracket(sample_bracket(), words=image_words("it")))
    assert image.mode == "RGB" and image.size == (640, 2047)  # the final on top, the semifinals, the legend
    assert close(image.getpixel((5, 5)), st.HEADER, 2)
    assert hamming(dhash(image), GOLDEN_BRACKET_DHASH) <= 10


def test_bot_tab_1_big_rounds_can_be_split_into_pages_of_tables():
    pages = render_tables_pages(sample_tables(250), words=image_words("it"), tables_per_page=16)
    assert len(pages) == 4  # 62 tables
    heights = [open_png(p).height for p in pages]
    assert heights[0] == heights[1] == heights[2] > heights[3]
    cv = layout_tables(sample_tables(250), words=image_words("it"), page=(2, 4))
    assert any(t.text.endswith("pagina 2/4") for t in cv.texts if t.group == "title")


def test_tour_fin_1_the_bracket_shows_the_finalists_table_points_once_the_final_is_reported():
    data = sample_bracket()
    points = (88.5, 61.0, 120.0, 12.0)
    reported = dataclasses.replace(
        data,
        final=dataclasses.replace(
            data.final,
            players=tuple(
                dataclasses.replace(p, table_points=v) for p, v in zip(data.final.players, points, strict=True)
            ),
        ),
    )
    cv = layout_bracket(reported, words=image_words("it"))
    assert [t.text for t in cv.texts if t.group == "points"] == ["88,5", "61", "120", "12"]
    assert texts_outside(cv) == [] and overlapping(cv.texts) == []
    assert not [
        t for t in layout_bracket(data, words=image_words("it")).texts if t.group == "points"
    ]  # not reported: none
    assert type(reported).from_json(reported.to_json()) == reported
