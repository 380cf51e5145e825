"""One rule for where players out of the game rank at a table (``bot.rules.outcomes.table_places``), one answer on
every path that ranks a table: the engine's final situation (``score_table`` / ``steward risiko score``), typed
table points (``order_typed_table``), ``steward standings`` / ``steward season`` and the Ricochet Robots table
(RK-WD-1, RK-OVER-1, RR-WD-1, BOT-STD-1; ARB 23 last sentence, ARB 25, RR 9.3, RR 13.4)."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.rules.outcomes import PlacesError, table_places
from bot.rules.presets import load_preset
from bot.rules.ricochet.game import PlayerStatus, final_ranking
from bot.rules.risiko.config import load_rules
from bot.rules.risiko.points import (
    PointsRules,
    order_typed_table,
    tournament_points,
    tournament_points_exact,
    tournament_points_for_places,
)
from bot.rules.risiko.scoring import score_situation
from bot.rules.ruleset import load_ruleset
from bot.tools.tournament import StandingsDocument, game_results

UFF = "risiko-ufficiali-2018"
UFF_RULES = load_rules(UFF)

# The audit's table: two players in play, one withdrawn, one disqualified (risiko-ufficiali-2018: 12 / 9 / 6 / 3).
SEATS: dict[str, dict[str, Any]] = {
    "in_play_1": {"territories": {"Cina": 3, "India": 3, "Mongolia": 3}, "objective": ["Cina", "India", "Mongolia"]},
    "in_play_2": {"territories": {"Brasile": 3, "Peru": 3}, "objective": ["Brasile", "Peru"]},
    "withdrawn": {"territories": {"Egitto": 2}, "objective": ["Egitto"], "status": "withdrawn"},
    "disqualified": {"territories": {"Congo": 2}, "objective": ["Congo"], "status": "disqualified"},
}


def situation(names: dict[str, str], order: list[str]) -> dict[str, Any]:
    """The audit's final situation, each seat played by ``names[seat]``, listed in ``order``."""
    return {"preset": UFF, "players": [{"name": names[s], **SEATS[s]} for s in order]}


def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str], doc: Any) -> Any:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(doc).encode())))
    code = main([*command, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_arb_23_25_a_withdrawn_and_a_disqualified_player_share_one_place_below_those_in_play():
    """ARB 23 (last sentence): a player disqualified from the game is treated as a withdrawn one; ARB 25: the points of
    the position obtained. Both sit in one tier below everyone in play and share its place (3, 3: no 4th)."""
    seats = [("z", "disqualified", None), ("a", "active", 1), ("c", "withdrawn", None), ("b", "frozen", 2)]
    assert table_places(seats, disqualified_below_withdrawn=False) == {"a": 1, "b": 2, "c": 3, "z": 3}
    assert table_places(seats, disqualified_below_withdrawn=True) == {"a": 1, "b": 2, "c": 3, "z": 4}
    forfeit = [("f", "forfeit", None), ("w", "withdrawn", None), ("a", "played", -40.0)]
    assert table_places(forfeit, disqualified_below_withdrawn=False) == {"a": 1, "f": 2, "w": 2}


def test_rr_6_3_players_in_play_on_equal_keys_share_a_place_and_the_next_place_is_skipped():
    seats = [("a", "active", -4), ("b", "active", -4), ("c", "active", -2), ("d", "forfeit", None)]
    assert table_places(seats, disqualified_below_withdrawn=True) == {"a": 1, "b": 1, "c": 3, "d": 4}


def test_a_table_the_places_cannot_be_read_from_is_refused_naming_the_player():
    with pytest.raises(PlacesError) as twice:
        table_places([("a", "active", 1), ("a", "withdrawn", None)], disqualified_below_withdrawn=False)
    assert twice.value.code == "player_twice_at_table" and twice.value.value == "a"
    with pytest.raises(PlacesError) as keyless:
        table_places([("a", "active", None)], disqualified_below_withdrawn=False)
    assert keyless.value.code == "in_play_without_order"
    with pytest.raises(PlacesError) as half:
        table_places([("a", "forfeit", 1), ("b", "forfeit", None)], disqualified_below_withdrawn=True)
    assert half.value.code == "tier_partly_ordered"


def test_rr_13_4_two_disqualified_players_share_the_last_place_and_rr_9_3_orders_forfeits_by_leaving():
    """RR 13.4: every disqualified player is "declared last" — they share the last place, below every forfeit; RR 9.3:
    the first to forfeit is last of the forfeits, a later one above (the order they left, not their seats)."""
    ranking = final_ranking(
        {"a": 3, "b": 2, "c": 1, "d": 0, "e": 5, "f": 0},
        left=[("a", PlayerStatus.DISQUALIFIED), ("f", PlayerStatus.FORFEIT), ("c", PlayerStatus.FORFEIT),
              ("b", PlayerStatus.DISQUALIFIED)],
    )  # fmt: skip
    assert [(p.player, p.place, p.joint) for p in ranking] == [
        ("e", 1, False),
        ("d", 2, False),
        ("c", 3, False),
        ("f", 4, False),
        ("a", 5, True),
        ("b", 5, True),
    ]


def test_arb_25_a_shared_place_shares_the_average_of_the_exact_points_of_the_positions_it_covers():
    """ARB 25: the points of the position obtained; two players on one place share positions 3 and 4. A place table
    (UFF/NP 12 / 9 / 6 / 3) gives (6 + 3) / 2; FIRK's gap formula the exact average of the two positions' points."""
    assert tournament_points(load_preset(UFF), [15, 7, 0, 0], places=[1, 2, 3, 3]) == [12.0, 9.0, 4.5, 4.5]
    firk = PointsRules.from_preset(load_preset("risiko-firk-1"))
    exact = tournament_points_exact(firk, [40, 32, 0, 0])
    shared = tournament_points_for_places(firk, [40, 32, 0, 0], [1, 2, 3, 3])
    assert shared[:2] == exact[:2] and shared[2] == shared[3] == (exact[2] + exact[3]) / 2
    assert isinstance(shared[2], Fraction)
    assert tournament_points_for_places(firk, [40, 32, 20, 10], [1, 2, 3, 4]) == tournament_points_exact(
        firk, [40, 32, 20, 10]
    )
    with pytest.raises(ValueError, match="places_not_in_table_order"):
        tournament_points_for_places(firk, [40, 32, 0, 0], [1, 2, 4, 4])


@pytest.mark.parametrize(
    ("withdrawn", "disqualified", "order"),
    [
        ("Carla", "Zeno", ["in_play_1", "in_play_2", "withdrawn", "disqualified"]),
        ("Zeno", "Carla", ["in_play_1", "in_play_2", "withdrawn", "disqualified"]),
        ("Carla", "Zeno", ["disqualified", "in_play_2", "withdrawn", "in_play_1"]),
    ],
)
def test_arb_23_25_steward_risiko_score_gives_the_out_of_play_tier_one_place_and_its_averaged_points(
    capsys, monkeypatch, withdrawn, disqualified, order
):
    """RK-WD-1, RK-OVER-1: the out-of-play tier is not a tie waiting for a referee: tournament points are given, the
    withdrawn and the disqualified player share place 3 and (6 + 3) / 2, whatever their names or seats."""
    names = {"in_play_1": "Anna", "in_play_2": "Bruno", "withdrawn": withdrawn, "disqualified": disqualified}
    out = cli(capsys, monkeypatch, ["risiko", "score"], situation(names, order))
    assert out["unresolved_ties"] == []
    ranks = {p["name"]: p["rank"] for p in out["players"]}
    assert ranks == {"Anna": 1, "Bruno": 2, "Carla": 3, "Zeno": 3}
    assert out["tournament_points"] == {"Anna": 12.0, "Bruno": 9.0, "Carla": 4.5, "Zeno": 4.5}


@pytest.mark.parametrize("command", [["standings"], ["season"]])
def test_bot_std_1_arb_23_25_standings_and_season_rank_a_status_not_the_line_it_was_typed_on(
    capsys, monkeypatch, command
):
    """BOT-STD-1: a row typed ``"status": "disqualified"`` (or ``forfeit``) first in its game is ranked by its status
    as the engine ranks it — below the players in play, sharing the out-of-play place and its averaged points."""
    game = {"round": 1, "table": 1, "players": [
        {"id": "zeno", "table_points": 0, "status": "disqualified"}, {"id": "anna", "table_points": 60},
        {"id": "bruno", "table_points": 40}, {"id": "carla", "table_points": 0, "status": "forfeit"}]}  # fmt: skip
    if command == ["standings"]:
        out = cli(capsys, monkeypatch, command, {"preset": UFF, "games": [game]})["standings"]
    else:
        season = {"preset": UFF, "tournaments": [{"name": "Coppa", "date": "2026-10-03", "games": [game]}]}
        out = cli(capsys, monkeypatch, command, season)["season"]
    assert {r["player"]: (r["rank"], r["points"]) for r in out} == {
        "anna": (1, 12.0), "bruno": (2, 9.0), "zeno": (3, 4.5), "carla": (3, 4.5)}  # fmt: skip


def test_np_pts_1_arb_23_25_np_project_points_share_the_out_of_play_place():
    """NP-PTS-1: the project's 12 / 9 / 6 / 3 by final table order — the out-of-play tier's place is one place."""
    from bot.tools.season import compute_season_document

    game = {"round": 1, "table": 1, "players": [
        {"id": "zeno", "table_points": 0, "status": "disqualified"}, {"id": "anna", "table_points": 60},
        {"id": "bruno", "table_points": 40}, {"id": "carla", "table_points": 0, "status": "forfeit"}]}  # fmt: skip
    out = compute_season_document({"preset": "risiko-nostra-passione-2018", "tournaments": [
        {"name": "Coppa", "date": "2026-10-03", "games": [game]}]})  # fmt: skip
    assert {r["player"]: r["points"] for r in out["season"]} == {"anna": 12.0, "bruno": 9.0, "zeno": 4.5, "carla": 4.5}


STATUSES = st.sampled_from(["active", "withdrawn", "disqualified"])


@settings(max_examples=40, deadline=None)
@given(st.lists(STATUSES, min_size=4, max_size=4), st.permutations(range(4)), st.permutations(range(4)))
def test_arb_23_25_the_final_situation_s_places_and_points_follow_the_seats_never_names_or_listing(
    statuses, names, listing
):
    """Which name plays which seat, and in which order the seats are listed, change nothing: each seat's place and
    points are the same (``score_table`` through ``score_situation``, the path of ``steward risiko score``)."""
    pool = ["Anna", "Bruno", "Carla", "Zeno"]
    contents = list(SEATS.values())

    def outcome(names_of: list[int], listed: list[int]) -> dict[int, tuple[int, Any]]:
        players = [
            {
                **{k: v for k, v in contents[s].items() if k != "status"},
                "status": statuses[s],
                "name": pool[names_of[s]],
            }
            for s in listed
        ]
        scored = score_situation({"players": players}, UFF_RULES)
        points = dict(zip(scored.table.order, scored.tournament_points or (None,) * 4, strict=True))
        by_name = {p.name: p.rank for p in scored.table.players}
        return {s: (by_name[pool[names_of[s]]], points[pool[names_of[s]]]) for s in range(4)}

    assert outcome(list(names), list(listing)) == outcome([0, 1, 2, 3], [0, 1, 2, 3])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["played", "withdrawn", "disqualified"]), st.integers(0, 120)),
             min_size=2, max_size=5),
    st.randoms(use_true_random=False),
    st.booleans(),
)  # fmt: skip
def test_arb_6_23_25_typed_points_and_standings_give_the_same_places_and_points_whatever_the_seat_order(
    rows, rnd, below
):
    """Typed table points (``order_typed_table``, the bot's ``/report points``) and ``steward standings``
    (``game_results``) rank a table alike, and reordering its lines changes no player's place or points."""
    entries = [(f"p{k}", status, float(v) if status == "played" else 0.0) for k, (status, v) in enumerate(rows)]
    played = [e[2] for e in entries if e[1] == "played"]
    if len(set(played)) != len(played):
        return  # a tie in play needs the final situation (tie_needs_situation): not this property
    preset = "risiko-firk-1"
    overrides = {"tournament": {"disqualified_ranks": "below_withdrawn" if below else "with_withdrawn"}}
    ruleset = load_ruleset(preset, overrides)

    def typed(lines: list[tuple[str, str, float]]) -> dict[str, tuple[int, float]]:
        ordered = order_typed_table(lines, disqualified_below_withdrawn=below)
        pts = tournament_points(ruleset.preset, [e[2] for e in ordered], places=[e[3] for e in ordered])
        return {e[0]: (e[3], p) for e, p in zip(ordered, pts, strict=True)}

    def standings(lines: list[tuple[str, str, float]]) -> dict[str, tuple[int, float]]:
        status = {"played": "played", "withdrawn": "forfeit", "disqualified": "disqualified"}
        doc = StandingsDocument.model_validate({"preset": preset, "overrides": overrides, "games": [
            {"round": 1, "table": 1, "players": [{"id": p, "table_points": v, "status": status[s]}
                                                 for p, s, v in lines]}]})  # fmt: skip
        (result,) = game_results(doc.games, ruleset)
        return {e.player: (e.order, e.tournament_points) for e in result.entries}

    shuffled = list(entries)
    rnd.shuffle(shuffled)
    first = typed(entries)
    assert typed(shuffled) == first
    assert standings(entries) == standings(shuffled) == first
