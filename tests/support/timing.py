"""Time limits a busy machine cannot break (issue 44: the README's test command failed on a fresh clone at a load of
about 4x the cores, and passed alone).

A test of the README's command judges speed by what load does not stretch: the CPU time of the thread or process
that does the work (``time.thread_time``, ``time.process_time``). Where only the wall clock can tell (a page seen
in a browser, an answer over a socket), the limit is stretched by how busy the machine is right now: the one-minute
load average per core, never less than 1, times a margin of 2. Speed itself is measured in ``benchmarks/``, as
ratios against a baseline in the same run.
"""

from __future__ import annotations

import os


def load_factor() -> float:
    """How many runnable threads share each core now (the one-minute load average per core), at least 1."""
    try:
        one_minute = os.getloadavg()[0]
    except OSError:  # no load average on this system: assume it is busy enough to double the limit
        return 2.0
    return max(1.0, one_minute / (os.cpu_count() or 1))


def wall_limit(seconds: float) -> float:
    """``seconds`` of wall clock, stretched for a busy machine: twice the limit times the load per core."""
    return seconds * 2 * load_factor()
