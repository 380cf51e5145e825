"""The house's counts (issue 48): the same script measures any checkout, so "before" and "after" are comparable.

    python -m scripts.house_counts                    # this checkout
    python -m scripts.house_counts --root /tmp/old    # another checkout (e.g. ``git worktree add /tmp/old <rev>``)
    python -m scripts.house_counts --runtime          # also run the measures that start Python (memory, transactions)

Static counts read the source with ``ast`` (comments and docstrings never count):

* helper signatures taking ``session``: functions and methods in ``bot/services`` with a parameter named ``session``;
* raw sessions in services: the expression ``uc.session`` in ``bot/services`` (a block that takes the transaction
  itself instead of the use case's repositories);
* ruleset parses outside ``uc.rules``: calls of ``load_ruleset`` in ``bot/`` outside ``bot/rules`` and outside the
  use case's own ``rules`` property;
* ``assert … is not None`` in ``bot/``;
* ``.value`` comparisons in ``bot/``: comparisons with an operand (or an element of a tuple, list or set operand)
  that is an attribute named ``value``;
* lines of copied solver: the lines of ``benchmarks/rr_reference`` and ``benchmarks/rr_baseline``;
* ``sys.path`` inserts: calls of ``sys.path.insert``/``append`` in ``bot``, ``tests``, ``benchmarks``, ``scripts``;
* shipped model bytes: the rules desk's learned files under ``bot/rules/rulebook``.

Runtime measures (``--runtime``), each in a fresh interpreter whose working directory is the checkout:

* transactions per ``/sanction give`` + Confirm: ``scripts/house_counts_sanction.py`` of THIS checkout run against the
  measured checkout's code (it uses public service methods only);

The bot's memory after start-up is measured by the benchmarks that start the real bot: ``python -m
benchmarks.rules_desk --memory`` (HEAD's revision and the work tree in one run) and ``python -m
benchmarks.first_command --memory``.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def _files(root: Path, *folders: str) -> Iterator[tuple[Path, ast.Module]]:
    for folder in folders:
        base = root / folder
        if not base.exists():
            continue
        for path in sorted(base.rglob("*.py")):
            if any(part in {".venv", "__pycache__", "build"} for part in path.parts):
                continue
            try:
                yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            except SyntaxError:
                continue


def _is_value_attr(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute) and node.attr == "value":
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_value_attr(e) for e in node.elts)
    return False


def _is_sys_path(node: ast.expr) -> bool:
    return ast.unparse(node) == "sys.path"


def _is_not_none_assert(node: ast.Assert) -> bool:
    for sub in ast.walk(node.test):
        if isinstance(sub, ast.Compare):
            for op, right in zip(sub.ops, sub.comparators, strict=True):
                if isinstance(op, ast.IsNot) and isinstance(right, ast.Constant) and right.value is None:
                    return True
    return False


def static_counts(root: Path) -> dict[str, int]:
    counts = {
        "helper signatures taking session (bot/services)": 0,
        "uc.session in bot/services": 0,
        "ruleset parses outside uc.rules (bot/)": 0,
        "assert ... is not None (bot/)": 0,
        ".value comparisons (bot/)": 0,
        "lines of copied solver (benchmarks/rr_*)": 0,
        "sys.path inserts": 0,
        "shipped model bytes (bot/rules/rulebook)": 0,
    }
    for path, tree in _files(root, "bot"):
        rel = path.relative_to(root).as_posix()
        in_services = rel.startswith("bot/services/")
        for node in ast.walk(tree):
            if in_services and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                if any(a.arg == "session" for a in args):
                    counts["helper signatures taking session (bot/services)"] += 1
            if (in_services and isinstance(node, ast.Attribute) and node.attr == "session"
                    and isinstance(node.value, ast.Name) and node.value.id == "uc"):  # fmt: skip
                counts["uc.session in bot/services"] += 1
            if isinstance(node, ast.Call) and not rel.startswith("bot/rules/"):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name == "load_ruleset":
                    counts["ruleset parses outside uc.rules (bot/)"] += 1
            if isinstance(node, ast.Assert) and _is_not_none_assert(node):
                counts["assert ... is not None (bot/)"] += 1
            if isinstance(node, ast.Compare) and any(_is_value_attr(x) for x in [node.left, *node.comparators]):
                counts[".value comparisons (bot/)"] += 1
        if rel == "bot/services/_base.py":  # the use case's own parse is the one allowed
            counts["ruleset parses outside uc.rules (bot/)"] -= sum(
                1 for node in ast.walk(tree) if isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", "")) == "load_ruleset"
            )  # fmt: skip
    for folder in ("benchmarks/rr_reference", "benchmarks/rr_baseline"):
        for path in sorted((root / folder).rglob("*")) if (root / folder).exists() else []:
            if path.is_file() and path.suffix in {".py", ".c", ".h"}:
                counts["lines of copied solver (benchmarks/rr_*)"] += len(path.read_text(encoding="utf-8").splitlines())
    for _path, tree in _files(root, "bot", "tests", "benchmarks", "scripts"):
        for node in ast.walk(tree):
            called = node.func if isinstance(node, ast.Call) else None
            if (
                isinstance(called, ast.Attribute)
                and called.attr in {"insert", "append"}
                and ast.unparse(called.value) == "sys.path"
            ):
                counts["sys.path inserts"] += 1
    rulebook = root / "bot" / "rules" / "rulebook"
    for path in sorted(rulebook.rglob("*")) if rulebook.exists() else []:
        if path.is_file() and (path.suffix in {".gz", ".npz", ".npy", ".bin", ".pkl"} or ("learned" in path.parts
                               and path.suffix not in {".py", ".pyc"})):  # fmt: skip
            counts["shipped model bytes (bot/rules/rulebook)"] += path.stat().st_size
    return counts


def _run(root: Path, module: str) -> dict[str, object]:
    """Run one of this checkout's measuring modules in a fresh interpreter against ``root``'s code."""
    script = HERE / Path(*module.split(".")).with_suffix(".py")
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "HOME": "/tmp"}
    result = subprocess.run([sys.executable, str(script), "--json"], cwd=root, env=env, capture_output=True,
                            text=True, timeout=600, check=False)  # fmt: skip
    if result.returncode != 0:
        return {"error": (result.stderr or result.stdout).strip().splitlines()[-1:]}
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The house's counts of issue 48, for any checkout.")
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to measure (default: this one)")
    parser.add_argument("--runtime", action="store_true", help="also measure memory and transactions (slower)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    out: dict[str, object] = dict(static_counts(root))
    if args.runtime:
        out["transactions per /sanction give + Confirm"] = _run(root, "scripts.house_counts_sanction")
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"# {root}")
        for key, value in out.items():
            print(f"{key:55} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
