"""Ricochet Robots board (RR-COMP-1, RR-MOVE-1, RR-VAR-2, BOT-IMG-1): 16×16 grid with walls, the central block,
targets by colour and symbol, robots, the active target highlighted, diagonal walls, and a solution path drawn
move by move with numbers. Drawn at 2× and downsampled for smooth shapes.

Every text (title, move count, coordinates, robot letters, move numbers) is drawn at least at the size the phone
rule gives the image's width (:func:`renderer.pages.min_text_px`), so it reads 11 px shown 340 px wide; the
margins are as wide as the widest coordinate at that size needs."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.rules.ricochet.notation import column_label, row_label
from renderer import _style as st
from renderer import pages as pg
from renderer.models import BOARD_SIZE, RRBoardData, RRDiagonal, RRMove, RRTarget, Words

SS = 2  # supersampling factor
GROUT: st.Colour = (196, 188, 170)
CELL: st.Colour = (238, 233, 220)
WALL: st.Colour = (44, 42, 48)
BLOCK: st.Colour = (58, 62, 72)
VORTEX_RINGS = ("red", "green", "blue", "yellow")
# each robot keeps to its own lane, right of its travel direction, so overlapping moves stay readable: lanes are
# thinner (LINE) than the gap between two lanes, so two robots on one row never cover each other
LANE = {"red": 0.04, "green": 0.115, "blue": 0.19, "yellow": 0.265, "silver": 0.34, "black": 0.415}
LINE = 0.07  # path width, in cells
FRAME = 6  # px: the dark frame around the grid
LABEL_PAD = 3  # px: between a coordinate and the frame, and between it and the image's edge
BADGE = 0.62  # a move number's badge: its half-height, in font sizes


def _darker(c: st.Colour, t: float = 0.35) -> st.Colour:
    return st.mix(c, (0, 0, 0), t)


class _Geo:
    def __init__(self, cell: int, left: int, top: int) -> None:
        self.c, self.left, self.top = cell, left, top

    def corner(self, row: float, col: float) -> tuple[float, float]:
        return (self.left + col * self.c, self.top + row * self.c)

    def centre(self, row: float, col: float) -> tuple[float, float]:
        return (self.left + (col + 0.5) * self.c, self.top + (row + 0.5) * self.c)


def layout_rr_board(data: RRBoardData, *, words: Words, cell: int = 44) -> st.Canvas:
    """Draw at ``SS``× then downsample; text boxes are recorded in final pixels."""
    c = cell * SS
    margin, size = _margin(c)
    title = data.title
    if title is None and data.path:
        title = words.label("board")
    side = BOARD_SIZE * c
    width = side + 2 * margin
    heading = _heading(title, data, words, width, margin, size) if title is not None else None
    header = heading.height if heading is not None else 0
    height = side + 2 * margin + header
    cv = st.Canvas.new(width, height, background=st.PAPER)
    geo = _Geo(c, margin, margin + header)
    d = cv.draw

    if heading is not None:
        heading.draw(cv, margin)
    _coordinates(cv, geo, margin, size)
    # board base: grout, then slightly inset cells
    x0, y0 = geo.corner(0, 0)
    f = FRAME * SS
    d.rounded_rectangle((x0 - f, y0 - f, x0 + side + f, y0 + side + f), radius=8 * SS, fill=WALL)
    d.rectangle((x0, y0, x0 + side, y0 + side), fill=GROUT)
    inset = max(1, c // 22)
    for r in range(BOARD_SIZE):
        for col in range(BOARD_SIZE):
            cx, cy = geo.corner(r, col)
            d.rounded_rectangle((cx + inset, cy + inset, cx + c - inset, cy + c - inset), radius=c // 9, fill=CELL)

    active = data.active_target
    active_target = next((t for t in data.targets if (t.row, t.col) == active), None)
    if active is not None:
        hx, hy = geo.corner(*active)
        glow = st.ROBOT_RGB.get(active_target.colour, st.ACCENT) if active_target else st.ACCENT
        if active_target is not None and active_target.colour == "any":
            glow = st.ACCENT
        d.rounded_rectangle((hx + inset, hy + inset, hx + c - inset, hy + c - inset), radius=c // 9,
                            fill=st.mix(glow, (255, 255, 255), 0.6))  # fmt: skip

    for target in data.targets:
        if _in_block(target.row, target.col):
            continue
        _target(d, geo.centre(target.row, target.col), c * 0.3, target, muted=active is not None and
                (target.row, target.col) != active)  # fmt: skip

    _central_block(d, geo, c, active_target)
    for diag in data.diagonals:
        _diagonal(d, geo, c, diag)
    _walls(d, geo, c, data.cell_walls)
    if active is not None:
        hx, hy = geo.corner(*active)
        ring = (
            st.ACCENT if active_target is None or active_target.colour == "any" else st.ROBOT_RGB[active_target.colour]
        )
        d.rounded_rectangle((hx - 2 * SS, hy - 2 * SS, hx + c + 2 * SS, hy + c + 2 * SS), radius=c // 6,
                            outline=ring, width=4 * SS)  # fmt: skip

    if data.path:
        _path(cv, geo, c, data, words)
        if active_target is not None and not _in_block(active_target.row, active_target.col):
            _target(d, geo.centre(active_target.row, active_target.col), c * 0.3, active_target, muted=False)
    for robot in data.robots:
        _robot(cv, geo.centre(robot.row, robot.col), c, robot.colour, words, size)
    if data.path:
        _path_numbers(cv, geo, c, data, size)

    return st.shrink(cv, SS)


def _in_block(row: int, col: int) -> bool:
    return row in (7, 8) and col in (7, 8)


def _margin(c: int) -> tuple[int, int]:
    """The margin around the grid and the smallest font size (both at ``SS``×) for cells ``c`` wide: the font the
    phone rule gives the whole image's width, the margin wide enough for the widest coordinate at that size (the
    row numbers "10"–"16") between the frame and the image's edge. A wider margin widens the image and may ask
    for a bigger font: repeated until both agree."""
    margin = 26 * SS
    while True:
        size = pg.min_text_px((BOARD_SIZE * c + 2 * margin) // SS) * SS
        fnt = st.font("cond", size)
        widest = max(st.text_width(label(i), fnt) for i in range(BOARD_SIZE) for label in (row_label, column_label))
        need = (FRAME + 2 * LABEL_PAD) * SS + math.ceil(widest)
        need += -need % SS  # whole pixels once downsampled
        if need <= margin:
            return margin, size
        margin = need


@dataclass(frozen=True, slots=True)
class _Heading:
    """The title on the left, the move count on the right, on one line; a title too long for its room gets a
    smaller size (never below the smallest text), then up to three lines, shortened only past the third."""

    title: str
    count: str | None
    lines: list[str]
    fnt: ImageFont.FreeTypeFont
    sub: ImageFont.FreeTypeFont
    height: int
    baselines: list[float]

    def draw(self, cv: st.Canvas, margin: int) -> None:
        if self.count is not None:
            middle = sum(self.baselines) / len(self.baselines)
            cv.text((cv.image.width - margin, middle), self.count, self.sub, st.MUTED, "rs", "title")
        boxes = [cv.text((margin, y), line, self.fnt, st.INK, "ls", record=False)
                 for line, y in zip(self.lines, self.baselines, strict=True)]  # fmt: skip
        cv.record(self.title, boxes, "title", float(self.fnt.size))


def _heading(title: str, data: RRBoardData, words: Words, width: int, margin: int, size: int) -> _Heading:
    sub = st.font("regular", max(20 * SS, size))
    room = width - 2 * margin
    count = None
    if data.path:
        count = f"{len(data.path)} {words.label('moves')}"
        room -= math.ceil(st.text_width(count, sub)) + 16 * SS
    one_line = max(64 * SS, round(2.5 * size))
    top = size * 5 // 4  # the first baseline: a capital's height and some air above it
    largest = max(28 * SS, size * 13 // 10)
    for px in range(largest, size - 1, -1):
        fnt = st.font("bold", px)
        if st.text_width(title, fnt) <= room:
            return _Heading(title, count, [title], fnt, sub, one_line, [one_line * 0.62])
    fnt = st.font("bold", size)  # still too long: up to three lines at the smallest size
    lines = st.wrap_text(title, fnt, room, max_lines=3)
    step = size * 6 // 5
    baselines = [float(top + i * step) for i in range(len(lines))]
    return _Heading(title, count, lines, fnt, sub, max(one_line, round(baselines[-1] + 0.9 * size)), baselines)


def _coordinates(cv: st.Canvas, geo: _Geo, margin: int, size: int) -> None:
    """The cells' names along the edges, as the ``/rr`` parser reads them (``bot.rules.ricochet.notation``):
    column letters above and below, row numbers left and right, each centred between the frame and the edge."""
    fnt = st.font("cond", size)
    mid = (margin - FRAME * SS) / 2  # from the image's edge to the middle of the room outside the frame
    far = BOARD_SIZE * geo.c + margin - mid  # the same on the grid's far side, from its near edge
    for i in range(BOARD_SIZE):
        x, _ = geo.centre(0, i)
        cv.text((x, geo.top - margin + mid), column_label(i), fnt, st.FAINT, "mm", "coord")
        cv.text((x, geo.top + far), column_label(i), fnt, st.FAINT, "mm", "coord")
        _, y = geo.centre(i, 0)
        cv.text((geo.left - margin + mid, y), row_label(i), fnt, st.FAINT, "mm", "coord")
        cv.text((geo.left + far, y), row_label(i), fnt, st.FAINT, "mm", "coord")


def _walls(d: ImageDraw.ImageDraw, geo: _Geo, c: int, walls: tuple[tuple[str, ...], ...]) -> None:
    t = max(2, c * 0.13)
    for r, row in enumerate(walls):
        for col, sides in enumerate(row):
            if _in_block(r, col):
                continue
            x, y = geo.corner(r, col)
            if "N" in sides:
                d.rectangle((x - t / 2, y - t / 2, x + c + t / 2, y + t / 2), fill=WALL)
            if "S" in sides:
                d.rectangle((x - t / 2, y + c - t / 2, x + c + t / 2, y + c + t / 2), fill=WALL)
            if "W" in sides:
                d.rectangle((x - t / 2, y - t / 2, x + t / 2, y + c + t / 2), fill=WALL)
            if "E" in sides:
                d.rectangle((x + c - t / 2, y - t / 2, x + c + t / 2, y + c + t / 2), fill=WALL)


def _central_block(d: ImageDraw.ImageDraw, geo: _Geo, c: int, active: RRTarget | None) -> None:
    x, y = geo.corner(7, 7)
    d.rounded_rectangle((x, y, x + 2 * c, y + 2 * c), radius=c // 5, fill=BLOCK)
    d.rounded_rectangle((x + c * 0.18, y + c * 0.18, x + 1.82 * c, y + 1.82 * c), radius=c // 6,
                        outline=st.mix(BLOCK, (255, 255, 255), 0.18), width=max(1, c // 20))  # fmt: skip
    if active is not None:
        # the drawn token sits in the centre, as on the table
        d.ellipse((x + c * 0.35, y + c * 0.35, x + 1.65 * c, y + 1.65 * c), fill=(246, 242, 232))
        _target(d, (x + c, y + c), c * 0.45, active, muted=False)


def _target(d: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, t: RRTarget, *, muted: bool) -> None:
    cx, cy = centre
    if t.symbol == "vortex" or t.colour == "any":
        for i, name in enumerate(VORTEX_RINGS):
            r = size * (1 - i * 0.22)
            colour = st.ROBOT_RGB[name]
            if muted:
                colour = st.mix(colour, CELL, 0.35)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
        r = size * 0.18
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CELL)
        return
    fill = st.ROBOT_RGB[t.colour]
    if muted:
        fill = st.mix(fill, CELL, 0.35)
    outline = _darker(fill, 0.3)
    w = max(1, int(size * 0.12))
    if t.symbol == "circle":
        r = size * 0.9
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=w)
        r2 = r * 0.42
        d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), fill=st.mix(fill, (255, 255, 255), 0.45))
    elif t.symbol == "square":
        r = size * 0.82
        d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=size * 0.18, fill=fill, outline=outline, width=w)
    elif t.symbol == "triangle":
        r = size * 1.08
        pts = [
            (cx + r * math.cos(a), cy + r * 0.12 + r * math.sin(a))
            for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)
        ]
        d.polygon(pts, fill=fill, outline=outline, width=w)
    else:  # hexagon
        r = size * 0.98
        pts = [(cx + r * math.cos(math.pi / 6 + k * math.pi / 3), cy + r * math.sin(math.pi / 6 + k * math.pi / 3))
               for k in range(6)]  # fmt: skip
        d.polygon(pts, fill=fill, outline=outline, width=w)


def _diagonal(d: ImageDraw.ImageDraw, geo: _Geo, c: int, diag: RRDiagonal) -> None:
    x, y = geo.corner(diag.row, diag.col)
    m = c * 0.08
    if diag.slant == "/":
        a, b = (x + m, y + c - m), (x + c - m, y + m)
    else:
        a, b = (x + m, y + m), (x + c - m, y + c - m)
    colour = st.ROBOT_RGB[diag.colour]
    d.line([a, b], fill=WALL, width=int(c * 0.2))
    d.line([a, b], fill=colour, width=int(c * 0.12))


def _robot(cv: st.Canvas, centre: tuple[float, float], c: int, colour: str, words: Words, size: int) -> None:
    d = cv.draw
    cx, cy = centre
    r = c * 0.4  # room for its letter at the smallest text's size
    fill = st.ROBOT_RGB[colour]
    d.ellipse((cx - r + c * 0.04, cy - r + c * 0.07, cx + r + c * 0.04, cy + r + c * 0.07), fill=(150, 142, 126))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=_darker(fill, 0.45), width=max(2, c // 22))
    hr = r * 0.55
    d.ellipse((cx - hr * 1.25, cy - hr * 1.35, cx + hr * 0.15, cy - hr * 0.05), fill=st.mix(fill, (255, 255, 255), 0.3))
    letter = words.robot_letter(colour)
    fnt = st.font("bold", max(size, int(c * 0.34)))
    cv.text((cx, cy + c * 0.02), letter, fnt, st.text_on(fill), "mm", "robot")


def _move_points(data: RRBoardData) -> list[tuple[RRMove, list[tuple[int, int]]]]:
    """Each move with its polyline of cells: the robot's position before the move, then its stops."""
    where = {r.colour: (r.row, r.col) for r in data.robots}
    out = []
    for move in data.path:
        start = where.get(move.colour, move.stops[0])
        out.append((move, [start, *move.stops]))
        where[move.colour] = move.stops[-1]
    return out


def _path(cv: st.Canvas, geo: _Geo, c: int, data: RRBoardData, words: Words) -> None:
    overlay = Image.new("RGBA", cv.image.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    w = max(2, int(c * LINE))
    moves = _move_points(data)
    for move, cells in moves:
        colour = st.ROBOT_RGB[move.colour]
        pts = _lane([geo.centre(*p) for p in cells], c * LANE[move.colour])
        od.line(pts, fill=(*_darker(colour, 0.4), 235), width=w + 2 * SS, joint="curve")
        od.line(pts, fill=(*colour, 235), width=w, joint="curve")
        # arrowhead at the stop
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        if (x1, y1) != (x2, y2):
            ang = math.atan2(y2 - y1, x2 - x1)
            tip = (x2 + math.cos(ang) * c * 0.05, y2 + math.sin(ang) * c * 0.05)
            size = c * 0.2
            left = (tip[0] - size * math.cos(ang - 0.5), tip[1] - size * math.sin(ang - 0.5))
            right = (tip[0] - size * math.cos(ang + 0.5), tip[1] - size * math.sin(ang + 0.5))
            od.polygon([tip, left, right], fill=(*_darker(colour, 0.25), 255))
    # ghosts where robots end
    final = {r.colour: (r.row, r.col) for r in data.robots}
    for move, cells in moves:
        final[move.colour] = cells[-1]
    start = {r.colour: (r.row, r.col) for r in data.robots}
    for name, cell in final.items():
        if cell != start.get(name):
            cx, cy = geo.centre(*cell)
            r = c * 0.44  # around the cell's symbol, not over it: the target stays visible
            fill = st.ROBOT_RGB[name]
            for k in range(12):  # dashed ring: "robot ends here", unlike the solid-edged targets
                od.arc((cx - r, cy - r, cx + r, cy + r), k * 30, k * 30 + 18, fill=(*_darker(fill, 0.25), 255),
                       width=max(2, c // 16))  # fmt: skip
    base = cv.image.convert("RGBA")
    base.alpha_composite(overlay)
    cv.image.paste(base.convert("RGB"))


def _lane(pts: list[tuple[float, float]], offset: float) -> list[tuple[float, float]]:
    """Shift each segment to the right of its travel direction, so moves back and forth on one line stay apart."""
    out: list[tuple[float, float]] = []
    for (x1, y1), (x2, y2) in itertools.pairwise(pts):
        length = math.dist((x1, y1), (x2, y2)) or 1.0
        nx, ny = -(y2 - y1) / length * offset, (x2 - x1) / length * offset
        out += [(x1 + nx, y1 + ny), (x2 + nx, y2 + ny)]
    return out or pts


_Box = tuple[float, float, float, float]  # centre x, centre y, half-width, half-height


def _path_numbers(cv: st.Canvas, geo: _Geo, c: int, data: RRBoardData, size: int) -> None:
    """Each move's number in a badge where the robot stops, just short of the stop along its lane; pulled further
    back when that spot is taken by a robot, the active target or another number, so numbers never cover each
    other. The badge is a pill as tall as ``BADGE``× the font size and as wide as its number needs."""
    d = cv.draw
    fnt = st.font("cond-bold", size)
    hh = BADGE * size
    pad = 0.22 * size
    taken: list[_Box] = [(*geo.centre(rb.row, rb.col), c * 0.44, c * 0.44) for rb in data.robots]  # with shadow
    if data.active_target is not None and not _in_block(*data.active_target):
        taken.append((*geo.centre(*data.active_target), c * 0.3, c * 0.3))
    edge = max(2, c // 16)
    grid = (*geo.centre(BOARD_SIZE / 2 - 0.5, BOARD_SIZE / 2 - 0.5), BOARD_SIZE * c / 2, BOARD_SIZE * c / 2)
    for n, (move, cells) in enumerate(_move_points(data), start=1):
        label = str(n)
        ink = fnt.getmask(label).getbbox()  # the digits' ink, without the side bearings
        hw = max(hh, (ink[2] - ink[0]) / 2 + pad if ink else 0)
        pts = _lane([geo.centre(*p) for p in cells], c * LANE[move.colour])
        bx, by = _stop_spot(pts, (hw, hh), taken, clear=c * 0.32, grid=grid)
        taken.append((bx, by, hw, hh))
        colour = st.ROBOT_RGB[move.colour]
        d.rounded_rectangle((bx - hw, by - hh, bx + hw, by + hh), radius=hh, fill=(255, 255, 255),
                            outline=_darker(colour, 0.2), width=edge)  # fmt: skip
        cv.text((bx, by), label, fnt, st.INK, "mm", "step")


def _apart(p: tuple[float, float], half: tuple[float, float], box: _Box) -> bool:
    """A badge at ``p`` with ``half`` its size clears ``box`` (with a little air)."""
    x, y, w, h = box
    gap = 0.05 * half[1]
    return abs(p[0] - x) >= half[0] + w + gap or abs(p[1] - y) >= half[1] + h + gap


def _stop_spot(
    pts: list[tuple[float, float]], half: tuple[float, float], taken: list[_Box], *, clear: float, grid: _Box
) -> tuple[float, float]:
    """A point on the move's last segments, as close to its stop as the badges already placed allow, and at least
    ``clear`` short of the stop so the symbol of the cell it stops on (the target) stays in sight. A short move
    (one cell, from a robot to a target) may leave no such point: then the free spot nearest the stop, around it,
    inside the ``grid``. When there is none either, the spot furthest from what is already there."""
    hw, hh = half
    gx, gy, gw, gh = grid
    best, room = pts[-1], -math.inf
    for p in _spots(pts, half, clear):
        if abs(p[0] - gx) > gw - hw or abs(p[1] - gy) > gh - hh:
            continue
        if all(_apart(p, half, q) for q in taken):
            return p
        gap = min((max(abs(p[0] - q[0]) - hw - q[2], abs(p[1] - q[1]) - hh - q[3]) for q in taken),
                  default=math.inf)  # fmt: skip
        if gap > room:
            best, room = p, gap
    return best


def _spots(pts: list[tuple[float, float]], half: tuple[float, float], clear: float) -> Iterator[tuple[float, float]]:
    """The candidates for a move's badge, best first: back from the stop along the move, then rings around it."""
    hw, hh = half
    step = 0.5 * hh
    for i in range(len(pts) - 1, 0, -1):
        (x1, y1), (x2, y2) = pts[i - 1], pts[i]
        length = math.dist((x1, y1), (x2, y2))
        if length == 0:
            continue
        along = (abs(x2 - x1) * hw + abs(y2 - y1) * hh) / length  # the badge's reach along the segment
        back = clear + along if i == len(pts) - 1 else step
        while back < length:
            t = 1 - back / length
            yield (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
            back += step
    sx, sy = pts[-1]
    for ring in range(1, 7):
        reach = clear + hh + ring * step
        for k in range(16):
            a = k * math.pi / 8
            yield (sx + math.cos(a) * (reach - hh + hw), sy + math.sin(a) * reach)


def render_rr_board(data: RRBoardData, *, words: Words, cell: int = 44) -> bytes:
    """The board as one PNG (BOT-IMG-1): walls, central block, targets, robots, active target, optional path."""
    return st.png_bytes(layout_rr_board(data, words=words, cell=cell).image)
