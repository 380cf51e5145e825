"""Benchmark (issue 15): the real bot through the fake Discord of the wire tier, against a no-op command in the
same run.

    python benchmarks/wire.py [--burst 300] [--heavy 10]

The bot (``create_bot``, every cog, a fresh SQLite file) logs in to ``tests.wire.fake_discord`` on 127.0.0.1. A
``/noop`` command is added to its tree for this run only: it answers at once and touches nothing — the floor any
command pays (gateway, discord.py's dispatch, the HTTP callback). Measured, each as a burst of simultaneous
interactions (``--burst``) or ``--heavy`` sequential ones:
* ``noop`` and ``tournaments list`` (a cheap read) and ``my-table``: bursts;
* ``round draw`` then ``round redraw`` (the optimiser and the table image) and ``standings show`` (the standings
  image): sequential;
* the Sign storm: every player of a 300-player round presses Sign on their reported table at once.
For each: interactions per second (burst size / wall time), and p50 / p99 of the first response (Discord's
3-second rule) and of the answer (the follow-up the user reads), with the ratio to ``noop``. The no-op burst runs
once unmeasured first (the first connections), then first and again last; the floor is the better of the two.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bot.app import create_bot
from bot.db.migrate import upgrade_to_head
from bot.db.models import Registration, RegistrationStatus
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.services.access import Actor
from bot.services.reports import TableRef
from bot.settings import Settings
from tests.wire.conftest import Wire
from tests.wire.fake_discord import Exchange, FakeDiscord

ORG = ("Organizzatori",)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _burst(wire: Wire, sends: list[Any]) -> tuple[float, list[Exchange]]:
    t0 = time.perf_counter()
    exchanges = [await s for s in sends]
    await asyncio.wait_for(asyncio.gather(*(e.done.wait() for e in exchanges)), 300)
    return time.perf_counter() - t0, exchanges


async def _sequential(wire: Wire, count: int, path: str, **options: Any) -> tuple[float, list[Exchange]]:
    t0 = time.perf_counter()
    out = []
    for _ in range(count):
        out.append(await wire.command(path, **options))
    return time.perf_counter() - t0, out


async def _run(url: str, burst: int, heavy: int) -> list[tuple[str, int, float, list[Exchange]]]:
    fake = FakeDiscord()
    await fake.start()
    engine = make_engine(url)
    services = Services(make_sessionmaker(engine))
    settings = Settings(discord_token="bench", database_url=url, dev_guild_id=fake.guild.id)
    options = {"apply_migrations": False, "start_scheduler": False, "guild_ready_timeout": 0.05}
    bot = create_bot(settings, services=services, **options)

    @bot.tree.command(name="noop", description="benchmark floor: answers at once")
    async def noop(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)

    task = asyncio.create_task(bot.start("bench"))
    rows: list[tuple[str, int, float, list[Exchange]]] = []
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 60)
        wire = Wire(fake, bot, services)
        guild = fake.guild.id
        await wire.command("setup roles", admin=True, organizer=wire.role("Organizzatori"),
                           referee=wire.role("Arbitri"), head_referee=wire.role("Capo arbitro"))  # fmt: skip
        await wire.command("tournament create", roles=ORG, name="Coppa", preset="risiko-ufficiali-2018")
        tournament = await services.tournaments.get(guild, "Coppa")
        async with services.sessionmaker() as session, session.begin():
            for i in range(burst):
                session.add(Registration(guild_id=guild, tournament_id=tournament.id, user_id=9000 + i,
                                         display_name=f"Giocatore {i:03d}", club=("Roma", "Milano", None)[i % 3],
                                         status=RegistrationStatus.VALIDATED.value,
                                         registered_at=services.clock()))  # fmt: skip
        # warm-up, not counted: a whole burst, so the measured one does not pay for the first connections
        await _burst(wire, [wire.send("noop", user_id=9000 + i) for i in range(burst)])
        wall, ex = await _burst(wire, [wire.send("noop", user_id=9000 + i) for i in range(burst)])
        rows.append(("noop", burst, wall, ex))
        wall, ex = await _burst(wire, [wire.send("tournaments list", user_id=9000 + i) for i in range(burst)])
        rows.append(("tournaments list", burst, wall, ex))
        first = await wire.command("round draw", roles=ORG, tournament="Coppa")
        wall, ex = await _sequential(wire, heavy - 1, "round redraw", roles=ORG, tournament="Coppa")
        rows.append((f"round draw ({burst} players)", heavy, wall + first.answer, [first, *ex]))
        await wire.command("round publish", roles=ORG, tournament="Coppa", within=300)
        wall, ex = await _burst(wire, [wire.send("my-table", user_id=9000 + i, tournament="Coppa")
                                       for i in range(burst)])  # fmt: skip
        rows.append(("my-table", burst, wall, ex))
        staff = Actor(guild_id=guild, user_id=1, is_admin=True)
        referee = Actor(guild_id=guild, user_id=2, role_ids=frozenset({fake.guild.roles["Arbitri"]}))
        view = await services.rounds.show(staff, tournament="Coppa")
        presses = []
        for table in view.tables:
            values = {s.registration_id: str(80 - 9 * k) for k, s in enumerate(table.seats)}
            report = await services.reports.enter_points(referee, TableRef("Coppa", table.number), values)
            row = {"type": 1, "components": [{"type": 2, "style": 3, "label": "Firma",
                                              "custom_id": f"report:sign:{report.table_id}"}]}  # fmt: skip
            message = fake._message(8_000_000 + table.number, fake.guild.channel_id, {"components": [row]}, [])
            presses += [(message, report.table_id, s.user_id) for s in table.seats]
        wall, ex = await _burst(wire, [fake.interact(fake.component_payload(m, f"report:sign:{t}", user_id=u))
                                       for m, t, u in presses])  # fmt: skip
        rows.append(("Sign storm", len(presses), wall, ex))
        wall, ex = await _sequential(wire, heavy, "standings show", tournament="Coppa")
        rows.append(("standings show", heavy, wall, ex))
        wall, ex = await _burst(wire, [wire.send("noop", user_id=9000 + i) for i in range(burst)])
        rows.append(("noop (again, at the end)", burst, wall, ex))  # the floor after everything else ran
        if fake.violations:
            print("Discord rules broken:", *fake.violations[:10], sep="\n  ")
    finally:
        await bot.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await fake.stop()
        await engine.dispose()
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--burst", type=int, default=300)
    ap.add_argument("--heavy", type=int, default=10)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="steward-wire-"))
    url = f"sqlite+aiosqlite:///{folder / 'wire.db'}"
    upgrade_to_head(url)
    rows = asyncio.run(_run(url, args.burst, args.heavy))
    print("the real bot through the fake Discord on 127.0.0.1, SQLite; seconds; ratios to /noop")
    print(f"{'interaction':<24}{'n':>5}{'per s':>8}{'first p50':>11}{'p99':>8}{'answer p50':>12}{'p99':>8}"
          f"{'x noop p50':>12}")  # fmt: skip
    floor = min(statistics.median(e.answer for e in ex) for name, _, _, ex in rows if name.startswith("noop"))
    for name, n, wall, ex in rows:
        first = [e.first_response for e in ex]
        answer = [e.answer for e in ex]
        p50 = statistics.median(answer)
        print(f"{name:<24}{n:>5}{n / wall:>8.1f}{statistics.median(first):>11.3f}{_pct(first, 0.99):>8.3f}"
              f"{p50:>12.3f}{_pct(answer, 0.99):>8.3f}{p50 / floor:>12.1f}")  # fmt: skip
    late = sum(1 for _, _, _, ex in rows for e in ex if e.first_response >= 3.0)
    print(f"first responses later than 3 s: {late}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
