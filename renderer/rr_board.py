"""Ricochet Robots board (RR-COMP-1, RR-MOVE-1, RR-VAR-2, BOT-IMG-1): 16×16 grid with walls, the central block,
targets by colour and symbol, robots, the active target highlighted, diagonal walls, and a solution path drawn
move by move with numbers. Drawn at 2× and downsampled for smooth shapes."""

from __future__ import annotations

import itertools
import math

from PIL import Image, ImageDraw

from renderer import _style as st
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
    margin = 26 * SS
    header = 0
    title = data.title
    if title is None and data.path:
        title = words.label("board")
    if title is not None:
        header = 64 * SS
    side = BOARD_SIZE * c
    width, height = side + 2 * margin, side + 2 * margin + header
    cv = st.Canvas.new(width, height, background=st.PAPER)
    geo = _Geo(c, margin, margin + header)
    d = cv.draw

    if title is not None:
        _title(cv, title, data, words, margin, header)
    _coordinates(cv, geo, margin)
    # board base: grout, then slightly inset cells
    x0, y0 = geo.corner(0, 0)
    d.rounded_rectangle((x0 - 6 * SS, y0 - 6 * SS, x0 + side + 6 * SS, y0 + side + 6 * SS), radius=8 * SS, fill=WALL)
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
        _robot(cv, geo.centre(robot.row, robot.col), c, robot.colour, words)
    if data.path:
        _path_numbers(cv, geo, c, data)

    return st.shrink(cv, SS)


def _in_block(row: int, col: int) -> bool:
    return row in (7, 8) and col in (7, 8)


def _title(cv: st.Canvas, title: str, data: RRBoardData, words: Words, margin: int, header: int) -> None:
    """The title on the left, the move count on the right; a long title gets a smaller size before an ellipsis."""
    sub = st.font("regular", 20 * SS)
    room = cv.image.width - 2 * margin
    if data.path:
        text = f"{len(data.path)} {words.label('moves')}"
        box = cv.text((cv.image.width - margin, header * 0.62), text, sub, st.MUTED, "rs", "title")
        room = box[0] - margin - 16 * SS
    size = 28 * SS
    fnt = st.font("bold", size)
    while st.text_width(title, fnt) > room and size > 18 * SS:
        size -= SS
        fnt = st.font("bold", size)
    if st.text_width(title, fnt) <= room:
        cv.text((margin, header * 0.62), title, fnt, st.INK, "ls", "title")
        return
    fnt = st.font("bold", 17 * SS)  # still too long: two lines, shortened only past the second
    lines = st.wrap_text(title, fnt, room, max_lines=2)
    boxes = [cv.text((margin, header * (0.42 + 0.4 * i)), line, fnt, st.INK, "ls", record=False)
             for i, line in enumerate(lines)]  # fmt: skip
    cv.record(title, boxes, "title")


def _coordinates(cv: st.Canvas, geo: _Geo, margin: int) -> None:
    fnt = st.font("cond", 13 * SS)
    for i in range(BOARD_SIZE):
        x, _ = geo.centre(0, i)
        top = geo.top - margin / 2 - 1 * SS
        cv.text((x, top), chr(ord("A") + i), fnt, st.FAINT, "mm", "coord")
        cv.text((x, geo.top + BOARD_SIZE * geo.c + margin / 2 + 1 * SS), chr(ord("A") + i), fnt, st.FAINT, "mm",
                "coord")  # fmt: skip
        _, y = geo.centre(i, 0)
        cv.text((geo.left - margin / 2 - 1 * SS, y), str(i + 1), fnt, st.FAINT, "mm", "coord")
        cv.text((geo.left + BOARD_SIZE * geo.c + margin / 2 + 1 * SS, y), str(i + 1), fnt, st.FAINT, "mm", "coord")


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


def _robot(cv: st.Canvas, centre: tuple[float, float], c: int, colour: str, words: Words) -> None:
    d = cv.draw
    cx, cy = centre
    r = c * 0.36
    fill = st.ROBOT_RGB[colour]
    d.ellipse((cx - r + c * 0.04, cy - r + c * 0.07, cx + r + c * 0.04, cy + r + c * 0.07), fill=(150, 142, 126))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=_darker(fill, 0.45), width=max(2, c // 22))
    hr = r * 0.55
    d.ellipse((cx - hr * 1.25, cy - hr * 1.35, cx + hr * 0.15, cy - hr * 0.05), fill=st.mix(fill, (255, 255, 255), 0.3))
    letter = words.robot_letter(colour)
    fnt = st.font("bold", int(c * 0.34))
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


def _path_numbers(cv: st.Canvas, geo: _Geo, c: int, data: RRBoardData) -> None:
    """Each move's number where the robot stops, just short of the stop along its lane; pulled further back when
    that spot is taken by a robot or another number, so numbers never cover each other."""
    d = cv.draw
    fnt = st.font("bold", int(c * 0.26))
    r = c * 0.21
    taken: list[tuple[float, float]] = [geo.centre(rb.row, rb.col) for rb in data.robots]
    for n, (move, cells) in enumerate(_move_points(data), start=1):
        pts = _lane([geo.centre(*p) for p in cells], c * LANE[move.colour])
        best = _stop_spot(pts, r, taken, clear=c * 0.32)
        taken.append(best)
        colour = st.ROBOT_RGB[move.colour]
        bx, by = best
        d.ellipse((bx - r, by - r, bx + r, by + r), fill=(255, 255, 255), outline=_darker(colour, 0.2),
                  width=max(2, c // 16))  # fmt: skip
        cv.text((bx, by), str(n), fnt, st.INK, "mm", "step")


def _stop_spot(
    pts: list[tuple[float, float]], r: float, taken: list[tuple[float, float]], *, clear: float
) -> tuple[float, float]:
    """A point on the move's last segments, as close to its stop as the badges already placed allow, and at least
    ``clear`` short of the stop so the symbol of the cell it stops on (the target) stays in sight."""
    for i in range(len(pts) - 1, 0, -1):
        (x1, y1), (x2, y2) = pts[i - 1], pts[i]
        length = math.dist((x1, y1), (x2, y2))
        if length == 0:
            continue
        back = clear + r if i == len(pts) - 1 else 0.5 * r
        while back < length:
            t = 1 - back / length
            p = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
            if all(math.dist(p, q) > 2.05 * r for q in taken):
                return p
            back += 0.5 * r
    return pts[-1]


def render_rr_board(data: RRBoardData, *, words: Words, cell: int = 44) -> bytes:
    """The board as one PNG (BOT-IMG-1): walls, central block, targets, robots, active target, optional path."""
    return st.png_bytes(layout_rr_board(data, words=words, cell=cell).image)
