"""Issue 40, finding 2: an XLSX import was silently short when the workbook's declared used range (its
``<dimension ref>``) was smaller than its content — read-only openpyxl stopped there: 9 of 50 players imported, or
999 of 3,000 with no "too many rows" refusal. Now every row the sheet holds is read whatever it declares, the limit
counts real rows (and stops counting at the limit + 1), and the import says how many rows it read."""

from __future__ import annotations

import io
import re
import zipfile

from openpyxl import Workbook, load_workbook
from sqlalchemy import func, select

from bot.db.models import Registration
from bot.files.players import MAX_ROWS, parse_players_csv, parse_players_xlsx
from bot.files.sheets import read_xlsx_rows
from bot.i18n import t
from bot.services import Services
from tests.services.test_registration_csv import ORGANIZER, setup


def workbook(players: int) -> bytes:
    book = Workbook()
    ws = book.active
    assert ws is not None
    ws.append(["nome", "club"])
    for i in range(players):
        ws.append([f"Giocatore {i + 1}", "Roma"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def declare(data: bytes, ref: str) -> bytes:
    """The same workbook with the first sheet's declared range (``<dimension ref="…">``) rewritten to ``ref``, as a
    program that writes the XML itself may leave it; every row stays in the sheet."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            body = source.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                body, count = re.subn(rb'<dimension ref="[^"]*"', b'<dimension ref="%s"' % ref.encode(), body)
                assert count == 1
            target.writestr(info, body)
    return out.getvalue()


def openpyxl_read_only_rows(data: bytes) -> int:
    """What read-only openpyxl yields by itself, trusting the declared range (the finding's cause)."""
    book = load_workbook(io.BytesIO(data), read_only=True)
    try:
        return sum(1 for _ in book.worksheets[0].iter_rows(values_only=True))
    finally:
        book.close()


def test_finding_2_an_xlsx_whose_declared_range_is_short_imports_every_row():
    short = declare(workbook(50), "A1:B10")  # declares the header and 9 players; holds 50
    assert openpyxl_read_only_rows(short) == 10  # the finding as found: the declared range, not the content
    parsed = parse_players_xlsx(short)
    assert parsed.problems == ()
    assert [p.name for p in parsed.players] == [f"Giocatore {i + 1}" for i in range(50)]
    assert parsed.players[-1].line == 51 and parsed.rows == 50
    rows = read_xlsx_rows(short, max_rows=MAX_ROWS)
    assert [number for number, _cells in rows] == list(range(1, 52))


def test_finding_2_3000_real_rows_under_a_999_row_declared_range_are_refused_as_too_many():
    short = declare(workbook(3000), "A1:B1000")  # declares 999 players; holds 3,000
    assert openpyxl_read_only_rows(short) == 1000
    parsed = parse_players_xlsx(short)
    assert [(p.line, p.key, dict(p.params)) for p in parsed.problems] == [
        (MAX_ROWS + 2, "csv.error.too_many_rows", {"max": MAX_ROWS})
    ]
    assert parsed.rows == MAX_ROWS + 1  # counting stopped at the limit + 1: the rest of the file is never read


def test_finding_2_a_declared_range_longer_or_narrower_than_the_content_changes_nothing():
    data = workbook(5)
    for ref in ("A1:B1048576", "A1:A3", "A1", "C7:D9"):
        parsed = parse_players_xlsx(declare(data, ref))
        assert parsed.problems == () and parsed.rows == 5, ref
        assert [(p.name, p.club) for p in parsed.players][-1] == ("Giocatore 5", "Roma"), ref


def test_finding_2_the_row_limit_counts_rows_not_problems():
    """Before, a row's problems counted against the limit too: 1,500 rows with two problems each were refused as
    "too many rows" at row 1,001. Now the limit counts rows, and each bad row is listed."""
    data = b"nome;discord id\n" + b"".join(b"%s;abc\n" % (b"x" * 70) for _ in range(1500))
    parsed = parse_players_csv(data)
    assert parsed.rows == 1500
    assert {p.key for p in parsed.problems} == {"csv.error.too_long", "csv.error.discord_id"}
    assert len(parsed.problems) == 3000


async def test_finding_2_the_roster_import_stores_every_row_and_says_how_many_it_read(services: Services):
    await setup(services)
    outcome = await services.roster.import_csv(
        ORGANIZER, tournament="Coppa", data=declare(workbook(50), "A1:B10"), workbook=True
    )
    assert (outcome.imported, outcome.rows_read, outcome.problems) == (50, 50, ())
    async with services.sessionmaker() as session:
        assert (await session.execute(select(func.count()).select_from(Registration))).scalar_one() == 50
    refused = await services.roster.import_csv(
        ORGANIZER, tournament="Coppa", data=declare(workbook(3000), "A1:B1000"), workbook=True
    )
    assert refused.imported == 0 and refused.rows_read == MAX_ROWS + 1
    assert [p.key for p in refused.problems] == ["csv.error.too_many_rows"]


def test_finding_2_the_rows_read_line_reads_right_at_0_1_2_and_21():
    assert [t("imports.rows_read", "en", count=n) for n in (0, 1, 2, 21)] == [
        "Read 0 rows from the file (blank rows skipped).",
        "Read 1 row from the file (blank rows skipped).",
        "Read 2 rows from the file (blank rows skipped).",
        "Read 21 rows from the file (blank rows skipped).",
    ]
    assert [t("imports.rows_read", "it", count=n) for n in (0, 1, 2, 21)] == [
        "Lette 0 righe dal file (le righe vuote non contano).",
        "Letta 1 riga dal file (le righe vuote non contano).",
        "Lette 2 righe dal file (le righe vuote non contano).",
        "Lette 21 righe dal file (le righe vuote non contano).",
    ]
    assert "più di 2000 righe" in t("imports.rows_over", "it", max=MAX_ROWS)
