"""Frozen reference of the Ricochet Robots solver as it was before its pruning rules (``solver.py`` and ``_fastsolve.c``
copied verbatim from commit 24d4ce1), so that ``benchmarks/rr_solver.py`` can time today's engine against it in
one run. Nothing in the bot imports this package.

``load()`` imports the reference Python module under a private name and builds the reference C module into a
temporary directory (cached by the source's hash; no build when no C compiler is found), then points the
reference module's accelerator look-up at it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def _import_file(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def build_c(here: Path = HERE, tag: str = "rr_reference") -> Path | None:
    """Compile the ``_fastsolve.c`` of ``here`` into a temp dir (cached) with the flags ``setup.py`` uses (Python's
    ``CFLAGS`` and ``CCSHARED`` plus ``-O3``), so both engines are built alike; None when no compiler is found."""
    source = here / "_fastsolve.c"
    flags = [
        *(sysconfig.get_config_var("CFLAGS") or "").split(),
        *(sysconfig.get_config_var("CCSHARED") or "-fPIC").split(),
        "-O3",
        "-shared",
    ]
    digest = hashlib.sha256(source.read_bytes() + " ".join(flags).encode()).hexdigest()[:16]
    out_dir = Path(tempfile.gettempdir()) / f"{tag}_{digest}"
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


def load(with_c: bool = True, *, here: Path = HERE, tag: str = "rr_reference") -> tuple[ModuleType, ModuleType | None]:
    """(the frozen solver module of ``here``, its C module or None); ``rr_baseline`` loads its copy with it."""
    solver = _import_file(f"{tag}_solver", here / "solver.py")
    fast: ModuleType | None = None
    if with_c:
        so = build_c(here, tag)
        if so is not None:
            fast = _import_file(f"{tag}_c._fastsolve", so)
    solver._fast_module = lambda: fast  # type: ignore[attr-defined]
    return solver, fast
