"""Final-phase bracket (TOUR-SF-1, TOUR-FIN-1, BOT-IMG-1): semifinal tables on the left, the final on the right,
connectors from each finalist's semifinal seat to their final seat; declined winners struck through and their
replacements marked."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw

from renderer import _style as st
from renderer.models import BracketData, BracketPlayer, Words

WIN: st.Colour = (212, 160, 23)
REPLACEMENT: st.Colour = (204, 82, 0)
SF_HEAD: st.Colour = (36, 76, 110)
FINAL_HEAD: st.Colour = (28, 45, 74)


@dataclass(frozen=True, slots=True)
class _Anchor:
    x: int
    y: int


def layout_bracket(data: BracketData, *, words: Words, width: int = 1100) -> st.Canvas:
    pad, header_h, gap = 28, 118, 22
    head_h, row_h = 54, 52
    left_w = (width - 2 * pad) * 43 // 100
    final_w = (width - 2 * pad) * 40 // 100
    final_x = width - pad - final_w

    left_cards: list[tuple[str, tuple[BracketPlayer, ...]]] = []
    if data.direct_finalists:
        left_cards.append((words.label("direct"), data.direct_finalists))
    for table in data.semifinals:
        left_cards.append((f"{words.label('semifinal')} {table.number}", table.players))
    heights = [head_h + row_h * len(players) + 12 for _, players in left_cards]
    left_total = sum(heights) + gap * max(len(heights) - 1, 0)
    final_h = head_h + row_h * len(data.final.players) + 12
    champion_h = 96 if data.final.winner is not None else 0
    body_h = max(left_total, final_h + champion_h)
    height = header_h + pad + body_h + pad + 30
    cv = st.Canvas.new(width, height)
    st.header_band(cv, data.tournament, f"{words.label('bracket')} · {words.date(data.date)}",
                   header_h, pad)  # fmt: skip

    # left column: where each player sits, so connectors can start at their row
    seat_of: dict[str, _Anchor] = {}
    advancing = {p.name: (REPLACEMENT if p.replaces else WIN) for p in data.final.players}
    y = header_h + pad + (body_h - left_total) // 2
    for (title, players), h in zip(left_cards, heights, strict=True):
        marks = {i: advancing[p.name] for i, p in enumerate(players) if p.name in advancing}
        rows = _table_card(cv, title, players, marks, pad, y, left_w, h, head_h, row_h, SF_HEAD, words, final=False)
        for player, row_y in zip(players, rows, strict=True):
            seat_of.setdefault(player.name, _Anchor(pad + left_w, row_y))
        y += h + gap

    fy = header_h + pad + champion_h + (body_h - champion_h - final_h) // 2
    if data.final.winner is not None:
        _champion(cv, data.final.players[data.final.winner].name, final_x, fy - champion_h, final_w, words)
    final_marks = {} if data.final.winner is None else {data.final.winner: WIN}
    final_rows = _table_card(cv, f"{words.label('final')}", data.final.players, final_marks, final_x, fy,
                             final_w, final_h, head_h, row_h, FINAL_HEAD, words, final=True)  # fmt: skip

    # connectors: elbow lines with a trunk per finalist, evenly spaced in the gutter
    gutter_l, gutter_r = pad + left_w, final_x
    links = [
        (seat_of[p.name], ry, p.replaces is not None)
        for p, ry in zip(data.final.players, final_rows, strict=True)
        if p.name in seat_of
    ]
    for i, (start, end_y, replaced) in enumerate(links):
        trunk = gutter_l + (gutter_r - gutter_l) * (i + 1) // (len(links) + 1)
        colour = REPLACEMENT if replaced else st.FAINT
        if abs(start.y - end_y) < 8:
            end_y = start.y
        pts = [(start.x, start.y), (trunk, start.y), (trunk, end_y), (gutter_r, end_y)]
        cv.draw.line(pts, fill=colour, width=3, joint="curve")
        cv.draw.ellipse((start.x - 5, start.y - 5, start.x + 5, start.y + 5), fill=colour)
        cv.draw.polygon([(gutter_r, end_y), (gutter_r - 10, end_y - 6), (gutter_r - 10, end_y + 6)], fill=colour)
    return cv


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
    cv.text((x + 18, y + head_h / 2), title, st.font("bold", 25), (255, 255, 255), "lm", "card")
    if not marks:
        tag_font = st.font("regular", 17)
        cv.text((x + w - 16, y + head_h / 2), words.label("to_be_played"), tag_font, st.HEADER_SUB, "rm", "card")

    name_font = st.font("cond-bold", 24)
    struck_font = st.font("cond", 24)
    small = st.font("cond", 18)
    seed_font = st.font("bold", 16)
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
            r = 16
            d.ellipse((x + 30 - r, cy - r, x + 30 + r, cy + r), fill=mark if mark is not None else st.STRIPE)
            cv.text((x + 30, cy), str(p.seed), seed_font, (255, 255, 255) if is_winner else st.MUTED, "mm", "seed")
        tx = x + 56
        avail = w - 56 - 16
        if p.table_points is not None:  # the table is reported: each player's table points, right-aligned
            points = words.number(p.table_points)
            pbox = cv.text((x + w - 18, cy), points, seed_font if not final else st.font("bold", 20),
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
            box = cv.text((tx, cy - 11), name, fnt, colour, "lm", "name")
            cv.text((tx, cy + 15), st.fit_text(note, small, avail), small, note_colour, "lm", "note")
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
    label_font = st.font("bold", 17)
    size = 30
    while size > 18 and st.text_width(name, st.font("bold", size)) > w - 70:
        size -= 1
    name_font = st.font("bold", size)
    cv.text((x + 66, y + 22), words.label("champion").upper(), label_font, WIN, "lm", "champion")
    cv.text((x + 66, y + 52), st.fit_text(name, name_font, w - 70), name_font, st.INK, "lm", "champion")


def _cup(d: ImageDraw.ImageDraw, cx: int, cy: int) -> None:
    """A small trophy drawn with shapes (no emoji font needed)."""
    d.pieslice((cx - 18, cy - 30, cx + 18, cy + 10), 0, 180, fill=WIN)
    d.rectangle((cx - 18, cy - 12, cx + 18, cy - 10), fill=WIN)
    d.arc((cx - 28, cy - 10, cx - 10, cy + 6), 90, 270, fill=WIN, width=4)
    d.arc((cx + 10, cy - 10, cx + 28, cy + 6), 270, 90, fill=WIN, width=4)
    d.rectangle((cx - 4, cy + 10, cx + 4, cy + 20), fill=WIN)
    d.rounded_rectangle((cx - 14, cy + 20, cx + 14, cy + 28), radius=3, fill=WIN)


def render_bracket(data: BracketData, *, words: Words, width: int = 1100) -> bytes:
    """Semifinals → final as one PNG (BOT-IMG-1, TOUR-FIN-1 replacements marked)."""
    return st.png_bytes(layout_bracket(data, words=words, width=width).image)
