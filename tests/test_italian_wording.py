"""Issue 44, the words: what a native Italian referee found in the catalogues, each item pinned on the real
catalogue (the glossary's variants are refused by ``python -m bot.i18n check``; tests/test_words.py tests the scan).

- gendered words on named players and on images: the act or the role instead;
- engineering jargon («Ottimo (dimostrato)», «seme», «limite inferiore», «scala», «arbitraggi», «motore»);
- calques and meaning errors («Banco delle regole», «passa il turno», «persa a tavolino», «patti», the player's
  turn called like the tournament's round);
- English leftovers, «voi» to one person, the bot speaking as «io»/«noi», “…” quotes, descriptions with a stop;
- `round.history` right at 0, 1, 2 and 21 of each of its counts; Ricochet Robots targets «triangolo blu».
"""

from __future__ import annotations

import re
import tomllib

import pytest

from bot.i18n import catalogue, t, words
from bot.present.images import image_words
from bot.rules.ricochet.notation import TargetText, format_target, parse_target
from renderer import _style as st
from renderer import tables

ITALIAN = catalogue("it")
ENGLISH = catalogue("en")
COUNTS = (0, 1, 2, 21)


def test_issue_44_named_players_and_images_get_no_gender():
    """«Campione», «vincitore», «finalista diretto», «ripescato», «Diretto in finale»: said as acts or roles."""
    assert ITALIAN["img.champion"] == "Vince il torneo"
    assert ITALIAN["img.direct"] == "Accesso diretto alla finale"
    line = t("round.source.semifinal_winner", "it", name="Giulia", table=2)
    assert line == "Giulia: ha vinto la semifinale 2"
    assert t("round.source.direct_finalist", "it", name="Giulia") == "Giulia: accesso diretto alla finale"
    assert "ripescaggio" in t("round.source.other_table_recovery", "it", name="Ugo", place=2, table=1, replaces=3)
    gendered = re.compile(r"\b(campion[ei]|vincitor[ei]|vincitric[ei]|finalist[ai] dirett[oi]|ripescat[oaie]|"
                          r"dirett[oi] in finale|in finale direttamente)\b", re.IGNORECASE)  # fmt: skip
    found = [key for key, text in ITALIAN.items() if gendered.search(text)]
    assert found == []


def test_issue_44_no_engineering_jargon_reaches_people():
    """«Ottimo (dimostrato)» read as «Great!» beside ✅; «seme», «limite inferiore», «scala», «arbitraggi», «motore»."""
    assert ITALIAN["img.optimal"] == "Sorteggio migliore possibile, verificato"
    assert ITALIAN["img.seed"] == "Codice del sorteggio"
    assert t("rr.solve.optimal", "it", moves=7, solution="RN") == "Soluzione più breve: **7** mosse — RN"
    assert t("rr.solve.optimal", "it", moves=1, solution="RN") == "Soluzione più breve: **1** mossa — RN"
    jargon = re.compile(r"\b(ottim[oaie]|seme|limite inferiore|scala|arbitragg[io]|motore)\b", re.IGNORECASE)
    assert [key for key, text in ITALIAN.items() if jargon.search(text)] == []


def test_issue_44_calques_and_meaning_errors_are_gone():
    """The rules desk is «Regolamento»; advancing is «accede al turno successivo» (in RisiKo! «passa il turno» is
    skipping it); a replaced player «non gioca questa partita» (no forfeit score); «patteggiamenti» as ARB art. 27."""
    assert t("rule.title", "it", preset="NP").startswith("📖 Regolamento")
    assert "accede al turno successivo" in t("round.knockout.plan", "it", players=16, steps="4 tavoli da 4")
    replaced = t("round.replaced.done", "it", substitute="Ugo", replaced="Anna", table=3)
    assert "Anna non gioca questa partita (nessun risultato)" in replaced
    assert ITALIAN["sanction.infraction.pact"].startswith("patteggiamenti")
    wrong = re.compile(r"banco delle regole|passa il turno|a tavolino|\bpatti\b", re.IGNORECASE)
    assert [key for key, text in ITALIAN.items() if wrong.search(text)] == []


def test_issue_44_a_players_turn_is_not_the_tournaments_round():
    """«fine del turno {n}» read as the tournament's round: the count is of full rounds at the table («giro»); a
    player's turn is the «turno di gioco» (ARB art. 21, FIRK art. 23)."""
    text = t("error.clock.elimination_too_early", "it", needed=4, turns=2)
    assert text == "Nessuna eliminazione prima della fine del 4° giro (giri completi registrati: 2)."
    assert "turno di gioco" in ITALIAN["cmd.endgame turn.description"]
    assert "/fine-partita turno-di-gioco" in t("clock.call.firk_third_to_last", "it", table=1, round=2,
                                               rounds_left=3)  # fmt: skip


def test_issue_44_no_english_leftovers_in_italian():
    """«steward», «preset», «check-in», «(upheld, changed, annulled)»: the decision's refusal lists the Italian
    choices people see in the menu."""
    refusal = t("error.sanction.bad_decision", "it", value="forse")
    for key in ("choice.upheld", "choice.changed", "choice.annulled"):
        assert ITALIAN[key].split(" (")[0] in refusal
    leftovers = re.compile(r"\b(steward|preset|check-in|upheld|changed|annulled)\b", re.IGNORECASE)
    allowed = {"about.title"}  # the product's name
    cli = re.compile(r"steward (verify|draw)|riga di comando steward")  # the program people type
    found = [key for key, text in ITALIAN.items()
             if key not in allowed and leftovers.search(cli.sub("", re.sub(r"\{\w+\}", "", text)))]  # fmt: skip
    assert found == []


def test_issue_44_one_voice_tu_to_one_person_and_italian_quotes():
    """The bot speaks impersonally (no «Ho letto», «Non posso», «da parte nostra», «Lo diciamo»); one person is «tu»
    («potete decidere voi» was said to one organizer); Italian quotes are «…»."""
    first_person = re.compile(r"\b(ho|abbiamo|posso|riesco|trovo|cerco|diciamo|nostr[oa])\b", re.IGNORECASE)
    names = {"choice.risiko-nostra-passione-2018"}  # «La nostra passione» is a rulebook's title
    assert [key for key, text in ITALIAN.items() if key not in names and first_person.search(text)] == []
    assert "puoi decidere tu" in ITALIAN["round.cut.how_to_choose"]
    assert "inserite" not in ITALIAN["cmd.report page.description"]
    assert [key for key, text in ITALIAN.items() if "“" in text or "”" in text] == []
    assert [key for key, text in ENGLISH.items() if "«" in text or "»" in text] == []


@pytest.mark.parametrize("values", [ITALIAN, ENGLISH], ids=["it", "en"])
def test_issue_44_command_descriptions_end_without_a_stop(values: dict[str, str]):
    """Discord shows descriptions as labels: none ends with a full stop, in either language."""
    stops = [key for key, text in values.items() if key.startswith("cmd.") and key.endswith(".description")
             and text.rstrip().endswith(".") and not text.rstrip().endswith("…")]  # fmt: skip
    assert stops == []


@pytest.mark.parametrize("count", COUNTS)
def test_issue_44_every_count_of_the_round_history_reads_right(count: int):
    """round.history pluralised one of its five counts: each count now stands as «label: n», right at 0, 1, 2, 21."""
    for rounds in (1, 2):
        text = t("round.history", "it", rounds=rounds, tables=count, pairs=count, winners=count,
                 five_table_players=count)  # fmt: skip
        assert f"tavoli: {count};" in text and f"coppie già sedute insieme: {count};" in text
        assert f"primi posti ai tavoli: {count};" in text and f"giocatori già a un tavolo da 5: {count}." in text
        assert ("Storico del turno 1 —" if rounds == 1 else "Storico dei turni 1–2 —") in text
        english = t("round.history", "en", rounds=rounds, tables=count, pairs=count, winners=count,
                    five_table_players=count)  # fmt: skip
        assert f"tables: {count};" in english and f"table winners: {count};" in english


def test_issue_44_ricochet_targets_read_shape_then_colour_in_italian():
    """«blu triangolo» → «triangolo blu»; English keeps «blue triangle»; both read back the same target."""
    target = TargetText((2, 9), "blue", "triangle")
    assert format_target(target, "it") == "J3 triangolo blu"
    assert format_target(target, "en") == "J3 blue triangle"
    assert format_target(TargetText(None, "yellow", "circle"), "it") == "cerchio giallo"
    assert parse_target("J3 triangolo blu", "it") == parse_target("J3 blu triangolo", "it") == target
    assert "J3 triangolo blu" in ITALIAN["cmd.rr solve.opt.target.description"]


@pytest.mark.parametrize("locale", ["it", "en"])
def test_issue_44_the_draw_badge_fits_the_table_card(locale: str):
    """The badge beside the draw code (✅ «Sorteggio migliore possibile, verificato»…) is never cut at the card's
    640 px: the longest Italian wording once ran past the edge."""
    label = image_words(locale).label
    room = tables.WIDTH - 2 * tables.PAD
    for key in ("optimal", "optimal_cinquisti", "not_optimal"):
        assert st.text_width(label(key), st.font(*tables._FOOTER_BOLD)) + 58 <= room, key


def test_issue_44_the_glossary_names_the_terms_the_issue_found():
    """The glossary holds the issue's splits and leftovers, and the catalogue passes it (the check's own scan)."""
    glossary = tomllib.loads(words.GLOSSARY.read_text(encoding="utf-8"))
    avoided = {variant for term in glossary["it"] for variant in term["avoid"]}
    for variant in ("punti al tavolo", "di norma", "predefinito", "limite di armate", "check-in", "steward",
                    "preset", "banco delle regole", "patti", "seme", "ottimo", "limite inferiore", "scala",
                    "arbitraggi", "motore", "a tavolino", "passa il turno", "finalista diretto", "“", "”"):  # fmt: skip
        assert variant in avoided, variant
    assert {"campione", "vincitore", "finalista diretto", "ripescato", "diretto in finale"} <= set(
        glossary["gendered"]["it"]
    )
    loaded = words.load_glossary()
    assert loaded.problems == ()
    found = [line for locale, values in (("it", ITALIAN), ("en", ENGLISH)) for key, text in values.items()
             for line in words.variant_problems(locale, key, text, loaded)]  # fmt: skip
    assert found == []
