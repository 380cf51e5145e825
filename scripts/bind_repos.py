"""Write ``bot/db/repo/bound.py``: every query of ``bot.db.repo`` bound to one use case's session and server.

A query is a module function taking a keyword-only ``session`` (and, for a server's rows, ``guild_id``). A use case
calls it through its context instead — ``await uc.sanctions.by_case(7)`` — so a service never carries the session or
the server id around. The bound classes are generated from the queries' own signatures, so they cannot drift:
``tests/db/test_bound_repos.py`` fails when the file differs from what this script writes.

Run from the repository root: ``python -m scripts.bind_repos`` (``--check`` exits 1 when the file is stale).
"""

from __future__ import annotations

import argparse
import builtins
import importlib
import inspect
import keyword
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

TARGET = Path(__file__).resolve().parents[1] / "bot" / "db" / "repo" / "bound.py"

# area on the use case -> (module, prefix stripped from the names); core's queries are spread over their areas below
AREAS: dict[str, tuple[str, str]] = {
    "calls": ("calls", ""),
    "clocks": ("clocks", ""),
    "members": ("members", ""),
    "registrations": ("registrations", "registration_"),
    "reminders": ("reminders", ""),
    "reports": ("reports", ""),
    "rounds": ("rounds", ""),
    "rulebook": ("rulebook", ""),
    "sanctions": ("sanctions", "sanction_"),
    "schedules": ("schedules", ""),
    "seasons": ("seasons", "season_"),
    "tournaments": ("tournaments", "tournament_"),
    "venue": ("venue", "venue_"),
    "health": ("health", ""),
}
# bot.db.repo.core's queries: (area, name on the area)
CORE: dict[str, tuple[str, str]] = {
    "get_guild_config": ("guild", "config"),
    "get_or_create_guild_config": ("guild", "config_or_create"),
    "add_audit": ("guild", "add_audit"),
    "list_audit": ("guild", "audit_entries"),
    "get_tournament_by_name": ("tournaments", "by_name"),
    "list_tournaments": ("tournaments", "listed"),
    "lock_tournament": ("tournaments", "lock"),
    "get_registration_for_user": ("registrations", "for_user"),
    "get_registration_by_name": ("registrations", "by_name"),
    "count_active_registrations": ("registrations", "count_active"),
    "list_registrations": ("registrations", "listed"),
    "group_spellings": ("registrations", "group_spellings"),
}
CLASS_NAMES = {area: "".join(part.title() for part in area.split("_")) + "Queries" for area in [*AREAS, "guild"]}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _queries() -> dict[str, list[tuple[str, Callable[..., Any]]]]:
    """area -> [(bound name, query)], sorted by bound name."""
    by_area: dict[str, list[tuple[str, Callable[..., Any]]]] = {area: [] for area in CLASS_NAMES}
    for area, (module_name, prefix) in AREAS.items():
        module = importlib.import_module(f"bot.db.repo.{module_name}")
        for name in module.__all__:
            fn = getattr(module, name)
            if not inspect.iscoroutinefunction(fn) or "session" not in inspect.signature(fn).parameters:
                continue
            short = name.removeprefix(prefix) if name != prefix.rstrip("_") else name
            if keyword.iskeyword(short) or hasattr(builtins, short) or not short:
                short = name
            by_area[area].append((short, fn))
    core = importlib.import_module("bot.db.repo.core")
    for name, (area, short) in CORE.items():
        by_area[area].append((short, getattr(core, name)))
    missing = [n for n, f in vars(core).items() if inspect.iscoroutinefunction(f) and f.__module__ == core.__name__
               and n not in CORE]  # fmt: skip
    if missing:
        raise SystemExit(f"bot.db.repo.core queries without an area in scripts/bind_repos.py: {missing}")
    for area, items in by_area.items():
        names = [n for n, _ in items]
        if len(names) != len(set(names)):
            raise SystemExit(f"two queries of area {area} bind to one name: {sorted(names)}")
        items.sort(key=lambda item: item[0])
    return by_area


def _imports(fns: list[Callable[..., Any]]) -> dict[str, set[str]]:
    """module -> names the annotations need."""
    needed: dict[str, set[str]] = {}
    for fn in fns:
        globals_ = fn.__globals__
        sig = inspect.signature(fn)
        texts = [str(p.annotation) for p in sig.parameters.values()] + [str(sig.return_annotation)]
        for text in texts:
            for ident in IDENT.findall(text):
                if ident in {"None", "AsyncSession"} or hasattr(builtins, ident):
                    continue
                obj = globals_.get(ident)
                if obj is None:
                    raise SystemExit(f"{fn.__module__}.{fn.__name__}: cannot resolve {ident!r} in its annotations")
                module = getattr(obj, "__module__", None) or fn.__module__
                if getattr(sys.modules.get(module), ident, None) is not obj:
                    module = fn.__module__  # an alias the query's module defines (``Instant``)
                needed.setdefault(module, set()).add(ident)
    return needed


def _method(short: str, fn: Callable[..., Any]) -> str:
    sig = inspect.signature(fn)
    params = [p for p in sig.parameters.values() if p.name not in {"session", "guild_id"}]
    binds_guild = "guild_id" in sig.parameters
    required = [p for p in params if p.default is inspect.Parameter.empty]
    optional = [p for p in params if p.default is not inspect.Parameter.empty]
    parts = ["self"]
    for p in required + optional:
        text = f"{p.name}: {p.annotation}"
        if p.default is not inspect.Parameter.empty:
            text += f" = {p.default!r}"
        parts.append(text)
    args = ["session=self._session"] + (["guild_id=self._guild_id"] if binds_guild else [])
    args += [f"{p.name}={p.name}" for p in params]
    doc = inspect.getdoc(fn)
    first = doc.splitlines()[0] if doc else f"``{fn.__module__}.{fn.__name__}``."
    head = f"    async def {short}({', '.join(parts)}) -> {sig.return_annotation}:"
    lines = [head]  # ruff format wraps it
    where = f"``{fn.__module__.rsplit('.', 1)[1]}.{fn.__name__}``"
    lines.append(f'        """{where}: {first.rstrip()}"""' if doc and len(first) < 70 else f'        """{where}."""')
    lines.append(f"        return await {fn.__module__.rsplit('.', 1)[1]}.{fn.__name__}({', '.join(args)})")
    return "\n".join(lines)


def render() -> str:
    by_area = _queries()
    fns = [fn for items in by_area.values() for _, fn in items]
    imports = _imports(fns)
    modules = sorted({fn.__module__.rsplit(".", 1)[1] for fn in fns})
    out = [
        '"""Every query of ``bot.db.repo`` bound to one use case\'s session and server (``uc.sanctions.by_case(7)``).',
        "",
        "Generated by ``python -m scripts.bind_repos`` from the queries' signatures; do not edit by hand (a test",
        'compares this file with what the script writes)."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import TYPE_CHECKING",
        "",
        "from sqlalchemy.ext.asyncio import AsyncSession",
        "",
        f"from bot.db.repo import {', '.join(modules)}",
        "",
        "if TYPE_CHECKING:",
    ]
    for module in sorted(imports):
        out.append(f"    from {module} import {', '.join(sorted(imports[module]))}")
    out += ["", "", "class _Bound:", '    __slots__ = ("_guild_id", "_session")', "",
            "    def __init__(self, session: AsyncSession, guild_id: int) -> None:",
            "        self._session = session", "        self._guild_id = guild_id"]  # fmt: skip
    for area in sorted(by_area):
        out += ["", "", f"class {CLASS_NAMES[area]}(_Bound):", f'    """The {area} queries of one use case."""', "",
                '    __slots__ = ()']  # fmt: skip
        for short, fn in by_area[area]:
            out += ["", _method(short, fn)]
    out += ["", "", "class Repositories:",
            '    """One use case\'s repositories, one per area, bound to its session and server."""', "",
            "    def __init__(self, session: AsyncSession, guild_id: int) -> None:"]  # fmt: skip
    for area in sorted(by_area):
        out.append(f"        self.{area} = {CLASS_NAMES[area]}(session, guild_id)")
    text = "\n".join(out) + "\n"
    for command in (["ruff", "check", "--select", "I", "--fix", "--quiet"], ["ruff", "format", "--quiet"]):
        text = subprocess.run([*command, "--stdin-filename", str(TARGET), "-"], input=text, text=True,
                              capture_output=True, check=True).stdout  # fmt: skip
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 when bot/db/repo/bound.py is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is stale: run python -m scripts.bind_repos", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
