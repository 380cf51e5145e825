"""Issue 41, paper: the A4 PDF kit read back as a person's tools read it — poppler's ``pdftotext`` finds every player
on their own table's sheet in seat order, the pairings sorted by name with table and seat, the final classification
(else the standings); ``pdffonts`` lists every font embedded; each table's QR code, rendered by ``pdftoppm`` and
decoded by zxing-cpp, is the table's card on the venue page. ``steward print`` writes the same pages. Deterministic:
the same export gives the same bytes; no clock is read.

Poppler (Debian's poppler-utils) is installed by ``.ci/run``; where it is missing the tests say they are skipped
(and fail under CI, where it must be there).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.present import paper
from bot.rules.tournament.export import read_export
from tests.support.paper import NAMES, VENUE, export, export_dict, fonts_of, lines_of, pages_of, poppler, qr_codes

__all__ = ["poppler"]  # the fixture, shared with tests/cogs/test_print_cog.py


# ------------------------------------------------------------------------------------------------ table sheets


@pytest.mark.parametrize("locale", ["it", "en"])
def test_every_player_is_on_their_own_table_sheet_in_seat_order(poppler: None, locale: str):
    doc = export()
    names = {p.id: p.name for p in doc.players}
    clubs = {p.id: p.club for p in doc.players}
    pages = pages_of(paper.table_sheets(doc, 2, locale=locale, venue_url=VENUE))
    tables = doc.rounds[1].tables
    assert len(pages) == len(tables) == 4
    table_word = {"it": "Tavolo", "en": "Table"}[locale]
    for page, table in zip(pages, tables, strict=True):
        lines = lines_of(page)
        assert f"{table_word} {table.number}" in lines
        seated = [line for line in lines if line in names.values()]
        assert seated == [names[pid] for pid in table.seats]  # each player here, in seat order, nobody else
        assert {clubs[pid] for pid in table.seats if clubs[pid]} <= set(lines)
        assert "Coppa d'Autunno" in lines
    words = {"it": ("Obiettivo", "Firma", "Arbitro", "Turno 2 · 5 giocatori"),
             "en": ("Objective", "Signature", "Referee", "Round 2 · 5 players")}[locale]  # fmt: skip
    assert all(word in lines_of(pages[0]) for word in words)


def test_every_table_sheet_carries_a_qr_code_to_its_table_on_the_venue_page(poppler: None):
    doc = export()
    pdf = paper.table_sheets(doc, 1, locale="it", venue_url=VENUE)
    for page, table in enumerate(doc.rounds[0].tables, start=1):
        assert qr_codes(pdf, page) == [f"{VENUE}#table-{table.number}"]
    assert paper.table_url(VENUE + "#table-9", 2) == f"{VENUE}#table-2"  # a URL copied from a card: its own anchor


def test_without_the_venue_page_there_is_no_qr_code_and_the_footer_says_why(poppler: None):
    doc = export()
    pdf = paper.table_sheets(doc, 1, locale="en", venue_url=None)
    assert qr_codes(pdf, 1) == []
    assert "No QR code: the address of the venue page was not given." in pages_of(pdf)[0]
    assert "Nessun codice QR" in pages_of(paper.table_sheets(doc, 1, locale="it"))[0]


def test_a_ricochet_sheet_has_no_objective_box_and_a_long_name_is_cut_to_fit(poppler: None):
    long_name = ("Maria Bernadette " + "Lunghissimo-" * 4)[:64]  # the longest name an export holds
    names = [long_name, *NAMES[1:8]]
    doc = export(names=names, sizes=(4, 4), final=False, game="ricochet")
    page = pages_of(paper.table_sheets(doc, 1, locale="en"))[0]
    assert "Objective" not in page and "Table points" in page
    cut = next(line for line in lines_of(page) if line.startswith("Maria Bernadette"))
    assert cut.endswith("…") and long_name.startswith(cut[:-1]) and len(cut) < len(long_name)


def test_the_sheets_embed_their_fonts_and_are_the_same_bytes_for_the_same_export(poppler: None, tmp_path: Path):
    doc = export()
    first = paper.table_sheets(doc, 1, locale="it", venue_url=VENUE)
    assert first == paper.table_sheets(export(), 1, locale="it", venue_url=VENUE)  # no clock, no random id
    for name, pdf in (("sheets", first), ("pairings", paper.pairings(doc, 1)), ("standings", paper.standings(doc))):
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(pdf)
        fonts = fonts_of(path)
        assert {f["name"].split("+")[-1] for f in fonts} == {"DejaVuSans", "DejaVuSans-Bold"}, name
        assert all(f["emb"] == "yes" and f["uni"] == "yes" for f in fonts), fonts  # embedded, text extractable


# ------------------------------------------------------------------------------------------------ the pairings


def _pairing_rows(pdf: bytes) -> list[tuple[str, int, int]]:
    """(name, table, seat) of every line of the pairings, page after page, as ``pdftotext -layout`` reads them."""
    rows = []
    for page in pages_of(pdf, layout=True):
        for line in page.splitlines():
            match = re.match(r"^\s*(\S.*?)(?:\s{2,}.*?)?\s{2,}(\d+)\s+(\d+)\s*$", line)
            if match:
                rows.append((match.group(1), int(match.group(2)), int(match.group(3))))
    return rows


@pytest.mark.parametrize("locale", ["it", "en"])
def test_the_pairings_list_everyone_once_sorted_by_name_with_table_and_seat(poppler: None, locale: str):
    doc = export()
    names = {p.id: p.name for p in doc.players}
    pdf = paper.pairings(doc, 2, locale=locale)
    rows = _pairing_rows(pdf)
    expected = sorted(((names[pid], t.number, seat) for t in doc.rounds[1].tables
                       for seat, pid in enumerate(t.seats, start=1)), key=lambda r: paper.sort_key(r[0]))  # fmt: skip
    assert rows == expected
    order = [name for name, _, _ in rows]
    assert order.index("Anna") < order.index("Annalisa") < order.index("Bruno")
    assert order.index("Carla") < order.index("Čeněk") < order.index("Dario")  # accents do not send Č after Z
    assert order.index("Olga") < order.index("Ömer") < order.index("Pietro")
    title = {"it": "Turno 2: chi siede dove", "en": "Round 2: who sits where"}[locale]
    assert title in pages_of(pdf)[0]


def test_a_big_round_s_pairings_run_over_pages_with_every_player_once(poppler: None):
    names = [f"Giocatore {k:03d}" for k in range(1, 121)]
    doc = export(names=names, sizes=(4,) * 30, final=False)
    pdf = paper.pairings(doc, 1, locale="it")
    pages = pages_of(pdf)
    assert len(pages) > 2 and f"Pagina {len(pages)} di {len(pages)}" in pages[-1]
    assert all("Giocatore" in page and "Tavolo" in page for page in pages)  # the header on every page
    assert [name for name, _, _ in _pairing_rows(pdf)] == names


# ------------------------------------------------------------------------------------------------ the standings


def test_the_standings_sheet_is_the_final_classification_when_there_is_one(poppler: None):
    doc = export()
    assert doc.final_classification is not None
    page = pages_of(paper.standings(doc, locale="it"), layout=True)[0]
    assert "Classifica finale" in page
    names = {p.id: p.name for p in doc.players}
    found = []
    for line in page.splitlines():
        match = re.match(r"^\s*(\d+)\s+(\S.*?)\s{2,}", line)
        if match and match.group(2) in names.values():
            found.append((int(match.group(1)), match.group(2)))
    assert found == [(p.place, names[p.player]) for p in doc.final_classification]
    first = next(line for line in page.splitlines() if names[doc.final_classification[0].player] in line)
    assert "Finale" in first
    last = next(line for line in page.splitlines() if names[doc.final_classification[-1].player] in line)
    assert "Qualificazione" in last


def test_without_a_final_classification_the_standings_are_printed_with_who_withdrew(poppler: None):
    doc = export(final=False)
    page = pages_of(paper.standings(doc, locale="en"), layout=True)[0]
    assert "Standings" in page and "Final classification" not in page and "1 round played" in page
    names = {p.id: p.name for p in doc.players}
    ranked = [names[s.player] for s in doc.standings]
    lines = [line for line in page.splitlines() if any(n in line for n in ranked)]
    assert len(lines) == len(ranked)
    assert "Zoë (withdrawn)" in page
    with pytest.raises(paper.PaperError) as refused:
        paper.standings(read_export({**export_dict(final=False), "standings": []}))
    assert refused.value.code == "no_standings"


def test_where_a_place_was_decided_is_read_from_the_export_s_own_rounds():
    data = export_dict()
    semifinals = [{"number": 1, "seats": [1, 2, 3, 4]}, {"number": 2, "seats": [5, 6, 7, 8]}]
    data["rounds"].append({"number": 4, "kind": "semifinal", "tables": semifinals})
    doc = read_export(data)
    table_of_9 = next(t.number for t in doc.rounds[1].tables if 9 in t.seats)
    assert paper.stage_label(doc, 6, "semifinal", "it") == "Semifinale, tavolo 2"
    assert paper.stage_label(doc, 9, "knockout", "en") == f"Round 2, table {table_of_9}"  # the last table they sat at
    assert paper.stage_label(doc, 1, "final", "en") == "Final"
    assert paper.stage_label(doc, 1, "qualifying", "it") == "Qualificazione"
    assert paper.stage_label(doc, 1, None, "it") == ""


# ------------------------------------------------------------------------------------------------ what cannot print


def test_a_round_without_tables_is_refused_with_its_number_and_the_latest_is_the_default():
    doc = export()
    with pytest.raises(paper.PaperError) as refused:
        paper.table_sheets(doc, 7)
    assert refused.value.code == "no_round" and refused.value.params == {"round": 7}
    assert paper.latest_round(doc) == 3
    with pytest.raises(paper.PaperError) as none:
        paper.latest_round(read_export({**export_dict(final=False), "rounds": []}))
    assert none.value.code == "no_rounds"


# ------------------------------------------------------------------------------------------------ steward print


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["print", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_steward_print_writes_the_sheets_the_pairings_and_the_standings(
    poppler: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    source = tmp_path / "tournament.json"
    source.write_text(json.dumps(export_dict()), encoding="utf-8")
    out = tmp_path / "kit" / "round-1.pdf"
    code, stdout, _ = _run(capsys, "--input", str(source), "--out", str(out), "--round", "1", "--venue-url", VENUE,
                           "--json")  # fmt: skip
    assert code == 0
    assert json.loads(stdout) == {"kind": "tables", "round": 1, "tables": 4, "qr": True, "path": str(out),
                                  "bytes": out.stat().st_size}  # fmt: skip
    pdf = out.read_bytes()
    assert pdf == paper.table_sheets(export(), 1, locale="it", venue_url=VENUE)
    assert qr_codes(pdf, 4) == [f"{VENUE}#table-4"]

    code, stdout, _ = _run(capsys, "--input", str(source), "--out", str(tmp_path / "door.pdf"), "--pairings", "2",
                           "--locale", "en", "--text")  # fmt: skip
    assert code == 0 and stdout.startswith(f"wrote {tmp_path / 'door.pdf'}: the pairings of round 2 (18 players)")
    assert "Round 2: who sits where" in pages_of((tmp_path / "door.pdf").read_bytes())[0]

    code, stdout, _ = _run(
        capsys, "--input", str(source), "--out", str(tmp_path / "final.pdf"), "--standings", "--json"
    )
    assert code == 0 and json.loads(stdout)["kind"] == "final_classification"

    code, stdout, _ = _run(capsys, "--input", str(source), "--out", str(tmp_path / "latest.pdf"), "--json")
    assert code == 0 and json.loads(stdout)["round"] == 3 and json.loads(stdout)["qr"] is False  # the latest round


@pytest.mark.parametrize(
    ("extra", "document", "message"),
    [
        (["--round", "9"], None, "error: round 9: the export has no round 9 with tables"),
        (["--venue-url", "javascript:alert(1)"], None, "error: --venue-url must be an http(s) address"),
        ([], {"attacker_dice": 3}, 'error: input: expected a whole-tournament export ("schema": "steward-export/1")'),
        ([], {"schema": "steward-export/1", "players": []}, "error: bad_document: tournament"),
    ],
)
def test_steward_print_refuses_in_one_line_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], document: Any, message: str
):
    source = tmp_path / "in.json"
    source.write_text(json.dumps(document if document is not None else export_dict()), encoding="utf-8")
    out = tmp_path / "out.pdf"
    code, stdout, stderr = _run(capsys, "--input", str(source), "--out", str(out), *extra)
    assert code == 2 and stdout == "" and stderr.startswith(message) and stderr.count("\n") == 1
    assert not out.exists()
