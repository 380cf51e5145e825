"""Issue 40, finding 2 at the command: /roster import of a workbook whose declared range is short imports every
row and says how many rows it read; one holding more rows than an import takes is refused, saying so."""

from __future__ import annotations

from bot.services import Services
from tests.services.test_xlsx_rows import declare, workbook
from tests.support.cog_rounds import prepare
from tests.support.helpers import FakeFile, Harness

ORG = ("Organizzatori",)


async def test_finding_2_roster_import_of_a_short_declared_workbook_imports_and_counts_every_row(
    harness: Harness, services: Services
):
    await prepare(harness, services, 0)
    data = declare(workbook(50), "A1:B10")  # declares 9 players, holds 50
    sent = await harness.invoke(
        "roster import", roles=ORG, locale="it", tournament="Coppa", file=FakeFile("iscritti.xlsx", data)
    )
    assert sent[-1].ephemeral
    assert sent[-1].text.splitlines()[:2] == [
        "Importati 50 giocatori in **Coppa**.",
        "Lette 50 righe dal file (le righe vuote non contano).",
    ]
    listing = await services.registrations.list_players(harness.guild.id, tournament="Coppa")
    assert len(listing.players) == 50


async def test_finding_2_roster_import_of_3000_rows_under_a_999_row_declared_range_is_refused(
    harness: Harness, services: Services
):
    await prepare(harness, services, 0)
    data = declare(workbook(3000), "A1:B1000")
    sent = await harness.invoke(
        "roster import", roles=ORG, locale="en-GB", tournament="Coppa", file=FakeFile("big.xlsx", data)
    )
    text = sent[-1].text
    assert "no player imported" in text and len(text) <= 2000
    assert "The file holds more than 2000 rows: one import takes at most 2000." in text
    assert "Line 2002: too many rows (at most 2000)." in text
    listing = await services.registrations.list_players(harness.guild.id, tournament="Coppa")
    assert listing.players == ()
