"""Every export through the real command tree in both formats: the XLSX carries the CSV's values, a
hostile player name stays text, no workbook holds a formula, the header is frozen; /roster import of a workbook
imports all or nothing and names the bad row. Runs on SQLite and PostgreSQL (the ``services`` fixture)."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import UTC, datetime

from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.worksheet import Worksheet
from sqlalchemy import select

from bot.db.models import Registration
from bot.services import Services
from bot.services.access import Actor
from tests.cogs.test_reports_cogs import FOUR
from tests.support.cog_rounds import prepare
from tests.support.helpers import FakeFile, Harness, Sent
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder
from tests.support.reports_fixtures import build_tournament

HOSTILE = '=HYPERLINK("http://x","y")'
ORG = ("Organizzatori",)
REF = ("Arbitri",)


def csv_rows(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))


def sheet(data: bytes) -> Worksheet:
    ws = load_workbook(io.BytesIO(data)).worksheets[0]
    assert isinstance(ws, Worksheet)
    cells = [c for row in ws.iter_rows() for c in row]
    assert cells and [c.coordinate for c in cells if c.data_type == "f"] == []  # no formula anywhere
    assert ws.freeze_panes == "A2" and all(c.font.b for c in ws[1])
    return ws


def as_csv_text(value: object, decimal: str) -> str:
    """What the CSV writes for a workbook's cell, worked out here on its own: text quoted with an apostrophe when
    a spreadsheet would run it, numbers with the CSV's decimal separator, times in ISO UTC."""
    if value is None:
        return ""
    if isinstance(value, str):
        return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC).isoformat(timespec="seconds")
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return text.replace(".", decimal)
    return str(value)


def assert_same(csv_data: bytes, xlsx_data: bytes, *, decimal: str = ".") -> list[list[object]]:
    """The workbook's rows are the CSV's rows, cell by cell; the workbook's values are returned."""
    ws = sheet(xlsx_data)
    width = len(csv_rows(csv_data)[0])
    values = [[ws.cell(row=r, column=c).value for c in range(1, width + 1)] for r in range(1, ws.max_row + 1)]
    assert [[as_csv_text(v, decimal) for v in row] for row in values] == csv_rows(csv_data)
    return values


async def both(h: Harness, command: str, **options: object) -> tuple[Sent, Sent]:
    *_, as_csv = await h.invoke(command, format="csv", **options)
    *_, as_xlsx = await h.invoke(command, format="xlsx", **options)
    assert as_csv.ephemeral and as_xlsx.ephemeral
    assert as_csv.files[0].endswith(".csv") and as_xlsx.files[0].endswith(".xlsx")
    assert as_csv.files[0].removesuffix(".csv") == as_xlsx.files[0].removesuffix(".xlsx")
    return as_csv, as_xlsx


async def test_roster_tables_and_sanctions_export_the_same_rows_and_a_hostile_name_stays_text(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    harness = ch
    await prepare(harness, services, 7)
    sent = await harness.invoke("register", user_id=9001, locale="it", tournament="Coppa", name=HOSTILE)
    assert "confermata" in sent[-1].text
    await harness.invoke("tournament validate", roles=ORG, locale="it", tournament="Coppa")
    await harness.invoke("round draw", roles=ORG, locale="it", tournament="Coppa")
    await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    referee = Actor(guild_id=harness.guild.id, user_id=4242, role_ids=frozenset({harness.guild.roles["Arbitri"]}))
    await services.sanctions.record(referee, tournament="Coppa", player=HOSTILE, user_id=None, infraction="pact")

    as_csv, as_xlsx = await both(harness, "roster export", roles=REF, locale="it", tournament="Coppa")
    assert as_xlsx.files == ["coppa-giocatori.xlsx"] and "8 righe" in as_xlsx.text
    roster = assert_same(as_csv.blobs[0], as_xlsx.blobs[0])
    assert roster[0] == ["nome", "club", "squadra", "famiglia", "discord id", "stato"]
    assert [HOSTILE, None, None, None, "9001", "validated"] in roster  # the literal text; the id as text

    as_csv, as_xlsx = await both(harness, "sanctions export", roles=REF, locale="en-GB", tournament="Coppa")
    assert "as an Excel workbook" in as_xlsx.text
    sanctions = assert_same(as_csv.blobs[0], as_xlsx.blobs[0])
    assert sanctions[1][:3] == [1, HOSTILE, "pact"] and isinstance(sanctions[1][12], datetime)

    as_csv, as_xlsx = await both(harness, "tables", locale="it", tournament="Coppa")
    assert as_xlsx.files == ["coppa-turno-1.xlsx"] and as_xlsx.data["embeds"]  # the list is still shown
    tables = assert_same(as_csv.blobs[0], as_xlsx.blobs[0])
    assert tables[0] == ["Tavolo", "Posto", "Giocatore", "Club", "Squadra"] and len(tables) == 9
    assert HOSTILE in [row[2] for row in tables] and {row[0] for row in tables[1:]} == {1, 2}
    *_, plain = await harness.invoke("tables", locale="it", tournament="Coppa")
    assert plain.files == [] and plain.data["embeds"]  # no format: no file, as before
    *_, english = await harness.invoke("tables", locale="en-GB", tournament="Coppa", format="xlsx")
    assert [c.value for c in sheet(english.blobs[0])[1]] == ["Table", "Seat", "Player", "Club", "Team"]


async def test_standings_export_the_same_values_with_italian_or_english_formats(
    ch: ComponentHarness, services: Services
):
    await ch.invoke("setup roles", admin=True, organizer=ch.role("Organizzatori"), referee=ch.role("Arbitri"),
                    head_referee=ch.role("Capo arbitro"))  # fmt: skip
    names = [HOSTILE, *FOUR[1][0][1:]]
    b = await build_tournament(services, preset="risiko-firk-1", rounds={1: [names]}, guild_id=ch.guild.id)
    (modal,) = await ch.invoke("report enter", user_id=b.users["Bruno"], locale="it", tournament="Coppa Test", table=1)
    await ch.submit(modal, dict(zip(names, ("40", "32", "20", "10"), strict=True)), user_id=b.users["Bruno"],
                    locale="it")  # fmt: skip

    as_csv, as_xlsx = await both(ch, "standings export", locale="it", tournament="Coppa Test")
    assert "in un file Excel" in as_xlsx.text
    values = assert_same(as_csv.blobs[0], as_xlsx.blobs[0], decimal=",")
    assert values[0][:2] == ["Pos.", "Giocatore"]
    (first,) = [row for row in values if row[1] == HOSTILE]
    assert first[0] == 1 and first[4] == 31.8  # a number in the workbook, "31,8" in the CSV
    ws = sheet(as_xlsx.blobs[0])
    assert ws.cell(row=2, column=5).number_format == "[$-410]#,##0.0"  # the server is Italian (the default)

    # an English reader: English words and CSV decimal point; the workbook's formats follow the server
    as_csv, as_xlsx = await both(ch, "standings export", locale="en-GB", tournament="Coppa Test")
    values = assert_same(as_csv.blobs[0], as_xlsx.blobs[0], decimal=".")
    assert values[0][:2] == ["Rank", "Player"]
    await services.setup.set_locale(Actor(guild_id=ch.guild.id, user_id=1, is_admin=True), locale="en")
    *_, english = await ch.invoke("standings export", locale="en-GB", tournament="Coppa Test", format="xlsx")
    assert sheet(english.blobs[0]).cell(row=2, column=5).number_format == "[$-809]#,##0.0"


# --- /roster import of a workbook ------------------------------------------------------------------------------


def workbook(*rows: list[object]) -> bytes:
    book = Workbook()
    ws = book.active
    assert ws is not None
    for row in rows:
        ws.append(row)
        for cell in ws[ws.max_row]:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"  # typed as text, as Excel's leading apostrophe does
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


async def names(services: Services) -> set[str]:
    async with services.sessionmaker() as session:
        return {r.display_name for r in (await session.execute(select(Registration))).scalars()}


async def test_a_workbook_imports_with_the_csv_s_columns_and_exports_back(harness: Harness, services: Services):
    await prepare(harness, services, 0)
    data = workbook(
        ["Nome", "Club", "Squadra", "Famiglia"], ["Anna", "Roma", None, "Rossi"], [HOSTILE, None, None, None]
    )
    sent = await harness.invoke(
        "roster import", roles=ORG, locale="it", tournament="Coppa", file=FakeFile("iscritti.xlsx", data)
    )
    assert sent[-1].ephemeral and "Importati 2 giocatori" in sent[-1].text
    assert await names(services) == {"Anna", HOSTILE}
    *_, exported = await harness.invoke("roster export", roles=ORG, locale="it", tournament="Coppa", format="xlsx")
    rows = [[c.value for c in row] for row in sheet(exported.blobs[0]).iter_rows()]
    assert rows[1:] == [["Anna", "Roma", None, "Rossi", None, "registered"], [HOSTILE, None, None, None, None,
                                                                               "registered"]]  # fmt: skip


async def test_a_workbook_with_one_bad_row_imports_nothing_and_names_the_row(harness: Harness, services: Services):
    await prepare(harness, services, 0)
    data = workbook(["nome", "club"], ["Anna", "Roma"], ["Bruno", "c" * 500], ["Carla", "Torino"])
    sent = await harness.invoke(
        "roster import", roles=ORG, locale="it", tournament="Coppa", file=FakeFile("iscritti.xlsx", data)
    )
    text = sent[-1].text
    assert sent[-1].ephemeral and "nessun giocatore importato" in text.lower()
    assert "Riga 3: il campo club è troppo lungo (500 caratteri" in text
    assert await names(services) == set()


async def test_a_workbook_that_unpacks_too_big_is_refused(harness: Harness, services: Services):
    await prepare(harness, services, 0)
    buffer = io.BytesIO(workbook(["nome"], ["Anna"]))
    with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/media/padding.bin", b"\0" * (40 * 1024 * 1024))
    sent = await harness.invoke(
        "roster import", roles=ORG, locale="en-GB", tournament="Coppa", file=FakeFile("big.xlsx", buffer.getvalue())
    )
    assert "unpacks to 41 MB, over the limit of 16 MB" in sent[-1].text
    *_, not_a_book = await harness.invoke(
        "roster import", roles=ORG, locale="it", tournament="Coppa", file=FakeFile("x.xlsx", b"nome\nAnna\n")
    )
    assert "non è un file Excel leggibile" in not_a_book.text
    assert await names(services) == set()
