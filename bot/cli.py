"""``steward`` — the command line: the bot, the database, the demo and the offline engine tools.

Engine tools live in ``bot/tools/<area>.py``; each exposes ``register(subparsers)`` adding its own
subcommand(s) with ``func`` set to a callable ``(args) -> int``. Heavy imports (discord, the database)
happen inside the command functions, so ``steward rr solve`` never loads discord.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import os
import re
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.services.venue import VenueLink, VenueService

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
    """A new file; its folder (and the folders above it) made when missing (issue 44)."""
    from bot.db import backup
    from bot.settings import get_settings

    settings = get_settings()
    target = Path(args.path)
    writable_folder(target.parent, option="PATH")  # the documented `steward db backup backups/…` on a new clone
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
    reason to restore an older backup). ``steward web`` holds the same lock: a restore under it is refused too."""
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
    """The output folder and, with ``--web``, the port are checked before the demo plays (issue 44): a busy port
    or a folder that cannot be written fails in a second with one line, not after the whole tournament."""
    from bot.demo import run_demo

    web = args.port if args.web else None
    writable_folder(Path(args.output), option="--output")
    if web is not None:
        check_port(DEMO_HOST, web)
    try:
        if args.format == "club":  # the club championship (issue 47), played by its own module
            from bot.demo_club import run_club_demo

            return int(run_club_demo(output_dir=args.output, keep_database=args.keep_db, locale=args.locale,
                                     web_port=web))  # fmt: skip
        return int(run_demo(output_dir=args.output, keep_database=args.keep_db, locale=args.locale,
                            format=args.format, web_port=web))  # fmt: skip
    except OSError as exc:
        if web is not None and exc.errno == errno.EADDRINUSE:  # taken while the demo played
            raise port_refused(DEMO_HOST, web, exc) from exc
        raise


def _cmd_web(args: argparse.Namespace) -> int:
    """``steward web``: the venue pages of DATABASE_URL, alone (docs/cli.md). It holds the database's lock shared,
    as a bot does, so ``steward db restore`` is refused while it serves (issue 44); the port is checked first; with
    no tournament yet it says so, and what it serves, rather than print nothing."""
    import asyncio

    from bot import metrics
    from bot.db.backup import DatabaseLock
    from bot.db.migrate import upgrade_to_head
    from bot.db.session import make_engine, make_sessionmaker
    from bot.services import Services
    from bot.settings import get_settings
    from bot.web.app import serve_until_stopped
    from bot.web.health import HealthProbe, database_checks

    settings = get_settings()
    check_port(args.host, args.port)
    where = settings.safe_database_url()
    shown = settings.web_base_url or _http_url(args.host, args.port)

    def empty() -> None:
        _say(f"no tournament in {where} yet: serving {shown} anyway (GET /healthz answers). Once one is "
             "created (/tournament create in Discord), /venue link posts its page; to see a page now: steward demo "
             "--web")  # fmt: skip

    async def serve() -> int:
        engine = make_engine(settings.database_url)
        metrics.watch_engine(engine)
        try:
            services = Services(make_sessionmaker(engine))
            venue: Any = _SaysWhenEmpty(services.venue, empty)  # serve_until_stopped lists the pages once listening
            return await serve_until_stopped(venue, host=args.host, port=args.port,
                                             base_url=settings.web_base_url, announce=_say,
                                             probe=HealthProbe(database_checks(services)))  # fmt: skip
        finally:
            await engine.dispose()

    with DatabaseLock(settings.database_url, command="web"):  # shared, like a bot's: no restore under the pages
        upgrade_to_head(settings.database_url)
        try:
            return asyncio.run(serve())
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:  # taken between the check and the listening
                raise port_refused(args.host, args.port, exc) from exc
            raise


class _SaysWhenEmpty:
    """The venue service as ``serve_until_stopped`` sees it, calling ``empty()`` once when the listing it asks for
    once the server listens has no tournament (so ``steward web`` never sits silent). The pages' hub reads the same
    listing again later: said once only."""

    def __init__(self, venue: VenueService, empty: Any) -> None:
        self._venue = venue
        self._empty: Any = empty

    def __getattr__(self, name: str) -> Any:
        return getattr(self._venue, name)

    async def pages(self) -> list[VenueLink]:
        links = await self._venue.pages()
        if not links and self._empty is not None:
            self._empty, empty = None, self._empty
            empty()
        return links


DEMO_HOST = "127.0.0.1"  # `steward demo --web` serves on loopback only


class CommandRefused(Exception):
    """A command that cannot start, as one line for the person who ran it and the exit code (2: something to fix,
    an option or a folder)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def _reason(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower()


def _http_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    return f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}"


def port_refused(host: str, port: int, exc: OSError) -> CommandRefused:
    """What to do about a port that cannot be listened on, in one line."""
    if exc.errno == errno.EADDRINUSE:
        return CommandRefused(f"port {port} is already in use (another steward web or demo?): choose another "
                              "with --port")  # fmt: skip
    if exc.errno == errno.EACCES:
        return CommandRefused(f"port {port} needs administrator rights (ports below 1024): choose another with "
                              "--port")  # fmt: skip
    return CommandRefused(f"cannot listen on {host}:{port} ({_reason(exc)}): check --host and --port")


def check_port(host: str, port: int) -> None:
    """Bind ``host:port`` and release it at once, as the server will bind it (``SO_REUSEADDR``): a port already
    taken is refused in a second, before any work. Port 0 (the system picks one) is always free."""
    if port == 0:
        return
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise port_refused(host, port, exc) from exc


def writable_folder(folder: Path, *, option: str) -> None:
    """Make ``folder`` (and its parents) when missing and write a file in it, deleting it at once: one line
    naming the folder and the reason when it cannot be written, before any work."""
    import tempfile

    try:
        if folder.exists() and not folder.is_dir():
            raise CommandRefused(f"cannot write to {folder}: it is a file, not a folder (choose another {option})")
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".steward-write-test-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        why = "a part of the path is a file, not a folder" if exc.errno == errno.ENOTDIR else _reason(exc)
        raise CommandRefused(f"cannot write to {folder}: {why} (choose another {option})") from exc


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
    """A configuration, database or start-up failure as (one line with secrets masked, exit code): 2 for a setting
    or an option to fix (a busy port, a folder that cannot be written), 1 for a database that cannot be reached or
    written; None for anything else (a bug: the traceback stays). Only an error that is not a file's or a port's
    is called "cannot reach the database" (issue 44)."""
    from pydantic import ValidationError
    from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError

    from bot.db.backup import BackupError
    from bot.launch import DiscordStartFailure

    if isinstance(exc, DiscordStartFailure | BackupError | CommandRefused):  # a full disk, a busy port, …
        return mask_secrets(str(exc))[:300], exc.code
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        field = ".".join(str(x) for x in first.get("loc", ())).upper() or "settings"
        why = str(first.get("msg", "")).removeprefix("Value error, ")
        return f"configuration: {field} is not valid ({mask_secrets(why)[:160]})", 2
    if isinstance(exc, ArgumentError):
        return f"configuration: DATABASE_URL is not a database URL ({mask_secrets(str(exc))[:160]})", 2
    if isinstance(exc, OperationalError | DBAPIError):
        reason = mask_secrets(str(exc.orig) if exc.orig is not None else str(exc)).splitlines()[0][:200]
        return f"the database at {_database_where()} refused: {reason}", 1
    if isinstance(exc, OSError) and exc.errno in (errno.EADDRINUSE, errno.EADDRNOTAVAIL):  # a port, not the database
        return f"cannot listen ({_reason(exc)}): check --host and --port", 2
    if isinstance(exc, OSError) and exc.filename is not None and not isinstance(exc, ConnectionError):
        writing = exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT)
        verb = "write to" if writing else "use"
        return f"cannot {verb} {mask_secrets(str(exc.filename))[:160]}: {_reason(exc)}", 1  # a file, not the database
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
