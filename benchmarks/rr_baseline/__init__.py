"""Frozen baseline of the Ricochet Robots solver as it was at commit c281753 (``solver.py`` and ``_fastsolve.c``
copied verbatim before the per-call work of the solver issue), so that ``benchmarks/rr_solver.py`` can time today's
engine against the engine that the issue measured, in one run. Nothing in the bot imports this package.

``load()`` works as ``rr_reference.load()`` does: the Python module under a private name, the C module built into
a temporary directory with the flags ``setup.py`` uses (cached by the source's hash; None without a compiler).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

from rr_reference import _import_file

HERE = Path(__file__).resolve().parent


def build_c() -> Path | None:
    source = HERE / "_fastsolve.c"
    flags = [
        *(sysconfig.get_config_var("CFLAGS") or "").split(),
        *(sysconfig.get_config_var("CCSHARED") or "-fPIC").split(),
        "-O3",
        "-shared",
    ]
    digest = hashlib.sha256(source.read_bytes() + " ".join(flags).encode()).hexdigest()[:16]
    out_dir = Path(tempfile.gettempdir()) / f"rr_baseline_{digest}"
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = out_dir / f"_fastsolve{suffix}"
    if target.exists():
        return target
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / f"_fastsolve.{os.getpid()}.tmp"
    cmd = [cc, *flags, f"-I{sysconfig.get_paths()['include']}", str(source), "-o", str(tmp)]
    if subprocess.run(cmd, capture_output=True, check=False).returncode != 0:
        return None
    tmp.replace(target)
    return target


def load(with_c: bool = True) -> tuple[ModuleType, ModuleType | None]:
    """(baseline solver module, baseline C module or None)."""
    solver = _import_file("rr_baseline_solver", HERE / "solver.py")
    fast: ModuleType | None = None
    if with_c:
        so = build_c()
        if so is not None:
            fast = _import_file("rr_baseline_c._fastsolve", so)
    solver._fast_module = lambda: fast  # type: ignore[attr-defined]
    return solver, fast
