"""The Ricochet Robots solver of a named git revision of this repository, loaded beside today's for the benchmark
(``benchmarks/rr_solver.py``) and the tests that compare engines (nothing in the bot imports this module).

``load(revision)`` takes ``bot/rules/ricochet/solver.py`` and ``bot/rules/ricochet/_fastsolve.c`` of that commit out
of git (``git archive``), builds the C module in a cache directory under the system's temp dir with setuptools'
``build_ext`` — the compiler and flags of ``pip install -e .`` / ``python setup.py build_ext``, the extension's
``extra_compile_args`` read from today's ``setup.py`` — and imports both under private module names, the solver's
accelerator look-up (``_fast_module``) pointed at that build. The revision's solver imports today's
``bot.rules.ricochet.board`` and ``moves`` (it is handed today's ``Board`` and ``Position``); ``support_changes``
names those of them that differ from the revision's own.

A revision that cannot be loaded raises ``Unavailable`` with the reason (no git, the commit not in this clone,
no C compiler), which a test turns into a skip and the benchmark into an error message.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "bot/rules/ricochet"
EXTENSION = "bot.rules.ricochet._fastsolve"
SUPPORT = ("board.py", "moves.py")  # imported from today's tree by a revision's solver.py


@dataclass(frozen=True, slots=True)
class Revision:
    """A commit of this repository whose solver is timed or compared: its full hash and what its engine is."""

    commit: str
    what: str

    @property
    def short(self) -> str:
        return self.commit[:7]


@dataclass(frozen=True, slots=True)
class Engine:
    """A loaded revision: its solver module (``solve``, ``exists_solution``, … as that commit had them) and its C
    module."""

    revision: Revision
    solver: ModuleType
    fast: ModuleType


class Unavailable(Exception):
    """The revision's engine cannot be loaded here; the message says why."""


_LOADED: dict[str, Engine] = {}


def _git(*args: str) -> bytes:
    git = shutil.which("git")
    if git is None:
        raise Unavailable("git is not installed")
    done = subprocess.run([git, "-C", str(ROOT), *args], capture_output=True, check=False)
    if done.returncode != 0:
        raise Unavailable(f"git {' '.join(args[:2])}: {done.stderr.decode(errors='replace').strip()[:200]}")
    return done.stdout


def compile_args() -> list[str]:
    """The ``extra_compile_args`` of the solver's ``Extension`` in today's ``setup.py`` (read, not run)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Extension" and node.args:
            name = node.args[0]
            if isinstance(name, ast.Constant) and name.value == EXTENSION:
                for kw in node.keywords:
                    if kw.arg == "extra_compile_args":
                        return [str(v) for v in ast.literal_eval(kw.value)]
                return []
    raise RuntimeError(f"setup.py declares no Extension {EXTENSION!r}")


def _check_commit(revision: Revision) -> None:
    try:
        _git("cat-file", "-e", f"{revision.commit}^{{commit}}")
    except Unavailable as exc:
        raise Unavailable(
            f"commit {revision.short} ({revision.what}) is not in this clone (a shallow clone? "
            f"`git fetch --unshallow`): {exc}"
        ) from None


def _build(revision: Revision) -> Path:
    """The directory holding the revision's ``solver.py`` and built ``_fastsolve`` (made once, then reused)."""
    flags = compile_args()
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    key = "\n".join([revision.commit, *flags, sys.version, suffix]).encode()
    out = Path(tempfile.gettempdir()) / f"steward-rr-{revision.commit[:12]}-{hashlib.sha256(key).hexdigest()[:12]}"
    if (out / "solver.py").exists() and (out / f"_fastsolve{suffix}").exists():
        return out
    _check_commit(revision)
    archive = _git("archive", "--format=tar", revision.commit, f"{PACKAGE}/solver.py", f"{PACKAGE}/_fastsolve.c")
    work = Path(tempfile.mkdtemp(prefix=f"steward-rr-{revision.short}-"))
    try:
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:") as tar:
            tar.extractall(work, filter="data")
        from setuptools import Distribution, Extension  # build_ext: the compiler and flags of setup.py's builds

        source = work / PACKAGE / "_fastsolve.c"
        dist = Distribution({"ext_modules": [Extension("_fastsolve", [str(source)], extra_compile_args=flags)]})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(work / "lib")
        cmd.build_temp = str(work / "tmp")
        cmd.ensure_finalized()
        try:
            cmd.run()
        except Exception as exc:  # distutils' CompileError / LinkError, or no compiler at all
            raise Unavailable(f"the C module of {revision.short} does not build here (no C compiler?): {exc}") from None
        shutil.move(str(work / PACKAGE / "solver.py"), work / "solver.py")
        shutil.move(str(work / "lib" / f"_fastsolve{suffix}"), work / f"_fastsolve{suffix}")
        try:
            os.rename(work, out)  # atomic: another process building the same revision keeps its own copy
        except OSError:
            if not (out / "solver.py").exists():
                raise
            return out
        work = out
        return out
    finally:
        if work != out:
            shutil.rmtree(work, ignore_errors=True)


def _import_file(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load(revision: Revision) -> Engine:
    """The engine of ``revision`` (loaded once per process); raises ``Unavailable``."""
    got = _LOADED.get(revision.commit)
    if got is None:
        where = _build(revision)
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        tag = f"rr_rev_{revision.commit[:12]}"
        fast = _import_file(f"{tag}._fastsolve", where / f"_fastsolve{suffix}")
        solver = _import_file(f"{tag}_solver", where / "solver.py")
        solver._fast_module = lambda: fast  # type: ignore[attr-defined]  # the revision's C module, not today's
        got = _LOADED[revision.commit] = Engine(revision, solver, fast)
    return got


def support_changes(revision: Revision) -> list[str]:
    """The files of ``SUPPORT`` whose revision differs from today's working tree (its solver runs on today's)."""
    changed = []
    for name in SUPPORT:
        then = _git("show", f"{revision.commit}:{PACKAGE}/{name}")
        if then != (ROOT / PACKAGE / name).read_bytes():
            changed.append(name)
    return changed
