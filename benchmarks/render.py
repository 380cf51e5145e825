"""Renderer benchmark (BOT-IMG-1): standings for 250 players and a Ricochet Robots board with a 12-move path,
each against Pillow's PNG encoding of images of the same size in the same run.

Baselines: (a) encoding the very images we produced (same size, same content) — the floor any renderer that
outputs PNG pays; (b) encoding a flat image of the same size. Ratios > 1 are the cost of drawing.

    python -m benchmarks.render [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from PIL import Image

from bot.present.images import image_words
from renderer import _style as st
from renderer.rr_board import layout_rr_board, render_rr_board
from renderer.standings import layout_standings, render_standings
from tests.support.renderer_fixtures import sample_board, sample_standings


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` runs, after one warm-up."""
    fn()
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    standings = sample_standings(250)
    board = sample_board()
    pages = [cv.image for cv in layout_standings(standings, words=image_words("it"))]
    board_image = layout_rr_board(board, words=image_words("it")).image
    flat_pages = [Image.new("RGB", im.size, st.PAPER) for im in pages]
    flat_board = Image.new("RGB", board_image.size, st.PAPER)

    rows = [
        (
            "standings 250 players",
            f"{len(pages)} pages {pages[0].width}x{sum(p.height for p in pages)} px total",
            timed(lambda: render_standings(standings, words=image_words("it")), args.repeat),
            timed(lambda: [st.png_bytes(p) for p in pages], args.repeat),
            timed(lambda: [st.png_bytes(p) for p in flat_pages], args.repeat),
        ),
        (
            "rr board + 12-move path",
            f"{board_image.width}x{board_image.height} px",
            timed(lambda: render_rr_board(board, words=image_words("it")), args.repeat),
            timed(lambda: st.png_bytes(board_image), args.repeat),
            timed(lambda: st.png_bytes(flat_board), args.repeat),
        ),
    ]
    print(f"Pillow {Image.__version__}; median of {args.repeat} runs each")
    print(
        f"{'case':26} {'size':32} {'render':>9} {'encode same':>12} {'encode flat':>12} {'ratio':>7} {'ratio flat':>10}"
    )
    for name, size, render, enc_same, enc_flat in rows:
        print(
            f"{name:26} {size:32} {render * 1000:7.1f}ms {enc_same * 1000:10.1f}ms {enc_flat * 1000:10.1f}ms"
            f" {render / enc_same:6.2f}x {render / enc_flat:9.1f}x"
        )
    # The per-character font fallback (Japanese, emoji…) must not tax Latin names: measure every name of the
    # 250-player field with the fallback-aware width and with Pillow's plain getlength, same font, same run.
    fnt = st.font("cond-bold", 23)
    names = [r.name for r in standings.rows] * 40
    plain = timed(lambda: [fnt.getlength(n) for n in names], args.repeat)
    aware = timed(lambda: [st.text_width(n, fnt) for n in names], args.repeat)
    mixed = [f"{n} 山田🎲" for n in names[:250]]
    fallback = timed(lambda: [st.text_width(n, fnt) for n in mixed], args.repeat)
    plain_mixed = timed(lambda: [fnt.getlength(n) for n in mixed], args.repeat)
    print(f"width of {len(names)} Latin names: fallback-aware {aware * 1000:.1f}ms vs getlength {plain * 1000:.1f}ms"
          f" = {aware / plain:.2f}x")  # fmt: skip
    print(f"width of {len(mixed)} names with kanji and emoji: {fallback * 1000:.1f}ms vs getlength (boxes)"
          f" {plain_mixed * 1000:.1f}ms = {fallback / plain_mixed:.2f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
