"""The final situation as a CSV for every preset (issue 42): ``territory;owner;armies`` as before (FIRK), plus the
optional ``objective``, ``status`` and ``achieved`` columns the objective method needs (NP-SCORE-1, NP-SCORE-3),
Italian or English headers in any order; the CSV scores exactly as the same situation written as JSON."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.data import load_json
from bot.rules.risiko.board import standard_board
from bot.rules.risiko.config import load_rules
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.scoring import (
    SITUATION_CSV_MAX_ROWS,
    parse_situation,
    score_situation,
    situation_document,
    situation_from_csv,
    unverified_objective,
)
from bot.rules.risiko.situation_csv import NEUTRAL_OWNERS, objective_card_name, situation_to_csv

OBJECTIVE_PRESETS = ("risiko-nostra-passione-2018", "risiko-ufficiali-2018", "club-championship")
CARDS = tuple(load_json("objectives-unverified.json")["objectives"])

FIRK_CSV = "territorio;proprietario;armate\nCina;Anna;5\nIndia;Anna;3\nSiam;Bruno;2\nMadagascar;neutrale;1\n"

NP_CSV = """territorio;giocatore;armate;obiettivo;stato;raggiunto
Brasile;Anna;6;Letto
Argentina;Anna;2
Egitto;Anna;3
Ucraina;Bruno;5;Elefante
Scandinavia;Bruno;2;Elefante
Cina;Bruno;4;Elefante
Kamchatka;Carla;4;Piovra;;sì
Giappone;Carla;2;Piovra
Siam;Dario;3;Formula1;ritirato
India;Dario;3
Madagascar;;1
"""

NP_JSON = {
    "players": [
        {"name": "Anna", "territories": {"Brasile": 6, "Argentina": 2, "Egitto": 3}, "objective": "Letto"},
        {"name": "Bruno", "territories": {"Ucraina": 5, "Scandinavia": 2, "Cina": 4}, "objective": "Elefante"},
        {"name": "Carla", "territories": {"Kamchatka": 4, "Giappone": 2}, "objective": "Piovra",
         "achieved_objective": True},
        {"name": "Dario", "territories": {"Siam": 3, "India": 3}, "objective": "Formula1", "status": "withdrawn"},
    ]
}  # fmt: skip


def refused(text: str) -> RisikoError:
    with pytest.raises(RisikoError) as caught:
        situation_from_csv(text)
    return caught.value


def scored(doc: object, preset: str) -> tuple[object, ...]:
    s = score_situation(doc, load_rules(preset))
    return (s.table.order, [(p.name, p.table_points, p.rank, p.decided_by) for p in s.table.players],
            s.tournament_points)  # fmt: skip


# -- the FIRK form, unchanged ------------------------------------------------------------------------------------
def test_the_three_column_firk_form_reads_as_before():
    players = [{"name": "Anna", "territories": {"Cina": 5, "India": 3}}, {"name": "Bruno", "territories": {"Siam": 2}}]
    assert situation_from_csv(FIRK_CSV) == {"players": players}
    no_header = "Cina,Anna,5\nIndia , Anna , 3\n\nSiam;Bruno;2\nMadagascar;;1\nIslanda;-;2\nUrali;NEUTRAL;1\n"
    assert situation_from_csv(no_header) == situation_from_csv(FIRK_CSV)
    assert situation_from_csv("Territory;Who;Count\nCina;Anna;5\n") == {  # any header, as ever
        "players": [{"name": "Anna", "territories": {"Cina": 5}}]}  # fmt: skip
    as_json = {"players": players}
    assert scored(situation_document(FIRK_CSV), "risiko-firk-1") == scored(as_json, "risiko-firk-1")


@pytest.mark.parametrize(
    ("text", "code", "value"),
    [
        ("", "csv_empty", ""),
        ("territorio;proprietario;armate\n", "csv_empty", ""),
        ("Cina;;3\nIndia;neutral;2\n", "csv_empty", ""),
        ("Cina;Anna;5\nIndia;Anna\n", "csv_row_invalid", "row 2: India;Anna"),
        ("Cina;Anna;5\nIndia;Anna;tre\n", "csv_row_invalid", "row 2: India;Anna;tre"),
        ("Cina;Anna;5\nIndia;Anna;-1\n", "csv_row_invalid", "row 2: India;Anna;-1"),
        ("Cina;Anna\n", "csv_empty", ""),  # a first row without a count is a header, as ever
        ("Cina;Anna;5\nCina;Anna;3\n", "csv_row_invalid", "row 2: Cina twice"),
        ("Cina;Anna;5;Letto;attivo;sì;di più\n", "csv_row_invalid", "row 1: Cina;Anna;5;Letto;attivo;sì;di più"),
        ("t;o;a\n;Anna;\n", "csv_row_invalid", "row 2: ;Anna;"),  # no seat rows in the 3-column form
        ("\n".join(["Cina;Anna;1"] * (SITUATION_CSV_MAX_ROWS + 1)), "csv_too_long", SITUATION_CSV_MAX_ROWS + 1),
    ],
)
def test_the_three_column_errors_keep_their_codes(text: str, code: str, value: object):
    error = refused(text)
    assert (error.code, error.value) == (code, value)


def test_a_three_column_csv_still_lacks_the_objective_an_objective_preset_needs():
    for preset in OBJECTIVE_PRESETS:
        with pytest.raises(RisikoError) as caught:
            score_situation(situation_document(FIRK_CSV), load_rules(preset))
        assert caught.value.code == "objective_missing"


# -- the objective form --------------------------------------------------------------------------------------------
def test_the_np_form_reads_objectives_status_and_achieved():
    assert situation_from_csv(NP_CSV) == NP_JSON


@pytest.mark.parametrize("preset", OBJECTIVE_PRESETS)
def test_the_np_form_scores_as_the_same_situation_written_as_json(preset: str):
    from_csv = scored(situation_document(NP_CSV), preset)
    assert from_csv == scored(NP_JSON, preset) == scored(json.loads(json.dumps(NP_JSON)), preset)
    order, players, _ = from_csv
    assert order == ["Carla", "Bruno", "Anna", "Dario"]  # Carla achieved: 100; Dario withdrawn: last
    assert dict((name, points) for name, points, *_ in players) == {"Anna": 10, "Bruno": 10, "Carla": 100, "Dario": 0}


def test_italian_headers_in_another_order_and_commas():
    text = ("Obiettivo,Armate,Giocatore,Territorio,Raggiunto,Stato\n"
            "letto,6,Anna,brasile,,\n,2,Anna,Argentina,,\n,3,Anna,EGITTO,,\n"
            "ELEFANTE,5,Bruno,Ucraina,,\nelefante,2,Bruno,Scandinavia,,\n,4,Bruno,Cina,,\n"
            "piovra,4,Carla,Kamchatka,x,\n,2,Carla,Giappone,,\n"
            "formula 1,3,Dario,Siam,,r\n,3,Dario,India,,\n,1,neutral,Madagascar,,\n")  # fmt: skip
    doc = situation_from_csv(text)
    assert [p["objective"] for p in doc["players"]] == ["Letto", "Elefante", "Piovra", "Formula1"]
    assert scored(doc, "risiko-nostra-passione-2018") == scored(NP_JSON, "risiko-nostra-passione-2018")
    english = "objective;owner;armies;territory;status;achieved\nLetto;Anna;6;Brasile;active;no\n"
    assert situation_from_csv(english) == {"players": [
        {"name": "Anna", "territories": {"Brasile": 6}, "objective": "Letto"}]}  # fmt: skip
    short = "Giocatore;Territorio;Armate;Obiettivo\nAnna;Cina;3;Piovra\nAnna;India;2\n"  # rows may stop early
    assert situation_from_csv(short)["players"][0] == {
        "name": "Anna", "territories": {"Cina": 3, "India": 2}, "objective": "Piovra"}  # fmt: skip


def test_headers_that_do_not_make_a_layout_are_refused_naming_row_one():
    assert refused("giocatore;territorio;quante\nAnna;Cina;3\n").value == "row 1: column giocatore out of place"
    assert refused("territorio;giocatore;armate;stato;Stato\nCina;Anna;3;;\n").value == "row 1: column Stato twice"
    assert refused("territorio;giocatore;armate\nCina;Anna;3;Letto\n").value == "row 2: Cina;Anna;3;Letto"


@pytest.mark.parametrize(
    ("word", "status"),
    [("", None), ("attivo", None), ("Active", None), ("ritirato", "withdrawn"), ("RITIRATA", "withdrawn"),
     ("r", "withdrawn"), ("withdrawn", "withdrawn"), ("squalificato", "disqualified"), ("SQ", "disqualified"),
     ("disqualified", "disqualified"), ("congelato", "frozen"), ("frozen", "frozen")],
)  # fmt: skip
def test_status_words(word: str, status: str | None):
    player = situation_from_csv(f"Cina;Anna;3;;{word}\n")["players"][0]
    assert player.get("status") == status


@pytest.mark.parametrize(("word", "achieved"), [("sì", True), ("SI", True), ("si", True), ("x", True), ("X", True),
                                                ("1", True), ("yes", True), ("", False), ("no", False),
                                                ("0", False)])  # fmt: skip
def test_achieved_words(word: str, achieved: bool):
    player = situation_from_csv(f"Cina;Anna;3;Letto;;{word}\n")["players"][0]
    assert player.get("achieved_objective", False) is achieved


def test_a_seat_that_held_nothing_is_a_row_without_territory():
    doc = situation_from_csv("Cina;Bruno;3;Letto\n;Anna;;Elefante;ritirato\n;Carla;;Piovra;squalificato;\n")
    assert doc["players"][1:] == [
        {"name": "Anna", "territories": {}, "objective": "Elefante", "status": "withdrawn"},
        {"name": "Carla", "territories": {}, "objective": "Piovra", "status": "disqualified"},
    ]
    table = score_situation(doc, load_rules("risiko-nostra-passione-2018")).table
    assert table.order == ["Bruno", "Anna", "Carla"]  # withdrawn above disqualified, both below the players in play
    assert situation_from_csv(";Anna;;;ritirato\nCina;Bruno;3;;\n")["players"][0]["name"] == "Anna"  # not a header
    assert refused(";;;;ritirato\n").value == "row 1:  neutral, with nothing else to say"


def test_conflicting_objectives_status_or_achieved_are_refused_naming_the_row():
    same = "Cina;Anna;3;Letto\nIndia;Anna;2;LETTO\nSiam;Anna;1\n"  # the same card in another case: one objective
    assert situation_from_csv(same)["players"][0]["objective"] == "Letto"
    error = refused("Cina;Anna;3;Letto\nIndia;Bruno;2;Piovra\nSiam;Anna;1;Elefante\n")
    assert (error.code, error.value) == ("csv_row_invalid", "row 3: Anna objective Letto and Elefante")
    error = refused("t;o;a;obiettivo;stato\nCina;Anna;3;;ritirato\nIndia;Anna;2;;attivo\n")
    assert (error.code, error.value) == ("csv_row_invalid", "row 3: Anna status withdrawn and active")
    error = refused("Cina;Anna;3;Letto;;x\nIndia;Anna;2;;;no\n")
    assert (error.code, error.value) == ("csv_row_invalid", "row 2: Anna achieved True and False")


def test_unknown_words_in_the_new_columns_are_refused_naming_the_row():
    assert refused("Cina;Anna;3\nIndia;Anna;2;Tavolo\n").value == "row 2: unknown objective Tavolo"
    assert refused("Cina;Anna;3;;in pausa\n").value == "row 1: unknown status in pausa"
    assert refused("Cina;Anna;3;;;forse\n").value == "row 1: achieved forse: yes or no"
    assert refused("Cina;neutrale;3;Letto\n").value == "row 1: Cina neutral, with nothing else to say"


def test_objective_card_names_any_case_accents_spaces_in_csv_and_json():
    assert objective_card_name("lupo siberiana") == "Lupo (Siberiana)"
    assert objective_card_name("FORMULA 1") == "Formula1"
    assert objective_card_name("Dromedàrio con Mosca") == "Dromedario con mosca"
    assert objective_card_name("Tavolo") is None and objective_card_name(3) is None
    board = standard_board()
    assert unverified_objective("lupo (siberiana)", board) == unverified_objective("Lupo (Siberiana)", board)
    assert all(objective_card_name(card.upper()) == card for card in CARDS)


def test_territory_names_go_through_the_board_spellings():
    doc = situation_document("cina;Anna;3;letto\nPeru;Anna;2\nAFGHANISTAN;Anna;1\n")
    player = parse_situation(doc, standard_board()).players[0]
    assert set(player.territories) == {"Cina", "Perù", "Afganistan"}
    with pytest.raises(RisikoError) as caught:
        parse_situation(situation_document("Atlantide;Anna;3\n"), standard_board())
    assert caught.value.code == "unknown_territory"


# -- any situation, written out as CSV, reads back the same ----------------------------------------------------
NAME_LETTERS = "abcdeilmnoprstuzàèéìòù ABCDELMR"
NAMES = st.text(alphabet=NAME_LETTERS, min_size=1, max_size=10).filter(
    lambda n: n.strip() == n and n.casefold() not in NEUTRAL_OWNERS
)
STATUS_SPELLINGS = {"active": ["", "attivo", "active", "Attiva"], "withdrawn": ["ritirato", "r", "Withdrawn"],
                    "disqualified": ["squalificato", "sq", "SQ"], "frozen": ["congelato", "frozen"]}  # fmt: skip
HEADER_SPELLINGS = {
    "territory": ["territorio", "Territory"],
    "owner": ["giocatore", "proprietario", "Owner", "player"],
    "armies": ["armate", "Armies"],
    "objective": ["obiettivo", "Objective"],
    "status": ["stato", "Status"],
    "achieved": ["raggiunto", "achieved", "Obiettivo raggiunto"],
}


@st.composite
def situations(draw: st.DrawFn) -> dict[str, object]:
    names = draw(st.lists(NAMES, min_size=1, max_size=6, unique_by=str.casefold))
    owners = draw(st.lists(st.integers(-1, len(names) - 1), min_size=42, max_size=42))
    armies = draw(st.lists(st.integers(0, 999_999), min_size=42, max_size=42))
    players: list[dict[str, object]] = []
    for i, name in enumerate(names):
        held = {t: armies[k] for k, t in enumerate(standard_board().territories) if owners[k] == i}
        player: dict[str, object] = {"name": name, "territories": held}
        if draw(st.booleans()):
            player["objective"] = draw(st.sampled_from(CARDS))
        status = draw(st.sampled_from(["active", "active", "withdrawn", "disqualified", "frozen"]))
        if status != "active":
            player["status"] = status
        if draw(st.booleans()):
            player["achieved_objective"] = True
        players.append(player)
    neutral = {t: armies[k] for k, t in enumerate(standard_board().territories) if owners[k] == -1}
    return {"players": players, "neutral": neutral}


def _write(situation: dict[str, object], rnd: random.Random, header: bool) -> str:
    """The situation as a club's spreadsheet might export it: rows shuffled, the objective and the others on one
    row of the player or on all, words in either language, ``;`` or ``,``, a header in any order (or none)."""
    columns = ["territory", "owner", "armies", "objective", "status", "achieved"]
    if header:
        rnd.shuffle(columns)
    rows: list[dict[str, str]] = []
    for player in situation["players"]:  # type: ignore[attr-defined]
        every_row = rnd.random() < 0.5
        held = list(player["territories"].items()) or [("", "")]
        for n, (territory, armies) in enumerate(held):
            said = every_row or n == 0
            rows.append({
                "territory": territory, "owner": player["name"], "armies": str(armies),
                "objective": player.get("objective", "") if said else "",
                "status": rnd.choice(STATUS_SPELLINGS[player.get("status", "active")]) if said else "",
                "achieved": rnd.choice(["sì", "x", "1", "yes"]) if said and player.get("achieved_objective")
                else rnd.choice(["", "no", "0"]) if said else "",
            })  # fmt: skip
    for territory, armies in situation["neutral"].items():  # type: ignore[attr-defined]
        rows.append(dict.fromkeys(columns, "") | {"territory": territory, "armies": str(armies),
                                                  "owner": rnd.choice(["", "neutrale", "neutral", "-"])})  # fmt: skip
    rnd.shuffle(rows)
    sep = rnd.choice([";", ","])
    lines = [sep.join(rnd.choice(HEADER_SPELLINGS[c]) for c in columns)] if header else []
    lines += [sep.join(row[c] for c in columns) for row in rows]
    return "\n".join(lines) + "\n"


def _by_name(doc: dict[str, object]) -> list[object]:
    return sorted(doc["players"], key=lambda p: p["name"])  # type: ignore[arg-type, index, return-value]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(situation=situations(), seed=st.integers(0, 2**32), header=st.booleans())
def test_any_situation_written_as_csv_reads_back_the_same(situation: dict[str, object], seed: int, header: bool):
    doc = {"players": situation["players"]}
    back = situation_from_csv(_write(situation, random.Random(seed), header))
    assert _by_name(back) == _by_name(doc)
    assert situation_from_csv(situation_to_csv(doc, header=header)) == doc  # the module's own writer, in order
    board = standard_board()
    assert parse_situation(situation_from_csv(situation_to_csv(doc)), board) == parse_situation(doc, board)


def test_the_examples_of_docs_risiko_md_are_these():
    """docs/risiko.md shows the NP and the FIRK CSV: they are the ones tested above, and score as it says."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "risiko.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```csv\n")[1:]]
    assert blocks == [NP_CSV, FIRK_CSV]
    assert "Carla 100, Bruno 10 and Anna 10" in text
