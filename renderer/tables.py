"""Table assignments of a round (BOT-TAB-1, BOT-IMG-1): one card per table with its seats and clubs, and the
draw's published seed and whether the draw is provably optimal (DRAWS.md: the club-pair lower bound is met)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from PIL import ImageDraw

from renderer import _style as st
from renderer.models import TableCard, TablesData, Words

LEGEND_H = 40
CARD_COLOURS: tuple[st.Colour, ...] = ((28, 45, 74), (36, 76, 110), (52, 66, 98))


def layout_tables(
    data: TablesData, *, words: Words, width: int = 960, columns: int = 2, page: tuple[int, int] | None = None
) -> st.Canvas:
    if columns < 1:
        raise ValueError(f"columns must be at least 1, got {columns}")
    tables = list(data.tables)
    if len(tables) == 1:
        columns = 1  # a final (or a lone table): one card across the image, not half of it
    shared = any(_shared_clubs(t) for t in tables)
    has_seed_row = data.seed is not None or data.optimal is not None
    footer_h = (84 if has_seed_row else 30) + (LEGEND_H if shared else 0)
    pad, gutter, header_h = 28, 22, 118
    card_head, seat_h = 58, 56
    card_w = (width - 2 * pad - gutter * (columns - 1)) // columns
    grid = [tables[i : i + columns] for i in range(0, len(tables), columns)]
    row_heights = [card_head + seat_h * max(len(t.seats) for t in row) + 14 for row in grid]
    height = header_h + pad + sum(row_heights) + gutter * max(len(grid) - 1, 0) + footer_h + pad
    cv = st.Canvas.new(width, height)

    n_players = sum(len(t.seats) for t in tables)
    subtitle = f"{words.label('tables')} · {round_title(data, words)} · "
    subtitle += f"{words.date(data.date)} · {n_players} {words.label('players')}"
    if page is not None and page[1] > 1:
        subtitle += f" · {words.label('page')} {page[0]}/{page[1]}"
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


def round_title(data: TablesData, words: Words) -> str:
    """ "Turno 2", or "Semifinale" / "Finale" for the final phase."""
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
    fnt = st.font("regular", 20)
    sample = st.font("cond", 20)
    box = cv.text((pad, cy), words.label("club"), sample, st.DOWN, "lm", "legend")
    cv.draw.line((pad, box[3] + 2, box[2], box[3] + 2), fill=st.DOWN, width=2)
    cv.text((box[2] + 12, cy), "= " + words.label("same_club_legend"), fnt, st.MUTED, "lm", "legend")


def _card(
    cv: st.Canvas, table: TableCard, x: int, y: int, w: int, h: int, head: int, seat_h: int, words: Words, title: str
) -> None:
    d = cv.draw
    d.rounded_rectangle((x + 2, y + 3, x + w + 2, y + h + 3), radius=14, fill=(226, 228, 233))  # soft shadow
    d.rounded_rectangle((x, y, x + w, y + h), radius=14, fill=st.CARD, outline=st.RULE, width=1)
    colour = CARD_COLOURS[(table.number - 1) % len(CARD_COLOURS)]
    d.rounded_rectangle((x, y, x + w, y + head), radius=14, fill=colour, corners=(True, True, False, False))
    title_font = st.font("bold", 28)
    cv.text((x + 18, y + head / 2), title, title_font, (255, 255, 255), "lm", "card")
    count_font = st.font("bold", 18)
    count = f"{len(table.seats)} {words.label('players')}"
    cw = st.text_width(count, count_font) + 22
    d.rounded_rectangle((x + w - 16 - cw, y + head / 2 - 15, x + w - 16, y + head / 2 + 15), radius=15,
                        fill=st.mix(colour, (255, 255, 255), 0.18))  # fmt: skip
    cv.text((x + w - 16 - cw / 2, y + head / 2), count, count_font, (255, 255, 255), "mm", "card")

    shared_clubs = _shared_clubs(table)
    name_font = st.font("cond-bold", 25)
    club_font = st.font("cond", 19)
    seat_font = st.font("bold", 18)
    for i, seat in enumerate(table.seats):
        sy = y + head + 7 + i * seat_h
        cy = sy + seat_h / 2
        if i:
            d.line((x + 62, sy, x + w - 16, sy), fill=st.STRIPE, width=2)
        r = 17
        d.ellipse((x + 34 - r, cy - r, x + 34 + r, cy + r), fill=st.STRIPE)
        cv.text((x + 34, cy), str(i + 1), seat_font, st.MUTED, "mm", "seat")
        text_w = w - 62 - 18
        if seat.club:
            cv.text((x + 62, cy - 11), st.fit_text(seat.name, name_font, text_w), name_font, st.INK, "lm", "name")
            shared = seat.club in shared_clubs
            club_colour = st.DOWN if shared else st.MUTED
            box = cv.text((x + 62, cy + 15), st.fit_text(seat.club, club_font, text_w), club_font, club_colour, "lm",
                          "club")  # fmt: skip
            if shared:  # underlined too: the colour is not the only signal
                d.line((box[0], box[3] + 2, box[2], box[3] + 2), fill=st.DOWN, width=2)
        else:
            cv.text((x + 62, cy), st.fit_text(seat.name, name_font, text_w), name_font, st.INK, "lm", "name")


def _footer(cv: st.Canvas, data: TablesData, words: Words, y: int, pad: int) -> None:
    d = cv.draw
    width = cv.image.width
    d.line((pad, y, width - pad, y), fill=st.RULE, width=2)
    cy = y + 38
    fnt = st.font("regular", 22)
    bold = st.font("bold", 22)
    x = pad
    if data.seed is not None:
        box = cv.text((x, cy), f"{words.label('seed')}:", fnt, st.MUTED, "lm", "footer")
        box = cv.text((box[2] + 8, cy), str(data.seed), bold, st.INK, "lm", "footer")
        x = box[2] + 28
    if data.optimal is not None:
        text = words.label("optimal" if data.optimal else "not_optimal")
        colour = st.GOOD if data.optimal else st.MUTED
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


def render_tables(data: TablesData, *, words: Words, width: int = 960, columns: int = 2) -> bytes:
    """Table assignments as one PNG (BOT-IMG-1, BOT-TAB-1)."""
    return st.png_bytes(layout_tables(data, words=words, width=width, columns=columns).image)


def render_tables_pages(
    data: TablesData, *, words: Words, tables_per_page: int = 16, width: int = 960, columns: int = 2
) -> list[bytes]:
    """The same cards split into pages of ``tables_per_page`` tables (for big fields on a phone screen);
    the player count in each subtitle is the page's, the seed and optimality footer is on every page."""
    if tables_per_page < 1:
        raise ValueError(f"tables_per_page must be at least 1, got {tables_per_page}")
    chunks = [data.tables[i : i + tables_per_page] for i in range(0, len(data.tables), tables_per_page)] or [()]
    total = len(chunks)
    pages = []
    for i, chunk in enumerate(chunks, start=1):
        cv = layout_tables(replace(data, tables=chunk), words=words, width=width, columns=columns, page=(i, total))
        pages.append(st.png_bytes(cv.image))
    return pages
