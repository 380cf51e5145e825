"""Documents: what the pages show is what the program does.

- every file a documented `steward` command writes lands where git ignores it (the render examples used to leave
  seven PNGs in the repository root);
- docs/cli.md shows the output `steward db upgrade` really prints;
- docs/tournament-day*.md name real slash commands in each language, and its images exist, are small and are drawn
  from the documents beside them;
- a `territory;owner;armies` CSV scores FIRK only, as the command's description and the docs say.
"""

from __future__ import annotations

import re
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

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
    assert images == ["examples/day/tables.png", "examples/day/standings.png", shot, "examples/day/bracket.png"]
    png = REPO / "docs" / shot
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size < 200_000
    assert "tests/web/test_report_browser.py" in text
    images.remove(shot)
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
