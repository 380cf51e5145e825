"""Issue #48, "the cog edge parses": a date and time, a case number and a sanction kind are parsed once, by the
``app_commands.Transformer`` s of ``bot/cogs/_transformers.py``, before a command runs. What parses reaches the
service as a value; what does not is refused with one localised line and nothing changes (BOT-I18N-1, "bad input
gets a clear, localised error and changes nothing")."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import func, select

from bot.cogs._transformers import parse_case_number, parse_local_datetime, parse_sanction_kind
from bot.db.models import AppealState, Sanction, ScheduledReminder, Tournament
from bot.errors import InvalidInput
from bot.services import Services
from bot.services.access import Actor
from tests.support.cog_rounds import prepare
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

ORG = ("Organizzatori",)
REF = ("Arbitri",)
HEAD = ("Capo arbitro",)


@pytest.mark.parametrize(
    ("typed", "wanted"),
    [
        ("2026-12-05 21:00", datetime(2026, 12, 5, 21, 0)),
        ("  05/12/2026   21:00 ", datetime(2026, 12, 5, 21, 0)),
        ("5/12/2026 21.00", datetime(2026, 12, 5, 21, 0)),
        ("2026-12-05T09:30", datetime(2026, 12, 5, 9, 30)),
    ],
)
def test_a_date_and_time_reads_in_the_forms_a_club_types(typed: str, wanted: datetime):
    """The wall-clock time as typed (the services read it in the server's zone)."""
    assert parse_local_datetime(typed) == wanted


@pytest.mark.parametrize("typed", ["domani", "", "   ", "2026-13-05 21:00", "31/02/2026 21:00", "2026-12-05"])
def test_what_is_no_date_and_time_is_refused_with_the_catalogue_s_key(typed: str):
    with pytest.raises(InvalidInput) as refused:
        parse_local_datetime(typed)
    assert refused.value.key == "error.bad_datetime"


@pytest.mark.parametrize(
    ("typed", "wanted"),
    [("12", 12), ("#12", 12), ("  # 12 ", 12), ("n. 12", 12), ("N°12", 12), ("Caso 12", 12), ("case #7", 7),
     ("caso n. 3", 3), (12, 12), ("1000000", 1_000_000)],
)  # fmt: skip
def test_a_case_number_reads_as_the_case_card_shows_it(typed: object, wanted: int):
    assert parse_case_number(typed) == wanted


@pytest.mark.parametrize("typed", ["uno", "", "0", "-3", "12b", "1000001", "12 13", "caso"])
def test_what_is_no_case_number_is_refused(typed: str):
    with pytest.raises(InvalidInput) as refused:
        parse_case_number(typed)
    assert refused.value.key == "error.sanction.bad_case_number"


@pytest.mark.parametrize(
    ("typed", "wanted"),
    [("verbal_warning", "verbal_warning"), ("Ammonizione verbale", "verbal_warning"),
     ("AMMONIZIONE  VERBALE", "verbal_warning"), ("Verbal warning", "verbal_warning"),
     ("passaggio immediato del turno", "pass_turn"), ("Esclusione dalla partita", "excluded_from_game")],
)  # fmt: skip
def test_a_sanction_kind_reads_as_its_code_or_its_name_in_either_language(typed: str, wanted: str):
    assert parse_sanction_kind(typed) == wanted


def test_what_is_no_sanction_kind_is_refused_with_the_catalogue_s_key():
    with pytest.raises(InvalidInput) as refused:
        parse_sanction_kind("una bella sgridata")
    assert refused.value.key == "error.sanction.unknown_sanction_kind"
    assert refused.value.params == {"value": "una bella sgridata"}


async def _reminders(services: Services) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(ScheduledReminder))).scalar_one())


async def test_schedule_and_tournament_dates_parse_at_the_edge_and_a_bad_one_changes_nothing(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    """/schedule deadline takes the Italian way of writing a time; a date it cannot read is refused in the reader's
    language before anything is written, and /tournament create with such a deadline creates nothing."""
    await prepare(ch, services, 8)
    *_, done = await ch.invoke("schedule deadline", roles=ORG, locale="it", tournament="Coppa", at="5/12/2026 21.00")
    assert done.ephemeral and "<t:1796500800" in done.text  # 21:00 in Rome, 20:00 UTC in December
    before = await _reminders(services)
    *_, refused = await ch.invoke("schedule deadline", roles=ORG, locale="it", tournament="Coppa", at="sabato sera")
    assert refused.ephemeral and "«sabato sera» non è una data e ora" in refused.text
    *_, english = await ch.invoke("announce", roles=ORG, locale="en-US", tournament="Coppa", at="tomorrow", text="x")
    assert english.ephemeral and "“tomorrow” is not a date and time" in english.text
    assert await _reminders(services) == before
    *_, create = await ch.invoke("tournament create", roles=ORG, locale="it", name="Serata",
                                 preset="risiko-ufficiali-2018", deadline="31/02/2027 20:00")  # fmt: skip
    assert "«31/02/2027 20:00» non è una data e ora" in create.text
    async with services.sessionmaker() as session:
        names = (await session.execute(select(Tournament.name))).scalars().all()
    assert names == ["Coppa"]


async def test_case_numbers_and_sanction_kinds_parse_at_the_edge(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    """The player appeals case "Caso 1" as its card names it; "uno" is refused and nothing is appealed; the head
    referee changes the sanction naming the new kind in Italian, picked from the suggestions in their language;
    an unknown kind is refused and the appeal stays pending."""
    await prepare(ch, services, 8)
    await ch.invoke("round draw", roles=ORG, tournament="Coppa")
    await ch.invoke("round publish", roles=ORG, tournament="Coppa")
    referee = Actor(guild_id=ch.guild.id, user_id=4242, role_ids=frozenset({ch.guild.roles["Arbitri"]}))
    await services.sanctions.record(referee, tournament="Coppa", player="Giocatore 02", user_id=None, infraction="pact")

    async def state() -> tuple[str, str]:
        async with services.sessionmaker() as session:
            s = (await session.execute(select(Sanction))).scalar_one()
            return s.appeal_state, s.kind

    *_, refused = await ch.invoke("appeal", user_id=7002, locale="it", case="uno", reason="era una battuta")
    assert refused.ephemeral and "«uno» non è il numero di un caso" in refused.text
    assert await state() == (AppealState.NONE, "verbal_warning")
    *_, appeal = await ch.invoke("appeal", user_id=7002, locale="it", case="Caso 1", reason="era una battuta")
    assert "Ricorso sul caso 1 presentato" in appeal.text
    assert (await state())[0] is AppealState.PENDING

    choices = await ch.autocomplete("sanction decide", "kind", user_id=4343, roles=HEAD, locale="it", case="1",
                                    decision="changed", kind="richiam")  # fmt: skip
    assert {"name": "richiamo", "value": "reminder"} in choices
    assert all("richiam" in c["name"].casefold() for c in choices)

    *_, unknown = await ch.invoke("sanction decide", user_id=4343, roles=HEAD, locale="it", case="#1",
                                  decision="changed", kind="una bella sgridata")  # fmt: skip
    assert unknown.ephemeral and "non prevede la sanzione «una bella sgridata»" in unknown.text
    assert (await state())[0] is AppealState.PENDING

    *_, changed = await ch.invoke("sanction decide", user_id=4343, roles=HEAD, locale="it", case="#1",
                                  decision="changed", kind="Richiamo")  # fmt: skip
    assert "richiamo" in changed.text
    assert await state() == (AppealState.CHANGED, "reminder")
