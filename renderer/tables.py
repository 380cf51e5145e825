"""Table assignments of a round (BOT-TAB-1, BOT-IMG-1): one card per table with its seats and clubs, and the
draw's published seed and whether the draw is provably optimal (DRAWS.md: the club-pair lower bound is met)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from PIL import ImageDraw, ImageFont

from renderer import _style as st
from renderer import pages as pg
from renderer.models import TableCard, TablesData, Words

LEGEND_H = 44
CARD_COLOURS: tuple[st.Colour, ...] = ((28, 45, 74), (36, 76, 110), (52, 66, 98))
WIDTH = 640  # one card across: a name keeps its length and reads at 11 px on a phone (renderer.pages)
PAD, GUTTER, HEADER_H = 24, 22, 118
CARD_HEAD, SEAT_H = 60, 72


def _card_height(table: TableCard) -> int:
    return CARD_HEAD + SEAT_H * len(table.seats) + 14


def _footer_height(data: TablesData, words: Words, shared: bool, width: int) -> int:
    has_seed_row = data.seed is not None or data.optimal is not None
    two_lines = _footer_wraps(data, words, width)
    return (84 if has_seed_row else 30) + (FOOTER_LINE if two_lines else 0) + (LEGEND_H if shared else 0)


FOOTER_LINE = 50
_FOOTER_FONT, _FOOTER_BOLD = ("regular", 22), ("bold", 22)


def _seed_width(data: TablesData, words: Words) -> float:
    if data.seed is None:
        return 0.0
    return (
        st.text_width(f"{words.label('seed')}:", st.font(*_FOOTER_FONT))
        + 8
        + st.text_width(str(data.seed), st.font(*_FOOTER_BOLD))
    )


def _badge_key(data: TablesData) -> str:
    if not data.optimal:
        return "not_optimal"
    return "optimal_cinquisti" if data.optimal_for_cinquisti else "optimal"


def _badge_width(data: TablesData, words: Words) -> float:
    if data.optimal is None:
        return 0.0
    return st.text_width(words.label(_badge_key(data)), st.font(*_FOOTER_BOLD)) + 58


def _footer_wraps(data: TablesData, words: Words, width: int) -> bool:
    """The seed and the optimality badge side by side, or the badge on a line of its own when both do not fit."""
    seed, badge = _seed_width(data, words), _badge_width(data, words)
    return bool(seed and badge) and seed + 28 + badge > width - 2 * PAD


def layout_tables(
    data: TablesData, *, words: Words, width: int = WIDTH, columns: int = 1, page: tuple[int, int] | None = None
) -> st.Canvas:
    """The round's tables drawn on one canvas, ``columns`` cards across (one for a lone table); ``page`` (this, of
    how many) goes in the subtitle."""
    if columns < 1:
        raise ValueError(f"columns must be at least 1, got {columns}")
    tables = list(data.tables)
    if len(tables) == 1:
        columns = 1  # a final (or a lone table): one card across the image, not half of it
    shared = any(_shared_clubs(t) for t in tables)
    footer_h = _footer_height(data, words, shared, width)
    pad, gutter, header_h = PAD, GUTTER, HEADER_H
    card_head, seat_h = CARD_HEAD, SEAT_H
    card_w = (width - 2 * pad - gutter * (columns - 1)) // columns
    grid = [tables[i : i + columns] for i in range(0, len(tables), columns)]
    row_heights = [max(_card_height(t) for t in row) for row in grid]
    subtitle = _subtitle(data, words, sum(len(t.seats) for t in tables), page)
    header_h = st.header_height(subtitle, width, pad)
    height = header_h + pad + sum(row_heights) + gutter * max(len(grid) - 1, 0) + footer_h + pad
    cv = st.Canvas.new(width, height)
    st.header_band(cv, data.tournament, subtitle, header_h, pad)

    y = header_h + pad
    for row, row_h in zip(grid, row_heights, strict=True):
        for i, table in enumerate(row):
            x = pad + i * (card_w + gutter)
            _card(cv, table, x, y, card_w, row_h, card_head, seat_h, words, _table_title(data, table, words))
        y += row_h + gutter
    _footer(cv, data, words, height - pad - footer_h + 10, pad)
    if shared:
        _club_legend(cv, words, height - pad - LEGEND_H + 10, pad)
    return cv


def _subtitle(data: TablesData, words: Words, n_players: int, page: tuple[int, int] | None) -> str:
    subtitle = f"{words.label('tables')} · {round_title(data, words)} · "
    subtitle += f"{words.date(data.date)} · {n_players} {words.label('players')}"
    if page is not None and page[1] > 1:
        subtitle += f" · {words.label('page')} {page[0]}/{page[1]}"
    return subtitle


def round_title(data: TablesData, words: Words) -> str:
    """The round's title: "Turno 2", or "Semifinale" / "Finale" for the final phase."""
    if data.kind == "qualifying":
        return f"{words.label('round')} {data.round}"
    return words.label(data.kind)


def _table_title(data: TablesData, table: TableCard, words: Words) -> str:
    if data.kind == "final" and len(data.tables) == 1:
        return words.label("final")
    if data.kind in ("semifinal", "final"):
        return f"{words.label(data.kind)} {table.number}"
    return f"{words.label('table')} {table.number}"


def _shared_clubs(table: TableCard) -> set[str]:
    counts = Counter(s.club for s in table.seats if s.club)
    return {club for club, n in counts.items() if n > 1}


def _club_legend(cv: st.Canvas, words: Words, cy: int, pad: int) -> None:
    """What the coloured club means: players of the same club at the same table (the draw keeps them apart where
    it can, DRAWS.md); a swatch and the words, so the colour is never the only signal."""
    fnt = st.font("regular", 22)
    sample = st.font("cond", 22)
    box = cv.text((pad, cy), words.label("club"), sample, st.DOWN, "lm", "legend")
    _underline(cv, box, cy, sample)
    room = cv.image.width - pad - box[2] - 12
    cv.text((box[2] + 12, cy), st.fit_text("= " + words.label("same_club_legend"), fnt, room), fnt, st.MUTED, "lm",
            "legend")  # fmt: skip


def _underline(cv: st.Canvas, box: st.Box, cy: float, fnt: ImageFont.FreeTypeFont) -> None:
    """The same-club mark: a line under the whole text, descenders included (g, p, q, y, j reach down to the
    font's descent below the baseline), so nothing drawn after it at the row's edge can hide it."""
    _, descent = fnt.getmetrics()
    ascent = fnt.getmetrics()[0]
    baseline = cy + (ascent - descent) / 2  # the "lm" anchor puts the middle of ascent+descent at cy
    y = max(box[3], baseline + descent) + 2
    cv.draw.line((box[0], y, box[2], y), fill=st.DOWN, width=3)


def _card(
    cv: st.Canvas, table: TableCard, x: int, y: int, w: int, h: int, head: int, seat_h: int, words: Words, title: str
) -> None:
    d = cv.draw
    d.rounded_rectangle((x + 2, y + 3, x + w + 2, y + h + 3), radius=14, fill=(226, 228, 233))  # soft shadow
    d.rounded_rectangle((x, y, x + w, y + h), radius=14, fill=st.CARD, outline=st.RULE, width=1)
    colour = CARD_COLOURS[(table.number - 1) % len(CARD_COLOURS)]
    d.rounded_rectangle((x, y, x + w, y + head), radius=14, fill=colour, corners=(True, True, False, False))
    title_font = st.font("bold", 30)
    count_font = st.font("bold", 21)
    count = f"{len(table.seats)} {words.label('players')}"
    cw = st.text_width(count, count_font) + 24
    title_room = w - 18 - 16 - cw - 12 - 16
    cv.text((x + 18, y + head / 2), st.fit_text(title, title_font, title_room), title_font, (255, 255, 255), "lm",
            "card")  # fmt: skip
    d.rounded_rectangle((x + w - 16 - cw, y + head / 2 - 17, x + w - 16, y + head / 2 + 17), radius=17,
                        fill=st.mix(colour, (255, 255, 255), 0.18))  # fmt: skip
    cv.text((x + w - 16 - cw / 2, y + head / 2), count, count_font, (255, 255, 255), "mm", "card")

    shared_clubs = _shared_clubs(table)
    name_font = st.font("cond-bold", 28)
    club_font = st.font("cond", 23)
    seat_font = st.font("bold", 21)
    top = y + head + 7
    for i in range(1, len(table.seats)):  # the dividers first: nothing drawn later can cover a row's text or mark
        d.line((x + 66, top + i * seat_h, x + w - 16, top + i * seat_h), fill=st.STRIPE, width=2)
    for i, seat in enumerate(table.seats):
        sy = top + i * seat_h
        cy = sy + seat_h / 2
        r = 19
        d.ellipse((x + 36 - r, cy - r, x + 36 + r, cy + r), fill=st.STRIPE)
        cv.text((x + 36, cy), str(i + 1), seat_font, st.MUTED, "mm", "seat")
        text_w = w - 66 - 18
        if seat.club:
            cv.text((x + 66, cy - 14), st.fit_text(seat.name, name_font, text_w), name_font, st.INK, "lm", "name")
            shared = seat.club in shared_clubs
            club_colour = st.DOWN if shared else st.MUTED
            club_y = cy + 17
            box = cv.text((x + 66, club_y), st.fit_text(seat.club, club_font, text_w), club_font, club_colour, "lm",
                          "club")  # fmt: skip
            if shared:  # underlined too: the colour is not the only signal
                _underline(cv, box, club_y, club_font)
        else:
            cv.text((x + 66, cy), st.fit_text(seat.name, name_font, text_w), name_font, st.INK, "lm", "name")


def _footer(cv: st.Canvas, data: TablesData, words: Words, y: int, pad: int) -> None:
    d = cv.draw
    width = cv.image.width
    d.line((pad, y, width - pad, y), fill=st.RULE, width=2)
    cy = y + 38
    fnt = st.font(*_FOOTER_FONT)
    bold = st.font(*_FOOTER_BOLD)
    x = pad
    if data.seed is not None:
        box = cv.text((x, cy), f"{words.label('seed')}:", fnt, st.MUTED, "lm", "footer")
        box = cv.text((box[2] + 8, cy), str(data.seed), bold, st.INK, "lm", "footer")
        x = box[2] + 28
    if data.optimal is not None:
        text = words.label(_badge_key(data))
        colour = st.GOOD if data.optimal else st.MUTED
        if _footer_wraps(data, words, width):
            x, cy = pad, cy + FOOTER_LINE
        bw = st.text_width(text, bold) + 58
        x0 = max(x, width - pad - bw)
        d.rounded_rectangle((x0, cy - 20, x0 + bw, cy + 20), radius=20, fill=st.mix(colour, (255, 255, 255), 0.86))
        _mark(d, x0 + 22, cy, colour, data.optimal)
        cv.text((x0 + 40, cy), text, bold, colour, "lm", "footer")


def _mark(d: ImageDraw.ImageDraw, cx: float, cy: float, colour: st.Colour, ok: bool) -> None:
    if ok:
        d.line([(cx - 8, cy), (cx - 2, cy + 7), (cx + 9, cy - 7)], fill=colour, width=4, joint="curve")
    else:
        d.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), outline=colour, width=3)


def tables_pages(data: TablesData, *, words: Words, width: int = WIDTH) -> list[tuple[TableCard, ...]]:
    """The round's tables split into pages by the phone rule (:mod:`renderer.pages`): as many cards as fit in a
    page no taller than ``PAGE_MAX_ASPECT`` times its width, header and footer included."""
    shared = any(_shared_clubs(t) for t in data.tables)
    fixed = st.header_height(_subtitle(data, words, 999, (99, 99)), width, PAD) + 2 * PAD
    fixed += _footer_height(data, words, shared, width)
    ranges = pg.split_pages([_card_height(t) for t in data.tables], budget=pg.page_height_budget(width), fixed=fixed,
                            gap=GUTTER)  # fmt: skip
    return [tuple(data.tables[i] for i in r) for r in ranges]


def render_tables(data: TablesData, *, words: Words, width: int = WIDTH, columns: int = 1) -> bytes:
    """Table assignments as one PNG, however long (BOT-IMG-1, BOT-TAB-1); the bot posts
    :func:`render_tables_pages`."""
    return st.png_bytes(layout_tables(data, words=words, width=width, columns=columns).image)


def layout_tables_pages(
    data: TablesData, *, words: Words, tables_per_page: int | None = None, width: int = WIDTH
) -> list[st.Canvas]:
    """The round's tables drawn page by page: by the phone rule, or ``tables_per_page`` cards each when given; the
    canvases, with their recorded text boxes, for encoding or inspection."""
    if tables_per_page is not None and tables_per_page < 1:
        raise ValueError(f"tables_per_page must be at least 1, got {tables_per_page}")
    if tables_per_page is None:
        chunks = tables_pages(data, words=words, width=width)
    else:
        chunks = [data.tables[i : i + tables_per_page] for i in range(0, len(data.tables), tables_per_page)] or [()]
    total = len(chunks)
    return [layout_tables(replace(data, tables=chunk), words=words, width=width, page=(i, total))
            for i, chunk in enumerate(chunks, start=1)]  # fmt: skip


def render_tables_pages(
    data: TablesData, *, words: Words, tables_per_page: int | None = None, width: int = WIDTH
) -> list[bytes]:
    """The cards split into pages (BOT-IMG-1): by the phone rule (:func:`tables_pages`), or ``tables_per_page``
    each when given; the player count in each subtitle is the page's, the seed and optimality footer is on every
    page."""
    return [st.png_bytes(cv.image) for cv in layout_tables_pages(data, words=words, tables_per_page=tables_per_page,
                                                                  width=width)]  # fmt: skip
