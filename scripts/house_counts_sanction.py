"""How many transactions (and ruleset parses) one ``/sanction give`` + Confirm costs, measured on a real SQLite file
(issue 48, "the unit of work down the corridors").

The cog's sequence is two interactions: the command (``services.proposals.offer``) and the Confirm button
(``services.proposals.confirm``). This builds a temporary migrated SQLite tournament the way ``tests/services`` do
(rows written directly: a server with its roles, a running UFF/ARB tournament with an override, four players at one
table of a published round, a typed report), then runs give + Confirm for a table-point penalty (a sanction that
re-scores the table) and counts

* the transactions the database begins (SQLAlchemy's ``begin`` event on the engine; savepoints are not counted);
* the ruleset parses (``bot.rules.ruleset.parse_ruleset``: the tournament has overrides, so none is a cache hit).

Only public service methods are called, so the same file measures an older checkout too. Run from the repository
root: ``python -m scripts.house_counts_sanction`` (``--json``: one JSON object, which ``scripts/house_counts.py
--runtime`` reads); the closing note imports :func:`sanction_give_transactions`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bot.db.migrate import upgrade_to_head
from bot.db.models import (
    GameTable,
    GuildConfig,
    Registration,
    RegistrationStatus,
    Round,
    RoundKind,
    RoundStatus,
    Seat,
    Tournament,
    TournamentStatus,
)
from bot.db.session import make_engine, make_sessionmaker
from bot.rules import ruleset as ruleset_module
from bot.services import Services
from bot.services.access import Actor

GUILD = 777_000_000_000_048
REFEREE_ROLE = 902
REFEREE = Actor(guild_id=GUILD, user_id=42, display_name="Arbitro", role_ids=frozenset({REFEREE_ROLE}))
NAMES = ("Anna", "Bruno", "Carla", "Dario")
TOURNAMENT = "Coppa Conti"
OVERRIDES = {"sanctions": {"appeal_window_minutes": 45}}  # harmless, and every ruleset load parses


@dataclass(frozen=True, slots=True)
class Counts:
    transactions: int  # begun by the give and the Confirm, together
    parses: int  # rulesets parsed by them
    give_transactions: int  # of which the give's
    case_number: int


def _clock() -> datetime:
    return datetime(2026, 11, 22, 18, 0, tzinfo=UTC)


async def _build(services: Services) -> dict[str, int]:
    """The tournament, its players and their table; a report typed for it. Registration ids by name."""
    async with services.sessionmaker() as session, session.begin():
        session.add(GuildConfig(guild_id=GUILD, referee_role_id=REFEREE_ROLE))
        t = Tournament(guild_id=GUILD, name=TOURNAMENT, game="risiko", preset="risiko-ufficiali-2018",
                       overrides=OVERRIDES, status=TournamentStatus.RUNNING)  # fmt: skip
        session.add(t)
        await session.flush()
        assert t.id is not None
        rnd = Round(guild_id=GUILD, tournament_id=t.id, number=1, kind=RoundKind.QUALIFYING,
                    status=RoundStatus.PUBLISHED)  # fmt: skip
        session.add(rnd)
        await session.flush()
        assert rnd.id is not None
        table = GameTable(guild_id=GUILD, round_id=rnd.id, number=1)
        session.add(table)
        await session.flush()
        assert table.id is not None
        ids: dict[str, int] = {"table": table.id}
        for position, name in enumerate(NAMES, start=1):
            reg = Registration(guild_id=GUILD, tournament_id=t.id, user_id=1000 + position, display_name=name,
                               status=RegistrationStatus.VALIDATED)  # fmt: skip
            session.add(reg)
            await session.flush()
            assert reg.id is not None
            ids[name] = reg.id
            session.add(Seat(guild_id=GUILD, table_id=table.id, registration_id=reg.id, position=position))
    points = {ids["Anna"]: "70", ids["Bruno"]: "55", ids["Carla"]: "41", ids["Dario"]: "12"}
    await services.reports.enter_points(REFEREE, ids["table"], points)
    return ids


async def measure() -> Counts:
    """Give + Confirm as the cog runs them, on a fresh temporary SQLite file."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "steward.db"
        await asyncio.to_thread(upgrade_to_head, f"sqlite:///{path}", backup=False)
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
        begun = [0]

        def count_begin(conn: Any) -> None:
            begun[0] += 1

        real_parse = ruleset_module.parse_ruleset
        parsed = [0]

        def counting_parse(*args: Any, **kwargs: Any) -> Any:
            parsed[0] += 1
            return real_parse(*args, **kwargs)

        try:
            services = Services(make_sessionmaker(engine), _clock)
            await _build(services)
            event.listen(engine.sync_engine, "begin", count_begin)
            ruleset_module.parse_ruleset = counting_parse
            try:
                # the command: /sanction give tournament:… infraction:disturbing player:Anna points:20
                offer = await services.proposals.offer(
                    REFEREE, tournament=TOURNAMENT, player="Anna", user_id=None, infraction="disturbing",
                    cards_in_hand=0, points=20, round_number=None, table=None, details=None,
                )  # fmt: skip
                give = begun[0]
                # the Confirm button
                view = await services.proposals.confirm(REFEREE, offer.proposal_id)
            finally:
                ruleset_module.parse_ruleset = real_parse
                event.remove(engine.sync_engine, "begin", count_begin)
            return Counts(begun[0], parsed[0], give, view.case_number)
        finally:
            await engine.dispose()


def sanction_give_transactions() -> int:
    """The transactions one ``/sanction give`` + Confirm begins (the command and the button together)."""
    return asyncio.run(measure()).transactions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Transactions and ruleset parses of one /sanction give + Confirm.")
    parser.add_argument("--json", action="store_true", help="print one JSON object (scripts/house_counts reads it)")
    args = parser.parse_args(argv)
    counts = asyncio.run(measure())
    if args.json:
        print(json.dumps({"transactions": counts.transactions, "give": counts.give_transactions,
                          "confirm": counts.transactions - counts.give_transactions,
                          "ruleset parses": counts.parses}))  # fmt: skip
    else:
        print(f"/sanction give + Confirm: {counts.transactions} transactions "
              f"({counts.give_transactions} for the give), {counts.parses} ruleset parses")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
