"""``steward demo --format club`` — a short club championship (issue 47) through the services the slash commands call.

Five evenings of the ``club-championship`` preset, one round an evening, each dated with ``/schedule round``: a
player is absent twice (``/forfeit``), another enters late on evening 3 (``/register`` stays open while
``tournament.late_entry`` allows); the standings count each player's best three evenings — the two worst, absences
first, are discarded and struck through in the standings image; two players go straight to the final, the next seven
and the repechage (the best single game of the others) play two semifinals; the final crowns the champion.
"""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta
from pathlib import Path
from typing import Any, TextIO

from bot.db.session import make_engine
from bot.demo import (
    DEMO_GUILD,
    DEMO_SEED,
    classification_at_work,
    demo_players,
    demo_services,
    open_server,
    page_paths,
    report_round,
    run_demo,
    tables_pngs,
)
from bot.i18n import format_number, join_names, t
from bot.present.rounds import cut_text, repechage_text
from bot.present.standings import standings_csv, standings_image
from bot.rules.ruleset import load_ruleset
from bot.services.access import Actor

EVENINGS = 5
PLAYERS = 17
ABSENT_EVENINGS = (2, 4)
LATE_EVENING = 3
NAME = "Campionato Demo del Club"
PRESET = "club-championship"


async def run_club(db_url: str, out: TextIO, locale: str, output_dir: Path) -> None:
    engine = make_engine(db_url)
    services = demo_services(engine)
    rng = random.Random(DEMO_SEED)
    files: list[Path] = []

    def say(key: str, **params: object) -> None:
        out.write(t(key, locale, **params) + "\n")

    def write(filename: str, data: bytes) -> None:
        path = output_dir / filename
        path.write_bytes(data)
        files.append(path)

    def write_pages(stem: str, pages: list[bytes]) -> None:
        for path, png in zip(page_paths(output_dir, stem, len(pages)), pages, strict=True):
            write(path.name, png)

    try:
        organizer = await open_server(services, locale)
        overrides = {"tournament": {"qualifying_rounds": EVENINGS}}
        created = await services.tournaments.create(organizer, name=NAME, preset=PRESET, overrides=overrides)
        field = demo_players(PLAYERS + 1, rng)
        late_name, late_club = field.pop()
        players = [Actor(guild_id=DEMO_GUILD, user_id=200 + i, display_name=n) for i, (n, _) in enumerate(field)]
        for actor, (player, club) in zip(players, field, strict=True):
            await services.registrations.register(actor, tournament=NAME, display_name=player, club=club)
        validation = await services.tournaments.validate(organizer, NAME)
        discards = load_ruleset(PRESET, overrides).tournament.discards
        say("demo.club.created", name=created.name, evenings=EVENINGS, players=validation.validated, discards=discards)
        absent = players[-1]
        date = services.clock().date().isoformat()
        for number in range(1, EVENINGS + 1):
            if number > 1:
                await services.rounds.close(organizer, tournament=NAME)
            start = services.clock() + timedelta(days=7 if number > 1 else 1)
            await services.schedules.schedule_round(organizer, tournament=NAME, start=start, number=number)
            services.clock.advance(start - services.clock() - timedelta(minutes=30))  # type: ignore[attr-defined]
            if number == LATE_EVENING:  # a late entry: the evenings before count as absences
                late = Actor(guild_id=DEMO_GUILD, user_id=300, display_name=late_name)
                entered = await services.registrations.register(late, tournament=NAME, display_name=late_name,
                                                                club=late_club)  # fmt: skip
                say("demo.club.late", name=late_name, number=number, count=(entered.late_from_round or 1) - 1)
            if number in ABSENT_EVENINGS:
                await services.checkins.forfeit(absent, tournament=NAME)
                say("demo.club.absent", name=absent.display_name, number=number)
            drawn = await services.rounds.draw(organizer, tournament=NAME)
            published = (await services.rounds.publish(organizer, tournament=NAME, number=drawn.number)).round
            say("demo.club.evening", number=number, tables=len(published.tables), seed=published.seed or 0)
            if number == 1:
                write_pages("club-evening-1-tables", await asyncio.to_thread(tables_pngs, published, date, locale))
            await report_round(services, published, rng, out, locale)
        await services.rounds.close(organizer, tournament=NAME)
        image = await standings_image(await services.standings.compute(DEMO_GUILD, NAME),
                                      date=services.clock().date().isoformat(), locale=locale)  # fmt: skip
        for page, data in enumerate(image.pages, start=1):
            write(f"club-standings-{page}.png", data)
        write("club-standings.csv", standings_csv(image.view, locale))
        say("demo.club.standings", rounds=image.view.rounds)
        for line in image.view.lines[:10]:
            dropped = ", ".join(str(r) for r in line.discarded) or "—"
            out.write(f"  {line.rank:>2}. {line.name:<12} {format_number(line.points, locale):>6}  "
                      + t("demo.club.discarded", locale, rounds=dropped) + "\n")  # fmt: skip
        semis = await services.rounds.seed_semifinals(organizer, tournament=NAME)
        semis = (await services.rounds.publish(organizer, tournament=NAME, number=semis.number)).round
        say("demo.club.semifinals", tables=len(semis.tables), direct=join_names(semis.direct_finalists, locale) or "—")
        if semis.repechage is not None:
            out.write("  " + repechage_text(locale, semis.repechage, name=str) + "\n")
        for tie in semis.ties:
            out.write("  " + cut_text(locale, tie, name=str) + "\n")
        await report_round(services, semis, rng, out, locale)
        final = await services.rounds.compose_final(organizer, tournament=NAME)
        final = (await services.rounds.publish(organizer, tournament=NAME, number=final.number)).round
        say("demo.play.final", players=join_names((s.name for s in final.tables[0].seats), locale))
        await report_round(services, final, rng, out, locale)
        await classification_at_work(services, NAME, out, locale, write, write_pages)
        document = await services.exports.by_name(DEMO_GUILD, tournament=NAME)  # all the data out (docs/export.md)
        write("club-tournament.json", json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8"))
        say("demo.club.files", files=len(files), folder=str(output_dir))
        for path in files:
            out.write(f"  {path.name} ({path.stat().st_size} B)\n")
    finally:
        await engine.dispose()


def run_club_demo(**options: Any) -> int:
    """``steward demo --format club``: :func:`bot.demo.run_demo` (the temporary database, ``--web``, the output
    folder) playing :func:`run_club`."""
    return run_demo(**options, format="club", play=run_club)
