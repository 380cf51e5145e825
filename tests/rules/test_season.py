"""A season's ranking across tournaments (bot/rules/season.py): NP project points (NP-PTS-1), FIRK's annual
ranking with its −7 "anche a livello annuale" (FIRK-PEN-1) and a withdrawal (FIRK-WD-1), ties explained, and the
season total as the sum of its tournaments' points less the season's deductions (a property)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.presets import PresetFieldError, load_preset
from bot.rules.risiko.points import tournament_points
from bot.rules.ruleset import load_ruleset
from bot.rules.season import SeasonDeduction, SeasonRules, SeasonTournament, compute_season
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.standings import EntryStatus, GameResult, TableEntry, compute_standings

NP = "risiko-nostra-passione-2018"
FIRK = "risiko-firk-1"

# (round, table, [(player, table points, status)]) in final table order
Board = tuple[int, int, Sequence[tuple[str, float, str]]]


def tournament(
    name: str, preset: str, boards: Sequence[Board], *, withdrawn: Sequence[str] = (), disqualified: Sequence[str] = ()
) -> SeasonTournament:
    """A tournament as the bot scores it: the preset turns each table's points into tournament points (NP 12/9/6/3,
    FIRK's gap formula), its standings rules give the general classification."""
    ruleset = load_ruleset(preset)
    results = []
    for rnd, table, seats in boards:
        points = tournament_points(ruleset.preset, [tp for _, tp, _ in seats])
        entries = tuple(
            TableEntry(p, k, points[k - 1], tp, EntryStatus(status)) for k, (p, tp, status) in enumerate(seats, 1)
        )
        results.append(GameResult(rnd, table, entries))
    rules = ruleset.tournament
    standings = compute_standings(
        results, tie_breakers=rules.tie_breakers, withdrawn=set(withdrawn), disqualified=set(disqualified),
        withdrawal_deduction=rules.withdrawal_deduction,
    )  # fmt: skip
    return SeasonTournament(name, tuple(results), standings)


def played(*players: str, base: float = 80.0) -> list[tuple[str, float, str]]:
    """A table in final order, each player's table points below the one before."""
    return [(p, base - 10 * k, "played") for k, p in enumerate(players)]


def np_season() -> list[SeasonTournament]:
    return [
        tournament("Coppa Autunno", NP, [
            (1, 1, played("anna", "bruno", "carla", "dario")),
            (1, 2, played("elena", "fabio", "gino", "ugo", "ivo")),  # a table of five: the 5th seat
        ]),
        tournament("Coppa Inverno", NP, [
            (1, 1, played("bruno", "anna", "elena", "fabio")),
            (1, 2, played("carla", "dario", "gino", "ugo")),
            (2, 1, played("anna", "carla", "bruno", "gino")),
            (2, 2, played("elena", "ugo", "dario", "fabio")),
        ]),
        tournament("Coppa Primavera", NP, [
            (1, 1, played("elena", "anna", "bruno", "carla")),
            (1, 2, played("dario", "fabio", "ivo", "gino")),
        ]),
    ]  # fmt: skip


def test_np_pts_1_project_points_sum_every_board_of_every_tournament_with_the_fifth_seat_default():
    """NP "Punteggio valido per il progetto": 12 / 9 / 6 / 3 per board by final table order, summed over the
    project's tournaments; a 5th seat gets the preset's 0 (our default: NP's table stops at the 4th)."""
    rules = load_ruleset(NP).season
    assert rules.points == "project" and rules.points_by_place == (12.0, 9.0, 6.0, 3.0, 0.0)
    season = compute_season(np_season(), rules=rules)
    table = {r.player: (r.rank, r.points, r.by_tournament) for r in season.rows}
    assert table["anna"] == (2, 42.0, {"Coppa Autunno": 12.0, "Coppa Inverno": 21.0, "Coppa Primavera": 9.0})
    assert table["ivo"] == (9, 6.0, {"Coppa Autunno": 0.0, "Coppa Primavera": 6.0})  # the 5th seat: 0
    assert [(r.player, r.points) for r in season.rows] == [
        ("elena", 42.0), ("anna", 42.0), ("bruno", 33.0), ("dario", 30.0), ("carla", 30.0), ("fabio", 24.0),
        ("gino", 18.0), ("ugo", 15.0), ("ivo", 6.0),
    ]  # fmt: skip
    ugo = next(r for r in season.rows if r.player == "ugo")
    assert ugo.tournaments == 2 and ugo.games == 3  # he missed the third tournament: no line, no points


def test_np_season_ties_are_resolved_by_the_preset_chain_and_explained():
    """Level on 42: boards won (elena 3, anna 2); level on 30 and on boards won: the latest tournament they both
    played, Coppa Primavera (dario shares its 1st place, carla its 7th)."""
    season = compute_season(np_season(), rules=load_ruleset(NP).season)
    first, second = season.decisions
    assert (first.players, first.tie_breaker, dict(first.values)) == (
        ("elena", "anna"), "first_places", {"anna": 2, "elena": 3})  # fmt: skip
    assert first.resolved and first.note is None
    assert (second.players, second.tie_breaker, second.note) == (
        ("dario", "carla"), "latest_tournament_rank", "Coppa Primavera")  # fmt: skip
    assert dict(second.values) == {"carla": 7, "dario": 1} and second.resolved


def test_the_season_image_movement_is_the_rank_before_the_latest_tournament():
    season = compute_season(np_season(), rules=load_ruleset(NP).season)
    before = {r.player: r.previous_rank for r in season.rows}
    assert before == {"anna": 1, "elena": 2, "carla": 3, "bruno": 4, "dario": 5, "ugo": 6, "gino": 7, "fabio": 8,
                      "ivo": 9}  # fmt: skip
    single = compute_season(np_season()[:1], rules=load_ruleset(NP).season)
    assert all(r.previous_rank is None for r in single.rows)


def firk_season() -> list[SeasonTournament]:
    return [
        tournament("Serata 1", FIRK, [
            (1, 1, [("anna", 40, "played"), ("bruno", 32, "played"), ("carla", 20, "played"), ("dario", 10, "played")]),
            (1, 2, [("elena", 40, "played"), ("fabio", 32, "played"), ("gino", 20, "played"), ("ugo", 10, "played")]),
        ]),
        tournament("Serata 2", FIRK, [
            (1, 1, [("bruno", 50, "played"), ("anna", 45, "played"), ("dario", 30, "played"), ("carla", 0, "forfeit")]),
            (1, 2, [("fabio", 40, "played"), ("elena", 32, "played"), ("gino", 20, "played"), ("ugo", 10, "played")]),
        ], withdrawn=["carla"]),
    ]  # fmt: skip


def test_firk_pen_1_the_annual_ranking_carries_each_general_classification_and_a_seven_point_annual_deduction():
    """FIRK punteggio 1–4 (40 vs 32: 31.8 and 14.2), §21 (a withdrawal: −25 in the general classification, carried
    into the year) and penalità 4: −7 "su qualsiasi classifica in corso anche a livello annuale" (dario, at Serata 2
    — the ranking before it does not count it)."""
    deduction = SeasonDeduction("dario", 7.0, "disturbing_table", tournament="Serata 2")
    season = compute_season(firk_season(), rules=load_ruleset(FIRK).season, deductions=[deduction])
    rows = {r.player: r for r in season.rows}
    assert rows["anna"].by_tournament == {"Serata 1": 31.8, "Serata 2": 14.5} and rows["anna"].points == 46.3
    assert rows["bruno"].by_tournament == {"Serata 1": 14.2, "Serata 2": 31.5}
    # carla withdrew from her game: 4th at 50 points behind (3 − 5 = −2) and FIRK §21's −25
    carla = rows["carla"]
    assert carla.by_tournament == {"Serata 1": 5.0, "Serata 2": -27.0} and carla.points == -22.0
    assert carla.lines[-1].standing == "withdrawn"
    dario = rows["dario"]
    assert dario.points == -2.0 and dario.deductions == 7.0 and sum(dario.by_tournament.values()) == 5.0
    assert [r.player for r in season.rows] == ["anna", "fabio", "elena", "bruno", "gino", "ugo", "dario", "carla"]
    # level on 46: the latest tournament's general classification (FIRK §8 read at annual level)
    (decision,) = [d for d in season.decisions if d.resolved]
    assert decision.tie_breaker == "latest_tournament_rank" and decision.note == "Serata 2"
    assert dict(decision.values) == {"elena": 4, "fabio": 1}
    assert rows["dario"].previous_rank == 7  # before Serata 2, without its −7: level with ugo at 0, both 7th


def test_firk_a_disqualified_player_s_tournament_counts_nothing_for_the_year():
    """Our default (docs/readings.md): FIRK §24 puts the player out of the tournament in progress; its points do
    not reach the annual ranking (the line stays, at 0)."""
    t = tournament("Serata 1", FIRK, [(1, 1, played("anna", "bruno", "carla", "dario"))], disqualified=["anna"])
    rows = {r.player: r for r in compute_season([t], rules=load_ruleset(FIRK).season).rows}
    assert rows["anna"].by_tournament == {"Serata 1": 0.0} and rows["anna"].lines[0].standing == "disqualified"


def test_a_best_n_season_counts_each_player_s_best_tournaments():
    """A preset field for a rulebook allowing best-N (none of ours does: 0 = the whole sum)."""
    preset = load_preset(NP, {"season": {"counted_tournaments": 2}})
    season = compute_season(np_season(), rules=SeasonRules.from_preset(preset))
    anna = next(r for r in season.rows if r.player == "anna")
    assert anna.dropped == ("Coppa Primavera",) and anna.points == 33.0
    assert load_ruleset(NP).season.counted_tournaments == 0 and load_ruleset(FIRK).season.counted_tournaments == 0


def test_bad_season_fields_are_refused_naming_the_field():
    with pytest.raises(PresetFieldError) as bad:
        SeasonRules.from_preset(load_preset(NP, {"season": {"points": "best"}}))
    assert bad.value.field == "season.points"
    with pytest.raises(PresetFieldError) as bad:
        SeasonRules.from_preset(load_preset(FIRK, {"season": {"points": "project"}}))
    assert bad.value.field == "season.points_by_place"


def test_a_deduction_for_a_player_of_no_tournament_is_refused():
    with pytest.raises(TournamentError) as bad:
        compute_season(np_season(), rules=load_ruleset(NP).season, deductions=[SeasonDeduction("zoe", 7, "x")])
    assert bad.value.code == "deduction_for_unknown_player"


NAMES = ("a", "b", "c", "d", "e", "f", "g", "h")


@st.composite
def seasons(draw: st.DrawFn) -> tuple[str, list[SeasonTournament], list[SeasonDeduction], int]:
    preset = draw(st.sampled_from((NP, FIRK)))
    tournaments = []
    for k in range(draw(st.integers(1, 4))):
        boards: list[Board] = []
        for rnd in range(1, draw(st.integers(1, 3)) + 1):
            field = draw(st.permutations(NAMES))[: draw(st.sampled_from((4, 5, 8)))]
            tables = [field[:4], field[4:]] if len(field) == 8 else [field]
            for number, seats in enumerate(tables, start=1):
                points = draw(st.lists(st.integers(0, 200), min_size=len(seats), max_size=len(seats)))
                status = draw(st.lists(st.sampled_from(("played", "played", "forfeit")), min_size=len(seats),
                                       max_size=len(seats)))  # fmt: skip
                ranked = sorted(zip(seats, points, status, strict=True), key=lambda x: -x[1])
                boards.append((rnd, number, ranked))
        seated = sorted({p for _, _, seats in boards for p, _, _ in seats})
        out = draw(st.lists(st.sampled_from(seated), max_size=2, unique=True))
        tournaments.append(tournament(f"T{k}", preset, boards, withdrawn=out[:1], disqualified=out[1:]))
    players = sorted({r.player for t in tournaments for r in t.standings.rows})
    names = [None, *(t.name for t in tournaments)]
    deductions = [
        SeasonDeduction(p, draw(st.sampled_from((7.0, 2.5, 25.0))), "x", draw(st.sampled_from(names)))
        for p in draw(st.lists(st.sampled_from(players), max_size=4))
    ]
    return preset, tournaments, deductions, draw(st.integers(0, 3))


@settings(max_examples=150, deadline=None)
@given(seasons())
def test_property_the_season_total_is_the_sum_of_its_tournaments_less_the_season_deductions(case):
    preset, tournaments, deductions, best = case
    rules = SeasonRules.from_preset(load_preset(preset, {"season": {"counted_tournaments": best}}))
    season = compute_season(tournaments, rules=rules, deductions=deductions)
    assert sorted(r.player for r in season.rows) == sorted({r.player for t in tournaments for r in t.standings.rows})
    for row in season.rows:
        taken = sum(d.points for d in deductions if d.player == row.player)
        counted = [line.points for line in row.lines if line.counted]
        assert row.deductions == pytest.approx(taken)
        assert row.points == pytest.approx(sum(counted) - taken, abs=1e-6)
        if best == 0:
            assert row.points == pytest.approx(sum(row.by_tournament.values()) - taken, abs=1e-6)
        else:
            assert len(counted) == min(best, len(row.lines))
            assert min(counted) >= max((x.points for x in row.lines if not x.counted), default=min(counted))
    ranks = [r.rank for r in season.rows]
    assert ranks == sorted(ranks) and [r.points for r in season.rows] == sorted((r.points for r in season.rows),
                                                                                 reverse=True)  # fmt: skip
