"""``steward demo`` — the main job without Discord, through the same services a Discord user triggers.

It creates a temporary embedded SQLite database, applies the migrations, maps the server roles, creates a
tournament, registers players from several clubs (one over the cap goes to the waitlist), shows that bad
input is refused without changes, lists the players and prints what happened.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from bot.db.migrate import upgrade_to_head
from bot.db.session import make_engine, make_sessionmaker
from bot.errors import UserFacingError
from bot.i18n import render_error, t
from bot.services import Services
from bot.services.access import Actor

DEMO_GUILD = 1_000_000_000_000_001
ROLE_ORGANIZER, ROLE_REFEREE, ROLE_HEAD = 11, 12, 13
DEMO_SEED = 2018

FIRST_NAMES = [
    "Alessandro",
    "Beatrice",
    "Carlo",
    "Daniela",
    "Edoardo",
    "Francesca",
    "Giorgio",
    "Ilaria",
    "Lorenzo",
    "Marta",
    "Nicola",
    "Olga",
    "Paolo",
    "Rita",
    "Stefano",
    "Tiziana",
    "Umberto",
    "Valentina",
    "Zeno",
    "Agnese",
    "Bruno",
    "Chiara",
    "Davide",
    "Elena",
    "Fabio",
    "Giulia",
    "Luca",
    "Noemi",
    "Ottavio",
    "Silvia",
    "Tommaso",
    "Vittoria",
    "Čeněk",
    "Zoë",
    "Niccolò",
]
CLUBS = ("Carrarmatini Roma", "Dadi Tratti Milano", "RisiKo Club Napoli", "Armate Torino", "Lupi di Bologna")


def demo_players(count: int, rng: random.Random) -> list[tuple[str, str | None]]:
    names = rng.sample(FIRST_NAMES, count)
    weights = (5, 4, 3, 2, 1)
    return [(name, rng.choices(CLUBS, weights)[0] if rng.random() > 0.1 else None) for name in names]


async def _run(db_url: str, out: TextIO, locale: str, players: int) -> None:
    engine = make_engine(db_url)
    services = Services(make_sessionmaker(engine))
    rng = random.Random(DEMO_SEED)

    def say(key: str, **params: object) -> None:
        out.write(t(key, locale, **params) + "\n")

    try:
        admin = Actor(guild_id=DEMO_GUILD, user_id=1, display_name="Admin", is_admin=True, locale=locale)
        organizer = Actor(guild_id=DEMO_GUILD, user_id=2, display_name="Org", role_ids=frozenset({ROLE_ORGANIZER}))
        await services.guilds.set_roles(
            admin, organizer_role_id=ROLE_ORGANIZER, referee_role_id=ROLE_REFEREE, head_referee_role_id=ROLE_HEAD
        )
        say("demo.roles")
        cap = players - 1
        tournament = await services.tournaments.create(
            organizer, name="Torneo Demo RisiKo!", preset="risiko-ufficiali-2018", cap=cap
        )
        say("demo.created", name=tournament.name, preset=tournament.preset, cap=cap)
        for index, (name, club) in enumerate(demo_players(players, rng), start=100):
            outcome = await services.registrations.register(
                Actor(guild_id=DEMO_GUILD, user_id=index, display_name=name),
                tournament=tournament.name,
                display_name=name,
                club=club,
            )
            if outcome.waitlisted:
                say("demo.waitlisted", name=name)
        # Bad input is a user, not an attacker: each is refused with a clear line and changes nothing.
        for attempt in (
            lambda: services.registrations.register(
                Actor(guild_id=DEMO_GUILD, user_id=999), tournament=tournament.name, display_name="  ", club=None
            ),
            lambda: services.registrations.register(
                Actor(guild_id=DEMO_GUILD, user_id=999), tournament="Torneo Fantasma", display_name="X", club=None
            ),
            lambda: services.tournaments.create(
                Actor(guild_id=DEMO_GUILD, user_id=999), name="Abusivo", preset="risiko-firk-1"
            ),
        ):
            try:
                await attempt()
            except UserFacingError as err:
                say("demo.refused", message=render_error(err.key, err.params, locale))
        listing = await services.registrations.list_players(DEMO_GUILD, tournament=tournament.name)
        say("demo.players", count=len(listing.players), name=listing.tournament_name)
        for position, p in enumerate(listing.players, start=1):
            club = p.club or "—"
            out.write(f"  {position:>2}. {p.display_name:<12} {club:<20} {t(f'status.{p.status}', locale)}\n")
        clubs = sorted({p.club for p in listing.players if p.club})
        say(
            "demo.summary",
            players=listing.counts.get("registered", 0),
            clubs=len(clubs),
            waitlisted=listing.counts.get("waitlisted", 0),
        )
    finally:
        await engine.dispose()


def run_demo(
    *,
    output_dir: str = "demo-output",
    keep_database: bool = False,
    locale: str = "en",
    players: int = 31,
    out: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    workdir = Path(tempfile.mkdtemp(prefix="steward-demo-"))
    db_path = workdir / "demo.db"
    db_url = f"sqlite+aiosqlite:///{db_path}"
    try:
        upgrade_to_head(db_url)
        out.write(t("demo.database", locale, path=str(db_path)) + "\n")
        asyncio.run(_run(db_url, out, locale, players))
    finally:
        if keep_database:
            out.write(t("demo.kept", locale, path=str(db_path)) + "\n")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    Path(output_dir).mkdir(parents=True, exist_ok=True)
    return 0
