"""Final-phase bracket (TOUR-SF-1, TOUR-FIN-1, BOT-IMG-1), laid out for a phone: the final (and the champion) on
top, then the direct finalists and the semifinal tables, one card across; each finalist's semifinal row is marked
in the colour of how they went through (gold: won, orange: replaced a winner who declined); declined winners are
struck through and their replacements named. Long brackets split into pages (``renderer.pages``)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw

from renderer import _style as st
from renderer import pages as pg
from renderer.models import BracketData, BracketPlayer, Words

WIN: st.Colour = (212, 160, 23)
REPLACEMENT: st.Colour = (204, 82, 0)
SF_HEAD: st.Colour = (36, 76, 110)
FINAL_HEAD: st.Colour = (28, 45, 74)


WIDTH = 640  # phone first: one card across, 11 px text once shown 340 px wide (renderer.pages)
PAD, GAP, HEAD_H, ROW_H, CHAMPION_H = 24, 22, 56, 62, 100


@dataclass(frozen=True, slots=True)
class _Block:
    """One card of the bracket (the final comes first, with the champion above it once there is one)."""

    title: str
    players: tuple[BracketPlayer, ...]
    marks: dict[int, st.Colour]
    final: bool
    champion: str | None = None

    @property
    def height(self) -> int:
        return (CHAMPION_H if self.champion else 0) + HEAD_H + ROW_H * len(self.players) + 12


def _blocks(data: BracketData, words: Words) -> list[_Block]:
    advancing = {p.name: (REPLACEMENT if p.replaces else WIN) for p in data.final.players}
    winner = data.final.winner
    champion = None if winner is None else data.final.players[winner].name
    blocks = [_Block(words.label("final"), data.final.players, {} if winner is None else {winner: WIN}, True, champion)]
    left: list[tuple[str, tuple[BracketPlayer, ...]]] = []
    if data.direct_finalists:
        left.append((words.label("direct"), data.direct_finalists))
    for table in data.semifinals:
        left.append((f"{words.label('semifinal')} {table.number}", table.players))
    for title, players in left:
        marks = {i: advancing[p.name] for i, p in enumerate(players) if p.name in advancing}
        blocks.append(_Block(title, players, marks, False))
    return blocks


def _subtitle(data: BracketData, words: Words, page: tuple[int, int] | None) -> str:
    text = f"{words.label('bracket')} · {words.date(data.date)}"
    if page is not None and page[1] > 1:
        text += f" · {words.label('page')} {page[0]}/{page[1]}"
    return text


def bracket_pages(data: BracketData, *, words: Words, width: int = WIDTH) -> list[range]:
    """The bracket's cards (the final first, then the direct finalists and the semifinals) split into pages by the
    phone rule (:mod:`renderer.pages`)."""
    fixed = st.header_height(_subtitle(data, words, (99, 99)), width, PAD) + 2 * PAD + 30
    heights = [b.height for b in _blocks(data, words)]
    return pg.split_pages(heights, budget=pg.page_height_budget(width), fixed=fixed, gap=GAP)


def layout_bracket(
    data: BracketData,
    *,
    words: Words,
    width: int = WIDTH,
    cards: range | None = None,
    page: tuple[int, int] | None = None,
) -> st.Canvas:
    """The final (and its champion) on top, then the direct finalists and each semifinal, one card across; every
    finalist's semifinal row is marked (gold: the winner, orange: the replacement of a winner who declined)."""
    blocks = _blocks(data, words)
    shown = [blocks[i] for i in (cards if cards is not None else range(len(blocks)))]
    subtitle = _subtitle(data, words, page)
    header_h = st.header_height(subtitle, width, PAD)
    body_h = sum(b.height for b in shown) + GAP * max(len(shown) - 1, 0)
    height = header_h + PAD + body_h + PAD + 30
    cv = st.Canvas.new(width, height)
    st.header_band(cv, data.tournament, subtitle, header_h, PAD)
    y = header_h + PAD
    w = width - 2 * PAD
    for block in shown:
        if block.champion is not None:
            _champion(cv, block.champion, PAD, y, w, words)
            y += CHAMPION_H
        h = HEAD_H + ROW_H * len(block.players) + 12
        _table_card(cv, block.title, block.players, block.marks, PAD, y, w, h, HEAD_H, ROW_H,
                    FINAL_HEAD if block.final else SF_HEAD, words, final=block.final)  # fmt: skip
        y += h + GAP
    return cv


def layout_bracket_pages(data: BracketData, *, words: Words, width: int = WIDTH) -> list[st.Canvas]:
    ranges = bracket_pages(data, words=words, width=width)
    return [layout_bracket(data, words=words, width=width, cards=r, page=(i, len(ranges)))
            for i, r in enumerate(ranges, start=1)]  # fmt: skip


def _table_card(
    cv: st.Canvas,
    title: str,
    players: tuple[BracketPlayer, ...],
    marks: dict[int, st.Colour],
    x: int,
    y: int,
    w: int,
    h: int,
    head_h: int,
    row_h: int,
    head_colour: st.Colour,
    words: Words,
    *,
    final: bool,
) -> list[int]:
    d = cv.draw
    d.rounded_rectangle((x + 2, y + 3, x + w + 2, y + h + 3), radius=14, fill=(226, 228, 233))
    d.rounded_rectangle((x, y, x + w, y + h), radius=14, fill=st.CARD, outline=st.RULE)
    d.rounded_rectangle((x, y, x + w, y + head_h), radius=14, fill=head_colour, corners=(True, True, False, False))
    if final:
        d.rectangle((x, y + head_h - 4, x + w, y + head_h), fill=WIN)
    cv.text((x + 18, y + head_h / 2), title, st.font("bold", 28), (255, 255, 255), "lm", "card")
    if not marks:
        tag_font = st.font("regular", 21)
        cv.text((x + w - 16, y + head_h / 2), words.label("to_be_played"), tag_font, st.HEADER_SUB, "rm", "card")

    name_font = st.font("cond-bold", 26)
    struck_font = st.font("cond", 26)
    small = st.font("cond", 21)
    seed_font = st.font("bold", 21)
    rows = []
    for i, p in enumerate(players):
        ry = y + head_h + 6 + i * row_h
        cy = ry + row_h // 2
        rows.append(cy)
        mark = marks.get(i)
        is_winner = mark is not None
        if mark is not None:
            d.rectangle((x + 1, ry, x + w - 1, ry + row_h - 1), fill=st.mix(mark, (255, 255, 255), 0.84))
            d.rectangle((x + 1, ry, x + 6, ry + row_h - 1), fill=mark)
        elif i:
            d.line((x + 56, ry, x + w - 14, ry), fill=st.STRIPE, width=2)
        if p.seed is not None:
            r = 17
            d.ellipse((x + 30 - r, cy - r, x + 30 + r, cy + r), fill=mark if mark is not None else st.STRIPE)
            cv.text((x + 30, cy), str(p.seed), seed_font, (255, 255, 255) if is_winner else st.MUTED, "mm", "seed")
        tx = x + 56
        avail = w - 56 - 16
        if p.table_points is not None:  # the table is reported: each player's table points, right-aligned
            points = words.number(p.table_points)
            pbox = cv.text((x + w - 18, cy), points, seed_font if not final else st.font("bold", 23),
                           mark if mark is not None else st.MUTED, "rm", "points")  # fmt: skip
            avail = pbox[0] - 12 - tx
        note = ""
        note_colour = st.MUTED
        if p.declined:
            note, note_colour = words.label("declined"), REPLACEMENT
        elif p.replaces:
            note, note_colour = f"↺ {words.label('replaces')} {p.replaces}", REPLACEMENT
        elif p.club:
            note = p.club
        fnt = struck_font if p.declined else name_font
        colour = st.MUTED if p.declined else st.INK
        name = st.fit_text(p.name, fnt, avail)
        if note:
            box = cv.text((tx, cy - 13), name, fnt, colour, "lm", "name")
            cv.text((tx, cy + 16), st.fit_text(note, small, avail), small, note_colour, "lm", "note")
        else:
            box = cv.text((tx, cy), name, fnt, colour, "lm", "name")
        if p.declined:
            mid = (box[1] + box[3]) // 2
            d.line((box[0] - 2, mid, box[2] + 2, mid), fill=REPLACEMENT, width=2)
    return rows


def _champion(cv: st.Canvas, name: str, x: int, y: int, w: int, words: Words) -> None:
    d = cv.draw
    cx = x + w // 2
    _cup(d, cx - w // 2 + 34, y + 40)
    label_font = st.font("bold", 21)
    size = 32
    while size > 24 and st.text_width(name, st.font("bold", size)) > w - 70:
        size -= 1
    name_font = st.font("bold", size)
    cv.text((x + 66, y + 24), words.label("champion").upper(), label_font, WIN, "lm", "champion")
    cv.text((x + 66, y + 58), st.fit_text(name, name_font, w - 70), name_font, st.INK, "lm", "champion")


def _cup(d: ImageDraw.ImageDraw, cx: int, cy: int) -> None:
    """A small trophy drawn with shapes (no emoji font needed)."""
    d.pieslice((cx - 18, cy - 30, cx + 18, cy + 10), 0, 180, fill=WIN)
    d.rectangle((cx - 18, cy - 12, cx + 18, cy - 10), fill=WIN)
    d.arc((cx - 28, cy - 10, cx - 10, cy + 6), 90, 270, fill=WIN, width=4)
    d.arc((cx + 10, cy - 10, cx + 28, cy + 6), 270, 90, fill=WIN, width=4)
    d.rectangle((cx - 4, cy + 10, cx + 4, cy + 20), fill=WIN)
    d.rounded_rectangle((cx - 14, cy + 20, cx + 14, cy + 28), radius=3, fill=WIN)


def render_bracket(data: BracketData, *, words: Words, width: int = WIDTH) -> bytes:
    """The final phase as one PNG, however long (BOT-IMG-1, TOUR-FIN-1 replacements marked); the bot posts
    :func:`render_bracket_pages`."""
    return st.png_bytes(layout_bracket(data, words=words, width=width).image)


def render_bracket_pages(data: BracketData, *, words: Words, width: int = WIDTH) -> list[bytes]:
    """The final phase split into pages by the phone rule (BOT-IMG-1)."""
    return [st.png_bytes(cv.image) for cv in layout_bracket_pages(data, words=words, width=width)]
