"""Shared look: bundled fonts with full Latin coverage, Italian number format, labels (BOT-IMG-1, BOT-I18N-1)."""

from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from bot.i18n import catalogue
from bot.present.images import image_words
from bot.rules.ricochet.board import ROBOT_COLOURS
from renderer import _fonts
from renderer import _style as st
from renderer.models import RenderInputError, Words


@pytest.mark.parametrize(
    ("value", "locale", "decimals", "expected"),
    [
        (31.8, "it", None, "31,8"),
        (31.8, "en", None, "31.8"),
        (14.2, "it", 1, "14,2"),
        (5, "it", 1, "5,0"),
        (1234567.5, "it", None, "1.234.567,5"),
        (1234567.5, "en", None, "1,234,567.5"),
        (-0.1, "it", None, "−0,1"),
        (-0.001, "it", 1, "0,0"),
        (0, "en", None, "0"),
    ],
)
def test_bot_i18n_1_numbers_are_in_italian_format_where_italian(value, locale, decimals, expected):
    assert image_words(locale).number(value, decimals) == expected


@given(hs.floats(min_value=-1e7, max_value=1e7, allow_nan=False).map(lambda x: round(x, 2)))
def test_bot_i18n_1_italian_and_english_numbers_differ_only_in_separators(value):
    it, en = image_words("it").number(value), image_words("en").number(value)
    swap = it.replace(".", "\x00").replace(",", ".").replace("\x00", ",")
    assert swap == en
    assert float(en.replace(",", "").replace("−", "-")) == pytest.approx(value, abs=0.005)


def test_bot_img_1_dates_are_written_out_in_the_locale():
    assert image_words("it").date("2026-11-22") == "22 novembre 2026"
    assert image_words("en").date("2026-03-01") == "1 March 2026"


def test_bot_img_1_fonts_are_bundled_with_their_licence_and_cover_accents_and_c_caron():
    fonts = resources.files("renderer").joinpath("fonts")
    bundled = {*_fonts.FONT_FILES.values(), _fonts.CJK_FILE, _fonts.EMOJI_FILE, "coverage.json"}
    assert {p.name for p in fonts.iterdir()} >= {*bundled, "LICENSE-DejaVu.txt", "LICENSE-Noto.txt"}
    assert "SIL OPEN FONT LICENSE" in fonts.joinpath("LICENSE-Noto.txt").read_text(encoding="utf-8")
    licence = fonts.joinpath("LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "Permission is hereby granted" in licence
    for kind in _fonts.FONT_FILES:
        fnt = st.font(kind, 24)
        notdef = fnt.getmask("\u4e00")  # a CJK ideograph DejaVu lacks: the .notdef box a missing glyph draws
        for ch in "ČčĆćŠšŽžĐđàèéìòùÀÈÉÌÒÙäöüßñçłŁőű€°·—…▲↺":
            mask = fnt.getmask(ch)
            assert mask.getbbox() is not None, f"{kind} has no glyph for {ch!r}"
            assert (mask.size, bytes(mask)) != (notdef.size, bytes(notdef)), f"{kind} draws .notdef for {ch!r}"


def test_bot_img_1_fonts_are_never_read_from_the_host(monkeypatch):
    """Loading goes through package resources; a host font path is never opened."""
    opened = []
    real_truetype = st.ImageFont.truetype

    def spy(source, *args, **kwargs):
        opened.append(source)
        return real_truetype(source, *args, **kwargs)

    monkeypatch.setattr(st.ImageFont, "truetype", spy)
    st.font.cache_clear()
    st.font("bold", 31)
    assert opened and all(not isinstance(s, str) for s in opened)
    st.font.cache_clear()


def test_bot_img_1_labels_come_from_the_message_catalogue_in_both_languages():
    """One catalogue for cogs, CSV headers and images: every label the renderer draws is an ``img.*`` key, but for
    the robots' letters, which are the notation the ``/rr`` parser reads (``bot.rules.ricochet.notation``)."""
    it_keys = {k for k in catalogue("it") if k.startswith("img.")}
    assert it_keys == {k for k in catalogue("en") if k.startswith("img.")} and len(it_keys) > 30
    it, en = image_words("it"), image_words("en")
    assert it.label("standings") == "Classifica" and en.label("standings") == "Standings"
    assert it.robot_letter("green") == "V" and en.robot_letter("green") == "G"
    letters = {f"robot_letter.{colour}" for colour in ROBOT_COLOURS}
    assert set(it.labels) == {k.removeprefix("img.") for k in it_keys} | letters == set(en.labels)


def test_the_renderer_draws_only_the_words_it_is_given_and_refuses_a_missing_label_naming_it():
    with pytest.raises(RenderInputError, match="'standings'"):
        Words(labels={}).label("standings")


def test_fit_text_shortens_with_an_ellipsis_to_the_width():
    fnt = st.font("regular", 20)
    text = "Associazione Giochi da Tavolo di Sant'Elpidio a Mare"
    short = st.fit_text(text, fnt, 200)
    assert short.endswith("…") and fnt.getlength(short) <= 200
    assert st.fit_text("Anna", fnt, 200) == "Anna"
