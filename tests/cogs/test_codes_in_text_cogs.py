"""Issue 44 at the commands: a refusal of a whole imported file has no line number ("Line 0:" was shown), and the
report card names its rulebook (tests/test_codes_in_text.py)."""

from __future__ import annotations

import re

from bot.services import Services
from tests.support.cog_rounds import prepare
from tests.support.helpers import FakeFile, Harness

ORG = ("Organizzatori",)


async def test_issue_44_a_workbook_refused_as_a_whole_has_no_line_number(harness: Harness, services: Services):
    """Issue 44: /roster import of a file that is no workbook said "Riga 0: il file non è…"; a refusal of the whole
    file is one sentence, capitalised, without a line."""
    await prepare(harness, services, 0)
    for locale, says in (("it", "\nIl file non è "), ("en-GB", "\nThe file is not an Excel workbook")):
        sent = await harness.invoke(
            "roster import", roles=ORG, locale=locale, tournament="Coppa", file=FakeFile("iscritti.xlsx", b"not a zip")
        )
        text = sent[-1].text
        assert says in text, text
        assert not re.search(r"\b(Riga|Line) 0\b", text), text
