"""End of game state machines: sdadata (RK-SD-1, RK-SD-2, RK-SD-3) and FIRK supplementary turns (FIRK-TIME-1)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.risiko.config import shipped_rules
from bot.rules.risiko.endgame import EndState, Event, Outcome, expectation, run, start, step
from bot.rules.risiko.errors import RisikoError

NP_END = shipped_rules("risiko-nostra-passione-2018").end
UFF_END = shipped_rules("risiko-ufficiali-2018").end
FIRK_END = shipped_rules("risiko-firk-1").end
P = ["A", "B", "C", "D"]


def turns(*names, conquests=0):
    return [Event("turn_ended", n, conquests=conquests) for n in names]


def roll(name, a, b):
    return Event("roll", name, dice=(a, b))


def test_rk_sd_1_time_limit_is_120_minutes_and_thresholds_run_4_to_7():
    assert NP_END.time_limit_minutes == 120
    assert (NP_END.sdadata_first_threshold, NP_END.sdadata_max_threshold) == (4, 7)


def test_rk_sd_1_round_ends_then_one_supplementary_round_then_the_last_player_rolls_with_4():
    events = [Event("time_up"), *turns("A", "B", "C", "D"), *turns("A", "B", "C")]
    state, log = run(P, events, NP_END)
    assert all(e["outcome"] == "next_turn" for e in log[1:])
    state, outcome, details = step(state, turns("D")[0], NP_END)
    assert outcome is Outcome.ROLL_REQUIRED and details["threshold"] == 4
    assert expectation(state) == {"kind": "roll", "player": "D", "threshold": 4}
    ended, outcome, _ = step(state, roll("D", 1, 3), NP_END)
    assert outcome is Outcome.GAME_ENDED and ended.end_reason == "sdadata"


def test_rk_sd_1_everyone_rolls_after_the_first_roll_and_the_threshold_rises_at_the_last_seat_up_to_7():
    events = [Event("time_up"), *turns("A", "B", "C", "D"), *turns("A", "B", "C", "D"), roll("D", 6, 6)]
    for _ in range(5):
        for name in P:
            events += [*turns(name), roll(name, 6, 6)]
    state, log = run(P, events, NP_END)
    thresholds = [e["threshold"] for e in log if e["outcome"] == "roll_required"]
    assert thresholds[:5] == [4, 4, 4, 4, 5]
    assert thresholds[-4:] == [7, 7, 7, 7]
    assert not state.ended


def test_rk_sd_2_more_than_two_conquests_means_no_roll():
    events = [Event("time_up"), *turns("A", "B", "C", "D"), *turns("A", "B", "C"), *turns("D", conquests=3)]
    state, log = run(P, events, NP_END)
    assert log[-1]["outcome"] == "no_roll_conquests"
    assert expectation(state)["kind"] == "turn"
    state, outcome, _ = step(state, turns("A", conquests=2)[0], NP_END)
    assert outcome is Outcome.ROLL_REQUIRED


def test_rk_sd_3_uff_example_last_seat_eliminated_the_player_before_rolls_with_its_thresholds():
    """UFF casistica "Sdadata", first bullet (reading 2): the 4th rolls with 4, the 1st and 2nd with 4; the 3rd
    eliminates the 4th during their own turn, so at its end the 3rd rolls not only with 4 but also with 5 (the
    last seat's); the next round then goes on from there (5 for the others, 6 for the new last seat)."""
    events = [Event("time_up"), *turns("A", "B", "C", "D", "A", "B", "C", "D"), roll("D", 6, 6)]
    events += [*turns("A"), roll("A", 6, 6), *turns("B"), roll("B", 6, 6), Event("player_eliminated", "D")]
    events += [*turns("C"), roll("C", 6, 6), roll("C", 6, 6), *turns("A"), roll("A", 6, 6), *turns("B")]
    events += [roll("B", 6, 6), *turns("C")]
    _, log = run(P, events, UFF_END)
    required = [e for e in log if e["outcome"] == "roll_required"]
    assert [(e["player"], e.get("thresholds", [e["threshold"]])) for e in required] == [
        ("D", [4]), ("A", [4]), ("B", [4]), ("C", [4, 5]), ("A", [5]), ("B", [5]), ("C", [6])
    ]  # fmt: skip
    assert required[3]["took_over_last_seat"] is True


def test_rk_sd_3_last_seat_eliminated_in_the_supplementary_round_the_player_before_rolls_at_once():
    """UFF casistica "Ritiro/squalifica", third bullet; NP "Finale con sdadata": C eliminates D (the last seat)
    during C's own turn of the supplementary round: C is now the last of the round and rolls at the end of that
    turn — no whole extra round is played."""
    events = [Event("time_up"), *turns("A", "B", "C", "D", "A", "B"), Event("player_eliminated", "D"), *turns("C")]
    state, log = run(P, events, UFF_END)
    assert log[-1]["outcome"] == "roll_required" and log[-1]["player"] == "C" and log[-1]["threshold"] == 4
    state, outcome, _ = step(state, roll("C", 1, 2), UFF_END)
    assert outcome is Outcome.GAME_ENDED and state.end_reason == "sdadata"


def test_rk_sd_3_forgotten_roll_is_warned_then_the_second_time_the_player_is_out():
    events = [Event("time_up"), *turns("A", "B", "C", "D", "A", "B", "C", "D")]
    events += [*turns("A")]  # D forgot to roll: it lapses when A ends the turn
    state, log = run(P, events, UFF_END)
    assert log[-1]["forgotten_by"] == "D" and log[-1]["forgotten_outcome"] == "forgotten_roll_warning"
    events += [roll("A", 6, 6), *turns("B"), roll("B", 6, 6), *turns("C"), roll("C", 6, 6), *turns("D"), *turns("A")]
    state, log = run(P, events, UFF_END)
    assert log[-1]["forgotten_outcome"] == "forgotten_roll_out"
    assert "D" in state.out


def test_rk_sd_1_turn_out_of_order_is_refused():
    with pytest.raises(RisikoError) as err:
        run(P, turns("B"), NP_END)
    assert err.value.code == "not_their_turn"


def test_firk_time_1_third_to_last_round_then_supplementary_turns_until_all_pass():
    events = [Event("time_up"), *turns("A", "B", "C", "D") * 1]
    events = [Event("time_up"), *turns(*P), *turns(*P), *turns(*P)]
    state, log = run(P, events, FIRK_END)
    assert log[0]["outcome"] == "rounds_announced" and log[0]["rounds_left"] == 3
    assert state.supplementary and expectation(state) == {"kind": "supplementary_choice", "player": "A"}
    state, outcome, details = step(state, turns("A", conquests=1)[0], FIRK_END)
    assert outcome is Outcome.SUPPLEMENTARY_PLAYED and details["cards"] == 2
    for name in ("B", "C", "D"):
        state, outcome, _ = step(state, Event("pass", name), FIRK_END)
    assert outcome is Outcome.SUPPLEMENTARY_PASSED  # A has not passed yet: a play re-opens the round
    state, outcome, _ = step(state, Event("pass", "A"), FIRK_END)
    assert outcome is Outcome.GAME_ENDED and state.end_reason == "all_passed"


def test_firk_time_1_a_play_puts_back_everyone_who_had_passed():
    events = [Event("time_up"), *turns(*P) * 3, Event("pass", "A"), Event("pass", "B"), *turns("C"), Event("pass", "D")]
    state, _ = run(P, events, FIRK_END)
    assert not state.ended and state.consecutive_passes == 1


def test_firk_time_1_game_ends_when_everyone_used_three_supplementary_turns():
    events = [Event("time_up"), *turns(*P) * 3, *turns(*P) * 3]
    state, log = run(P, events, FIRK_END)
    assert state.ended and state.end_reason == "supplementary_used"
    assert log[-1]["used"] == 3


@given(st.lists(st.sampled_from(["turn", "time"]), max_size=30), st.integers(0, 3))
def test_rk_sd_1_state_notation_round_trips(kinds, current):
    state = start(P, NP_END, P[current])
    for kind in kinds:
        if state.ended or state.pending:
            break
        event = (
            Event("time_up")
            if kind == "time" and not state.time_up
            else Event("turn_ended", state.players[state.current])
        )
        state, _, _ = step(state, event, NP_END)
    assert EndState.parse(state.serialise()) == state


@given(st.sampled_from(["time_up", "turn_ended", "roll", "pass", "player_eliminated"]), st.integers(0, 5))
def test_rk_sd_1_event_notation_round_trips(kind, conquests):
    event = Event(
        kind,
        None if kind == "time_up" else "A",
        conquests if kind == "turn_ended" else 0,
        (3, 4) if kind == "roll" else (),
    )
    assert Event.parse(event.serialise()) == event


def test_rk_wd_1_withdrawn_last_seat_keeps_rolling_through_the_player_before_it():
    """RK-WD-1 / RK-SD-3 (ARB art. 25): a withdrawn seat plays no turns; the seat before rolls its dice too."""
    events = [Event("player_withdrawn", "D"), Event("time_up"), *turns("A", "B", "C", "A", "B", "C")]
    state, log = run(P, events, UFF_END)
    assert log[-1]["outcome"] == "roll_required" and "threshold" not in log[-1]
    assert log[-1]["rolls_for_withdrawn"] == [{"for": "D", "threshold": 4}]
    assert expectation(state) == {"kind": "roll", "player": "C", "threshold": 4, "for": "D"}
    state, outcome, _ = step(state, roll("C", 6, 6), UFF_END)
    assert outcome is Outcome.GAME_CONTINUES and expectation(state) == {"kind": "turn", "player": "A"}
    state, log = run(
        P, [*events, roll("C", 6, 6), *turns("A"), roll("A", 6, 6), *turns("B"), roll("B", 6, 6), *turns("C")], UFF_END
    )
    own, seat = state.pending
    assert own == ("C", "C", 4) and seat == ("C", "D", 5)


def test_rk_wd_1_withdrawn_player_takes_no_more_turns():
    state, _ = run(P, [Event("player_withdrawn", "B")], NP_END)
    state, _, _ = step(state, turns("A")[0], NP_END)
    assert expectation(state) == {"kind": "turn", "player": "C"}
    with pytest.raises(RisikoError):
        step(state, turns("B")[0], NP_END)


def test_rk_sd_3_steward_risiko_sdadata_asks_the_player_before_the_eliminated_last_seat_to_roll(capsys, monkeypatch):
    """Reading 2 through the command line the referees use (the same engine function)."""
    import io
    import json

    from bot.cli import main

    turn = [{"event": "turn_ended", "player": p} for p in ("A", "B", "C", "D", "A", "B")]
    doc = {
        "preset": "risiko-ufficiali-2018",
        "players": ["A", "B", "C", "D"],
        "events": [{"event": "time_up"}, *turn, {"event": "player_eliminated", "player": "D"},
                   {"event": "turn_ended", "player": "C"}],
    }  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(doc)))
    assert main(["risiko", "sdadata", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["next"]["kind"] == "roll" and out["next"]["player"] == "C"
