"""Whether the process is ready to serve (``GET /readyz``), from checks handed in by whoever starts the web server.

A :class:`HealthProbe` holds named checks: callables answering None when all is well, or a short reason (a
revision id, "not connected"); an exception or a time-out is a failure named by its type, never by its message (a
driver's message may carry a host or a user name). The bot hands in the gateway, the database, the migrations and
the schedule's runner; ``steward web`` and the demo the database and the migrations. Nothing here imports discord:
the bot's checks are closures over the bot (``bot.app``).

The checks run concurrently, each within ``timeout`` seconds; a result is reused for ``cache_seconds`` (and callers
arriving meanwhile share the run in progress), so a monitor polling hard costs the database one query a second at
most. ``last_backup`` is informational: the time of the last scheduled backup (a provider the backups set), never a
failing check."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.services import Services

Check = Callable[[], "Awaitable[str | None] | str | None"]
BackupTime = Callable[[], "Awaitable[datetime | None] | datetime | None"]
TIMEOUT_SECONDS = 2.0
CACHE_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class CheckResult:
    name: str
    ok: bool
    detail: str | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": "ok" if self.ok else "failing"}
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True, slots=True)
class Readiness:
    checks: tuple[CheckResult, ...]
    last_backup: datetime | None = None

    @property
    def ready(self) -> bool:
        return all(c.ok for c in self.checks)

    def failing(self) -> list[str]:
        return [c.name for c in self.checks if not c.ok]

    def as_json(self) -> dict[str, Any]:
        return {
            "status": "ready" if self.ready else "not ready",
            "checks": {c.name: c.as_json() for c in self.checks},
            "last_backup": self.last_backup.isoformat() if self.last_backup is not None else None,
        }


async def _answer(call: Callable[[], Any]) -> Any:
    value = call()
    if inspect.isawaitable(value):
        value = await value
    return value


class HealthProbe:
    """Named readiness checks and the last backup's time; see the module's docstring."""

    def __init__(
        self,
        checks: Mapping[str, Check] | None = None,
        *,
        last_backup: BackupTime | None = None,
        timeout: float = TIMEOUT_SECONDS,
        cache_seconds: float = CACHE_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.checks: dict[str, Check] = dict(checks or {})
        self.last_backup: BackupTime | None = last_backup  # set by the scheduled backups; None: none yet
        self.timeout = timeout
        self.cache_seconds = cache_seconds
        self._now = monotonic
        self._cached: tuple[float, Readiness] | None = None
        self._running: asyncio.Task[Readiness] | None = None

    def add(self, name: str, check: Check) -> None:
        self.checks[name] = check
        self._cached = None

    def remove(self, name: str) -> None:
        self.checks.pop(name, None)
        self._cached = None

    async def readiness(self) -> Readiness:
        """Every check's state (the last result when younger than ``cache_seconds``)."""
        if self._cached is not None and self._now() - self._cached[0] < self.cache_seconds:
            return self._cached[1]
        if self._running is None or self._running.done():
            self._running = asyncio.create_task(self._run())
        found = await asyncio.shield(self._running)
        self._cached = (self._now(), found)
        return found

    async def _run(self) -> Readiness:
        names = list(self.checks)
        results = await asyncio.gather(*(self._check(name, self.checks[name]) for name in names))
        return Readiness(tuple(results), await self._last_backup())

    async def _check(self, name: str, check: Check) -> CheckResult:
        try:
            reason = await asyncio.wait_for(_answer(check), self.timeout)
        except TimeoutError:
            return CheckResult(name, False, f"no answer within {self.timeout:g} s")
        except Exception as exc:
            return CheckResult(name, False, type(exc).__name__)
        return CheckResult(name, reason is None, None if reason is None else str(reason)[:200])

    async def _last_backup(self) -> datetime | None:
        if self.last_backup is None:
            return None
        try:
            value = await asyncio.wait_for(_answer(self.last_backup), self.timeout)
        except Exception:  # informational: a provider that fails says nothing
            return None
        return value if isinstance(value, datetime) else None


def database_checks(services: Services) -> dict[str, Check]:
    """``database`` (a trivial query) and ``migrations`` (the schema at the scripts' head) on ``services``'s
    database."""
    from bot.services.health import HealthService

    health = HealthService(services.sessionmaker, services.clock, workers=services.workers)

    async def database() -> None:
        await health.database()

    return {"database": database, "migrations": health.migrations}
