"""Benchmark: 300 simultaneous /my-table on one SQLite file, against a baseline in the same run.

    python -m benchmarks.my_table [--players 300] [--repeat 3]

A 300-player RisiKo! round is drawn and published on a fresh SQLite file (the bot's own migrations, engine and
services). Then every player asks for their table at once (``asyncio.gather`` of ``RoundService.my_table``):
* ``my_table``: what the bot does now — the player's seat in one query, then that one table's seats;
* baseline: what it did before — the same seat query, then the whole round's view (every table, every seat, every
  registration of the round) to pick the player's table out of it.
It prints, per variant, the wall time of the burst and the per-call latency p50 / p99 (best of ``--repeat`` bursts),
and the ratios baseline / now. Latency here is the service's answer; Discord's first response is the defer sent
before it.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.db.migrate import upgrade_to_head
from bot.db.models import Registration, RegistrationStatus
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.services.access import Actor
from bot.services.rounds.reading import round_view

GUILD = 1


async def _prepare(services: Services, players: int) -> None:
    admin = Actor(guild_id=GUILD, user_id=1, is_admin=True)
    await services.setup.set_roles(admin, organizer_role_id=2, referee_role_id=3, head_referee_role_id=4)
    organizer = Actor(guild_id=GUILD, user_id=2, role_ids=frozenset({2}))
    t = await services.tournaments.create(organizer, name="Coppa", preset="risiko-ufficiali-2018")
    async with services.sessionmaker() as session, session.begin():
        for i in range(players):
            session.add(
                Registration(
                    guild_id=GUILD, tournament_id=t.id, user_id=1000 + i, display_name=f"Giocatore {i:03d}",
                    club=("Roma", "Milano", "Napoli", None)[i % 4], status=RegistrationStatus.VALIDATED.value,
                    registered_at=services.clock(),
                )
            )  # fmt: skip
    await services.rounds.draw(organizer, tournament="Coppa")
    await services.rounds.publish(organizer, tournament="Coppa")


async def _baseline(services: Services, user_id: int) -> object:
    """The old path: the whole round's view for one player's table."""
    async with services.rounds.draws.run(GUILD, tournament="Coppa") as uc:
        reg = await uc.registrations.for_user(tournament_id=uc.tournament_id, user_id=user_id)
        assert reg is not None and reg.id is not None
        found = await uc.rounds.seat_in_latest_round(
            tournament_id=uc.tournament_id, registration_id=reg.id, published_only=True
        )
        assert found is not None
        view = await round_view(uc, found[0])
        return view.table_of(reg.id)


async def _burst(players: int, call: Callable[[int], Awaitable[object]]) -> tuple[float, list[float]]:
    async def one(i: int) -> float:
        t0 = time.perf_counter()
        await call(1000 + i)
        return time.perf_counter() - t0

    t0 = time.perf_counter()
    latencies = await asyncio.gather(*(one(i) for i in range(players)))
    return time.perf_counter() - t0, sorted(latencies)


def _pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


async def _main(url: str, players: int, repeat: int) -> None:
    engine = make_engine(url)
    services = Services(make_sessionmaker(engine), seed_source=lambda: 7)
    try:
        await _prepare(services, players)

        async def now(user_id: int) -> object:
            return await services.rounds.my_table(Actor(guild_id=GUILD, user_id=user_id), tournament="Coppa")

        results: dict[str, tuple[float, float, float]] = {}
        for name, call in (("my_table", now), ("baseline", lambda u: _baseline(services, u))):
            best: tuple[float, float, float] | None = None
            for _ in range(repeat):
                wall, lat = await _burst(players, call)
                row = (wall, statistics.median(lat), _pct(lat, 0.99))
                best = row if best is None or row[0] < best[0] else best
            assert best is not None
            results[name] = best
    finally:
        await engine.dispose()
    print(f"{players} simultaneous /my-table on SQLite, best of {repeat} bursts (seconds)")
    print(f"{'variant':<10}{'wall':>8}{'p50':>8}{'p99':>8}")
    for name, (wall, p50, p99) in results.items():
        print(f"{name:<10}{wall:>8.3f}{p50:>8.3f}{p99:>8.3f}")
    (w1, a1, b1), (w0, a0, b0) = results["my_table"], results["baseline"]
    print(f"baseline / my_table: wall {w0 / w1:.1f}x, p50 {a0 / a1:.1f}x, p99 {b0 / b1:.1f}x")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="steward-bench-"))
    url = f"sqlite+aiosqlite:///{folder / 'bench.db'}"
    upgrade_to_head(url)
    asyncio.run(_main(url, args.players, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
