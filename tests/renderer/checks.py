"""Assertions shared by the renderer tests: text boxes inside the image and apart, colours, a perceptual hash."""

from __future__ import annotations

import io

from PIL import Image

from renderer._style import Canvas, TextItem


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def texts_outside(cv: Canvas) -> list[TextItem]:
    w, h = cv.image.size
    return [t for t in cv.texts if t.box[0] < 0 or t.box[1] < 0 or t.box[2] > w or t.box[3] > h]


def overlapping(items: list[TextItem]) -> list[tuple[TextItem, TextItem]]:
    """Pairs of text boxes that intersect (sweep over x; touching edges do not count)."""
    ordered = sorted(items, key=lambda t: t.box[0])
    found = []
    active: list[TextItem] = []
    for item in ordered:
        active = [a for a in active if a.box[2] > item.box[0]]
        for a in active:
            if a.box[1] < item.box[3] and item.box[1] < a.box[3]:
                found.append((a, item))
        active.append(item)
    return found


def close(pixel: object, colour: tuple[int, int, int], tolerance: int = 8) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(int(p) - c) <= tolerance for p, c in zip(pixel[:3], colour, strict=True))


def dhash(image: Image.Image, size: int = 8) -> int:
    """Difference hash: 64 bits describing the coarse light/dark structure; robust to tiny font changes."""
    small = image.convert("L").resize((size + 1, size), Image.Resampling.LANCZOS)
    px = list(small.tobytes())
    bits = 0
    for row in range(size):
        for col in range(size):
            left, right = px[row * (size + 1) + col], px[row * (size + 1) + col + 1]
            bits = (bits << 1) | (1 if left > right else 0)
    return bits


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()
