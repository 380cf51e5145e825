"""Final-phase bracket (TOUR-SF-1, TOUR-FIN-1, BOT-IMG-1), laid out for a phone: the final (and the champion) on
top, then the direct finalists and the semifinal tables, one card across; each finalist's semifinal row is marked
in the colour of how they went through (gold: won, orange: replaced a winner who declined); declined winners are
struck through and their replacements named. Long brackets split into pages (``renderer.pages``).

The numbers beside the names are explained by a legend under the cards (issue 44): the circled number is the seed
(the player's place in the qualifying standings), the number at the right the table points; once the final is
played its card shows the final's places instead of the seeds — a square badge, gold for the winner — so no "1"
stands beside a player who lost it."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw, ImageFont

from renderer import _style as st
from renderer import pages as pg
from renderer.models import BracketData, BracketPlayer, Words

WIN: st.Colour = (212, 160, 23)
REPLACEMENT: st.Colour = (204, 82, 0)
SF_HEAD: st.Colour = (36, 76, 110)
FINAL_HEAD: st.Colour = (28, 45, 74)


SILVER: st.Colour = (150, 160, 174)
BRONZE: st.Colour = (184, 115, 51)
MEDALS: dict[int, st.Colour] = {1: WIN, 2: SILVER, 3: BRONZE}

WIDTH = 640  # phone first: one card across, 11 px text once shown 340 px wide (renderer.pages)
PAD, GAP, HEAD_H, ROW_H, CHAMPION_H = 24, 22, 56, 62, 100
LEGEND_ROW = 36  # one line of the legend under the cards


@dataclass(frozen=True, slots=True)
class _Block:
    """One card of the bracket (the final comes first, with the champion above it once there is one)."""

    title: str
    players: tuple[BracketPlayer, ...]
    marks: dict[int, st.Colour]
    final: bool
    champion: str | None = None
    places: dict[int, int] | None = None  # a played final: each player's place (by index), shown for the seed

    @property
    def height(self) -> int:
        return (CHAMPION_H if self.champion else 0) + HEAD_H + ROW_H * len(self.players) + 12


def bracket_blocks(data: BracketData, words: Words) -> list[_Block]:
    """The bracket's cards in order: the final (with its champion and, once played, its places), the direct
    finalists, each semifinal."""
    advancing = {p.name: (REPLACEMENT if p.replaces else WIN) for p in data.final.players}
    winner = data.final.winner
    champion = None if winner is None else data.final.players[winner].name
    blocks = [_Block(words.label("final"), data.final.players, {} if winner is None else {winner: WIN}, True, champion,
                     final_places(data.final.players, winner))]  # fmt: skip
    left: list[tuple[str, tuple[BracketPlayer, ...]]] = []
    if data.direct_finalists:
        left.append((words.label("direct"), data.direct_finalists))
    for table in data.semifinals:
        left.append((f"{words.label('semifinal')} {table.number}", table.players))
    for title, players in left:
        marks = {i: advancing[p.name] for i, p in enumerate(players) if p.name in advancing}
        blocks.append(_Block(title, players, marks, False))
    return blocks


def final_places(players: tuple[BracketPlayer, ...], winner: int | None) -> dict[int, int] | None:
    """The final's places once it is played (by index): the places given, else the winner's 1 alone (a player whose
    place is not known shows none); None while the final is to be played (the seeds are shown then)."""
    given = {i: p.place for i, p in enumerate(players) if p.place is not None}
    if given:
        return given
    return None if winner is None else {winner: 1}


def legend_items(blocks: list[_Block]) -> list[str]:
    """What the legend under these cards explains, in order: ``seed`` (a circled number is shown), ``points``
    (table points are), ``place`` (a played final's places are)."""
    items = []
    if any(p.seed is not None for b in blocks if b.places is None for p in b.players):
        items.append("seed")
    if any(p.table_points is not None for b in blocks for p in b.players):
        items.append("points")
    if any(b.places for b in blocks):
        items.append("place")
    return items


def _legend_height(items: list[str]) -> int:
    return LEGEND_ROW * len(items) + (GAP // 2 if items else 0)


def _subtitle(data: BracketData, words: Words, page: tuple[int, int] | None) -> str:
    text = f"{words.label('bracket')} · {words.date(data.date)}"
    if page is not None and page[1] > 1:
        text += f" · {words.label('page')} {page[0]}/{page[1]}"
    return text


def bracket_pages(data: BracketData, *, words: Words, width: int = WIDTH) -> list[range]:
    """The bracket's cards (the final first, then the direct finalists and the semifinals) split into pages by the
    phone rule (:mod:`renderer.pages`)."""
    blocks = bracket_blocks(data, words)
    fixed = (
        st.header_height(_subtitle(data, words, (99, 99)), width, PAD)
        + 2 * PAD
        + 30
        + _legend_height(legend_items(blocks))
    )  # the most lines a page's legend can have: those of the whole bracket
    heights = [b.height for b in blocks]
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
    blocks = bracket_blocks(data, words)
    shown = [blocks[i] for i in (cards if cards is not None else range(len(blocks)))]
    subtitle = _subtitle(data, words, page)
    header_h = st.header_height(subtitle, width, PAD)
    body_h = sum(b.height for b in shown) + GAP * max(len(shown) - 1, 0)
    items = legend_items(shown)
    height = header_h + PAD + body_h + _legend_height(items) + PAD + 30
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
                    FINAL_HEAD if block.final else SF_HEAD, words, final=block.final, places=block.places)  # fmt: skip
        y += h + GAP
    _legend(cv, items, PAD, y - GAP + GAP // 2, words)
    return cv


def layout_bracket_pages(data: BracketData, *, words: Words, width: int = WIDTH) -> list[st.Canvas]:
    """The final phase drawn page by page (:func:`bracket_pages` splits it by the phone rule): the canvases, with
    their recorded text boxes, for encoding or inspection."""
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
    places: dict[int, int] | None = None,
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
        if mark is not None:
            d.rectangle((x + 1, ry, x + w - 1, ry + row_h - 1), fill=st.mix(mark, (255, 255, 255), 0.84))
            d.rectangle((x + 1, ry, x + 6, ry + row_h - 1), fill=mark)
        elif i:
            d.line((x + 56, ry, x + w - 14, ry), fill=st.STRIPE, width=2)
        if places is not None:  # a played final: its places, never the seeds (a "1" beside who lost it)
            if i in places:
                _place_badge(cv, x + 30, cy, places[i], seed_font)
        elif p.seed is not None:
            _seed_circle(cv, x + 30, cy, p.seed, mark, seed_font)
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


def _seed_circle(cv: st.Canvas, cx: int, cy: int, seed: int, mark: st.Colour | None, fnt: ImageFont.FreeTypeFont,
                 group: str = "seed") -> st.Box:  # fmt: skip
    """A seed: the player's place in the qualifying standings, in a circle (ringed in the row's mark colour): never
    filled in a colour, which is the final's places' (:func:`_place_badge`)."""
    r = 17
    if mark is None:
        cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=st.STRIPE)
    else:
        cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=mark, width=3)
    cv.text((cx, cy), str(seed), fnt, st.INK if mark is not None else st.MUTED, "mm", group)
    return (cx - r, cy - r, cx + r, cy + r)


def _place_badge(
    cv: st.Canvas, cx: int, cy: int, place: int, fnt: ImageFont.FreeTypeFont, group: str = "place"
) -> st.Box:
    """A place in the played final: a square badge, gold, silver and bronze for the first three."""
    r = 17
    colour = MEDALS.get(place)
    cv.draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=6, fill=colour or st.STRIPE)
    cv.text((cx, cy), str(place), fnt, (255, 255, 255) if colour else st.MUTED, "mm", group)
    return (cx - r, cy - r, cx + r, cy + r)


def _legend(cv: st.Canvas, items: list[str], x: int, y: int, words: Words) -> None:
    """What the numbers mean, one line each: a sample of the number as the cards draw it, then its meaning."""
    fnt = st.font("regular", 21)
    sample = st.font("bold", 21)
    room = cv.image.width - 2 * x - 56
    for k, item in enumerate(items):
        cy = y + k * LEGEND_ROW + LEGEND_ROW // 2
        if item == "seed":
            _seed_circle(cv, x + 30, cy, 7, None, sample, "legend-sample")
        elif item == "place":
            _place_badge(cv, x + 30, cy, 1, sample, "legend-sample")
        else:
            cv.text((x + 30, cy), words.number(42), sample, st.MUTED, "mm", "legend-sample")
        cv.text((x + 56, cy), st.fit_text("= " + words.label(f"legend_{item}"), fnt, room), fnt, st.MUTED, "lm",
                "legend")  # fmt: skip


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
