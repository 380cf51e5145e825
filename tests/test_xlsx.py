"""Spreadsheets: the XLSX writer (text stays text, frozen bold header, widths, Italian and English
formats) and the roster's XLSX reader (the CSV's checks, the zip-bomb and size guards)."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, date, datetime

from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from bot.files.players import CsvPlayer, parse_players_csv, parse_players_xlsx, players_table
from bot.files.sheets import XLSX_MAX_UNPACKED, DataTable, csv_bytes
from bot.present.xlsx import number_format, sheet_title, xlsx_bytes

HOSTILE = '=HYPERLINK("http://x","y")'
FORMULA = "=1+1"  # a real formula in an uploaded sheet: never computed, its saved value read (none here)


def sheet_of(data: bytes) -> Worksheet:
    ws = load_workbook(io.BytesIO(data)).worksheets[0]
    assert isinstance(ws, Worksheet)
    return ws


def no_formula(ws: Worksheet) -> None:
    cells = [c for row in ws.iter_rows() for c in row]
    assert cells and not [c.coordinate for c in cells if c.data_type == "f"]


def workbook(*rows: list[object]) -> bytes:
    """A workbook as an organizer saves it; a text starting with ``=`` typed as text (Excel's leading apostrophe)."""
    book = Workbook()
    ws = book.active
    assert ws is not None
    for row in rows:
        ws.append(row)
        for cell in ws[ws.max_row]:
            if isinstance(cell.value, str) and cell.value.startswith("=") and cell.value != FORMULA:
                cell.data_type = "s"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


TABLE = DataTable(
    "Coppa: [finale]",
    ("nome", "punti", "partite", "quando", "giorno", "vuoto"),
    (
        (HOSTILE, 31.8, 3, datetime(2026, 11, 24, 20, 30, tzinfo=UTC), date(2026, 11, 24), None),
        ("+39 club", 1234.25, 10, datetime(2026, 11, 24, 21, 0), date(2026, 11, 25), None),
        ("@team", -2.0, 0, None, None, None),
        ("-x", 0.0, 1, None, None, "\tcol"),
    ),
)


def test_text_that_looks_like_a_formula_is_stored_as_text_and_read_back_verbatim():
    ws = sheet_of(xlsx_bytes(TABLE, "it"))
    no_formula(ws)
    assert [ws.cell(row=r, column=1).value for r in range(2, 6)] == [HOSTILE, "+39 club", "@team", "-x"]
    assert all(ws.cell(row=r, column=1).data_type == "s" for r in range(1, 6))
    assert ws["A2"].quotePrefix  # Excel keeps it text when someone edits the cell
    assert ws["F5"].value == "\tcol" and ws["F5"].data_type == "s"
    # the raw XML holds no <f> element at all
    with zipfile.ZipFile(io.BytesIO(xlsx_bytes(TABLE, "en"))) as z:
        assert b"<f>" not in z.read("xl/worksheets/sheet1.xml") and b"<f " not in z.read("xl/worksheets/sheet1.xml")


def test_the_header_is_bold_and_frozen_the_columns_sized_and_the_values_typed():
    ws = sheet_of(xlsx_bytes(TABLE, "it"))
    assert ws.freeze_panes == "A2"
    assert ws.title == "Coppa- -finale-"
    assert [c.value for c in ws[1]] == list(TABLE.header) and all(c.font.b for c in ws[1])
    assert ws.auto_filter.ref == "A1:F5"
    assert ws.column_dimensions["A"].width == len(HOSTILE) + 2
    assert ws.column_dimensions["C"].width == len("partite") + 2 and ws.column_dimensions["B"].width == 10
    assert ws["B2"].value == 31.8 and ws["C2"].value == 3 and ws["B4"].value == -2
    assert ws["D2"].value == datetime(2026, 11, 24, 20, 30)  # UTC, as the CSV's +00:00 says
    assert ws["E2"].value == datetime(2026, 11, 24)
    assert ws["F2"].value is None


def test_italian_and_english_formats_differ_where_a_workbook_can_say_it():
    italian, english = sheet_of(xlsx_bytes(TABLE, "it")), sheet_of(xlsx_bytes(TABLE, "en"))
    # two decimals needed in the points column (1234.25): grouped, locale-tagged
    assert italian["B2"].number_format == "[$-410]#,##0.00" == number_format("it", 2)
    assert english["B2"].number_format == "[$-809]#,##0.00"
    assert italian["C2"].number_format == "[$-410]0" and english["C2"].number_format == "[$-809]0"
    assert italian["D2"].number_format == "[$-410]dd/mm/yyyy hh:mm"
    assert english["D2"].number_format == "[$-809]yyyy-mm-dd hh:mm"
    assert italian["E2"].number_format == "[$-410]dd/mm/yyyy" and english["E2"].number_format == "[$-809]yyyy-mm-dd"
    assert italian["B2"].is_date is False and italian["E2"].is_date is True
    it_book = load_workbook(io.BytesIO(xlsx_bytes(TABLE, "it")))
    en_book = load_workbook(io.BytesIO(xlsx_bytes(TABLE, "en")))
    assert it_book.properties.language == "it-IT" and en_book.properties.language == "en-GB"


def test_a_whole_number_too_long_for_a_spreadsheet_is_written_as_text():
    ws = sheet_of(xlsx_bytes(DataTable("x", ("id",), ((123456789012345678,),)), "it"))
    assert ws["A2"].value == "123456789012345678" and ws["A2"].data_type == "s"


def test_sheet_titles_excel_accepts():
    assert sheet_title("a/b\\c?d*e:f[g]h") == "a-b-c-d-e-f-g-h"
    assert sheet_title("'" * 3) == "Sheet1" and len(sheet_title("x" * 50)) == 31


# --- the roster's workbook ------------------------------------------------------------------------------------


def test_a_workbook_with_the_csv_s_columns_imports_the_same_players():
    data = workbook(
        ["Nome", "Club", "Squadra", "Famiglia", "Discord ID"],
        ["Anna", "Roma", None, "Rossi", "123456789012345678"],
        [HOSTILE, "Milano", None, None, None],
        [None, None, None, None, None],  # a blank row is skipped, as in the CSV
        ["Carla", None, "Blu", None, None],
        ["Dario", 12, None, None, None],  # a number where text is expected reads as its digits
    )
    parsed = parse_players_xlsx(data)
    assert parsed.problems == ()
    assert [(p.name, p.club, p.team, p.family, p.user_id, p.line) for p in parsed.players] == [
        ("Anna", "Roma", None, "Rossi", 123456789012345678, 2),
        (HOSTILE, "Milano", None, None, None, 3),
        ("Carla", None, "Blu", None, None, 5),
        ("Dario", "12", None, None, None, 6),
    ]


def test_a_formula_in_an_uploaded_sheet_is_never_computed():
    parsed = parse_players_xlsx(workbook(["nome", "club"], ["Anna", FORMULA]))
    assert parsed.problems == () and parsed.players[0].club is None  # no saved value: an empty cell
    parsed = parse_players_xlsx(workbook(["nome"], [FORMULA]))  # a row of empty cells: no player in the file
    assert [(p.line, p.key) for p in parsed.problems] == [(1, "csv.error.no_rows")]


def test_the_export_s_workbook_reads_back_as_the_same_players_as_its_csv():
    roster = [CsvPlayer(HOSTILE, "+39 club", None, "@fam", 123456789012345678), CsvPlayer("Bruno")]
    table = players_table(roster, ["registered", "validated"])
    from_csv = parse_players_csv(csv_bytes(table))
    from_xlsx = parse_players_xlsx(xlsx_bytes(table, "it"))
    assert from_csv.problems == from_xlsx.problems == ()
    assert from_csv.players == from_xlsx.players
    assert from_xlsx.players[0].name == HOSTILE and from_xlsx.players[0].club == "+39 club"


def test_a_workbook_with_a_bad_row_names_the_row_as_the_csv_does():
    data = workbook(["name", "club"], ["Anna", "Roma"], [None, "Milano"], ["Bruno", "c" * 500])
    parsed = parse_players_xlsx(data)  # any problem and the roster service imports nothing (the cogs' test)
    assert [(p.line, p.key) for p in parsed.problems] == [(3, "csv.error.name_empty"), (4, "csv.error.too_long")]
    same_csv = parse_players_csv(b"name,club\nAnna,Roma\n,Milano\nBruno," + b"c" * 500 + b"\n")
    assert [(p.line, p.key, dict(p.params)) for p in same_csv.problems] == [
        (p.line, p.key, dict(p.params)) for p in parsed.problems
    ]


def test_a_discord_id_that_lost_its_digits_as_a_spreadsheet_number_is_refused():
    parsed = parse_players_xlsx(workbook(["nome", "discord id"], ["Anna", 1.2345678901234568e17]))
    assert [(p.line, p.key) for p in parsed.problems] == [(2, "csv.error.discord_id")]


def test_a_zip_bomb_is_refused_before_openpyxl_reads_it():
    buffer = io.BytesIO(workbook(["nome"], ["Anna"]))
    with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/media/padding.bin", b"\0" * (XLSX_MAX_UNPACKED + 1))
    data = buffer.getvalue()
    assert len(data) < 512 * 1024  # small enough to pass the upload limit
    (problem,) = parse_players_xlsx(data).problems
    assert problem.key == "csv.error.xlsx_too_big" and problem.params == {"size": 17, "max": 16}


def test_what_is_not_a_workbook_and_a_sheet_too_wide_or_too_long_are_refused():
    assert [p.key for p in parse_players_xlsx(b"nome\nAnna\n").problems] == ["csv.error.xlsx_unreadable"]
    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as z:
        z.writestr("hello.txt", "not a workbook")
    assert [p.key for p in parse_players_xlsx(broken.getvalue()).problems] == ["csv.error.xlsx_unreadable"]
    wide = parse_players_xlsx(workbook(["nome"], ["Anna", *([None] * 40), "x"]))
    assert [(p.key, p.params["max"]) for p in wide.problems] == [("csv.error.xlsx_too_wide", 32)]
    assert [p.key for p in parse_players_xlsx(workbook([None], ["Anna"])).problems] == ["csv.error.no_header"]
    long = parse_players_xlsx(workbook(["nome"], *([f"P{i}"] for i in range(2001))))
    assert [(p.key, p.line) for p in long.problems] == [("csv.error.too_many_rows", 2002)]
    book = Workbook()
    ws = book.active
    assert ws is not None
    ws["A1"], ws["A2"], ws["A1048576"] = "nome", "Anna", "Zeno"  # Zeno on the sheet's last row
    out = io.BytesIO()
    book.save(out)
    far = parse_players_xlsx(out.getvalue())  # nothing written in the sheet goes unread
    assert far.problems == () and [(p.name, p.line) for p in far.players] == [("Anna", 2), ("Zeno", 1048576)]
