"""Drive a bot started as ``steward run`` starts it, in its own process, through the wire tier's fake Discord, and
read its event loop's stalls (issue 48, "Warm workers"): shared by tests/wire/test_first_command_stall.py and
``python -m benchmarks.first_command``.

The bot runs in a fresh process (``tests.support.first_command_bot``): nothing an earlier test loaded (catalogues,
fonts, indexes, a worker pool) can hide what its first command pays. Its ticker writes every stall of its loop with
``time.monotonic()`` times (the clock the processes of a machine share); ``FirstCommandBot.worst(start, end)`` is the
longest stall overlapping a window, judged as ``tests/cogs/test_loop_lag.py``'s ``Ticker`` judges: the loop thread's
CPU time against the target, the wall clock only within the busy machine's margin (``tests.support.timing``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.fake_discord import TEST_TIER_WALL_MARGIN, Exchange, FakeDiscord
from tests.support.timing import wall_limit

ROOT = Path(__file__).resolve().parents[2]
ORG = ("Organizzatori",)
REF = ("Arbitri",)
HARD_25: dict[str, Any] = {"board": "4B 3B 2B 1A", "robots": "R14,2 G3,0 B2,11 Y1,2", "target": "12,9 blue triangle"}
MOVES_12: dict[str, Any] = {"board": "1A 2A 3A 4A", "robots": "R15,5 G10,7 B5,15 Y10,3", "target": "2,9 blue triangle"}


@dataclass(frozen=True)
class Stall:
    start: float
    end: float
    wall: float  # seconds late
    cpu: float  # the loop thread's CPU seconds in the interval


@dataclass(frozen=True)
class Worst:
    """The longest stall of a window: wall clock and the loop thread's CPU (each its own maximum)."""

    wall: float
    cpu: float

    def within(self, seconds: float) -> bool:
        """As ``Ticker.within``: under ``seconds`` of the loop's CPU, and under the busy machine's wall limit."""
        return self.cpu < seconds and self.wall < wall_limit(seconds)

    def __repr__(self) -> str:
        return f"{self.wall * 1000:.0f} ms ({self.cpu * 1000:.0f} ms of the loop's CPU)"


@dataclass
class Sent:
    """One command: its exchange, when it was sent and when its answer was complete (``time.monotonic()``)."""

    path: str
    exchange: Exchange
    sent: float
    answered: float


def read_log(path: Path) -> tuple[list[Stall], dict[str, list[float]]]:
    stalls: list[Stall] = []
    marks: dict[str, list[float]] = {}
    if not path.exists():
        return stalls, marks
    for line in path.read_text(encoding="utf-8").splitlines():
        kind, *fields = line.split()
        try:
            values = [float(f) for f in fields]
        except ValueError:  # a line of another kind (or cut short while it was written)
            continue
        if kind == "stall" and len(values) == 4:
            stalls.append(Stall(*values))
        elif values:
            marks[kind] = values
    return stalls, marks


def kib(pid: int, field: str = "VmRSS") -> int:
    """A process's resident set (or another /proc status field) in KiB; 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                key, _, rest = line.partition(":")
                if key == field:
                    return int(rest.split()[0])
    except OSError:
        return 0
    return 0


def descendants(pid: int) -> list[int]:
    """Every process started under ``pid`` (its worker processes and the forkserver), Linux's /proc."""
    out: list[int] = []
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                children = Path(f"/proc/{current}/task/{task}/children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                out.append(child)
                todo.append(child)
    return out


class FirstCommandBot:
    """The bot process and the fake Discord it is logged in to."""

    def __init__(self, fake: FakeDiscord, process: subprocess.Popen[bytes], folder: Path) -> None:
        self.fake = fake
        self.process = process
        self.folder = folder
        self.log = folder / "stalls.log"
        self.stderr = folder / "bot.stderr"

    # ------------------------------------------------------------------------------------------- reading
    def stalls(self) -> list[Stall]:
        return read_log(self.log)[0]

    def marks(self) -> dict[str, list[float]]:
        return read_log(self.log)[1]

    def worst(self, start: float, end: float) -> Worst:
        """The longest stall of the loop overlapping ``[start, end]`` (below 10 ms: 0)."""
        inside = [s for s in self.stalls() if s.end > start and s.start < end]
        return Worst(max((s.wall for s in inside), default=0.0), max((s.cpu for s in inside), default=0.0))

    def rss(self) -> tuple[int, int]:
        """KiB resident: the bot's process, and the processes it started (the workers and their forkserver)."""
        return kib(self.process.pid), sum(kib(child) for child in descendants(self.process.pid))

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.stderr.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    # ----------------------------------------------------------------------------------------- commands
    async def command(
        self,
        path: str,
        *,
        complete: Callable[[Exchange], bool] = lambda e: True,
        within: float = 120.0,
        user_id: int = 5555,
        roles: tuple[str, ...] = (),
        admin: bool = False,
        locale: str = "it",
        **options: Any,
    ) -> Sent:
        """Send a slash command and wait until its answer is complete (``complete``, then nothing new for 0.1 s)."""
        payload = self.fake.command_payload(path, user_id=user_id, roles=roles, admin=admin, locale=locale,
                                            options=options)  # fmt: skip
        sent = time.monotonic()
        exchange = await self.fake.interact(payload)
        deadline = sent + within
        await asyncio.wait_for(exchange.done.wait(), within)
        while not complete(exchange):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"/{path}: no complete answer; it reads {exchange.text[:300]!r}")
            await asyncio.sleep(0.02)
        answered = time.monotonic()
        seen = -1
        while seen != len(exchange.followups) + len(exchange.files):
            seen = len(exchange.followups) + len(exchange.files)
            answered = time.monotonic()
            await asyncio.sleep(0.1)
        return Sent(path, exchange, sent, answered)

    def role(self, name: str) -> Any:
        from tests.support.fake_discord import RoleRef

        return RoleRef(self.fake.guild.roles[name], name)


def _spawn(folder: Path, environment: dict[str, str]) -> subprocess.Popen[bytes]:
    """The bot's process, its output in ``bot.stderr`` (a file: a pipe nobody reads would fill and block it)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "bot.stderr", "wb") as stderr:
        return subprocess.Popen(
            [sys.executable, "-m", "tests.support.first_command_bot"], cwd=folder, env=environment,
            stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr,
        )  # fmt: skip


@contextlib.asynccontextmanager
async def first_command_bot(
    database_url: str, folder: Path, *, stacks: bool = False, env: dict[str, str] | None = None
) -> AsyncIterator[FirstCommandBot]:
    """Start the fake Discord here and the bot in its own process (``steward run``'s path), and wait until the
    fake has sent READY and GUILD_CREATE: the first moment Discord could send the bot an interaction."""
    fake = FakeDiscord(wall_margin=TEST_TIER_WALL_MARGIN)
    await fake.start()
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "WEB_", "LOG_"))},
        "WIRE_PORT": str(fake.port),
        "STALL_LOG": str(folder / "stalls.log"),
        "DISCORD_TOKEN": "wire-token",
        "DATABASE_URL": database_url,
        "DEV_GUILD_ID": str(fake.guild.id),
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
        **(env or {}),
    }
    if stacks:
        environment["STALL_STACKS"] = str(folder / "stacks.log")
    bot = FirstCommandBot(fake, _spawn(folder, environment), folder)
    process = bot.process
    try:
        started = time.monotonic()
        while not fake.identified.is_set():
            if process.poll() is not None:
                raise AssertionError(f"the bot stopped ({process.returncode}):\n{bot.log_tail()}")
            if time.monotonic() - started > max(180.0, wall_limit(90.0)):
                raise AssertionError(f"the bot never connected:\n{bot.log_tail()}")
            await asyncio.sleep(0.005)
        yield bot
    finally:
        if process.poll() is None:  # Ctrl-C: discord.py closes the bot (its pools, its database) and returns
            process.send_signal(signal.SIGINT)
            for _ in range(300):
                if process.poll() is not None:
                    break
                await asyncio.sleep(0.05)
            else:
                process.kill()
                process.wait()
        await fake.stop()


def _has_files(exchange: Exchange) -> bool:
    return bool(exchange.files) or "went wrong" in exchange.text


QUESTION = "un giocatore ha rotto un patto attaccando il vicino: cosa fa l'arbitro?"


async def first_commands(bot: FirstCommandBot) -> list[Sent]:
    """The first heavy command the moment the bot is connected (``/rr solve`` of a 12-move position: a worker
    process, the board image, the preset and its rulebook), then the first of each other kind: an organizer's
    evening up to the first draw (its image) and the standings, the odds, a rules desk question."""
    sent = [await bot.command("rr solve", roles=REF, admin=True, locale="en", complete=_has_files, **MOVES_12)]
    sent.append(await bot.command("setup roles", admin=True, organizer=bot.role("Organizzatori"),
                                  referee=bot.role("Arbitri"), head_referee=bot.role("Capo arbitro")))  # fmt: skip
    sent.append(await bot.command("tournament create", roles=ORG, name="Coppa", preset="risiko-ufficiali-2018"))
    for i in range(8):
        sent.append(await bot.command("register", user_id=7000 + i, tournament="Coppa", name=f"Giocatore {i}",
                                      club=("Roma", "Milano", "Napoli")[i % 3]))  # fmt: skip
    sent.append(await bot.command("tournament validate", roles=ORG, tournament="Coppa"))
    sent.append(await bot.command("round draw", roles=ORG, tournament="Coppa", complete=_has_files))
    sent.append(await bot.command("standings show", tournament="Coppa"))
    sent.append(await bot.command("risiko odds", roles=REF, attackers=30, defenders=30))
    sent.append(await bot.command("rule", question=QUESTION, preset="risiko-ufficiali-2018"))
    return sent
