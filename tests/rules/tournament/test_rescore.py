"""The one re-scoring function (issue 48, "re-scoring is one rules function"): a table's stored report, its players,
the sanctions in force and the check-ins' forfeits, the ruleset → the new result lines. Pure: no database. The
golden values are the ones the services tests assert on a real database (tests/services/test_sanctions_service.py,
test_reports_service.py): RR 13.1 / 13.3 / 13.4, ARB 9 / 13 / 23 / 25 / 27, FIRK punteggio and §26, BOT-SAN-2."""

from __future__ import annotations

import pytest

from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.rescore import (
    InForce,
    Line,
    Player,
    ReportError,
    StoredReport,
    adjustments,
    apply_adjustments,
    rescore,
    score_entries,
    score_situation,
)

ANNA, BRUNO, CARLA, DARIO = 1, 2, 3, 4
PLAYERS = [Player(ANNA, "Anna"), Player(BRUNO, "Bruno"), Player(CARLA, "Carla"), Player(DARIO, "Dario")]
RR = load_ruleset("ricochet-v3.3")
ARB = load_ruleset("risiko-ufficiali-2018")
FIRK = load_ruleset("risiko-firk-1")
SITUATION = {  # tests/services/test_reports_service.py's FIRK final situation
    "players": [
        {"name": "anna", "territories": {"Cina": 5, "India": 3, "Siam": 2, "Indonesia": 1}, "cards": 1},
        {"name": "Bruno", "territories": {"Alaska": 2, "Kamchatka": 3}, "cards": 0},
        {"name": "Carla", "territories": ["Egitto", "Africa del Nord", "Congo"]},
        {"name": "Dario", "territories": {"Brasile": 2}, "status": "withdrawn"},
    ]
}


def typed(kind: str, **values: object) -> StoredReport:
    """A typed report as the report service stores it: one entry per player (a number, or ``r`` for withdrawn)."""
    ids = {"Anna": ANNA, "Bruno": BRUNO, "Carla": CARLA, "Dario": DARIO}
    entries = [
        {"registration_id": ids[name], "outcome": "withdrawn" if v == "r" else "played", "value": 0 if v == "r" else v}
        for name, v in values.items()
    ]
    return StoredReport(kind, {"entries": entries})


def table(lines: list[Line] | None) -> list[tuple[int, int, float, float, str]]:
    """(player, place, table points, tournament points, outcome), best first."""
    assert lines is not None
    return sorted(((x.registration_id, x.rank, x.table_points, x.tournament_points, x.outcome) for x in lines),
                  key=lambda r: (r[1], r[0]))  # fmt: skip


def test_rr_san_1_last_of_the_game_puts_the_player_last_and_the_others_move_up():
    """RR 13.1 second step / 13.3: the sanctioned player takes the last place at once (was first on 5 tokens)."""
    report = typed("ricochet", Anna=5, Bruno=3, Carla=2, Dario=1)
    assert table(rescore(RR, report, PLAYERS, [])) == [
        (ANNA, 1, 5.0, 5.0, "played"), (BRUNO, 2, 3.0, 3.0, "played"), (CARLA, 3, 2.0, 2.0, "played"),
        (DARIO, 4, 1.0, 1.0, "played"),
    ]  # fmt: skip
    assert table(rescore(RR, report, PLAYERS, [InForce(ANNA, "last_of_game")])) == [
        (BRUNO, 1, 3.0, 3.0, "played"), (CARLA, 2, 2.0, 2.0, "played"), (DARIO, 3, 1.0, 1.0, "played"),
        (ANNA, 4, 0.0, 0.0, "forfeit"),
    ]  # fmt: skip


def test_rr_13_4_a_disqualified_player_is_last_even_below_a_forfeit():
    """RR 13.4: the disqualified player counts as last of the game, below Carla who withdrew."""
    report = typed("ricochet", Anna=6, Bruno=4, Carla="r", Dario=1)
    before = {x.registration_id: x.rank for x in rescore(RR, report, PLAYERS, []) or []}
    assert before == {ANNA: 1, BRUNO: 2, DARIO: 3, CARLA: 4}
    after = table(rescore(RR, report, PLAYERS, [InForce(ANNA, "disqualified")]))
    assert [(p, place, outcome) for p, place, _, _, outcome in after] == [
        (BRUNO, 1, "played"), (DARIO, 2, "played"), (CARLA, 3, "withdrawn"), (ANNA, 4, "disqualified"),
    ]  # fmt: skip


def test_rk_san_1_table_points_taken_come_off_before_the_table_is_ranked():
    """ARB 9 / 13: 20 table points off Anna's 70 put her second behind Bruno's 55; the places' points follow."""
    report = typed("points", Anna=70, Bruno=55, Carla=41, Dario=12)
    assert table(rescore(ARB, report, PLAYERS, [InForce(ANNA, "table_points", 20)])) == [
        (BRUNO, 1, 55.0, 12.0, "played"), (ANNA, 2, 50.0, 9.0, "played"), (CARLA, 3, 41.0, 6.0, "played"),
        (DARIO, 4, 12.0, 3.0, "played"),
    ]  # fmt: skip


def test_arb_27_a_disqualification_puts_the_player_out_of_play_below_everyone_still_playing():
    """ARB 27 third offence, handled at the table as ARB 25: out of play, last (place 4), the others 1 to 3."""
    report = typed("points", Anna=80, Bruno=60, Carla=40, Dario=20)
    lines = table(rescore(ARB, report, PLAYERS, [InForce(ANNA, "disqualified")]))
    assert lines[-1][0] == ANNA and lines[-1][1] == 4 and lines[-1][4] == "disqualified"
    assert [place for _, place, *_ in lines[:3]] == [1, 2, 3]


def test_bot_san_2_a_revoked_sanction_is_simply_not_in_force_the_report_scores_as_entered():
    """A revoke or an annulment: the service passes only the sanctions in force, so the result is the entry's."""
    report = typed("points", Anna=40, Bruno=32, Carla=20.5, Dario=10)
    entries = [(int(e["registration_id"]), e["outcome"], float(e["value"])) for e in report.input["entries"]]
    _, first = score_entries(FIRK, PLAYERS, entries, None)
    assert rescore(FIRK, report, PLAYERS, []) == first
    # FIRK punteggio: 31 + 0.1 x 8 = 31.8 for the first, 15 - 0.1 x 8 = 14.2 for the second (rulebook example)
    assert [(x.registration_id, x.tournament_points) for x in first][:2] == [(ANNA, 31.8), (BRUNO, 14.2)]


def test_rr_13_5_a_forfeit_check_in_counts_as_the_last_place_whatever_was_typed():
    """A check-in that says the player forfeited the game (RR 13.5, FIRK "cannot play", ARB 3): last place."""
    report = typed("points", Anna=70, Bruno=55, Carla=41, Dario=12)
    lines = table(rescore(ARB, report, PLAYERS, [], forfeited=[ANNA]))
    assert lines[-1][:2] == (ANNA, 4) and lines[-1][4] == "forfeit" and lines[0][0] == BRUNO


def test_rk_wd_1_out_of_the_game_rescores_a_final_situation_with_the_player_withdrawn():
    """FIRK §26 third step on a final situation: Anna (first) is scored as withdrawn, her territories neutral."""
    first, stored = score_situation(FIRK, PLAYERS, SITUATION, None)
    assert {x.registration_id: x.rank for x in first}[ANNA] == 1
    report = StoredReport("situation", stored)
    assert rescore(FIRK, report, PLAYERS, []) == first
    after = {x.registration_id: x for x in rescore(FIRK, report, PLAYERS, [InForce(ANNA, "expelled_from_game")]) or []}
    assert after[ANNA].outcome == "withdrawn" and after[ANNA].rank > 1 and after[CARLA].rank == 1


def test_firk_punteggio_9_a_head_to_head_keeps_its_fixed_points_when_re_scored():
    """FIRK punteggio 9: the head-to-head's 31 / 15 go by the new order (the winner sanctioned last of the game)."""
    report = typed("points", Anna=40, Bruno=32)
    two = PLAYERS[:2]
    assert table(rescore(FIRK, report, two, [], special="head_to_head")) == [
        (ANNA, 1, 40.0, 31.0, "played"), (BRUNO, 2, 32.0, 15.0, "played"),
    ]  # fmt: skip
    assert table(rescore(FIRK, report, two, [InForce(ANNA, "last_of_game")], special="head_to_head")) == [
        (BRUNO, 1, 32.0, 31.0, "played"), (ANNA, 2, 0.0, 15.0, "forfeit"),
    ]  # fmt: skip


def test_bot_res_1_a_penalty_that_leaves_two_players_level_is_refused_as_the_entry_would_be():
    """Typed points cannot order two players in play on the same points (the final situation's tie-breakers do):
    the re-scoring refuses like the entry, naming them."""
    report = typed("points", Anna=70, Bruno=55, Carla=41, Dario=12)
    with pytest.raises(ReportError) as refused:
        rescore(ARB, report, PLAYERS, [InForce(ANNA, "table_points", 15)])
    assert refused.value.code == "tie_needs_situation" and refused.value.params == {"names": ("Anna", "Bruno")}


def test_a_report_of_another_kind_is_not_re_scored():
    """A table that sat out (no typed entries, no situation) has nothing to re-score."""
    assert rescore(ARB, StoredReport("sit_out", {}), PLAYERS, [InForce(ANNA, "disqualified")]) is None


def test_bot_san_2_the_heaviest_forced_outcome_wins_and_table_points_add_up():
    """Two sanctions in force for one player: the later of forfeit < withdrawn < disqualified; table points summed.
    Adjustments change only a played entry; never below 0."""
    adjusted = adjustments(
        [InForce(ANNA, "last_of_game"), InForce(ANNA, "disqualified"), InForce(BRUNO, "table_points", 5),
         InForce(BRUNO, "table_points", -3), InForce(CARLA, "recorded")],
        forfeited=[DARIO],
    )  # fmt: skip
    assert adjusted[ANNA].outcome == "disqualified" and adjusted[BRUNO].table_points_taken == 8
    assert adjusted[CARLA].outcome is None and adjusted[DARIO].outcome == "forfeit"
    entries = [(ANNA, "played", 10.0), (BRUNO, "played", 6.0), (CARLA, "withdrawn", 0.0), (DARIO, "played", 3.0)]
    assert apply_adjustments(entries, adjusted) == [
        (ANNA, "disqualified", 0.0), (BRUNO, "played", 0.0), (CARLA, "withdrawn", 0.0), (DARIO, "forfeit", 0.0),
    ]  # fmt: skip
