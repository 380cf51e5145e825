"""Frozen baseline of the Ricochet Robots solver as it was at commit c281753 (``solver.py`` and ``_fastsolve.c``
copied verbatim before the per-call work of the solver issue), so that ``benchmarks/rr_solver.py`` can time today's
engine against the engine that the issue measured, in one run. Nothing in the bot imports this package.

``load()`` works as ``rr_reference.load()`` does: the Python module under a private name, the C module built into
a temporary directory with the flags ``setup.py`` uses (cached by the source's hash; None without a compiler).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import rr_reference

HERE = Path(__file__).resolve().parent


def load(with_c: bool = True) -> tuple[ModuleType, ModuleType | None]:
    """(baseline solver module, baseline C module or None): ``rr_reference``'s loader on this copy."""
    return rr_reference.load(with_c, here=HERE, tag="rr_baseline")
