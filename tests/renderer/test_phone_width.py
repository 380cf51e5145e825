"""Images on a phone (BOT-IMG-1): every image kind, with worst-case content, read at the width Discord gives it on a
phone. The smallest text is measured from what was drawn (each text records the pixel size of the font that drew
it, supersampled images scaled to their final pixels) and brought to a 340 px wide screen: it must be at least
11 px. Every page must be readable without scrolling sideways or through a strip: its height at most 3× its width
(``renderer.pages.PAGE_MAX_ASPECT``). The images are also written, full size and 340 px wide, into a temporary
folder (kept by pytest) for a person to look at."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from bot.present.images import image_words
from renderer import _fonts
from renderer import _style as st
from renderer import pages as pg
from renderer.bracket import layout_bracket_pages, render_bracket_pages
from renderer.models import BracketData, BracketPlayer, BracketTable, SeatCard, TableCard, TablesData
from renderer.risiko_map import layout_risiko_map_pages, render_risiko_map_pages
from renderer.rr_board import layout_rr_board
from renderer.standings import layout_standings
from renderer.tables import layout_tables, layout_tables_pages, render_tables_pages
from tests.renderer.checks import open_png, overlapping, texts_outside
from tests.support.renderer_fixtures import sample_board, sample_map, sample_standings, sample_tables

MIN_PX, PHONE, MAX_ASPECT = 11, 340, 3.0  # the bounds this test holds every image to


def at_phone(cv: st.Canvas) -> float:
    """The smallest text drawn on ``cv``, in pixels once the image is shown ``PHONE`` px wide."""
    sizes = [t.size for t in cv.texts]
    assert sizes and all(s > 0 for s in sizes), "a text was drawn without its size"
    return min(sizes) * PHONE / cv.image.width


def long_tables() -> TablesData:
    """20 tables (82 players): long Italian names and clubs, a flag in a name, a shared club at every table."""
    base = sample_tables(82)
    tables = []
    for t in base.tables:
        seats = list(t.seats)
        seats[0] = SeatCard("Maria Francesca Übermann-Sánchez 🇮🇹", "Associazione Ludica Gruppo Pegaso di Reggio")
        seats[1] = dataclasses.replace(seats[1], club="Associazione Ludica Gruppo Pegaso di Reggio")
        tables.append(dataclasses.replace(t, seats=tuple(seats)))
    return dataclasses.replace(base, tables=tuple(tables), tournament="Campionato Italiano RisiKo! — Sant'Elpidio")


def big_bracket() -> BracketData:
    """64 players: 16 semifinal tables of 4, a final of 8 with a replacement, reported."""
    rows = sample_standings(64, seed=5).rows
    semis = []
    for t in range(16):
        players = tuple(BracketPlayer(r.name, r.club, r.rank, table_points=40.0 + i) for i, r in
                        enumerate(rows[t * 4 : t * 4 + 4]))  # fmt: skip
        semis.append(BracketTable(t + 1, players, 0))
    finalists = [semis[t].players[0] for t in range(8)]
    finalists[3] = dataclasses.replace(semis[3].players[1], replaces=semis[3].players[0].name)
    final = BracketTable(1, tuple(dataclasses.replace(p, table_points=80.5 - i) for i, p in enumerate(finalists)), 0)
    return BracketData("Campionato Regionale RisiKo! 2026 — Sant'Elpidio a Mare", "2026-12-20", tuple(semis), final)


def scored_map():
    data = sample_map()
    notes = (
        "Punti tavolo: 87",
        "Obiettivo raggiunto",
        "Striscia doppia (+24): Alaska – Alberta – Ontario – Quebec – Groenlandia",
        "Continenti: Oceania +2",
    )
    players = tuple(dataclasses.replace(p, notes=notes[: 2 + i % 3]) for i, p in enumerate(data.players))
    return dataclasses.replace(data, players=players)


def kinds() -> dict[str, list[st.Canvas]]:
    words = image_words("it")
    return {
        "tables": layout_tables_pages(long_tables(), words=words),
        "standings": layout_standings(
            dataclasses.replace(
                sample_standings(250),
                legend="A pari punti decidono, nell'ordine: punti tavolo; scontri diretti; sorteggio.",
            ),
            words=words,
        ),
        "bracket": layout_bracket_pages(big_bracket(), words=words),
        "risiko-map": layout_risiko_map_pages(scored_map(), words=words),
        "rr-board": [layout_rr_board(sample_board(), words=words)],
    }


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[st.Canvas]]:
    out: Path = tmp_path_factory.mktemp("phone")
    found = kinds()
    for kind, pages in found.items():
        for i, cv in enumerate(pages, start=1):
            w, h = cv.image.size
            cv.image.save(out / f"{kind}-{i}.png")
            cv.image.resize((PHONE, round(h * PHONE / w)), Image.Resampling.LANCZOS).save(out / f"{kind}-{i}-340.png")
    return found


@pytest.mark.parametrize("kind", ["tables", "standings", "bracket", "risiko-map", "rr-board"])
def test_bot_img_1_the_smallest_text_reads_11_px_on_a_phone(drawn: dict[str, list[st.Canvas]], kind: str):
    for i, cv in enumerate(drawn[kind], start=1):
        assert at_phone(cv) >= MIN_PX, f"{kind} page {i}: {at_phone(cv):.1f} px at {PHONE} px"


@pytest.mark.parametrize("kind", ["tables", "standings", "bracket", "risiko-map", "rr-board"])
def test_bot_img_1_every_page_is_at_most_three_times_as_tall_as_wide_and_nothing_is_cut_or_overlaps(
    drawn: dict[str, list[st.Canvas]], kind: str
):
    for i, cv in enumerate(drawn[kind], start=1):
        w, h = cv.image.size
        assert h <= MAX_ASPECT * w, f"{kind} page {i}: {w}×{h}"
        assert texts_outside(cv) == [], f"{kind} page {i}"
        assert overlapping([t for t in cv.texts if t.group != "legend-box"]) == [], f"{kind} page {i}"


def test_bot_img_1_the_worst_cases_do_need_pages_and_every_item_is_on_one():
    words = image_words("it")
    tables = long_tables()
    pages = layout_tables_pages(tables, words=words)
    assert len(pages) > 1
    names = [t.text for cv in pages for t in cv.texts if t.group == "name"]
    assert len(names) == sum(len(t.seats) for t in tables.tables)  # no table lost or repeated between pages
    bracket = layout_bracket_pages(big_bracket(), words=words)
    cards = [t.text for cv in bracket for t in cv.texts if t.group == "card" and t.text.startswith("Semifinale")]
    assert len(bracket) > 1 and cards == [f"Semifinale {n}" for n in range(1, 17)]
    rows = [t.text for cv in layout_standings(sample_standings(250), words=words) for t in cv.texts
            if t.group == "rank"]  # fmt: skip
    assert rows == [str(n) for n in range(1, 251)]


def test_bot_img_1_the_png_pages_are_the_measured_canvases():
    """What the bot posts (``render_…_pages``) has the measured pages' sizes: the measurement is of the real thing."""
    words = image_words("it")
    for pngs, canvases in (
        (render_tables_pages(long_tables(), words=words), layout_tables_pages(long_tables(), words=words)),
        (render_bracket_pages(big_bracket(), words=words), layout_bracket_pages(big_bracket(), words=words)),
        (render_risiko_map_pages(scored_map(), words=words), layout_risiko_map_pages(scored_map(), words=words)),
    ):
        assert [open_png(p).size for p in pngs] == [cv.image.size for cv in canvases]


def test_one_pagination_rule_splits_by_height_and_keeps_pages_even():
    assert pg.split_pages([], budget=100) == [range(0, 0)]
    assert pg.split_pages([40, 40, 40], budget=100, fixed=10) == [range(0, 2), range(2, 3)]
    assert pg.split_pages([500], budget=100) == [range(0, 1)]  # too tall for any page: a page of its own
    sizes = [len(r) for r in pg.split_pages([10] * 20, budget=55)]  # 5 fit a page: 4 pages of 5, not 5+5+5+5+0
    assert sizes == [5, 5, 5, 5]
    assert [len(r) for r in pg.split_pages([10] * 16, budget=55)] == [4, 4, 4, 4]  # as few pages, even: not 5+5+5+1
    assert pg.min_text_px(640) == 21 and pg.at_phone_width(21, 640) >= 11


# ------------------------------------------------------------------------------------------- the same-club mark


def test_bot_tab_1_the_same_club_underline_survives_descenders_and_the_next_row():
    """A shared club whose name reaches below the baseline (g, p, q, y, j), at a seat that is not the last: the
    underline is still drawn, in full, below the name's descenders and above the next row's divider."""
    club = "Gruppo Gioco Pegaso"
    table = TableCard(1, (SeatCard("Anna Rossi", club), SeatCard("Bruno Greco", club), SeatCard("Carla Neri", "Roma"),
                          SeatCard("Dario Bruno", "Genova")))  # fmt: skip
    cv = layout_tables(TablesData("Coppa", 1, "2026-12-13", (table,), 7, True), words=image_words("it"))
    clubs = [t for t in cv.texts if t.group == "club" and t.text == club]
    assert len(clubs) == 2
    for item in clubs:  # seat 1 and seat 2: neither is the last seat
        left, _, right, bottom = item.box
        rows = range(bottom, bottom + 8)
        underlined = [y for y in rows if sum(_is(cv.image.getpixel((x, y)), st.DOWN) for x in range(left, right))
                      >= 0.9 * (right - left)]  # fmt: skip
        assert underlined, f"no underline under {item.text!r} at {item.box}"
    plain = next(t for t in cv.texts if t.text == "Roma")
    assert not any(_is(cv.image.getpixel((x, y)), st.DOWN) for x in range(plain.box[0], plain.box[2])
                   for y in range(plain.box[3], plain.box[3] + 8))  # fmt: skip


def _is(pixel: object, colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(int(p) - c) <= tolerance for p, c in zip(pixel[:3], colour, strict=True))


# ------------------------------------------------------------------------------------------------------- flags


def test_bot_img_1_a_flag_draws_as_its_letters_in_a_box_not_as_empty_boxes():
    fnt = st.font("cond-bold", 40)
    assert _fonts.runs("Anna 🇮🇹🇫🇷", fnt) == [_fonts.Run("main", "Anna "), _fonts.Run("flag", "IT"),
                                            _fonts.Run("flag", "FR")]  # fmt: skip
    flag = "\U0001f1ee\U0001f1f9"
    drawn = _draw(flag, fnt)
    missing = _draw("\U000f0000\U000f0001", fnt)  # no face has these: DejaVu's .notdef boxes, as a flag was drawn
    letters = Image.new("RGB", drawn.size, (255, 255, 255))  # "IT" where the flag's box puts its letters
    ImageDraw.Draw(letters).text((20 + _fonts._flag_pad(fnt), 40), "IT", font=fnt, fill=st.INK, anchor="lm")
    assert _covers(drawn, letters)  # the flag shows the letters I and T …
    assert not _covers(missing, letters)  # … which two empty boxes would not
    cv = st.Canvas.new(200, 80)
    cv.text((20, 40), f"Anna {flag}", fnt, st.INK, "lm")
    assert cv.texts[-1].size == 40  # drawn at the text's own size, measured like any text


def _draw(text: str, fnt: object) -> Image.Image:
    cv = st.Canvas.new(200, 80, background=(255, 255, 255))
    cv.text((20, 40), text, fnt, st.INK, "lm")  # type: ignore[arg-type]
    return cv.image


def _covers(image: Image.Image, mask: Image.Image) -> bool:
    """Every dark pixel of ``mask`` is dark in ``image`` too."""
    dark = [(x, y) for x in range(mask.width) for y in range(mask.height) if sum(mask.getpixel((x, y))) < 200]  # type: ignore[arg-type]
    assert dark
    return all(sum(image.getpixel(p)) < 380 for p in dark)  # type: ignore[arg-type]
