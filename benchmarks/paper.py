"""Paper benchmark (issue 41: "a 250-player round prints in under 10 s"): the A4 PDF kit of a 250-player round —
62 table sheets with QR codes, the pairings for the door — and the standings, each against a baseline in the same
run: the same pages' text alone (every string the pages carry, drawn with the same embedded DejaVu fonts by the same
library, no boxes, no QR codes, no fitting). A ratio > 1 is the cost of the layout and the QR codes. The last line
times ``steward print`` end to end (a fresh process: start-up, reading the export, writing the file).

    python -m benchmarks.paper [--repeat 5] [--players 250]
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import segno
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from bot.present import paper
from bot.rules.tournament.export import ExportDocument, read_export
from tests.support.paper import export_dict

VENUE = "https://club.example/v/0123456789abcdef0123456789abcdef"
LIMIT_SECONDS = 10.0


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` runs, after one warm-up."""
    fn()
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def sizes_for(players: int) -> tuple[int, ...]:
    """Tables of four, and of five where four does not divide (ARB 5's cinquisti)."""
    fives = next(f for f in range(4) if (players - 5 * f) % 4 == 0)
    return (5,) * fives + (4,) * ((players - 5 * fives) // 4)


def text_only(pages: list[list[str]]) -> bytes:
    """The baseline: each page's strings, one per line, in the same embedded fonts, nothing else drawn."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1, pageCompression=1, initialFontName=paper.REGULAR)
    for strings in pages:
        y = A4[1] - 50
        for k, text in enumerate(strings):
            canvas.setFont(paper.BOLD if k % 2 else paper.REGULAR, 11)
            canvas.drawString(40, y, text)
            y -= 14
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def sheet_strings(doc: ExportDocument, number: int) -> list[list[str]]:
    players = {p.id: p for p in doc.players}
    rnd = paper.round_of(doc, number)
    header = ["Tavolo", "Turno", "Posto", "Giocatore", "Obiettivo", "Punti tavolo", "Firma", "Inizio", "Fine",
              "Arbitro", "Note", doc.tournament.name, "Pagina 1 di 62", paper.table_url(VENUE, 1)]  # fmt: skip
    return [header + [s for pid in t.seats for s in (players[pid].name, players[pid].club or "", "raggiunto")]
            for t in rnd.tables]  # fmt: skip


def listing_strings(rows: list[tuple[str, ...]], per_page: int = 37) -> list[list[str]]:
    return [[cell for row in rows[k : k + per_page] for cell in row] for k in range(0, len(rows), per_page)]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--players", type=int, default=250)
    args = parser.parse_args()

    names = [f"Giocatore {k:03d} Cognome{k}" for k in range(1, args.players + 1)]
    data = export_dict(names=names, sizes=sizes_for(args.players))
    doc = read_export(data)
    tables = len(doc.rounds[0].tables)
    players = {p.id: p for p in doc.players}
    pairing_rows = [(p.player.name, p.player.club or "", str(p.table), str(p.seat)) for p in paper.pairings_of(doc, 1)]
    standing_rows = [(str(s.rank), players[s.player].name, players[s.player].club or "", f"{s.points:g}")
                     for s in doc.standings]  # fmt: skip
    sheets_baseline = sheet_strings(doc, 1)

    rows = [
        (f"table sheets ({tables} tables, QR codes)",
         timed(lambda: paper.table_sheets(doc, 1, locale="it", venue_url=VENUE), args.repeat),
         timed(lambda: text_only(sheets_baseline), args.repeat)),
        (f"pairings ({args.players} players)",
         timed(lambda: paper.pairings(doc, 1, locale="it"), args.repeat),
         timed(lambda: text_only(listing_strings(pairing_rows)), args.repeat)),
        (f"standings ({len(doc.standings)} lines; final classification)",
         timed(lambda: paper.standings(doc, locale="it"), args.repeat),
         timed(lambda: text_only(listing_strings(standing_rows)), args.repeat)),
    ]  # fmt: skip
    print(f"paper kit of a {args.players}-player round (median of {args.repeat} runs, after a warm-up)")
    print(f"{'what':<52} {'ours s':>8} {'text-only s':>12} {'ratio':>7}")
    codes = timed(lambda: [segno.make(paper.table_url(VENUE, n), error="m").matrix for n in range(1, tables + 1)],
                  args.repeat)  # fmt: skip
    for k, (what, ours, base) in enumerate(rows):
        print(f"{what:<52} {ours:>8.3f} {base:>12.3f} {ours / base:>7.2f}")
        if k == 0:
            print(f"{'  of which the QR codes alone (segno, mask choice)':<52} {codes:>8.3f}")
    kit = rows[0][1] + rows[1][1]
    print(f"{'round kit (sheets + pairings), in process':<52} {kit:>8.3f}")

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "tournament.json"
        source.write_text(json.dumps(data), encoding="utf-8")
        out = Path(folder) / "round-1.pdf"
        command = [sys.executable, "-m", "bot.cli", "print", "--input", str(source), "--out", str(out), "--round", "1",
                   "--venue-url", VENUE, "--json"]  # fmt: skip
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            runs.append(time.perf_counter() - t0)
        cli = statistics.median(runs)
        size = out.stat().st_size
    verdict = "ok" if cli < LIMIT_SECONDS else "OVER THE LIMIT"
    print(f"{'steward print --round 1 (fresh process, median of 3)':<52} {cli:>8.3f}   "
          f"{size // 1024} KiB; limit {LIMIT_SECONDS:g} s: {verdict}")  # fmt: skip
    return 0 if cli < LIMIT_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
