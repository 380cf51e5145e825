"""Bundled fonts and per-character fallback, so a name in any script draws: DejaVu first (Latin, Greek, Cyrillic and
many symbols), then a Noto Sans CJK subset (kana, kanji, hanzi, hangul), then a Noto Color Emoji subset.

Which face has which character comes from ``fonts/coverage.json`` (written with the subsets by
``scripts/build_fallback_fonts.py``), so no font tool is needed at run time. A text whose characters all sit in
DejaVu (every Latin name) takes the single-font path; only the others are split into runs.

Noto Color Emoji has bitmaps at one size (109 px): an emoji is drawn there in colour and scaled to the text.
Sequences (families, skin tones) are drawn as their separate code points, joiners, variation selectors and tag
characters dropped. No bundled face has the flags: a pair of regional indicators (🇮🇹) is drawn as its two
letters in a small outlined box ("IT"), at the text's own size, never as two empty boxes.
"""

from __future__ import annotations

import bisect
import io
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed.ttf",
    "cond-bold": "DejaVuSansCondensed-Bold.ttf",
}
CJK_FILE = "NotoSansCJK-subset.otf"
EMOJI_FILE = "NotoColorEmoji-subset.ttf"
EMOJI_PX = 109  # the only size Noto Color Emoji's bitmaps come in
# joiner, variation selectors, skin tones, tag characters (the 🏴 subdivision flags' letters)
INVISIBLE = frozenset({0x200D, 0xFE0E, 0xFE0F, *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)})
REGIONAL_A, REGIONAL_Z = 0x1F1E6, 0x1F1FF  # regional indicator symbols: a flag is a pair of them
FAST = 0x250  # below this every character is in DejaVu: Latin, Latin-1, Latin Extended-A/B

MAIN, CJK, EMOJI, FLAG = "main", "cjk", "emoji", "flag"


@cache
def _bytes(name: str) -> bytes:
    return resources.files("renderer").joinpath("fonts", name).read_bytes()


@cache
def _coverage() -> dict[str, tuple[list[int], list[int]]]:
    raw = json.loads(_bytes("coverage.json"))
    return {key: ([lo for lo, _ in spans], [hi for _, hi in spans]) for key, spans in raw.items()}


def covers(key: str, cp: int) -> bool:
    starts, ends = _coverage()[key]
    i = bisect.bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ends[i]


_KIND_OF: dict[int, str] = {}


@cache
def font(kind: str, size: int) -> ImageFont.FreeTypeFont:
    """A bundled DejaVu face (``regular``, ``bold``, ``cond``, ``cond-bold``) at ``size`` pixels."""
    face = ImageFont.truetype(io.BytesIO(_bytes(FONT_FILES[kind])), size)
    _KIND_OF[id(face)] = kind
    return face


@cache
def cjk_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(_bytes(CJK_FILE)), size)


@cache
def _emoji_font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(_bytes(EMOJI_FILE)), EMOJI_PX)


@cache
def _emoji_glyph(cp: int) -> Image.Image:
    """The emoji's colour bitmap, cropped to its ink (RGBA, 109 px high at most)."""
    fnt = _emoji_font()
    canvas = Image.new("RGBA", (EMOJI_PX * 2, EMOJI_PX * 2), (0, 0, 0, 0))
    ImageDraw.Draw(canvas).text((EMOJI_PX // 2, EMOJI_PX // 2), chr(cp), font=fnt, embedded_color=True)
    box = canvas.getbbox()
    return canvas.crop(box) if box else canvas.crop((0, 0, EMOJI_PX, EMOJI_PX))


@cache
def emoji_image(cp: int, height: int) -> Image.Image:
    glyph = _emoji_glyph(cp)
    scale = height / EMOJI_PX
    size = (max(1, round(glyph.width * scale)), max(1, round(glyph.height * scale)))
    return glyph.resize(size, Image.Resampling.LANCZOS)


@cache
def _face_of(kind: str, cp: int) -> str:
    if cp >= 0x1F000 and covers(EMOJI_FILE, cp):  # pictographs in colour, even where DejaVu has a line drawing
        return EMOJI
    if covers(FONT_FILES[kind], cp):
        return MAIN
    if covers(CJK_FILE, cp):
        return CJK
    if covers(EMOJI_FILE, cp):
        return EMOJI
    return MAIN  # nobody has it: DejaVu's empty box


@dataclass(frozen=True, slots=True)
class Run:
    face: str  # MAIN, CJK, EMOJI or FLAG (``text`` then holds the flag's one or two ISO letters)
    text: str


def runs(text: str, fnt: ImageFont.FreeTypeFont) -> list[Run] | None:
    """The text split by the face that draws it; ``None`` when one DejaVu font draws all of it."""
    if text.isascii():
        return None
    kind = _KIND_OF.get(id(fnt))
    if kind is None or max(map(ord, text)) < FAST:
        return None
    out: list[Run] = []
    for ch in text:
        cp = ord(ch)
        if cp in INVISIBLE:
            continue
        if REGIONAL_A <= cp <= REGIONAL_Z:  # one flag per run: a pair of letters
            letter = chr(ord("A") + cp - REGIONAL_A)
            if out and out[-1].face == FLAG and len(out[-1].text) == 1:
                out[-1] = Run(FLAG, out[-1].text + letter)
            else:
                out.append(Run(FLAG, letter))
            continue
        face = _face_of(kind, cp)
        if out and out[-1].face == face and face != FLAG:
            out[-1] = Run(face, out[-1].text + ch)
        else:
            out.append(Run(face, ch))
    if all(r.face == MAIN for r in out):
        return None
    return out


def emoji_height(fnt: ImageFont.FreeTypeFont) -> int:
    return max(1, round(fnt.size * 0.95))


def _flag_font(fnt: ImageFont.FreeTypeFont) -> ImageFont.FreeTypeFont:
    return font("cond-bold", max(1, int(fnt.size)))


def _flag_pad(fnt: ImageFont.FreeTypeFont) -> float:
    return max(2.0, fnt.size * 0.16)


def run_width(run: Run, fnt: ImageFont.FreeTypeFont) -> float:
    if run.face == FLAG:  # the letters, the box's padding on both sides and a space after it
        return float(_flag_font(fnt).getlength(run.text)) + 2 * _flag_pad(fnt) + fnt.size * 0.2
    if run.face == MAIN:
        return float(fnt.getlength(run.text))
    if run.face == CJK:
        return float(cjk_font(int(fnt.size)).getlength(run.text))
    height = emoji_height(fnt)
    return float(sum(emoji_image(ord(ch), height).width + height * 0.12 for ch in run.text))


def width(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """The drawn width of ``text`` with the fallback faces."""
    parts = runs(text, fnt)
    if parts is None:
        return float(fnt.getlength(text))
    return sum(run_width(r, fnt) for r in parts)


def draw(
    image: Image.Image,
    drawer: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    parts: list[Run],
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
    anchor: str,
    stroke: int,
    stroke_fill: tuple[int, int, int] | None,
) -> tuple[int, int, int, int]:
    """Draw the runs left to right as one text at ``xy`` with ``anchor``; returns the ink box."""
    total = sum(run_width(r, fnt) for r in parts)
    horizontal, vertical = anchor[0], anchor[1]
    x = xy[0] - {"l": 0.0, "m": total / 2, "r": total}.get(horizontal, 0.0)
    y = xy[1]
    boxes: list[tuple[float, float, float, float]] = []
    for part in parts:
        if part.face == EMOJI:
            height = emoji_height(fnt)
            # line the bitmap up with the DejaVu line: its box spans the font's ascent to the baseline
            ascent, _ = fnt.getmetrics()
            top = {"m": y - height / 2, "s": y - height * 0.9, "a": y + (ascent - height) * 0.5, "t": y,
                   "b": y - height, "d": y - height}.get(vertical, y - height / 2)  # fmt: skip
            for ch in part.text:
                img = emoji_image(ord(ch), height)
                image.paste(img, (round(x), round(top)), img)
                boxes.append((x, top, x + img.width, top + img.height))
                x += img.width + height * 0.12
            continue
        if part.face == FLAG:
            boxes.append(_draw_flag(drawer, x, y, part.text, fnt, fill, vertical))
            x += run_width(part, fnt)
            continue
        face = fnt if part.face == MAIN else cjk_font(int(fnt.size))
        where = (x, y)
        drawer.text(where, part.text, font=face, fill=fill, anchor="l" + vertical, stroke_width=stroke,
                    stroke_fill=stroke_fill)  # fmt: skip
        boxes.append(drawer.textbbox(where, part.text, font=face, anchor="l" + vertical))
        x += run_width(part, fnt)
    return (
        int(min(b[0] for b in boxes)),
        int(min(b[1] for b in boxes)),
        int(max(b[2] for b in boxes)),
        int(max(b[3] for b in boxes)),
    )


def _draw_flag(
    drawer: ImageDraw.ImageDraw,
    x: float,
    y: float,
    letters: str,
    fnt: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
    vertical: str,
) -> tuple[float, float, float, float]:
    """A flag as its ISO letters in an outlined box, on the line of the text around it; returns the box."""
    face, pad = _flag_font(fnt), _flag_pad(fnt)
    where = (x + pad, y)
    drawer.text(where, letters, font=face, fill=fill, anchor="l" + vertical)
    left, top, right, bottom = drawer.textbbox(where, letters, font=face, anchor="l" + vertical)
    box = (left - pad, top - pad * 0.8, right + pad, bottom + pad * 0.8)
    drawer.rounded_rectangle(box, radius=pad, outline=fill, width=max(1, round(fnt.size / 14)))
    return box
