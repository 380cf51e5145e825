"""The final classification (BOT-STD-1, TOUR-FIN-1, TOUR-SF-1/2, NP-FMT-1): the champion first, then the final phase,
then the qualifying standings — golden tables built from the rulebooks' own formats, and the permutation invariant."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.tournament.classification import (
    OpenPlaces,
    Stage,
    StageSeat,
    StageTable,
    classify_finals,
    classify_knockout,
    classify_standings,
)

# 20 players after two qualifying rounds (ARB 5: semifinals after two games), ranks 1…20, p01 the best
STANDINGS = [(f"p{i:02d}", i) for i in range(1, 21)]


def table(rnd: int, number: int, *seats: tuple[str, int | None] | tuple[str, int | None, float]) -> StageTable:
    return StageTable(rnd, number, tuple(StageSeat(*s) for s in seats))


# ARB 5, 3rd game with four semifinals: one of ranks 1–4, 5–8, 9–12, 13–16 at each table (TOUR-SF-1)
SEMIS = [
    table(3, 1, ("p01", 2), ("p08", 1), ("p09", 3), ("p16", 4)),
    table(3, 2, ("p02", 1), ("p07", 2), ("p10", 4), ("p15", 3)),
    table(3, 3, ("p03", 3), ("p06", 4), ("p11", 1), ("p14", 2)),
    table(3, 4, ("p04", 4), ("p05", 3), ("p12", 2), ("p13", 1)),
]
FINAL = [table(4, 1, ("p08", 3), ("p02", 1), ("p11", 2), ("p13", 4))]


def places(found) -> list[tuple[int | None, str]]:
    return [(r.place, r.player) for r in found.rows]


def test_tour_fin_1_the_final_table_then_the_semifinalists_by_place_and_standings_then_everyone_else():
    """ARB 5: the final's winner is the champion, whatever the qualifying standings said (p02 was 2nd); the
    semifinals' 2nds follow ordered by the standings after the qualifying rounds (ARB 5's measure when it ranks
    semifinalists for a seat), then the 3rds, the 4ths; then ranks 17–20 as the standings left them."""
    found = classify_finals(STANDINGS, semifinals=SEMIS, finals=FINAL)
    assert found.complete and found.champions == ("p02",) and not found.open
    assert places(found) == [
        (1, "p02"), (2, "p11"), (3, "p08"), (4, "p13"),  # the final's places
        (5, "p01"), (6, "p07"), (7, "p12"), (8, "p14"),  # the semifinals' 2nds: standings ranks 1, 7, 12, 14
        (9, "p03"), (10, "p05"), (11, "p09"), (12, "p15"),  # 3rds
        (13, "p04"), (14, "p06"), (15, "p10"), (16, "p16"),  # 4ths
        (17, "p17"), (18, "p18"), (19, "p19"), (20, "p20"),
    ]  # fmt: skip
    stages = {r.player: r.stage for r in found.rows}
    assert (stages["p02"], stages["p01"], stages["p17"]) == (Stage.FINAL, Stage.SEMIFINAL, Stage.QUALIFYING)


def test_tour_fin_1_semifinalists_of_one_place_by_their_table_points_when_the_preset_says_so():
    semis = [table(3, 1, ("a", 1, 90.0), ("b", 2, 40.0)), table(3, 2, ("c", 1, 80.0), ("d", 2, 70.0))]
    final = [table(4, 1, ("a", 1), ("c", 2))]
    standings = [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)]
    by_rank = classify_finals(standings, semifinals=semis, finals=final)
    by_points = classify_finals(standings, semifinals=semis, finals=final, semifinal_places="table_points")
    assert places(by_rank)[2:4] == [(3, "b"), (4, "d")] and places(by_points)[2:4] == [(3, "d"), (4, "b")]


def test_tour_fin_1_a_winner_who_declines_the_final_ranks_first_of_the_semifinalists():
    """ARB 5: table 2's winner p02 declines and p07, 2nd there, takes the seat; p02 played the semifinal and won it,
    so of the semifinalists who are not in the final p02 ranks first (our reading, docs/readings.md)."""
    final = [table(4, 1, ("p08", 3), ("p07", 1), ("p11", 2), ("p13", 4))]
    found = classify_finals(STANDINGS, semifinals=SEMIS, finals=final)
    assert found.champions == ("p07",)
    assert places(found)[4:9] == [(5, "p02"), (6, "p01"), (7, "p12"), (8, "p14"), (9, "p03")]


def test_tour_fin_1_players_sharing_a_place_at_the_final_share_the_final_place():
    """A tie at the final table: a withdrawn and a disqualified finalist (ARB 23, 25: one tier) share the 3rd place
    of the table, so they share the 3rd place of the tournament and the next player is 5th."""
    final = [table(4, 1, ("p08", 3), ("p02", 1), ("p11", 2), ("p13", 3))]
    found = classify_finals(STANDINGS, semifinals=SEMIS, finals=final)
    assert places(found)[:5] == [(1, "p02"), (2, "p11"), (3, "p08"), (3, "p13"), (5, "p01")]


def test_tour_sf_1_three_semifinals_the_direct_finalist_plays_the_final():
    """ARB 5, three semifinals: rank 1 goes straight to the final; the bands are 2–4, 5–7, 8–10, 11–13."""
    semis = [
        table(3, 1, ("p02", 1), ("p07", 2), ("p08", 3), ("p13", 4)),
        table(3, 2, ("p03", 2), ("p06", 1), ("p09", 4), ("p12", 3)),
        table(3, 3, ("p04", 3), ("p05", 4), ("p10", 1), ("p11", 2)),
    ]
    final = [table(4, 1, ("p01", 4), ("p02", 2), ("p06", 1), ("p10", 3))]
    found = classify_finals(STANDINGS, semifinals=semis, finals=final, direct_finalists=["p01"])
    assert places(found)[:4] == [(1, "p06"), (2, "p02"), (3, "p10"), (4, "p01")]
    assert places(found)[4:7] == [(5, "p03"), (6, "p07"), (7, "p11")]  # the 2nds by the standings
    assert places(found)[13] == (14, "p14")  # the first below the final phase


def test_tour_sf_2_two_parallel_finals_share_their_places():
    """ARB 5 "Finale o Finali": the odd and even halves of a 100+ field are two parallel tournaments; their winners
    share the 1st place, their 2nds the 3rd… (our reading)."""
    semis = [StageTable(3, 1, (StageSeat("a", 1), StageSeat("b", 2)), "odd"),
             StageTable(3, 2, (StageSeat("c", 1), StageSeat("d", 2)), "even")]  # fmt: skip
    finals = [StageTable(4, 1, (StageSeat("a", 1), StageSeat("e", 2)), "odd"),
              StageTable(4, 2, (StageSeat("c", 2), StageSeat("f", 1)), "even")]  # fmt: skip
    standings = [("e", 1), ("f", 2), ("a", 3), ("c", 4), ("b", 5), ("d", 6), ("g", 7)]
    found = classify_finals(standings, semifinals=semis, finals=finals, direct_finalists=["e", "f"])
    assert places(found) == [(1, "a"), (1, "f"), (3, "c"), (3, "e"), (5, "b"), (6, "d"), (7, "g")]
    assert set(found.champions) == {"a", "f"} and {r.group for r in found.rows[:2]} == {"odd", "even"}


def test_tour_fin_1_before_the_final_is_played_its_places_are_open_and_the_others_are_final():
    composed = [table(4, 1, ("p08", None), ("p02", None), ("p11", None), ("p13", None))]
    found = classify_finals(STANDINGS, semifinals=SEMIS, finals=composed)
    assert not found.complete and found.champions == ()
    assert found.open == (OpenPlaces(1, 4, ("p02", "p08", "p11", "p13"), Stage.FINAL),)
    assert [r.place for r in found.rows[:4]] == [None] * 4 and places(found)[4] == (5, "p01")
    seeded = [table(3, t.table, *((s.player, None) for s in t.seats)) for t in SEMIS]
    early = classify_finals(STANDINGS, semifinals=seeded)
    assert early.open[0].first == 1 and early.open[0].last == 16 and places(early)[16:] == places(found)[16:]
    assert classify_finals(STANDINGS).open == (OpenPlaces(1, 20, tuple(p for p, _ in STANDINGS), Stage.QUALIFYING),)


def test_arb_26_a_finalist_expelled_from_the_tournament_keeps_no_final_place():
    """A finalist disqualified from the tournament (ARB 26, 28) drops to where the standings put a disqualified
    player (their bottom); one who withdrew during the final keeps the place reached (ARB 25)."""
    names = [p for p, _ in STANDINGS if p != "p13"] + ["p13"]  # the standings put the disqualified at their bottom
    standings = [(p, i) for i, p in enumerate(names, start=1)]
    found = classify_finals(standings, semifinals=SEMIS, finals=FINAL, expelled=["p13"])
    assert places(found)[:4] == [(1, "p02"), (2, "p11"), (3, "p08"), (4, "p01")]
    assert places(found)[-1] == (20, "p13")


def test_np_fmt_1_knockout_who_went_further_then_the_place_then_the_table_points():
    """NP's knockout (NP-FMT-1: each table's winner goes on, to a final): the final's places first; the players out
    in round 1 by their place at their table (the 2nds, then the 3rds…) and, in one place, by table points there."""
    round1 = [
        table(1, 1, ("a", 1, 70.0), ("b", 2, 60.0), ("c", 3, 30.0)),
        table(1, 2, ("d", 1, 80.0), ("e", 2, 65.0), ("f", 3, 30.0)),
        table(1, 3, ("g", 1, 50.0), ("h", 2, 45.0), ("i", 3, 20.0)),
    ]
    final = [table(2, 1, ("a", 2, 40.0), ("d", 3, 20.0), ("g", 1, 55.0))]
    found = classify_knockout([round1, final], final_played=True)
    assert found.complete and found.champions == ("g",)
    assert places(found) == [(1, "g"), (2, "a"), (3, "d"), (4, "e"), (5, "b"), (6, "h"), (7, "c"), (7, "f"),
                             (9, "i")]  # fmt: skip
    shared = classify_knockout([round1, final], final_played=True, knockout_places="shared")
    assert places(shared)[3:6] == [(4, "b"), (4, "e"), (4, "h")]
    running = classify_knockout([round1, [table(2, 1, ("a", None), ("d", None), ("g", None))]], final_played=False)
    assert running.open == (OpenPlaces(1, 3, ("a", "d", "g"), Stage.KNOCKOUT),) and places(running)[3] == (4, "e")


def test_firk_and_rr_the_standings_are_the_classification_once_the_rounds_are_played():
    """FIRK (two rounds, FIRK-ROUNDS-1) and Ricochet Robots have no final phase: the general classification is the
    standings, shared ranks shared (RR-WIN-1 joint winners); before the last round every place is open."""
    standings = [("anna", 1), ("bruno", 1), ("carla", 3)]
    done = classify_standings(standings, complete=True)
    assert places(done) == [(1, "anna"), (1, "bruno"), (3, "carla")] and set(done.champions) == {"anna", "bruno"}
    assert classify_standings(standings, complete=False).open[0] == OpenPlaces(1, 3, ("anna", "bruno", "carla"),
                                                                                Stage.QUALIFYING)  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(1, 6), min_size=20, max_size=20))
def test_no_list_order_renaming_and_permuting_the_inputs_never_changes_a_place(seed, scores):
    """The invariant: shuffling the standings' list (level players included), the tables and their seats changes no
    player's place; renaming every player renames the answer and nothing else."""
    ordered = sorted(scores, reverse=True)
    ranks = [ordered.index(s) + 1 for s in ordered]
    standings = list(zip([p for p, _ in STANDINGS], ranks, strict=True))
    rng = random.Random(seed)

    def shuffled(tables: list[StageTable]) -> list[StageTable]:
        out = [StageTable(t.round, t.table, tuple(rng.sample(t.seats, len(t.seats))), t.group) for t in tables]
        return rng.sample(out, len(out))

    base = {r.player: r.place for r in classify_finals(standings, semifinals=SEMIS, finals=FINAL).rows}
    level_first = sorted(standings, key=lambda pr: (pr[1], rng.random()))
    again = classify_finals(level_first, semifinals=shuffled(SEMIS), finals=shuffled(FINAL))
    assert {r.player: r.place for r in again.rows} == base
    rename = {p: f"x{rng.randrange(10**6)}-{p}" for p, _ in STANDINGS}
    renamed = classify_finals(
        [(rename[p], r) for p, r in standings],
        semifinals=[StageTable(t.round, t.table, tuple(StageSeat(rename[s.player], s.place) for s in t.seats))
                    for t in SEMIS],
        finals=[StageTable(t.round, t.table, tuple(StageSeat(rename[s.player], s.place) for s in t.seats))
                for t in FINAL],
    )  # fmt: skip
    assert {r.player: r.place for r in renamed.rows} == {rename[p]: place for p, place in base.items()}
