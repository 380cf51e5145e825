"""A table as an Excel workbook: the rows a CSV export writes, as a sheet a club opens as it is.

``xlsx_bytes(table, locale)`` is the one writer: a bold header row frozen at the top with a filter on it, columns
as wide as their content, numbers stored as numbers, dates as dates, and every text stored as a text cell — a
name such as ``=HYPERLINK(…)`` is kept as those characters, never as a formula (no apostrophe in the value, unlike
the CSV: the cell's type says it is text, and Excel's quote-prefix style keeps it text when someone edits it).

What "Italian" means in a workbook. Excel stores a number as a binary number, with no decimal separator in the
file: the separator on screen comes from the reader. What the file can say, it says in the server's language:
- every number and date format carries the locale tag ``[$-410]`` (Italian) or ``[$-809]`` (English, the
  catalogues' ``en_GB``). LibreOffice shows that cell with the tagged language's separators (``1.234,5`` in
  Italian) whatever the machine; Excel keeps the separators of the machine's regional settings — an Italian
  Excel shows ``1.234,5`` either way, which is where Italian clubs open it;
- dates read day/month/year in Italian (``dd/mm/yyyy``, ``dd/mm/yyyy hh:mm``) and ISO in English
  (``yyyy-mm-dd``), as the CSV writes them;
- decimals: as many as the column needs, at most two (the messages' rule, ``format_number``), with thousands
  grouped; whole-number columns (ranks, games) plain;
- the workbook's language property is ``it-IT`` or ``en-GB``, and the header words are the caller's (the
  standings' come from the catalogue in the server's language).
Times are UTC, as the CSV's ISO text says (``+00:00``): a workbook cell cannot hold a time zone.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, date, datetime

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from bot.files.sheets import FORMULA_START, Cell, DataTable
from bot.rules.text import decimals_needed

LOCALE_TAG = {"it": "[$-410]", "en": "[$-809]"}
LANGUAGE = {"it": "it-IT", "en": "en-GB"}
DATE_FORMAT = {"it": "dd/mm/yyyy", "en": "yyyy-mm-dd"}
DATETIME_FORMAT = {"it": "dd/mm/yyyy hh:mm", "en": "yyyy-mm-dd hh:mm"}
CELL_MAX = 32767  # characters Excel keeps in a cell
EXACT_INT = 10**15  # Excel keeps 15 significant digits: a longer whole number is written as text
WIDTH_MIN, WIDTH_MAX = 6, 60
_SHEET_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")


def number_format(locale: str, decimals: int) -> str:
    """The display format of a number column: ``[$-410]#,##0.0`` — grouped, ``decimals`` places, locale-tagged."""
    tag = LOCALE_TAG.get(locale, LOCALE_TAG["en"])
    return tag + ("#,##0." + "0" * decimals if decimals else "0")


def date_format(locale: str, *, with_time: bool) -> str:
    tag = LOCALE_TAG.get(locale, LOCALE_TAG["en"])
    table = DATETIME_FORMAT if with_time else DATE_FORMAT
    return tag + table.get(locale, table["en"])


def sheet_title(title: str) -> str:
    """A name Excel accepts for a tab: at most 31 characters, none of ``[]:*?/\\``, no apostrophe at the ends."""
    text = _SHEET_FORBIDDEN.sub("-", ILLEGAL_CHARACTERS_RE.sub("", title)).strip().strip("'")[:31].strip("'")
    return text or "Sheet1"


def _text(value: str) -> str:
    return ILLEGAL_CHARACTERS_RE.sub("", value)[:CELL_MAX]


def _floats(table: DataTable, column: int) -> list[float]:
    return [value for row in table.rows if isinstance(value := row[column], float)]


def _shown(value: Cell, decimals: int) -> str:
    """Roughly what the cell shows, to size its column."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return "0000-00-00 00:00"
    if isinstance(value, date):
        return "0000-00-00"
    if isinstance(value, float):
        return f"{value:,.{decimals}f}"
    return str(value)


def xlsx_bytes(table: DataTable, locale: str) -> bytes:
    """The table as an XLSX workbook of one sheet (see the module's notes on the formats)."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = sheet_title(table.title)
    book.properties.language = LANGUAGE.get(locale, LANGUAGE["en"])
    book.properties.creator = "Tournament Steward"

    columns = len(table.header)
    decimals = [decimals_needed(_floats(table, c)) for c in range(columns)]
    bold = Font(bold=True)
    for c, label in enumerate(table.header, start=1):
        cell = sheet.cell(row=1, column=c)
        cell.value = _text(label)
        cell.data_type = "s"  # a header is text too, whatever it starts with
        cell.font = bold
    for r, row in enumerate(table.rows, start=2):
        for c, value in enumerate(row, start=1):
            if value is None:
                continue
            cell = sheet.cell(row=r, column=c)
            if isinstance(value, str | bool):
                cell.value = _text(str(value))
                cell.data_type = "s"  # openpyxl would take "=…" as a formula: the type says text
                if FORMULA_START.match(cell.value):
                    cell.quotePrefix = True  # and Excel keeps it text when someone edits the cell
            elif isinstance(value, datetime):
                moment = value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo is not None else value
                cell.value = moment
                cell.number_format = date_format(locale, with_time=True)
            elif isinstance(value, date):
                cell.value = value
                cell.number_format = date_format(locale, with_time=False)
            elif isinstance(value, int):
                if abs(value) >= EXACT_INT:
                    cell.value = str(value)
                    cell.data_type = "s"
                else:
                    cell.value = value
                    cell.number_format = number_format(locale, 0)
            elif value == value and abs(value) != float("inf"):  # a float; NaN and infinities stay empty
                cell.value = value
                cell.number_format = number_format(locale, decimals[c - 1])

    for c in range(1, columns + 1):
        longest = max(
            [len(table.header[c - 1])] + [len(_shown(row[c - 1], decimals[c - 1])) for row in table.rows],
        )
        sheet.column_dimensions[get_column_letter(c)].width = min(max(longest + 2, WIDTH_MIN), WIDTH_MAX)
    sheet.freeze_panes = "A2"
    if columns:
        sheet.auto_filter.ref = f"A1:{get_column_letter(columns)}{len(table.rows) + 1}"

    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
