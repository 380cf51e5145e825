"""The ModuloTorneo workbook: a tournament's results as the national RisiKo! ranking accepts them (GestioneTorneo's
``ExcelValidator``; the contract is ``../shared/spec/modulo-torneo.md``, §7 its checklist).

One function writes it from the whole-tournament export (``steward-export/1``), for ``/tournament export format:
modulo`` and ``steward modulo`` alike, and refuses — naming every problem ``bot.rules.tournament.modulo`` finds —
rather than write a workbook that fails. Values only, never formulas; dates are real date cells; rounds are
``N° Turno`` with the degree sign; only players who played are listed; the reduced standings follow the final
classification (the finalists in their final order).
"""

from __future__ import annotations

import io
from datetime import date
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.worksheet.worksheet import Worksheet

from bot.i18n import join_names, t
from bot.present.markup import safe
from bot.rules.tournament.export import ExportDocument, ExportPlayer
from bot.rules.tournament.modulo import (
    DEG,
    ModuloOptions,
    ModuloProblem,
    local_ids,
    modulo_problems,
    organiser_of,
    person_name,
    played_players,
    played_rounds,
    rounds_foreseen,
    type_of,
)


def problems_text(problems: list[ModuloProblem], locale: str, *, most: int = 12) -> list[str]:
    """One line per problem, in ``locale``: what is missing and for whom (at most ``most`` names each)."""
    lines = []
    for p in problems:
        if len(p.names) > most:
            names = ", ".join(safe(n) for n in p.names[:most])
            names += " " + t("publishing.more", locale, count=len(p.names) - most)
        else:
            names = join_names(map(safe, p.names), locale)
        lines.append("• " + t(f"publishing.problem.{p.code}", locale, names=names, count=len(p.names)))
    return lines


class ModuloRefused(ValueError):
    def __init__(self, problems: list[ModuloProblem]) -> None:
        super().__init__("; ".join(f"{p.code}: {', '.join(p.names)}" for p in problems))
        self.problems = problems


def _title(ws: Worksheet, row: int, col: int, value: Any, *, bold: bool = False) -> None:
    cell = ws.cell(row=row, column=col, value=value)
    if bold:
        cell.font = Font(bold=True)


def modulo_workbook(export: ExportDocument, options: ModuloOptions | None = None) -> bytes:
    """The ModuloTorneo workbook (.xlsx bytes) of the export; ``ModuloRefused`` naming every problem otherwise."""
    options = options or ModuloOptions()
    problems = modulo_problems(export, options)
    if problems:
        raise ModuloRefused(problems)
    played = played_players(export)
    local = local_ids(export, played)
    publishing = export.tournament.publishing or {}
    by_id = {p.id: p for p in played}
    rounds = played_rounds(export)
    book = Workbook()
    ws = book.active
    assert ws is not None
    ws.title = "TORNEO"
    labels = ("SCHEDA DATI TORNEO (V. 2025.2)", "Sede Torneo", "Organizzatore", "Nome Torneo", "Tipologia di Torneo",
              "Numero Turni Previsti", "Note")  # fmt: skip
    for i, label in enumerate(labels, start=1):
        _title(ws, i, 3, label, bold=i == 1)
    ws["D2"] = options.venue or str((export.tournament.publishing or {}).get("venue") or "")
    ws["D3"] = organiser_of(export, options)
    ws["D4"] = export.tournament.name
    ws["D5"] = type_of(export, options)
    ws["D6"] = rounds_foreseen(export)
    ws["D7"] = options.notes or str(publishing.get("notes") or "Tournament Steward")
    for k in range(1, 31):
        ws.cell(row=7 + k, column=2, value=k)
    for k, r in enumerate(rounds, start=1):
        cell = ws.cell(row=7 + k, column=4, value=date.fromisoformat(r.date or ""))
        cell.number_format = "DD/MM/YYYY"
    ws.column_dimensions["C"].width = 32
    ws.column_dimensions["D"].width = 40

    iscritti = book.create_sheet("Iscritti")
    iscritti["A1"] = "ISCRITTI"
    headers = ("ID", "Nome", "Cognome", "Nickname", "Club", "Partecipa Torneo", "Regione", "Data di Nascita",
               "ID NAZIONALE")  # fmt: skip
    for col, header in enumerate(headers, start=1):
        _title(iscritti, 3, col, header, bold=True)
    for p in played:
        row = 3 + local[p.id]
        iscritti.cell(row=row, column=1, value=local[p.id])
        iscritti.cell(row=row, column=2, value=(p.first_name or "").strip())
        iscritti.cell(row=row, column=3, value=(p.surname or "").strip())
        iscritti.cell(row=row, column=4, value="" if p.name == person_name(p) else p.name)  # a nickname
        iscritti.cell(row=row, column=5, value=p.club or "")
        iscritti.cell(row=row, column=6, value="SI")
        iscritti.cell(row=row, column=7, value=(p.region or "").upper())
        if p.birth_date:
            born = iscritti.cell(row=row, column=8, value=date.fromisoformat(p.birth_date))
            born.number_format = "DD/MM/YYYY"
        if p.national_id:
            iscritti.cell(row=row, column=9, value=p.national_id)

    for k, r in enumerate(rounds, start=1):
        sheet = book.create_sheet(f"{k}{DEG} Turno")
        row = 1
        reported = [table for table in sorted(r.tables, key=lambda x: x.number) if table.report.results]
        for number, table in enumerate(reported, start=1):
            sheet.cell(row=row, column=1, value=f"Tavolo N°{number}")
            sheet.merge_cells(start_row=row, start_column=1, end_row=row, end_column=15)
            points = {res.player: res for res in table.report.results}
            order = sorted(table.seats, key=lambda p: ((points[p].rank or 99) if p in points else 99, local.get(p, 0)))
            for i, pid in enumerate(order[:5]):
                player = by_id[pid]
                res = points.get(pid)
                value = float(res.table_points) if res is not None and res.table_points is not None else 0.0
                if res is not None and res.outcome != "played":
                    value = 0.0
                sheet.cell(row=row + 1, column=3 * i + 1, value=local[pid])
                name = sheet.cell(
                    row=row + 1, column=3 * i + 2, value=f"{person_name(player)}\n{player.club or ''}".strip()
                )
                name.alignment = Alignment(wrap_text=True)
                sheet.cell(row=row + 1, column=3 * i + 3, value=int(value) if value.is_integer() else value)
            row += 2

    standings = _reduced(export, played, local)
    if standings:  # required after the last round unless the type is a team event; checked whenever present
        reduced = book.create_sheet("Classifica Ridotta")
        for col, header in enumerate(("Pos.", "Nome", "Cognome", "pt_tot", "id"), start=1):
            _title(reduced, 1, col, header, bold=True)
        for i, (place, pid, total) in enumerate(standings, start=2):
            player = by_id[pid]
            reduced.cell(row=i, column=1, value=place)
            reduced.cell(row=i, column=2, value=(player.first_name or "").strip())
            reduced.cell(row=i, column=3, value=(player.surname or "").strip())
            reduced.cell(row=i, column=4, value=int(total) if float(total).is_integer() else float(total))
            reduced.cell(row=i, column=5, value=local[pid])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _reduced(export: ExportDocument, played: list[ExportPlayer], local: dict[int, int]) -> list[tuple[int, int, float]]:
    """(position, player, points) of every player who played: the final classification's places when it is
    complete (the finalists in their final order), else the standings' ranks; the standings' points. A workbook
    read back (an imported tournament) keeps its own reduced standings."""
    ids = {p.id for p in played}
    kept = (export.tournament.publishing or {}).get("reduced")
    if kept and all(isinstance(row, list) and len(row) == 3 and row[1] in ids for row in kept):
        return [(int(pos), int(pid), float(pts)) for pos, pid, pts in kept]
    points = {row.player: float(row.points) for row in export.standings}
    final = export.final_classification
    if final and all(row.place is not None for row in final):
        rows = [(int(row.place or 0), row.player) for row in final if row.player in ids]
    else:
        rows = [(row.rank, row.player) for row in export.standings if row.player in ids]
    listed = {p for _, p in rows}
    missing = sorted((p for p in ids if p not in listed), key=lambda p: p)  # played but not ranked: at the bottom
    rows += [(len(rows) + 1, p) for p in missing]
    return [(place, pid, points.get(pid, 0.0)) for place, pid in rows]
