"""Benchmark: the rules desk's search against a word-overlap baseline, on the tuning half and on the held-out half of
the referees' questions, in the same run.

    python benchmarks/rules_desk.py

Every question of tests/rules/rulebook/questions/ is asked to both:
* the desk: ``bot.rules.rulebook.search.search`` (index built once per preset, then cached);
* baseline: plain word overlap — count the question's lower-cased words found in each article's title, summary and
  keywords (both languages), best count first; no stemming, no weights.
For each half apart it prints how often each method puts the right article first and in its top three, the
per-query latency (median and 95th percentile, after the index is built; the build is printed apart), the figures
by source of question, and the held-out questions the desk does not answer first.

The held-out half is the honest figure: the desk is tuned on the tuning half's failures only. Before any tuning on
this split (the desk as it was, BM25F alone) the same run printed:
    tuning   desk first 222/258 (86.0 %), top 3 247/258 (95.7 %)
    held-out desk first 117/151 (77.5 %), top 3 140/151 (92.7 %), median 0.5 ms
and with the two-stage search tuned on the tuning half (the held-out figures looked at three times, in aggregate):
    tuning   desk first 236/258 (91.5 %), top 3 253/258 (98.1 %)
    held-out desk first 125/151 (82.8 %), top 3 145/151 (96.0 %), median 0.6 ms, p95 0.9 ms
short of the 95 % / 100 % target on the held-out half.

Because the held-out half had been looked at, a third set was written on 2026-11-27: 160 "fresh" questions (40 per
preset; referee, casistica, English, English as Italians write it, typos) from the rulebooks' text alone, by someone
who never saw the desk's code, its keywords or the other questions (tests/rules/rulebook/fresh/). Measured once,
before any change to the desk:
    fresh    desk first 138/160 (86.3 %), top 3 151/160 (94.4 %)
Its misses are never printed (only counted), so that it stays a set nobody tuned on.

Then every article was given the questions it answers (``asks_it``/``asks_en``, 13 + 7 each, 3 900 in all), written
from the rulebooks' text by five people, one per rulebook, who never saw the desk's code or any question set; the
first stage searches them as a fifth field, its weight chosen on the tuning half alone (scripts/tune_rules_desk.py).
The held-out half was looked at twice (once with 7 + 4 questions per article, once with 13 + 7), the fresh set
once, in aggregate:
    tuning   desk first 247/258 (95.7 %), top 3 257/258 (99.6 %)
    held-out desk first 140/151 (92.7 %), top 3 149/151 (98.7 %), median 0.7 ms, p95 1.2 ms
    fresh    desk first 142/160 (88.8 %), top 3 157/160 (98.1 %), median 1.0 ms, p95 1.4 ms
still short of 95 % first and 100 % in the top three. Tried beside it and not kept, judged on the tuning half: the
second pass's 1 755 questions asked against an index holding only the first pass's, as a larger training set — the
eleven weights re-fitted on them by coordinate search (+34 first on those questions, +0 on the tuning half), and a
linear re-ranker over thirteen per-field features trained on them (+2 at best on the tuning half).

Then (same day) a third stage: a learned ranker, multinomial logistic regression over the question's stems, word
pairs and three-to-five-letter pieces, fitted on the articles' own fields and questions only
(scripts/train_rules_desk.py), blended with the first two stages' score. Its settings were chosen on the tuning half
(what it reads, C = 1) and its blend weight on own questions held back from fitting (scripts/tune_rules_desk.py
--learned: 688 → 710 first of 975, 905 → 920 in the top three). The held-out half and the fresh set were looked at,
in aggregate, three times while it was built — the ranker alone (held-out 142 first, 148 top 3; fresh 144, 155),
the blend at 0.7 (142, 149; 144, 157) and the blend the desk takes, 0.9:
    tuning   desk first 251/258 (97.3 %), top 3 258/258 (100 %)
    held-out desk first 142/151 (94.0 %), top 3 148/151 (98.0 %), median 0.7 ms, p95 1.3 ms
    fresh    desk first 145/160 (90.6 %), top 3 156/160 (97.5 %), median 0.9 ms, p95 1.4 ms
+2 and +3 first, one fewer in the top three on each; still short of 95 % first and 100 % in the top three.

Last, a third pass of own questions (8 + 4 more per article, 6 240 in all), written by eight people from the
rulebooks' text alone, who saw neither the code nor any question set, from angles the first two passes lacked: the
situation told without the article's own words, disputes between two players, doubts and negations, the article's
numbers, organizers' questions, chat style. The rankers were fitted again; the blend weight, chosen again on held-back
own questions, stayed 0.9. Measured once, in aggregate (the fourth look at the held-out half and the fresh set this
day):
    tuning   desk first 250/258 (96.9 %), top 3 258/258 (100 %)
    held-out desk first 145/151 (96.0 %), top 3 150/151 (99.3 %), median 0.7 ms, p95 1.3 ms
    fresh    desk first 149/160 (93.1 %), top 3 158/160 (98.8 %), median 1.0 ms, p95 1.8 ms
The held-out half meets 95 % first; one held-out question and two fresh ones are still not in the top three.

A second session of the same day, because the fresh set had been looked at six times: a fourth set, fresh2
(tests/rules/rulebook/fresh2/), 160 questions written by four people who read one preset's rulebooks and a list of
its article ids with an English label each, nothing else. Measured before anything changed:
    fresh2   desk first 146/160 (91.2 %), top 3 159/160 (99.4 %)
Then a fourth pass of own questions (8 + 4 more per article, 8 580 in all) from angles the first three lacked:
search-box words, typos and chat, long stories with the doubt at the end, consequences, a neighbouring rule's words,
a newcomer's or spectator's view, regional words, wrong beliefs. Asked before they were fitted on, the desk put the
right article first for 1 507 of those 2 340 (64.4 %) and in the top three for 2 078 (88.8 %): they were the dev set
for the rankers' C (1 → 8, scripts/train_rules_desk.py). Merged and fitted again, the blend weight chosen again on
held-back own questions (0.9 → 0.8, scripts/tune_rules_desk.py --learned). Measured once, in aggregate (the fifth
look at the held-out half and the fresh set, the second at fresh2):
    tuning   desk first 248/258 (96.1 %), top 3 258/258 (100 %)
    held-out desk first 147/151 (97.4 %), top 3 151/151 (100 %), median 1.0 ms, p95 1.6-1.8 ms
    fresh    desk first 154/160 (96.2 %), top 3 159/160 (99.4 %), median 1.2-1.3 ms, p95 2.1-2.2 ms
    fresh2   desk first 151/160 (94.4 %), top 3 159/160 (99.4 %), median 1.6-2.0 ms, p95 2.7-4.2 ms
(two runs; fresh2's questions are the longest, and each is timed once, cold: best of three runs, as the test times
them, its median is 1.1 ms and its p95 2.1 ms).
The held-out half meets the target (95 % first, 100 % in the top three, median under 2 ms); fresh2, the set nobody
had seen, is 0.6 points short of 95 % first and one question short of 100 % in the top three.
No assertions: the acceptance thresholds are in tests/rules/rulebook/test_rules_desk.py.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules.rulebook import for_preset, learned
from bot.rules.rulebook.search import _index, _stem, search
from tests.rules.rulebook.asked import SOURCES, SPLITS, Question, questions, score


def overlap(question: str, preset: str) -> list[str]:
    words = set(re.findall(r"\w+", question.lower()))
    scored = []
    for a in for_preset(preset):
        text = " ".join([*a.title.values(), *a.summary.values(), *(" ".join(k) for k in a.keywords.values())]).lower()
        scored.append((len(words & set(re.findall(r"\w+", text))), a.id))
    scored.sort(key=lambda x: -x[0])
    return [i for _, i in scored[:3]]


def p95(xs: list[float]) -> float:
    return sorted(xs)[int(0.95 * (len(xs) - 1))]


def timed(method: Callable[[str, str], list[str]], spent: list[float]) -> Callable[[Question], list[str]]:
    def answer(q: Question) -> list[str]:
        start = time.perf_counter()
        got = method(q.text, q.preset)
        spent.append((time.perf_counter() - start) * 1000)
        return got

    return answer


def desk(text: str, preset: str) -> list[str]:
    return [m.article.id for m in search(text, preset, limit=3)[1]]


def main() -> None:
    asked = questions()
    builds = {}
    for preset in sorted({q.preset for q in asked}):
        _index.cache_clear()
        learned._read.cache_clear()
        _stem.cache_clear()
        start = time.perf_counter()
        learned.load(preset, _index(preset).fingerprint)
        builds[preset] = time.perf_counter() - start
    for preset in builds:
        _index(preset)
    print(f"{len(asked)} questions over {len(builds)} presets")
    for preset, seconds in builds.items():
        print(f"  index build and learned ranker read {preset}: {seconds * 1000:.1f} ms")
    held_out_misses = []
    for half in SPLITS:
        these = [q for q in asked if q.split == half]
        print(f"\n{half} ({len(these)} questions)")
        for name, method in (("desk", desk), ("baseline", overlap)):
            spent: list[float] = []
            result = score(these, timed(method, spent))
            print(
                f"  {name:9}: first {result.first}/{result.asked} ({result.first_rate:.1%}), "
                f"top 3 {result.top3}/{result.asked} ({result.top3_rate:.1%}); "
                f"median {statistics.median(spent):.2f} ms, p95 {p95(spent):.2f} ms"
            )
            if name == "desk":
                held_out_misses = list(result.misses) if half == "held_out" else held_out_misses
                for source in SOURCES:
                    part = score([q for q in these if q.source == source], lambda q: desk(q.text, q.preset))
                    if part.asked:
                        print(f"    {source:10} first {part.first}/{part.asked}, top 3 {part.top3}/{part.asked}")
    print("\n(the fresh sets' misses are counted, never listed: nobody tunes on them)")
    print(f"\nheld-out questions the desk does not answer first ({len(held_out_misses)}):")
    for q, got in held_out_misses:
        print(f"  [{q.preset}] {q.text!r} → {list(got)} (want {q.article})")


if __name__ == "__main__":
    main()
