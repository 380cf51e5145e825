"""``steward doctor``: is this machine ready to run the bot? One line per check — ``OK``, ``WARN`` or ``FAIL`` —
and, for each problem, what to do about it. Exit 0 when nothing FAILs, 1 otherwise.

Checks: the token (its shape; then, unless ``--offline``, Discord's answer with a short timeout, and each server's
permissions as ``/setup roles`` judges them), the privileged intents, the invite, the database and its migrations,
the venue port, the log file's folder, the renderer's fonts and the compiled engines. What the bot asks of Discord
(intents, permissions) is handed in by ``bot.cli`` from the cogs, so there is one list of each. A check never
raises: an unexpected error is a FAIL line with the secrets masked, never a traceback.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import importlib
import os
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bot.logs import RedactSecrets, secrets_of
from bot.settings import Settings

Status = Literal["OK", "WARN", "FAIL"]
PRIVILEGED_INTENTS = ("members", "presences", "message_content")
PORTAL_NAMES = {"members": "Server Members Intent", "presences": "Presence Intent",
                "message_content": "Message Content Intent"}  # fmt: skip
# the application's flags that say a privileged intent is enabled (limited: under 100 servers, not yet verified)
INTENT_FLAGS = {"presences": (1 << 12) | (1 << 13), "members": (1 << 14) | (1 << 15),
                "message_content": (1 << 18) | (1 << 19)}  # fmt: skip
API = "https://discord.com/api/v10"
TIMEOUT = 5.0  # seconds for each request to Discord
TOKEN_PART = re.compile(r"^[A-Za-z0-9_-]+$")
ENGINES = {
    "bot.rules.ricochet._fastsolve": "the Ricochet Robots solver",
    "bot.rules.tournament._drawsearch": "the table draw's exact search",
}
RESET_TOKEN = "copy it from the Developer Portal (your application → Bot → Reset Token) into DISCORD_TOKEN in .env"


@dataclass(frozen=True)
class Needs:
    """What the bot asks of Discord, read from the cogs by the caller."""

    privileged_intents: tuple[str, ...]
    permissions: int  # the invite's permissions integer
    permission_names: tuple[str, ...]
    lacking: Callable[[int], list[str]] = field(default=lambda value: [])  # a server's permissions → what it lacks


@dataclass(frozen=True)
class Check:
    status: Status
    name: str
    detail: str

    def line(self) -> str:
        return f"{self.status:<4}  {self.name}: {self.detail}"


def application_id(token: str) -> int | None:
    """The application id a well-formed bot token starts with (its first part, base64 of the digits)."""
    first = token.split(".")[0]
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() and 15 <= len(decoded) <= 21 else None


def token_shape(token: str | None) -> Check:
    """Judge the token without the network: set, no ``Bot `` prefix or quotes, three parts, an application id."""
    if token is None or not token.strip():
        return Check("FAIL", "token", f"DISCORD_TOKEN is not set: {RESET_TOKEN}")
    token = token.strip()
    if token.lower().startswith("bot "):
        return Check("FAIL", "token", "DISCORD_TOKEN starts with 'Bot ': put the token alone, without the prefix")
    if token[0] in "'\"" or token[-1] in "'\"":
        return Check("FAIL", "token", "DISCORD_TOKEN is quoted twice: remove the quotes around it in .env")
    parts = token.split(".")
    if len(parts) != 3 or not all(TOKEN_PART.match(p) for p in parts) or application_id(token) is None:
        return Check("FAIL", "token", f"DISCORD_TOKEN is not shaped like a bot token (a client secret or an "
                                      f"application id?): {RESET_TOKEN}")  # fmt: skip
    return Check("OK", "token", f"DISCORD_TOKEN is shaped like a bot token of application {application_id(token)}")


async def _discord_get(session: Any, path: str, token: str) -> tuple[int, Any]:
    async with session.get(f"{API}{path}", headers={"Authorization": f"Bot {token}"}) as response:
        body = await response.json(content_type=None) if response.status == 200 else None
        return response.status, body


async def _ask_discord(token: str, needs: Needs) -> list[Check]:
    import aiohttp

    found: list[Check] = []
    timeout = aiohttp.ClientTimeout(total=TIMEOUT)
    try:
        async with aiohttp.ClientSession(timeout=timeout) as session:
            status, me = await _discord_get(session, "/users/@me", token)
            if status == 401:
                return [Check("FAIL", "discord", f"Discord refused DISCORD_TOKEN (reset or revoked): {RESET_TOKEN}")]
            if status != 200 or not isinstance(me, dict):
                return [Check("FAIL", "discord", f"Discord answered HTTP {status}: try again in a few minutes")]
            found.append(Check("OK", "discord", f"Discord accepts the token: the bot is {me.get('username')}"))
            if needs.privileged_intents:
                status, app = await _discord_get(session, "/applications/@me", token)
                flags = int(app.get("flags") or 0) if status == 200 and isinstance(app, dict) else None
                off = [n for n in needs.privileged_intents if flags is not None and not flags & INTENT_FLAGS[n]]
                if off:
                    found.append(Check("FAIL", "intents", "enable " + ", ".join(PORTAL_NAMES[n] for n in off)
                                       + " in the Developer Portal (your application → Bot)"))  # fmt: skip
            status, guilds = await _discord_get(session, "/users/@me/guilds", token)
            if status == 200 and isinstance(guilds, list):
                found.extend(_servers(guilds, needs))
    except (TimeoutError, aiohttp.ClientError, OSError) as exc:
        reason = type(exc).__name__ if isinstance(exc, TimeoutError) else str(exc) or type(exc).__name__
        found.append(Check("FAIL", "discord", f"cannot reach Discord ({reason[:160]}): check the machine's network, "
                                              "DNS and firewall (HTTPS to discord.com)"))  # fmt: skip
    return found


def _servers(guilds: list[Any], needs: Needs) -> list[Check]:
    if not guilds:
        return [Check("WARN", "servers", "the bot is in no server yet: invite it with the URL above")]
    found = []
    for guild in guilds:
        lacking = needs.lacking(int(guild.get("permissions") or 0))
        name = f"server {str(guild.get('name'))[:60]}"
        if lacking:
            found.append(Check("FAIL", name, f"the bot lacks {', '.join(lacking)}: give them to its role (Server "
                                             "Settings → Roles), then /setup roles checks the channel"))  # fmt: skip
        else:
            found.append(Check("OK", name, "every permission the bot needs (/setup roles checks the channel)"))
    return found


def intents_check(needs: Needs) -> Check:
    if not needs.privileged_intents:
        return Check("OK", "intents", "the bot asks for no privileged intent: nothing to enable in the Developer "
                                      "Portal")  # fmt: skip
    names = ", ".join(PORTAL_NAMES[n] for n in needs.privileged_intents)
    return Check("OK", "intents", f"enable {names} in the Developer Portal (your application → Bot)")


def invite_check(token: str | None, needs: Needs) -> Check:
    app = application_id(token.strip()) if token and token.strip() else None
    url = (f"https://discord.com/oauth2/authorize?client_id={app or 'APP_ID'}&scope=bot+applications.commands"
           f"&permissions={needs.permissions}")  # fmt: skip
    detail = f"permissions {needs.permissions} ({', '.join(needs.permission_names)}): {url}"
    return Check("OK", "invite", detail if app else detail + " (APP_ID: your application's id)")


def database_check(settings: Settings) -> list[Check]:
    """Reachable, at this version's newest revision, writable; an SQLite file is never created here."""
    from bot.db.backup import sqlite_file
    from bot.db.migrate import _state, check_writable, revisions

    where = settings.safe_database_url()
    path = sqlite_file(settings.database_url)
    if path is not None and not path.is_file():
        return [Check("FAIL", "database", f"no database at {path}: run `steward db upgrade` (or start the bot) to "
                                          "create it, or fix DATABASE_URL")]  # fmt: skip
    revision, _tables = asyncio.run(_state(settings.database_url))
    known = revisions()
    reached = Check("OK", "database", f"{where} answers")
    if revision is None:
        return [reached, Check("FAIL", "migrations", "the database has no schema: run `steward db upgrade`")]
    if revision not in known:
        newer = f"revision {revision} is newer than this version knows (newest {known[-1]}): install the newer bot"
        return [reached, Check("FAIL", "migrations", newer)]
    if revision != known[-1]:
        older = f"at revision {revision}, this version needs {known[-1]}: run `steward db upgrade` (it backs up first)"
        return [reached, Check("FAIL", "migrations", older)]
    check_writable(settings.database_url)
    return [reached, Check("OK", "migrations", f"at the newest revision {revision}; the database can be written")]


def port_check(settings: Settings) -> Check:
    if settings.web_port is None:
        return Check("OK", "web port", "WEB_PORT unset: the venue pages are off")
    family = socket.AF_INET6 if ":" in settings.web_host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((settings.web_host, settings.web_port))
    except OSError as exc:
        return Check("FAIL", "web port", f"{settings.web_host}:{settings.web_port} cannot be listened on "
                                         f"({exc.strerror or exc}): stop what holds it (is the bot already running?) "
                                         "or change WEB_PORT / WEB_HOST")  # fmt: skip
    return Check("OK", "web port", f"{settings.web_host}:{settings.web_port} is free")


def log_check(settings: Settings) -> Check:
    if not settings.log_file:
        return Check("OK", "log", "standard error only (LOG_FILE unset; under systemd the journal keeps it)")
    folder = Path(settings.log_file).expanduser().resolve().parent
    existing = next((p for p in (folder, *folder.parents) if p.exists()), folder)
    if not os.access(existing, os.W_OK):
        return Check("FAIL", "log", f"LOG_FILE {settings.log_file}: {existing} cannot be written by this user")
    return Check("OK", "log", f"LOG_FILE {settings.log_file} (rotated at {settings.log_max_mb} MB, "
                              f"{settings.log_keep} kept)")  # fmt: skip


def fonts_check() -> Check:
    """The renderer's bundled faces load (``renderer/fonts``, found as the renderer finds them)."""
    from renderer import _fonts

    for kind in _fonts.FONT_FILES:
        _fonts.font(kind, 12)
    _fonts.cjk_font(12)
    _fonts._emoji_font()
    _fonts.covers(_fonts.FONT_FILES["regular"], ord("A"))
    count = len(_fonts.FONT_FILES) + 2
    return Check("OK", "fonts", f"the renderer's {count} bundled faces load (DejaVu, Noto CJK and emoji subsets)")


def engine_checks() -> list[Check]:
    found = []
    for module, what in ENGINES.items():
        try:
            importlib.import_module(module)
        except ImportError:
            slower = "the Python code runs, slower; install a C compiler and reinstall (pip install .)"
            found.append(Check("WARN", "engines", f"{what} is not compiled ({module}): {slower}"))
        else:
            found.append(Check("OK", "engines", f"{what} is compiled"))
    return found


def _guarded(name: str, check: Callable[[], Check | list[Check]], mask: Callable[[str], str]) -> list[Check]:
    try:
        done = check()
    except Exception as exc:  # one line, never a traceback
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0] if str(exc) else type(exc).__name__
        return [Check("FAIL", name, mask(f"{type(exc).__name__}: {reason}")[:300])]
    return done if isinstance(done, list) else [done]


def run_checks(settings: Settings, needs: Needs, *, online: bool = True) -> list[Check]:
    mask = RedactSecrets(secrets_of(settings)).redact
    token = settings.discord_token.get_secret_value() if settings.discord_token is not None else None
    shape = token_shape(token)
    checks = [shape]
    if online and shape.status == "OK" and token is not None:
        checks += _guarded("discord", lambda: asyncio.run(_ask_discord(token.strip(), needs)), mask)
    checks.append(intents_check(needs))
    checks.append(invite_check(token if shape.status == "OK" else None, needs))
    checks += _guarded("database", lambda: database_check(settings), mask)
    checks += _guarded("web port", lambda: port_check(settings), mask)
    checks += _guarded("log", lambda: log_check(settings), mask)
    checks += _guarded("fonts", fonts_check, mask)
    checks += engine_checks()
    return [Check(c.status, c.name, mask(c.detail)) for c in checks]


def run_doctor(settings: Settings, needs: Needs, *, online: bool = True, out: Callable[[str], None] = print) -> int:
    """Print one line per check and a summary; 0 when nothing FAILs, else 1."""
    checks = run_checks(settings, needs, online=online)
    for check in checks:
        out(check.line())
    failed = sum(c.status == "FAIL" for c in checks)
    warned = sum(c.status == "WARN" for c in checks)
    out(f"doctor: {len(checks)} checks, {failed} to fix, {warned} warnings")
    return 1 if failed else 0
