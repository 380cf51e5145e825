"""Issue 15 acceptance: a hypothesis fuzz per `steward` input document — the documented examples with one value
replaced by arbitrary JSON (wrong types, nesting, huge or negative numbers, long strings), a key dropped or an
unknown key added — never end in a traceback, a hang or an exit code other than 0 or 2 (defects 8–11)."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
SECONDS = 20  # far above any answer to a document the CLI accepts; a hang fails the test

DOCUMENTS: dict[str, list[str]] = {
    "draw/export.json": ["draw", "--seed", "1"],
    "draw/n64_s1.json": ["draw", "--seed", "1"],
    "risiko/battle.json": ["risiko", "battle"],
    "risiko/cards.json": ["risiko", "cards"],
    "risiko/limit.json": ["risiko", "limit"],
    "risiko/odds.json": ["risiko", "odds"],
    "risiko/points.json": ["risiko", "points"],
    "risiko/reinforcements.json": ["risiko", "reinforcements"],
    "risiko/score.json": ["risiko", "score"],
    "risiko/sdadata.json": ["risiko", "sdadata"],
    "rr/board.json": ["rr", "board"],
    "rr/solve.json": ["rr", "solve"],
    "rr/verify.json": ["rr", "verify"],
    "rule/rr-tie.json": ["rule"],
    "standings/firk.json": ["standings"],
    "season/np.json": ["season"],
    "render/standings.json": ["render", "standings"],
    "render/tables.json": ["render", "tables"],
    "render/bracket.json": ["render", "bracket"],
    "render/rr-board.json": ["render", "rr-board"],
    "render/rr-board-moves.json": ["render", "rr-board"],  # the engine shape, replayed (defect 9)
    "render/risiko-map.json": ["render", "risiko-map"],
    # the same file, another documented form of the command: round 3 over a seeded round-2 history
    "draw/n64_s1.json@round3": ["draw", "--seed", "1", "--round", "3"],
    # documented forms with no example file of their own (INLINE below)
    "draw/semifinal": ["draw", "--seed", "1"],
    "draw/final": ["draw", "--seed", "1"],
    "standings/ricochet": ["standings"],
}

_CLUBS = ("Roma", "Milano", "Roma", "Napoli", "Milano", None, "Torino", "Roma")
INLINE: dict[str, Any] = {
    # a semifinal round's export as the bot stores it (FinalsRequest.to_json): TOUR-SF-1 bands, 4 tables
    "draw/semifinal": {
        "schema": "steward-tournament/1",
        "kind": "semifinal",
        "preset": "risiko-ufficiali-2018",
        "ranking": list(range(1, 17)),
        "clubs": [[pid, _CLUBS[pid % len(_CLUBS)]] for pid in range(1, 17)],
        "tables": 4,
    },
    # a final's export: three semifinal tables, a direct finalist and a declined winner (TOUR-FIN-1 chain)
    "draw/final": {
        "schema": "steward-tournament/1",
        "kind": "final",
        "preset": "risiko-ufficiali-2018",
        "groups": [
            {
                "label": "all",
                "tables": [1, 2, 3],
                "orders": [[2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]],
                "direct_finalist": 1,
            }
        ],
        "standings": list(range(1, 16)),
        "declined": [3],
    },
    # standings in their Ricochet Robots form: tokens, a forfeit and a disqualification with left_at
    "standings/ricochet": {
        "preset": "ricochet-v3.3",
        "games": [
            {
                "round": 1,
                "table": 1,
                "players": [
                    {"id": "anna", "game_points": 5},
                    {"id": "bruno", "game_points": 3},
                    {"id": "carla", "game_points": 2, "status": "forfeit", "left_at": 4},
                ],
            },
            {
                "round": 2,
                "table": 1,
                "players": [
                    {"id": "bruno", "game_points": 6},
                    {"id": "anna", "game_points": 4},
                    {"id": "dario", "game_points": 0, "status": "disqualified", "left_at": 1},
                ],
            },
        ],
        "deductions": [{"player": "bruno", "points": 1, "code": "late"}],
        "withdrawn": ["carla"],
    },
}


def _document(name: str) -> Any:
    """The base document of a ``DOCUMENTS`` entry: an inline one, or the example file (``file@variant``)."""
    if name in INLINE:
        return copy.deepcopy(INLINE[name])
    return json.loads((EXAMPLES / name.partition("@")[0]).read_text(encoding="utf-8"))


LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.sampled_from([10**400, -1, 0, 10**11, 2**63])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
    | st.sampled_from(["x" * 5000, "=HYPERLINK(1)", "@everyone", "\u202eannA", "red", "N", "played"])
)
JSON = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc[:3]):
            yield (*prefix, index)
            yield from _paths(value, (*prefix, index))


def _mutate(doc: Any, path: tuple[Any, ...], action: str, value: Any) -> Any:
    out = copy.deepcopy(doc)
    if not path:
        return value
    holder = out
    for step in path[:-1]:
        holder = holder[step]
    if action == "replace":
        holder[path[-1]] = value
    elif action == "drop" and isinstance(holder, dict):
        del holder[path[-1]]
    elif action == "extra" and isinstance(holder, dict):
        holder["zz_unknown"] = value
    return out


class _Hang(Exception):
    pass


def _run(args: list[str], document: Any, tmp: Path) -> tuple[int, str]:
    source = tmp / "input.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    if args[0] == "render":
        argv = [*args, str(source), "-o", str(tmp / "out.png")]
    else:
        argv = [*args, "--input", str(source), "--json"]
    err, out = io.StringIO(), io.StringIO()

    def alarm(*_: Any) -> None:
        raise _Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(SECONDS)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    except _Hang:
        pytest.fail(f"{' '.join(args)} did not answer within {SECONDS} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return code, err.getvalue()


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_documents_answer_0_or_2_with_one_line(name: str, data: st.DataObject, tmp_path_factory: Any) -> None:
    base = _document(name)
    paths = [(), *_paths(base)]
    path = data.draw(st.sampled_from(paths), label="path")
    action = data.draw(st.sampled_from(["replace", "replace", "drop", "extra"]), label="action")
    value = data.draw(JSON, label="value")
    document = _mutate(base, path, action, value)
    code, err = _run(DOCUMENTS[name], document, tmp_path_factory.mktemp("fuzz"))
    assert code in (0, 2), (code, err[-300:])
    assert "Traceback" not in err
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: ") and len(lines[0]) <= 400, err[-400:]


@pytest.mark.parametrize(
    ("name", "path", "value", "says"),
    [
        ("draw/n64_s1.json", ("round1",), "x", "round1: must be a JSON object"),
        ("draw/n64_s1.json", ("table_sizes",), "4" * 16, "table_sizes: must be a JSON array"),
        ("draw/n64_s1.json", ("table_sizes", 0), 4.5, "table_sizes.0: must be an integer"),
        ("draw/export.json", ("players", 0, "name"), 5, "players.0.name: must be a string"),
        ("rr/solve.json", ("robots", "red"), None, "Not a robot and its cell: red None"),
        ("rr/verify.json", ("moves", 0), 5, "Not a move (a robot and a direction): #1 5"),
        ("rr/verify.json", ("moves",), [5], "Not a move (a robot and a direction)"),
        ("standings/firk.json", ("games",), None, "games: Input should be a valid list"),
        ("standings/firk.json", ("games", 0, "round"), None, "games.0.round"),
        ("standings/firk.json", ("games", 0, "players", 0, "table_points"), "40", "table_points"),
        ("render/standings.json", ("rows", 0, "points"), 1e308, "outside"),
        ("draw/export.json", ("schema",), "x" * 5000, "unknown schema"),
    ],
)
def test_type_confusion_is_one_line_quoting_at_most_80_characters(
    name: str, path: tuple[Any, ...], value: Any, says: str, tmp_path: Path
) -> None:
    """Defect 9 (a robot cell `null`, `"moves": [5]`, `games` not a list, a null round…) and defect 10 (error
    lines quote at most ~80 characters of the bad value): each is exit 2 with one line naming what is wrong."""
    base = _document(name)
    code, err = _run(DOCUMENTS[name], _mutate(base, path, "replace", value), tmp_path)
    assert code == 2 and says in err and err.count("\n") == 1, err
    assert max(len(x) for x in err.replace('"', "'").split("'")) <= 120


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_every_fuzzed_document_is_accepted_as_it_is(name: str, tmp_path: Path) -> None:
    """The fuzz's starting points are documents the command accepts (exit 0): otherwise every mutation would only
    test the refusal of a document that was already wrong."""
    code, err = _run(DOCUMENTS[name], _document(name), tmp_path)
    assert code == 0 and err == "", err


@pytest.mark.parametrize(
    ("cell", "shows"),
    [
        (None, "[None, 5]"),  # was TypeError: int() argument must be ... not 'NoneType' (exit 1)
        (10**11, "[100000000000, 5]"),  # was IndexError: tuple index out of range (exit 1)
        ([1], "[[1], 5]"),  # was TypeError (exit 1)
        ("a", "[a, 5]"),  # was exit 2 with Python's own "invalid literal for int() with base 10: 'a'"
        ("5", "[5, 5]"),  # a string is not a coordinate either, even when it holds digits
        (1.5, "[1.5, 5]"),  # was silently drawn (defect 11)
        (True, "[True, 5]"),  # was silently drawn as 1 (defect 11)
        (-1, "[-1, 5]"),
    ],
)
def test_render_rr_board_moves_form_checks_robot_cells_as_rr_solve_does(cell: Any, shows: str, tmp_path: Path) -> None:
    """Defects 9 and 11: `steward render rr-board` fed the documented moves form (the engine shape of
    `rr verify`) checks each robot cell with the same validation as `steward rr solve` — exit 2, one line naming
    the robot and its cell, the same line `rr solve` gives, no image written; never a traceback, Python's own
    message or a cell read some other way."""
    base = _document("render/rr-board-moves.json")
    code, err = _run(
        DOCUMENTS["render/rr-board-moves.json"], _mutate(base, ("robots", "red", 0), "replace", cell), tmp_path
    )
    assert code == 2 and err == f"error: A cell is off the board: red {shows} (rows and columns from 0 to 15).\n", err
    assert not (tmp_path / "out.png").exists()
    solve = _document("rr/solve.json")
    same = _run(DOCUMENTS["rr/solve.json"], _mutate(solve, ("robots", "red", 0), "replace", cell), tmp_path)
    assert same == (code, err)  # one validation, shared: the same document part gets the same answer


@pytest.mark.parametrize(
    ("robots", "says"),
    [
        ({"red": None}, "Not a robot and its cell: red None."),  # the engine's reason in words, never its code
        ({"red": [1, 2, 3]}, "Not a robot and its cell: red [1, 2, 3]."),
        ({"red": "15,5"}, "Not a robot and its cell: red '15,5'."),
        ({"purple": [0, 0]}, "No robot has the colour “purple”."),
        ({"red": [7, 7]}, "A robot stands on the central block: red [7, 7]."),
        ({"red": [0, 0], "blue": [0, 0]}, "Two robots on one cell: red and blue at [0, 0]."),
        ([[15, 5]], "robots must map colour to [row, col]"),
    ],
)
def test_render_rr_board_moves_form_refuses_a_robot_the_engine_refuses(robots: Any, says: str, tmp_path: Path) -> None:
    """Defect 9: the robots of the moves form are a position the engine accepts — a known colour, a
    `[row, col]` pair, not on the central block, no two on one cell (as `rr solve|verify|board`)."""
    doc = {**_document("render/rr-board-moves.json"), "robots": robots, "moves": []}
    code, err = _run(DOCUMENTS["render/rr-board-moves.json"], doc, tmp_path)
    assert code == 2 and err.startswith("error: ") and says in err and err.count("\n") == 1, err


def test_render_rr_board_moves_form_checks_robots_on_a_board_without_targets(
    tmp_path: Path,
) -> None:
    """The robot check needs no target: a board of explicit walls with no targets still draws its robots, and
    still refuses two robots on one cell (`rr board` would take its first target as the stand-in)."""
    board = {"cell_walls": [[""] * 16 for _ in range(16)], "targets": []}
    doc = {"board": board, "robots": {"red": [0, 0], "blue": [3, 3]}, "moves": [["red", "E"]]}
    assert _run(["render", "rr-board"], doc, tmp_path) == (0, "")
    code, err = _run(["render", "rr-board"], {**doc, "robots": {"red": [0, 0], "blue": [0, 0]}}, tmp_path)
    assert code == 2 and err == "error: Two robots on one cell: red and blue at [0, 0].\n", err
    # `steward rr board` shares the check (it took the board's first target as the stand-in: IndexError)
    code, err = _run(["rr", "board"], {"board": board, "robots": {"red": [0, 0], "blue": [3, 3]}}, tmp_path)
    assert (code, err) == (0, "")
    code, err = _run(["rr", "board"], {"board": board, "robots": {"red": [0, 0], "blue": [0, 0]}}, tmp_path)
    assert code == 2 and err == "error: Two robots on one cell: red and blue at [0, 0].\n", err


def test_render_rr_board_moves_form_quotes_at_most_80_characters_of_a_bad_cell(
    tmp_path: Path,
) -> None:
    """Defect 10: a 5,000-character robot cell is named in one line that quotes at most ~80 characters of it."""
    base = _document("render/rr-board-moves.json")
    doc = _mutate(base, ("robots", "red", 0), "replace", "x" * 5000)
    code, err = _run(DOCUMENTS["render/rr-board-moves.json"], doc, tmp_path)
    assert code == 2 and err.startswith("error: A cell is off the board: red ") and err.count("\n") == 1, err[:400]
    assert "x" * 81 not in err and len(err) <= 300


def test_a_player_twice_at_a_previous_table_and_an_image_too_large_are_refused(tmp_path: Path):
    """Defect 9: a player twice in a previous table (was an AssertionError deep in the optimiser) and a render
    document that would make an image past Pillow's bomb limit (was DecompressionBombError): exit 2, one line."""
    export = json.loads((EXAMPLES / "draw/export.json").read_text(encoding="utf-8"))
    first, second = export["players"][0]["id"], export["players"][1]["id"]
    doc = {**export, "round": 2, "previous_tables": [[first, first, second]]}
    code, err = _run(DOCUMENTS["draw/export.json"], doc, tmp_path)
    assert code == 2 and "player_twice_at_previous_table" in err
    tables = json.loads((EXAMPLES / "render/tables.json").read_text(encoding="utf-8"))
    doc = {**tables, "tables": tables["tables"] * 2000}
    code, err = _run(DOCUMENTS["render/tables.json"], doc, tmp_path)
    assert code == 2 and "at most 500" in err and err.count("\n") == 1


# --------------------------------------------------------------------------------- the bot's own documents

CSV_CELLS = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "=1+1",
            "@SUM(A1)",
            "+39",
            "-",
            '"unclosed',
            "\x00",
            "9" * 25,
            "123456789012345678",
            "Rossi",
            "12345678901234567\u00b2",
            "\u0661" * 18,
        ]
    ),  # a superscript 2, Arabic-Indic digits
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    header=st.lists(st.sampled_from(["nome", "name", "club", "squadra", "discord id", "famiglia", "x"]), max_size=5),
    rows=st.lists(st.lists(CSV_CELLS, max_size=6), max_size=8),
    delimiter=st.sampled_from([";", ",", "\t"]),
    bom=st.booleans(),
)
def test_fuzz_the_roster_csv_gives_players_or_line_problems_never_an_exception(
    header: list[str], rows: list[list[str]], delimiter: str, bom: bool
) -> None:
    """The roster CSV (BOT-REG-1, defect 12): any file is players or problems with line numbers, nothing else."""
    from bot.files.players import parse_players_csv

    text = "\n".join(delimiter.join(r) for r in [header, *rows])
    parsed = parse_players_csv(("\ufeff" if bom else "").encode() + text.encode("utf-8", "surrogatepass"))
    lines = text.count("\n") + 1
    assert all(0 <= p.line <= lines and p.key.startswith("csv.") for p in parsed.problems)
    assert all(pl.name and pl.name.strip() == pl.name for pl in parsed.players)  # names cleaned, never empty


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=st.one_of(st.text(max_size=300), JSON.map(json.dumps), st.sampled_from(["[" * 1000, "{" * 99, "1" * 5000])))
def test_fuzz_the_final_situation_is_scored_or_refused_with_a_code(text: str) -> None:
    """The final situation (`/report situation`, `steward risiko score`; defect 8): any text — JSON, CSV, deep
    nesting, huge numbers — is scored or refused with a rule error code."""
    from bot.rules.errors import RuleError
    from bot.rules.risiko.config import load_rules
    from bot.rules.risiko.scoring import score_situation, situation_document

    rules = load_rules("risiko-firk-1")
    try:
        score_situation(situation_document(text), rules)
    except RuleError as exc:
        assert exc.code and len(str(exc.value)) <= 400


OVERRIDES = st.one_of(
    st.text(max_size=200),
    JSON.map(json.dumps),
    st.fixed_dictionaries({"tournament": JSON}).map(json.dumps),
    st.fixed_dictionaries({"risiko": st.fixed_dictionaries({"army_limit": JSON})}).map(json.dumps),
)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=OVERRIDES)
def test_fuzz_the_overrides_are_applied_or_refused_with_a_localised_key(text: str) -> None:
    """`/tournament create overrides` (defects 8, 11): any text becomes a checked ruleset or one refusal."""
    from bot.errors import InvalidInput
    from bot.rules.presets import PresetError
    from bot.rules.ruleset import load_ruleset
    from bot.services.tournaments import parse_overrides

    try:
        overrides = parse_overrides(text)
        load_ruleset("risiko-ufficiali-2018", overrides)
    except InvalidInput as exc:
        assert exc.key.startswith("error.")
    except PresetError:
        pass


# ------------------------------------------------------------------ no silent reading of a value of the wrong type


def _variants(value: Any) -> list[Any]:
    """The same value as another JSON type — what a hand-written document gets wrong."""
    if isinstance(value, bool):
        return [1, "true"]
    if isinstance(value, int):
        return [value + 0.5, str(value), [value]] + ([True] if value not in (0, 1) else [])
    if isinstance(value, float):
        return [str(value), True]
    if isinstance(value, str):
        return [[value], 5, {"a": value}]
    if isinstance(value, list):
        flat = [x for x in value if isinstance(x, int | str) and not isinstance(x, bool)]
        return [{"x": value}] + (["".join(map(str, value))] if value and len(flat) == len(value) else [])
    if isinstance(value, dict):
        return [[list(value)], "x"]
    return []


def _tolerated(path: tuple[Any, ...], original: Any, replacement: Any) -> bool:
    """What a document may legitimately hold instead: a fractional number where points are counted, and a seat or
    player given by name alone in a render document (renderer's documented shorthand)."""
    key = next((p for p in reversed(path) if isinstance(p, str)), "")
    if key in ("table_points", "points", "tiebreak") and isinstance(replacement, float):
        return True
    return isinstance(original, dict) and "name" in original and isinstance(replacement, str)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_no_document_silently_reads_a_value_of_the_wrong_type(name: str, tmp_path: Path) -> None:
    """Every leaf of every documented example, given as another JSON type ("444" for [4, 4, 4], 4.5 or "4" for 4,
    a name as a list…), is refused with exit 2 — never read some other way (defects 9 and 11)."""
    base = _document(name)
    accepted = []
    for path in _paths(base):
        original: Any = base
        for step in path:
            original = original[step]
        for value in _variants(original):
            code, _ = _run(DOCUMENTS[name], _mutate(base, path, "replace", value), tmp_path)
            if code == 0 and not _tolerated(path, original, value):
                accepted.append((path, value))
    assert accepted == []


def test_digits_python_calls_digits_but_int_cannot_read_are_refused_not_a_crash():
    """`"²".isdigit()` is true but `int("²")` raises: an army count, a Discord id or a render date written with such
    a character (or with 5,000 digits, past int's limit) is a clear refusal, never a ValueError deep inside."""
    from bot.rules.risiko.errors import RisikoError
    from bot.rules.risiko.scoring import situation_from_csv
    from renderer.models import RenderInputError, StandingsData

    for armies in ("1\u00b2", "9" * 5000):
        with pytest.raises(RisikoError) as refused:
            situation_from_csv(f"Alaska;Anna;{armies}\n")
        assert refused.value.code == "csv_row_invalid"
    standings = json.loads((EXAMPLES / "render/standings.json").read_text(encoding="utf-8"))
    with pytest.raises(RenderInputError) as bad_date:
        StandingsData.from_json({**standings, "date": "2026-1\u00b2-01"})
    assert bad_date.value.code == "bad_date"
