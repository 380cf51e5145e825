"""Benchmark: the rules desk's search (BM25F over stemmed Italian and English, word pairs) against a baseline, in the
same run.

    python benchmarks/rules_desk.py

Every question of tests/rules/rulebook/questions/ is asked to both:
* the desk: ``bot.rules.rulebook.search.search`` (index built once per preset, then cached);
* baseline: plain word overlap — count the question's lower-cased words found in each article's title, summary and
  keywords (both languages), best count first; no stemming, no weights.
It prints per-query latency (median and 95th percentile, after the index is built; the first query of each preset
pays the build, printed apart) and how often each method puts the expected article first and in its top three.
No assertions: the acceptance thresholds are in tests/rules/rulebook/test_rules_desk.py.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules.rulebook import for_preset
from bot.rules.rulebook.search import _index, search

QUESTIONS = Path(__file__).resolve().parents[1] / "tests" / "rules" / "rulebook" / "questions"


def overlap(question: str, preset: str) -> list[str]:
    words = set(re.findall(r"\w+", question.lower()))
    scored = []
    for a in for_preset(preset):
        text = " ".join([*a.title.values(), *a.summary.values(), *(" ".join(k) for k in a.keywords.values())]).lower()
        scored.append((len(words & set(re.findall(r"\w+", text))), a.id))
    scored.sort(key=lambda x: -x[0])
    return [i for _, i in scored[:3]]


def main() -> None:
    asked = []
    for file in sorted(QUESTIONS.glob("*.toml")):
        data = tomllib.loads(file.read_text(encoding="utf-8"))
        asked += [(data["preset"], q["text"], q["article"]) for q in data["question"]]
    builds = {}
    for preset in sorted({p for p, _, _ in asked}):
        _index.cache_clear()
        start = time.perf_counter()
        _index(preset)
        builds[preset] = time.perf_counter() - start
    for preset in builds:
        _index(preset)
    desk_ms, base_ms = [], []
    desk = {"first": 0, "top3": 0}
    base = {"first": 0, "top3": 0}
    for preset, text, want in asked:
        start = time.perf_counter()
        _, matches = search(text, preset, limit=3)
        desk_ms.append((time.perf_counter() - start) * 1000)
        got = [m.article.id for m in matches]
        start = time.perf_counter()
        plain = overlap(text, preset)
        base_ms.append((time.perf_counter() - start) * 1000)
        for tally, ids in ((desk, got), (base, plain)):
            tally["first"] += bool(ids) and ids[0] == want
            tally["top3"] += want in ids
    n = len(asked)

    def p95(xs: list[float]) -> float:
        return sorted(xs)[int(0.95 * (len(xs) - 1))]

    print(f"{n} questions over {len(builds)} presets")
    for preset, seconds in builds.items():
        print(f"  index build {preset}: {seconds * 1000:.1f} ms")
    print(
        f"desk     : median {statistics.median(desk_ms):.2f} ms, p95 {p95(desk_ms):.2f} ms; "
        f"first {desk['first']}/{n} ({desk['first'] / n:.0%}), top 3 {desk['top3']}/{n} ({desk['top3'] / n:.0%})"
    )
    print(
        f"baseline : median {statistics.median(base_ms):.2f} ms, p95 {p95(base_ms):.2f} ms; "
        f"first {base['first']}/{n} ({base['first'] / n:.0%}), top 3 {base['top3']}/{n} ({base['top3'] / n:.0%})"
    )
    print(
        f"ratio    : desk first-place hits / baseline = {desk['first'] / max(1, base['first']):.2f}x; "
        f"desk median latency / baseline = {statistics.median(desk_ms) / statistics.median(base_ms):.2f}x"
    )


if __name__ == "__main__":
    main()
