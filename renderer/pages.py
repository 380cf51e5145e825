"""The phone rule every image is laid out by, and the one way a long image is split into pages.

Discord shows an image about 340 px wide on a phone. Every image is laid out so that its smallest text, shown at
that width, is at least 11 px (:func:`min_text_px`), and no page is taller than ``PAGE_MAX_ASPECT`` times its width
(:func:`page_height_budget`): a page that fits the rule is read without zooming, one that does not is split by
:func:`split_pages`. Tables, standings, the bracket and the map all paginate through this module; the bot, the demo
and ``steward render`` get the same pages because they call the same ``render_…_pages`` functions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

PHONE_WIDTH = 340  # px: an image as wide as a phone's chat column
PHONE_MIN_TEXT = 11  # px: the smallest text we draw, measured at PHONE_WIDTH
PAGE_MAX_ASPECT = 3.0  # a page's height is at most this many times its width


def min_text_px(width: int) -> int:
    """The smallest font size (px) an image ``width`` pixels wide may use: 11 px once shown 340 px wide."""
    return math.ceil(PHONE_MIN_TEXT * width / PHONE_WIDTH)


def at_phone_width(size: float, width: int) -> float:
    """How big ``size`` pixels of an image ``width`` pixels wide look once it is shown 340 px wide."""
    return size * PHONE_WIDTH / width


def page_height_budget(width: int) -> int:
    """The tallest page (px) for an image ``width`` pixels wide."""
    return int(width * PAGE_MAX_ASPECT)


def split_pages(heights: Sequence[int], *, budget: int, fixed: int = 0, gap: int = 0) -> list[range]:
    """Split items of the given heights into consecutive pages that each fit in ``budget`` pixels together with the
    page's ``fixed`` part (header, footer) and a ``gap`` between items: as few pages as the budget allows, filled
    evenly (20 tables make pages of 4, 4, 4, 4, 4 rather than 5, 5, 5, 4, 1). An item taller than a page gets a
    page of its own. Always at least one (possibly empty) page."""
    count = len(_greedy(heights, budget, fixed, gap))
    lo, hi = fixed, budget  # the smallest budget that still needs no more pages: the pages come out even
    while lo < hi:
        mid = (lo + hi) // 2
        if len(_greedy(heights, mid, fixed, gap)) <= count:
            hi = mid
        else:
            lo = mid + 1
    return _greedy(heights, hi, fixed, gap)


def _greedy(heights: Sequence[int], budget: int, fixed: int, gap: int) -> list[range]:
    pages: list[range] = []
    start, used = 0, fixed
    for i, h in enumerate(heights):
        need = h + (gap if i > start else 0)
        if i > start and used + need > budget:
            pages.append(range(start, i))
            start, used = i, fixed + h
        else:
            used += need
    pages.append(range(start, len(heights)))
    return pages
