"""What the referee's desk returns (data, no text): a sanction, a proposal, the log as a CSV file (BOT-SAN-1) —
codes, not sentences (a data file for spreadsheets), text cells defused against formulas like the roster export."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.rules.sanctions import Consequence
from bot.rules.sanctions import Proposal as RuleProposal

# These consequences change the table's result: the report is scored again at once (bot.rules.tournament.rescore).
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
        return self.consequence in CHANGES_THE_TABLE


@dataclass(frozen=True, slots=True)
class ProposalView:
    tournament_name: str
    player_name: str
    previous: int  # earlier offences of this infraction in force
    proposal: RuleProposal


@dataclass(frozen=True, slots=True)
class SanctionList:
    """A tournament's sanctions for spreadsheets (referees): ``bot.present.sanctions`` writes the file."""

    tournament_name: str
    sanctions: tuple[SanctionView, ...]

    @property
    def rows(self) -> int:
        return len(self.sanctions)
