"""Standings image (BOT-STD-1, BOT-IMG-1): rank, movement since the previous round, name, club or team, points,
games, tie-break; long fields split into pages that each stay far below Discord's attachment limit."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageFont

from renderer import _style as st
from renderer.models import StandingRow, StandingsData, Words

DEFAULT_ROWS_PER_PAGE = 30
LEGEND_H = 34
MEDALS: dict[int, st.Colour] = {1: (212, 160, 23), 2: (150, 160, 172), 3: (184, 115, 51)}


@dataclass(frozen=True, slots=True)
class _Column:
    key: str
    width: int
    align: str  # "l", "r" or "m"


def layout_standings(
    data: StandingsData, *, words: Words, rows_per_page: int = DEFAULT_ROWS_PER_PAGE, width: int = 960
) -> list[st.Canvas]:
    """Draw every page; returns the canvases (with their recorded text boxes) for encoding or inspection."""
    if rows_per_page < 1:
        raise ValueError(f"rows_per_page must be at least 1, got {rows_per_page}")
    rows = list(data.rows)
    pages = [rows[i : i + rows_per_page] for i in range(0, len(rows), rows_per_page)] or [[]]

    show_move = any(r.previous_rank is not None for r in rows) and data.round > 1
    show_tb = any(r.tiebreak is not None for r in rows)
    group_key = "team" if data.has_teams else "club"
    show_group = any((r.team or r.club) if data.has_teams else r.club for r in rows)
    pts_dec = st.decimals_needed([r.points for r in rows])
    tb_dec = st.decimals_needed([r.tiebreak for r in rows if r.tiebreak is not None])

    pad, header_h, colhead_h, row_h = 28, 118, 46, 56
    footer_h = 22 + (LEGEND_H if data.legend else 0)
    body_font = st.font("regular", 22)
    name_font = st.font("cond-bold", 23)
    group_font = st.font("cond", 18)
    num_font = st.font("bold", 22)
    small_font = st.font("bold", 17)
    head_font = st.font("cond-bold", 17)

    fixed = [_Column("rank", 64, "r")]
    if show_move:
        fixed.append(_Column("move", 74, "m"))
    tail = [_Column("points", 104, "r"), _Column("games", 58, "r")]
    if show_tb:
        tail.append(_Column("tiebreak", 96, "r"))
    gap = 18
    # name and club share one column: the name in bold, the club (or team) in grey underneath — readable on a phone
    middle = [
        _Column("name", width - 2 * pad - 16 - sum(c.width for c in fixed + tail) - gap * (len(fixed) + len(tail)), "l")
    ]
    columns = fixed + middle + tail
    xs: list[int] = []
    x = pad + 8
    for col in columns:
        xs.append(x)
        x += col.width + gap

    canvases = []
    for page_no, page in enumerate(pages, start=1):
        height = header_h + colhead_h + row_h * max(len(page), 1) + footer_h + pad
        cv = st.Canvas.new(width, height)
        subtitle = f"{words.label('standings')} {words.label('after_round')} {data.round} · "
        subtitle += words.date(data.date)
        if len(pages) > 1:
            subtitle += f" · {words.label('page')} {page_no}/{len(pages)}"
        st.header_band(cv, data.tournament, subtitle, header_h, pad)

        y0 = header_h + 8
        cy = y0 + colhead_h // 2
        for col, cx in zip(columns, xs, strict=True):
            if col.key == "move":
                continue
            text = words.label(col.key).upper()
            if col.key == "tiebreak" and data.tiebreak_label:
                text = data.tiebreak_label.upper()
            if col.key == "name" and show_group:
                text += " · " + words.label(group_key).upper()
            _cell_text(cv, text, head_font, st.MUTED, col, cx, cy, "colhead")
        cv.draw.line((pad, y0 + colhead_h - 2, width - pad, y0 + colhead_h - 2), fill=st.RULE, width=2)

        top = y0 + colhead_h
        for i, row in enumerate(page):
            ry = top + i * row_h
            if i % 2 == 1:
                cv.draw.rectangle((pad, ry, width - pad, ry + row_h - 1), fill=st.STRIPE)
            cy = ry + row_h // 2
            for col, cx in zip(columns, xs, strict=True):
                _draw_cell(cv, row, col, cx, cy, words, data.has_teams, pts_dec, tb_dec,
                           body_font, name_font, group_font, num_font, small_font)  # fmt: skip
        if data.legend:
            legend_font = st.font("regular", 18)
            ly = top + row_h * max(len(page), 1) + 10 + LEGEND_H // 2
            cv.text((pad + 8, ly), st.fit_text(data.legend, legend_font, width - 2 * pad - 16), legend_font, st.MUTED,
                    "lm", "legend")  # fmt: skip
        canvases.append(cv)
    return canvases


def _cell_text(
    cv: st.Canvas, text: str, fnt: ImageFont.FreeTypeFont, fill: st.Colour, col: _Column, x: int, cy: int, group: str
) -> None:
    text = st.fit_text(text, fnt, col.width)
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
) -> None:
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
        if group:
            _cell_text(cv, row.name, name_font, st.INK, col, x, cy - 11, "name")
            _cell_text(cv, group, group_font, st.MUTED, col, x, cy + 15, "group")
        else:
            _cell_text(cv, row.name, name_font, st.INK, col, x, cy, "name")
    elif key == "points":
        _cell_text(cv, words.number(row.points, pts_dec), num_font, st.HEADER, col, x, cy, "points")
    elif key == "games":
        _cell_text(cv, str(row.games), body_font, st.INK, col, x, cy, "games")
    elif key == "tiebreak" and row.tiebreak is not None:
        _cell_text(cv, words.number(row.tiebreak, tb_dec), body_font, st.MUTED, col, x, cy, "tiebreak")


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
    tx = x + 20
    s = 8
    if delta > 0:
        cv.draw.polygon([(tx - s, cy + s * 0.7), (tx + s, cy + s * 0.7), (tx, cy - s * 0.9)], fill=colour)
    else:
        cv.draw.polygon([(tx - s, cy - s * 0.7), (tx + s, cy - s * 0.7), (tx, cy + s * 0.9)], fill=colour)
    cv.text((tx + s + 5, cy), str(abs(delta)), fnt, colour, "lm", "move")


def render_standings(
    data: StandingsData, *, words: Words, rows_per_page: int = DEFAULT_ROWS_PER_PAGE, width: int = 960
) -> list[bytes]:
    """Standings as PNG pages (one ``bytes`` per page, ``rows_per_page`` rows each) — BOT-IMG-1, BOT-STD-1."""
    return [st.png_bytes(cv.image) for cv in layout_standings(data, words=words, rows_per_page=rows_per_page,
                                                                width=width)]  # fmt: skip
