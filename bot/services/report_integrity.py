"""A table's report belongs to the players seated at it (issue 40, finding 3).

* :class:`ReportStamp`: the seats and the report as someone saw them — the form they typed into, or the moment their
  submission arrived. A report write takes the table's row lock, reads the table again and goes through only if it
  is still as seen: a seating changed meanwhile (a ``/replace``) or a report entered meanwhile is refused in one
  clear line instead of being written over the wrong players or over someone else's report.
* :func:`drop_unseated`: the lines of players no longer seated at the table go (written by a replacement that raced
  a report before tables were locked); the report write and the head referee's repair both use it.
* :func:`repair_table`: one table made consistent again, and what was done (audited by the caller).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.db.models import GameTable, Registration, Seat, TableResult
from bot.errors import Conflict
from bot.services._base import UseCase, id_of
from bot.services.report_views import ReportView


@dataclass(frozen=True, slots=True)
class ReportStamp:
    """What a report write was made against: the table, who sat at it, and a digest of its report (kind, who
    entered it, every seat's points, place and outcome — not the signatures, which a write clears anyway)."""

    table_id: int
    table_number: int
    seating: frozenset[int]
    digest: str

    def refusal(self, now: ReportStamp) -> Conflict | None:
        """Why a write made against this stamp cannot go on the table as it is ``now`` (None: it can)."""
        if now.seating != self.seating:
            return Conflict("error.report.seating_changed", table=now.table_number)
        if now.digest != self.digest:
            return Conflict("error.report.changed_meanwhile", table=now.table_number)
        return None

    @classmethod
    def of(cls, view: ReportView) -> ReportStamp:
        lines = sorted([s.registration_id, s.table_points, s.rank, s.tournament_points, s.outcome] for s in view.seats)
        content = json.dumps([view.kind, view.reported_by, lines], default=str, separators=(",", ":"))
        return cls(
            view.table_id,
            view.table_number,
            frozenset(s.registration_id for s in view.seats),
            hashlib.sha256(content.encode()).hexdigest()[:16],
        )


@dataclass(frozen=True, slots=True)
class RepairedTable:
    """One table the repair changed: whose lines went, and the seated players the report now has no line for (the
    report must then be corrected, and signed again)."""

    round_number: int
    table_number: int
    dropped: tuple[str, ...]
    missing: tuple[str, ...]
    thread_id: int | None


@dataclass(frozen=True, slots=True)
class RepairView:
    tournament_name: str
    tables: tuple[RepairedTable, ...]


def result_json(r: TableResult) -> dict[str, Any]:
    return {
        "registration_id": r.registration_id,
        "table_points": r.table_points,
        "rank": r.table_rank,
        "tournament_points": r.tournament_points,
        "outcome": r.outcome,
        "signed": r.signed_at is not None,
    }


async def drop_unseated(
    uc: UseCase, seats: Sequence[tuple[Seat, Registration]], rows: Sequence[TableResult]
) -> list[dict[str, Any]]:
    """Delete the lines of players not seated at the table (the caller holds its lock); what went, for the audit."""
    seated = {s.registration_id for s, _ in seats}
    gone = [r for r in rows if r.registration_id not in seated]
    for row in gone:
        await uc.delete(row)
    if gone:
        await uc.flush()
    return [result_json(r) for r in gone]


async def repair_table(uc: UseCase, table: GameTable, round_number: int) -> tuple[RepairedTable, dict[str, Any]] | None:
    """Make one table consistent (the caller holds its lock): the lines of players no longer seated go; when the
    report then lacks a seated player, its signatures, countersignature and lock go too — it was signed as another
    seating — and it waits for a referee's correction. None: nothing to repair. Else what was done, and the audit's
    details."""
    seats = await uc.reports.list_report_seats(table_id=id_of(table))
    rows = list(await uc.reports.list_report_results(table_id=id_of(table)))
    seated = {s.registration_id for s, _ in seats}
    gone_ids = [r.registration_id for r in rows if r.registration_id not in seated]
    if not gone_ids:
        return None
    names = await uc.rounds.registrations_by_ids(ids=gone_ids)
    dropped = await drop_unseated(uc, seats, rows)
    kept = {r.registration_id for r in rows if r.registration_id in seated}
    missing = tuple(reg.display_name for _, reg in seats if reg.id not in kept)
    was_locked = table.locked
    if missing:
        for row in rows:
            if row.registration_id in kept:
                row.signed_at, row.locked = None, False
        table.locked, table.countersigned_by, table.countersigned_at = False, None, None
        if not kept:  # nothing of the report is left: the table has not reported
            table.final_situation, table.reported_by, table.reported_at = None, None, None
    await uc.flush()
    done = RepairedTable(
        round_number,
        table.number,
        tuple(names[rid].display_name if rid in names else str(rid) for rid in gone_ids),
        missing,
        table.thread_id,
    )
    details = {
        "round": round_number,
        "table": table.number,
        "dropped": dropped,
        "missing": [reg.id for _, reg in seats if reg.id not in kept],
        "was_locked": was_locked,
    }
    return done, details
