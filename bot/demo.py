"""``steward demo`` — the main job without Discord, through the same services a Discord user triggers.

It creates a temporary embedded SQLite database, applies the migrations, maps the server roles, creates a
tournament, registers players from several clubs (one over the cap goes to the waitlist), shows that bad
input is refused without changes, lists the players and prints what happened.

``--format knockout`` runs NP's "ad eliminazione diretta" instead (100 players → 20 tables of 5 → 5 tables of 4 →
the final of 5, NP-FMT-1); ``--format teams`` an NP team event (six teams of four, one player per team at each
table, team standings, NP-TAB-1); ``--format club`` a club championship over five evenings with discards, a late
entry, the repechage and two direct finalists (``bot.demo_club``, issue 47).
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import sys
import tempfile
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TextIO
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.migrate import upgrade_to_head
from bot.db.models import utcnow
from bot.db.session import make_engine, make_sessionmaker
from bot.errors import UserFacingError
from bot.i18n import format_number, join_names, preset_name, render_error, t
from bot.present.bracket import bracket_render_data
from bot.present.images import image_words
from bot.present.modulo import modulo_workbook
from bot.present.paper import pairings, table_sheets
from bot.present.rounds import cut_text
from bot.present.season import explain as explain_season_tie
from bot.present.season import season_csv, season_image
from bot.present.standings import (
    classification_csv,
    classification_image,
    stage_note,
    standings_csv,
    standings_image,
)
from bot.present.tables import tables_render_data
from bot.rules.tournament.export import read_export
from bot.rules.tournament.modulo import played_players, played_rounds
from bot.services import Services
from bot.services.access import Actor
from bot.services.reports import ReportView, TableRef
from bot.services.rounds import RoundView, SeatView
from renderer import render_bracket_pages, render_tables_pages

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
    "Gianni",
    "Irene",
    "Marco",
    "Sara",
    "Franco",
]
SURNAMES = ("Rossi", "Bianchi", "Esposito", "Ferrari", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno",
            "Gallo", "Conti", "De Luca", "Costa", "Giordano", "Mancini", "Rizzo", "Lombardi", "Moretti")  # fmt: skip
CLUBS = ("Carrarmatini Roma", "Dadi Tratti Milano", "RisiKo Club Napoli", "Armate Torino", "Lupi di Bologna")


def demo_players(count: int, rng: random.Random) -> list[tuple[str, str | None]]:
    names = rng.sample(FIRST_NAMES, count)
    weights = (5, 4, 3, 2, 1)
    return [(name, rng.choices(CLUBS, weights)[0] if rng.random() > 0.1 else None) for name in names]


FORMATS = ("italian", "knockout", "teams")
TEAMS = ("Aquile", "Lupi", "Orsi", "Falchi", "Tigri", "Volpi")


def numbered_players(count: int, rng: random.Random) -> list[tuple[str, str | None]]:
    """``count`` distinct names (first name + initial) for fields larger than the name list."""
    names = [f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {chr(65 + i // len(FIRST_NAMES))}." for i in range(count)]
    rng.shuffle(names)
    return [(name, rng.choice(CLUBS) if rng.random() > 0.1 else None) for name in names]


async def open_server(services: Services, locale: str) -> Actor:
    """The demo server's roles mapped by its administrator; returns the organizer who runs the tournament."""
    admin = Actor(guild_id=DEMO_GUILD, user_id=1, display_name="Admin", is_admin=True, locale=locale)
    organizer = Actor(guild_id=DEMO_GUILD, user_id=2, display_name="Org", role_ids=frozenset({ROLE_ORGANIZER}))
    await services.setup.set_roles(
        admin, organizer_role_id=ROLE_ORGANIZER, referee_role_id=ROLE_REFEREE, head_referee_role_id=ROLE_HEAD
    )
    return organizer


def demo_services(engine: AsyncEngine) -> Services:
    """Services on the demo's database with its clock and its seeded draws (the same tables on every run)."""
    seeds = random.Random(DEMO_SEED + 1)
    return Services(make_sessionmaker(engine), clock=DemoClock(), seed_source=lambda: seeds.getrandbits(31))


async def _run_format(db_url: str, out: TextIO, locale: str, fmt: str, output_dir: Path) -> None:
    """The knockout or the team event, start to finish, through the services the slash commands call."""
    engine = make_engine(db_url)
    services = demo_services(engine)
    rng = random.Random(DEMO_SEED)
    written = Written(output_dir)

    def say(key: str, **params: object) -> None:
        out.write(t(key, locale, **params) + "\n")

    try:
        organizer = await open_server(services, locale)
        knockout = fmt == "knockout"
        tournament = await services.tournaments.create(
            organizer,
            name="Torneo Demo Eliminazione" if knockout else "Torneo Demo Squadre",
            preset="risiko-nostra-passione-2018",
            format="knockout" if knockout else None,
        )
        name = tournament.name
        field = numbered_players(100 if knockout else 4 * len(TEAMS), rng)
        for index, (player, club) in enumerate(field, start=100):
            await services.registrations.register(
                Actor(guild_id=DEMO_GUILD, user_id=index, display_name=player),
                tournament=name,
                display_name=player,
                club=club,
                team=None if knockout else TEAMS[index % len(TEAMS)],
            )
        say(f"demo.{fmt}.created", name=name, players=len(field), teams=len(TEAMS))
        validation = await services.tournaments.validate(organizer, name)
        say("demo.play.validated", count=validation.validated)
        date = services.clock().date().isoformat()
        rounds = 0
        while True:
            planned = await services.rounds.plan(organizer, tournament=name)
            if knockout and planned.knockout is not None and rounds == 0:
                steps = " → ".join(f"{p}: {len(sizes)}×{'/'.join(map(str, sorted(set(sizes))))}"
                                   for p, sizes in planned.knockout.plan)  # fmt: skip
                say("demo.knockout.plan", steps=steps)
            drawn = await services.rounds.draw(organizer, tournament=name)
            published = (await services.rounds.publish(organizer, tournament=name, number=drawn.number)).round
            rounds += 1
            final = published.knockout is not None and published.knockout.final
            say("demo.knockout.final" if final else "demo.play.round", number=published.number,
                tables=len(published.tables), seed=published.seed or 0)  # fmt: skip
            if not knockout:
                teams_at = [sorted(s.team or "" for s in table.seats) for table in published.tables]
                say("demo.teams.one_per_team", tables=sum(len(set(x)) == len(x) for x in teams_at), total=len(teams_at))
            written.pages(f"{fmt}-round-{published.number}-tables",
                          await asyncio.to_thread(tables_pngs, published, date, locale))  # fmt: skip
            await report_round(services, published, rng, out, locale)
            await services.rounds.close(organizer, tournament=name)
            if final or (not knockout and rounds == 2):
                break
        standings = await services.standings.compute(DEMO_GUILD, name)
        if knockout:
            await classification_at_work(services, name, out, locale, lambda *_: None, lambda *_: None)
        else:
            say("demo.play.standings", rounds=rounds)
            for line in standings.lines[:8]:
                out.write(f"  {line.rank:>2}. {line.name:<14} {line.team or '':<8} "
                          f"{format_number(line.points, locale):>6}\n")  # fmt: skip
            say("demo.teams.standings")
            for team in standings.teams:
                out.write(f"  {team.rank:>2}. {team.team:<8} {format_number(team.points, locale):>6}\n")
        say("demo.club.files", files=len(written.paths), folder=str(output_dir))
        written.name_each(out)
    finally:
        await engine.dispose()


async def _run(db_url: str, out: TextIO, locale: str, players: int, output_dir: Path) -> None:
    engine = make_engine(db_url)
    services = demo_services(engine)  # its clock: real time, moved on where the story needs it (a late arrival)
    rng = random.Random(DEMO_SEED)

    def say(key: str, **params: object) -> None:
        out.write(t(key, locale, **params) + "\n")

    try:
        organizer = await open_server(services, locale)
        say("demo.roles")
        cap = players - 1
        tournament = await services.tournaments.create(
            organizer, name="Torneo Demo RisiKo!", preset="risiko-ufficiali-2018", cap=cap
        )
        say("demo.created", name=tournament.name, preset=preset_name(tournament.preset, locale), cap=cap)
        # the club publishes to the national ranking (ModuloTorneo): each player gives the details it asks for
        await services.publishing.settings(organizer, tournament=tournament.name, organiser="ROMA [Carrarmatini]",
                                           type="Torneo Open", venue="Circolo Demo, Roma")  # fmt: skip
        for index, (name, club) in enumerate(demo_players(players, rng), start=100):
            player = Actor(guild_id=DEMO_GUILD, user_id=index, display_name=name)
            outcome = await services.registrations.register(
                player, tournament=tournament.name, display_name=name, club=club
            )
            if outcome.waitlisted:
                say("demo.waitlisted", name=name)
            born = f"{1 + index % 28:02d}/{1 + index % 12:02d}/{1960 + index % 45}"
            await services.publishing.identity(player, tournament=tournament.name, first_name=name,
                                               surname=SURNAMES[index % len(SURNAMES)], birth_date=born,
                                               national_id=None if index % 3 else 40_000 + index)  # fmt: skip
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
        written = Written(output_dir)
        tables, locked = await _play(services, tournament.name, organizer, rng, out, locale, written)
        await _season_at_work(services, tournament.name, organizer, rng, out, locale, written)
        # the last lines: every file the demo wrote, the season's too, counted from the one list of them
        say("demo.play.summary", tables=tables, locked=locked, files=len(written.paths), folder=str(output_dir))
        written.name_each(out)
    finally:
        await engine.dispose()


async def _serve_web(db_url: str, port: int, out: TextIO) -> int:
    """The demo's venue pages on loopback (``venue <name> <URL>`` per tournament), until SIGINT or SIGTERM."""
    from bot import metrics
    from bot.web.app import serve_until_stopped
    from bot.web.health import HealthProbe, database_checks

    engine = make_engine(db_url)
    metrics.watch_engine(engine)

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    try:
        services = Services(make_sessionmaker(engine))
        return await serve_until_stopped(services.venue, host="127.0.0.1", port=port, base_url=None, announce=say,
                                         probe=HealthProbe(database_checks(services)))  # fmt: skip
    finally:
        await engine.dispose()


class DemoClock:
    """Real time plus the minutes the demo skips ahead."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return utcnow() + self.offset

    def advance(self, by: timedelta) -> None:
        self.offset += by


REFEREE = Actor(guild_id=DEMO_GUILD, user_id=3, display_name="Arbitro", role_ids=frozenset({ROLE_REFEREE}))


def _player(seat: SeatView) -> Actor:
    assert seat.user_id is not None
    return Actor(guild_id=DEMO_GUILD, user_id=seat.user_id, display_name=seat.name)


async def report_round(services: Services, view: RoundView, rng: random.Random, out: TextIO, locale: str) -> int:
    """Simulated referti: the first player enters table points (distinct, seeded), everyone signs, a referee
    countersigns and the table locks (BOT-RES-1). Returns the number of locked tables."""
    locked = 0
    for table in view.tables:
        players = table.seats
        points = rng.sample(range(8, 121), len(players))
        values = {s.registration_id: str(p) for s, p in zip(players, points, strict=True)}
        entered = await services.reports.enter_points(
            _player(players[0]), TableRef(view.tournament_name, table.number, view.number), values
        )
        for seat in players:
            await services.reports.sign(_player(seat), entered.table_id)
        report = await services.reports.countersign(REFEREE, entered.table_id)
        locked += int(report.locked)
        winner = report.ranking[0]
        out.write(
            "  "
            + t(
                "demo.play.table",
                locale,
                table=table.number,
                winner=winner.name,
                table_points=float(winner.table_points or 0),
                points=float(winner.tournament_points or 0),
            )
            + "\n"
        )
    return locked


HEAD_REFEREE = Actor(guild_id=DEMO_GUILD, user_id=4, display_name="Capo arbitro", role_ids=frozenset({ROLE_HEAD}))


async def _referee_at_work(
    services: Services, name: str, view: RoundView, organizer: Actor, out: TextIO, locale: str
) -> None:
    """The referee's desk (BOT-SAN-1..3): a late arrival, a pact warned then sanctioned by ARB 27's ladder, the
    player's appeal, and the head referee's final decision."""

    def say(key: str, **params: object) -> None:
        out.write(t(key, locale, **params) + "\n")

    say("demo.desk.title")
    assert isinstance(services.clock, DemoClock)
    services.clock.advance(timedelta(minutes=5))
    late = view.tables[-1].seats[-1]
    arrival = await services.checkins.mark_arrival(REFEREE, tournament=name, user_id=late.user_id)
    consequence = t(f"checkin.consequence.{arrival.consequence}", locale, minutes=arrival.minutes_late,
                    cards=arrival.cards_forfeited, limit=arrival.limit_minutes)  # fmt: skip
    say("demo.desk.late", name=late.name, case=arrival.case_number or 0, consequence=consequence)
    if arrival.consequence == "replaced_by_organizers":  # ARB 3: the organizers seat the first of the waitlist
        players = await services.registrations.list_players(DEMO_GUILD, tournament=name)
        waiting = next((p for p in players.players if p.status == "waitlisted"), None)
        if waiting is not None:
            done = await services.rounds.replace_player(organizer, tournament=name, player=late.name,
                                                        by=waiting.display_name)  # fmt: skip
            say("demo.desk.replaced", name=late.name, substitute=done.substitute, table=done.table_number)
    target = view.tables[0].seats[1]
    for _ in range(2):
        case = await services.sanctions.record(
            REFEREE, tournament=name, player=target.name, user_id=None, infraction="pact", cards_in_hand=1
        )
        say("demo.desk.sanction", case=case.case_number, name=case.player_name, offence=case.offence,
            kind=t(f"sanction.kind.{case.kind}", locale), article=case.article or "")  # fmt: skip
    appealed = await services.sanctions.appeal(_player(target), case_number=case.case_number, reason="era uno scherzo")
    say("demo.desk.appeal", name=appealed.player_name, case=appealed.case_number)
    decided = await services.sanctions.decide_appeal(
        HEAD_REFEREE, case_number=case.case_number, decision="upheld", note="due testimoni"
    )
    say("demo.desk.decided", case=decided.case_number, decision=t(f"sanction.appeal.{decided.appeal_state}", locale))


DEMO_CHANNEL = 1_000_000_000_000_777
ROME = ZoneInfo("Europe/Rome")


def _hhmm(when: datetime) -> str:
    return when.astimezone(ROME).strftime("%H:%M")


async def _schedule_at_work(services: Services, name: str, organizer: Actor, out: TextIO, locale: str) -> None:
    """BOT-SCH-1: an announcement at a time and the round's reminders, delivered by the same claim → prepare →
    finish the bot's runner uses (here printed instead of posted)."""

    def say(key: str, **params: object) -> None:
        out.write(t(key, locale, **params) + "\n")

    say("demo.schedule.title")
    at = services.clock() + timedelta(minutes=30)
    line = await services.schedules.schedule_announcement(
        organizer, tournament=name, at=at, text=t("demo.schedule.pizza", locale), channel_id=DEMO_CHANNEL
    )
    say("demo.schedule.announcement", id=line.reminder_id, when=_hhmm(line.due_at))
    listing = await services.schedules.overview(organizer, tournament=name)
    say("demo.schedule.pending", count=len(listing.pending), when=", ".join(_hhmm(x.due_at) for x in listing.pending))
    assert isinstance(services.clock, DemoClock)
    services.clock.advance(timedelta(minutes=60))
    while (reminder_id := await services.deliveries.claim_next("demo")) is not None:
        delivery = await services.deliveries.prepare(reminder_id, "demo")
        if delivery is None:
            continue
        if delivery.kind == "round_reminder":
            say("demo.schedule.reminder", offset=delivery.offset_minutes, round=delivery.round_number,
                dms=len(delivery.dm_user_ids))  # fmt: skip
            if delivery.missing_check_ins:
                say("demo.schedule.missing", count=len(delivery.missing_check_ins))
        else:
            say("demo.schedule.posted", id=reminder_id, text=delivery.message or "")
        await services.deliveries.finish(reminder_id, "demo")


async def _clock_at_work(
    services: Services, name: str, view: RoundView, rng: random.Random, out: TextIO, locale: str
) -> None:
    """BOT-SCH-2 with RK-SD-1..3: table 1's clock with one pause (recovery minutes), then the sdadata played to its
    end with the engine's thresholds (dice from the demo's seeded random source)."""

    def say(key: str, **params: object) -> None:
        out.write(t(key, locale, **params) + "\n")

    assert isinstance(services.clock, DemoClock)
    say("demo.clock.title")
    (started,) = (await services.clocks.start(REFEREE, tournament=name, table=1)).started
    assert started.time_up_at is not None
    say("demo.clock.started", limit=started.time_limit_minutes, when=_hhmm(started.time_up_at))
    seats = [s.name for s in view.tables[0].seats]

    async def record(event: dict[str, object]) -> tuple[str, dict[str, object]]:
        step = await services.clocks.record(REFEREE, tournament=name, table=1, event=event)
        return step.outcome, step.view.expecting or {}

    for _ in range(2 * len(seats)):  # two rounds of turns
        await record({"event": "turn_ended"})
    services.clock.advance(timedelta(minutes=35))
    await services.clocks.pause(REFEREE, tournament=name, table=1)
    services.clock.advance(timedelta(minutes=8))
    resumed = await services.clocks.resume(REFEREE, tournament=name, table=1)
    assert resumed.time_up_at is not None
    say("demo.clock.pause", minutes=resumed.recovery_seconds // 60, when=_hhmm(resumed.time_up_at))
    services.clock.advance(timedelta(minutes=90))
    outcome, expecting = await record({"event": "turn_ended"})
    say("demo.clock.time_up")
    rolls = 0
    while outcome != "game_ended" and rolls < 40:
        if expecting.get("kind") == "roll":
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            outcome, after = await record({"event": "roll", "dice": dice})
            verdict = t(f"demo.clock.{outcome}", locale)
            say("demo.clock.roll", player=expecting.get("player"), total=sum(dice),
                threshold=expecting.get("threshold"), verdict=verdict)  # fmt: skip
            expecting, rolls = after, rolls + 1
        else:
            outcome, expecting = await record({"event": "turn_ended", "conquests": rng.choice((0, 1, 2, 3))})
    (final,) = await services.clocks.status(REFEREE, tournament=name, table=1)
    assert final.tracker is not None
    say("demo.clock.over", reason=t(f"endgame.reason.{final.tracker['end_reason']}", locale), rolls=rolls)


def page_paths(folder: Path, stem: str, count: int) -> list[Path]:
    """``stem.png`` for a single page, ``stem-1.png``, ``stem-2.png``… for several (as ``steward render`` names
    them)."""
    if count == 1:
        return [folder / f"{stem}.png"]
    return [folder / f"{stem}-{i}.png" for i in range(1, count + 1)]


class Written:
    """The files the demo writes to its folder, in the order written: the one list its last lines count and name,
    so the number printed is the number of files in the folder (issue 44: it said 13 and wrote 16)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.paths: list[Path] = []

    def write(self, filename: str, data: bytes) -> None:
        path = self.folder / filename
        path.write_bytes(data)
        self.paths.append(path)

    def pages(self, stem: str, pages: list[bytes]) -> None:
        """``stem.png``, or ``stem-1.png``, ``stem-2.png``… (:func:`page_paths`)."""
        for path, png in zip(page_paths(self.folder, stem, len(pages)), pages, strict=True):
            self.write(path.name, png)

    def name_each(self, out: TextIO) -> None:
        for path in self.paths:
            out.write(f"  {path.name} ({path.stat().st_size} B)\n")


def tables_pngs(view: RoundView, date: str, locale: str) -> list[bytes]:
    """The round's cards in the bot's own pages (``renderer.pages``' phone rule)."""
    data = tables_render_data(view, date=date)
    return render_tables_pages(data, words=image_words(locale))


def _bracket_png(
    semis: RoundView,
    semi_reports: list[ReportView | None],
    final: RoundView,
    final_report: ReportView,
    seeds: dict[str, int],
    date: str,
    locale: str,
) -> list[bytes]:
    """The final phase as a bracket: the final, its points and champion, then the semifinal tables with their
    winners, in the bot's pages."""
    data = bracket_render_data(semis, semi_reports, final, final_report, seeds, date=date)
    return render_bracket_pages(data, words=image_words(locale))


async def _play(
    services: Services,
    name: str,
    organizer: Actor,
    rng: random.Random,
    out: TextIO,
    locale: str,
    written: Written,
) -> tuple[int, int]:
    """Two qualifying rounds, semifinals and a final through the same services a Discord user triggers;
    table and standings images written to the demo's folder. Returns the tables reported and those locked."""

    def say(key: str, **params: object) -> None:
        out.write(t(key, locale, **params) + "\n")

    date = services.clock().date().isoformat()
    write, write_pages = written.write, written.pages

    validation = await services.tournaments.validate(organizer, name)
    say("demo.play.validated", count=validation.validated)
    locked = 0
    tables = 0
    for number in (1, 2):
        if number == 2:  # round 1 is over; round 2 starts in a minute, and someone will be late
            await services.rounds.close(organizer, tournament=name)
            start = services.clock() + timedelta(minutes=61)  # reminders 60 and 10 minutes before it
            await services.rounds.plan(organizer, tournament=name, start=start)
            await _schedule_at_work(services, name, organizer, out, locale)  # … and the clock reaches start - 1 min
        drawn = await services.rounds.draw(organizer, tournament=name)
        published = (await services.rounds.publish(organizer, tournament=name, number=drawn.number)).round
        say("demo.play.round", number=published.number, tables=len(published.tables), seed=published.seed or 0)
        write_pages(f"round-{number}-tables", await asyncio.to_thread(tables_pngs, published, date, locale))
        if number == 1:
            await _clock_at_work(services, name, published, rng, out, locale)
        if number == 2:
            await _referee_at_work(services, name, published, organizer, out, locale)
            published = await services.rounds.show(organizer, tournament=name, number=published.number)  # reseated
        locked += await report_round(services, published, rng, out, locale)
        tables += len(published.tables)
    image = await standings_image(
        await services.standings.compute(DEMO_GUILD, name), date=services.clock().date().isoformat(), locale=locale
    )
    for page, data in enumerate(image.pages, start=1):
        write(f"standings-{page}.png", data)
    write("standings.csv", standings_csv(image.view, locale))
    standings = image.view
    say("demo.play.standings", rounds=standings.rounds)
    for line in standings.lines[:8]:
        out.write(f"  {line.rank:>2}. {line.name:<12} {format_number(line.points, locale):>6}\n")
    for decision in standings.explanations[:3]:
        names = join_names(decision.names, locale)
        if decision.resolved and decision.tie_breaker:
            criterion = t(f"standings.tiebreaker.{decision.tie_breaker}", locale)
            values = ", ".join(f"{n} {v}" for n, v in decision.values)
            out.write(
                "  " + t("standings.tie.resolved", locale, names=names, criterion=criterion, values=values) + "\n"
            )
        else:
            out.write("  " + t("standings.tie.shared", locale, names=names) + "\n")
    semis = await services.rounds.seed_semifinals(organizer, tournament=name)
    semis = (await services.rounds.publish(organizer, tournament=name, number=semis.number)).round
    say("demo.play.semifinals", tables=len(semis.tables), direct=join_names(semis.direct_finalists, locale) or "—")
    for tie in semis.ties:  # players level where a line cut them (the cut, a band's edge…): named, and what decided
        out.write("  " + cut_text(locale, tie, name=str) + "\n")
    write_pages("semifinals-tables", await asyncio.to_thread(tables_pngs, semis, date, locale))
    locked += await report_round(services, semis, rng, out, locale)
    tables += len(semis.tables)
    semi_reports: list[ReportView | None] = [
        await services.reports.lookup(REFEREE, TableRef(name, tb.number, semis.number)) for tb in semis.tables
    ]
    final = await services.rounds.compose_final(organizer, tournament=name)
    final = (await services.rounds.publish(organizer, tournament=name, number=final.number)).round
    say("demo.play.final", players=join_names((s.name for s in final.tables[0].seats), locale))
    for tie in final.ties:  # level players the replacement chain had to order
        out.write("  " + cut_text(locale, tie, name=str) + "\n")
    write_pages("final-table", await asyncio.to_thread(tables_pngs, final, date, locale))
    locked += await report_round(services, final, rng, out, locale)
    tables += len(final.tables)
    final_report = await services.reports.lookup(REFEREE, TableRef(name, final.tables[0].number, final.number))
    await classification_at_work(services, name, out, locale, write, write_pages)
    document = await services.exports.by_name(DEMO_GUILD, tournament=name)  # all the data out (docs/export.md)
    write("tournament.json", json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8"))
    export = read_export(document)  # the national ranking's workbook, from the same document
    write("modulo-torneo.xlsx", await asyncio.to_thread(modulo_workbook, export))
    say("demo.play.modulo", players=len(played_players(export)), rounds=len(played_rounds(export)))
    write("round-1.pdf", await asyncio.to_thread(table_sheets, export, 1, locale=locale))  # the paper kit
    write("round-1-pairings.pdf", await asyncio.to_thread(pairings, export, 1, locale=locale))
    seeds = {line.name: line.rank for line in standings.lines}
    write_pages(
        "final-phase-bracket",
        await asyncio.to_thread(_bracket_png, semis, semi_reports, final, final_report, seeds, date, locale),
    )
    return tables, locked


async def classification_at_work(
    services: Services,
    name: str,
    out: TextIO,
    locale: str,
    write: Callable[[str, bytes], None],
    write_pages: Callable[[str, list[bytes]], None],
) -> None:
    """The prize-giving: the final classification (the champion first), its image and its CSV, as /standings show
    and /standings export give them once the final is played."""
    final = await services.classification.show(DEMO_GUILD, name)
    if final is None or not final.complete:  # pragma: no cover - the demo always plays its final
        return
    names = join_names((line.name for line in final.champions), locale)
    out.write(t("classification.champion", locale, names=names, count=len(final.champions)) + "\n")
    out.write(t("demo.play.classification", locale) + "\n")
    for line in final.lines[:8]:
        note = stage_note(line, locale) or ""
        out.write(f"  {line.place or '—':>2}. {line.name:<14} {note}\n")
    date = services.clock().date().isoformat()
    write_pages("classification", list(await classification_image(final, date=date, locale=locale)))
    write("classification.csv", classification_csv(final, locale))


SPRING = "Torneo Demo di Primavera"


async def _season_at_work(
    services: Services, name: str, organizer: Actor, rng: random.Random, out: TextIO, locale: str, written: Written
) -> None:
    """A short season: the tournament just played and a one-round spring tournament of its best twelve, one ranking
    across the two (each tournament's standings carried over), its image and CSV written beside the others."""

    def say(key: str, **params: object) -> None:
        out.write(t(key, locale, **params) + "\n")

    season = await services.seasons.create(organizer, name="Stagione Demo", tournament=name)
    await services.tournaments.create(organizer, name=SPRING, preset=season.preset)
    first = await services.standings.compute(DEMO_GUILD, name)
    for best in first.lines[:12]:
        assert best.user_id is not None
        await services.registrations.register(Actor(guild_id=DEMO_GUILD, user_id=best.user_id, display_name=best.name),
                                              tournament=SPRING, display_name=best.name, club=best.club)  # fmt: skip
    await services.seasons.attach(organizer, season=season.name, tournament=SPRING)
    await services.tournaments.validate(organizer, SPRING)
    drawn = await services.rounds.draw(organizer, tournament=SPRING)
    published = (await services.rounds.publish(organizer, tournament=SPRING, number=drawn.number)).round
    say("demo.season.spring", name=SPRING, tables=len(published.tables))
    await report_round(services, published, rng, out, locale)
    await services.rounds.close(organizer, tournament=SPRING)
    view = await services.seasons.show(DEMO_GUILD, season.name)
    say("demo.season.title", season=view.name, count=len(view.tournaments), tournaments=" → ".join(view.tournaments))
    for line in view.lines[:8]:
        parts = " + ".join("—" if p is None else format_number(p, locale) for p in line.by_tournament)
        out.write(f"  {line.rank:>2}. {line.name:<12} {format_number(line.points, locale):>6}  ({parts})\n")
    for decision in view.explanations[:2]:
        out.write(f"  {explain_season_tie(decision, locale)}\n")
    image = await season_image(view, date=services.clock().date().isoformat(), locale=locale)
    before = len(written.paths)
    written.pages("season", list(image.pages))
    written.write("season.csv", season_csv(view, locale))
    say("demo.season.files", files=len(written.paths) - before)


def run_demo(
    *,
    output_dir: str = "demo-output",
    keep_database: bool = False,
    locale: str = "en",
    players: int = 38,
    out: TextIO | None = None,
    format: str = "italian",
    web_port: int | None = None,
    play: Callable[[str, TextIO, str, Path], Coroutine[Any, Any, None]] | None = None,
) -> int:
    out = out or sys.stdout
    Path(output_dir).mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="steward-demo-"))
    db_path = workdir / "demo.db"
    db_url = f"sqlite+aiosqlite:///{db_path}"
    try:
        upgrade_to_head(db_url)
        out.write(t("demo.database", locale, path=str(db_path)) + "\n")
        if format == "italian":
            asyncio.run(_run(db_url, out, locale, players, Path(output_dir)))
        elif play is not None:  # a format played by its own module on these helpers (the club championship)
            asyncio.run(play(db_url, out, locale, Path(output_dir)))
        else:
            asyncio.run(_run_format(db_url, out, locale, format, Path(output_dir)))
        if web_port is not None:  # steward demo --web: then the tournament's venue pages, until Ctrl-C
            asyncio.run(_serve_web(db_url, web_port, out))
    finally:
        if keep_database:
            out.write(t("demo.kept", locale, path=str(db_path)) + "\n")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    Path(output_dir).mkdir(parents=True, exist_ok=True)
    return 0
