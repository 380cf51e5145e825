"""Exports as files: a table written as CSV or XLSX, and a round's tables as a table.

Every export builds its rows once (``DataTable``: the roster and the sanctions in their services, the standings in
``present.standings``, a round's tables here); ``export_file`` writes them in the format asked for.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.files.sheets import DataTable, csv_bytes
from bot.i18n import t
from bot.present.xlsx import xlsx_bytes
from bot.services.rounds.views import RoundView

FORMATS = ("csv", "xlsx")


def export_file(
    table: DataTable, stem: str, fmt: str, *, locale: str, csv_number: Callable[[float], str] | None = None
) -> tuple[str, bytes]:
    """``(filename, bytes)``: ``fmt`` ``"xlsx"`` is an Excel workbook with ``locale``'s formats, else the CSV."""
    if fmt == "xlsx":
        return f"{stem}.xlsx", xlsx_bytes(table, locale)
    return f"{stem}.csv", csv_bytes(table, number=csv_number)


ROUND_COLUMNS = ("table", "seat", "player", "club", "team")


def round_tables_table(view: RoundView, locale: str) -> DataTable:
    """A round's tables, one line per seat in seat order: table, seat, player, club, team (no Discord ids: the
    tables are public)."""
    rows = tuple(
        (table.number, seat.position, seat.name, seat.club, seat.team)
        for table in view.tables
        for seat in sorted(table.seats, key=lambda s: s.position)
    )
    header = tuple(t(f"tables.sheet.{column}", locale) for column in ROUND_COLUMNS)
    return DataTable(t("tables.sheet", locale, round=view.number), header, rows)
