"""The sanctions log as a CSV file (BOT-SAN-1): codes, not sentences (a data file for spreadsheets), text cells
defused against formulas like the roster export."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.services.players_csv import defuse_formula

if TYPE_CHECKING:
    from bot.services.sanctions import SanctionView


def sanctions_filename(name: str) -> str:
    safe = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")[:60] or "torneo"
    return f"{safe}-sanzioni.csv"


CSV_COLUMNS = (
    "case", "player", "infraction", "article", "kind", "proposed_kind", "offence", "consequence", "points", "round",
    "table", "referee_id", "created_at", "revoked", "revoke_reason", "appeal_state", "details",
)  # fmt: skip


def sanctions_csv(views: Sequence[SanctionView]) -> bytes:
    """``;``-separated UTF-8 with BOM; codes, not sentences (a data file); text cells defused against formulas."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for v in views:
        writer.writerow(
            [
                v.case_number,
                defuse_formula(v.player_name),
                v.infraction or "",
                v.article or "",
                v.kind,
                v.proposed_kind or "",
                v.offence,
                v.consequence,
                "" if v.points is None else f"{v.points:g}",
                v.round_number or "",
                v.table_number or "",
                v.referee_id,
                v.created_at.isoformat(timespec="seconds"),
                "yes" if v.revoked else "",
                defuse_formula(v.revoke_reason or ""),
                v.appeal_state,
                defuse_formula(v.details or ""),
            ]
        )
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")
