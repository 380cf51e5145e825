"""A ModuloTorneo workbook read back into a whole-tournament export (``steward-export/1``), so a club's past
tournaments can be imported (``ImportService.modulo``). The sheets are read as GestioneTorneo's validator reads them
(``../shared/spec/modulo-torneo.md``): TORNEO's D2–D7 and dates, Iscritti from row 4 (a player: A a number, B not
empty), ``N° Turno`` sheets in pairs of rows (a header, then id | name | points triplets), the reduced standings.
Each table's places and tournament points are the preset's, from the table points (``table_places``,
``tournament_points``: the bot's own scoring of typed points; equal points share a place). A problem names
the sheet and the cell.
"""

from __future__ import annotations

import io
import re
from datetime import date, datetime
from typing import Any

from bot.rules.errors import RuleError
from bot.rules.outcomes import table_places
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.points import tournament_points
from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.export import EXPORT_SCHEMA

ROUND_SHEET = re.compile(r"^(\d+)\u00b0 Turno$")
MAX_ROWS = 20_000


class ModuloError(ValueError):
    """The workbook cannot be read: the message names the sheet and the cell. A table the rules refuse carries the
    rules' refusal (``rule``), its sheet and table, so the refusal is worded for the reader, never as its code."""

    def __init__(self, message: str, *, rule: RuleError | None = None, sheet: str = "", table: int = 0) -> None:
        super().__init__(message)
        self.rule, self.sheet, self.table = rule, sheet, table


def _sheet(book: Any, name: str) -> Any:
    for ws in book.worksheets:
        if ws.title.casefold() == name.casefold():
            return ws
    raise ModuloError(f"sheet {name!r} is missing")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool):
        raise ModuloError(f"{where}: not a number ({value!r})")
    if isinstance(value, int | float):
        return float(value)
    text = _text(value)
    try:
        return float(text) if text else 0.0
    except ValueError:
        raise ModuloError(f"{where}: not a number ({text[:20]!r})") from None


def _day(value: Any, where: str) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    raise ModuloError(f"{where}: not a date cell ({_text(value)[:20]!r})")


def modulo_document(data: bytes, *, preset: str) -> dict[str, Any]:
    """The workbook ``data`` as a ``steward-export/1`` document of a finished tournament with ``preset``'s rules."""
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), data_only=True)
    except Exception:  # openpyxl raises many kinds on a file that is not a workbook
        raise ModuloError("not an Excel workbook (.xlsx)") from None
    ruleset = load_ruleset(preset)
    torneo = _sheet(book, "TORNEO")
    name = _text(torneo["D4"].value)
    if not name:
        raise ModuloError("TORNEO!D4: the tournament's name is empty")
    foreseen = int(_number(torneo["D6"].value, "TORNEO!D6"))
    dates = [_day(torneo.cell(row=7 + k, column=4).value, f"TORNEO!D{7 + k}") for k in range(1, 31)]

    iscritti = _sheet(book, "Iscritti")
    players: list[dict[str, Any]] = []
    for row in range(4, min(iscritti.max_row, MAX_ROWS) + 1):
        pid, first = iscritti.cell(row=row, column=1).value, _text(iscritti.cell(row=row, column=2).value)
        if not isinstance(pid, int | float) or isinstance(pid, bool) or not first:
            continue
        surname = _text(iscritti.cell(row=row, column=3).value)
        nick = _text(iscritti.cell(row=row, column=4).value)
        player: dict[str, Any] = {
            "id": int(pid),
            "name": (nick or f"{first} {surname}".strip())[:64],
            "first_name": first[:64],
            "surname": surname[:64] or None,
            "status": "validated",
        }
        for key, col in (("club", 5), ("region", 7)):
            if text := _text(iscritti.cell(row=row, column=col).value):
                player[key] = text[: 64 if key == "club" else 32]
        if born := _day(iscritti.cell(row=row, column=8).value, f"Iscritti!H{row}"):
            player["birth_date"] = born
        national = iscritti.cell(row=row, column=9).value
        if isinstance(national, int | float) and not isinstance(national, bool) and national > 0:
            player["national_id"] = int(national)
        players.append(player)
    if not players:
        raise ModuloError("Iscritti: no player (from row 4: A a number, B the first name)")
    ids = {p["id"] for p in players}
    if len(ids) != len(players):
        raise ModuloError("Iscritti: an ID is listed twice")

    numbered = sorted((int(m.group(1)), ws) for ws in book.worksheets if (m := ROUND_SHEET.match(ws.title)))
    rules = ruleset.tournament
    finals = rules.semifinal_tables > 0 and len(numbered) == rules.qualifying_rounds + 2
    rounds: list[dict[str, Any]] = []
    for n, ws in numbered:
        tables: list[dict[str, Any]] = []
        rows = [r for r in ws.iter_rows(min_row=1, max_row=min(ws.max_row, MAX_ROWS), values_only=True)]
        for k in range(0, len(rows) - 1, 2):
            line = rows[k + 1]
            seats: list[tuple[int, float]] = []
            for i in range(5):
                if 3 * i >= len(line):
                    break
                pid = line[3 * i]
                where = f"{ws.title}!row {k + 2}"
                if pid in (None, "", 0, -1):
                    continue
                if not isinstance(pid, int | float) or isinstance(pid, bool) or int(pid) not in ids:
                    raise ModuloError(f"{where}: player ID {_text(pid)[:12]!r} is not in Iscritti")
                points = _number(line[3 * i + 2] if 3 * i + 2 < len(line) else None, where)
                seats.append((int(pid), points))
            if not seats:
                continue
            # a workbook carries no tie-break and no status: equal points share the place (as the validator reads a
            # final: "ties share the better place"), with the average of the places' points
            places = table_places([(p, "played", -pts) for p, pts in seats], disqualified_below_withdrawn=False)
            ordered = sorted(seats, key=lambda s: (places[s[0]], s[0]))
            try:
                given = tournament_points(
                    ruleset.preset, [pts for _, pts in ordered], places=[places[p] for p, _ in ordered]
                )
            except RisikoError as exc:
                raise ModuloError(f"{ws.title}, table {len(tables) + 1}: {exc.code.replace('_', ' ')}", rule=exc,
                                  sheet=ws.title, table=len(tables) + 1) from None  # fmt: skip
            results = [
                {"player": p, "table_points": pts, "rank": places[p], "tournament_points": tp, "outcome": "played"}
                for (p, pts), tp in zip(ordered, given, strict=True)
            ]
            tables.append(
                {
                    "number": len(tables) + 1,
                    "seats": [p for p, _ in seats],
                    "report": {"kind": "points", "input": {"imported": "modulo"}, "locked": True, "results": results},
                }
            )
        kind = "qualifying"
        if finals and n == len(numbered):
            kind = "final"
        elif finals and n == len(numbered) - 1:
            kind = "semifinal"
        item: dict[str, Any] = {"number": n, "kind": kind, "status": "closed", "tables": tables}
        if n - 1 < len(dates) and dates[n - 1]:
            item["date"] = dates[n - 1]
        rounds.append(item)

    reduced: list[list[Any]] = []
    try:
        sheet = _sheet(book, "Classifica Ridotta")
    except ModuloError:
        sheet = None
    if sheet is not None:
        for row in range(2, min(sheet.max_row, MAX_ROWS) + 1):
            pos, pts, pid = (sheet.cell(row=row, column=c).value for c in (1, 4, 5))
            if pos is None and pid is None:
                continue
            where = f"Classifica Ridotta!row {row}"
            reduced.append([int(_number(pos, where)), int(_number(pid, where)), _number(pts, where)])
    publishing: dict[str, Any] = {
        "organiser": _text(torneo["D3"].value),
        "type": _text(torneo["D5"].value),
        "venue": _text(torneo["D2"].value),
        "notes": _text(torneo["D7"].value),
        "rounds_foreseen": foreseen,
        "reduced": reduced,
    }
    return {
        "schema": EXPORT_SCHEMA,
        "tournament": {
            "name": name[:100],
            "game": "risiko",
            "preset": preset,
            "status": "finished",
            "rounds_foreseen": max(foreseen, len(rounds)),
            "publishing": publishing,
        },
        "players": players,
        "rounds": rounds,
    }
