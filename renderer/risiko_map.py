"""RisiKo! map (RK-MAP-1, FIRK-SCORE-1, BOT-IMG-1): a schematic world map of the 42 territories with the board's
borders as links (``map.json``), continents grouped and coloured, each territory in its owner's colour with its
army count; the doubled strip and the objective territories highlighted when asked. Drawn at 2× and downsampled."""

from __future__ import annotations

import math
import unicodedata
from collections import Counter

from PIL import Image, ImageDraw

from bot.rules.data import load_json
from renderer import _style as st
from renderer import pages as pg
from renderer.models import RenderInputError, RiskMapData, Words

SS = 2
MAP_W, MAP_H = 1600, 900
SEA: st.Colour = (220, 234, 242)
LINK: st.Colour = (120, 128, 140)
STRIP: st.Colour = (0, 178, 214)
OBJECTIVE: st.Colour = (224, 160, 0)

CONTINENT_FILL: dict[str, st.Colour] = {
    "Nord America": (248, 228, 182),
    "Sud America": (244, 204, 192),
    "Europa": (204, 221, 246),
    "Africa": (234, 216, 188),
    "Asia": (206, 232, 200),
    "Oceania": (226, 212, 240),
}
# continent names sit in open sea next to their continent; "\n" splits a long one
CONTINENT_LABEL: dict[str, tuple[int, int, str]] = {
    "Nord America": (88, 300, "NORD\nAMERICA"),
    "Sud America": (585, 862, "SUD AMERICA"),
    "Europa": (548, 446, "EUROPA"),
    "Africa": (1062, 690, "AFRICA"),
    "Asia": (1432, 450, "ASIA"),
    "Oceania": (1172, 862, "OCEANIA"),
}

# schematic positions on a 1600×900 sea (continents in their familiar places)
POSITIONS: dict[str, tuple[int, int]] = {
    "Alaska": (95, 130),
    "Territori del Nord Ovest": (245, 120),
    "Groenlandia": (490, 80),
    "Alberta": (210, 230),
    "Ontario": (335, 232),
    "Quebec": (455, 215),
    "Stati Uniti Occidentali": (225, 345),
    "Stati Uniti Orientali": (370, 350),
    "America Centrale": (300, 448),
    "Venezuela": (355, 545),
    "Perù": (335, 670),
    "Brasile": (465, 625),
    "Argentina": (380, 790),
    "Islanda": (635, 130),
    "Gran Bretagna": (640, 250),
    "Scandinavia": (775, 115),
    "Europa Settentrionale": (770, 250),
    "Europa Occidentale": (650, 370),
    "Europa Meridionale": (790, 365),
    "Ucraina": (910, 205),
    "Africa del Nord": (700, 520),
    "Egitto": (835, 485),
    "Africa Orientale": (895, 610),
    "Congo": (770, 650),
    "Africa del Sud": (805, 785),
    "Madagascar": (950, 770),
    "Urali": (1045, 165),
    "Siberia": (1170, 105),
    "Jacuzia": (1305, 80),
    "Čita": (1295, 195),
    "Kamchatka": (1450, 105),
    "Giappone": (1510, 290),
    "Mongolia": (1340, 300),
    "Afganistan": (1050, 300),
    "Medio Oriente": (985, 420),
    "India": (1130, 470),
    "Cina": (1225, 375),
    "Siam": (1270, 500),
    "Indonesia": (1295, 625),
    "Nuova Guinea": (1455, 605),
    "Australia Occidentale": (1325, 775),
    "Australia Orientale": (1475, 770),
}
LABEL_ABOVE = {"Groenlandia", "Islanda", "Scandinavia", "Siberia", "Jacuzia", "Kamchatka", "Alaska",
               "Territori del Nord Ovest"}  # fmt: skip
WRAP_EDGE = ("Alaska", "Kamchatka")

ALIASES = {
    "afghanistan": "Afganistan",
    "cita": "Čita",
    "irkutsk": "Čita",
    "jakutsk": "Jacuzia",
    "yakutsk": "Jacuzia",
    "asia sudorientale": "Siam",
    "africa settentrionale": "Africa del Nord",
    "africa meridionale": "Africa del Sud",
    "territori del nord-ovest": "Territori del Nord Ovest",
    "peru": "Perù",
}


def _fold(name: str) -> str:
    text = unicodedata.normalize("NFKD", name.strip().lower())
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def territory_names() -> dict[str, str]:
    """Folded name or alias → canonical ``map.json`` name."""
    out = {_fold(n): n for cont in load_json("map.json")["continents"].values() for n in cont["territories"]}
    out.update({_fold(k): v for k, v in ALIASES.items()})
    return out


def canonical(name: str) -> str:
    """The ``map.json`` name of a territory typed in any case, with or without accents, or by a known alias; a
    RenderInputError ``unknown_territory`` otherwise."""
    found = territory_names().get(_fold(name))
    if found is None:
        raise RenderInputError("unknown_territory", f"unknown territory {name!r}")
    return found


def layout_risiko_map(data: RiskMapData, *, words: Words) -> st.Canvas:
    """The whole world in one wide image (a desktop's view); a phone gets :func:`layout_risiko_map_pages`."""
    cv = _world(data, 96, None, 15)
    _header(cv, data, words, 96)
    _legend(cv, data, {canonical(n) for n in data.doubled_strip}, {canonical(n) for n in data.objective}, words, 96)
    return st.shrink(cv, SS)


def _world(
    data: RiskMapData,
    header: int,
    focus: set[str] | None,
    name_units: int,
    label_units: int = 21,
    stretch: float = 1.0,
) -> st.Canvas:
    """The map at ``SS``×, ``header`` units left free on top. With a ``focus`` (a phone's page), only those
    territories are drawn (their links to the others as short stubs), so a crop of the focus cuts no label, spread
    ``stretch`` times wider about its middle so larger names keep apart, and the continents' names (with their
    bonus) are left to the page's subtitle."""
    spread = _spread(focus, stretch)
    m = load_json("map.json")
    continent_of = {n: c for c, spec in m["continents"].items() for n in spec["territories"]}
    links = [tuple(e) for e in m["adjacency"]]
    state = {canonical(t.name): t for t in data.territories}
    strip = {canonical(n) for n in data.doubled_strip}
    objective = {canonical(n) for n in data.objective}
    colour_of = {p.name: st.ARMY_RGB[p.colour] for p in data.players}

    shown = set(POSITIONS) if focus is None else focus
    width, height = MAP_W * SS, (MAP_H + header) * SS
    cv = st.Canvas.new(width, height, background=SEA)
    d = cv.draw

    def at(name: str) -> tuple[float, float]:
        x, y = spread.get(name, POSITIONS[name])
        return (x * SS, (y + header) * SS)

    # continents: a soft blob (union of discs and thick strokes along internal borders), outlined
    for cont, spec in m["continents"].items():
        names = spec["territories"]
        if not set(names) <= shown:
            continue
        internal = [(a, b) for a, b in links if continent_of[a] == cont and continent_of[b] == cont]
        fill = CONTINENT_FILL[cont]
        for colour, grow in ((st.mix(fill, (90, 90, 90), 0.25), 4 * SS), (fill, 0)):
            r = 58 * SS + grow
            for a, b in internal:
                d.line([at(a), at(b)], fill=colour, width=int(2 * r * 0.92))
            for n in names:
                x, y = at(n)
                d.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    label_font = st.font("bold", label_units * SS)
    for cont, (lx, ly, text) in CONTINENT_LABEL.items():
        if focus is not None:
            continue
        bonus = m["continents"][cont]["bonus"]
        text = f"{text} +{bonus}"  # the continent bonus from map.json (RK-MAP-1)
        colour = st.mix(CONTINENT_FILL[cont], (40, 40, 40), 0.5)
        lines = text.split("\n")
        for i, line in enumerate(lines):
            y = (ly + header + (i - (len(lines) - 1) / 2) * (label_units + 3)) * SS
            cv.text((lx * SS, y), line, label_font, colour, "mm", "continent")

    # links (dashed where they cross between continents), the strip's halo on top of them
    for a, b in links:
        if {a, b} == set(WRAP_EDGE) or (a not in shown and b not in shown):
            continue
        if a not in shown or b not in shown:  # a page's border to another page: a short dashed stub towards it
            inside, outside = (a, b) if a in shown else (b, a)
            (x1, y1), (x2, y2) = at(inside), at(outside)
            length = math.dist((x1, y1), (x2, y2)) or 1.0
            reach = min(1.0, 62 * SS / length)
            _dashed(d, (x1, y1), (x1 + (x2 - x1) * reach, y1 + (y2 - y1) * reach), LINK, 3 * SS)
        elif continent_of[a] == continent_of[b]:
            d.line([at(a), at(b)], fill=LINK, width=3 * SS)
        else:
            _dashed(d, at(a), at(b), LINK, 3 * SS)
    for edge, end, direction in (("Alaska", 0, -1), ("Kamchatka", width, 1)):
        if edge not in shown:
            continue
        ex, ey = at(edge)
        _dashed(d, (ex, ey), (end, ey), LINK, 3 * SS)
        tip = end - direction * 6 * SS
        d.polygon([(tip, ey), (tip - direction * 14 * SS, ey - 8 * SS), (tip - direction * 14 * SS, ey + 8 * SS)],
                  fill=LINK)  # fmt: skip

    overlay = Image.new("RGBA", cv.image.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    for a, b in links:
        if a in strip and b in strip and {a, b} != set(WRAP_EDGE) and a in shown and b in shown:
            od.line([at(a), at(b)], fill=(*STRIP, 150), width=18 * SS)
    for n in strip & shown:
        x, y = at(n)
        r = 38 * SS
        od.ellipse((x - r, y - r, x + r, y + r), fill=(*STRIP, 150))
    base = cv.image.convert("RGBA")
    base.alpha_composite(overlay)
    cv.image.paste(base.convert("RGB"))

    # territories
    army_font = st.font("bold", label_units * SS)
    name_font = st.font("cond-bold", name_units * SS)
    wrap = (118 + (name_units - 15) * 8) * SS
    for name, (px, py) in POSITIONS.items():
        x, y = at(name)
        t = state.get(name)
        fill = colour_of[t.owner] if t is not None and t.owner is not None else st.NEUTRAL_RGB
        if name not in shown:  # another page's territory
            continue
        r = 25 * SS
        if name in objective:
            ro = r + 9 * SS
            d.ellipse((x - ro, y - ro, x + ro, y + ro), fill=OBJECTIVE)
            _star(d, x + ro * 0.72, y - ro * 0.72, 9 * SS)
        d.ellipse((x - r + 2 * SS, y - r + 4 * SS, x + r + 2 * SS, y + r + 4 * SS), fill=(110, 110, 110))
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=(255, 255, 255), width=3 * SS)
        if t is not None:
            cv.text((x, y), str(t.armies), army_font, st.text_on(fill), "mm", "army")
        lines = st.wrap_text(name, name_font, wrap, max_lines=2)
        line_h = (name_units + 2) * SS
        top = y - r - 8 * SS - line_h * len(lines) if name in LABEL_ABOVE else y + r + 5 * SS
        if name in objective and name not in LABEL_ABOVE:
            top += 8 * SS
        halo = (255, 255, 255)
        boxes = [
            cv.text((x, top + i * line_h), line, name_font, st.INK, "ma", stroke=3 * SS, stroke_fill=halo, record=False)
            for i, line in enumerate(lines)
        ]
        cv.record(name, boxes, "name", float(name_font.size))
        del px, py
    return cv


def _dashed(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: st.Colour, w: int) -> None:
    length = math.dist(a, b)
    dash, gap = 12 * SS, 8 * SS
    steps = max(1, int(length // (dash + gap)))
    for i in range(steps + 1):
        s0 = i * (dash + gap) / length
        s1 = min(1.0, (i * (dash + gap) + dash) / length)
        if s0 >= 1:
            break
        d.line([(a[0] + (b[0] - a[0]) * s0, a[1] + (b[1] - a[1]) * s0),
                (a[0] + (b[0] - a[0]) * s1, a[1] + (b[1] - a[1]) * s1)], fill=fill, width=w)  # fmt: skip


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=(255, 255, 255), outline=OBJECTIVE)


def _header(cv: st.Canvas, data: RiskMapData, words: Words, header: int) -> None:
    d = cv.draw
    w = cv.image.width
    h = header * SS
    d.rectangle((0, 0, w, h), fill=st.HEADER)
    d.rectangle((0, h - 5 * SS, w, h), fill=st.ACCENT)
    title = data.title or words.label("map")
    fnt = st.font("bold", 34 * SS)
    cv.text((28 * SS, h * 0.52), st.fit_text(title, fnt, w * 0.62), fnt, st.HEADER_TEXT, "lm", "title")
    total = sum(t.armies for t in data.territories)
    sub = st.font("regular", 21 * SS)
    text = f"{len(data.territories)} {words.label('territories')} · {words.number(total)} "
    text += words.label("armies")
    cv.text((w - 28 * SS, h * 0.52), text, sub, st.HEADER_SUB, "rm", "title")


def _legend(
    cv: st.Canvas,
    data: RiskMapData,
    strip: set[str],
    objective: set[str],
    words: Words,
    header: int,
) -> None:
    d = cv.draw
    owned = Counter(t.owner for t in data.territories)
    armies: Counter[str | None] = Counter()
    for t in data.territories:
        armies[t.owner] += t.armies
    entries: list[tuple[st.Colour, str, str]] = []
    for p in data.players:
        entries.append((st.ARMY_RGB[p.colour], p.name, _summary(owned[p.name], armies[p.name], words)))
    if owned[None]:
        entries.append((st.NEUTRAL_RGB, words.label("neutral"), _summary(owned[None], armies[None], words)))
    keys = []
    if strip:
        keys.append(("strip", words.label("doubled_strip")))
    if objective:
        keys.append(("objective", words.label("objective")))
    name_font = st.font("cond-bold", 18 * SS)
    small = st.font("cond", 15 * SS)
    row_h = 41 * SS
    x0, w = 22 * SS, 236 * SS
    h = row_h * len(entries) + 34 * SS * len(keys) + 22 * SS
    y0 = (header + MAP_H) * SS - h - 10 * SS
    d.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=12 * SS, fill=(255, 255, 255), outline=st.RULE, width=SS)
    cv.record("", [(x0, y0, x0 + w, y0 + h)], "legend-box")  # so tests can check no label hides under it
    y = y0 + 12 * SS
    for colour, name, summary in entries:
        cy = y + row_h / 2
        r = 13 * SS
        d.ellipse((x0 + 26 * SS - r, cy - r, x0 + 26 * SS + r, cy + r), fill=colour, outline=(255, 255, 255),
                  width=2 * SS)  # fmt: skip
        cv.text((x0 + 48 * SS, cy - 8 * SS), st.fit_text(name, name_font, w - 58 * SS), name_font, st.INK, "lm",
                "legend")  # fmt: skip
        cv.text((x0 + 48 * SS, cy + 11 * SS), summary, small, st.MUTED, "lm", "legend")
        y += row_h
    for kind, text in keys:
        cy = y + 17 * SS
        cx = x0 + 26 * SS
        if kind == "strip":
            d.rounded_rectangle((cx - 16 * SS, cy - 8 * SS, cx + 16 * SS, cy + 8 * SS), radius=8 * SS,
                                fill=st.mix(STRIP, (255, 255, 255), 0.35))  # fmt: skip
        else:
            d.ellipse((cx - 13 * SS, cy - 13 * SS, cx + 13 * SS, cy + 13 * SS), fill=OBJECTIVE)
            d.ellipse((cx - 8 * SS, cy - 8 * SS, cx + 8 * SS, cy + 8 * SS), fill=(255, 255, 255))
        cv.text((x0 + 48 * SS, cy), text, small, st.INK, "lm", "legend")
        y += 34 * SS


def _summary(territories: int, armies: int, words: Words) -> str:
    terr, arm = words.label("territories"), words.label("armies")
    return f"{territories} {terr} · {words.number(armies)} {arm}"


def render_risiko_map(data: RiskMapData, *, words: Words) -> bytes:
    """The situation as one PNG (BOT-IMG-1, RK-MAP-1)."""
    return st.png_bytes(layout_risiko_map(data, words=words).image)


# ---------------------------------------------------------------------------------------------- a phone's pages

PAGE_W = 640
PAGE_PAD = 24
REGIONS: tuple[tuple[str, ...], ...] = (("Nord America", "Sud America"), ("Europa", "Africa"), ("Asia", "Oceania"))
STRETCH = (1.6, 1.5, 1.1)  # how much wider each page draws its continents than the world map does
PAGE_NAME_UNITS = 19  # a crop at most ~580 units wide keeps these names at 11 px once shown 340 px wide
KEY_NAME, KEY_SMALL = ("cond-bold", 24), ("cond", 21)
KEY_LINE = 28


def layout_risiko_map_pages(data: RiskMapData, *, words: Words) -> list[st.Canvas]:
    """The map for a phone (BOT-IMG-1, RK-MAP-1): one page per pair of continents (the Americas, Europe and
    Africa, Asia and Oceania), each a crop of the same world with its territories' names large enough to read
    340 px wide, and under it the legend: each player's colour, territories and armies, and the ``notes`` the
    caller gave (a report's table points, objective and what scored)."""
    m = load_json("map.json")
    strip = {canonical(n) for n in data.doubled_strip}
    objective = {canonical(n) for n in data.objective}
    pages = []
    for i, (continents, stretch) in enumerate(zip(REGIONS, STRETCH, strict=True), start=1):
        focus = {n for c in continents for n in m["continents"][c]["territories"]}
        names, labels = PAGE_NAME_UNITS, 21
        for _ in range(4):  # bigger text widens the crop a little: until the smallest text reads 11 px at 340
            world = _world(data, 0, focus, names, labels, stretch)
            left, top, right, bottom = _focus_box(world, focus, stretch)
            need = math.ceil(pg.min_text_px(right - left) / SS)
            if names >= need and labels >= need:
                break
            names, labels = max(names, need), max(labels, need)
        crop = world.image.crop((left, top, right, bottom))
        scale = PAGE_W / crop.width
        crop = crop.resize((PAGE_W, round(crop.height * scale)), Image.Resampling.LANCZOS)
        title = data.title or words.label("map")
        bonus = [f"{c} +{m['continents'][c]['bonus']}" for c in continents]  # the continent bonus (RK-MAP-1)
        subtitle = " · ".join(bonus) + f" · {words.label('page')} {i}/{len(REGIONS)}"
        header_h = st.header_height(subtitle, PAGE_W, PAGE_PAD)
        key_h = _key_height(data, strip, objective, words)
        cv = st.Canvas.new(PAGE_W, header_h + crop.height + key_h + PAGE_PAD)
        st.header_band(cv, title, subtitle, header_h, PAGE_PAD)
        cv.image.paste(crop, (0, header_h))
        for t in world.texts:
            if t.group == "legend-box" or t.box[0] < left or t.box[2] > right or t.box[1] < top or t.box[3] > bottom:
                continue
            box = (round((t.box[0] - left) * scale), round((t.box[1] - top) * scale) + header_h,
                   round((t.box[2] - left) * scale), round((t.box[3] - top) * scale) + header_h)  # fmt: skip
            cv.texts.append(st.TextItem(t.text, box, t.group, t.size * scale))
        _key(cv, data, strip, objective, words, header_h + crop.height + 14)
        pages.append(cv)
    return pages


def _spread(focus: set[str] | None, stretch: float) -> dict[str, tuple[float, float]]:
    if not focus:
        return {}
    mid = sum(POSITIONS[n][0] for n in focus) / len(focus)
    xs = {n: mid + (POSITIONS[n][0] - mid) * stretch for n in focus}
    margin = 110  # room for a name either side, inside the sea
    shift = max(0.0, margin - min(xs.values())) or min(0.0, MAP_W - margin - max(xs.values()))
    return {n: (x + shift, POSITIONS[n][1]) for n, x in xs.items()}


def _focus_box(world: st.Canvas, focus: set[str], stretch: float) -> tuple[int, int, int, int]:
    """The focus territories' discs and every text drawn (only the focus has text), padded, inside the image."""
    boxes = [t.box for t in world.texts]
    for x, y in _spread(focus, stretch).values():
        r = 36
        boxes.append((round((x - r) * SS), round((y - r) * SS), round((x + r) * SS), round((y + r) * SS)))
    pad = 16 * SS
    return (max(0, min(b[0] for b in boxes) - pad), max(0, min(b[1] for b in boxes) - pad),
            min(world.image.width, max(b[2] for b in boxes) + pad),
            min(world.image.height, max(b[3] for b in boxes) + pad))  # fmt: skip


def _key_entries(data: RiskMapData, words: Words) -> list[tuple[st.Colour, str, list[str]]]:
    owned = Counter(t.owner for t in data.territories)
    armies: Counter[str | None] = Counter()
    for t in data.territories:
        armies[t.owner] += t.armies
    out = [(st.ARMY_RGB[p.colour], p.name, [_summary(owned[p.name], armies[p.name], words), *p.notes])
           for p in data.players]  # fmt: skip
    if owned[None]:
        out.append((st.NEUTRAL_RGB, words.label("neutral"), [_summary(owned[None], armies[None], words)]))
    return out


def _key_columns(data: RiskMapData) -> int:
    return 1 if any(p.notes for p in data.players) or len(data.players) <= 2 else 2


def _key_lines(lines: list[str], width: float) -> list[str]:
    small = st.font(*KEY_SMALL)
    return [part for line in lines for part in st.wrap_text(line, small, width, max_lines=3)]


def _key_height(data: RiskMapData, strip: set[str], objective: set[str], words: Words) -> int:
    cols = _key_columns(data)
    col_w = (PAGE_W - 2 * PAGE_PAD - 20 * (cols - 1)) / cols - 44
    heights = [KEY_LINE + 8 + KEY_LINE * len(_key_lines(lines, col_w)) + 14 for _, _, lines in
               _key_entries(data, words)]  # fmt: skip
    rows = [max(heights[i : i + cols]) for i in range(0, len(heights), cols)]
    keys = (1 if strip else 0) + (1 if objective else 0)
    return 14 + sum(rows) + 40 * keys


def _key(cv: st.Canvas, data: RiskMapData, strip: set[str], objective: set[str], words: Words, y: int) -> None:
    d = cv.draw
    cols = _key_columns(data)
    col_w = (PAGE_W - 2 * PAGE_PAD - 20 * (cols - 1)) / cols
    name_font, small = st.font(*KEY_NAME), st.font(*KEY_SMALL)
    entries = _key_entries(data, words)
    for row in range(0, len(entries), cols):
        row_h = 0
        for k, (colour, name, lines) in enumerate(entries[row : row + cols]):
            x = PAGE_PAD + k * (col_w + 20)
            cy = y + KEY_LINE // 2 + 4
            d.ellipse((x + 2, cy - 13, x + 28, cy + 13), fill=colour, outline=st.RULE, width=2)
            cv.text((x + 40, cy), st.fit_text(name, name_font, col_w - 44), name_font, st.INK, "lm", "legend")
            wrapped = _key_lines(lines, col_w - 44)
            for j, line in enumerate(wrapped):
                cv.text((x + 40, cy + 8 + KEY_LINE * (j + 1)), line, small, st.MUTED, "lm", "legend")
            row_h = max(row_h, KEY_LINE + 8 + KEY_LINE * len(wrapped) + 14)
        y += row_h
    keys = [k for k in (("strip", words.label("doubled_strip")) if strip else None,
                        ("objective", words.label("objective")) if objective else None) if k]  # fmt: skip
    for kind, text in keys:
        cy, cx = y + 20, PAGE_PAD + 15
        if kind == "strip":
            d.rounded_rectangle((cx - 16, cy - 8, cx + 16, cy + 8), radius=8, fill=st.mix(STRIP, (255, 255, 255), 0.35))
        else:
            d.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), fill=OBJECTIVE)
            d.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), fill=(255, 255, 255))
        cv.text((PAGE_PAD + 40, cy), text, small, st.INK, "lm", "legend")
        y += 40


def render_risiko_map_pages(data: RiskMapData, *, words: Words) -> list[bytes]:
    """The map as a phone's pages (BOT-IMG-1, RK-MAP-1): see :func:`layout_risiko_map_pages`."""
    return [st.png_bytes(cv.image) for cv in layout_risiko_map_pages(data, words=words)]
