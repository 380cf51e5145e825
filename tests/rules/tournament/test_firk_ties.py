"""FIRK outcomes never decided by the order of a list: round 1 seated from the previous classification with players
level there (FIRK §6, FIRK-SEED-1; §10, FIRK-FAM-1), the last round's sitter level at 4th (FIRK §9, FIRK-SIZE-1)."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from bot.cli import main
from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.model import Player, TournamentError
from bot.rules.tournament.planner import SIT_OUT, DrawRequest, plan_draw, special_table_points
from bot.rules.tournament.sizes import firk_sit_out_points

FIRK = load_ruleset("risiko-firk-1").tournament
RANKS = (1, 2, 3, 4, 4, 4, 7, 8, 9, 10, 11, 12)  # three level at 4th: the boundary after seat 4 cuts through them


def _round1(
    ranking: tuple[int, ...],
    ranks: tuple[int, ...],
    *,
    players: tuple[int, ...] = tuple(range(1, 13)),
    family: tuple[tuple[int, int], ...] = (),
    lot: int | None = None,
) -> DrawRequest:
    extra = {} if lot is None else {"lot": lot}
    return DrawRequest(
        "risiko-firk-1", 1, tuple(Player(i) for i in players), family_pairs=family, ranking=ranking, ranks=ranks,
        **extra,  # type: ignore[arg-type]
    )  # fmt: skip


@pytest.mark.parametrize("seed", [0, 3, 11, 2024])
def test_firk_6_round_1_level_previous_ranks_give_the_same_tables_whatever_the_order_they_are_listed_in(seed: int):
    """FIRK-SEED-1 (FIRK §6): players 4, 5 and 6 share 4th place in the previous classification; listing them (and
    the players) in any order gives the very same tables for a given seed — the list order decides nothing."""
    base = plan_draw(_round1(tuple(range(1, 13)), RANKS), seed)
    assert base.tables[0][:3] == (1, 2, 3) and base.tables[0][3] in {4, 5, 6}
    for level in itertools.permutations((4, 5, 6)):
        ranking = (1, 2, 3, *level, 7, 8, 9, 10, 11, 12)
        for players in (tuple(range(1, 13)), tuple(range(12, 0, -1))):
            assert plan_draw(_round1(ranking, RANKS, players=players), seed).tables == base.tables, (level, players)


def test_firk_6_round_1_level_previous_ranks_are_ordered_by_the_published_lot():
    """FIRK-SEED-1: who of the three level at 4th plays table 1 is a lot drawn with the round's seed, reported with
    the draw (rank, the level players, the order drawn, the seed); other seeds give each of them the seat."""
    seen = set()
    for seed in range(60):
        planned = plan_draw(_round1(tuple(range(1, 13)), RANKS), seed)
        (tie,) = planned.report["ties"]
        assert tie["rank"] == 4 and sorted(tie["tied"]) == [4, 5, 6] and tie["method"] == "lot" and tie["seed"] == seed
        assert tie["order"][0] == planned.tables[0][3] and tuple(tie["order"][1:]) == planned.tables[1][:2]
        assert "family_ties" not in planned.report
        seen.add(planned.tables[0][3])
    assert seen == {4, 5, 6}
    no_tie = plan_draw(_round1(tuple(range(1, 13)), tuple(range(1, 13))), 5)
    assert no_tie.tables == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)) and "ties" not in no_tie.report


@pytest.mark.parametrize("seed", [1, 8, 77])
def test_firk_6_round_1_the_same_seed_gives_the_same_lot_and_steward_draw_replays_it(seed: int):
    """FIRK-SEED-1: the seed fixes the lot — the same request and seed, or the published export parsed back (what
    ``steward draw --seed`` reads), give the same tables and the same report."""
    request = _round1(tuple(range(1, 13)), RANKS)
    planned = plan_draw(request, seed)
    assert plan_draw(request, seed) == planned
    replayed = plan_draw(DrawRequest.from_json(json.loads(json.dumps(request.to_json()))), seed)
    assert replayed.tables == planned.tables and replayed.report == planned.report


def test_firk_6_round_1_newcomers_cut_by_a_table_boundary_are_seated_by_the_lot_after_everyone_ranked():
    """FIRK-SEED-1: players with no previous rank are one level group after everyone ranked; where a table boundary
    cuts through them the lot seats them (rank ``None`` in the report), not the registration list."""
    seen = set()
    for seed in range(40):
        planned = plan_draw(_round1((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)), seed)
        assert planned.tables[0] == (1, 2, 3, 4) and planned.tables[1][:2] == (5, 6)
        (tie,) = planned.report["ties"]
        assert tie["rank"] is None and sorted(tie["tied"]) == [7, 8, 9, 10, 11, 12]
        assert tuple(tie["order"][:2]) == planned.tables[1][2:]
        seen.add(planned.tables[1][2:])
    assert len(seen) > 5


def test_firk_10_round_1_a_family_pair_level_in_the_classification_is_split_by_the_lot_not_the_list():
    """FIRK-FAM-1 (FIRK §10) moves "the lower-ranked" of a family pair at one table; 2 and 3 share 2nd place, so
    only the lot can say which of them is lower: it moves that one to table 2 (reported as ``family_ties``) — the
    same one whatever order they are listed in; other seeds move the other."""
    ranks = (1, 2, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    moved = set()
    for seed in range(40):
        planned = plan_draw(_round1(tuple(range(1, 13)), ranks, family=((2, 3),)), seed)
        swapped = plan_draw(_round1((1, 3, 2, *range(4, 13)), ranks, family=((3, 2),)), seed)
        assert swapped.tables == planned.tables
        (mover,) = {2, 3} - set(planned.tables[0])
        assert mover in planned.tables[1] and planned.report["criteria"]["family_pairs"] == 0
        (tie,) = planned.report["family_ties"]
        assert tie["rank"] == 2 and tie["order"][-1] == mover and "ties" not in planned.report
        moved.add(mover)
    assert moved == {2, 3}


def test_firk_6_round_1_documents_published_before_the_lot_replay_in_their_list_order():
    """Exports published before lot version 2 (no ``lot`` key) replay as they were drawn: the list order, no lot."""
    doc = _round1(tuple(range(1, 13)), RANKS).to_json()
    doc.pop("lot", None)
    old = DrawRequest.from_json(doc)
    assert old.lot == 1
    for seed in (0, 1, 2):
        planned = plan_draw(old, seed)
        assert planned.tables == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)) and "ties" not in planned.report


@pytest.mark.parametrize(
    ("rank", "shared", "points"),
    [
        (5, 1, 15.0),  # 5th alone
        (4, 1, 1.0),  # 4th alone: not 5th
        (4, 2, 15.0),  # level at 4th with one more: places 4-5
        (4, 3, 15.0),  # the bug's scenario: three level at 4th (places 4-6)
        (3, 2, 1.0),  # places 3-4: the 5th is someone else
        (3, 3, 15.0),  # places 3-5
        (5, 4, 15.0),
        (6, 2, 1.0),
        (1, 5, 15.0),  # five level at 1st: places 1-5
        (1, 4, 1.0),
    ],
)
def test_firk_size_1_9_the_sitter_is_5th_when_the_5th_place_lies_within_his_level_group(rank, shared, points):
    """FIRK-SIZE-1 (FIRK §9): 15 points to the sitter "classificato 5°" in the general classification, else 1. A rank
    shared by ``shared`` players holds places rank … rank + shared - 1: 5th when 5 is one of them."""
    assert firk_sit_out_points("x", overall_rank=rank, cfg=FIRK.firk, shared=shared).points == points
    assert special_table_points(FIRK, SIT_OUT, 1, overall_rank=rank, shared=shared) == (points,)


def test_firk_size_1_a_level_count_below_one_is_refused():
    with pytest.raises(TournamentError) as err:
        firk_sit_out_points("x", overall_rank=4, cfg=FIRK.firk, shared=0)
    assert err.value.code == "shared_rank_count"


def test_firk_size_1_steward_standings_scores_a_sitter_level_at_4th_as_5th(capsys, monkeypatch):
    """FIRK §9 through ``steward standings``: ``overall_shared`` says how many share the sitter's ``overall_rank``;
    4th shared by three is 15 points, 4th alone 1 (as the bot scores its sit-out table)."""
    import io

    game = {"round": 2, "table": 2, "special": "sit_out", "overall_rank": 4, "players": [{"id": "d"}]}
    for shared, points in ((3, 15.0), (1, 1.0)):
        doc = {"preset": "risiko-firk-1", "games": [{**game, "overall_shared": shared}]}
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(doc)))
        capsys.readouterr()
        assert main(["standings", "--json"]) == 0
        assert {r["player"]: r["points"] for r in json.loads(capsys.readouterr().out)["standings"]} == {"d": points}


def test_firk_6_round_1_random_orders_of_a_random_classification_never_change_the_tables():
    """FIRK-SEED-1, property: any previous classification with level groups (and newcomers), listed in any order,
    gives one set of tables per seed."""
    rnd = random.Random(7)
    for _ in range(40):
        n = rnd.choice([8, 9, 12, 13, 16, 17])
        ids = list(range(1, n + 1))
        ranked = ids[: n - rnd.randint(0, 3)]
        ranks: list[int] = []
        for i in range(len(ranked)):
            ranks.append(ranks[-1] if ranks and rnd.random() < 0.4 else i + 1)
        seed = rnd.randrange(1 << 30)
        players = tuple(ids)
        base = plan_draw(_round1(tuple(ranked), tuple(ranks), players=players), seed).tables
        pairs = list(zip(ranked, ranks, strict=True))
        rnd.shuffle(pairs)
        pairs.sort(key=lambda x: x[1])  # still best first, level players in another order
        shuffled = list(players)
        rnd.shuffle(shuffled)
        again = _round1(tuple(p for p, _ in pairs), tuple(r for _, r in pairs), players=tuple(shuffled))
        assert plan_draw(again, seed).tables == base
