"""``steward`` — the command line: the bot, the database, the demo and the offline engine tools.

Engine tools live in ``bot/tools/<area>.py``; each exposes ``register(subparsers)`` adding its own
subcommand(s) with ``func`` set to a callable ``(args) -> int``. Heavy imports (discord, the database)
happen inside the command functions, so ``steward rr solve`` never loads discord.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import re
import sys
from collections.abc import Sequence

TOOL_MODULES: tuple[str, ...] = (
    "bot.tools.rr",
    "bot.tools.risiko",
    "bot.tools.tournament",
    "bot.tools.season",
    "bot.tools.render",
    "bot.tools.rule",
    "bot.tools.paper",
    "bot.tools.export",
)


def package_version() -> str:
    """The installed distribution's version; the package's own ``__version__`` when it is not installed."""
    import bot

    return bot.installed_version()


class _Version(argparse.Action):
    """``--version``: the version, plus ``(git <describe>)`` from a git checkout; git is asked only when called."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        import bot

        print(f"{parser.prog} {bot.version_text()}")
        parser.exit()


def _cmd_run(args: argparse.Namespace) -> int:
    from bot.launch import run_bot

    return run_bot()


def _cmd_doctor(args: argparse.Namespace) -> int:
    """``steward doctor`` (bot/tools/doctor.py): what the bot asks of Discord is read here, from the cogs' bot and
    /setup's permission list (the one list), and handed down to the checks."""
    from typing import Any, cast

    import discord

    from bot.cogs._bot import StewardBot
    from bot.cogs.setup.permissions import NEEDED, invite_permissions, missing
    from bot.settings import get_settings
    from bot.tools.doctor import PRIVILEGED_INTENTS, Needs, run_doctor

    def lacking(value: int) -> list[str]:  # /setup's own check, on a server's permissions integer
        return [n.label for n in missing(discord.Permissions(value), None)[0]]

    settings = get_settings()
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice warnings: the bot is only built
    intents = StewardBot(settings, cast(Any, None)).intents  # built, never connected: the intents it will ask for
    needs = Needs(privileged_intents=tuple(n for n in PRIVILEGED_INTENTS if getattr(intents, n)),
                  permissions=invite_permissions().value, permission_names=tuple(n.label for n in NEEDED),
                  lacking=lacking)  # fmt: skip
    return run_doctor(settings, needs, online=not args.offline, out=_say)


def _cmd_db_upgrade(args: argparse.Namespace) -> int:
    from bot.db.backup import DatabaseLock
    from bot.db.migrate import upgrade_to_head
    from bot.settings import get_settings

    settings = get_settings()
    with DatabaseLock(settings.database_url, command="db upgrade"):  # shared, like a bot's: no restore meanwhile
        result = upgrade_to_head(settings.database_url)
    where = settings.safe_database_url()
    if result.backup is not None:
        print(f"backup of revision {result.before} written to {result.backup}")
    if not result.changed:
        print(f"{where} already at revision {result.after}: nothing to do")
    elif result.before is None:
        print(f"created {len(result.created_tables)} tables at revision {result.after} in {where}")
    else:
        print(
            f"upgraded {where} from revision {result.before} to {result.after}"
            f" ({len(result.created_tables)} new tables)"
        )
    return 0


def _cmd_db_backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bot.db import backup
    from bot.settings import get_settings

    settings = get_settings()
    target = Path(args.path)
    try:
        source = backup.sqlite_file(settings.database_url)
        if source is None:
            backup.backup_postgres(settings.database_url, target)
            print(f"backup of {settings.safe_database_url()} written to {target} (pg_dump, custom format)")
            return 0
        done = backup.backup_sqlite(source, target)
    except backup.BackupError as exc:
        sys.stderr.write(f"error: {mask_secrets(str(exc))[:300]}\n")
        return exc.code
    print(
        f"backup of {source} at revision {done.revision} written to {done.path}"
        f" ({done.tables} tables, {done.rows} rows; integrity check ok)"
    )
    return 0


def _cmd_db_restore(args: argparse.Namespace) -> int:
    """Refused while the bot runs (its lock); a backup of an older revision comes back with its own schema, and the
    last line says how to bring it forward (not done here: going back to an older version of the bot is one
    reason to restore an older backup)."""
    from pathlib import Path

    from bot.db import backup
    from bot.db.migrate import revisions
    from bot.settings import get_settings

    settings = get_settings()
    source = Path(args.path)
    known = revisions()
    try:
        target = backup.sqlite_file(settings.database_url)
        if target is None:
            restored = backup.restore_postgres(settings.database_url, source, known_revisions=known)
            where, how = settings.safe_database_url(), " (pg_restore and psql, one transaction)"
            kept, revision, tables, rows = restored.kept, restored.revision, restored.tables, restored.rows
        else:
            done, kept = backup.restore_sqlite(source, target, known_revisions=known)
            where, how = str(target), ""
            revision, tables, rows = str(done.revision), done.tables, done.rows
    except backup.BackupError as exc:
        sys.stderr.write(f"error: {mask_secrets(str(exc))[:300]}\n")
        return exc.code
    if kept is not None:
        print(f"the database it replaced is kept as {kept}")
    print(f"restored {where} from {source}{how}: revision {revision}, {tables} tables, {rows} rows")
    if revision != known[-1]:
        print(f"the database is now at revision {revision}; this version's newest is {known[-1]}: run 'steward db "
              "upgrade' (or start the bot) to bring it forward")  # fmt: skip
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from bot.demo import run_demo

    web = args.port if args.web else None
    if args.format == "club":  # the club championship (issue 47), played by its own module
        from bot.demo_club import run_club_demo

        return int(run_club_demo(output_dir=args.output, keep_database=args.keep_db, locale=args.locale, web_port=web))
    return int(run_demo(output_dir=args.output, keep_database=args.keep_db, locale=args.locale, format=args.format,
                        web_port=web))  # fmt: skip


def _cmd_web(args: argparse.Namespace) -> int:
    """``steward web``: the venue pages of DATABASE_URL, alone (docs/cli.md)."""
    import asyncio

    from bot import metrics
    from bot.db.migrate import upgrade_to_head
    from bot.db.session import make_engine, make_sessionmaker
    from bot.services import Services
    from bot.settings import get_settings
    from bot.web.app import serve_until_stopped
    from bot.web.health import HealthProbe, database_checks

    settings = get_settings()
    upgrade_to_head(settings.database_url)

    async def serve() -> int:
        engine = make_engine(settings.database_url)
        metrics.watch_engine(engine)
        try:
            services = Services(make_sessionmaker(engine))
            return await serve_until_stopped(services.venue, host=args.host, port=args.port,
                                             base_url=settings.web_base_url, announce=_say,
                                             probe=HealthProbe(database_checks(services)))  # fmt: skip
        finally:
            await engine.dispose()

    return asyncio.run(serve())


def _say(line: str) -> None:
    print(line, flush=True)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="steward",
        description="Tournament Steward: a Discord bot and offline tools for RisiKo! and Ricochet Robots tournaments.",
        epilog="Every command's input and output: docs/cli.md (examples in docs/examples/).",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details to standard error")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p_run = sub.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    p_run.set_defaults(func=_cmd_run)

    p_doctor = sub.add_parser("doctor", help="check the token, intents, invite, database, port, fonts and engines")
    p_doctor.add_argument("--offline", action="store_true", help="judge the token's shape only; do not ask Discord")
    p_doctor.set_defaults(func=_cmd_doctor)

    p_db = sub.add_parser("db", help="database maintenance")
    db_sub = p_db.add_subparsers(dest="db_command", metavar="ACTION")
    p_up = db_sub.add_parser("upgrade", help="apply migrations to DATABASE_URL (default: the embedded SQLite file)")
    p_up.set_defaults(func=_cmd_db_upgrade)
    p_backup = db_sub.add_parser(
        "backup", help="a consistent copy of the database while the bot runs (SQLite: online backup API; "
        "PostgreSQL: pg_dump)",
    )  # fmt: skip
    p_backup.add_argument("path", help="the new file to write (an existing file is never overwritten)")
    p_backup.set_defaults(func=_cmd_db_backup)
    p_restore = db_sub.add_parser(
        "restore", help="replace the database with a backup (stop the bot first; SQLite keeps the replaced file)"
    )
    p_restore.add_argument("path", help="a file written by 'steward db backup' (or an upgrade's .bak)")
    p_restore.set_defaults(func=_cmd_db_restore)

    def _db_help(args: argparse.Namespace) -> int:
        p_db.print_help()
        return 2

    p_db.set_defaults(func=_db_help)

    p_demo = sub.add_parser("demo", help="a tournament offline on a temporary embedded database")
    p_demo.add_argument("--output", "-o", default="demo-output", help="folder for the images (default: demo-output)")
    p_demo.add_argument("--keep-db", action="store_true", help="keep the temporary SQLite file and print its path")
    p_demo.add_argument("--locale", choices=["it", "en"], default="en", help="language of the summary")
    p_demo.add_argument(
        "--format",
        choices=["italian", "knockout", "teams", "club"],
        default="italian",
        help="italian: ARB qualifying rounds, semifinals and final (default); knockout: NP, 100 players to the "
        "champion; teams: NP, six teams of four; club: a club championship over five evenings, with discards",
    )
    p_demo.add_argument("--web", action="store_true", help="then serve the demo tournament's venue pages on loopback")
    p_demo.add_argument("--port", type=int, default=8080, help="the venue pages' port with --web (default: 8080)")
    p_demo.set_defaults(func=_cmd_demo)

    p_web = sub.add_parser("web", help="the venue pages (read-only, live) of the database at DATABASE_URL")
    p_web.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, loopback)")
    p_web.add_argument("--port", type=int, default=8080, help="port to listen on (default: 8080)")
    p_web.set_defaults(func=_cmd_web)

    for module_name in TOOL_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        module.register(sub)
    return parser


def mask_secrets(text: str) -> str:
    """Any ``scheme://user:password@`` in ``text`` with the password replaced by ``***``."""
    return re.sub(r"(://[^:/@\s]*):[^@\s]*@", r"\1:***@", text)


def _database_where() -> str:
    return mask_secrets(os.environ.get("DATABASE_URL", "the default SQLite file"))


def start_up_failure(exc: BaseException) -> tuple[str, int] | None:
    """A configuration or database failure as (one line with secrets masked, exit code): 2 for a setting to fix,
    1 for a database that cannot be reached or written; None for anything else (a bug: the traceback stays)."""
    from pydantic import ValidationError
    from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError

    from bot.db.backup import BackupError
    from bot.launch import DiscordStartFailure

    if isinstance(exc, DiscordStartFailure | BackupError):  # BackupError: a full disk, a restore in progress, …
        return mask_secrets(str(exc))[:300], exc.code
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        field = ".".join(str(x) for x in first.get("loc", ())).upper() or "settings"
        return f"configuration: {field} is not valid ({mask_secrets(str(first.get('msg', '')))[:160]})", 2
    if isinstance(exc, ArgumentError):
        return f"configuration: DATABASE_URL is not a database URL ({mask_secrets(str(exc))[:160]})", 2
    if isinstance(exc, OperationalError | DBAPIError):
        reason = mask_secrets(str(exc.orig) if exc.orig is not None else str(exc)).splitlines()[0][:200]
        return f"the database at {_database_where()} refused: {reason}", 1
    if isinstance(exc, ConnectionError | TimeoutError | OSError) and not isinstance(exc, BrokenPipeError):
        return f"cannot reach the database at {_database_where()}: {mask_secrets(str(exc))[:200]}", 1
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = int(func(args))
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not as an "Exception ignored" at exit
        return code
    except BrokenPipeError:
        # The reader closed the pipe early (e.g. `steward draw ... | head`): not an error worth a traceback. (Before
        # the clause below, which would catch it first: BrokenPipeError is an Exception.)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:
        known = start_up_failure(exc)
        if known is None:
            raise
        message, code = known
        sys.stderr.write(f"error: {message}\n")
        return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
