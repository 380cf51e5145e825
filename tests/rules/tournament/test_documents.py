"""Issue 15 defects 9 and 11: the draw documents are checked by one schema each (``bot.rules.tournament.documents``),
shared by the bot and ``steward draw`` — wrong types, silent readings and impossible values are refused with the
field named, and every export the bot writes passes (TOUR-R2-1, BOT-TAB-1: the published draw stays reproducible)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.tournament.documents import BadDocument
from bot.rules.tournament.instance import parse_instance
from bot.rules.tournament.model import Player
from bot.rules.tournament.planner import DrawRequest, FinalsRequest

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples" / "draw"
INSTANCE = json.loads((EXAMPLES / "n64_s1.json").read_text(encoding="utf-8"))
EXPORT = json.loads((EXAMPLES / "export.json").read_text(encoding="utf-8"))


def _with(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    holder = out
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    return out


@pytest.mark.parametrize(
    ("path", "value", "says"),
    [
        (("table_sizes",), "4" * 16, "table_sizes: must be a JSON array"),  # was read as sixteen tables of 4
        (("table_sizes", 0), 4.5, "table_sizes.0: must be an integer"),
        (("table_sizes", 0), True, "table_sizes.0: must be an integer"),
        (("table_sizes", 0), 11, "table_sizes.0: Input should be less than or equal to 10"),
        (("table_sizes", 0), 5, "table_sizes seat 65 but 64 players"),
        (("n",), "64", "n: must be an integer"),
        (("n",), 63, "n is 63 but 64 players"),
        (("players", 0, "club"), ["C02"], "players.0.club: must be a string"),
        (("players", 1, "id"), 1, "player 1 is listed twice"),
        (("players", 0, "id"), "1", "not of the same kind"),
        (("clubs", 0, "size"), 16, "club 'C01' has size 16 but 17 players"),
        (("round1",), [], "round1: must be a JSON object"),
        (("round1", "tables", 0, "size"), 5, "size 5 but 4 players"),
        (("round1", "tables", 0, "ranking"), [40, 59, 13, 13], "the ranking must list the table's players"),
        (("round1", "winners"), [9999], "player 9999 is not among the players"),
        (("previous_tablemate_pairs", 0), [1, 2, 3], "List should have at most 2 items"),
    ],
)
def test_an_instance_that_does_not_fit_is_refused_naming_the_field(
    path: tuple[Any, ...], value: Any, says: str
) -> None:
    with pytest.raises(BadDocument) as refused:
        parse_instance(_with(INSTANCE, path, value))
    assert says in str(refused.value) and str(refused.value).startswith("bad_document: ")
    assert len(str(refused.value)) < 300


@pytest.mark.parametrize(
    ("path", "value", "says"),
    [
        (("players",), 5, "players: must be a JSON array"),
        (("previous_round",), [], "previous_round: must be a JSON object"),  # was a traceback (defect 9)
        (("previous_round", "tables", 0, "players"), [1, 1, 3], "player 1 sits twice at one table"),
        (("previous_standings",), [1, "2"], "not of the same kind"),
        (("round",), -3, "round: Input should be greater than or equal to 1"),
        (("round",), 10**400, "round: "),
        (("players", 0, "name"), 5, "players.0.name: must be a string"),
        (("players", 0, "name"), "x" * 5000, "players.0.name: String should have at most 200 characters"),
        (("preset",), None, "preset: must be a string"),
        (("zz",), 1, "zz: is not a field of this document"),
    ],
)
def test_an_export_that_does_not_fit_is_refused_naming_the_field(path: tuple[Any, ...], value: Any, says: str) -> None:
    with pytest.raises(BadDocument) as refused:
        DrawRequest.from_json(_with(EXPORT, path, value))
    assert says in str(refused.value), str(refused.value)
    assert "x" * 81 not in str(refused.value)  # at most 80 characters of a bad value are quoted


def test_a_final_s_groups_are_checked_like_the_rest():
    final = {"schema": "steward-tournament/1", "kind": "final", "preset": "risiko-ufficiali-2018",
             "groups": [{"label": "all", "tables": [1, 2], "orders": [[1, 2, 3, 4]], "direct_finalist": 9}],
             "standings": [9, 1, 2, 3, 4], "declined": []}  # fmt: skip
    with pytest.raises(BadDocument, match="2 semifinal tables but 1 orders"):
        FinalsRequest.from_json(final)
    final["groups"] = [{"label": "all", "tables": [1], "orders": [[1, 2, 3, 4]], "direct_finalist": 9}]
    assert FinalsRequest.from_json(final).groups[0]["orders"] == [[1, 2, 3, 4]]


IDS = st.integers(min_value=1, max_value=10**12)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    ids=st.lists(IDS, min_size=1, max_size=40, unique=True),
    clubs=st.lists(st.sampled_from([None, "Roma", "Milano", "Napoli"]), min_size=40, max_size=40),
    round_no=st.integers(min_value=1, max_value=6),
    data=st.data(),
)
def test_tour_r2_1_every_export_the_bot_writes_passes_its_schema_and_reads_back_the_same(
    ids: list[int], clubs: list[str | None], round_no: int, data: st.DataObject
) -> None:
    """Property: ``DrawRequest.to_json`` → schema → ``from_json`` is the identity, history of absent players
    included (earlier tables may name players who have since withdrawn)."""
    players = tuple(Player(pid, clubs[k]) for k, pid in enumerate(ids))
    absent = data.draw(st.lists(IDS.filter(lambda x: x not in ids), max_size=3, unique=True))
    seated = [*ids, *absent]
    tables = tuple(tuple(seated[k : k + 4]) for k in range(0, len(seated), 4)) if round_no > 1 else ()
    request = DrawRequest(
        "risiko-ufficiali-2018",
        round_no,
        players,
        names={pid: f"Giocatore {pid}" for pid in ids},
        previous_tables=tables,
        winners=tuple(t[0] for t in tables),
        five_table_players=(),
        ranking=tuple(ids) if round_no > 1 else (),
    )
    assert DrawRequest.from_json(json.loads(json.dumps(request.to_json()))) == request
