"""Benchmark: the real bot through the fake Discord of the wire tier, against a no-op command in the same run.

    python -m benchmarks.wire [--burst 300] [--heavy 10] [--mixed-only]

The bot (``create_bot``, every cog, a fresh SQLite file) logs in to ``tests.support.fake_discord`` on 127.0.0.1. A
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

**Mixed heavy load**, twice in the same run: with the bot's workers (the heavy calls in bounded pools), and with
the calls placed where they ran before the workers existed (odds, scoring and the rules desk's search on the event
loop; solving, images and draws in ``asyncio.to_thread``). Together: 4 ``/risiko odds 300 v 300``, 6 ``/rr solve``
of a 25-move position, 300 ``/rule`` questions, then one ``/rr verify`` with its image; meanwhile a ``/noop`` every
20 ms. Reported: the no-op's answers during the load (what every other member waits), the verify's answer, and
the event loop's longest stall measured by a 5 ms ticker. The commands are typed as the server's locale (Italian)
reads them; a ``/rr solve`` or ``/rr verify`` the bot refuses, or answers without its result, stops the benchmark
with an error (a refused call costs nothing and would flatter the figures).
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

import discord

from bot.app import create_bot
from bot.db.migrate import upgrade_to_head
from bot.db.models import Registration, RegistrationStatus
from bot.db.session import make_engine, make_sessionmaker
from bot.rules.rulebook.search import search
from bot.services import Services
from bot.services.access import Actor
from bot.services.adjudicators import battle_values, scored_text
from bot.services.reports import TableRef
from bot.settings import Settings
from bot.workers import Workers, default_workers
from tests.support.fake_discord import Exchange, FakeDiscord
from tests.support.wire import Wire

ORG = ("Organizzatori",)


# the known 25-move position, typed as the server's locale (Italian, as every /command of this benchmark is sent)
# reads it: R rosso, V verde, B blu, G giallo; the target blu triangolo at row 12, column 9
HARD_25 = {"board": "4B 3B 2B 1A", "robots": "R14,2 V3,0 B2,11 G1,2", "target": "12,9 blu triangolo"}
HARD_25_MOVES = "RN RE BS GO"  # rosso nord, rosso est, blu sud, giallo ovest: a demonstration to judge
QUESTION = (
    "un giocatore ha dichiarato un patto con il vicino e poi lo ha rotto attaccandolo, mentre il terzo "
    "protestava per il tempo e chiedeva la sdadata: cosa fa l'arbitro con le armate oltre il limite? "
) * 3


class BeforeWorkers(Workers):
    """The heavy calls where they ran before the workers: odds, scoring and search on the loop; the rest in
    ``asyncio.to_thread`` (the loop's default executor, unbounded queue)."""

    async def compute(self, fn: Any, /, *args: Any, budget: float | None = 30.0) -> Any:
        if fn in (battle_values, scored_text):
            return fn(*args)
        return await asyncio.to_thread(fn, *args)

    async def thread(self, fn: Any, /, *args: Any, budget: float | None = 60.0) -> Any:
        if getattr(fn, "func", None) is search:
            return fn(*args)
        return await asyncio.to_thread(fn, *args)

    async def in_transaction(self, fn: Any, /, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)


class Ticker:
    def __init__(self) -> None:
        self.worst = 0.0

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0.005)
            self.worst = max(self.worst, loop.time() - start - 0.005)


async def _noops_every_20_ms(wire: Wire, count: int = 100) -> list[tuple[float, Exchange]]:
    """A member pressing /noop every 20 ms: each with the moment it was *meant* to be pressed, so that a stalled loop
    (which delays this sender as much as the bot: they share it) still shows in the wait."""
    start = time.perf_counter()
    out = []
    for i in range(count):
        planned = start + 0.02 * i
        await asyncio.sleep(max(0.0, planned - time.perf_counter()))
        out.append((planned, await wire.send("noop", user_id=9000 + i)))
    return out


async def _mixed(wire: Wire, *, load: bool = True) -> tuple[list[float], float | None, float, float]:
    """The mixed heavy load: the no-ops' waits (from the moment each was meant to be pressed to its answer), the
    verify's answer, the loop's worst stall, the wall time (``load=False``: the same no-ops alone, the baseline)."""
    ticker = Ticker()
    tick = asyncio.create_task(ticker.run())
    t0 = time.perf_counter()
    heavy: list[Exchange] = []
    solves: list[Exchange] = []
    verify: Exchange | None = None
    if load:
        heavy = [await wire.send("risiko odds", roles=("Arbitri",), user_id=100 + i, attackers=300, defenders=300)
                 for i in range(4)]  # fmt: skip
        solves = [await wire.send("rr solve", roles=("Arbitri",), user_id=200 + i, **HARD_25) for i in range(6)]
        heavy += solves
        heavy += [await wire.send("rule", user_id=400 + i, question=QUESTION[i % 60 : i % 60 + 400],
                                  preset="risiko-ufficiali-2018") for i in range(300)]  # fmt: skip
        verify = await wire.send("rr verify", roles=("Arbitri",), user_id=300, moves=HARD_25_MOVES, **HARD_25)
    noops = await _noops_every_20_ms(wire)
    waiting = [*heavy, *([verify] if verify else []), *(e for _, e in noops)]
    await asyncio.wait_for(asyncio.gather(*(e.done.wait() for e in waiting)), 600)
    await asyncio.sleep(0.2)  # the last follow-ups
    wall = time.perf_counter() - t0
    tick.cancel()
    await _check_answered("rr solve", solves)
    await _check_answered("rr verify", [verify] if verify else [])
    waits = [e.answered_at - planned for planned, e in noops if e.answered_at is not None]
    return waits, (verify.answer if verify else None), ticker.worst, wall


async def _check_answered(command: str, exchanges: list[Exchange], within: float = 600.0) -> None:
    """Stop the benchmark when a ``/command`` was refused (an error reply instead of a deferral) or never got its
    result (the board image; a long ``/rr solve`` first edits in a 'searching' line, which is its first answer): the
    heavy call never ran, and the figures would flatter the bot."""
    deadline = time.perf_counter() + within
    for e in exchanges:
        # polled: the fake Discord has no event for an edit after the first answer
        while e.deferred and not e.files and time.perf_counter() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.1)
        if not e.deferred or not e.files:
            raise SystemExit(
                f"/{command} was refused or answered without its result, so the load it should add never ran: "
                f"{e.text.strip()[:300] or e.callback!r}"
            )


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


async def _run(
    url: str, burst: int, heavy: int, mixed_only: bool = False, workers: Workers | None = None
) -> tuple[list[tuple[str, int, float, list[Exchange]]], list[tuple[str, list[float], float | None, float, float]]]:
    fake = FakeDiscord()
    await fake.start()
    engine = make_engine(url)
    services = Services(make_sessionmaker(engine), workers=workers or default_workers())
    settings = Settings(discord_token="bench", database_url=url, dev_guild_id=fake.guild.id)
    options = {"apply_migrations": False, "start_scheduler": False, "guild_ready_timeout": 0.05}
    bot = create_bot(settings, services=services, **options)

    @bot.tree.command(name="noop", description="benchmark floor: answers at once")
    async def noop(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)

    task = asyncio.create_task(bot.start("bench"))
    rows: list[tuple[str, int, float, list[Exchange]]] = []
    mixed: list[tuple[str, list[float], float | None, float, float]] = []
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 60)
        wire = Wire(fake, bot, services)
        guild = fake.guild.id
        if mixed_only:
            await _burst(wire, [wire.send("noop", user_id=9000 + i) for i in range(burst)])  # warm-up
            wall, ex = await _burst(wire, [wire.send("noop", user_id=9000 + i) for i in range(burst)])
            rows.append(("noop", burst, wall, ex))
            await wire.command("rule", question=QUESTION[:400], preset="risiko-ufficiali-2018")  # warm-up
            await wire.command("risiko odds", roles=("Arbitri",), attackers=3, defenders=3)  # the workers start
            noops, _, worst, wall = await _mixed(wire, load=False)
            mixed.append(("no load", noops, None, worst, wall))
            for label, kind in (("workers", Workers), ("before", BeforeWorkers)):
                services.workers = kind()
                for service in vars(services).values():
                    if hasattr(service, "_workers"):
                        service._workers = services.workers
                noops, verify, worst, wall = await _mixed(wire)
                mixed.append((label, noops, verify, worst, wall))
                services.workers.shutdown()
            return rows, mixed
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
    return rows, mixed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--burst", type=int, default=300)
    ap.add_argument("--heavy", type=int, default=10)
    ap.add_argument("--mixed-only", action="store_true", help="only the no-op floor and the mixed heavy load")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="steward-wire-"))
    url = f"sqlite+aiosqlite:///{folder / 'wire.db'}"
    upgrade_to_head(url)
    rows, mixed = asyncio.run(_run(url, args.burst, args.heavy, args.mixed_only))
    if not args.mixed_only:
        folder2 = Path(tempfile.mkdtemp(prefix="steward-wire-"))
        url2 = f"sqlite+aiosqlite:///{folder2 / 'wire.db'}"
        upgrade_to_head(url2)
        mixed = asyncio.run(_run(url2, args.burst, args.heavy, True))[1]
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
    if mixed:
        print("\nmixed heavy load: 4 odds 300 v 300, 6 rr solve (25 moves), 300 /rule, 1 rr verify with its image;")
        print("a /noop every 20 ms meanwhile, each timed from the moment it was meant to be pressed; 'no load': the")
        print("same no-ops alone. Seconds; ratios to 'no load'; loop stall: the longest, by a 5 ms ticker")
        print(f"{'heavy calls':<12}{'wall':>7}{'noop p50':>10}{'p99':>8}{'max':>8}{'x p50':>7}{'x p99':>7}"
              f"{'verify':>8}{'loop stall':>12}{'late >3 s':>11}")  # fmt: skip
        base = mixed[0][1]
        for label, waits, verify_s, worst, wall in mixed:
            shown = f"{verify_s:.2f}" if verify_s is not None else "-"
            p50, p99 = statistics.median(waits), _pct(waits, 0.99)
            late_mixed = sum(1 for w in waits if w >= 3.0)
            print(f"{label:<12}{wall:>7.1f}{p50:>10.3f}{p99:>8.3f}{max(waits):>8.3f}"
                  f"{p50 / statistics.median(base):>7.1f}{p99 / _pct(base, 0.99):>7.1f}{shown:>8}{worst:>12.3f}"
                  f"{late_mixed:>11}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
