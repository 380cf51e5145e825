"""The house's rules that import-linter cannot state (docs/architecture.md): every query lives in ``bot/db/repo``,
every use case opens its transaction through the one use-case context, and no two files import each other in a
loop. Each test names what it found, file and line, so a breach is fixed where it is."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "bot"

# What a module outside the database layer may take from SQLAlchemy: types and errors, never a statement.
SQLALCHEMY_ALLOWED = {
    "sqlalchemy.exc",  # IntegrityError: a constraint said no
    "sqlalchemy.ext.asyncio",  # AsyncSession as a type
    "sqlalchemy.engine",  # make_url: reading a DATABASE_URL
}
# Session calls that run a statement written outside the repo. The unit of work's own calls stay with the use
# case: ``add``/``delete`` a row, ``flush``, and ``get`` a row by its primary key (a row already found in the
# server's scope: the repo's queries filter on guild_id).
STATEMENT_CALLS = re.compile(r"\b(?:session|uc\.session)\.(?:execute|scalars?|scalar_one|stream)\(")

# Transactions deliberately outside the use-case context, and why.
SESSIONS_BY_HAND = {
    "bot/services/_base.py": "the use-case context itself (BaseService.run)",
    "bot/services/deliveries.py": "the reminder runner serves every server: claim, renew and confirm are separate, "
    "short transactions the crash test depends on",
}


def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_query_lives_in_the_repo():
    """No statement is built or run outside ``bot/db``: services, cogs, the scheduler and the tools ask the repo."""
    found: list[str] = []
    for path in _python_files(BOT):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("bot/db/"):
            continue
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "sqlalchemy":
                if node.module not in SQLALCHEMY_ALLOWED:
                    found.append(f"{rel}:{node.lineno} imports {node.module}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in ("sqlalchemy", "sqlmodel"):
                        found.append(f"{rel}:{node.lineno} imports {alias.name}")
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "sqlmodel":
                found.append(f"{rel}:{node.lineno} imports {node.module}")
        for number, line in enumerate(text.splitlines(), start=1):
            if STATEMENT_CALLS.search(line):
                found.append(f"{rel}:{number} runs SQL: {line.strip()[:80]}")
    assert not found, "SQL outside bot/db/repo:\n" + "\n".join(found)


def test_no_service_method_opens_a_session_by_hand():
    """Every use case starts with ``self.run(...)`` (one transaction, the role, the tournament, the audit)."""
    found = []
    for path in _python_files(BOT / "services"):
        rel = path.relative_to(ROOT).as_posix()
        if rel in SESSIONS_BY_HAND:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if "_sessionmaker()" in line or ".begin()" in line:
                found.append(f"{rel}:{number}: {line.strip()[:80]}")
    assert not found, "sessions opened by hand:\n" + "\n".join(found)


def test_no_two_files_import_each_other_in_a_loop():
    """Zero import circles between files (imports made only for type checking excepted: they never run)."""
    graph = grimp.build_graph("bot", "renderer", exclude_type_checking_imports=True)
    circles = set()
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            chain = graph.find_shortest_chain(importer=imported, imported=module)
            if chain is not None:
                circles.add(" -> ".join((module, *chain)))
    assert not circles, "import circles:\n" + "\n".join(sorted(circles))
