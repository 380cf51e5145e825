"""Finding the article that answers a referee's question, in Italian or English (BOT-RUL-1).

Each article is indexed twice: its Italian title, summary and keywords with the Italian Snowball stemmer, its
English ones with the English stemmer. A question is stemmed with both and scored with BM25F against both
indexes (title and keywords weigh more than the summary), the detected language counting fully and the other by
half — so an English question finds an article through its English text, and a question mixing the two ("il
dice-off") still lands. Accents are folded ("penalità" = "penalita"), stop words dropped, and a handful of game
words that players use interchangeably ("carri" for "armate", "tanks" for "armies") are folded to one term.

The index is built once per preset (a few hundred short documents: a query takes well under a millisecond).
"""

from __future__ import annotations

import itertools
import math
import re
import threading
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache

import snowballstemmer

from bot.rules.errors import RuleError
from bot.rules.rulebook import LANGS, Article, for_preset

QUERY_MAX = 500
FIELD_WEIGHTS = {"title": 3.0, "keywords": 2.5, "summary": 1.0}
K1, B = 1.2, 0.6
OTHER_LANGUAGE_WEIGHT = 0.5

STOP = {
    "it": frozenset(
        {
            "a",
            "ad",
            "al",
            "alla",
            "alle",
            "allo",
            "ai",
            "agli",
            "all",
            "anche",
            "avere",
            "c",
            "che",
            "chi",
            "ci",
            "come",
            "con",
            "cosa",
            "cui",
            "da",
            "dal",
            "dalla",
            "dalle",
            "dai",
            "degli",
            "dei",
            "del",
            "della",
            "delle",
            "dello",
            "deve",
            "devo",
            "di",
            "dopo",
            "e",
            "ed",
            "era",
            "essere",
            "fa",
            "fare",
            "gli",
            "ha",
            "hai",
            "hanno",
            "ho",
            "i",
            "il",
            "in",
            "io",
            "la",
            "le",
            "lei",
            "lo",
            "loro",
            "lui",
            "ma",
            "mi",
            "mia",
            "mio",
            "ne",
            "nei",
            "nel",
            "nella",
            "nelle",
            "no",
            "non",
            "noi",
            "o",
            "per",
            "perche",
            "più",
            "piu",
            "può",
            "puo",
            "quale",
            "quando",
            "quanto",
            "quanti",
            "quante",
            "quella",
            "quello",
            "questa",
            "questo",
            "se",
            "sei",
            "si",
            "sia",
            "siamo",
            "sono",
            "su",
            "sua",
            "sue",
            "suo",
            "sul",
            "sulla",
            "tra",
            "tu",
            "tutti",
            "un",
            "una",
            "uno",
            "va",
            "vi",
            "vuol",
        }
    ),
    "en": frozenset(
        {
            "a",
            "about",
            "after",
            "an",
            "and",
            "any",
            "are",
            "as",
            "at",
            "be",
            "been",
            "before",
            "but",
            "by",
            "can",
            "could",
            "did",
            "do",
            "does",
            "doing",
            "for",
            "from",
            "had",
            "has",
            "have",
            "he",
            "her",
            "him",
            "his",
            "how",
            "i",
            "if",
            "in",
            "into",
            "is",
            "it",
            "its",
            "me",
            "my",
            "no",
            "not",
            "of",
            "on",
            "or",
            "our",
            "she",
            "should",
            "so",
            "than",
            "that",
            "the",
            "their",
            "them",
            "then",
            "there",
            "they",
            "this",
            "to",
            "too",
            "us",
            "was",
            "we",
            "were",
            "what",
            "when",
            "where",
            "which",
            "who",
            "whom",
            "why",
            "will",
            "with",
            "would",
            "you",
            "your",
        }
    ),
}
ITALIAN_HINTS = {"il", "che", "della", "delle", "per", "sono", "chi", "cosa", "quando", "perché", "perche", "non",
                 "gli", "una", "del", "con", "dopo", "ho", "ha"}  # fmt: skip
ENGLISH_HINTS = {"the", "what", "who", "when", "does", "is", "are", "can", "my", "his", "her", "with", "after",
                 "of", "and", "do", "if", "how"}  # fmt: skip
FOLD = {  # words players use for the same thing, folded before stemming
    "carri": "armate", "carro": "armata", "carrarmati": "armate", "carrarmato": "armata", "truppe": "armate",
    "tanks": "armies", "tank": "army", "troops": "armies", "soldiers": "armies",
    "tris": "tris", "combo": "set", "sets": "set",
}  # fmt: skip


class SearchError(RuleError):
    """``query_empty``, ``query_too_long`` or ``preset_unknown``."""


@dataclass(frozen=True, slots=True)
class Match:
    article: Article
    score: float  # relative to the best match of the query (1.0)
    raw: float


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_STEMMERS = threading.local()


def _stemmer(lang: str) -> snowballstemmer.Stemmer:
    """One stemmer per language *and thread*: a Snowball stemmer keeps its word in itself while it works, so two
    threads sharing one corrupt each other's words (seen as IndexError under a burst of questions)."""
    mine: dict[str, snowballstemmer.Stemmer] | None = getattr(_STEMMERS, "by_lang", None)
    if mine is None:
        mine = _STEMMERS.by_lang = {}
    if lang not in mine:
        mine[lang] = snowballstemmer.stemmer("italian" if lang == "it" else "english")
    return mine[lang]


def tokens(text: str, lang: str) -> list[str]:
    """Folded, stop-word-free, stemmed terms of ``text`` for ``lang``."""
    words = [FOLD.get(w, w) for w in re.findall(r"[a-z0-9]+", _fold(text).replace("'", " "))]
    kept = [w for w in words if w not in STOP[lang] and (len(w) > 1 or w.isdigit())]
    return list(_stemmer(lang).stemWords(kept))


def terms(text: str, lang: str) -> list[str]:
    """The stemmed words of ``text`` and its word pairs ("terzo giro" → terz, gir, terz_gir): a pair a question
    shares with a keyword phrase counts on top of its two words."""
    words = tokens(text, lang)
    return words + [f"{a}_{b}" for a, b in itertools.pairwise(words)]


def detect_language(text: str) -> str:
    """'it' or 'en' from common words (accented vowels lean Italian); Italian when undecided."""
    words = re.findall(r"[a-zà-ú']+", text.lower())
    it = sum(w in ITALIAN_HINTS for w in words) + sum(ch in "àèéìòù" for ch in text.lower())
    en = sum(w in ENGLISH_HINTS for w in words)
    return "en" if en > it else "it"


@dataclass(frozen=True, slots=True)
class _Index:
    articles: tuple[Article, ...]
    tf: dict[str, tuple[Counter[str], ...]]  # lang → per article weighted term frequencies
    length: dict[str, tuple[float, ...]]
    average: dict[str, float]
    df: dict[str, Counter[str]]


@cache
def _index(preset: str) -> _Index:
    found = for_preset(preset)
    if not found:
        raise SearchError("preset_unknown", preset)
    tf: dict[str, tuple[Counter[str], ...]] = {}
    length: dict[str, tuple[float, ...]] = {}
    average: dict[str, float] = {}
    df: dict[str, Counter[str]] = {}
    for lang in LANGS:
        rows: list[Counter[str]] = []
        for a in found:
            weighted: Counter[str] = Counter()
            fields = {"title": [a.title[lang]], "summary": [a.summary[lang]], "keywords": list(a.keywords[lang])}
            for field, texts in fields.items():
                for text in texts:  # each keyword phrase on its own: no pairs across two phrases
                    for term in terms(text, lang):
                        weighted[term] += FIELD_WEIGHTS[field]  # type: ignore[assignment]
            rows.append(weighted)
        tf[lang] = tuple(rows)
        length[lang] = tuple(float(sum(r.values())) for r in rows)
        average[lang] = sum(length[lang]) / len(rows)
        df[lang] = Counter(term for r in rows for term in r)
    return _Index(found, tf, length, average, df)


def _bm25(index: _Index, lang: str, query: list[str]) -> list[float]:
    n = len(index.articles)
    scores = [0.0] * n
    for term in set(query):
        df = index.df[lang].get(term, 0)
        if not df:
            continue
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        for i, row in enumerate(index.tf[lang]):
            f = row.get(term, 0.0)
            if f:
                norm = K1 * (1 - B + B * index.length[lang][i] / index.average[lang])
                scores[i] += idf * f * (K1 + 1) / (f + norm)
    return scores


def search(query: str, preset: str, *, limit: int = 3, lang: str | None = None) -> tuple[str, list[Match]]:
    """The best ``limit`` articles of ``preset`` for ``query``, best first, and the query's language."""
    text = " ".join(str(query).split())
    if not text:
        raise SearchError("query_empty", query)
    if len(text) > QUERY_MAX:
        raise SearchError("query_too_long", len(text))
    index = _index(preset)
    language = lang if lang in LANGS else detect_language(text)
    total = [0.0] * len(index.articles)
    for each in LANGS:
        weight = 1.0 if each == language else OTHER_LANGUAGE_WEIGHT
        for i, s in enumerate(_bm25(index, each, terms(text, each))):
            total[i] += weight * s
    ranked = sorted(range(len(total)), key=lambda i: (-total[i], i))
    best = total[ranked[0]] if ranked else 0.0
    matches = [
        Match(index.articles[i], round(total[i] / best, 3) if best else 0.0, total[i])
        for i in ranked[: max(1, limit)]
        if total[i] > 0
    ]
    return language, matches


def warm_indexes() -> None:
    """Build every preset's index now (about 0.1 s each) instead of at its first question."""
    from bot.rules.presets import PRESET_NAMES

    for preset in PRESET_NAMES:
        _index(preset)
