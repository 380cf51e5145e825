"""Issue #48, "Conventions as tools": the house's layout, checked rather than remembered.

* Nothing edits ``sys.path``: the tests, the benchmarks and the scripts are one importable tree, run from the
  repository root (``python -m pytest``, ``python -m benchmarks.wire``, ``python -m scripts.certify_draws``).
* The benchmarks, the scripts and the shared test support import only ``tests.support`` from the tests — never a
  test module (``test_*``) or a ``conftest``, whose contents change with the tests they serve."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NO_SYS_PATH = ("tests", "benchmarks", "scripts", "bot")
NO_TEST_IMPORTS = ("benchmarks", "scripts", "tests/support")


def sources(*folders: str) -> Iterator[tuple[str, ast.Module]]:
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            yield rel, ast.parse(path.read_text(encoding="utf-8"), filename=rel)


def sys_path_edits(tree: ast.Module) -> list[int]:
    """Lines calling ``sys.path.<insert|append|extend>`` (or ``path.insert`` after ``from sys import path``)."""
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in ("insert", "append", "extend"):
            continue
        target = node.func.value
        if (isinstance(target, ast.Attribute) and target.attr == "path" and isinstance(target.value, ast.Name)
                and target.value.id == "sys"):  # fmt: skip
            lines.append(node.lineno)
    return lines


def imported_modules(tree: ast.Module) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            for alias in node.names:  # ``from tests.web import test_x``: the module is a name
                yield node.lineno, f"{node.module}.{alias.name}"


def is_test_module(module: str) -> bool:
    parts = module.split(".")
    return parts[0] == "tests" and any(p.startswith("test_") or p == "conftest" for p in parts[1:])


def test_issue_48_nothing_in_the_repository_edits_sys_path() -> None:
    """Issue #48: no ``sys.path.insert``/``append`` in tests/, benchmarks/, scripts/ or bot/ — run them as modules
    from the repository root instead."""
    found = [f"{rel}:{line}" for rel, tree in sources(*NO_SYS_PATH) for line in sys_path_edits(tree)]
    assert found == [], "sys.path edited (run as `python -m benchmarks.x` / `scripts.x` instead): " + ", ".join(found)


def test_issue_48_benchmarks_scripts_and_the_support_package_import_no_test_module_or_conftest() -> None:
    """Issue #48: what benchmarks/, scripts/ and tests/support/ share with the tests lives in tests/support/; they
    import no ``tests/**/test_*.py`` and no ``conftest``."""
    found = [
        f"{rel}:{line} imports {module}"
        for rel, tree in sources(*NO_TEST_IMPORTS)
        for line, module in imported_modules(tree)
        if is_test_module(module)
    ]
    assert found == [], "move what is shared into tests/support/: " + "; ".join(found)


def test_issue_48_the_checks_see_what_they_look_for() -> None:
    """The two checks above find a ``sys.path`` edit and a test-module import when there is one."""
    tree = ast.parse(
        "import sys\nsys.path.insert(0, '.')\nsys.path.append('x')\n"
        "from tests.web import test_web_limits_descriptors as fds\nfrom tests.wire.conftest import Wire\n"
        "import tests.cogs.test_rounds\nfrom tests.support.helpers import Harness\n"
    )
    assert sys_path_edits(tree) == [2, 3]
    hits = sorted({m for _, m in imported_modules(tree) if is_test_module(m)})
    assert hits == [
        "tests.cogs.test_rounds",
        "tests.web.test_web_limits_descriptors",
        "tests.wire.conftest",
        "tests.wire.conftest.Wire",
    ]
