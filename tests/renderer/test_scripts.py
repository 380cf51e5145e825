"""Names in any script draw (BOT-IMG-1, BOT-I18N-1): Japanese,
Korean, Chinese and emoji fall back per character to the bundled Noto subsets instead of empty boxes, on the
standings and the table cards, and Latin text keeps its single-font path."""

from __future__ import annotations

from PIL import Image

from bot.present.images import image_words
from renderer import _fonts
from renderer import _style as st
from renderer.models import SeatCard, StandingRow, StandingsData, TableCard, TablesData
from renderer.standings import layout_standings
from renderer.tables import layout_tables

TOFU = "\ue000\ue001\ue002\ue003"  # private-use characters: no bundled face has them, DejaVu draws its empty box


def _name_crop(cv: st.Canvas, text: str) -> Image.Image:
    (item,) = [t for t in cv.texts if t.text == text]
    return cv.image.crop(item.box)


def _standings_with(name: str) -> st.Canvas:
    rows = (StandingRow(1, name, 40, 2, club="Club"), StandingRow(2, "Anna", 38, 2))
    (page,) = layout_standings(StandingsData("Coppa", 1, "2026-11-24", rows), words=image_words("it"))
    return page


def _card_with(name: str) -> st.Canvas:
    seats = (SeatCard(name, "Roma"), SeatCard("Bruno"), SeatCard("Carla"), SeatCard("Dario"))
    return layout_tables(TablesData("Coppa", 1, "2026-11-24", (TableCard(1, seats),)), words=image_words("it"))


def _ink(img: Image.Image) -> int:
    return sum(1 for px in img.convert("L").tobytes() if px < 128)


def test_a_japanese_name_draws_its_glyphs_not_empty_boxes_on_standings_and_table_cards():
    for layout in (_standings_with, _card_with):
        japanese = _name_crop(layout("山田 太郎"), "山田 太郎")
        boxes = _name_crop(layout("山田 " + TOFU[:2]), "山田 " + TOFU[:2])
        assert japanese.width > 60 and _ink(japanese) > 150
        assert japanese.tobytes() != boxes.tobytes()  # the kanji are drawn, not the .notdef box


def test_an_emoji_in_a_name_draws_in_colour_inside_the_name_box():
    for layout in (_standings_with, _card_with):
        raw = _name_crop(layout("Anna 🎲🔥"), "Anna 🎲🔥").convert("RGB").tobytes()
        pixels = [raw[i : i + 3] for i in range(0, len(raw), 3)]
        saturated = [p for p in pixels if max(p) - min(p) > 90]
        assert len(saturated) > 40  # the fire and the die are in colour; DejaVu has neither


def test_korean_greek_and_cyrillic_names_draw_and_every_face_is_chosen_per_character():
    font = st.font("cond-bold", 23)
    faces = [r.face for r in _fonts.runs("Kim 김민준 🎲", font) or []]
    assert faces == [_fonts.MAIN, _fonts.CJK, _fonts.MAIN, _fonts.EMOJI]
    assert _fonts.runs("Ζωή Борис Łukasz", font) is None  # DejaVu has them all: the single-font path
    assert _fonts.runs("Anna Rossi", font) is None


def test_measuring_matches_drawing_so_long_names_are_shortened_to_fit():
    font = st.font("cond-bold", 25)
    name = "山田太郎" * 12 + "🎲" * 5
    fitted = st.fit_text(name, font, 300)
    assert fitted.endswith("…") and st.text_width(fitted, font) <= 300
    cv = st.Canvas.new(400, 60)
    box = cv.text((10, 30), fitted, font, st.INK, "lm", "name")
    assert box[2] - box[0] <= 302 and box[2] <= 400
