"""Renderer inputs: JSON parse/serialise round-trips and clear errors quoting the bad value (BOT-IMG-1)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from renderer.models import (
    ARMY_COLOURS,
    ROBOT_COLOURS,
    TARGET_SYMBOLS,
    BracketData,
    BracketPlayer,
    BracketTable,
    MapPlayer,
    MapTerritory,
    RenderInputError,
    RiskMapData,
    RRBoardData,
    RRDiagonal,
    RRMove,
    RRRobot,
    RRTarget,
    SeatCard,
    StandingRow,
    StandingsData,
    TableCard,
    TablesData,
)
from tests.support import renderer_fixtures as fixtures

names = hs.text(hs.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=30)
opt_names = hs.none() | names
numbers = hs.integers(-10_000, 10_000).map(float) | hs.floats(-1e4, 1e4, allow_nan=False).map(lambda x: round(x, 1))
dates = hs.dates().filter(lambda d: d.year >= 1000).map(lambda d: d.isoformat())
cells = hs.tuples(hs.integers(0, 15), hs.integers(0, 15))

rows = hs.builds(
    StandingRow,
    rank=hs.integers(1, 500),
    name=names,
    points=numbers,
    games=hs.integers(0, 9),
    club=opt_names,
    team=opt_names,
    tiebreak=hs.none() | numbers,
    previous_rank=hs.none() | hs.integers(1, 500),
)
standings = hs.builds(
    StandingsData,
    tournament=names,
    round=hs.integers(0, 9),
    date=dates,
    rows=hs.lists(rows, max_size=5).map(tuple),
    has_teams=hs.booleans(),
    tiebreak_label=opt_names,
)
tables = hs.builds(
    TablesData,
    tournament=names,
    round=hs.integers(0, 9),
    date=dates,
    tables=hs.lists(
        hs.builds(TableCard, number=hs.integers(1, 80),
                  seats=hs.lists(hs.builds(SeatCard, name=names, club=opt_names), min_size=1, max_size=5).map(tuple)),
        max_size=4,
    ).map(tuple),
    seed=hs.none() | hs.integers(0, 2**63),
    optimal=hs.none() | hs.booleans(),
)  # fmt: skip
players = hs.builds(
    BracketPlayer, name=names, club=opt_names, seed=hs.none() | hs.integers(1, 99), declined=hs.booleans(),
    replaces=opt_names,
)  # fmt: skip


@hs.composite
def bracket_tables(draw: hs.DrawFn) -> BracketTable:
    ps = tuple(draw(hs.lists(players, min_size=1, max_size=5)))
    return BracketTable(draw(hs.integers(1, 9)), ps, draw(hs.none() | hs.integers(0, len(ps) - 1)))


brackets = hs.builds(
    BracketData, tournament=names, date=dates, semifinals=hs.lists(bracket_tables(), max_size=4).map(tuple),
    final=bracket_tables(), direct_finalists=hs.lists(players, max_size=2).map(tuple),
)  # fmt: skip


@hs.composite
def boards(draw: hs.DrawFn) -> RRBoardData:
    rng = random.Random(draw(hs.integers(0, 2**32)))
    walls = tuple(tuple(rng.choice(["", "N", "ES", "NESW", "W"]) for _ in range(16)) for _ in range(16))
    robots = draw(hs.dictionaries(hs.sampled_from(ROBOT_COLOURS), cells, max_size=6))
    return RRBoardData(
        cell_walls=walls,
        targets=tuple(
            draw(
                hs.lists(
                    hs.builds(
                        RRTarget,
                        hs.integers(0, 15),
                        hs.integers(0, 15),
                        hs.sampled_from(["red", "green", "blue", "yellow", "any"]),
                        hs.sampled_from(TARGET_SYMBOLS),
                    ),
                    max_size=5,
                )
            )
        ),
        robots=tuple(RRRobot(c, r, k) for c, (r, k) in robots.items()),
        active_target=draw(hs.none() | cells),
        diagonals=tuple(
            draw(
                hs.lists(
                    hs.builds(
                        RRDiagonal,
                        hs.integers(0, 15),
                        hs.integers(0, 15),
                        hs.sampled_from(ROBOT_COLOURS),
                        hs.sampled_from("/\\"),
                    ),
                    max_size=3,
                )
            )
        ),
        path=tuple(
            draw(
                hs.lists(
                    hs.builds(
                        RRMove, hs.sampled_from(ROBOT_COLOURS), hs.lists(cells, min_size=1, max_size=3).map(tuple)
                    ),
                    max_size=4,
                )
            )
        ),
        title=draw(opt_names),
    )


@hs.composite
def maps(draw: hs.DrawFn) -> RiskMapData:
    ps = draw(hs.lists(hs.builds(MapPlayer, names, hs.sampled_from(ARMY_COLOURS)), max_size=6,
                       unique_by=lambda p: p.name))  # fmt: skip
    owners = hs.none() | hs.sampled_from([p.name for p in ps]) if ps else hs.none()
    terr = draw(hs.dictionaries(names, hs.tuples(owners, hs.integers(0, 200)), max_size=5))
    return RiskMapData(
        players=tuple(ps),
        territories=tuple(MapTerritory(n, o, a) for n, (o, a) in terr.items()),
        title=draw(opt_names),
        doubled_strip=tuple(draw(hs.lists(names, max_size=3))),
        objective=tuple(draw(hs.lists(names, max_size=3))),
    )


@pytest.mark.parametrize(
    ("cls", "strategy"),
    [(StandingsData, standings), (TablesData, tables), (BracketData, brackets), (RRBoardData, boards()),
     (RiskMapData, maps())],
    ids=["standings", "tables", "bracket", "rr-board", "risiko-map"],
)  # fmt: skip
def test_bot_img_1_every_input_round_trips_through_json(cls, strategy):
    @settings(max_examples=40, deadline=None)
    @given(strategy)
    def check(value):
        assert cls.from_json(value.to_json()) == value

    check()


def test_bot_img_1_the_fixtures_round_trip_too():
    for value in (fixtures.sample_standings(20), fixtures.sample_tables(), fixtures.sample_bracket(True),
                  fixtures.sample_board(), fixtures.sample_map()):  # fmt: skip
        assert type(value).from_json(value.to_json()) == value


@pytest.mark.parametrize(
    ("cls", "obj", "code", "quoted"),
    [
        (StandingsData, {"tournament": "T", "round": 1, "date": "2026-11-22", "rows": [], "colour": 1}, "unknown_field",
         "'colour'"),
        (StandingsData, {"tournament": "T", "round": 1, "date": "22/11/2026", "rows": []}, "bad_date", "22/11/2026"),
        (StandingsData, {"tournament": "T", "round": 1, "date": "2026-11-22",
                         "rows": [{"rank": 1, "name": "A", "points": "31,8", "games": 1}]}, "not_a_number", "31,8"),
        (TablesData, {"tournament": "T", "round": 1, "date": "2026-11-22", "tables": [{"number": 1, "seats": []}]},
         "empty_table", "1"),
        (BracketData, {"tournament": "T", "date": "2026-11-22", "semifinals": [],
                       "final": {"number": 1, "players": ["A"], "winner": 3}}, "bad_winner", "3"),
        (RiskMapData, {"players": [{"name": "A", "colour": "pink"}], "territories": {}}, "unknown_code", "'pink'"),
        (RiskMapData, {"players": [], "territories": {"Cina": {"owner": "Bob", "armies": 3}}}, "unknown_owner",
         "'Bob'"),
    ],
)  # fmt: skip
def test_bad_renderer_input_is_refused_with_a_stable_code_quoting_the_value(cls, obj, code, quoted):
    with pytest.raises(RenderInputError) as err:
        cls.from_json(obj)
    assert err.value.code == code
    assert quoted in str(err.value)


def test_a_board_with_a_wall_side_that_is_not_nesw_is_refused():
    obj = fixtures.sample_board().to_json()
    obj["cell_walls"][3][4] = "NX"
    with pytest.raises(RenderInputError, match="'NX'") as err:
        RRBoardData.from_json(obj)
    assert err.value.code == "bad_walls"
