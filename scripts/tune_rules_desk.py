"""Choose the rules desk's weights (dev-time tool, BOT-RUL-1).

    python -m scripts.tune_rules_desk              # the articles' own questions' weight, on the tuning half
    python -m scripts.tune_rules_desk --learned    # the learned ranker's weight and pruning, on own questions held
                                                   # back (needs NumPy and SciPy: pip install -e '.[train]')
    python -m scripts.tune_rules_desk --learned --c 1   # the same with the rankers fitted at another C

For each weight of the grid it asks the tuning half's questions and prints first and top-three counts, best first.
It reads no other split: the held-out half and the fresh set stay measured, never tuned on (benchmarks/rules_desk.py
prints them). On 2026-11-27, with 7 + 4 questions per article, the counts were flat from 0.5 to 1.0 (247-248 first,
257 in the top three, of 258) and the desk took the middle, 0.75; with 13 + 7 per article, 0.5 was best (247 first,
257 in the top three; 0.75 gave 243) and the desk takes 0.5. A second-stage feature tried beside it (how alike the
question is to the article's nearest own question) added nothing on the tuning half at any weight, and was dropped.

``--learned`` reads no question set at all. Every fifth own question of every article (``asks_it``/``asks_en``) is
held back; the rankers are fitted again on the rest (scripts/train_rules_desk.py) and the first two stages index
the rest; the held-back questions are asked with each blend weight. The rule: the most answered first; of weights
within five questions of it, the one with the most in the top three. On 2026-11-27, with 13 + 7 own questions per
article (975 held back): the first two stages alone (0.0) answered 688 first and 905 in the top three, the learned
ranker alone (1.0) 692 and 901, the blend 0.7 711 and 912, 0.9 710 and 920; the desk took 0.9. With 21 + 11 per
article (a third pass, 1 560 held back): 0.0 1 064 and 1 411, 1.0 1 068 and 1 411, 0.6 1 088 and 1 430, 0.9 1 090
and 1 438; the desk keeps 0.9. The first stage's weight of own questions, gridded again on the tuning half after
the third pass, was flat (249-251 first, 258 in the top three at every weight): it stays 0.5.

After a fourth pass (29 + 15 per article; second session of 2026-11-27) the rankers are fitted at C = 8. C was
chosen on the fourth pass's 2 340 questions while they were still outside the articles, so never fitted on: rankers
fitted on the first three passes at C = 1, 8, 16, 32 answered 1 507, 1 581, 1 585, 1 593 of them first (best
blend of each) and 2 078, 2 110, 2 106, 2 106 in the top three; 8 has the most in the top three and keeps fewer
weights than 16 or 32 (0.98 million against 1.09 and 1.20; 0.57 at C = 1). Here, with 1 755 own questions held
back, C = 8: 0.6 1 188 and 1 613, 0.8 1 185 and 1 622, 0.9 1 182 and 1 625, 0.0 1 150 and 1 579; the rule picks
0.8, which the desk takes. ``--c 1`` on the same held-back questions: 0.6 1 176 and 1 602, 0.9 1 170 and 1 611.

Issue #48 made the rankers small (hashed features, int8 weights; scripts/train_rules_desk.py) and ``--learned``
grids the pruning threshold too; the rule picks the blend weight at the desk's threshold and the threshold at the
desk's weight (ties in the top three: the smaller files). On 2026-12-08, 2^14 buckets per block, 1 755 held back:
at 0.8, pruned below 0.05 1 192 first and 1 617 in the top three (1.42 MB of files), 0.1 1 190 and 1 617
(1.00 MB), 0.15 1 188 and 1 615 (0.74 MB), 0.2 1 183 and 1 613 (0.55 MB); pruned below 0.1, 0.6 1 190 and 1 610,
0.9 1 184 and 1 623, 1.0 1 169 and 1 590. The rule picks 0.1 and 0.8 (the named-feature rankers had 1 185 and
1 622 at 0.8). 2^15 buckets for the stems gave 1 197 and 1 615 at 0.1 and 0.8, but the fit needed 0.9 GB.
"""

from __future__ import annotations

import sys
from functools import partial

from bot.rules.rulebook import LANGS, for_preset, learned
from bot.rules.rulebook import search as desk
from tests.support.asked import Question, questions, score

GRID = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0)
LEARNED_GRID = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
PRUNE_GRID = (0.05, 0.1, 0.15, 0.2)  # the learned rankers' pruning threshold (scripts/train_rules_desk.py)
HELD_BACK = 5  # every fifth own question
CLOSE = 5  # questions first within which two blend weights count as tied


def learned_weight(c: float | None) -> None:
    import dataclasses

    from bot.rules.presets import RULEBOOK_PRESETS
    from scripts import train_rules_desk as train

    if c is not None:
        train.C = c

    shipped, held, reduced = for_preset, [], {}
    for preset in RULEBOOK_PRESETS:
        kept = []
        for a in shipped(preset):
            asks = {lang: tuple(x for j, x in enumerate(a.asks[lang]) if j % HELD_BACK) for lang in LANGS}
            held += [Question(preset, x, lang, a.id, (), "own", "held_back")
                     for lang in LANGS for j, x in enumerate(a.asks[lang]) if j % HELD_BACK == 0]  # fmt: skip
            kept.append(dataclasses.replace(a, asks=asks))
        reduced[preset] = tuple(kept)
    chosen, load = desk.LEARNED_WEIGHT, learned.load
    rows = []
    try:
        desk.for_preset = reduced.__getitem__  # type: ignore[attr-defined,assignment]
        desk._index.cache_clear()
        print(f"fitting the rankers without {len(held)} held-back own questions", flush=True)
        fitted = {preset: train.fit(preset, reduced[preset]) for preset in RULEBOOK_PRESETS}
        for prune in PRUNE_GRID:
            rankers = {preset: train.packed(f, prune) for preset, f in fitted.items()}
            size = sum(len(learned.encode(r)) for r in rankers.values())
            learned.load = partial(_given, rankers)
            for weight in LEARNED_GRID:
                desk.LEARNED_WEIGHT = weight
                result = score(held, lambda q: [m.article.id for m in desk.search(q.text, q.preset, limit=3)[1]])
                rows.append((result.first, result.top3, weight, prune, size))
    finally:
        desk.for_preset = shipped  # type: ignore[attr-defined]
        learned.load = load
        desk.LEARNED_WEIGHT = chosen
        desk._index.cache_clear()
    print(f"{len(held)} held-back own questions, rankers fitted at C = {train.C}, {train.BUCKETS} buckets; the desk "
          f"blends the learned ranker at {chosen}, pruned below {train.PRUNE}")  # fmt: skip
    for first, top3, weight, prune, size in sorted(rows, key=lambda r: (-r[0], -r[1], r[2], r[3])):
        print(f"  learned weight {weight:4}, pruned below {prune:4}: first {first:4}, top 3 {top3:4}; {size:,} bytes")
    at_prune = [r for r in rows if r[3] == train.PRUNE] or rows
    print(f"the rule (most first; within {CLOSE} of it, most in the top three), pruned below {at_prune[0][3]}, picks "
          f"the weight {_rule(at_prune)[2]}")  # fmt: skip
    at_weight = [r for r in rows if r[2] == chosen] or rows
    print(f"the rule, blended at {at_weight[0][2]} (ties: the smaller files), picks pruning below "
          f"{_rule(at_weight)[3]}")  # fmt: skip


def _given(rankers: dict[str, learned.Ranker], preset: str, fingerprint: str) -> learned.Ranker | None:
    return rankers[preset]


def _rule(rows: list[tuple[int, int, float, float, int]]) -> tuple[int, int, float, float, int]:
    most = max(first for first, *_ in rows)
    return max((r for r in rows if r[0] >= most - CLOSE), key=lambda r: (r[1], -r[4], r[0], -r[2]))


def main() -> None:
    args = sys.argv[1:]
    if "--learned" in args:
        learned_weight(float(args[args.index("--c") + 1]) if "--c" in args else None)
        return
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
