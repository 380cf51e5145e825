"""The tables a club opens in a spreadsheet: one header and typed rows per export, written as CSV here
and as XLSX by ``bot.present.xlsx`` — the same rows for both, so the two files always carry the same values.

A ``DataTable`` holds plain cells: ``str``, ``int``, ``float``, ``date``/``datetime`` or ``None`` (empty). The CSV
writer keeps the house format of every existing export: ``;`` separator, UTF-8 with a byte-order mark (Excel),
CRLF, and every text cell that a spreadsheet would run as a formula quoted with a leading apostrophe
(``bot.files.players.defuse_formula``); numbers are written by the caller's formatter (the standings' decimal comma in
Italian) or plainly. ``read_xlsx_rows`` reads an organizer's untrusted workbook into the rows the CSV parser
checks (``bot.files.players.parse_players_xlsx``).
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from datetime import date, datetime

Cell = str | int | float | date | None  # a datetime is a date

# A cell starting with = + - @ is a formula to a spreadsheet: the CSV quotes it with a leading apostrophe (shown as
# text, never run) and the roster import removes exactly that apostrophe, so the pair stays a round trip. The XLSX
# writer needs no quoting: it stores every text as a string cell (``bot.present.xlsx``).
FORMULA_START = re.compile(r"'*[=+\-@\t\r]")  # OWASP's list: a tab or carriage return can start a formula too


def defuse_formula(text: str) -> str:
    """A cell a spreadsheet would run as a formula, quoted with a leading apostrophe (shown as text)."""
    return "'" + text if FORMULA_START.match(text) else text


@dataclass(frozen=True, slots=True)
class DataTable:
    """A table as a spreadsheet shows it: ``header`` labels and ``rows`` of cells, one per label."""

    title: str  # the sheet's name (the XLSX tab)
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


def file_stem(name: str, suffix: str, *, limit: int = 60, fallback: str = "torneo") -> str:
    """``Coppa Italia`` → ``coppa-italia-giocatori``: letters and digits of the name, the rest as dashes."""
    safe = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")[:limit] or fallback
    return f"{safe}-{suffix}" if suffix else safe


def csv_cell(value: Cell, number: Callable[[float], str] | None = None) -> str:
    """One cell as CSV text: text defused against formulas, ``None`` empty, dates ISO, floats by ``number``."""
    if value is None:
        return ""
    if isinstance(value, str):
        return defuse_formula(value)
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):  # not a cell type of ours; never written as a number
        return "yes" if value else ""
    if isinstance(value, float):
        return number(value) if number is not None else f"{value:g}"
    return str(value)


def csv_bytes(table: DataTable, *, number: Callable[[float], str] | None = None) -> bytes:
    """The table as CSV: ``;``, CRLF, UTF-8 with BOM; the header row first."""
    import csv

    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(table.header)
    for row in table.rows:
        writer.writerow([csv_cell(value, number) for value in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


# --- reading an organizer's workbook (untrusted) ---------------------------------------------------------------

XLSX_MAX_UNPACKED = 16 * 1024 * 1024  # bytes of all the archive's parts once unpacked (a zip bomb stops here)
XLSX_MAX_PARTS = 500  # files inside the archive
XLSX_MAX_COLUMNS = 32
EXCEL_ROWS = 1_048_576  # a sheet's last row in Excel: nothing is read beyond it


@dataclass(frozen=True)
class SheetRefused(Exception):
    """The workbook is refused as a whole: ``key`` is a message key, ``params`` fill it in, ``line`` the row."""

    key: str
    params: dict[str, int] = field(default_factory=dict)
    line: int = 0


def _text(value: object) -> str:
    """A cell's value as the CSV would have it. A whole number stored as a float is written without ``.0`` only
    when it is exact (< 2**53): a Discord id typed as a number has lost its last digits and is shown as it is,
    so the id check refuses it rather than importing someone else's account."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < 2**53:
            return str(int(value))
        return repr(value)
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def check_xlsx_archive(data: bytes) -> None:
    """Refuse what is not an XLSX archive, or unpacks to more than ``XLSX_MAX_UNPACKED`` (the sizes the archive
    declares are the sizes Python's zipfile will ever produce: it stops reading a part at its declared size)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise SheetRefused("csv.error.xlsx_unreadable") from None
    if len(parts) > XLSX_MAX_PARTS:
        raise SheetRefused("csv.error.xlsx_unreadable")
    unpacked = sum(part.file_size for part in parts)
    if unpacked > XLSX_MAX_UNPACKED:
        mib = 1024 * 1024
        raise SheetRefused("csv.error.xlsx_too_big", {"size": -(-unpacked // mib), "max": XLSX_MAX_UNPACKED // mib})


def read_xlsx_rows(data: bytes, *, max_rows: int) -> Generator[tuple[int, list[str]], None, None]:
    """The first sheet's rows as ``(row number, cells as text)``, the header first; trailing empty cells dropped.

    Read-only and values only (a formula gives its last computed value, never runs). Raises ``SheetRefused``
    for a file that is not a workbook, one that unpacks too big, a sheet wider than ``XLSX_MAX_COLUMNS``, or one
    with cells below Excel's last row. Blank rows are yielded too (the caller skips them, as the CSV's blank
    lines, and stops after ``max_rows`` players): nothing written anywhere in the sheet goes unread.

    Every row the sheet's XML holds is read, whatever range the workbook declares: read-only openpyxl otherwise
    stops at the declared used range (``<dimension ref="A1:B10">``), which a program writing the file may leave
    short — 9 of 50 players would be read, silently (issue 40, finding 2)."""
    from openpyxl import load_workbook

    check_xlsx_archive(data)
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds (KeyError, XML errors, InvalidFileException)
        raise SheetRefused("csv.error.xlsx_unreadable") from None
    try:
        if not book.worksheets:
            raise SheetRefused("csv.error.xlsx_unreadable")
        sheet = book.worksheets[0]
        declared = getattr(sheet, "max_column", None)
        if isinstance(declared, int) and declared > XLSX_MAX_COLUMNS:
            raise SheetRefused("csv.error.xlsx_too_wide", {"max": XLSX_MAX_COLUMNS, "found": declared})
        reset = getattr(sheet, "reset_dimensions", None)  # a read-only sheet's
        if callable(reset):
            reset()  # the declared range is the writer's claim, not the sheet's content
        last = EXCEL_ROWS + 1
        try:
            # max_row given, never taken from the declared range (openpyxl would stop there unseen); the rows come
            # lazily as the XML holds them (a gap is filled one empty row at a time, bounded by ``last``)
            rows = sheet.iter_rows(min_row=1, max_row=last, max_col=XLSX_MAX_COLUMNS + 1, values_only=True)
            for number, values in enumerate(rows, start=1):
                if values.count(None) == len(values):  # a blank row (openpyxl fills a gap with them): the fast way
                    if number == last:
                        break
                    yield number, []
                    continue
                cells = [_text(v) for v in values]
                while cells and not cells[-1].strip():
                    cells.pop()
                if len(cells) > XLSX_MAX_COLUMNS:
                    raise SheetRefused("csv.error.xlsx_too_wide", {"max": XLSX_MAX_COLUMNS, "found": len(cells)})
                if number == last:
                    if cells:
                        raise SheetRefused("csv.error.too_many_rows", {"max": max_rows}, number)
                    break
                yield number, cells
        except SheetRefused:
            raise
        except Exception:  # a malformed sheet part
            raise SheetRefused("csv.error.xlsx_unreadable") from None
    finally:
        book.close()
