"""Documents: what the pages show is what the program does.

- every file a documented `steward` command writes lands where git ignores it (the render examples used to leave
  seven PNGs in the repository root);
- docs/cli.md shows the output `steward db upgrade` really prints;
- docs/tournament-day*.md name real slash commands in each language and real `steward` commands, and its images
  exist, are small and are drawn from the documents beside them; its worked final-situation report gives the engine's
  numbers, and its steps (check-in and the draw, round two, deleting a test tournament) are followed on the demo's
  database (issue 44);
- a `territory;owner;armies` CSV scores FIRK only, as the command's description and the docs say.
"""

from __future__ import annotations

import io
import json
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import catalogue
from tests.test_docs_commands import COMMANDS, RUNNABLE

REPO = Path(__file__).resolve().parents[1]
DAY = {"it": REPO / "docs" / "tournament-day.md", "en": REPO / "docs" / "tournament-day.en.md"}


def _written_paths(command: str) -> list[str]:
    """The files a documented command writes: `-o`/`--output` values, a `db backup` target, an SQLite URL."""
    words = shlex.split(command.split("|")[-1])
    found = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-o", "--output")]
    if "demo" in words:  # a folder: what it writes into it
        found = [f"{folder.rstrip('/')}/standings.csv" for folder in found] or ["demo-output/standings.csv"]
    if "db" in words and "backup" in words:
        found.append(words[words.index("backup") + 1])
    found += re.findall(r"sqlite:///(\S+)", command)
    if "db" in words and "upgrade" in words and "sqlite:///" not in command:
        found.append("steward.db")  # the default DATABASE_URL
    return found


def test_every_file_a_documented_command_writes_is_ignored_by_git():
    written = sorted({p for c in RUNNABLE for p in _written_paths(c.text)})
    assert "render-output/tables.png" in written and "steward.db" in written
    done = subprocess.run(["git", "check-ignore", "--no-index", *written], cwd=REPO, capture_output=True, text=True)
    ignored = set(done.stdout.split())
    assert [p for p in written if p not in ignored] == []


def _upgrade(db: Path) -> str:
    env = {"DATABASE_URL": f"sqlite:///{db}", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "db", "upgrade"], cwd=db.parent, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    return done.stdout


def test_cli_md_shows_what_db_upgrade_really_prints(tmp_path: Path):
    from alembic import command

    from bot.db.migrate import alembic_config

    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    block = text[text.index("## db upgrade") : text.index("## db backup")]
    shown = block[block.index("```\n") + 4 :].split("```", 1)[0].splitlines()
    db = tmp_path / "steward.db"
    first, again = _upgrade(db), _upgrade(db)
    old = tmp_path / "old" / "steward.db"
    old.parent.mkdir()
    command.upgrade(alembic_config(f"sqlite:///{old}"), "0005")
    with sqlite3.connect(old) as conn:  # a club's data: the upgrade backs the file up first
        conn.execute("INSERT INTO guild_config (guild_id, locale, next_case_number, created_at, updated_at) "
                     "VALUES (1, 'it', 1, '2026-01-01', '2026-01-01')")  # fmt: skip
    upgraded = _upgrade(old)
    printed = [line.replace(str(tmp_path / "old") + "/", "").replace(str(tmp_path) + "/", "")
               for line in (first + again + upgraded).splitlines()]  # fmt: skip
    assert shown == printed


def _slash_names() -> dict[str, set[str]]:
    """Every command path as members see it: `/round draw` in English, `/turno sorteggia` in Italian."""
    names: dict[str, set[str]] = {}
    english = catalogue("en")
    for locale in ("en", "it"):
        words = catalogue(locale)
        paths = [k[4:-5] for k in english if k.startswith("cmd.") and k.endswith(".name") and ".opt." not in k]
        top = {p: words[f"cmd.{p}.name"] for p in paths if " " not in p}
        names[locale] = {"/" + " ".join([top[p.split(" ")[0]], *([words[f"cmd.{p}.name"]] if " " in p else [])])
                         for p in paths}  # fmt: skip
    return names


@pytest.mark.parametrize("locale", ["it", "en"])
def test_the_tournament_day_names_real_commands_in_each_language(locale: str):
    names = _slash_names()
    other = "en" if locale == "it" else "it"
    text = DAY[locale].read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "`/" in line]
    assert len(rows) >= 30
    for row in rows:
        command_cell = row.split("|")[2]
        first, *_rest = re.findall(r"\((.*?)\)", command_cell) or [""]
        own = re.findall(r"`(/[^`]+)`", command_cell.split("(")[0])
        for found in own:
            assert found in names[locale], (locale, found, row)
        for found in re.findall(r"`(/[^`]+)`", first):
            assert found in names[other] or found in {n.split(" ")[-1] for n in names[other]}, (other, found, row)
    for found in re.findall(r"`(/[a-z-]+(?: [a-z-]+)?)`", text):  # commands named in the prose too
        assert found in names[locale] or found in names[other], (locale, found)


@pytest.mark.parametrize("locale", ["it", "en"])
def test_the_tournament_day_shows_small_images_drawn_from_the_documents_beside_them(locale: str):
    text = DAY[locale].read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    shot = "report-page.png"  # the report page in Chromium at 360 px: tests/web/test_report_browser.py takes it
    screen = "venue-projector.png"  # issue 44: the venue screen, taken in Chromium (tests/web/), as in the README
    assert images == [screen, "examples/day/tables.png", "examples/day/standings.png", shot, "examples/day/bracket.png"]
    for taken in (shot, screen):
        png = REPO / "docs" / taken
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size < 200_000, taken
    assert "tests/web/test_report_browser.py" in text
    images.remove(shot)
    images.remove(screen)
    for image in images:
        png = REPO / "docs" / image
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size < 200_000, image
        kind = png.stem
        assert f"steward render {kind} docs/examples/day/{kind}.json -o render-output/" in text
    assert "README.md" in text and ("tournament-day.en.md" if locale == "it" else "tournament-day.md") in text


def test_the_readme_links_the_tournament_day_in_both_languages():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "(docs/tournament-day.md)" in readme and "(docs/tournament-day.en.md)" in readme
    assert any(c.document == "docs/tournament-day.md" for c in COMMANDS)


def test_a_csv_situation_scores_every_preset_as_the_description_says():
    """Issue 42: the CSV has an objective column, so the objective rulebooks read it too; without it they still ask
    for each player's objective, and the descriptions say where it goes."""
    from bot.rules.risiko.config import load_rules
    from bot.rules.risiko.errors import RisikoError
    from bot.rules.risiko.scoring import score_situation, situation_document

    csv = "territorio;proprietario;armate\nCina;Anna;5\nIndia;Anna;3\nSiam;Bruno;2\n"
    assert score_situation(situation_document(csv), load_rules("risiko-firk-1")).table.order == ["Anna", "Bruno"]
    with_objectives = "territorio;giocatore;armate;obiettivo\nCina;Anna;5;Letto\nIndia;Anna;3\nSiam;Bruno;2;Elefante\n"
    for preset in ("risiko-nostra-passione-2018", "risiko-ufficiali-2018"):
        with pytest.raises(RisikoError) as refused:
            score_situation(situation_document(csv), load_rules(preset))
        assert refused.value.code == "objective_missing"
        scored = score_situation(situation_document(with_objectives), load_rules(preset))
        assert {p.name for p in scored.table.players} == {"Anna", "Bruno"}
    for locale, words in (("en", "objective"), ("it", "obiettivo")):
        for key in ("cmd.score.opt.file.description", "cmd.report situation.opt.file.description"):
            assert words in catalogue(locale)[key], (locale, key)
    assert "the CSV's objective column" in catalogue("en")["error.adjudicator.objective_missing"]


# --------------------------------------------------------------------------- issue 44: the evening guide, checked

WORKED = {"it": "### Un referto svolto", "en": "### A worked report"}


def _section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of any level."""
    start = text.index(heading)
    following = re.search(r"^#{2,3} ", text[start + len(heading) :], flags=re.M)
    return text[start : start + len(heading) + (following.start() if following else len(text))]


def _cli_commands() -> set[str]:
    """Every `steward` command and sub-command: `steward print`, `steward db backup`, `steward risiko score`…"""
    import argparse

    from bot.cli import build_parser

    def walk(parser: argparse.ArgumentParser, prefix: str) -> set[str]:
        found = {prefix}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found |= walk(sub, f"{prefix} {name}")
        return found

    return walk(build_parser(), "steward")


@pytest.mark.parametrize("locale", ["it", "en"])
def test_issue_44_every_steward_command_the_guide_names_exists(locale: str):
    """The fallback for a failed evening names `steward print`, `steward web`, `steward db backup`…: each is real."""
    text = DAY[locale].read_text(encoding="utf-8")
    named = re.findall(r"`(steward(?: [a-z][a-z-]*)+)", text)
    named += [c.text for c in COMMANDS if c.document == f"docs/{DAY[locale].name}"]
    known = _cli_commands()
    found = set()
    for name in named:
        words = name.split()
        command = next((" ".join(words[:k]) for k in (3, 2) if " ".join(words[:k]) in known), None)
        assert command is not None and command != "steward", (locale, name)
        found.add(command)
    assert {"steward print", "steward web", "steward run", "steward db backup", "steward risiko score"} <= found


@pytest.mark.parametrize("locale", ["it", "en"])
def test_issue_44_the_worked_report_gives_the_engine_s_numbers(locale: str):
    """The guide's worked final situation (the report page test's typical end, four players, the official preset)
    scored by the engine here: every objective, counted territory with its value, table points, place and
    tournament points in the guide's table are the engine's, and so are the facts its prose states."""
    from bot.rules.risiko.config import load_rules
    from bot.rules.risiko.scoring import score_situation
    from tests.web.report_situations import situation_document as typical_end

    names = ["Anna", "Bruno", "Carla", "Dario"]
    document = typical_end(names)
    rules = load_rules("risiko-ufficiali-2018")
    scored = score_situation(document, rules)
    points = dict(zip(scored.table.order, scored.tournament_points or (), strict=True))
    section = _section(DAY[locale].read_text(encoding="utf-8"), WORKED[locale])
    assert "`risiko-ufficiali-2018`" in section and "tests/web/report_situations.py" in section
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| ")]
    rows = {row[0]: row for row in cells if row[0] in names}
    assert list(rows) == scored.table.order  # the rows in the table's order, best first
    objectives = {p["name"]: p["objective"] for p in document["players"]}  # type: ignore[attr-defined]
    for player in scored.table.players:
        _, objective, counted, table_points, place, tournament = rows[player.name]
        territories = player.serialise()["explanation"]["territories"]
        assert objective == objectives[player.name]
        assert counted == ", ".join(f"{t['territory']} {t['value']}" for t in territories if t["counted"])
        assert int(table_points) == player.table_points
        assert int(re.match(r"\d+", place).group()) == player.rank  # type: ignore[union-attr]
        assert float(tournament) == points[player.name]
        assert sum(t["value"] for t in territories if t["counted"]) == player.table_points
    # the first player's line of the JSON shown is the situation's own
    held = {p["name"]: p["territories"] for p in document["players"]}  # type: ignore[attr-defined]
    anna = re.search(r'\{"name": "Anna", "objective": "Letto", "territories": (\{[^}]*\})', section)
    assert anna and json.loads(anna.group(1).replace("\n", " ")) == held["Anna"]
    # the prose: armies outside the objective, the objective's fixed points, the tie-breaks' order
    assert held["Carla"]["Argentina"] == 15 and held["Anna"]["Mongolia"] == 10
    for player in scored.table.players:
        for t in player.serialise()["explanation"]["territories"]:
            assert not (t["territory"] in ("Argentina", "Mongolia") and t["counted"]), (player.name, t)
    assert rules.scoring.objective_achieved_points == 100 and " 100 " in section
    assert rules.scoring.tiebreaks == ("outside_objective_value", "objective_armies", "all_armies", "dice_roll")


@pytest.mark.parametrize("locale", ["it", "en"])
def test_issue_44_the_guide_quotes_the_bot_s_own_words_for_a_deletion(locale: str):
    """The refusal the guide quotes and the button it names are the catalogue's, in the guide's language."""
    from bot.i18n import t

    text = DAY[locale].read_text(encoding="utf-8")
    name = "Prova" if locale == "it" else "Test"
    assert t("error.tournament.has_results", locale, tournament=name, tables=1, sanctions=0) in " ".join(text.split())
    assert f"**{t('tournament.delete.button', locale)}**" in text


@pytest.fixture(scope="module")
def demo_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """`steward demo` run once, in-process as tests/test_demo.py runs it, its database kept for the guide's steps."""
    from bot.demo import run_demo

    out = io.StringIO()
    assert run_demo(output_dir=str(tmp_path_factory.mktemp("demo")), keep_database=True, locale="it", out=out) == 0
    path = Path(re.findall(r"(/\S+/demo\.db)", out.getvalue())[-1])
    yield path
    shutil.rmtree(path.parent, ignore_errors=True)


async def _rows(services: Any) -> dict[str, set[str]]:
    """Every row of every table but the audit log (which only grows)."""
    from sqlalchemy import select

    from bot.db.models import SQLModel

    out: dict[str, set[str]] = {}
    async with services.sessionmaker() as session:
        for table in SQLModel.metadata.sorted_tables:
            if table.name != "audit_log":
                rows = (await session.execute(select(table))).all()
                out[table.name] = {json.dumps(list(row), sort_keys=True, default=str) for row in rows}
    return out


async def test_issue_44_the_guide_s_steps_followed_on_the_demo_s_database(demo_database: Path):
    """The evening guide on the demo's database, through the services the commands call: who is drawn (a player
    without a check-in is, one who forfeited is not), the worked final situation entered as `/report situation`
    gives the guide's numbers, round two needs its own check-ins and takes the forfeit back, the demo's tournaments
    and a tournament with a report cannot be deleted, and a test tournament is deleted leaving every other row of
    the demo's database as it was."""
    from datetime import UTC, datetime

    from bot.db.session import make_engine, make_sessionmaker
    from bot.demo import DEMO_GUILD, ROLE_ORGANIZER, ROLE_REFEREE
    from bot.errors import Conflict, NotFound
    from bot.services import Services
    from bot.services.access import Actor
    from bot.services.report_views import TableRef
    from tests.web.report_situations import situation_document as typical_end

    engine = make_engine(f"sqlite+aiosqlite:///{demo_database}")
    services = Services(make_sessionmaker(engine), lambda: datetime.now(UTC))
    organizer = Actor(guild_id=DEMO_GUILD, user_id=2, role_ids=frozenset({ROLE_ORGANIZER}))
    referee = Actor(guild_id=DEMO_GUILD, user_id=3, role_ids=frozenset({ROLE_REFEREE}))
    names = ["Anna", "Bruno", "Carla", "Dario", "Eva"]
    players = {name: Actor(guild_id=DEMO_GUILD, user_id=9100 + i, display_name=name) for i, name in enumerate(names)}
    try:
        # the demo's tournaments have results: they stay in the history
        for shown in await services.tournaments.list(DEMO_GUILD):
            with pytest.raises(Conflict) as refused:
                await services.tournaments.deletion(organizer, shown.name)
            assert refused.value.key == "error.tournament.has_results"

        # a test evening: five register, Dario never checks in, Eva forfeits round 1
        evening = "Serata di prova"
        await services.tournaments.create(organizer, name=evening, preset="risiko-ufficiali-2018")
        for name, player in players.items():
            await services.registrations.register(player, tournament=evening, display_name=name, club=None)
        await services.tournaments.validate(organizer, evening)
        await services.rounds.plan(organizer, tournament=evening)
        for name in ("Anna", "Bruno", "Carla"):
            await services.checkins.check_in(players[name], tournament=evening)
        await services.checkins.forfeit(players["Eva"], tournament=evening)
        drawn = await services.rounds.draw(organizer, tournament=evening)
        assert sorted(s.name for t in drawn.tables for s in t.seats) == ["Anna", "Bruno", "Carla", "Dario"]
        await services.rounds.publish(organizer, tournament=evening)

        # the worked report, entered as /report situation: the guide's table
        report = await services.reports.enter_situation(referee, TableRef(evening, 1), typical_end(names[:4]))
        section = _section(DAY["it"].read_text(encoding="utf-8"), WORKED["it"])
        guide = {
            row[0]: (int(row[3]), int(re.match(r"\d+", row[4]).group()), float(row[5]))  # type: ignore[union-attr]
            for line in section.splitlines()
            if line.startswith("| ") and (row := [c.strip() for c in line.strip("|").split("|")])[0] in names
        }
        assert {s.name: (s.table_points, s.rank, s.tournament_points) for s in report.seats} == guide
        with pytest.raises(Conflict) as refused:
            await services.tournaments.deletion(organizer, evening)
        assert refused.value.params == {"tournament": evening, "tables": 1, "sanctions": 0}

        # round two: close, plan, check in again (round 1's does not count), Eva back in the draw
        await services.rounds.close(organizer, tournament=evening)
        await services.rounds.plan(organizer, tournament=evening)
        again = await services.checkins.check_in(players["Anna"], tournament=evening)
        assert again.round_number == 2
        second = await services.rounds.draw(organizer, tournament=evening)
        assert sorted(s.name for t in second.tables for s in t.seats) == names

        # the test tournament: made, played up to a published round, deleted; nothing else changes
        before = await _rows(services)
        await services.tournaments.create(organizer, name="Prova", preset="risiko-ufficiali-2018")
        for name in names[:4]:
            await services.registrations.register(players[name], tournament="Prova", display_name=name, club=None)
        await services.rounds.plan(organizer, tournament="Prova")
        await services.checkins.check_in(players["Anna"], tournament="Prova")
        await services.rounds.draw(organizer, tournament="Prova")
        await services.rounds.publish(organizer, tournament="Prova")
        await services.venue.link(organizer, tournament="Prova")
        deletion = await services.tournaments.deletion(organizer, "Prova")
        assert (deletion.registrations, deletion.rounds, deletion.tables) == (4, 1, 1)
        await services.tournaments.delete(organizer, deletion.id, deletion.stamp)
        assert await _rows(services) == before
        with pytest.raises(NotFound):
            await services.tournaments.get(DEMO_GUILD, "Prova")
    finally:
        await engine.dispose()
