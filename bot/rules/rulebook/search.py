"""Finding the article that answers a referee's question, in Italian or English (BOT-RUL-1).

Two stages. First, each article is indexed twice — its Italian title, summary, keywords and own questions with the
Italian Snowball stemmer, its English ones with the English stemmer — and a question, stemmed both ways, is scored
with BM25F against both indexes (title and keywords weigh more than the summary, the summary more than the article's
own questions: the ones it answers, written from the rulebook's text), each language weighed by how much of
the question it recognises, so that English as Italian players write it ("the defensor throws the dices") counts
in both. Second, the best few candidates are re-ranked with the article's fields: how much of the question the
article covers, how much of its title the question says, and which of its keyword phrases the question contains
whole. Third, a learned ranker (:mod:`bot.rules.rulebook.learned`: a linear model over the question's stems, word
pairs and letter pieces, hashed into buckets, fitted on the articles' own fields and questions; a few hundred KB per
preset) gives every article a probability, and the final order blends it with the first two stages' score.

Before any of that the words are normalised the same way for articles and questions: accents folded ("penalità" =
"penalita"), elisions split, stop words dropped, and the game's words that players use interchangeably, in either
language, folded to one term ("carri", "tanks" and "armate" are armies; "dadi", "dice" and "dices" are dice). A word
of a question the preset's articles never use is read as the article word one typo away, when there is one
("tabbellone", "sdadta", "canoni").

The index is built and the ranker read once per preset (0.2-0.7 s, the ranker a few milliseconds of it); a question
takes about a millisecond. Nothing is
shared and mutable between threads except the Snowball stemmers, which are per thread (their stems are cached
behind a thread-safe ``lru_cache``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache

import snowballstemmer

from bot.rules.errors import RuleError
from bot.rules.presets import rulebook_preset
from bot.rules.rulebook import LANGS, Article, for_preset, learned

QUERY_MAX = 500
# "asks": chosen on the tuning half only (scripts/tune_rules_desk.py)
FIELD_WEIGHTS = {"title": 3.0, "keywords": 2.5, "summary": 1.0, "asks": 0.5}
K1, B = 1.2, 0.6
RERANK_DEPTH = 12  # candidates of the first stage the second one looks at
# Second stage: final = bm25 / best bm25 + COVERAGE * (share of the question's words the article has)
#               + TITLE * (share of the title's words the question has) + PHRASE * (keyword phrases said whole)
COVERAGE_WEIGHT, TITLE_WEIGHT, PHRASE_WEIGHT = 0.6, 0.3, 0.25
PAIR_WEIGHT = 0.6  # a pair of words said together, on top of the two words
SMALL_NUMBER_WEIGHT = 0.3  # "6", "2", "3": a count in a question says little about which rule it is
TYPO_MIN_LENGTH = 6
# Third stage: final = LEARNED * (the learned ranker's probability) + (1 - LEARNED) * (the first two stages' score
# against their best), over every article; chosen on the articles' own questions held back from training
# (python -m scripts.tune_rules_desk --learned; again for the hashed rankers of issue #48), never on a question set.
LEARNED_WEIGHT = 0.8
OTHER_LANGUAGE_WEIGHT, KNOWN_BASE = 0.5, 0.5


def _listed(text: str) -> frozenset[str]:
    """The words of a space-separated list (the tables below read better that way)."""
    return frozenset(text.split())


STOP = {
    "it": _listed(
        "a ad al alla alle allo ai agli all anche avere c che chi ci come con cosa cui da dal dalla dalle dai dall "
        "degli dei del della delle dello dell deve devo di dopo e ed era essere fa fare gli ha hai hanno ho i il in "
        "io la le lei lo loro lui ma mi mia mio ne nei nel nella nelle nell no non noi o per perche piu puo quale "
        "quali quando quanto quanti quante quella quello quell questa questo se sei si sia siamo sono su sua sue "
        "suo sul sulla sull tra tu tutti un una uno va vi vuol posso possiamo puoi dobbiamo gia ancora adesso ora qui "
        "succede sto sta nello negli sugli sui sullo dallo dagli col coi abbiamo avete siete stiamo durante "
        "mentre"
    ),
    "en": _listed(
        "a about after an and any are as at be been before but by can could did do does doing for from had has "
        "have he her him his how i if in into is it its me my no not of on or our she should so than that the "
        "their them then there they this to too us was we were what when where which who whom why will with "
        "would you your am didn doesn don isn wasn hadn ve ll re just now still anyway also happens happen "
        "happened during while"
    ),
}
ITALIAN_HINTS = {"il", "che", "della", "delle", "per", "sono", "chi", "cosa", "quando", "perché", "perche", "non",
                 "gli", "una", "del", "con", "dopo", "ho", "ha"}  # fmt: skip
ENGLISH_HINTS = {"the", "what", "who", "when", "does", "is", "are", "can", "my", "his", "her", "with", "after",
                 "of", "and", "do", "if", "how"}  # fmt: skip

# Phrases read as one word before anything else (in articles and questions alike).
PHRASES = {"dice-off": "sdadata", "dice off": "sdadata", "sand timer": "clessidra", "score sheet": "referto",
           "knocked out": "eliminato", "knock out": "eliminato", "fare risiko": "risiko", "make risiko": "risiko",
           "in piu": "extra", "di troppo": "extra", "too many": "extra"}  # fmt: skip
# The game's words, Italian and English, folded to one term: players mix the two and use them interchangeably.
# Each term is written once per group; a word in no group is itself.
GROUPS = {
    "armata": "armata armate carri carro carrarmati carrarmato truppe army armies tanks tank troops soldiers",
    "dado": "dado dadi dice die dices",
    "difensore": "difensore difensori difesa defender defenders defence defense defensor defending",
    "attaccante": "attaccante attaccanti attacker attackers",
    "gettone": "gettone gettoni token tokens",
    "clessidra": "clessidra clessidre hourglass timer",
    "segnalino": "segnalino segnalini marker markers",
    "arbitro": "arbitro arbitri referee referees ref",
    "giudice": "giudice judge",
    "carta": "carta carte card cards",
    "tris": "tris set sets combo combinazione combinazioni",
    "territorio": "territorio territori territory territories country countries",
    "obiettivo": "obiettivo obiettivi obbiettivo obbiettivi objective objectives goal",
    "partita": "partita partite game games match",
    "tavolo": "tavolo tavoli table tables",
    "penalita": "penalita penalty penalties",
    "sanzione": "sanzione sanzioni sanction sanctions",
    "squalifica": "squalifica squalificato squalificata squalificare disqualified disqualification disqualify",
    "ritardo": "ritardo ritardi late lateness",
    "spettatore": "spettatore spettatori pubblico spectator spectators audience onlooker onlookers",
    "eliminato": "eliminato eliminata eliminati eliminare elimina eliminate eliminated elimination",
    "rinforzi": "rinforzi rinforzo reinforcement reinforcements",
    "confinante": "confinante confinanti confina confinano confinare confine confini bordering border borders adjacent "
    "neighbouring neighboring",
    "congelato": "congelato congelata congelamento congelare frozen freeze freezing",
    "sdadata": "sdadata sdadare sdada sdadano sdadato",
    "consiglio": "consiglio consigli consigliare suggerito suggerire suggerimento advice advise suggested hint",
    "patto": "patto patti accordo accordi patteggiamenti pact pacts deals alliance",
    "minaccia": "minaccia minacce threat threats",
    "bestemmia": "bestemmia bestemmie bestemmiare swearing blasphemy swears",
    "telefono": "telefono telefoni cellulare phone phones mobile",
    "referto": "referto referti report",
    "limite": "limite limiti limit cap",
    "classifica": "classifica classifiche standings ranking",
    "semifinale": "semifinale semifinali semifinal semifinals semis",
    "iscrizione": "iscrizione iscrizioni iscritti iscritto registration entries entry",
    "dimostrazione": "dimostrazione dimostrare dimostra demonstration demonstrate dimostration",
    "dichiarazione": "dichiarazione dichiarazioni declaration declarations bid bids",
    "ostacolo": "ostacolo ostacoli obstacle obstacles",
    "casella": "casella caselle square squares cell cells",
    "tabellone": "tabellone plancia plance board boards",
    "muro": "muro muri wall walls",
    "vortice": "vortice vortex",
    "tirare": "tirare tira tiro tiri tirato tirano lanciare lancia lancio lanci lanciato lanciano roll rolls rolled "
    "rolling throw throws thrown threw",
    "vincere": "vincere vince vinto vincitore vincitori win wins won winner winners",
    "perdere": "perdere perde perso perdono lose loses lost losing",
    "iniziare": "iniziare inizia inizio comincia cominciare start starts started begin begins beginning",
    "finire": "finire finisce finito termina terminare terminato chiude chiudere chiusura end ends ended finish "
    "finished",
    "mossa": "mossa mosse move moves moving moved spostare sposta spostato spostamento spostamenti",
    "conquistare": "conquistare conquista conquistato conquistati conquiste conquer conquered conquest conquests",
    "piazzare": "piazzare piazza piazzato piazzate posizionare posiziona posizionato place placed placing",
    "pescare": "pescare pesca pesco pescato draw draws drew drawn",
    "mostrare": "mostrare mostra mostrato mostrate show shows showed shown",
    "dichiarare": "dichiarare dichiara dichiarato dichiarata declare declares declared",
    "punti": "punto punti punteggio punteggi points score scores scoring",
    "ammonizione": "ammonizione ammonimento richiamo richiami warning warnings warned caution",
    "espulsione": "espulsione espulso espulsa espellere expel expelled expulsion",
    "regola": "regola regole regolamento rule rules rulebook",
    "premio": "premio premi prize prizes",
    "urgenza": "urgenza emergenza malore emergency",
    "minuti": "minuto minuti minute minutes",
    "giro": "giro giri round rounds",
    "turno": "turno turni turn turns",
    "mano": "mano mani hand hands",
    "tempo": "tempo time",
    "giocatore": "giocatore giocatori player players",
    "avversario": "avversario avversari opponent opponents",
    "bordo": "bordo bordi edge edges",
    "colore": "colore colori colour colours color colors",
    "ultimo": "ultimo ultima last",
    "squadra": "squadra squadre team teams",
    "finale": "finale finali final finals",
    "famiglia": "marito moglie coniugi fratello fratelli sorella sorelle parenti husband wife spouse spouses "
    "brother brothers sister sisters siblings relatives",
    "cannone": "cannone cannoni artiglieria cannon cannons artillery",
    "fante": "fante fanti fanteria infantry",
    "cavaliere": "cavaliere cavalieri cavalleria cavalry",
    "jolly": "jolly joker jokers",
    "bandierina": "bandierina bandierine flag flags",
    "soluzione": "soluzione soluzioni solution solutions",
    "simbolo": "simbolo simboli symbol symbols",
    "sguarnito": "sguarnito sguarnita sguarniti empty bare undefended",
    "massimo": "massimo massima max maximum",
    "minimo": "minimo minima min minimum",
    "parita": "parita pareggio spareggio tie tied ties tiebreak tiebreaker",
    "valore": "valore valori value values worth",
    "extra": "extra eccesso excess",
    "cambio": "cambio cambiare cambia cambiarne cambiano change changes exchange exchanges trade trades traded",
    "withdraw": "ritirarsi abbandona abbandonare abbandono abbandonato withdraw withdraws withdrew withdrawn "
    "withdrawal withdrawing quit quits quitting",
    "base": "base normale standard classico classic basic",
}
FOLD = {word: term for term, words in GROUPS.items() for word in words.split()}
# Words that mean something else in one language: in Italian "dice" is "says".
FOLD_BY_LANG = {
    "it": FOLD | dict.fromkeys(_listed("dire dice dico dici dicono diciamo detto detta dicendo"), "dire"),
    "en": FOLD,
}
SMALL_NUMBER = re.compile(r"\d")


class SearchError(RuleError):
    """``query_empty``, ``query_too_long`` or ``preset_unknown``."""


@dataclass(frozen=True, slots=True)
class Match:
    """An article the desk found for a question, with its score."""

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


def words(text: str, lang: str) -> list[str]:
    """The folded words of ``text`` written in ``lang``: accents off, elisions split, the game's synonyms folded to
    one term."""
    folded = _fold(text).replace("'", " ").replace("’", " ")
    for phrase, word in PHRASES.items():
        folded = folded.replace(phrase, word)
    fold = FOLD_BY_LANG[lang]
    return [fold.get(w, w) for w in re.findall(r"[a-z0-9]+", folded)]


@lru_cache(maxsize=65536)
def _stem(word: str, lang: str) -> str:
    """The stem of one word (a word asked again costs a look-up: stemming is most of a question's time)."""
    return str(_stemmer(lang).stemWord(word))


def _stems(found: Iterable[str], lang: str) -> list[str]:
    return [_stem(w, lang) for w in found if w not in STOP[lang] and (len(w) > 1 or w.isdigit())]


def tokens(text: str, lang: str) -> list[str]:
    """Folded, stop-word-free, stemmed terms of ``text`` for ``lang``."""
    return _stems(words(text, lang), lang)


def _with_pairs(stems: list[str]) -> list[str]:
    """The stems and their pairs, next to each other or one word apart ("messo un'armata in più", "knocked Anna
    out")."""
    near = itertools.chain(itertools.pairwise(stems), zip(stems, stems[2:], strict=False))
    return stems + [f"{a}_{b}" for a, b in near]


def terms(text: str, lang: str) -> list[str]:
    """The stemmed words of ``text`` and its word pairs ("terzo giro" → terz, gir, terz_gir): a pair a question
    shares with an article counts on top of its two words."""
    return _with_pairs(tokens(text, lang))


CHAR_GRAMS = (3, 4, 5)
# Bumped whenever words(), terms() or the tables above change how a text becomes features: the learned ranker's
# weights (bot/rules/rulebook/learned/) were fitted on the old features and must be fitted again
# (python -m scripts.train_rules_desk); until they are, the desk ranks with its first two stages alone.
FEATURES_VERSION = 1


def learned_features(text: str, stems: Mapping[str, list[str]] | None = None) -> tuple[Counter[str], Counter[str]]:
    """What the learned ranker reads of a text: its stemmed words and word pairs in both languages ("it:armat",
    "en:armat_extra"), and the three-to-five-letter pieces of its folded words (" sdad", "adata ") that survive
    a typo, a missing accent or an English ending on an Italian word. ``stems``: the text's stems per language when
    the caller has them already (the desk's, typos read as the article word)."""
    stems = stems or {lang: tokens(text, lang) for lang in LANGS}
    said = Counter(f"{lang}:{term}" for lang in LANGS for term in _with_pairs(stems[lang]))
    grams: Counter[str] = Counter()
    for word in words(text, "it"):
        padded = f" {word} "
        for n in CHAR_GRAMS:
            grams.update(padded[i : i + n] for i in range(len(padded) - n + 1))
    return said, grams


def fingerprint(articles: Iterable[Article]) -> str:
    """What the learned ranker was fitted on: every searched field of ``articles``, in order, and how text becomes
    features. A ranker whose fingerprint differs was fitted on other articles and is not used."""
    digest = hashlib.sha256(f"features {FEATURES_VERSION}".encode())
    tables = (sorted(STOP["it"]), sorted(STOP["en"]), PHRASES, GROUPS)
    digest.update(json.dumps(tables, sort_keys=True).encode())
    for a in articles:
        fields = [a.id, *(a.title[lang] for lang in LANGS), *(a.summary[lang] for lang in LANGS)]
        fields += [x for lang in LANGS for x in (*a.keywords[lang], "|", *a.asks[lang], "|")]
        digest.update(json.dumps(fields, ensure_ascii=False).encode())
    return digest.hexdigest()


def detect_language(text: str) -> str:
    """'it' or 'en' from common words (accented vowels lean Italian); Italian when undecided."""
    found = re.findall(r"[a-zà-ú']+", text.lower())
    it = sum(w in ITALIAN_HINTS for w in found) + sum(ch in "àèéìòù" for ch in text.lower())
    en = sum(w in ENGLISH_HINTS for w in found)
    return "en" if en > it else "it"


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


@dataclass(frozen=True, slots=True)
class _Index:
    articles: tuple[Article, ...]
    tf: dict[str, tuple[Counter[str], ...]]  # lang → per article weighted term frequencies
    length: dict[str, tuple[float, ...]]
    average: dict[str, float]
    df: dict[str, Counter[str]]
    stems: dict[str, tuple[frozenset[str], ...]]  # lang → per article every stem of every field
    titles: dict[str, tuple[frozenset[str], ...]]  # lang → per article the stems of its title
    phrases: dict[str, tuple[tuple[frozenset[str], ...], ...]]  # lang → per article its keyword phrases' stems
    vocabulary: frozenset[str]  # every folded word of the preset's articles, both languages
    near: Mapping[str, tuple[str, ...]]  # a word with one letter deleted → the vocabulary words it comes from
    fingerprint: str  # of the articles, for the learned ranker


@cache
def _index(preset: str) -> _Index:
    found = for_preset(preset)
    if not found:
        raise SearchError("preset_unknown", preset)
    tf: dict[str, tuple[Counter[str], ...]] = {}
    length: dict[str, tuple[float, ...]] = {}
    average: dict[str, float] = {}
    df: dict[str, Counter[str]] = {}
    stems: dict[str, tuple[frozenset[str], ...]] = {}
    titles: dict[str, tuple[frozenset[str], ...]] = {}
    phrases: dict[str, tuple[tuple[frozenset[str], ...], ...]] = {}
    vocabulary: set[str] = set()
    for lang in LANGS:
        rows: list[Counter[str]] = []
        for a in found:
            weighted: Counter[str] = Counter()
            fields = {"title": [a.title[lang]], "summary": [a.summary[lang]], "keywords": list(a.keywords[lang]),
                      "asks": list(a.asks[lang])}  # fmt: skip
            for field, texts in fields.items():
                for text in texts:  # each keyword phrase on its own: no pairs across two phrases
                    said = words(text, lang)
                    vocabulary.update(w for w in said if not w.isdigit())
                    vocabulary.update(w for w in re.findall(r"[a-z]+", _fold(text)) if w in FOLD)
                    for term in _with_pairs(_stems(said, lang)):
                        weighted[term] += FIELD_WEIGHTS[field]  # type: ignore[assignment]
            rows.append(weighted)
        tf[lang] = tuple(rows)
        length[lang] = tuple(float(sum(r.values())) for r in rows)
        average[lang] = sum(length[lang]) / len(rows)
        df[lang] = Counter(term for r in rows for term in r)
        stems[lang] = tuple(frozenset(t for t in r if "_" not in t) for r in rows)
        titles[lang] = tuple(frozenset(tokens(a.title[lang], lang)) for a in found)
        phrases[lang] = tuple(
            tuple(p for p in (frozenset(tokens(k, lang)) for k in a.keywords[lang]) if len(p) > 1) for a in found
        )
    near: dict[str, list[str]] = {}
    for word in sorted(vocabulary):
        if len(word) >= TYPO_MIN_LENGTH - 1:
            for variant in {word} | _deletes(word):
                near.setdefault(variant, []).append(word)
    return _Index(found, tf, length, average, df, stems, titles, phrases, frozenset(vocabulary),
                  {k: tuple(v) for k, v in near.items()}, fingerprint(found))  # fmt: skip


def _corrected(index: _Index, said: list[str]) -> list[str]:
    """``said`` with each word the articles never use, and no stem of theirs either, read as the article word one
    typo away (a letter missing, extra, changed or two swapped), the most alike first."""
    out = []
    for word in said:
        if (
            len(word) < TYPO_MIN_LENGTH
            or word.isdigit()
            or word in index.vocabulary
            or any(_stem(word, lang) in index.df[lang] for lang in LANGS)
        ):
            out.append(word)
            continue
        candidates = {c for variant in {word} | _deletes(word) for c in index.near.get(variant, ())}
        best = min(candidates, key=lambda c: (abs(len(c) - len(word)), c)) if candidates else word
        out.append(FOLD.get(best, best))
    return out


def _bm25(index: _Index, lang: str, query: list[str]) -> list[float]:
    n = len(index.articles)
    scores = [0.0] * n
    for term in set(query):
        df = index.df[lang].get(term, 0)
        if not df:
            continue
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        if SMALL_NUMBER.fullmatch(term):
            idf *= SMALL_NUMBER_WEIGHT
        if "_" in term:
            idf *= PAIR_WEIGHT
        for i, row in enumerate(index.tf[lang]):
            f = row.get(term, 0.0)
            if f:
                norm = K1 * (1 - B + B * index.length[lang][i] / index.average[lang])
                scores[i] += idf * f * (K1 + 1) / (f + norm)
    return scores


def _language_weights(index: _Index, query: dict[str, list[str]], language: str) -> dict[str, float]:
    """How much each index counts: by the share of the question's words it knows, the detected language leading
    (English as Italian players write it is half Italian words)."""
    known = {lang: sum(t in index.df[lang] for t in query[lang]) / max(1, len(query[lang])) for lang in LANGS}
    return {lang: (1.0 if lang == language else OTHER_LANGUAGE_WEIGHT) * (KNOWN_BASE + known[lang]) for lang in LANGS}


def _idf(index: _Index, lang: str, term: str) -> float:
    n = len(index.articles)
    df = index.df[lang].get(term, 0)
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def _weighted_share(index: _Index, lang: str, part: set[str], whole: set[str]) -> float:
    total = sum(_idf(index, lang, t) for t in whole)
    return sum(_idf(index, lang, t) for t in part) / total if total else 0.0


def _rerank(
    index: _Index, query: dict[str, list[str]], weights: dict[str, float], first: dict[int, float]
) -> list[tuple[int, float]]:
    """The second stage: the first stage's score against the best one, plus what the article's fields say of the
    question (coverage of the question, of the title, keyword phrases said whole), each language by its weight."""
    best = max(first.values())
    total = sum(weights.values())
    out = []
    for i, raw in first.items():
        features = 0.0
        for lang in LANGS:
            asked = set(query[lang])
            if not asked:
                continue
            coverage = _weighted_share(index, lang, asked & index.stems[lang][i], asked)
            title = index.titles[lang][i]
            said_title = len(title & asked) / len(title) if title else 0.0
            whole = sum(1 for p in index.phrases[lang][i] if p <= asked)
            features += (
                weights[lang]
                / total
                * (COVERAGE_WEIGHT * coverage + TITLE_WEIGHT * said_title + PHRASE_WEIGHT * min(whole, 2))
            )
        out.append((i, raw / best + features))
    return out


def search(query: str, preset: str, *, limit: int = 3, lang: str | None = None) -> tuple[str, list[Match]]:
    """The best ``limit`` articles of ``preset`` for ``query``, best first, and the query's language."""
    preset = rulebook_preset(preset)  # a preset playing another's rulebook asks that one's desk
    text = " ".join(str(query).split())
    if not text:
        raise SearchError("query_empty", query)
    if len(text) > QUERY_MAX:
        raise SearchError("query_too_long", len(text))
    index = _index(preset)
    language = lang if lang in LANGS else detect_language(text)
    said = _corrected(index, words(text, language))
    query_stems = {each: _stems(said, each) for each in LANGS}
    weights = _language_weights(index, query_stems, language)
    total = [0.0] * len(index.articles)
    for each in LANGS:
        for i, s in enumerate(_bm25(index, each, _with_pairs(query_stems[each]))):
            total[i] += weights[each] * s
    ranked = sorted(range(len(total)), key=lambda i: (-total[i], i))
    candidates = {i: total[i] for i in ranked[:RERANK_DEPTH] if total[i] > 0}
    if not candidates:
        return language, []
    reranked = sorted(_rerank(index, query_stems, weights, candidates), key=lambda x: (-x[1], x[0]))
    # Past the re-ranked few ("More" pages on), the first stage's order: each scores below every re-ranked one.
    first_best = total[ranked[0]]
    rest = [(i, total[i] / first_best) for i in ranked[RERANK_DEPTH:] if total[i] > 0]
    best = reranked[0][1]
    scored = [(i, s / best) for i, s in reranked + rest]
    ranker = learned.load(preset, index.fingerprint)
    if ranker is not None:
        # Third stage: the learned ranker's probability for every article, blended with the two stages' score.
        chance = learned.probabilities(ranker, learned_features(text, query_stems))
        desk = dict(scored)
        blend = [(i, LEARNED_WEIGHT * p + (1 - LEARNED_WEIGHT) * desk.get(i, 0.0)) for i, p in enumerate(chance)]
        scored = sorted(blend, key=lambda x: (-x[1], x[0]))
    top = scored[0][1]
    matches = [Match(index.articles[i], round(s / top, 3), s) for i, s in scored[: max(1, limit)]]
    return language, matches


def warm_indexes() -> list[str]:
    """Build every preset's index and read its learned ranker now (0.2-0.7 s each) instead of at its first
    question. Returns the presets whose ranker is missing or stale (the desk answers them without it)."""
    from bot.rules.presets import RULEBOOK_PRESETS

    return [preset for preset in RULEBOOK_PRESETS if learned.load(preset, _index(preset).fingerprint) is None]
