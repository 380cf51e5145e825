"""The ladders of every preset, golden from the rulebooks (BOT-SAN-2): RR 13 (RR-SAN-1), ARB 27 with 2 / 1 / 0
cards in hand (RK-PACT-1), ARB 22 (RK-CARD-1), ARB 26 (RK-OBJ-1), ARB 28 (RK-FLIP-1), ARB 25 (RK-WD-1), FIRK
penalità, §6, §24 and §26 (FIRK-PEN-1); and the property that a proposal never skips a rung."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.presets import PRESET_NAMES
from bot.rules.ruleset import load_ruleset
from bot.rules.sanctions import (
    Consequence,
    SanctionError,
    appeal_rules,
    check_kind,
    infractions,
    propose,
    sanction_kinds,
)

RR = load_ruleset("ricochet-v3.3")
UFF = load_ruleset("risiko-ufficiali-2018")
NP = load_ruleset("risiko-nostra-passione-2018")
FIRK = load_ruleset("risiko-firk-1")


def _rungs(ruleset, code, offences=4, cards=0):  # type: ignore[no-untyped-def]
    return [(p.kind, p.consequence) for p in (propose(ruleset, code, previous=n, cards_in_hand=cards)
                                              for n in range(offences))]  # fmt: skip


def test_rr_san_1_rr_13_warning_then_last_of_the_game_then_disqualification_and_cheating_at_once():
    assert _rungs(RR, "misconduct") == [
        ("verbal_warning", Consequence.RECORDED),
        ("last_of_game", Consequence.LAST_OF_GAME),
        ("disqualification", Consequence.DISQUALIFIED),
        ("disqualification", Consequence.DISQUALIFIED),  # past the top: the top rung again
    ]
    cheating = propose(RR, "cheating", previous=0)
    assert (cheating.kind, cheating.consequence, cheating.article, cheating.last_rung) == (
        "disqualification",
        Consequence.DISQUALIFIED,
        "RR 13.9",
        True,
    )
    assert propose(RR, "misconduct", previous=1).article == "RR 13.1"


@pytest.mark.parametrize(
    ("cards_in_hand", "cards", "armies"),
    [(5, 2, 0), (2, 2, 0), (1, 1, 3), (0, 0, 6)],
)
def test_rk_pact_1_arb_27_second_offence_takes_two_cards_or_one_and_three_armies_or_six_armies(
    cards_in_hand: int, cards: int, armies: int
):
    for ruleset in (UFF, NP):
        first = propose(ruleset, "pact", previous=0, cards_in_hand=cards_in_hand)
        assert (first.kind, first.consequence, first.cards, first.armies) == (
            "verbal_warning",
            Consequence.RECORDED,
            0,
            0,
        )
        second = propose(ruleset, "pact", previous=1, cards_in_hand=cards_in_hand)
        assert (second.kind, second.consequence, second.cards, second.armies) == (
            "lose_cards_or_armies",
            Consequence.IN_GAME,
            cards,
            armies,
        )
        third = propose(ruleset, "pact", previous=2, cards_in_hand=cards_in_hand)
        assert (third.kind, third.consequence, third.last_rung, third.article) == (
            "excluded_and_expelled",
            Consequence.DISQUALIFIED,
            True,
            "ARB 27",
        )


def test_rk_card_1_rk_obj_1_rk_flip_1_rk_wd_1_one_step_infractions_of_arb_22_25_26_28():
    expected = {
        "too_many_cards": ("discard_all_cards", Consequence.IN_GAME, "ARB 22"),
        "objective_shown": ("disqualification", Consequence.DISQUALIFIED, "ARB 26"),
        "objective_swapped": ("disqualification", Consequence.DISQUALIFIED, "ARB 26"),
        "board_overturned": ("disqualification", Consequence.DISQUALIFIED, "ARB 28"),
        "refused_decision": ("disqualification", Consequence.DISQUALIFIED, "ARB 25"),
    }
    for code, (kind, consequence, article) in expected.items():
        p = propose(UFF, code, previous=0)
        assert (p.kind, p.consequence, p.article, p.last_rung) == (kind, consequence, article, True), code
    disturbing = _rungs(UFF, "disturbing", offences=2)  # ARB 9: table points, then out of the tournament
    assert disturbing == [("table_points", Consequence.TABLE_POINTS), ("disqualification", Consequence.DISQUALIFIED)]


def test_firk_pen_1_firk_penalties_cards_or_army_cap_minus_7_minus_25_and_section_24():
    first = propose(FIRK, "pact", previous=0, cards_in_hand=3)
    assert (first.kind, first.cards_not_drawn, first.at_least, first.army_cap, first.article) == (
        "penalty_cards_or_army_cap",
        1,
        True,
        0,
        "FIRK §26",
    )
    assert propose(FIRK, "pact", previous=0, cards_in_hand=0).cards_not_drawn == 1  # an empty hand: still a card
    capped = propose(FIRK, "pact", previous=0, cards_in_hand=7)  # more than 6 cards: an army cap instead
    assert (capped.cards_not_drawn, capped.army_cap) == (0, 100)
    assert propose(FIRK, "pact", previous=1, cards_in_hand=3).cards_not_drawn == 2
    assert propose(FIRK, "pact", previous=2).consequence is Consequence.EXPELLED_FROM_GAME
    disturbing = propose(FIRK, "disturbing_table", previous=0)
    assert (disturbing.consequence, disturbing.standing_points, disturbing.article) == (
        Consequence.STANDING_POINTS,
        -7.0,
        "FIRK penalità 4",
    )
    deliberate = propose(FIRK, "deliberate_over_placement", previous=0)
    assert (deliberate.consequence, deliberate.standing_points) == (Consequence.EXPELLED_FROM_GAME, -25.0)
    assert propose(FIRK, "board_overturned", previous=0).consequence is Consequence.DISQUALIFIED


def test_bot_san_3_appeal_windows_and_np_s_final_official_judge():
    assert appeal_rules(RR).appealable and appeal_rules(RR).appeal_window_minutes == 30
    assert not appeal_rules(NP).appealable  # NP: the official judge's decisions are final


def test_unknown_infractions_and_kinds_are_refused_quoting_them():
    with pytest.raises(SanctionError) as err:
        propose(RR, "pact", previous=0)
    assert err.value.code == "unknown_infraction" and err.value.value == "pact"
    assert check_kind(UFF, "pass_turn") == "pass_turn"
    with pytest.raises(SanctionError):
        check_kind(RR, "pass_turn")
    assert "last_of_game" in sanction_kinds(RR) and "standing_points" in sanction_kinds(FIRK)


CASES = [(load_ruleset(name), item.code) for name in PRESET_NAMES for item in infractions(load_ruleset(name))]


@given(st.sampled_from(CASES), st.integers(min_value=0, max_value=12), st.integers(min_value=0, max_value=12))
def test_bot_san_2_a_proposal_never_skips_a_rung_of_the_ladder(case, previous: int, cards: int):  # type: ignore[no-untyped-def]
    """The n-th offence gets rung n (the top once past it); one more offence climbs at most one rung."""
    ruleset, code = case
    ladder = next(i for i in infractions(ruleset) if i.code == code).ladder
    now = propose(ruleset, code, previous=previous, cards_in_hand=cards)
    after = propose(ruleset, code, previous=previous + 1, cards_in_hand=cards)
    i, j = now.rung, after.rung
    assert i == min(previous, len(ladder) - 1) and ladder[i] == now.kind and ladder[j] == after.kind
    assert j - i in (0, 1) and (j == i) == now.last_rung
    assert now.offence == previous + 1


def test_rr_late_1_firk_late_1_arb_3_lateness_proposes_the_preset_s_sanction_by_the_minutes():
    from bot.rules.sanctions import lateness_proposal

    assert lateness_proposal(RR, 0) is None
    warning = lateness_proposal(RR, 1)
    assert warning is not None and (warning.kind, warning.article) == ("verbal_warning", "RR 13.5")
    forfeit = lateness_proposal(RR, 11)
    assert forfeit is not None and forfeit.kind == "forfeit_game"
    cards = lateness_proposal(FIRK, 5)
    assert cards is not None and (cards.kind, cards.cards, cards.consequence) == (
        "cards_forfeited",
        3,
        Consequence.IN_GAME,
    )
    out = lateness_proposal(FIRK, 11)
    assert out is not None and out.kind == "cannot_play"
    replaced = lateness_proposal(UFF, 1)
    assert replaced is not None and (replaced.kind, replaced.article) == ("replaced_by_organizers", "ARB 3")
    assert lateness_proposal(NP, 30) is None  # NP says nothing about lateness: the minutes are only recorded


def test_rk_san_1_arb_13_table_points_taken_before_the_engine_ranks_a_final_situation():
    """The scoring engine takes a table-point penalty off before ranking (the report path passes it)."""
    from bot.rules.risiko.errors import RisikoError
    from bot.rules.risiko.scoring import parse_situation, score_table

    assert FIRK.risiko is not None
    doc = {
        "players": [
            {"name": "Anna", "territories": {"Cina": 5, "India": 3, "Siam": 2, "Indonesia": 1}},
            {"name": "Bruno", "territories": {"Alaska": 2, "Kamchatka": 3}},
        ]
    }
    players = parse_situation(doc, FIRK.risiko.board).players
    plain = {p.name: (p.rank, p.table_points) for p in score_table(players, FIRK.risiko).players}
    assert plain["Anna"][0] == 1 and plain["Anna"][1] > plain["Bruno"][1]
    taken = plain["Anna"][1] - plain["Bruno"][1] + 1
    fined = {
        p.name: (p.rank, p.table_points) for p in score_table(players, FIRK.risiko, penalties={"Anna": taken}).players
    }
    assert fined["Anna"] == (2, plain["Bruno"][1] - 1) and fined["Bruno"] == (1, plain["Bruno"][1])
    with pytest.raises(RisikoError):
        score_table(players, FIRK.risiko, penalties={"Zorro": 5})


def test_every_infraction_of_every_preset_names_its_counting_scope_and_a_bad_one_is_refused():
    """Each infraction says where its ladder counts earlier offences — the game (ARB 23, UFF's forgotten sdadata
    roll) or the tournament (RR 13.2 "nel corso dello stesso torneo", and our reading where the text is silent) —
    written in the preset beside its article; an override with another value names the field."""
    import tomllib
    from pathlib import Path

    from bot.rules.presets import PRESET_NAMES, PresetFieldError
    from bot.rules.ruleset import load_ruleset
    from bot.rules.sanctions import infractions

    folder = Path(__file__).resolve().parents[2] / "bot" / "rules" / "presets"
    for name in PRESET_NAMES:
        raw = tomllib.loads((folder / f"{name}.toml").read_text(encoding="utf-8"))["sanctions"]["infractions"]
        assert all("scope" in spec for spec in raw.values()), name  # written, not defaulted
    scopes = {(n, i.code): i.scope for n in PRESET_NAMES for i in infractions(load_ruleset(n))}
    assert scopes[("risiko-ufficiali-2018", "forgotten_sdadata_roll")] == "game"
    assert scopes[("risiko-ufficiali-2018", "over_placement")] == "game"
    assert scopes[("risiko-ufficiali-2018", "pact")] == "tournament"
    assert scopes[("ricochet-v3.3", "misconduct")] == "tournament"
    bad = load_ruleset("risiko-ufficiali-2018", {"sanctions": {"infractions": {"pact": {
        "article": "ARB 27", "ladder": "pact", "scope": "season"}}}})  # fmt: skip
    with pytest.raises(PresetFieldError) as err:
        infractions(bad)
    assert err.value.field == "sanctions.infractions.pact.scope"
