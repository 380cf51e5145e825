"""The process's Prometheus metrics (``GET /metrics`` on the web server when ``METRICS_ENABLED=true``).

One :class:`~prometheus_client.CollectorRegistry` of our own per process (:data:`REGISTRY`, never the client's
global one). Counting is always on and costs an increment; the endpoint only exposes it. Labels carry command
names, pools and reasons, never a member, a server or a secret.

* ``steward_commands_total{command,outcome}`` — slash commands run (``outcome``: ``ok`` or ``error``, a refusal
  included), hooked in the command tree (``bot.cogs._bot``);
* ``steward_command_seconds{command}`` — their time, from the tree's first look at the interaction to the answer;
* ``steward_heavy_waiting{pool}`` / ``steward_heavy_running{pool}`` — heavy calls waiting for a worker (the
  queue's depth) and running, per pool (``process``, ``thread``; ``bot.workers``);
* ``steward_heavy_refused_total{pool,reason}`` — heavy calls refused: ``busy`` (no worker within the admission
  wait), ``too_slow`` (past the time budget), ``one_at_a_time`` (pool ``any``: the member had one running);
* ``steward_reminders_due_total`` / ``steward_reminders_sent_total`` / ``steward_reminders_late_total`` — rows of
  the schedule claimed by this process's runner, confirmed sent, and sent late (due while no bot ran);
* ``steward_db_pool_checked_out`` / ``steward_db_pool_size`` — the database pool's connections in use and kept;
* ``steward_gateway_latency_seconds`` — Discord's heartbeat latency (absent until the gateway answered one).

The gauges read at collection (pool, gateway) are callbacks on objects the process hands in (:func:`watch_engine`,
:func:`watch_gateway`), held weakly; reading them is an attribute access each. Nothing of ours is imported here:
every layer may call the hooks."""

from __future__ import annotations

import math
import time
import weakref
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

disable_created_metrics()  # type: ignore[no-untyped-call]  # no ``*_created`` series: a start time per label set is noise to a club's dashboard
REGISTRY = CollectorRegistry(auto_describe=True)
STARTED = "steward.metrics.started"  # the key of a command's start in ``Interaction.extras``
# the classic text format (our names are plain ASCII): what every Prometheus since 2.0 reads
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)  # Discord's 3 s answer rule inside

COMMANDS = Counter(
    "steward_commands", "Slash commands run, by command and outcome", ["command", "outcome"], registry=REGISTRY
)
COMMAND_SECONDS = Histogram(
    "steward_command_seconds", "Time slash commands took", ["command"], buckets=LATENCY_BUCKETS, registry=REGISTRY
)
HEAVY_WAITING = Gauge("steward_heavy_waiting", "Heavy calls waiting for a free worker", ["pool"], registry=REGISTRY)
HEAVY_RUNNING = Gauge("steward_heavy_running", "Heavy calls running in a worker", ["pool"], registry=REGISTRY)
HEAVY_REFUSED = Counter(
    "steward_heavy_refused", "Heavy calls refused, by pool and reason", ["pool", "reason"], registry=REGISTRY
)
REMINDERS_DUE = Counter("steward_reminders_due", "Scheduled rows claimed to be sent by this process", registry=REGISTRY)
REMINDERS_SENT = Counter("steward_reminders_sent", "Scheduled rows sent and confirmed", registry=REGISTRY)
REMINDERS_LATE = Counter("steward_reminders_late", "Scheduled rows sent late (due while no bot ran)", registry=REGISTRY)

for _pool in ("process", "thread"):  # the families show from the start, at zero
    HEAVY_WAITING.labels(_pool)
    HEAVY_RUNNING.labels(_pool)


# ------------------------------------------------------------------------------------------------- commands


def command_started(extras: MutableMapping[str, Any]) -> None:
    """A command's interaction reached the tree (``extras``: the interaction's ``extras``)."""
    extras[STARTED] = time.perf_counter()


def command_finished(command: str, *, ok: bool, extras: MutableMapping[str, Any] | None = None) -> None:
    """A command answered (``ok``) or took the error path; its time when :func:`command_started` saw it."""
    COMMANDS.labels(command, "ok" if ok else "error").inc()
    started = extras.pop(STARTED, None) if extras is not None else None
    if isinstance(started, float):
        COMMAND_SECONDS.labels(command).observe(max(0.0, time.perf_counter() - started))


# --------------------------------------------------------------------------------------------- heavy work


def heavy_waiting(pool: str, change: int) -> None:
    HEAVY_WAITING.labels(pool).inc(change)


def heavy_running(pool: str, change: int) -> None:
    HEAVY_RUNNING.labels(pool).inc(change)


def heavy_refused(pool: str, reason: str) -> None:
    HEAVY_REFUSED.labels(pool, reason).inc()


# ---------------------------------------------------------------------------------------------- reminders


def reminder_due() -> None:
    REMINDERS_DUE.inc()


def reminder_sent(*, late: bool) -> None:
    REMINDERS_SENT.inc()
    if late:
        REMINDERS_LATE.inc()


# ------------------------------------------------------------------------------------- read at collection


class _Watched(Collector):
    """The gauges read when Prometheus scrapes: the database pool and the gateway's latency."""

    def __init__(self) -> None:
        self.engine: Callable[[], Any] = lambda: None
        self.gateway: Callable[[], Any] = lambda: None

    def describe(self) -> list[GaugeMetricFamily]:
        return list(self._families())

    def collect(self) -> Iterator[GaugeMetricFamily]:
        return self._families(read=True)

    def _families(self, *, read: bool = False) -> Iterator[GaugeMetricFamily]:
        checked_out = GaugeMetricFamily("steward_db_pool_checked_out", "Database connections in use")
        size = GaugeMetricFamily("steward_db_pool_size", "Database connections the pool keeps")
        latency = GaugeMetricFamily("steward_gateway_latency_seconds", "Discord gateway heartbeat latency")
        if read:
            pool = getattr(self.engine(), "pool", None)
            if pool is not None:
                with_value(checked_out, getattr(pool, "checkedout", None))
                with_value(size, getattr(pool, "size", None))
            client = self.gateway()
            if client is not None:
                value = getattr(client, "latency", None)
                if isinstance(value, float) and math.isfinite(value):
                    latency.add_metric([], value)
        yield checked_out
        yield size
        yield latency


def with_value(family: GaugeMetricFamily, read: Callable[[], Any] | None) -> None:
    """The family's one sample, when ``read`` answers a number."""
    try:
        value = read() if read is not None else None
    except Exception:  # a pool being disposed: no sample this time
        return
    if isinstance(value, int | float):
        family.add_metric([], float(value))


WATCHED = _Watched()
REGISTRY.register(WATCHED)


def _weak(obj: Any) -> Callable[[], Any]:
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


def watch_engine(engine: Any) -> None:
    """The SQLAlchemy engine (async or not) whose pool the gauges read (the last one handed in)."""
    WATCHED.engine = _weak(getattr(engine, "sync_engine", engine))


def watch_gateway(client: Any) -> None:
    """The Discord client whose ``latency`` the gauge reads (the last one handed in)."""
    WATCHED.gateway = _weak(client)


# --------------------------------------------------------------------------------------------- exposition


def exposition() -> tuple[bytes, str]:
    """The registry in Prometheus's text format, and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE
