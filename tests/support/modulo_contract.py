"""The ModuloTorneo contract as the repository's own check (``../shared/spec/modulo-torneo.md``): every rule
GestioneTorneo's ``ExcelValidator`` applies, read back from a written workbook with openpyxl, giving its errors and
warnings. The tests run it on every workbook the bot writes; where the real validator is built (``STEWARD_MODULO``:
the path of ``validate-modulo``, see the README), they run that too."""

from __future__ import annotations

import io
import itertools
import re
from collections import Counter
from datetime import date, datetime
from typing import Any

from openpyxl import load_workbook

TYPES = {"campionato nazionale", "raduno nazionale", "torneo master", "torneo open", "torneo interclub",
         "campionato periodico", "torneo a squadre", "torneo 2vs2", "torneo a inviti", "amichevoli"}  # fmt: skip
NO_STANDINGS = {"torneo a squadre", "torneo 2vs2", "amichevoli"}
ROUND = re.compile(r"^(\d+)\u00b0 Turno$")


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def check(data: bytes, filename: str = "torneo.xlsx") -> tuple[list[str], list[str]]:
    """(errors, warnings) of a workbook, as GestioneTorneo's validator would give them (sheet: reason)."""
    errors: list[str] = []
    warnings: list[str] = []
    if "'" in filename:
        errors.append("file: a ' in the name")
    book = load_workbook(io.BytesIO(data))  # no data_only: a formula must not be there at all
    sheets = {ws.title.casefold(): ws for ws in book.worksheets}
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    errors.append(f"{ws.title}!{cell.coordinate}: a formula")
    torneo = sheets.get("torneo")
    if torneo is None:
        return ["TORNEO: absent"], warnings
    for ref, what in (("D3", "organiser"), ("D4", "name")):
        if not str(torneo[ref].value or "").strip():
            errors.append(f"TORNEO!{ref}: no {what}")
    kind = str(torneo["D5"].value or "").strip().casefold()
    if kind not in TYPES:
        errors.append(f"TORNEO!D5: {kind!r} is not a type")
    foreseen = _num(torneo["D6"].value)
    if not foreseen:
        errors.append("TORNEO!D6: no number of rounds")
    dates = [c.value for c in (torneo.cell(row=7 + k, column=4) for k in range(1, 31))
             if isinstance(c.value, datetime | date)]  # fmt: skip
    for a, b in itertools.pairwise(dates):
        if b < a:
            errors.append(f"TORNEO: dates go back ({a} then {b})")
    iscritti = sheets.get("iscritti")
    if iscritti is None:
        return [*errors, "Iscritti: absent"], warnings
    players: dict[int, tuple[str, str, Any, Any]] = {}
    for row in range(4, iscritti.max_row + 1):
        a, b = iscritti.cell(row=row, column=1).value, iscritti.cell(row=row, column=2).value
        if isinstance(a, str):
            errors.append(f"Iscritti!A{row}: a text ID")
            continue
        if _num(a) is None or not str(b or "").strip():
            continue
        pid = int(a)
        if pid in players:
            errors.append(f"Iscritti: ID {pid} twice")
        if not 1 <= pid <= 32767:
            errors.append(f"Iscritti!A{row}: ID {pid} out of a short's range")
        born = iscritti.cell(row=row, column=8).value
        if born is not None and not isinstance(born, datetime | date):
            errors.append(f"Iscritti!H{row}: a birth date that is not a date")
        players[pid] = (str(b).strip(), str(iscritti.cell(row=row, column=3).value or "").strip(), born,
                        iscritti.cell(row=row, column=9).value)  # fmt: skip
    if not players:
        errors.append("Iscritti: empty")
    rounds = sorted((int(m.group(1)), ws) for ws in book.worksheets if (m := ROUND.match(ws.title)))
    numbers = [n for n, _ in rounds]
    if not rounds:
        errors.append("TURNO: no round sheet")
    if numbers != list(range(1, len(numbers) + 1)):
        errors.append(f"TURNO: rounds not numbered 1…N ({numbers})")
    if foreseen and len(rounds) > foreseen:
        errors.append(f"TORNEO: {len(rounds)} round sheets for {foreseen} rounds foreseen")
    if len(dates) < len(rounds):
        errors.append(f"TORNEO: {len(rounds) - len(dates)} round(s) without a date")
    played: set[int] = set()
    last_table: list[tuple[int, float]] | None = None
    for n, ws in rounds:
        rows = list(ws.iter_rows(values_only=True))
        if len(rows) % 2:
            errors.append(f"{ws.title}: an odd number of rows (tables are two rows each)")
        tables = 0
        for k in range(0, len(rows) - 1, 2):
            line = rows[k + 1]
            seats = []
            for i in range(5):
                pid = line[3 * i] if 3 * i < len(line) else None
                if pid in (None, 0, -1):
                    continue
                if isinstance(pid, str) or _num(pid) is None:
                    errors.append(f"{ws.title} row {k + 2}: a text ID")
                    continue
                if int(pid) not in players:
                    errors.append(f"{ws.title} row {k + 2}: ID {pid} not registered")
                    continue
                points = line[3 * i + 2] if 3 * i + 2 < len(line) else "missing"
                if points is not None and _num(points) is None:
                    errors.append(f"{ws.title} row {k + 2}: points not a number")
                seats.append((int(pid), _num(points) or 0.0))
                played.add(int(pid))
            tables += bool(seats)
            if n == foreseen:
                last_table = seats if tables == 1 else None
        if not tables:
            errors.append(f"{ws.title}: no game")
    for pid in played:
        first, surname, born, national = players[pid]
        if not first:
            errors.append(f"Iscritti: ID {pid} without a first name")
        if not surname:
            errors.append(f"Iscritti: ID {pid} without a surname")
        if born is None and not (_num(national) or 0) > 0:
            warnings.append(f"Iscritti: ID {pid} with neither a birth date nor a national id")
    people = Counter((f"{players[p][0]} {players[p][1]}".casefold(), players[p][2]) for p in played)
    for key, n in people.items():
        if n > 1:
            errors.append(f"Iscritti: {n} players with the same name and birth date {key}")
    reduced = sheets.get("classifica ridotta")
    if reduced is None:
        if foreseen and rounds and rounds[-1][0] >= foreseen and kind not in NO_STANDINGS:
            errors.append("Classifica Ridotta: absent after the last round")
        return errors, warnings
    rows = [r for r in reduced.iter_rows(min_row=2, values_only=True)
            if any(_num(r[c]) is not None for c in (0, 3, 4) if c < len(r))]  # fmt: skip
    if not rows:
        errors.append("Classifica Ridotta: no player")
    position: dict[int, int] = {}
    for k, r in enumerate(rows, start=2):
        pos, pts, pid = (_num(r[c]) if c < len(r) else None for c in (0, 3, 4))
        if pid is None or pos is None or pts is None:
            errors.append(f"Classifica Ridotta row {k}: a missing cell")
            continue
        if pos > len(rows):
            errors.append(f"Classifica Ridotta row {k}: position {pos} > {len(rows)} rows")
        if int(pid) not in players:
            errors.append(f"Classifica Ridotta: ID {pid} not registered")
        elif int(pid) not in played:
            errors.append(f"Classifica Ridotta: ID {pid} did not play")
        position[int(pid)] = int(pos)
    for pid in sorted(played - set(position)):
        warnings.append(f"Classifica Ridotta: ID {pid} played but is not in it")
    if last_table is not None:
        for pid, pts in last_table:
            expected = 1 + sum(1 for _, other in last_table if other > pts)
            if position.get(pid) is None:
                errors.append(f"Classifica Ridotta: finalist {pid} missing")
            elif position[pid] != expected:
                warnings.append(f"Classifica Ridotta: finalist {pid} is {position[pid]}, the final says {expected}")
    return errors, warnings
