"""Shared look: bundled fonts, palette, a text-recording canvas, PNG out. The words drawn (labels, numbers, dates)
come from the caller (:class:`renderer.models.Words`): the renderer has no catalogue of its own.

Fonts are loaded only from ``renderer/fonts`` (package data), never from the host, so every machine draws the
same pixels; characters DejaVu lacks (Japanese, Chinese, Korean, emoji) fall back per character (``_fonts``).
Every text drawn through :class:`Canvas` is recorded with its bounding box so tests can prove that
labels stay inside the image and do not overlap (BOT-IMG-1).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from bot.rules.text import decimals_needed as decimals_needed
from renderer import _fonts

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]

# ---------------------------------------------------------------------------------------------------- palette

INK: Colour = (31, 36, 48)
MUTED: Colour = (108, 117, 132)
FAINT: Colour = (160, 168, 180)
PAPER: Colour = (248, 247, 243)
CARD: Colour = (255, 255, 255)
STRIPE: Colour = (240, 242, 246)
RULE: Colour = (222, 225, 231)
HEADER: Colour = (28, 45, 74)
HEADER_TEXT: Colour = (255, 255, 255)
HEADER_SUB: Colour = (178, 196, 224)
ACCENT: Colour = (214, 140, 0)
# Okabe–Ito derived: up = blue, down = vermillion (safe for red–green colour blindness), plus arrow shapes.
UP: Colour = (0, 114, 178)
DOWN: Colour = (213, 94, 0)
GOOD: Colour = (0, 128, 96)

ROBOT_RGB: dict[str, Colour] = {
    "red": (214, 48, 49),
    "green": (34, 150, 76),
    "blue": (30, 100, 200),
    "yellow": (242, 190, 0),
    "silver": (168, 176, 186),
    "black": (40, 40, 44),
}

# The box's army colours, nudged apart in lightness/hue (bluish green, lighter magenta-purple) so red/green and
# blue/purple stay distinguishable with the common colour-vision deficiencies; the legend names every colour.
ARMY_RGB: dict[str, Colour] = {
    "red": (204, 40, 40),
    "blue": (28, 92, 196),
    "yellow": (240, 196, 20),
    "green": (0, 150, 110),
    "black": (38, 38, 42),
    "purple": (168, 72, 186),
}
NEUTRAL_RGB: Colour = (176, 176, 176)


def text_on(fill: Colour) -> Colour:
    """Black or white, whichever reads better on ``fill`` (relative luminance)."""
    r, g, b = (c / 255 for c in fill)
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return INK if lum > 0.55 else (255, 255, 255)


def mix(a: Colour, b: Colour, t: float) -> Colour:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


# ------------------------------------------------------------------------------------------------------ fonts

font = _fonts.font  # a bundled DejaVu face (regular, bold, cond, cond-bold) at a size; other scripts fall back


# ----------------------------------------------------------------------------------------------------- canvas


@dataclass(slots=True)
class TextItem:
    """A drawn text: its ink box and the pixel size of the smallest font that drew it (this image's pixels)."""

    text: str
    box: Box
    group: str
    size: float = 0.0


@dataclass(slots=True)
class Canvas:
    """An RGB image, its ImageDraw, and the record of every text drawn (box in this image's pixels)."""

    image: Image.Image
    draw: ImageDraw.ImageDraw
    texts: list[TextItem] = field(default_factory=list)

    @classmethod
    def new(cls, width: int, height: int, background: Colour = PAPER) -> Canvas:
        image = Image.new("RGB", (width, height), background)
        return cls(image, ImageDraw.Draw(image))

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        fnt: ImageFont.FreeTypeFont,
        fill: Colour,
        anchor: str = "la",
        group: str = "",
        stroke: int = 0,
        stroke_fill: Colour | None = None,
        record: bool = True,
    ) -> Box:
        """Draw ``text`` and (unless ``record`` is false) record it; returns its ink box (halo excluded)."""
        if not text:
            return (int(xy[0]), int(xy[1]), int(xy[0]), int(xy[1]))
        parts = _fonts.runs(text, fnt)
        if parts is None:
            self.draw.text(xy, text, font=fnt, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill)
            left, top, right, bottom = self.draw.textbbox(xy, text, font=fnt, anchor=anchor)
            box = (int(left), int(top), int(right), int(bottom))
        else:  # another script, emoji or a flag: run by run, each in the face that has it
            box = _fonts.draw(self.image, self.draw, xy, parts, fnt, fill, anchor, stroke, stroke_fill)
        if record:
            self.texts.append(TextItem(text, box, group, float(fnt.size)))
        return box

    def record(self, text: str, boxes: list[Box], group: str, size: float = 0.0) -> None:
        """Record several drawn pieces (e.g. the lines of one label, drawn at ``size`` pixels) as one text item."""
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        self.texts.append(TextItem(text, box, group, size))

    def smallest_text(self) -> float:
        """The pixel size of the smallest font any recorded text was drawn with (0 when nothing was drawn)."""
        return min((t.size for t in self.texts if t.size > 0), default=0.0)


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """Drawn width in pixels, fallback faces included."""
    return _fonts.width(text, fnt)


def fit_text(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` shortened with an ellipsis so that it fits in ``width`` pixels."""
    if text_width(text, fnt) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", fnt) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def wrap_text(text: str, fnt: ImageFont.FreeTypeFont, width: float, max_lines: int = 2) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines, the last one shortened with an ellipsis if needed."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if text_width(trial, fnt) <= width or not current:
            current = trial
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines - 1:
            current = " ".join(words[i:])
            break
    lines.append(current)
    return [fit_text(line, fnt, width) for line in lines[:max_lines]]


def downsample(image: Image.Image, factor: int) -> Image.Image:
    if factor == 1:
        return image
    return image.resize((image.width // factor, image.height // factor), Image.Resampling.LANCZOS)


def shrink(cv: Canvas, factor: int) -> Canvas:
    """Downsample a supersampled canvas; its recorded text boxes are scaled to the final pixels."""
    image = downsample(cv.image, factor)
    texts = [TextItem(t.text, (t.box[0] // factor, t.box[1] // factor, -(-t.box[2] // factor),
                               -(-t.box[3] // factor)), t.group, t.size / factor) for t in cv.texts]  # fmt: skip
    return Canvas(image, ImageDraw.Draw(image), texts)


def png_bytes(image: Image.Image) -> bytes:
    """Encode as PNG (RGB, optimised, no metadata) — deterministic for the same pixels."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


HEADER_H = 118  # the title band with a one-line subtitle
SUBTITLE_LINE = 30


def _header_fonts(height: int) -> tuple[int, ImageFont.FreeTypeFont]:
    base = min(height, HEADER_H)
    return max(18, base * 34 // 110), font("regular", max(14, base * 21 // 110))


def header_height(subtitle: str, width: int, pad: int, height: int = HEADER_H) -> int:
    """The title band's height: ``height``, and one line more when the subtitle needs two lines at ``width``."""
    _, sub_font = _header_fonts(height)
    return height if text_width(subtitle, sub_font) <= width - 2 * pad else height + SUBTITLE_LINE


def header_band(cv: Canvas, title: str, subtitle: str, height: int, pad: int) -> None:
    """The dark title band every image starts with; a subtitle too long for one line wraps onto a second one when
    the band was made tall enough for it (:func:`header_height`)."""
    width = cv.image.width
    cv.draw.rectangle((0, 0, width, height), fill=HEADER)
    cv.draw.rectangle((0, height - 6, width, height), fill=ACCENT)
    base = min(height, HEADER_H)
    start, sub_font = _header_fonts(height)
    size = start
    title_font = font("bold", size)
    while text_width(title, title_font) > width - 2 * pad and size > 0.72 * start:
        size -= 1
        title_font = font("bold", size)
    cv.text((pad, base * 0.40), fit_text(title, title_font, width - 2 * pad), title_font, HEADER_TEXT, "ls", "title")
    lines = wrap_parts(subtitle, sub_font, width - 2 * pad, max_lines=1 + (height - base) // SUBTITLE_LINE)
    boxes = [cv.text((pad, base * 0.76 + i * SUBTITLE_LINE), line, sub_font, HEADER_SUB, "ls", record=False)
             for i, line in enumerate(lines)]  # fmt: skip
    cv.record(subtitle, boxes, "title", float(sub_font.size))


def wrap_parts(text: str, fnt: ImageFont.FreeTypeFont, width: float, max_lines: int = 2, sep: str = " · ") -> list[str]:
    """Like :func:`wrap_text`, but breaking only between the ``sep``-separated parts of ``text`` (a subtitle's
    "round · date · page"), so a part is never split across lines; a part too long alone is word-wrapped."""
    parts = text.split(sep)
    lines: list[str] = []
    for part in parts:
        trial = f"{lines[-1]}{sep}{part}" if lines else part
        if lines and text_width(trial, fnt) <= width:
            lines[-1] = trial
        else:
            lines.append(part)
    if len(lines) > max_lines or any(text_width(line, fnt) > width for line in lines):
        return wrap_text(text, fnt, width, max_lines)
    return lines
