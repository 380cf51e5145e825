"""Rebuild the renderer's fallback fonts (dev-time only; needs fontTools and the Debian Noto fonts).

    python scripts/build_fallback_fonts.py /usr/share/fonts

Writes into ``renderer/fonts/``:
- ``NotoSansCJK-subset.otf``: Noto Sans CJK JP, cut to kana, CJK punctuation, full-width forms, the JIS X 0208
  kanji (levels 1 and 2), the GB 2312 hanzi (levels 1 and 2) and the KS X 1001 hangul syllables: the characters
  of those national standards, which cover nearly every name people type.
- ``NotoColorEmoji-subset.ttf``: Noto Color Emoji cut to the single-code-point emoji of the common blocks
  (faces, people and hands, hearts, animals, food, sport, objects, symbols), without the sequences.
- ``coverage.json``: for every bundled face, the code points it has, as ranges; the renderer reads it to pick a
  face per character without fontTools at run time.

Both Noto fonts are under the SIL Open Font License 1.1 (``LICENSE-Noto.txt``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

OUT = Path(__file__).resolve().parent.parent / "renderer" / "fonts"
EMOJI_BLOCKS = [
    (0x1F300, 0x1F5FF),  # symbols and pictographs
    (0x1F600, 0x1F64F),  # emoticons
    (0x1F680, 0x1F6FF),  # transport and map
    (0x1F900, 0x1F9FF),  # supplemental symbols and pictographs
    (0x2600, 0x27BF),  # miscellaneous symbols, dingbats
    (0x2B00, 0x2BFF),  # stars and arrows
]


def _legacy(codec: str, rows: range, cols: range) -> set[int]:
    out: set[int] = set()
    for r in rows:
        for c in cols:
            try:
                text = bytes([r, c]).decode(codec)
            except UnicodeDecodeError:
                continue
            out.update(ord(ch) for ch in text)
    return out


def cjk_codepoints() -> set[int]:
    wanted = set(range(0x3000, 0x3100)) | set(range(0x30A0, 0x3100)) | set(range(0xFF00, 0xFFF0))
    wanted |= _legacy("euc_jp", range(0xB0, 0xF5), range(0xA1, 0xFF))  # JIS X 0208 kanji, levels 1-2
    wanted |= _legacy("gb2312", range(0xB0, 0xF8), range(0xA1, 0xFF))  # GB 2312 hanzi, levels 1-2
    wanted |= _legacy("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF))  # KS X 1001 hangul syllables
    return wanted


def ranges(codepoints: set[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for cp in sorted(codepoints):
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def cut(font: TTFont, codepoints: set[int], path: Path, *, keep_colour: bool) -> set[int]:
    options = subset.Options()
    options.layout_features = [] if keep_colour else ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = False
    have = set(font.getBestCmap()) & codepoints
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(have))
    subsetter.subset(font)
    font.save(path)
    return set(font.getBestCmap())


def main(root: str) -> None:
    base = Path(root)
    cjk = TTCollection(str(base / "opentype/noto/NotoSansCJK-Regular.ttc")).fonts[0]  # the JP face
    cjk_cover = cut(cjk, cjk_codepoints(), OUT / "NotoSansCJK-subset.otf", keep_colour=False)
    emoji = TTFont(str(base / "truetype/noto/NotoColorEmoji.ttf"))
    wanted = {cp for lo, hi in EMOJI_BLOCKS for cp in range(lo, hi + 1)}
    emoji_cover = cut(emoji, wanted, OUT / "NotoColorEmoji-subset.ttf", keep_colour=True)
    coverage = {"NotoSansCJK-subset.otf": ranges(cjk_cover), "NotoColorEmoji-subset.ttf": ranges(emoji_cover)}
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf"):
        coverage[name] = ranges(set(TTFont(str(OUT / name)).getBestCmap()))
    (OUT / "coverage.json").write_text(json.dumps(coverage, separators=(",", ":")) + "\n")
    for p in ("NotoSansCJK-subset.otf", "NotoColorEmoji-subset.ttf", "coverage.json"):
        print(p, (OUT / p).stat().st_size, "bytes")
    print("cjk", len(cjk_cover), "code points; emoji", len(emoji_cover))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts")
