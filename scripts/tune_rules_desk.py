"""Choose the weight of the articles' own questions (``asks_it``/``asks_en``) in the rules desk's first stage, on
the tuning half only (dev-time tool, BOT-RUL-1).

    python scripts/tune_rules_desk.py

For each weight of the grid it asks the tuning half's questions and prints first and top-three counts, best first.
It reads no other split: the held-out half and the fresh set stay measured, never tuned on (benchmarks/rules_desk.py
prints them). On 2026-11-27, with 7 + 4 questions per article, the counts were flat from 0.5 to 1.0 (247-248 first,
257 in the top three, of 258) and the desk took the middle, 0.75; with 13 + 7 per article, 0.5 was best (247 first,
257 in the top three; 0.75 gave 243) and the desk takes 0.5. A second-stage feature tried beside it (how alike the
question is to the article's nearest own question) added nothing on the tuning half at any weight, and was dropped.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules.rulebook import search as desk
from tests.rules.rulebook.asked import questions, score

GRID = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0)


def main() -> None:
    tuning = [q for q in questions() if q.split == "tuning"]  # never another split
    chosen = desk.FIELD_WEIGHTS["asks"]
    rows = []
    try:
        for weight in GRID:
            desk.FIELD_WEIGHTS["asks"] = weight
            desk._index.cache_clear()
            result = score(tuning, lambda q: [m.article.id for m in desk.search(q.text, q.preset, limit=3)[1]])
            rows.append((result.first, result.top3, weight))
    finally:
        desk.FIELD_WEIGHTS["asks"] = chosen
        desk._index.cache_clear()
    print(f"tuning half: {len(tuning)} questions; the desk weighs its articles' questions {chosen}")
    for first, top3, weight in sorted(rows, key=lambda r: (-r[0], -r[1], r[2])):
        print(f"  asks weight {weight:4}: first {first:3}, top 3 {top3:3}")


if __name__ == "__main__":
    main()
