"""The printed sheets' test kit: an export document to print (``export_dict``), poppler to read the PDF back
(the ``poppler`` fixture, ``pages_of``, ``lines_of``, ``qr_codes``, ``fonts_of``). Used by tests/test_paper.py,
tests/cogs/test_print_cog.py and benchmarks/paper.py."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.rules.tournament.export import ExportDocument, read_export

TOOLS = ("pdftotext", "pdftoppm", "pdffonts")
VENUE = "https://club.example/v/tok3n"
CLUBS = ("Lupi di Bologna", "Carrarmatini Roma", None, "Dadi Tratti Milano")
NAMES = [
    "Anna", "Annalisa", "Bruno", "Carla", "Čeněk", "Dario", "Elena", "Émile", "Fabio", "Giulia", "Ilaria", "Luca",
    "Marta", "Niccolò", "Olga", "Ömer", "Pietro", "Zoë",
]  # fmt: skip
SIZES = (5, 5, 4, 4)  # 18 players: two tables of five, two of four


@pytest.fixture(scope="module")
def poppler() -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        message = f"poppler-utils is not installed ({', '.join(missing)} missing): apt-get install poppler-utils"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def export_dict(names: list[str] | None = None, sizes: tuple[int, ...] | None = None, *, final: bool = True,
                game: str = "risiko") -> dict[str, Any]:  # fmt: skip
    """A whole-tournament export as ``steward demo`` writes one: round 1 reported, round 2 drawn; standings from
    round 1; a final classification (two finalists' places from the final, the rest from the standings)."""
    names = names or NAMES
    sizes = sizes or SIZES
    players = []
    for k, name in enumerate(names, start=1):
        player: dict[str, Any] = {"id": k, "name": name}
        if CLUBS[k % len(CLUBS)] is not None:
            player["club"] = CLUBS[k % len(CLUBS)]
        players.append(player)
    players[-1]["status"] = "withdrawn"
    ids = [p["id"] for p in players]

    def tables(order: list[int], report: bool) -> list[dict[str, Any]]:
        out, start = [], 0
        for number, size in enumerate(sizes, start=1):
            seats = order[start : start + size]
            start += size
            table: dict[str, Any] = {"number": number, "seats": seats}
            if report:
                table["report"] = {"kind": "points", "locked": True, "results": [
                    {"player": pid, "table_points": float(60 - 10 * r), "rank": r + 1,
                     "tournament_points": float(12 - 3 * r)} for r, pid in enumerate(seats)]}  # fmt: skip
            out.append(table)
        return out

    round_2 = ids[1::2] + ids[0::2]  # everyone somewhere else
    points = {}
    for table in tables(ids, True):
        for result in table["report"]["results"]:
            points[result["player"]] = result["tournament_points"]
    ranked = sorted(ids, key=lambda pid: (-points[pid], pid))
    standings = [{"rank": ranked.index(pid) + 1, "player": pid, "points": points[pid], "games": 1,
                  "table_points": 60.0 - 10 * (ranked.index(pid) % 5),
                  "standing": "withdrawn" if pid == ids[-1] else "active"} for pid in ranked]  # fmt: skip
    doc: dict[str, Any] = {
        "schema": "steward-export/1",
        "tournament": {"name": "Coppa d'Autunno", "game": game, "preset": "risiko-ufficiali-2018"},
        "players": players,
        "rounds": [
            {"number": 1, "kind": "qualifying", "date": "2026-11-21", "tables": tables(ids, True)},
            {"number": 2, "kind": "qualifying", "status": "published", "tables": tables(round_2, False)},
        ],
        "standings": standings,
    }
    if final:
        doc["rounds"].append({"number": 3, "kind": "final", "status": "published",
                              "tables": [{"number": 1, "seats": ranked[:4]}]})  # fmt: skip
        doc["final_classification"] = [
            {"place": k, "player": pid, "stage": "final" if k <= 4 else "qualifying"}
            for k, pid in enumerate(ranked, start=1)
        ]
    return doc


def export(**kwargs: Any) -> ExportDocument:
    return read_export(export_dict(**kwargs))


def pages_of(pdf: bytes, *, layout: bool = False) -> list[str]:
    """The text of every page, as ``pdftotext`` reads it (``-layout``: the columns kept on one line)."""
    command = ["pdftotext", *(["-layout"] if layout else []), "-enc", "UTF-8", "-", "-"]
    done = subprocess.run(command, input=pdf, capture_output=True, check=True)
    pages = done.stdout.decode("utf-8").split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


def lines_of(page: str) -> list[str]:
    return [line.strip() for line in page.splitlines() if line.strip()]


def qr_codes(pdf: bytes, page: int, *, dpi: int = 150) -> list[str]:
    """The QR codes on page ``page`` (1-based), rendered as a person's printer would and decoded."""
    import zxingcpp
    from PIL import Image

    done = subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", "-png", "-"],
                          input=pdf, capture_output=True, check=True)  # fmt: skip
    image = Image.open(io.BytesIO(done.stdout))
    return [code.text for code in zxingcpp.read_barcodes(image) if code.format == zxingcpp.BarcodeFormat.QRCode]


def fonts_of(path: Path) -> list[dict[str, str]]:
    done = subprocess.run(["pdffonts", str(path)], capture_output=True, check=True, text=True)
    rows = done.stdout.splitlines()[2:]
    out = []
    for row in rows:
        cells = row.split()
        # name, type (one or two words), encoding, emb, sub, uni, object, ID
        out.append({"name": cells[0], "emb": cells[-5], "sub": cells[-4], "uni": cells[-3]})
    return out
