"""The referees' questions of ``questions/`` and how the rules desk is scored on them, shared by the acceptance
test (test_rules_desk.py) and benchmarks/rules_desk.py.

A question is answered right when the article it names — or one it lists in ``also`` — comes back; an article
split into the rulebook's own sub-items ("R27 3)") answers for its parent ("R27").
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "rules" / "rulebook"  # the question sets
QUESTIONS = HERE / "questions"
# A third set, "fresh": 160 questions written on 2026-11-27 from the rulebooks' text alone by someone who never saw the
# desk's code, its articles' keywords or the questions above; measured once, before any change to the desk. Its
# misses are not printed anywhere, so that nobody tunes on them by accident: it stays the honest figure.
FRESH = HERE / "fresh"
# A fourth set, "fresh2": 160 more questions written on 2026-11-27 (second session), after the fresh set had been
# looked at six times, by four people who read only one preset's rulebooks and a list of its article ids with an
# English label each (no summaries, keywords, own questions, code or other set). Measured before the fourth pass of
# own questions was fitted, then once after it; its misses are never printed either.
FRESH2 = HERE / "fresh2"
SPLITS = ("tuning", "held_out", "fresh", "fresh2")
UNSEEN = ("fresh", "fresh2")  # sets whose misses are counted, never listed
SOURCES = ("original", "casistica", "referee", "english", "itenglish", "typo")


@dataclass(frozen=True, slots=True)
class Question:
    preset: str
    text: str
    lang: str
    article: str
    also: tuple[str, ...]
    source: str
    split: str

    def answered_by(self, article_id: str) -> bool:
        return any(article_id == want or article_id.startswith(want + " ") for want in (self.article, *self.also))


def questions() -> list[Question]:
    out = []
    for file in [*sorted(QUESTIONS.glob("*.toml")), *sorted(FRESH.glob("*.toml")), *sorted(FRESH2.glob("*.toml"))]:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
        for q in data["question"]:
            out.append(
                Question(data["preset"], q["text"], q["lang"], q["article"], tuple(q.get("also", ())), q["source"],
                         q["split"])
            )  # fmt: skip
    return out


@dataclass(frozen=True, slots=True)
class Score:
    asked: int
    first: int
    top3: int
    misses: tuple[tuple[Question, tuple[str, ...]], ...]  # not first: the question and the ids returned

    @property
    def first_rate(self) -> float:
        return self.first / self.asked if self.asked else 0.0

    @property
    def top3_rate(self) -> float:
        return self.top3 / self.asked if self.asked else 0.0


def score(asked: Sequence[Question], answer: Callable[[Question], Sequence[str]]) -> Score:
    """How often ``answer`` (a question → the ids it returns, best first) puts the right article first and in its
    top three."""
    first = top3 = 0
    misses = []
    for q in asked:
        got = tuple(answer(q))[:3]
        hit_first = bool(got) and q.answered_by(got[0])
        first += hit_first
        top3 += any(q.answered_by(g) for g in got)
        if not hit_first:
            misses.append((q, got))
    return Score(len(asked), first, top3, tuple(misses))
