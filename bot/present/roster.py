"""The player list as a spreadsheet file (``/roster export``): the service's ``RosterView`` written as the import's
own table (``bot.files.players``), with the file's name."""

from __future__ import annotations

from bot.files.players import players_table
from bot.files.sheets import DataTable, csv_bytes, file_stem
from bot.services.roster import RosterView


def roster_table(view: RosterView) -> DataTable:
    """The import's own columns (and the identity columns for a tournament that publishes to the national ranking):
    what the CSV and the XLSX exports both write, and what the import reads back."""
    return players_table(view.players, view.statuses, identity=view.identity)


def roster_stem(view: RosterView) -> str:
    """``Coppa Italia`` → ``coppa-italia-giocatori``: the file's name without its extension."""
    return file_stem(view.tournament_name, "giocatori")


def roster_csv(view: RosterView) -> tuple[str, bytes]:
    """``(filename, bytes)`` of the player list as CSV (``;``, BOM, formula-safe)."""
    return f"{roster_stem(view)}.csv", csv_bytes(roster_table(view))
