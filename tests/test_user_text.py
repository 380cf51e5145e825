"""People read the rulebook's article («ARB 27», «RR 13.5») and plain words, never our internal ids: no
catalogue value, in either language, carries a requirement id (``TOUR-FIN-1``) or an identifier of the code such as
a preset field name (``late_tolerance_minutes``). The only words with an underscore people may read are those they
type themselves: a command option's name in their language, and a field of the situation documents they write."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES, catalogue
from bot.i18n.words import codes_in, engine_codes, internal_ids, preset_ids, typed_by_people


def _typed_by_people(locale: str) -> frozenset[str]:
    return typed_by_people(catalogue(locale))


def test_the_check_finds_what_it_looks_for():
    """Issue 44 (internal ids reach people): the rule ``python -m bot.i18n check`` runs (``bot.i18n.words``)."""
    assert internal_ids("catena dei ripescaggi (TOUR-FIN-1)") == ["TOUR-FIN-1"]
    assert internal_ids("see BOT-SCH-1 and RK-TRIS-*") == ["BOT-SCH-1", "RK-TRIS-*"]
    assert internal_ids("cambia tournament.final_size") == ["final_size"]
    assert internal_ids("late_tolerance_minutes: {late_tolerance_minutes}") == ["late_tolerance_minutes"]
    assert internal_ids("ARB 27, RR 13.5, FIRK §26, NP «Ad eliminazione diretta», fine-partita, {final_size}") == []
    assert internal_ids("indica in_mano", _typed_by_people("it")) == []


@pytest.mark.parametrize("locale", LOCALES)
def test_no_catalogue_value_shows_a_requirement_id_or_a_code_identifier(locale: str):
    """Issue 44: no requirement id or code identifier in what people read (each counted message's form for 2)."""
    allowed = _typed_by_people(locale)
    found = {
        key: hits
        for key, value in catalogue(locale).items()
        if not (key.startswith("cmd.") and key.endswith(".name"))  # a command's or option's own name
        and (hits := internal_ids(value, allowed))
    }
    assert found == {}, f"{locale}: internal ids in what people read: {found}"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_sanction_proposal_of_every_preset_cites_the_article_and_no_internal_id(locale: str):
    """The real words of the sanctions desk (the proposal the referee confirms; its case line is what the table's
    thread and the player's record show): every infraction of every preset, every rung of its ladder, and every
    lateness step, in both languages."""
    from bot.present.sanctions import infraction_name, kind_name, proposal_text
    from bot.rules.presets import PRESET_NAMES
    from bot.rules.ruleset import load_ruleset
    from bot.rules.sanctions import infractions, lateness_proposal, propose

    checked = 0
    for preset in PRESET_NAMES:
        ruleset = load_ruleset(preset)
        proposals = [
            propose(ruleset, item.code, previous=previous, cards_in_hand=hand)
            for item in infractions(ruleset)
            for previous in range(len(item.ladder) + 1)
            for hand in (0, 3, 9)
        ]
        proposals += [p for minutes in range(0, 180, 5) if (p := lateness_proposal(ruleset, minutes)) is not None]
        for p in proposals:
            text = proposal_text(p, "Anna", locale)
            line = f"{kind_name(p.kind, locale)} · {infraction_name(p.infraction, locale)} · {p.article}"
            for shown in (text, line):
                assert p.article in shown and "sanction." not in shown, (preset, shown)
                assert internal_ids(shown) == [], (preset, shown)
                assert codes_in(shown, engine_codes(), preset_ids()) == [], (preset, shown)
            checked += 1
    assert checked > 100
