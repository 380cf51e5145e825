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

Layout: four use-case classes, one per phase — ``RoundDraws`` (draws.py), ``RoundChanges`` (changes.py),
``RoundPublication`` (publication.py), ``RoundFinals`` (finals.py) — each a ``BaseService`` whose use cases run in
``BaseService.run`` (one transaction, the role, the tournament, the audit). What they read in common are plain
functions of ``reading.py`` taking the session; ``knockout.py`` is the knockout's plan; ``views.py`` what they
return. ``RoundService`` composes the four and offers every use case under one name (``services.rounds.draw``…).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.services.rounds.changes import RoundChanges
from bot.services.rounds.draws import RoundDraws
from bot.services.rounds.finals import RoundFinals
from bot.services.rounds.publication import RoundPublication
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
from bot.workers import Workers, default_workers

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


class RoundService:
    """Every rounds use case, one class per phase (``draws``, ``changes``, ``publication``, ``finals``), each use
    case also under its own name here."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime],
        seed_source: Callable[[], int] = new_seed,
        workers: Workers | None = None,
    ) -> None:
        workers = workers or default_workers()
        self.draws = RoundDraws(sessionmaker, clock, seed_source, workers=workers)
        self.changes = RoundChanges(sessionmaker, clock, workers=workers)
        self.publication = RoundPublication(sessionmaker, clock, workers=workers)
        self.finals = RoundFinals(sessionmaker, clock, seed_source, workers=workers)
        # draws
        self.plan = self.draws.plan
        self.close = self.draws.close
        self.draw = self.draws.draw
        self.redraw = self.draws.redraw
        self.replay_draw = self.draws.replay_draw
        self.export_inputs = self.draws.export_inputs
        self.show = self.draws.show
        self.my_table = self.draws.my_table
        # hand changes
        self.swap = self.changes.swap
        self.move = self.changes.move
        self.replace_player = self.changes.replace_player
        # publication
        self.publish = self.publication.publish
        self.remember_publication = self.publication.remember_publication
        self.record_publication = self.publication.record_publication
        # semifinals and the final
        self.seed_semifinals = self.finals.seed_semifinals
        self.compose_final = self.finals.compose_final
        self.decline = self.finals.decline
        self.ranking = self.finals.ranking
