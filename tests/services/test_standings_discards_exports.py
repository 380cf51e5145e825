"""Issue 47 in the files: a club championship's standings CSV and XLSX list each round's points and the rounds
discarded; without discards the files are what they were (BOT-STD-1).

The championship is played on a real SQLite database through the standings service: the ``club-championship``
preset (8 evenings, the 2 worst results discarded, an absence first), six players, one who enters on evening 3
and one absent on evenings 4 and 6.
"""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from bot.db.models import SeatOutcome
from bot.present.exports import export_file
from bot.present.standings import STANDINGS_COLUMNS, standings_csv, standings_table
from bot.services import Services
from bot.services.standings import StandingLine, StandingsView
from tests.services.test_standings_service import put_results
from tests.support.reports_fixtures import GUILD, build_tournament

# each player's table points evening by evening (None: absent); the preset counts them as tournament points
EVENINGS: dict[str, list[float | None]] = {
    "Anna": [87, 92.5, 60, 75, 81, 40, 90, 88],  # discards 6 (40) and 3 (60): 513.5
    "Bruno": [70, 65, 95, 30, 80, 85, 55, 77],  # discards 4 and 7: 472
    "Carla": [50, 60, 70, 80, 90, 20, 65, 75],  # discards 1 and 6: 440
    "Dario": [45, 55, 65, 35, 25, 75, 85, 95],  # discards 4 and 5: 420
    "Elena": [None, None, 90, 85, 70, 60, 80, 82],  # enters on evening 3: her two absences go: 467
    "Fabio": [66, 44, 33.5, None, 22, None, 99, 11],  # absent on evenings 4 and 6, discarded first: 275.5
}
EXPECTED = [  # rank order: name, counted total, discarded rounds
    ("Anna", 513.5, "3, 6"),
    ("Bruno", 472.0, "4, 7"),
    ("Elena", 467.0, "1, 2"),
    ("Carla", 440.0, "1, 6"),
    ("Dario", 420.0, "4, 5"),
    ("Fabio", 275.5, "4, 6"),
]


async def club_championship(services: Services) -> StandingsView:
    """Eight evenings of one table each (everyone present that evening), reported and locked."""
    rounds = {n: [[name for name, scores in EVENINGS.items() if scores[n - 1] is not None]] for n in range(1, 9)}
    built = await build_tournament(services, name="Campionato Sociale", preset="club-championship", rounds=rounds)
    played = SeatOutcome.PLAYED.value
    for n in range(1, 9):
        present = sorted(
            ((name, s[n - 1]) for name, s in EVENINGS.items() if s[n - 1] is not None), key=lambda p: -(p[1] or 0)
        )
        lines = [
            (built.registrations[name], float(pts or 0), place, float(pts or 0), played)
            for place, (name, pts) in enumerate(present, start=1)
        ]
        await put_results(services, built.tables[(n, 1)], lines)
    return await services.standings.compute(GUILD, "Campionato Sociale")


@pytest.fixture
async def view(services: Services) -> StandingsView:
    return await club_championship(services)


def test_issue_47_the_service_lists_every_round_with_the_two_worst_discarded(view: StandingsView):
    assert view.with_discards and view.discards == 2 and view.rounds == 8
    assert [(line.name, line.points, ", ".join(map(str, line.discarded))) for line in view.lines] == EXPECTED
    elena = view.lines[2]
    assert elena.rounds[:3] == ((1, None, False), (2, None, False), (3, 90.0, True))


def _csv_rows(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return [row.split(";") for row in data.decode("utf-8-sig").split("\r\n") if row]


def test_issue_47_the_csv_has_a_column_per_round_and_the_discarded_rounds_in_both_languages(view: StandingsView):
    italian = _csv_rows(standings_csv(view, "it"))
    header = italian[0]
    assert header[: len(STANDINGS_COLUMNS)] == [
        "Pos.", "Giocatore", "Club", "Squadra", "Punti torneo", "Partite", "Punti tavolo", "Penalità", "Stato"
    ]  # fmt: skip
    assert header[len(STANDINGS_COLUMNS) :] == [*(f"Turno {n}" for n in range(1, 9)), "Turni scartati"]
    rows = {row[1]: row for row in italian[1:]}
    assert rows["Anna"][4] == "513,5"  # the total is the counted sum
    assert rows["Anna"][9:] == ["87", "92,5", "60", "75", "81", "40", "90", "88", "3, 6"]  # decimal comma
    assert rows["Elena"][9:] == ["", "", "90", "85", "70", "60", "80", "82", "1, 2"]  # absent: an empty cell
    assert rows["Fabio"][9:] == ["66", "44", "33,5", "", "22", "", "99", "11", "4, 6"]
    assert all(len(row) == len(header) for row in italian)

    english = _csv_rows(standings_csv(view, "en"))
    assert english[0][len(STANDINGS_COLUMNS) :] == [*(f"Round {n}" for n in range(1, 9)), "Discarded rounds"]
    assert english[1][9:] == ["87", "92.5", "60", "75", "81", "40", "90", "88", "3, 6"]


@pytest.mark.parametrize("locale", ["it", "en"])
def test_issue_47_the_xlsx_has_the_same_columns_numbers_as_numbers_and_absences_empty(view, locale):
    _, data = export_file(standings_table(view, locale), "campionato", "xlsx", locale=locale)
    sheet = load_workbook(io.BytesIO(data)).worksheets[0]
    cells = [[c.value for c in row] for row in sheet.iter_rows()]
    assert cells[0] == list(standings_table(view, locale).header)
    assert cells[0][-1] == ("Turni scartati" if locale == "it" else "Discarded rounds")
    by_name = {row[1]: row for row in cells[1:]}
    assert by_name["Anna"][9:] == [87, 92.5, 60, 75, 81, 40, 90, 88, "3, 6"]
    assert by_name["Fabio"][9:] == [66, 44, 33.5, None, 22, None, 99, 11, "4, 6"]
    assert by_name["Elena"][9:11] == [None, None]
    assert sheet.cell(row=2, column=11).number_format.endswith("0.0")  # the round columns keep their decimals
    assert sheet.cell(row=2, column=18).data_type == "s"  # "3, 6" stays text
    assert sheet.auto_filter.ref == f"A1:R{len(cells)}"


# ------------------------------------------------------------------------------------------- without discards

TODAY_IT = (
    b"\xef\xbb\xbfPos.;Giocatore;Club;Squadra;Punti torneo;Partite;Punti tavolo;Penalit\xc3\xa0;Stato\r\n"
    b"1;Anna;Ludica;;187,5;3;187,5;0;in gara\r\n2;Bruno;;;92;2;92;5;ritiro\r\n"
)
TODAY_EN = (
    b"\xef\xbb\xbfRank;Player;Club;Team;Tournament points;Games;Table points;Deductions;Status\r\n"
    b"1;Anna;Ludica;;187.5;3;187.5;0;active\r\n2;Bruno;;;92;2;92;5;withdrawn\r\n"
)


def test_issue_47_without_discards_the_csv_and_xlsx_are_byte_for_byte_what_they_were():
    lines = (
        StandingLine(1, 11, None, "Anna", "Ludica", None, 187.5, 3, 187.5, 0.0, "active"),
        StandingLine(2, 12, None, "Bruno", None, None, 92.0, 2, 92.0, 5.0, "withdrawn"),
    )
    view = StandingsView(1, "Campionato", "risiko-ufficiali-2018", "risiko", 3, lines, (), (), 0)
    assert not view.with_discards
    assert standings_csv(view, "it") == TODAY_IT  # the bytes the export wrote before issue 47
    assert standings_csv(view, "en") == TODAY_EN
    table = standings_table(view, "it")
    assert len(table.header) == len(STANDINGS_COLUMNS) and all(len(row) == len(STANDINGS_COLUMNS) for row in table.rows)
    sheet = load_workbook(io.BytesIO(export_file(table, "x", "xlsx", locale="it")[1])).worksheets[0]
    assert sheet.max_column == len(STANDINGS_COLUMNS)


async def test_issue_47_a_preset_without_discards_exports_no_round_columns(services: Services):
    rounds = {1: [["Anna", "Bruno", "Carla"]], 2: [["Anna", "Bruno", "Carla"]]}
    built = await build_tournament(services, preset="risiko-ufficiali-2018", rounds=rounds)
    reg, played = built.registrations, SeatOutcome.PLAYED.value
    for n in (1, 2):
        await put_results(services, built.tables[(n, 1)], [(reg["Anna"], 80, 1, 9, played),
                                                           (reg["Bruno"], 50, 2, 5, played),
                                                           (reg["Carla"], 20, 3, 1, played)])  # fmt: skip
    view = await services.standings.compute(GUILD, "Coppa Test")
    assert not view.with_discards and all(line.rounds == () for line in view.lines)
    header = _csv_rows(standings_csv(view, "it"))[0]
    assert len(header) == len(STANDINGS_COLUMNS) and header[-1] == "Stato"
