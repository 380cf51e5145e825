"""Rounds: the table draw, its preview and hand changes, publication, semifinals and the final.

BOT-TAB-1, BOT-TAB-2, TOUR-SIZE-1, TOUR-R1-1, TOUR-R2-1, TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1, FIRK-SEED-1,
FIRK-FAM-1, FIRK-SIZE-1, BOT-ROLE-1. Every decision is the tournament engine's (``bot.rules.tournament``);
this module gathers its inputs from the database, runs it off the event loop and stores what it decided.

Verifiable draws (DESIGN.md): the seed comes once from ``random.SystemRandom``, is stored on the Round
(``draw_seed``) and in ``Round.draw_report`` together with the engine's report and the tables it drew;
``replay_draw`` re-runs the engine from the stored inputs and seed and gives the same tables.

Round.draw_report (JSON) holds what the schema has no column for: the engine report (criteria, lower
bound, optimality, seed), the tables as drawn, the criteria after hand changes (``current``) and the list
of hand changes; for semifinals the bands and the direct finalist; for the final the composition and the
players who declined (TOUR-FIN-1).

Publication order (no half-state): ``publish`` first commits the round as published in the database;
the Discord side effects (announcement, table threads) come after and their outcome is stored with
``record_publication``. A failed side effect never rolls the round back: ``publish`` on a published round
returns the same job again so the cog retries only what is missing (no announcement id, tables without
a thread).
"""

from __future__ import annotations

from bot.services.rounds.changes import ChangesMixin
from bot.services.rounds.draws import DrawsMixin
from bot.services.rounds.finals import FinalsMixin
from bot.services.rounds.publication import PublicationMixin
from bot.services.rounds.views import (
    SEED_BITS,
    AdjustmentView,
    CriterionLine,
    DeclineView,
    DrawReportView,
    FinalSeatView,
    KnockoutView,
    MyTable,
    PublishJob,
    ReplacementView,
    RoundView,
    SeatView,
    TableView,
    new_seed,
)

__all__ = [
    "SEED_BITS",
    "AdjustmentView",
    "CriterionLine",
    "DeclineView",
    "DrawReportView",
    "FinalSeatView",
    "KnockoutView",
    "MyTable",
    "PublishJob",
    "ReplacementView",
    "RoundService",
    "RoundView",
    "SeatView",
    "TableView",
    "new_seed",
]


class RoundService(DrawsMixin, ChangesMixin, PublicationMixin, FinalsMixin):
    """Every rounds use case, one module per phase: draws, hand changes, publication, finals."""
