"""What the referee's desk returns (data, no text): a sanction, a proposal, the log as a CSV file (BOT-SAN-1) —
codes, not sentences (a data file for spreadsheets), text cells defused against formulas like the roster export."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.rules.sanctions import Consequence
from bot.rules.sanctions import Proposal as RuleProposal
from bot.services.sheets import DataTable, csv_bytes

# These consequences change the table's result: a typed report is scored again at once (report_lines).
CHANGES_THE_TABLE = (
    Consequence.LAST_OF_GAME,
    Consequence.EXPELLED_FROM_GAME,
    Consequence.TABLE_POINTS,
    Consequence.DISQUALIFIED,
)


@dataclass(frozen=True, slots=True)
class SanctionView:
    case_number: int
    tournament_name: str
    player_id: int
    player_name: str
    player_user_id: int | None
    infraction: str | None
    article: str | None
    kind: str
    proposed_kind: str | None
    offence: int
    consequence: str
    points: float | None
    round_number: int | None
    table_number: int | None
    table_thread_id: int | None
    referee_id: int
    details: str | None
    created_at: datetime
    revoked: bool
    revoke_reason: str | None
    appeal_state: str
    appeal_deadline: datetime | None  # None: no appeal for this preset

    @property
    def overridden(self) -> bool:
        """The referee gave another kind than the ladder proposed."""
        return self.proposed_kind is not None and self.kind != self.proposed_kind

    @property
    def changes_the_table(self) -> bool:
        return self.consequence in {c.value for c in CHANGES_THE_TABLE}


@dataclass(frozen=True, slots=True)
class ProposalView:
    tournament_name: str
    player_name: str
    previous: int  # earlier offences of this infraction in force
    proposal: RuleProposal


@dataclass(frozen=True, slots=True)
class SanctionsExport:
    tournament_name: str
    filename: str
    data: bytes
    rows: int


def sanctions_filename(name: str) -> str:
    safe = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")[:60] or "torneo"
    return f"{safe}-sanzioni.csv"


CSV_COLUMNS = (
    "case", "player", "infraction", "article", "kind", "proposed_kind", "offence", "consequence", "points", "round",
    "table", "referee_id", "created_at", "revoked", "revoke_reason", "appeal_state", "details",
)  # fmt: skip


def sanctions_table(views: Sequence[SanctionView]) -> DataTable:
    """The sanctions as a spreadsheet table — codes, not sentences (a data file): the CSV and the XLSX exports
    both write these rows. Discord ids are text (a spreadsheet keeps 15 digits of a number)."""
    rows = tuple(
        (
            v.case_number,
            v.player_name,
            v.infraction,
            v.article,
            v.kind,
            v.proposed_kind,
            v.offence,
            v.consequence,
            None if v.points is None else float(v.points),
            v.round_number or None,
            v.table_number or None,
            str(v.referee_id),
            v.created_at,
            "yes" if v.revoked else None,
            v.revoke_reason,
            v.appeal_state,
            v.details,
        )
        for v in views
    )
    return DataTable("sanzioni", CSV_COLUMNS, rows)


def sanctions_csv(views: Sequence[SanctionView]) -> bytes:
    """``;``-separated UTF-8 with BOM; codes, not sentences (a data file); text cells defused against formulas."""
    return csv_bytes(sanctions_table(views))
