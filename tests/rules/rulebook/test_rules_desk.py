"""The rules desk (BOT-RUL-1): every article of the five rulebooks is in our data, in our own words, and a referee's
question — asked the way players talk, in Italian or English — finds the right article. The questions are split
once into a tuning half and a held-out half (questions/*.toml); the desk is scored on each apart, and the held-out
half is the honest figure: nothing was ever tuned on it."""

from __future__ import annotations

import dataclasses
import gzip
import logging
import math
import re
import statistics
import time
import tomllib
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from fnmatch import fnmatch
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.presets import PRESET_NAMES, RULEBOOK_PRESETS
from bot.rules.rulebook import LANGS, articles, for_preset, learned
from bot.rules.rulebook.search import (
    SearchError,
    detect_language,
    fingerprint,
    learned_features,
    search,
    tokens,
    warm_indexes,
    words,
)
from tests.support.asked import SOURCES, SPLITS, UNSEEN, Question, questions, score

RULEBOOKS = Path(__file__).resolve().parents[4] / "shared" / "rulebooks"  # beside the repository, where it exists

EXPECTED_IDS = {
    "RR": ["1", "2", "3", "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7", "4.8", "4.9", "4.10", "4.11", "5.1",
           "5.2", "6.1", "6.2", "6.3", "6.4", "7", "8.1", "8.2", "9.1", "9.2", "9.3", "10", "11.1", "11.2", "12",
           "13.1", "13.2", "13.3", "13.4", "13.5", "13.6", "13.7", "13.8", "13.9", "14", "15"],
    "ARB": [str(n) for n in range(1, 29)],
    "FIRK": [f"P{n}" for n in range(1, 12)] + ["PEN"] + [f"R{n}" for n in range(1, 28)],
    "NP": ["GIUDICE UFFICIALE", "OBIETTIVI TORNEO", "COMPOSIZIONE DEI TAVOLI", "DISTRIBUZIONE INIZIALE DEI TERRITORI",
           "LIMITE DI ARMATE", "COMPORAMENTO AL DI FUORI DEL PROPRIO TURNO", "VALORE DEI TRIS", "PUNTEGGIO FINALE",
           "RAGGIUNGIMENTO OBIETTIVO", "FINALE CON SDADATA", "PUNTEGGIO VALIDO PER IL PROGETTO LA NOSTRA PASSIONE",
           "SCOPO DEL GIOCO", "PREPARAZIONE", "REGOLE DA TORNEO"],
    "UFF": ["Arbitri o Commissione Arbitrale", "Area del Torneo", "Ritardi", "Referto della partita",
            "Gestione del tempo", "Comportamento dei giocatori e spettatori", "Disturbatori", "Osservanza delle regole",
            "Gestione delle controversie", "Tempo per decidere le proprie mosse", "Supporti esterni",
            "Modalità nel lancio dei dadi", "Mostra del numero di carte", "Posizionamento delle armate",
            "Inizio della fase dei combattimenti", "Passaggio del turno", "Ritiro della carta", "Ritiro dal gioco",
            "Divieto di mostrare l'obiettivo", "Patteggiamenti, consigli, minacce o irosità",
            "Annullamento della partita", "Posizionamento iniziale delle armate", "Lancio dei dadi",
            "Piazzamento rinforzi e tris", "Attacchi e spostamenti", "Pesca delle carte",
            "Ritiro/squalifica di un giocatore", "Sdadata", "Diplomazia e varie"],
}  # fmt: skip


def _norm(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.lower().removeprefix("uff "))
    return " ".join(re.findall(r"[a-z0-9]+", "".join(c for c in folded if not unicodedata.combining(c))))


@pytest.mark.parametrize("rulebook", sorted(EXPECTED_IDS))
def test_bot_rul_1_every_article_of_each_rulebook_is_in_the_desk(rulebook: str):
    have = {_norm(a.id) for a in articles() if a.rulebook == rulebook}
    missing = [
        i for i in EXPECTED_IDS[rulebook] if not any(h == _norm(i) or h.startswith(_norm(i) + " ") for h in have)
    ]
    assert missing == []


def test_bot_rul_1_every_article_has_both_languages_keywords_and_real_preset_fields():
    from bot.rules.presets import load_preset

    for a in articles():
        assert set(a.title) == set(a.summary) == set(a.asks) == set(LANGS)
        assert all(len(a.keywords[lang]) >= 3 for lang in LANGS), a.reference
        assert len(a.asks["it"]) >= 5 and len(a.asks["en"]) >= 3, a.reference  # questions it answers, searched
        assert set(a.presets) <= set(PRESET_NAMES), a.reference
        for field in a.fields:
            *sections, key = field.split(".")
            for preset in a.presets:
                table = load_preset(preset).data
                for s in sections:
                    table = table[s]
                assert key in table, f"{a.reference}: {field} is not a field of {preset}"


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the rulebooks are not beside this checkout")
def test_bot_rul_1_summaries_are_our_own_words_never_the_rulebook_s_sentences():
    """No run of eight words of a summary or of an article's own questions (Italian) appears in the rulebooks."""
    sources = {p.name: _norm(p.read_text(encoding="utf-8")) for p in RULEBOOKS.glob("*.md")}
    text = " ".join(sources.values())
    copied = []
    for a in articles():
        for written in (a.summary["it"], *a.asks["it"]):
            words = _norm(written).split()
            for i in range(len(words) - 7):
                if " ".join(words[i : i + 8]) in text:
                    copied.append(f"{a.reference}: {' '.join(words[i : i + 8])}")
                    break
    assert copied == []


# What the desk reaches on each set, as measured (python -m benchmarks.rules_desk prints them): never set above it.
# The held-out half meets the 95 % first / 100 % top-three target (147/151, 151/151). The two sets written by people
# who never saw the desk: fresh 153/160 first, 159/160 in the top three; fresh2 150/160 and 159/160 — one question
# first fewer on each than the rankers of 6.5 MB had (154, 151) before issue #48 made them 1 MB of hashed int8
# weights, the trade the issue allowed (within one point on every set nobody tuned on).
FIRST_AT_LEAST = {"tuning": 0.96, "held_out": 0.97, "fresh": 0.95, "fresh2": 0.93}
TOP3_AT_LEAST = {"tuning": 1.0, "held_out": 1.0, "fresh": 0.99, "fresh2": 0.99}


@pytest.mark.parametrize("preset", RULEBOOK_PRESETS)
def test_bot_rul_1_each_preset_s_questions_name_its_articles_in_both_languages_and_every_set(preset: str):
    asked = [q for q in questions() if q.preset == preset]
    ids = {a.id for a in for_preset(preset)}
    assert [q.text for q in asked if q.article not in ids or not set(q.also) <= ids] == []
    assert {q.source for q in asked} <= set(SOURCES) and {q.split for q in asked} == set(SPLITS)
    assert all(q.lang in LANGS for q in asked)
    for half in SPLITS:
        assert sum(q.split == half for q in asked) >= 30, half
    for lang in LANGS:
        assert sum(q.lang == lang for q in asked) >= len(asked) / 4, lang
    assert len({q.text for q in asked}) == len(asked)


def test_bot_rul_1_the_held_out_half_holds_no_question_the_articles_were_tuned_on():
    """The first questions' misses had keywords written for them: they are all tuning questions."""
    assert [q.text for q in questions() if q.source == "original" and q.split != "tuning"] == []


def _answer(q: Question) -> list[str]:
    return [m.article.id for m in search(q.text, q.preset, limit=3)[1]]


@pytest.mark.parametrize("half", SPLITS)
def test_bot_rul_1_players_questions_find_the_right_article_first_and_in_the_top_three(half: str):
    result = score([q for q in questions() if q.split == half], _answer)
    # Plain numbers only in the assertions: pytest would print the whole Score, misses included, and the fresh set's
    # misses are never shown.
    shown = len(result.misses) if half in UNSEEN else [(q.text, got) for q, got in result.misses]
    first, top3, asked = result.first, result.top3, result.asked
    assert top3 >= TOP3_AT_LEAST[half] * asked, (top3, asked, shown)
    assert first >= FIRST_AT_LEAST[half] * asked, (first, asked)


def test_bot_rul_1_a_question_takes_well_under_two_milliseconds_at_the_median():
    """The bot calls the search once per /rule, in a worker thread: the median over every question (each the best of
    three runs) stays under 2 ms of the thread's own CPU time — a busy machine's waits for a core are not the search's
    (wall-clock time failed here at a load of 2.5× the cores; python -m benchmarks.rules_desk reports this CPU time)."""
    asked = questions()
    for preset in {q.preset for q in asked}:
        search("warm", preset)
    spent = []
    for q in asked:
        runs = []
        for _ in range(3):
            start = time.thread_time()
            search(q.text, q.preset, limit=3)
            runs.append(time.thread_time() - start)
        spent.append(min(runs))
    assert statistics.median(spent) < 0.002


def test_bot_rul_1_searches_from_many_threads_at_once_answer_as_one_thread_does():
    """No shared mutable state: the index is built once and only read; the Snowball stemmers are per thread."""
    asked = [q for q in questions() if q.preset == "risiko-ufficiali-2018"][:40]
    alone = [[m.article.id for m in search(q.text, q.preset)[1]] for q in asked]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(lambda q: [m.article.id for m in search(q.text, q.preset)[1]], asked * 5))
    assert together == alone * 5


def test_bot_rul_1_more_articles_page_on_past_the_re_ranked_few_best_first():
    _, matches = search("dadi armate territorio carte turno", "risiko-ufficiali-2018", limit=20)
    assert len(matches) == 20
    assert [m.score for m in matches] == sorted((m.score for m in matches), reverse=True)
    assert matches[0].score == 1.0 and all(0 < m.score <= 1 for m in matches)


def test_bot_rul_1_typos_missing_accents_and_either_language_s_game_words_find_the_same_article():
    """A word no article uses is read as the article word one typo away; the game's words are one term in either
    language ("dadi" = "dice" = "dices"), but the Italian "dice" is "says"."""
    preset = "ricochet-v3.3"
    right = search("il bordo del tabellone ferma il robot?", preset)[1][0].article.id
    assert search("il bordo del tabbellone ferma il robot?", preset)[1][0].article.id == right
    assert words("i dadi", "it")[-1] == words("the dice", "en")[-1] == words("the dices", "en")[-1]
    assert words("dice che", "it")[0] != words("dice", "en")[0]
    assert tokens("perche la penalita", "it") == tokens("perché la penalità", "it")


def test_bot_rul_1_an_english_question_finds_an_article_and_the_answer_language_follows_the_question():
    lang, matches = search("we both bid seven at the same moment, who shows first?", "ricochet-v3.3")
    assert lang == "en" and matches and matches[0].article.id == "4.9" and matches[0].score == 1.0
    assert detect_language("chi tira i dadi per la sdadata?") == "it"
    assert tokens("Penalità", "it") == tokens("penalita", "it")  # accents folded


def test_bot_rul_1_bad_questions_are_refused_with_a_code():
    with pytest.raises(SearchError, match="query_empty"):
        search("   ", "ricochet-v3.3")
    with pytest.raises(SearchError, match="query_too_long"):
        search("x" * 501, "ricochet-v3.3")
    with pytest.raises(SearchError, match="preset_unknown"):
        search("dadi", "monopoly")


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=120))
def test_bot_rul_1_any_text_gets_an_answer_or_none_never_an_error(text: str):
    """Property: whatever a user types (emoji, other scripts, punctuation), the search answers with ≤ 3 matches."""
    if not text.strip():
        return
    lang, matches = search(text, "risiko-ufficiali-2018")
    assert lang in LANGS and len(matches) <= 3 and all(0 < m.score <= 1 for m in matches)


# The learned ranker (the desk's third stage): shipped current, read the same way it was fitted, never used stale.


@pytest.mark.parametrize("preset", RULEBOOK_PRESETS)
def test_bot_rul_1_every_preset_ships_a_learned_ranker_fitted_on_its_articles_as_they_are(preset: str):
    """Editing an article (or how text becomes features) without fitting again fails here: run
    ``python -m scripts.train_rules_desk``."""
    found = for_preset(preset)
    ranker = learned.load(preset, fingerprint(found))
    assert ranker is not None, "stale or missing: run python -m scripts.train_rules_desk"
    assert ranker.articles == tuple(a.id for a in found) and len(ranker.bias) == len(found)
    assert len(ranker.blocks) == 2
    for b in ranker.blocks:
        assert len(b.df) == b.size == len(b.starts) - 1 and b.starts[-1] == len(b.classes) == len(b.values) > 0
        assert list(b.starts) == sorted(b.starts) and all(0 <= k < len(found) for k in b.classes)
        assert b.scale > 0 and all(v != 0 for v in b.values)


def test_bot_rul_1_a_change_to_any_searched_field_changes_the_fingerprint():
    found = for_preset("ricochet-v3.3")
    first = found[0]
    for change in (
        {"summary": {**first.summary, "it": first.summary["it"] + " x"}},
        {"asks": {**first.asks, "en": (*first.asks["en"], "one more question?")}},
        {"keywords": {**first.keywords, "it": first.keywords["it"][1:]}},
        {"id": first.id + "bis"},
    ):
        assert fingerprint((dataclasses.replace(first, **change), *found[1:])) != fingerprint(found), change
    assert fingerprint(found) == fingerprint(tuple(found))


def test_bot_rul_1_a_stale_ranker_is_not_used_and_the_desk_still_answers(monkeypatch: pytest.MonkeyPatch):
    preset = "ricochet-v3.3"
    assert learned.load(preset, "0" * 64) is None
    assert warm_indexes() == []  # what the bot logs at start-up: no preset without its ranker
    with_it = search("the robot bounces off the wall?", preset, limit=5)[1]
    monkeypatch.setattr(learned, "load", lambda preset, fingerprint: None)
    without = search("the robot bounces off the wall?", preset, limit=5)[1]
    assert without and with_it and without[0].score == 1.0
    assert [m.raw for m in without] != [m.raw for m in with_it]  # the blend is what the ranker adds
    assert warm_indexes() == list(RULEBOOK_PRESETS)


def test_bot_rul_1_the_ranker_file_reads_back_as_written():
    ranker = learned.load("risiko-firk-1", fingerprint(for_preset("risiko-firk-1")))
    assert ranker is not None
    raw = learned.encode(ranker)
    assert learned.decode(raw) == ranker and learned.encode(learned.decode(raw)) == raw
    with pytest.raises(ValueError):
        learned.decode(gzip.compress(b'{"format": 99}'))
    with pytest.raises(ValueError, match="format"):
        learned.decode(gzip.compress(learned.MAGIC + b'{"format": 1}\n'))
    with pytest.raises(ValueError, match="trailing"):
        learned.decode(gzip.compress(gzip.decompress(raw) + b"x"))


SHIPPED_MAX = 2 * 1024 * 1024  # issue #48: at most 2 MB of learned rankers for all presets together


def _shipped() -> dict[str, bytes]:
    folder = resources.files("bot.rules.rulebook").joinpath(learned.FOLDER)
    return {entry.name: entry.read_bytes() for entry in folder.iterdir() if entry.is_file()}


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((Path(__file__).resolve().parents[3] / "pyproject.toml").read_text(encoding="utf-8"))


def test_issue_48_the_learned_rankers_are_one_small_file_per_rulebook_preset():
    """Issue #48 ("the rules desk proportionate"): one file per rulebook preset (a preset playing another's
    rulebook has none of its own), at most 2 MB together, each exactly the bytes ``encode`` writes for what it
    holds (same model, same bytes: a refit of unchanged articles changes no file)."""
    shipped = _shipped()
    assert set(shipped) == {learned.file_name(p) for p in RULEBOOK_PRESETS}
    packaged = _pyproject()["tool"]["setuptools"]["package-data"]["bot.rules.rulebook"]  # a wheel carries them
    assert all(any(fnmatch(f"{learned.FOLDER}/{name}", pattern) for pattern in packaged) for name in shipped)
    assert sum(len(raw) for raw in shipped.values()) <= SHIPPED_MAX
    for raw in shipped.values():
        assert learned.encode(learned.decode(raw)) == raw


def test_issue_48_the_training_libraries_are_pinned_and_written_into_every_ranker():
    """Issue #48: pyproject's ``train`` extra pins NumPy and SciPy exactly, to the versions ``learned.TRAINED_WITH``
    names, and every shipped ranker records that it was fitted with them."""
    pins = dict(line.split("==") for line in _pyproject()["project"]["optional-dependencies"]["train"])
    assert pins == learned.TRAINED_WITH
    for preset in RULEBOOK_PRESETS:
        ranker = learned.load(preset, fingerprint(for_preset(preset)))
        assert ranker is not None and ranker.trained["libraries"] == learned.TRAINED_WITH
        assert learned.libraries_differ(ranker) == {}


def test_issue_48_a_ranker_fitted_with_other_libraries_is_logged_at_load(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    """The versions a ranker was fitted with are logged when it is read, with a warning when they are not the pins
    (the desk still uses it: the articles it was fitted on are the same)."""
    preset = "risiko-nostra-passione-2018"
    ranker = learned.load(preset, fingerprint(for_preset(preset)))
    assert ranker is not None
    other = dataclasses.replace(ranker, trained={**ranker.trained, "libraries": {"numpy": "1.26.4", "scipy": "1.11.1"}})
    assert learned.libraries_differ(other) == {"numpy": ("1.26.4", "2.4.6"), "scipy": ("1.11.1", "1.17.1")}
    monkeypatch.setattr(learned, "decode", lambda raw: other)
    with caplog.at_level(logging.INFO, logger=learned.__name__):
        assert learned._read.__wrapped__(preset) is other
    assert [r.levelno for r in caplog.records] == [logging.INFO, logging.WARNING]
    assert "1.26.4" in caplog.records[1].getMessage()


@pytest.mark.slow
def test_issue_48_a_refit_of_the_same_articles_writes_the_same_bytes():
    """Fitting again (with the pinned NumPy and SciPy: ``pip install -e '.[train]'``) gives the shipped file byte
    for byte; the smallest preset, about half a minute."""
    pytest.importorskip("numpy")
    pytest.importorskip("scipy")
    from scripts import train_rules_desk as train

    if train.versions_differ():
        pytest.skip(f"not the pinned training libraries: {train.versions_differ()}")
    preset = "risiko-nostra-passione-2018"
    raw = learned.encode(train.packed(train.fit(preset)))
    assert raw == _shipped()[learned.file_name(preset)]


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=120))
def test_bot_rul_1_the_ranker_gives_every_article_a_probability_and_they_sum_to_one(text: str):
    preset = "risiko-nostra-passione-2018"
    ranker = learned.load(preset, fingerprint(for_preset(preset)))
    assert ranker is not None
    p = learned.probabilities(ranker, learned_features(text))
    assert len(p) == len(for_preset(preset)) and all(0 < x < 1 for x in p) and math.isclose(sum(p), 1.0)


def test_bot_rul_1_the_desk_reads_a_question_as_the_ranker_was_fitted_to_read_it():
    """The desk passes its own stems (typos read as the article word); on a clean text they are the text's."""
    text = "Il difensore può ritirare i dadi se uno cade dal tabellone?"
    assert learned_features(text, {lang: tokens(text, lang) for lang in LANGS}) == learned_features(text)
    stems, grams = learned_features("sdadata")
    assert "it:sdad" in stems and {" sd", "sdad", "data "} <= set(grams)


def test_bot_rul_1_a_preset_playing_another_s_rulebook_gets_its_articles_and_answers():
    """The club championship (issue 47) plays UFF + ARB: its rules desk is theirs."""
    assert for_preset("club-championship") == for_preset("risiko-ufficiali-2018")
    assert search("posso avere 8 carte in mano?", "club-championship") == search(
        "posso avere 8 carte in mano?", "risiko-ufficiali-2018"
    )
