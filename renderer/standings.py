"""Standings image (BOT-STD-1, BOT-IMG-1): rank, movement since the previous round, name, club or team, points,
games, tie-break; long fields split into pages that each stay far below Discord's attachment limit.

With discards (a club championship, issue 47) the rows carry their rounds: each row gets a strip under its line
with one small column per round (the points, or the "absent" mark), the discarded ones struck through in a lighter
colour; eight rounds fit one strip at the phone width, more wrap onto a second strip. Without rounds the image is
drawn exactly as before."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import ImageFont

from renderer import _style as st
from renderer import pages as pg
from renderer.models import StandingRow, StandingsData, Words

LEGEND_H = 40
LEGEND_LINE = 28
LEGEND_FONT = ("regular", 21)
WIDTH = 640  # phone first: 11 px text once shown 340 px wide (renderer.pages)
PAD, COLHEAD_H, ROW_H = 20, 46, 64
GAP = 10  # between columns
MEDALS: dict[int, st.Colour] = {1: (212, 160, 23), 2: (150, 160, 172), 3: (184, 115, 51)}
ROUND_H = 32  # one strip of round results under a row (and of round labels under the column heads)
ROUND_FONT = ("cond", 21)  # the phone rule's smallest size at WIDTH (11 px once shown 340 px wide)
ROUND_CELL_MIN, ROUND_CELL_MAX, ROUND_CELL_PAD = 48, 72, 12
STRIKE: st.Colour = st.MUTED  # the line through a discarded result (its digits are FAINT)


@dataclass(frozen=True, slots=True)
class _Column:
    key: str
    width: int
    align: str  # "l", "r" or "m"


@dataclass(frozen=True, slots=True)
class _Rounds:
    """Where the round results go: ``numbers`` in column order, ``per_line`` cells of ``cell`` px on each of
    ``lines`` strips starting at ``x``."""

    numbers: tuple[int, ...] = ()
    per_line: int = 0
    lines: int = 0
    cell: float = 0.0
    x: int = 0

    def place(self, index: int) -> tuple[float, int]:
        """The centre x of the ``index``-th round's cell and the strip it is on."""
        line, col = divmod(index, self.per_line)
        return self.x + self.cell * (col + 0.5), line


def _round_text(points: float | None, words: Words) -> str:
    """A round's points with the decimals they have (87, 92,5), or the "absent" mark."""
    return words.label("absent_short") if points is None else words.number(points, None)


def _round_layout(data: StandingsData, words: Words, x0: int, x1: int) -> _Rounds:
    """The round strips between ``x0`` and ``x1``: as many cells on a strip as the widest result allows (never
    below the phone rule's font), the rounds split evenly over the strips (9 rounds: 5 + 4, not 8 + 1)."""
    numbers = tuple(sorted({r.round for row in data.rows for r in row.rounds}))
    if not numbers:
        return _Rounds()
    fnt, head = st.font(*ROUND_FONT), st.font("cond-bold", 21)
    texts = {_round_text(r.points, words) for row in data.rows for r in row.rounds}
    widest = max([st.text_width(t, fnt) for t in texts] + [st.text_width(_round_label(n, words), head)
                                                           for n in numbers])  # fmt: skip
    need = max(ROUND_CELL_MIN, math.ceil(widest) + ROUND_CELL_PAD)
    fits = max(1, min(len(numbers), (x1 - x0) // need))
    lines = math.ceil(len(numbers) / fits)
    per_line = math.ceil(len(numbers) / lines)
    cell = max(float(need), min((x1 - x0) / per_line, ROUND_CELL_MAX))
    return _Rounds(numbers, per_line, lines, cell, x0)


def _round_label(number: int, words: Words) -> str:
    return f"{words.label('round_short')}{number}"


def _strips(data: StandingsData) -> bool:
    return any(row.rounds for row in data.rows)


def _round_lines(data: StandingsData, words: Words, width: int) -> int:
    """How many strips of round results each row has (0 without rounds)."""
    if not _strips(data):
        return 0
    x0, x1 = _strip_span(data, words, width)
    return _round_layout(data, words, x0, x1).lines


def _strip_span(data: StandingsData, words: Words, width: int) -> tuple[int, int]:
    """The strips run under the name and the number columns: from the name's left edge to the right margin."""
    columns, xs = _columns(data, words, width)
    name = next(i for i, c in enumerate(columns) if c.key == "name")
    return xs[name], width - PAD - 8


def _subtitle(data: StandingsData, words: Words, page: tuple[int, int]) -> str:
    if data.title:
        subtitle = f"{data.title} · "
    else:
        subtitle = f"{words.label('standings')} {words.label('after_round')} {data.round} · "
    subtitle += words.date(data.date)
    if page[1] > 1:
        subtitle += f" · {words.label('page')} {page[0]}/{page[1]}"
    return subtitle


def _legend_lines(data: StandingsData, width: int) -> list[str]:
    if not data.legend:
        return []
    lines = 5 if _strips(data) else 3  # with rounds the legend also says what the struck-through ones are
    return st.wrap_text(data.legend, st.font(*LEGEND_FONT), width - 2 * PAD - 16, max_lines=lines)


def _footer_height(data: StandingsData, width: int) -> int:
    lines = _legend_lines(data, width)
    return 22 + (LEGEND_H + LEGEND_LINE * (len(lines) - 1) if lines else 0)


def standings_pages(data: StandingsData, *, words: Words, width: int = WIDTH) -> list[range]:
    """The rows split into pages by the phone rule (:mod:`renderer.pages`)."""
    strip = ROUND_H * _round_lines(data, words, width)
    fixed = st.header_height(_subtitle(data, words, (99, 99)), width, PAD) + 8 + COLHEAD_H + strip
    fixed += _footer_height(data, width)
    row_h = ROW_H + strip + (4 if strip else 0)
    return pg.split_pages([row_h] * len(data.rows), budget=pg.page_height_budget(width), fixed=fixed + PAD)


def _columns(data: StandingsData, words: Words, width: int) -> tuple[list[_Column], list[int]]:
    """The columns of a row's line and their left edges."""
    rows = data.rows
    show_move = any(r.previous_rank is not None for r in rows) and data.round > 1
    show_tb = any(r.tiebreak is not None for r in rows)
    num_font, small_font = st.font("bold", 23), st.font("bold", 21)
    widest_rank = max((st.text_width(str(r.rank), num_font) for r in rows), default=0.0)
    fixed = [_Column("rank", max(50, int(widest_rank) + 2), "r")]
    if show_move:  # wide enough for "new" and the biggest move: arrow, gap, digits
        moves = [abs(r.previous_rank - r.rank) for r in rows if r.previous_rank is not None]
        move_w = max(st.text_width(words.label("new"), small_font), 25 + st.text_width(str(max(moves, default=0)),
                                                                                     small_font))  # fmt: skip
        fixed.append(_Column("move", max(64, int(move_w) + 2), "m"))
    pts_dec = st.decimals_needed([r.points for r in rows])  # a championship's totals (514,5) need more than 72 px
    widest_points = max((st.text_width(words.number(r.points, pts_dec), num_font) for r in rows), default=0.0)
    tail = [_Column("points", max(72, int(widest_points) + 2), "r"), _Column("games", 34, "r")]
    if show_tb:
        tbs = [r.tiebreak for r in rows if r.tiebreak is not None]
        tb_dec = st.decimals_needed(tbs)
        widest_tb = max((st.text_width(words.number(v, tb_dec), st.font("regular", 23)) for v in tbs), default=0.0)
        tail.append(_Column("tiebreak", max(60, int(widest_tb) + 2), "r"))
    # name and club share one column: the name in bold, the club (or team) in grey underneath — readable on a phone
    name_w = width - 2 * PAD - 16 - sum(c.width for c in fixed + tail) - GAP * (len(fixed) + len(tail))
    columns = [*fixed, _Column("name", name_w, "l"), *tail]
    xs: list[int] = []
    x = PAD + 8
    for col in columns:
        xs.append(x)
        x += col.width + GAP
    return columns, xs


def layout_standings(
    data: StandingsData, *, words: Words, rows_per_page: int | None = None, width: int = WIDTH
) -> list[st.Canvas]:
    """Draw every page (by the phone rule, or ``rows_per_page`` rows each when given); returns the canvases (with
    their recorded text boxes) for encoding or inspection."""
    if rows_per_page is not None and rows_per_page < 1:
        raise ValueError(f"rows_per_page must be at least 1, got {rows_per_page}")
    rows = list(data.rows)
    if rows_per_page is None:
        pages = [rows[r.start : r.stop] for r in standings_pages(data, words=words, width=width)]
    else:
        pages = [rows[i : i + rows_per_page] for i in range(0, len(rows), rows_per_page)] or [[]]

    group_key = "team" if data.has_teams else "club"
    show_group = any((r.team or r.club) if data.has_teams else r.club for r in rows)
    pts_dec = st.decimals_needed([r.points for r in rows])
    tb_dec = st.decimals_needed([r.tiebreak for r in rows if r.tiebreak is not None])

    columns, xs = _columns(data, words, width)
    gap = GAP
    rounds = _round_layout(data, words, *_strip_span(data, words, width)) if _strips(data) else _Rounds()
    strip = ROUND_H * rounds.lines
    pad, colhead_h, row_h = PAD, COLHEAD_H + strip, ROW_H + strip + (4 if strip else 0)
    footer_h = _footer_height(data, width)
    body_font = st.font("regular", 23)
    name_font = st.font("cond-bold", 25)
    group_font = st.font("cond", 21)
    num_font = st.font("bold", 23)
    small_font = st.font("bold", 21)
    head_font = st.font("cond-bold", 21)
    round_font = st.font(*ROUND_FONT)

    canvases = []
    for page_no, page in enumerate(pages, start=1):
        subtitle = _subtitle(data, words, (page_no, len(pages)))
        header_h = st.header_height(subtitle, width, pad)
        height = header_h + 8 + colhead_h + row_h * max(len(page), 1) + footer_h + pad
        cv = st.Canvas.new(width, height)
        st.header_band(cv, data.tournament, subtitle, header_h, pad)

        y0 = header_h + 8
        cy = y0 + COLHEAD_H // 2
        for col, cx in zip(columns, xs, strict=True):
            if col.key == "move":
                continue
            text = words.label(col.key).upper()
            if col.key == "tiebreak" and data.tiebreak_label:
                text = data.tiebreak_label.upper()
            if col.key == "points" and data.points_label:
                text = data.points_label.upper()
            if col.key == "name" and show_group:
                text += " · " + words.label(group_key).upper()
            _cell_text(cv, text, head_font, st.MUTED, col, cx, cy, "colhead", spill=gap)
        for i, number in enumerate(rounds.numbers):  # "R1 … R8" over the strips' cells
            x, line = rounds.place(i)
            ly = y0 + COLHEAD_H - 8 + line * ROUND_H + ROUND_H // 2
            cv.text((x, ly), _round_label(number, words), head_font, st.MUTED, "mm", "colhead")
        cv.draw.line((pad, y0 + colhead_h - 2, width - pad, y0 + colhead_h - 2), fill=st.RULE, width=2)

        top = y0 + colhead_h
        for i, row in enumerate(page):
            ry = top + i * row_h
            if i % 2 == 1:
                cv.draw.rectangle((pad, ry, width - pad, ry + row_h - 1), fill=st.STRIPE)
            cy = ry + ROW_H // 2
            for col, cx in zip(columns, xs, strict=True):
                _draw_cell(cv, row, col, cx, cy, words, data.has_teams, pts_dec, tb_dec,
                           body_font, name_font, group_font, num_font, small_font, bool(rounds.lines))  # fmt: skip
            if rounds.lines:
                _draw_rounds(cv, row, rounds, ry + ROW_H - 4, words, round_font)
        legend_font = st.font(*LEGEND_FONT)
        ly = top + row_h * max(len(page), 1) + 10 + LEGEND_H // 2
        boxes = [cv.text((pad + 8, ly + i * LEGEND_LINE), line, legend_font, st.MUTED, "lm", record=False)
                 for i, line in enumerate(_legend_lines(data, width))]  # fmt: skip
        if boxes:
            cv.record(data.legend or "", boxes, "legend", float(legend_font.size))
        canvases.append(cv)
    return canvases


def _cell_text(
    cv: st.Canvas,
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: st.Colour,
    col: _Column,
    x: int,
    cy: int,
    group: str,
    spill: int = 0,
) -> None:
    """``text`` in its column, shortened to fit; a right-aligned one may ``spill`` into the gap on its left."""
    text = st.fit_text(text, fnt, col.width + (spill if col.align == "r" else 0))
    if col.align == "r":
        cv.text((x + col.width, cy), text, fnt, fill, "rm", group)
    elif col.align == "m":
        cv.text((x + col.width / 2, cy), text, fnt, fill, "mm", group)
    else:
        cv.text((x, cy), text, fnt, fill, "lm", group)


def _draw_cell(
    cv: st.Canvas,
    row: StandingRow,
    col: _Column,
    x: int,
    cy: int,
    words: Words,
    has_teams: bool,
    pts_dec: int,
    tb_dec: int,
    body_font: ImageFont.FreeTypeFont,
    name_font: ImageFont.FreeTypeFont,
    group_font: ImageFont.FreeTypeFont,
    num_font: ImageFont.FreeTypeFont,
    small_font: ImageFont.FreeTypeFont,
    strips: bool = False,
) -> None:
    """One cell of a row's line; with round strips under it (``strips``) the name keeps to the line's upper half
    even without a club, so the strip follows it closely."""
    key = col.key
    if key == "rank":
        medal = MEDALS.get(row.rank)
        if medal is not None:
            r = 16
            cx = x + col.width - r - 2
            cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=medal)
            cv.text((cx, cy), str(row.rank), num_font, (255, 255, 255), "mm", "rank")
        else:
            _cell_text(cv, str(row.rank), num_font, st.INK, col, x, cy, "rank")
    elif key == "move":
        _draw_movement(cv, row, x, col.width, cy, words, small_font)
    elif key == "name":
        group = (row.team or row.club) if has_teams else row.club
        if row.note:  # where the place was decided, then the club: one grey line under the name
            group = f"{row.note} · {group}" if group else row.note
        if group:
            _cell_text(cv, row.name, name_font, st.INK, col, x, cy - 13, "name")
            _cell_text(cv, group, group_font, st.MUTED, col, x, cy + 16, "group")
        else:
            _cell_text(cv, row.name, name_font, st.INK, col, x, cy - 13 if strips else cy, "name")
    elif key == "points":
        _cell_text(cv, words.number(row.points, pts_dec), num_font, st.HEADER, col, x, cy, "points")
    elif key == "games":
        _cell_text(cv, str(row.games), body_font, st.INK, col, x, cy, "games")
    elif key == "tiebreak" and row.tiebreak is not None:
        _cell_text(cv, words.number(row.tiebreak, tb_dec), body_font, st.MUTED, col, x, cy, "tiebreak")


def _draw_rounds(
    cv: st.Canvas, row: StandingRow, rounds: _Rounds, top: int, words: Words, fnt: ImageFont.FreeTypeFont
) -> None:
    """A row's round results on its strips: counted in ink; discarded in a lighter grey with a line through
    (recorded as ``round_discarded``, so a test finds the struck cells); an absence is the "absent" mark."""
    results = {r.round: r for r in row.rounds}
    for i, number in enumerate(rounds.numbers):
        result = results.get(number)
        if result is None:
            continue
        x, line = rounds.place(i)
        cy = top + line * ROUND_H + ROUND_H // 2
        text = _round_text(result.points, words)
        if result.counted:
            cv.text((x, cy), text, fnt, st.INK if result.points is not None else st.MUTED, "mm", "round")
            continue
        box = cv.text((x, cy), text, fnt, st.FAINT, "mm", "round_discarded")
        mid = (box[1] + box[3]) // 2
        cv.draw.line((box[0] - 3, mid, box[2] + 3, mid), fill=STRIKE, width=2)


def _draw_movement(
    cv: st.Canvas, row: StandingRow, x: int, width: int, cy: int, words: Words, fnt: ImageFont.FreeTypeFont
) -> None:
    """▲n (blue) / ▼n (vermillion) / a dash; "new" for a player without a previous rank. Shapes, not only hue."""
    if row.previous_rank is None:
        text = words.label("new")
        cv.text((x + width / 2, cy), text, fnt, st.GOOD, "mm", "move")
        return
    delta = row.previous_rank - row.rank
    if delta == 0:
        cv.draw.line((x + width / 2 - 8, cy, x + width / 2 + 8, cy), fill=st.FAINT, width=3)
        return
    colour = st.UP if delta > 0 else st.DOWN
    tx = x + 12
    s = 8
    if delta > 0:
        cv.draw.polygon([(tx - s, cy + s * 0.7), (tx + s, cy + s * 0.7), (tx, cy - s * 0.9)], fill=colour)
    else:
        cv.draw.polygon([(tx - s, cy - s * 0.7), (tx + s, cy - s * 0.7), (tx, cy + s * 0.9)], fill=colour)
    cv.text((tx + s + 5, cy), str(abs(delta)), fnt, colour, "lm", "move")


def render_standings(
    data: StandingsData, *, words: Words, rows_per_page: int | None = None, width: int = WIDTH
) -> list[bytes]:
    """Standings as PNG pages (one ``bytes`` per page; by the phone rule, or ``rows_per_page`` rows each when
    given) — BOT-IMG-1, BOT-STD-1."""
    return [st.png_bytes(cv.image) for cv in layout_standings(data, words=words, rows_per_page=rows_per_page,
                                                                width=width)]  # fmt: skip
