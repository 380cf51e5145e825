"""Players as CSV: parse an organizer's spreadsheet export and write one back (BOT-REG-1 import/export).

Italian spreadsheets save CSV with ``;`` (the comma is the decimal separator), others with ``,``; both are
read, UTF-8 with or without a byte-order mark. Headers may be Italian or English (``nome``/``name``,
``club``, ``squadra``/``team``, ``famiglia``/``family``, ``discord id`` optional). Every problem is reported
with its line number as an i18n key plus parameters; the caller imports nothing when there is any problem.
``serialise_players_csv`` writes what ``parse_players_csv`` reads (``;``, BOM, Italian headers).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from bot.files.sheets import Cell, DataTable, SheetRefused, csv_bytes, defuse_formula, read_xlsx_rows
from bot.rules.text import visible_text

NAME_MAX = 64
TEXT_MAX = 64
MAX_ROWS = 2000

COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("nome", "name", "giocatore", "player", "nominativo"),
    "club": ("club", "circolo"),
    "team": ("squadra", "team"),
    "family": ("famiglia", "family", "family group", "gruppo famiglia", "family_group"),
    "user_id": ("discord id", "discord", "id discord", "discord_id", "discord user id", "id"),
    "status": ("stato", "status"),  # written by the export, ignored on import
    # national publishing (ModuloTorneo): the player's identity, optional
    "first_name": ("nome proprio", "nome anagrafico", "first name", "first_name", "given name"),
    "surname": ("cognome", "surname", "last name", "family name"),
    "birth_date": ("data di nascita", "nascita", "birth date", "birth_date", "date of birth"),
    "national_id": ("id nazionale", "national id", "national_id"),
    "region": ("regione", "region"),
}
IDENTITY_HEADER = ("nome proprio", "cognome", "data di nascita", "id nazionale", "regione")
_ALIASES = {alias: column for column, aliases in COLUMNS.items() for alias in aliases}
EXPORT_HEADER = ("nome", "club", "squadra", "famiglia", "discord id", "stato")
# The export quotes a cell a spreadsheet would run as a formula with a leading apostrophe (``defuse_formula``, in
# ``sheets``); the import removes exactly that apostrophe, so the pair stays a round trip.
_QUOTED_FORMULA = re.compile(r"'+[=+\-@\t\r]")
__all__ = ["defuse_formula"]  # re-exported: the exports import it from here


def _restore(text: str) -> str:
    return text[1:] if _QUOTED_FORMULA.match(text) else text


@dataclass(frozen=True, slots=True)
class CsvPlayer:
    name: str
    club: str | None = None
    team: str | None = None
    family: str | None = None
    user_id: int | None = None
    line: int = 0
    first_name: str | None = None
    surname: str | None = None
    birth_date: date | None = None
    national_id: int | None = None
    region: str | None = None


@dataclass(frozen=True, slots=True)
class RowProblem:
    """One bad line: ``key`` is an i18n message key, ``params`` fill it in."""

    line: int
    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ParsedCsv:
    players: tuple[CsvPlayer, ...]
    problems: tuple[RowProblem, ...]
    rows: int = 0  # the rows of players read (blank rows and the header not counted); MAX_ROWS + 1: more, not counted


SNOWFLAKE_MAX = 2**63 - 1


def _norm_header(text: str) -> str:
    return " ".join(text.replace("_", " ").strip().lower().split())


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    text = _restore(visible_text(value))  # the same cleaning as a name typed in Discord
    return text or None


def _delimiter(header_line: str) -> str:
    return ";" if header_line.count(";") >= header_line.count(",") and ";" in header_line else ","


def parse_players_csv(data: bytes) -> ParsedCsv:
    """Read players from CSV bytes; problems carry 1-based file line numbers (the header is line 1)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return ParsedCsv((), (RowProblem(0, "csv.error.encoding", {"position": exc.start}),))
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        return ParsedCsv((), (RowProblem(1, "csv.error.no_header"),))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(lines[0]))
    try:
        header = next(reader)
    except csv.Error as exc:
        return ParsedCsv((), (RowProblem(1, "csv.error.syntax", {"detail": str(exc)[:100]}),))
    problems: list[RowProblem] = []

    def rows() -> Iterator[tuple[int, list[str]]]:
        line = reader.line_num  # the last line read so far (the header's)
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                problems.append(RowProblem(reader.line_num, "csv.error.syntax", {"detail": str(exc)[:100]}))
                return
            start, line = line, reader.line_num
            if any("\n" in cell or "\r" in cell for cell in row):  # a quote opened and never closed ate the lines
                problems.append(RowProblem(start + 1, "csv.error.unclosed_quote", {"lines": line - start}))
                return
            yield line, row

    return _players(header, rows(), problems)


def parse_players_xlsx(data: bytes) -> ParsedCsv:
    """Read players from an Excel workbook's first sheet: the same columns and the same checks as the CSV, each
    problem on the sheet's row number (the header is row 1); a workbook refused as a whole is one problem."""
    cells = read_xlsx_rows(data, max_rows=MAX_ROWS)
    try:
        first = next(cells, None)
        if first is None or first[0] != 1 or not any(c.strip() for c in first[1]):
            return ParsedCsv((), (RowProblem(1, "csv.error.no_header"),))
        return _players(first[1], cells, [])
    except SheetRefused as refused:
        return ParsedCsv((), (RowProblem(refused.line, refused.key, refused.params),))
    finally:
        cells.close()


def _players(header: list[str], rows: Iterator[tuple[int, list[str]]], problems: list[RowProblem]) -> ParsedCsv:
    """The same checks for a CSV file and a workbook: the header's columns, then every row (``rows`` gives each
    with its line number; a reader's own problem lands in ``problems`` and ends the rows)."""
    index: dict[str, int] = {}
    for position, raw in enumerate(header):
        label = _norm_header(raw)
        column = _ALIASES.get(label)
        if column is None:
            if label:
                problems.append(RowProblem(1, "csv.error.header_unknown", {"column": raw.strip()[:40]}))
            continue
        if column in index:
            problems.append(RowProblem(1, "csv.error.header_duplicate", {"column": raw.strip()[:40]}))
            continue
        index[column] = position
    if "name" not in index:
        problems.append(RowProblem(1, "csv.error.header_no_name"))
    if problems:
        return ParsedCsv((), tuple(problems))

    players: list[CsvPlayer] = []
    names: dict[str, int] = {}
    ids: dict[int, int] = {}
    read = 0  # the file's real rows, counted as they come (never a count the file declares); stops at MAX_ROWS + 1
    for line, row in rows:
        if not any(cell.strip() for cell in row):
            continue
        read += 1
        if read > MAX_ROWS:
            problems.append(RowProblem(line, "csv.error.too_many_rows", {"max": MAX_ROWS}))
            break
        if len(row) > len(header):
            problems.append(RowProblem(line, "csv.error.columns", {"expected": len(header), "found": len(row)}))
            continue

        def cell(column: str, row: list[str] = row) -> str | None:
            pos = index.get(column)
            return _clean(row[pos]) if pos is not None and pos < len(row) else None

        row_problems: list[RowProblem] = []
        name = cell("name")
        if name is None:
            row_problems.append(RowProblem(line, "csv.error.name_empty"))
        values: dict[str, str | None] = {"name": name}
        for column in ("club", "team", "family", "first_name", "surname", "region"):
            values[column] = cell(column)
        for column, value in values.items():
            limit = NAME_MAX if column == "name" else TEXT_MAX
            if value is not None and len(value) > limit:
                row_problems.append(
                    RowProblem(line, "csv.error.too_long", {"field": column, "max": limit, "length": len(value)})
                )
        user_id: int | None = None
        raw_id = cell("user_id")
        if raw_id is not None:
            digits = raw_id.removeprefix("<@").removesuffix(">").lstrip("!")
            # a Discord id (snowflake) has 17–20 digits 0–9 (not "²" or other scripts' digits, which isdigit() takes)
            # and fits a signed 64-bit integer (the database's BIGINT)
            if (
                not (digits.isascii() and digits.isdigit())
                or not 17 <= len(digits) <= 20
                or int(digits) > SNOWFLAKE_MAX
            ):
                row_problems.append(RowProblem(line, "csv.error.discord_id", {"value": raw_id[:30]}))
            else:
                user_id = int(digits)
        born: date | None = None
        if (raw_born := cell("birth_date")) is not None:
            born = _birth_date(raw_born)
            if born is None:
                row_problems.append(RowProblem(line, "csv.error.birth_date", {"value": raw_born[:20]}))
        national: int | None = None
        if (raw_national := cell("national_id")) is not None:
            if raw_national.isascii() and raw_national.isdigit() and 0 < int(raw_national) < 2**53:
                national = int(raw_national)
            else:
                row_problems.append(RowProblem(line, "csv.error.national_id", {"value": raw_national[:20]}))
        if name is not None and not row_problems:
            first = names.get(name.lower())
            if first is not None:
                row_problems.append(RowProblem(line, "csv.error.duplicate_name", {"name": name, "first": first}))
            if user_id is not None and user_id in ids:
                row_problems.append(
                    RowProblem(line, "csv.error.duplicate_discord_id", {"value": user_id, "first": ids[user_id]})
                )
        if row_problems:
            problems.extend(row_problems)
            continue
        assert name is not None
        names[name.lower()] = line
        if user_id is not None:
            ids[user_id] = line
        players.append(
            CsvPlayer(
                name,
                values["club"],
                values["team"],
                values["family"],
                user_id,
                line,
                values["first_name"],
                values["surname"],
                born,
                national,
                values["region"],
            )
        )
    if not players and not problems:
        problems.append(RowProblem(1, "csv.error.no_rows"))
    return ParsedCsv(tuple(players), tuple(problems), read)


def players_table(
    players: Iterable[CsvPlayer], statuses: Iterable[str] | None = None, *, identity: bool = False
) -> DataTable:
    """The player list as a spreadsheet table, the import's own columns (Italian headers): the CSV and the XLSX
    exports both write these rows. A Discord id is text: a spreadsheet keeps 15 digits of a number. ``identity``
    (a tournament that publishes to the national ranking) adds the identity columns the import reads back."""
    status_list = list(statuses) if statuses is not None else None
    rows: list[tuple[Cell, ...]] = []
    for i, p in enumerate(players):
        status = status_list[i] if status_list is not None else None
        row: tuple[Cell, ...] = (
            p.name,
            p.club,
            p.team,
            p.family,
            None if p.user_id is None else str(p.user_id),
            status,
        )
        if identity:
            born = p.birth_date.strftime("%d/%m/%Y") if p.birth_date else None
            national = None if p.national_id is None else str(p.national_id)
            row += (p.first_name, p.surname, born, national, p.region)
        rows.append(row)
    return DataTable("giocatori", EXPORT_HEADER + (IDENTITY_HEADER if identity else ()), tuple(rows))


def _birth_date(text: str) -> date | None:
    """A birth date written ``DD/MM/YYYY`` or ``YYYY-MM-DD`` (a spreadsheet's date cell arrives as the latter)."""
    raw = text.strip().split(" ")[0].split("T")[0]
    try:
        if "/" in raw:
            day, month, year = (int(x) for x in raw.split("/"))
            return date(year, month, day)
        return date.fromisoformat(raw)
    except ValueError:
        return None


def serialise_players_csv(players: Iterable[CsvPlayer], statuses: Iterable[str] | None = None) -> bytes:
    """CSV for Italian spreadsheets: UTF-8 with BOM, ``;`` separator, Italian headers (read back by the parser)."""
    return csv_bytes(players_table(players, statuses))
