"""The summaries say what the rulebook says (BOT-RUL-1): no rule the text does not contain, nothing essential left out.
Every article was read against its rulebook; the corrections found are pinned here by article, and every number a
summary states is checked against its rulebook's text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.rules.rulebook import LANGS, Article, articles

RULEBOOKS = Path(__file__).resolve().parents[4] / "shared" / "rulebooks"  # beside the repository, where it exists
SOURCES = {
    "RR": "ricochet-robots-regolamento-torneo-v3.3.it.md",
    "NP": "risiko-torneo-la-nostra-passione-2018.it.md",
    "ARB": "risiko-regolamento-arbitrale-formazione-tavoli.it.md",
    "UFF": "risiko-tornei-ufficiali-2018-arbitri-casistica.it.md",
    "FIRK": "risiko-firk-1-torneo.it.md",
}


def _article(reference: str) -> Article:
    return next(a for a in articles() if a.reference == reference)


def _summary(reference: str) -> str:
    a = _article(reference)
    return " ".join(a.summary[lang] for lang in LANGS).lower()


def test_arb_4_summary_validates_the_entry_list_and_does_not_exclude_late_registrants():
    """ARB 4 only has the referee validate the list of players by a set time: it says nothing of later entries, so
    the summary must not claim they are refused."""
    text = _summary("ARB 4")
    assert "convalida" in text and "validates" in text
    refused = r"non entra|non (è|sono|viene|vengono) ammess|esclus|not accepted|excluded|refused|turned away"
    assert not re.search(refused, text)


def test_arb_5_2_summary_minimises_a_second_five_player_table_rather_than_forbidding_it():
    text = _summary("ARB 5.2")
    assert "nessuno due volte" not in text and "nobody at a five-player table twice" not in text
    assert "il meno possibile" in text and "as few" in text


def test_arb_5_3_summary_says_whom_the_parallel_tournaments_winners_join_in_the_final():
    text = _summary("ARB 5.3")
    assert "raggiungono in finale il primo" in text and "join the leader in the final" in text


def test_firk_pen_summary_denies_card_draws_and_never_takes_cards_from_the_hand():
    """PEN item 2: the referee may keep the player from drawing cards — not take cards away."""
    for ref in ("FIRK PEN", "FIRK PEN 2)"):
        text = _summary(ref)
        assert "pescare" in text and "draw" in text
        assert "togliere una o più carte" not in text and "take away one or more cards" not in text


def test_firk_p6_summary_adds_nothing_about_who_sits_at_table_one():
    assert "migliori al tavolo 1" not in _summary("FIRK P6") and "table 1" not in _summary("FIRK P6")


def test_firk_p8_summary_tells_the_first_game_s_tiebreak_from_the_later_ones():
    text = _summary("FIRK P8")
    assert "dalla seconda partita" in text and "prima partita" in text and "from the second game" in text


def test_firk_r25_summary_says_the_attacker_rolls_a_frozen_territory_s_defence():
    text = _summary("FIRK R25")
    assert "tira chi attacca" in text and "attacker rolls" in text


def test_firk_r27_is_split_by_the_rulebook_s_own_numbers_and_a_set_comes_before_any_army():
    """R27 numbers its five phases 1)-5): each is an article of its own, cited as "FIRK R27 3)". Phase 1's rule is
    that no set is accepted once a single army is placed (even if taken back), not "before all armies"."""
    refs = {a.reference for a in articles() if a.rulebook == "FIRK"}
    assert {"FIRK R27", *(f"FIRK R27 {n})" for n in range(1, 6))} <= refs
    assert {f"FIRK PEN {n})" for n in range(1, 5)} <= refs
    text = _summary("FIRK R27 1)")
    assert "una sola armata" in text and "a single reinforcement army" in text
    assert "prima di mettere tutte le armate" not in _summary("FIRK R27")


def test_np_seconda_fase_summary_gives_the_defender_a_re_roll_when_the_attack_is_not_announced():
    text = _summary("NP SECONDA FASE: COMBATTIMENTI")
    assert "il difensore può far ripetere il tiro" in text and "defender may have the roll repeated" in text


def test_uff_diplomazia_e_varie_summary_forbids_commenting_on_the_game():
    text = _summary("UFF Diplomazia e varie")
    assert "commentare" in text and "commenting" in text


def test_uff_ritiro_dal_gioco_summary_says_who_rolls_the_withdrawn_player_s_dice_off():
    text = _summary("UFF Ritiro dal gioco")
    assert "sdadata" in text and "dice-off" in text


def test_rr_4_9_summary_covers_the_forgotten_sand_timer():
    text = _summary("RR 4.9")
    assert "dimentica" in text and "forgotten" in text


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the rulebooks are not beside this checkout")
@pytest.mark.parametrize("rulebook", sorted(SOURCES))
def test_bot_rul_1_every_number_a_summary_states_is_in_its_rulebook(rulebook: str):
    """A number in a summary that its rulebook never prints is a rule we made up (UFF restates ARB, so ARB's count)."""
    printed = set(re.findall(r"\d+", (RULEBOOKS / SOURCES[rulebook]).read_text(encoding="utf-8")))
    if rulebook == "UFF":
        printed |= set(re.findall(r"\d+", (RULEBOOKS / SOURCES["ARB"]).read_text(encoding="utf-8")))
    invented = [
        (a.reference, lang, n)
        for a in articles()
        if a.rulebook == rulebook
        for lang in LANGS
        for n in sorted(set(re.findall(r"\d+", a.summary[lang])) - printed)
    ]
    assert invented == []
