"""``steward demo`` end to end on a temporary folder: registration, two rounds, signed reports, semifinals,
final, standings and images (BOT-RES-1, BOT-STD-1, BOT-IMG-1, BOT-I18N-1)."""

from __future__ import annotations

import io
import json
import re
import struct
from pathlib import Path

import pytest

from bot.cli import main
from bot.demo import run_demo
from bot.demo_club import run_club_demo
from tests.support.modulo_contract import check

PNG = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG) and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize(("locale", "done", "winner"), [("it", "referti firmati da tutti", "🏆 Vince il torneo")])
def test_the_demo_runs_a_whole_tournament_offline_and_writes_the_images(
    tmp_path: Path, locale: str, done: str, winner: str
):
    out = io.StringIO()
    assert run_demo(output_dir=str(tmp_path), locale=locale, out=out) == 0
    text = out.getvalue()
    assert "37 giocatori iscritti di 5 club, 1 in lista d'attesa" in text
    assert "Turno 1: 9 tavoli" in text and "Turno 2: 9 tavoli" in text  # 37 = 8 tables of 4 + 1 of 5
    assert "Semifinali: 4 tavoli" in text and "Finale:" in text and winner in text
    # BOT-STD-1, TOUR-FIN-1: the final table's winner heads the final classification (not the qualifying standings)
    final_winner = re.search(r"Finale: .*\n  tavolo 1: vince (\w+)", text)
    assert final_winner and f"🏆 Vince il torneo {final_winner.group(1)}." in text
    assert re.search(rf"Classifica finale \(i primi otto\):\n   1\. {final_winner.group(1)} +Finale: 1° posto", text)
    m = re.search(r"Fatto — referti firmati da tutti: (\d+); tavoli bloccati: (\d+)", text)
    assert m and m.group(1) == m.group(2) and int(m.group(1)) >= 9 + 9 + 4 + 1
    assert done in text and "Traceback" not in text
    # BOT-SCH-1 / BOT-SCH-2: a schedule, its reminders, a clock with one pause and an sdadata ending
    assert "Promemoria 60 min prima del turno 2" in text and re.search(r"Annuncio #\d+ pubblicato: Pausa pizza", text)
    assert "Orologio avviato: 120 minuti" in text and "8 minuti di recupero, la sdadata si sposta" in text
    assert re.search(r"🎲 \w+ tira \d+ \(finisce con [4-7] o meno\): la partita è finita", text)
    assert "Partita finita con la sdadata" in text
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    # BOT-IMG-1: the bot's own pages (renderer.pages' phone rule), named stem-1.png, stem-2.png… when several
    for name in ("round-1-tables-1.png", "round-2-tables-1.png", "standings-1.png", "semifinals-tables.png"):
        width, height = png_size(files[name])
        assert width >= 600 and 300 <= height <= 3 * width, name
    assert png_size(files["final-table.png"])[0] >= 600
    assert png_size(files["final-phase-bracket-1.png"])[0] >= 600  # BOT-IMG-1: the final-phase bracket
    assert files["standings.csv"].startswith(b"\xef\xbb\xbf")
    assert files["classification.csv"].decode("utf-8-sig").splitlines()[1].split(";")[:2] == [
        "1",
        final_winner.group(1),
    ]
    assert png_size(files["classification-1.png"])[0] >= 600
    # all the data out (docs/export.md), the national ranking's workbook and the paper kit, from the same document
    assert json.loads(files["tournament.json"])["schema"] == "steward-export/1"
    assert check(files["modulo-torneo.xlsx"]) == ([], [])
    assert files["round-1.pdf"].startswith(b"%PDF") and files["round-1-pairings.pdf"].startswith(b"%PDF")
    # NP-PTS-1 / FIRK's annual ranking in the bot: a short season of two tournaments, one ranking across them
    assert "Stagione «Stagione Demo» dopo 2 tornei (Torneo Demo RisiKo! → Torneo Demo di Primavera):" in text
    assert files["season.csv"].startswith(b"\xef\xbb\xbf")
    assert any(n.startswith("season") and n.endswith(".png") for n in files)
    assert all(len(data) < 10 * 1024 * 1024 for data in files.values())  # each fits Discord's attachment limit


def test_the_demo_summary_is_in_english_too(tmp_path: Path):
    out = io.StringIO()
    run_demo(output_dir=str(tmp_path), locale="en", out=out)
    text = out.getvalue()
    assert "🏆 The tournament is won by" in text and "reports signed by everyone" in text
    assert "Final classification (the first eight):\n   1. " in text
    assert "Standings after 2 rounds" in text
    assert "Season “Stagione Demo” after 2 tournaments" in text
    # BOT-SAN-1..3: a referee at work — a late arrival, ARB 27's ladder, an appeal and the head referee's decision
    assert re.search(
        r"\w+: 5 minutes late: the organizers replace the player at the table \(ARB art\. 3\)\. \(case 1\)", text
    )
    assert "offence no. 1 — verbal warning (ARB 27)" in text and "offence no. 2 — lose cards or armies (ARB 27)" in text
    assert "appeals against the sanction of case 3" in text
    assert "The head referee decides case 3: appeal dismissed (final)" in text


def test_np_fmt_1_the_knockout_demo_runs_a_hundred_players_to_the_champion(tmp_path: Path):
    """`steward demo --format knockout`: NP's own example through the services — 100 → 20×5 → 5×4 → the final of 5,
    the plan said before the first draw, every table reported and signed, a champion."""
    out = io.StringIO()
    assert run_demo(output_dir=str(tmp_path), locale="en", out=out, format="knockout") == 0
    text = out.getvalue()
    assert "100 players registered" in text and "100: 20×5 → 20: 5×4 → 5: 1×5" in text
    assert "Round 1: 20 tables" in text and "Round 2: 5 tables" in text and "Round 3 is the final: 1 table" in text
    winner = re.search(r"Round 3 is the final: .*\n(?:.*\n)*?  table 1: (\w+ [A-Z]\.) wins", text)
    assert winner and f"🏆 The tournament is won by {winner.group(1)}." in text and "Traceback" not in text
    assert re.search(rf"   1\. {re.escape(winner.group(1))} +Final: place 1", text)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert {n.rsplit("-tables", 1)[0] for n in names} == {f"knockout-round-{n}" for n in (1, 2, 3)}
    assert "knockout-round-1-tables-2.png" in names and "knockout-round-3-tables.png" in names  # 20 tables: pages


def test_np_tab_1_the_team_demo_seats_one_player_per_team_and_ranks_the_teams(tmp_path: Path):
    """`steward demo --format teams`: six teams of four, one player per team at every table in both rounds, the
    team standings printed after the individual ones."""
    out = io.StringIO()
    assert run_demo(output_dir=str(tmp_path), locale="it", out=out, format="teams") == 0
    text = out.getvalue()
    assert "24 giocatori (squadre: 6)" in text and text.count("tavoli con un solo giocatore per squadra: 6 su 6") == 2
    team_part = text.split("Classifica a squadre:")[1]
    assert all(team in team_part for team in ("Aquile", "Lupi", "Orsi", "Falchi", "Tigri", "Volpi"))


def test_issue_47_the_club_demo_plays_a_short_championship_with_discards_to_the_champion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    """`steward demo --format club`: five evenings, an absence twice, a late entry on evening 3, each player's two
    worst evenings discarded (listed, struck through in the standings image, a column of the CSV), two direct
    finalists and the repechage said with its reason, a champion."""
    out = io.StringIO()
    assert run_club_demo(output_dir=str(tmp_path), locale="it", out=out) == 0
    capsys.readouterr()
    text = out.getvalue()
    assert "campionato del club su 5 serate" in text and "Traceback" not in text
    assert "si iscrive in ritardo alla serata 3: le 2 serate precedenti contano come assenze." in text
    assert text.count("è assente alla serata") == 2 and text.count("Serata ") == 5
    standings = text.split("Classifica dopo 5 serate")[1].split("Semifinali")[0]
    assert standings.count("scartate: ") == 10 and "scartate: —" not in standings
    assert re.search(r"Semifinali: 2 tavoli; accesso diretto alla finale: [^,\n]+(?:, | e )[^,\n]+\.", text)
    assert re.search(r"Ripescaggio: [^,]+, con la miglior partita singola sotto il taglio: \d+ punti", text)
    assert "🏆 Vince il torneo" in text
    csv_text = (tmp_path / "club-standings.csv").read_text(encoding="utf-8-sig")
    header = csv_text.splitlines()[0].split(";")
    assert header[-1] == "Turni scartati" and "Turno 5" in header
    assert png_size((tmp_path / "club-standings-1.png").read_bytes())[0] >= 340
    # the whole championship re-checks offline: every draw (the repechage's semifinals included) from its seed
    assert main(["verify", str(tmp_path / "club-tournament.json")]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("verified")
    assert main(["standings", "--input", str(tmp_path / "club-tournament.json"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["standings"]
    assert all(len(r["discarded"]) == 2 and len(r["counted"]) == 3 for r in rows)  # CLI.md: the rounds of each row
