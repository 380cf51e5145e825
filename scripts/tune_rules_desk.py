"""Choose the rules desk's two weights for the articles' own questions (``asks_it``/``asks_en``) on the tuning half
only (dev-time tool, BOT-RUL-1).

    python scripts/tune_rules_desk.py

For every pair of weights on the grid — ``FIELD_WEIGHTS["asks"]`` (the questions as a first-stage field) and
``ASK_WEIGHT`` (in the second stage, how alike the question is to the article's nearest own question) — it asks the
tuning half's questions and prints first and top-three counts, best first. It reads no other split: the held-out
half and the fresh set stay measured, never tuned on (benchmarks/rules_desk.py prints them).
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules.rulebook import search as desk
from tests.rules.rulebook.asked import questions, score

FIELD_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
ASK_GRID = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5)


def main() -> None:
    tuning = [q for q in questions() if q.split == "tuning"]  # never another split
    rows = []
    for field, ask in itertools.product(FIELD_GRID, ASK_GRID):
        desk.FIELD_WEIGHTS["asks"] = field
        desk.ASK_WEIGHT = ask
        desk._index.cache_clear()
        result = score(tuning, lambda q: [m.article.id for m in desk.search(q.text, q.preset, limit=3)[1]])
        rows.append((result.first, result.top3, field, ask))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2], r[3]))
    print(f"tuning half: {len(tuning)} questions; first, top 3 for FIELD_WEIGHTS['asks'], ASK_WEIGHT")
    for first, top3, field, ask in rows:
        print(f"  {first:3} {top3:3}   asks field {field:4}   ask weight {ask:4}")


if __name__ == "__main__":
    main()
