"""Round adjudication and game state: golden cases of the rulebook, each naming its requirement ID.

RR-ROUND-1, RR-DECL-1, RR-DECL-2, RR-DEMO-1, RR-VOID-1, RR-NEXT-1, RR-NOTOK-1, RR-END-1, RR-WIN-1, RR-WD-1,
RR-INT-1.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.ricochet.board import Board
from bot.rules.ricochet.config import RicochetRules
from bot.rules.ricochet.game import (
    GameOver,
    GameState,
    InterruptionOutcome,
    PlayerStatus,
    award,
    draw_token,
    final_ranking,
    interruption_outcome,
    leave,
    needs_new_placement,
    new_game,
    record_round,
    reveal_token,
    void,
)
from bot.rules.ricochet.round import (
    Declare,
    Demonstrate,
    DemoResult,
    PileStatus,
    RoundError,
    RoundStatus,
    TimeUp,
    TokenPile,
    TurnHourglass,
    VoidCall,
    VoidReason,
    Withdraw,
    adjudicate_round,
    event_from_json,
    event_to_json,
)

RULES = RicochetRules.from_preset()
TOKENS = {"ada": 0, "bea": 1, "cid": 2, "dan": 0}
MIN = RULES.minimum_moves


def _round(*events: object, tokens: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    return adjudicate_round(list(events), tokens=tokens or TOKENS, minimum_moves=MIN)  # type: ignore[arg-type]


def test_preset_gives_the_rulebook_numbers() -> None:
    """RR-MIN-1 default minimum 5; RR-END-1 thresholds 6/5/4; RR-NOTOK-1 three tokens; RR-INT-1 four hours."""
    assert RULES.minimum_moves == 5
    assert [RULES.end_tokens(n) for n in (2, 3, 4, 5)] == [6, 5, 4, 4]
    assert RULES.game_over_tokens_left == 3
    assert RULES.interruption_replay_hours == 4
    assert RULES.diagonal_variant is False and not hasattr(RULES, "must_ricochet")
    assert RicochetRules.from_preset(overrides={"ricochet": {"minimum_moves": 6}}).minimum_moves == 6


def test_rr_round_1_phases_follow_the_first_declaration_and_the_hourglass() -> None:
    assert _round().status is RoundStatus.PLANNING
    assert _round(Declare("ada", 9, 10.0)).status is RoundStatus.DECLARING
    out = _round(Declare("ada", 9, 10.0), TurnHourglass(11.0), TimeUp(71.0))
    assert out.status is RoundStatus.AWAITING_DEMONSTRATION and out.next_demonstrator == "ada"
    assert out.hourglass_turned_at == 11.0


def test_rr_decl_1_equal_declarations_go_to_the_earlier_one() -> None:
    out = _round(
        Declare("bea", 8, 5.0),
        TurnHourglass(5.5),
        Declare("ada", 8, 9.0),
        TimeUp(66.0),
        Demonstrate("bea", 8, True),
    )
    assert [d.player for d in out.order] == ["bea", "ada"]
    assert out.status is RoundStatus.AWARDED and out.winner == "bea"


def test_rr_decl_1_simultaneous_equal_declarations_go_to_the_player_with_fewer_tokens() -> None:
    out = _round(
        Declare("cid", 7, 5.0),
        Declare("bea", 7, 5.0),
        TurnHourglass(5.5),
        TimeUp(66.0),
        Demonstrate("bea", 7, True),
    )
    assert [d.player for d in out.order] == ["bea", "cid"]
    assert out.winner == "bea"


def test_rr_decl_1_an_unbreakable_tie_that_proves_valid_voids_the_round() -> None:
    out = _round(
        Declare("ada", 7, 5.0),
        Declare("dan", 7, 5.0),
        TurnHourglass(5.5),
        TimeUp(66.0),
        Demonstrate("ada", 7, True),
    )
    assert out.tied_players == (("ada", "dan"),)
    assert out.status is RoundStatus.VOID and out.void_reason is VoidReason.UNBREAKABLE_TIE


def test_rr_decl_1_a_player_may_only_lower_a_declaration_and_the_last_one_counts() -> None:
    out = _round(
        Declare("ada", 9, 1.0),
        TurnHourglass(1.5),
        Declare("ada", 10, 2.0),
        Declare("ada", 7, 3.0),
        Declare("bea", 8, 4.0),
        TimeUp(62.0),
    )
    assert out.rejected == ((2, "redeclaration_not_lower"),)
    assert [(d.player, d.moves) for d in out.order] == [("ada", 7), ("bea", 8)]


def test_rr_decl_2_a_mistaken_declaration_is_withdrawn_freely_before_the_hourglass_is_turned() -> None:
    out = _round(Declare("ada", 6, 1.0), Withdraw("ada", 2.0), Declare("bea", 9, 3.0), TurnHourglass(3.1), TimeUp(63))
    assert [d.player for d in out.order] == ["bea"]


def test_rr_decl_2_after_the_hourglass_is_turned_a_declaration_stands() -> None:
    out = _round(Declare("ada", 6, 1.0), TurnHourglass(1.5), Withdraw("ada", 2.0), TimeUp(61.5))
    assert out.rejected == ((2, "withdrawal_after_hourglass"),)
    assert [d.player for d in out.order] == ["ada"]


def test_rr_decl_2_a_single_wrong_declaration_at_time_out_voids_the_round() -> None:
    out = _round(Declare("ada", 6, 1.0), TurnHourglass(1.5), TimeUp(61.5), Demonstrate("ada", 8, True))
    assert out.status is RoundStatus.VOID and out.void_reason is VoidReason.SINGLE_WRONG_DECLARATION
    assert out.demonstrations == (("ada", DemoResult.WRONG),)


def test_rr_demo_1_a_wrong_demonstration_passes_the_turn_to_the_next_equal_or_higher_declaration() -> None:
    out = _round(
        Declare("ada", 6, 1.0),
        TurnHourglass(1.5),
        Declare("bea", 8, 2.0),
        Declare("cid", 6, 3.0),
        TimeUp(61.5),
        Demonstrate("ada", 6, False),
    )
    assert out.next_demonstrator == "cid"
    out = _round(
        Declare("ada", 6, 1.0),
        TurnHourglass(1.5),
        Declare("bea", 8, 2.0),
        Declare("cid", 6, 3.0),
        TimeUp(61.5),
        Demonstrate("ada", 6, False),
        Demonstrate("cid", 7, True),
        Demonstrate("bea", 8, True),
    )
    assert out.demonstrations == (("ada", DemoResult.WRONG), ("cid", DemoResult.WRONG), ("bea", DemoResult.VALID))
    assert out.winner == "bea"


def test_rr_demo_1_fewer_moves_than_declared_but_not_below_the_minimum_is_valid() -> None:
    out = _round(Declare("ada", 9, 1.0), TurnHourglass(1.5), TimeUp(61.5), Demonstrate("ada", 6, True))
    assert out.winner == "ada"


def test_rr_demo_1_padding_is_not_a_valid_demonstration() -> None:
    out = _round(Declare("ada", 9, 1.0), TurnHourglass(1.5), TimeUp(61.5), Demonstrate("ada", 6, True, padded=True))
    assert out.status is RoundStatus.VOID


def test_rr_min_1_a_demonstration_below_the_minimum_voids_the_round() -> None:
    out = _round(Declare("ada", 3, 1.0), TurnHourglass(1.5), TimeUp(61.5), Demonstrate("ada", 3, True))
    assert out.status is RoundStatus.VOID and out.void_reason is VoidReason.BELOW_MINIMUM


def test_rr_void_1_all_demonstrations_wrong_voids_the_round() -> None:
    out = _round(
        Declare("ada", 6, 1.0),
        TurnHourglass(1.5),
        Declare("bea", 7, 2.0),
        TimeUp(61.5),
        Demonstrate("ada", 9, True),
        Demonstrate("bea", 7, False),
    )
    assert out.status is RoundStatus.VOID and out.void_reason is VoidReason.ALL_DEMONSTRATIONS_WRONG


@pytest.mark.parametrize(
    "reason", [VoidReason.TOKEN_SEEN_EARLY, VoidReason.TOO_COMPLEX, VoidReason.TARGET_COVERED, VoidReason.BELOW_MINIMUM]
)
def test_rr_void_1_called_causes_void_the_round_and_later_events_are_refused(reason: VoidReason) -> None:
    out = _round(VoidCall(reason), Declare("ada", 6, 1.0))
    assert out.status is RoundStatus.VOID and out.void_reason is reason
    assert out.rejected == ((1, "round_already_void"),)


def _board() -> Board:
    return Board.from_quadrants(["1A", "2A", "3A", "4A"])


def test_rr_void_1_void_tokens_stay_aside_until_the_next_valid_award_then_are_shuffled_back() -> None:
    pile = TokenPile.for_board(_board())
    assert len(pile.face_down) == RULES.target_tokens
    rng = random.Random(7)
    pile = pile.draw(rng).void()
    pile = pile.draw(rng).void()
    assert len(pile.set_aside) == 2 and len(pile.face_down) == 15
    aside = set(pile.set_aside)
    pile = pile.draw(rng).award("ada")
    assert pile.set_aside == () and aside <= set(pile.face_down) and len(pile.face_down) == 16
    assert pile.awarded[0][0] == "ada"


def test_rr_notok_1_all_remaining_tokens_void_in_a_row_with_4_or_more_robots_are_re_placed() -> None:
    pile = TokenPile(face_down=("a", "b", "c", "d"))
    for token in ("a", "b", "c", "d"):
        pile = pile.reveal(token).void()
    assert pile.status(RULES.game_over_tokens_left) is PileStatus.RESET_ROBOTS
    assert len(pile.reset_for_new_placement().face_down) == 4


def test_rr_notok_1_all_remaining_tokens_void_in_a_row_with_3_or_fewer_the_game_is_over() -> None:
    state = new_game(["ada", "bea"], TokenPile(face_down=("a", "b", "c")), "ada", RULES)
    for token in ("a", "b", "c"):
        state = void(reveal_token(state, token), RULES)
    assert state.over is GameOver.NO_VALID_TOKEN


def _play(state: GameState, winner: str) -> GameState:
    return award(reveal_token(state, state.pile.face_down[0]), winner, RULES)


@pytest.mark.parametrize(("players", "needed"), [(2, 6), (3, 5), (4, 4), (6, 4)])
def test_rr_end_1_the_game_ends_at_the_token_count_for_the_players_at_the_start(players: int, needed: int) -> None:
    names = [f"p{i}" for i in range(players)]
    state = new_game(names, TokenPile.for_board(_board()), "p0", RULES)
    for _ in range(needed - 1):
        state = _play(state, "p1")
    assert state.over is None and state.first_player == "p1"  # RR-NEXT-1
    state = _play(state, "p1")
    assert state.over is GameOver.TOKENS_REACHED


def test_rr_end_1_the_threshold_stays_that_of_the_players_at_the_start_after_a_withdrawal() -> None:
    state = new_game(["a", "b", "c", "d"], TokenPile.for_board(_board()), "a", RULES)
    state = leave(state, "d", PlayerStatus.FORFEIT, RULES)
    for _ in range(3):
        state = _play(state, "a")
    assert state.over is None
    state = _play(state, "a")
    assert state.over is GameOver.TOKENS_REACHED


def test_rr_end_1_with_fewer_than_two_players_left_the_last_one_gets_the_points_needed() -> None:
    state = new_game(["a", "b", "c"], TokenPile.for_board(_board()), "a", RULES)
    state = _play(state, "b")
    state = leave(state, "a", PlayerStatus.FORFEIT, RULES)
    state = leave(state, "c", PlayerStatus.LAST_OF_GAME, RULES)
    assert state.over is GameOver.TOO_FEW_PLAYERS
    ranking = state.ranking()
    assert [(p.player, p.place, p.tokens) for p in ranking] == [("b", 1, 5), ("c", 2, 0), ("a", 3, 0)]


def test_rr_win_1_equal_tokens_are_joint_winners() -> None:
    ranking = final_ranking({"a": 4, "b": 4, "c": 2, "d": 2})
    assert [(p.player, p.place, p.joint) for p in ranking] == [
        ("a", 1, True),
        ("b", 1, True),
        ("c", 3, True),
        ("d", 3, True),
    ]


def test_rr_wd_1_the_first_forfeit_is_last_and_later_forfeits_take_the_places_above() -> None:
    ranking = final_ranking(
        {"a": 1, "b": 3, "c": 2, "d": 0, "e": 4},
        left=[("c", PlayerStatus.FORFEIT), ("a", PlayerStatus.LAST_OF_GAME)],
    )
    assert [(p.player, p.place) for p in ranking] == [("e", 1), ("b", 2), ("d", 3), ("a", 4), ("c", 5)]


def test_rr_wd_1_two_disqualified_players_share_the_last_place_below_every_forfeit() -> None:
    """RR 13.4: a disqualified player "is in any case declared last of the game", before or after any forfeit; two
    disqualified players are both declared last and share the place (the one RR ranking)."""
    ranking = final_ranking(
        {"a": 3, "b": 2, "c": 1, "d": 0, "e": 5},
        left=[("a", PlayerStatus.DISQUALIFIED), ("c", PlayerStatus.FORFEIT), ("b", PlayerStatus.DISQUALIFIED)],
    )
    assert [(p.player, p.place, p.status) for p in ranking] == [
        ("e", 1, PlayerStatus.ACTIVE),
        ("d", 2, PlayerStatus.ACTIVE),
        ("c", 3, PlayerStatus.FORFEIT),
        ("a", 4, PlayerStatus.DISQUALIFIED),
        ("b", 4, PlayerStatus.DISQUALIFIED),
    ]


def test_rr_wd_1_a_disqualified_player_is_always_last_below_forfeits() -> None:
    ranking = final_ranking(
        {"a": 3, "b": 2, "c": 1, "d": 0},
        left=[("a", PlayerStatus.DISQUALIFIED), ("c", PlayerStatus.FORFEIT)],
    )
    assert [(p.player, p.place, p.status) for p in ranking][-2:] == [
        ("c", 3, PlayerStatus.FORFEIT),
        ("a", 4, PlayerStatus.DISQUALIFIED),
    ]


def test_rr_wd_1_tokens_of_a_player_who_leaves_are_not_reused() -> None:
    state = new_game(["a", "b", "c"], TokenPile.for_board(_board()), "a", RULES)
    state = _play(state, "c")
    state = leave(state, "c", PlayerStatus.FORFEIT, RULES)
    assert len(state.pile.removed) == 1 and state.pile.awarded == ()
    assert len(state.pile.face_down) == 16
    assert state.first_player == "a"


def test_rr_next_1_after_a_void_round_the_first_player_does_not_change() -> None:
    state = new_game(["a", "b"], TokenPile.for_board(_board()), "a", RULES)
    state = _play(state, "b")
    state = draw_token(state, random.Random(3))
    outcome = _round(VoidCall(VoidReason.TOO_COMPLEX), tokens={"a": 0, "b": 1})
    state = record_round(state, outcome, RULES)
    assert state.first_player == "b" and len(state.pile.set_aside) == 1
    assert not needs_new_placement(state, RULES)


@pytest.mark.parametrize(("minutes", "outcome"), [(0, "resume"), (240, "resume"), (241, "replay")])
def test_rr_int_1_interruptions_up_to_4_hours_resume_beyond_replay(minutes: int, outcome: str) -> None:
    assert interruption_outcome(minutes, RULES) is InterruptionOutcome(outcome)


def test_a_declaration_by_an_unknown_player_is_refused() -> None:
    with pytest.raises(RoundError, match="unknown_player"):
        _round(Declare("zed", 5, 1.0))


@given(
    tokens=st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 5), min_size=2),
    left=st.lists(st.sampled_from("abcdef"), unique=True, max_size=3),
    dq=st.booleans(),
)
def test_rr_wd_1_rr_win_1_a_ranking_places_everyone_once_best_first(
    tokens: dict[str, int], left: list[str], dq: bool
) -> None:
    gone = [p for p in left if p in tokens]
    status = [(p, PlayerStatus.DISQUALIFIED if dq and i == 0 else PlayerStatus.FORFEIT) for i, p in enumerate(gone)]
    ranking = final_ranking(tokens, left=status)
    assert sorted(p.player for p in ranking) == sorted(tokens)
    places = [p.place for p in ranking]
    assert places == sorted(places) and places[0] == 1
    active = [p for p in ranking if p.status is PlayerStatus.ACTIVE]
    assert all(x.tokens >= y.tokens for x, y in itertools.pairwise(active))
    assert all(p.status is not PlayerStatus.ACTIVE for p in ranking[len(active) :])


_players = st.sampled_from(["ada", "bea", "cid", "dan"])
_events = st.one_of(
    st.builds(Declare, _players, st.integers(1, 30), st.floats(0, 600, allow_nan=False)),
    st.builds(Withdraw, _players, st.floats(0, 600, allow_nan=False)),
    st.builds(TurnHourglass, st.floats(0, 600, allow_nan=False)),
    st.builds(TimeUp, st.floats(0, 600, allow_nan=False)),
    st.builds(Demonstrate, _players, st.integers(0, 30), st.booleans(), st.booleans()),
    st.builds(VoidCall, st.sampled_from(list(VoidReason))),
)


@given(events=st.lists(_events, max_size=12))
def test_round_events_round_trip_through_json_and_adjudication_never_crashes(events: list[object]) -> None:
    """RR-ROUND-1: any event sequence is adjudicated to a status (never an exception for known players)."""
    back = [event_from_json(json.loads(json.dumps(event_to_json(e)))) for e in events]  # type: ignore[arg-type]
    assert back == events
    out = adjudicate_round(back, tokens=TOKENS, minimum_moves=MIN)
    assert out.status in RoundStatus
    if out.status is RoundStatus.AWARDED:
        assert out.winner in TOKENS and out.void_reason is None
    if out.status is RoundStatus.VOID:
        assert out.void_reason is not None and out.winner is None


@given(
    winners=st.lists(st.sampled_from(["a", "b", "c"]), max_size=6),
    leaver=st.sampled_from(["", "a", "b", "c"]),
)
def test_game_state_round_trips_through_json(winners: list[str], leaver: str) -> None:
    state = new_game(["a", "b", "c"], TokenPile.for_board(_board()), "a", RULES)
    for w in winners:
        if state.over is not None:
            break
        state = _play(state, w)
    if leaver and state.over is None:
        state = leave(state, leaver, PlayerStatus.FORFEIT, RULES)
    assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state
