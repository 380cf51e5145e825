"""Issue 40 through the real command tree. Finding 3: ``/review repair`` (the head referee) mends a table the old
``/replace`` race left, and a report form opened before a ``/replace`` is refused in one clear line. Finding 7:
simultaneous report submissions and ``/season attach`` answer clear localised lines, never "something went
wrong"; a write that lost a race to the database's constraints is a clear line too."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import exc as sa_exc
from sqlalchemy import func, select

from bot.db.models import AuditLog, TableResult
from bot.db.repo import seasons as season_queries  # what ``uc.seasons`` calls
from bot.services import Services
from bot.services.access import Actor
from tests.services.test_replace_race import POINTS, corrupted_the_old_way
from tests.services.test_simultaneous_writes import _both_checked
from tests.support.helpers import Harness
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

ORG = ("Organizzatori",)
REF = ("Arbitri",)
HEAD = ("Capo arbitro",)
SEASONS = ("Anno", "Altro")
WENT_WRONG = ("went wrong", "andato storto", "(ref ", "(rif. ")


async def _roles(h: Harness) -> None:
    await h.invoke("setup roles", admin=True, organizer=h.role("Organizzatori"), referee=h.role("Arbitri"),
                   head_referee=h.role("Capo arbitro"))  # fmt: skip


def _referee(h: Harness) -> Actor:
    return Actor(guild_id=h.guild.id, user_id=4242, role_ids=frozenset({h.guild.roles["Arbitri"]}))


async def _lines(services: Services) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(TableResult))).scalar_one())


async def test_finding_3_the_head_referee_repairs_a_corrupted_table_with_review_repair(
    harness: Harness, services: Services
):
    await _roles(harness)
    await corrupted_the_old_way(services, corrected=True, guild_id=harness.guild.id, referee=_referee(harness))
    assert await _lines(services) == 5
    refused = await harness.invoke("review repair", roles=REF, locale="it", tournament="Coppa Rotta")
    assert refused[-1].ephemeral and "arbitro capo" in refused[-1].text.lower()
    assert await _lines(services) == 5
    done = await harness.invoke("review repair", user_id=4343, roles=HEAD, locale="it", tournament="Coppa Rotta")
    reply = done[-1]
    assert reply.ephemeral
    assert "Coppa Rotta: 1 tavolo sistemato (annotato nel registro)." in reply.text
    assert "Turno 1, tavolo 1: tolto 1 risultato, di chi non siede più a questo tavolo: Dario." in reply.text
    assert await _lines(services) == 4
    again = await harness.invoke("review repair", user_id=4343, roles=HEAD, locale="en-US", tournament="Coppa Rotta")
    assert "Nothing to repair in Coppa Rotta: every result belongs to a player seated at its table." in again[-1].text
    async with services.sessionmaker() as session:
        audit = (await session.execute(select(AuditLog).where(AuditLog.action == "report.repair"))).scalars().all()
    assert [a.actor_id for a in audit] == [4343]
    standings = await services.standings.compute(harness.guild.id, "Coppa Rotta")
    assert sum(line.games for line in standings.lines) == 4


async def test_finding_3_a_repaired_report_missing_the_substitute_says_to_correct_it(
    harness: Harness, services: Services
):
    await _roles(harness)
    await corrupted_the_old_way(services, corrected=False, guild_id=harness.guild.id, referee=_referee(harness))
    done = await harness.invoke("review repair", user_id=4343, roles=HEAD, locale="en-US", tournament="Coppa Rotta",
                                round=1, table=1)  # fmt: skip
    text = done[-1].text
    assert "Coppa Rotta: 1 table repaired (written in the audit log)." in text
    assert "Round 1, table 1: 1 result removed, of a player no longer seated at this table: Dario." in text
    assert "Without a result: Riserva. The signatures were cleared: correct the report with /review correct" in text


async def test_finding_3_a_report_form_opened_before_a_replace_is_refused_then_entered_for_the_new_seating(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    """The referee opens the form, the organizer replaces Dario by the reserve, the referee submits: nothing is
    written for Dario; the referee is told the players changed, opens the form again and enters it for the reserve."""
    await _roles(ch)
    from tests.services.test_replace_race import _table_with_a_reserve

    await _table_with_a_reserve(services, "Coppa", guild_id=ch.guild.id)
    (modal,) = await ch.invoke("report enter", user_id=4242, roles=REF, locale="it", tournament="Coppa", table=1)
    assert ch.modal_labels(modal) == list(POINTS)
    replaced = await ch.invoke("replace", roles=ORG, locale="it", tournament="Coppa", player="Dario", by="Riserva")
    assert not any(w in replaced[-1].text for w in WENT_WRONG), replaced[-1].text
    stale = await ch.submit(modal, POINTS, user_id=4242, roles=REF, locale="it")
    assert stale[-1].ephemeral
    assert "I giocatori del tavolo 1 sono cambiati mentre si scriveva questo referto" in stale[-1].text
    assert await _lines(services) == 0
    (modal,) = await ch.invoke("report enter", user_id=4242, roles=REF, locale="it", tournament="Coppa", table=1)
    assert ch.modal_labels(modal) == ["Anna", "Bruno", "Carla", "Riserva"]
    entered = await ch.submit(modal, {"Anna": "50", "Bruno": "40", "Carla": "30", "Riserva": "20"}, user_id=4242,
                              roles=REF, locale="it")  # fmt: skip
    assert "Referto — Coppa, turno 1" in entered[-1].text and await _lines(services) == 4


async def test_finding_7_two_report_forms_submitted_at_once_give_one_report_and_a_clear_line(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _roles(ch)
    from tests.support.reports_fixtures import build_tournament

    await build_tournament(services, name="Coppa", rounds={1: [list(POINTS)]}, guild_id=ch.guild.id)
    forms = [
        (await ch.invoke("report enter", user_id=uid, roles=REF, locale=loc, tournament="Coppa", table=1))[0]
        for uid, loc in ((4242, "it"), (4243, "en-US"))
    ]
    before = len(ch.adapter.sent)
    await asyncio.gather(
        ch.submit(forms[0], POINTS, user_id=4242, roles=REF, locale="it"),
        ch.submit(forms[1], {n: str(int(v) + 1) for n, v in POINTS.items()}, user_id=4243, roles=REF, locale="en-US"),
    )
    texts = [sent.text for sent in ch.adapter.sent[before:] if sent.text]
    assert not [t for t in texts if any(w in t for w in WENT_WRONG)], texts
    assert len([t for t in texts if "Referto — Coppa, turno 1, tavolo 1" in t]) == 1, texts
    assert len([t for t in texts if "mentre scrivevi il tuo" in t or "while you were writing yours" in t]) == 1, texts
    assert await _lines(services) == 4


async def test_finding_7_two_simultaneous_season_attaches_answer_a_clear_line(
    harness: Harness, services: Services, monkeypatch: pytest.MonkeyPatch
):
    await _roles(harness)
    await harness.invoke("tournament create", roles=ORG, name="Tappa", preset="risiko-firk-1")
    for season in SEASONS:
        await harness.invoke("season create", roles=ORG, name=season, preset="risiko-firk-1")
    arrived: list[int] = []
    monkeypatch.setattr(season_queries, "season_of_tournament",
                        _both_checked(season_queries.season_of_tournament, arrived, 2))  # fmt: skip
    before = len(harness.adapter.sent)
    await asyncio.gather(
        *(harness.invoke("season attach", roles=ORG, locale="en-US", season=s, tournament="Tappa") for s in SEASONS)
    )
    texts = [sent.text for sent in harness.adapter.sent[before:] if sent.text]
    assert len(texts) == 2 and not [t for t in texts if any(w in t for w in WENT_WRONG)], texts
    assert len([t for t in texts if "already belongs to the season" in t]) == 1, texts


class _Driver(Exception):
    sqlstate = "23505"


@pytest.mark.parametrize(("locale", "line"), [
    ("it", "Qualcun altro ha modificato la stessa cosa nello stesso momento: non è stato salvato nulla di tuo."),
    ("en-US", "Someone else changed the same thing at the same moment: nothing of yours was saved."),
])  # fmt: skip
async def test_finding_7_a_write_that_lost_a_race_answers_a_clear_line_not_an_error_reference(
    harness: Harness, services: Services, monkeypatch: pytest.MonkeyPatch, locale: str, line: str
):
    await _roles(harness)
    await harness.invoke("tournament create", roles=ORG, name="Tappa", preset="risiko-firk-1")
    await harness.invoke("season create", roles=ORG, name="Anno", preset="risiko-firk-1")

    async def lost(*args: Any, **kwargs: Any) -> Any:
        raise sa_exc.IntegrityError("INSERT INTO season_tournament …", {}, _Driver("duplicate key value"))

    monkeypatch.setattr(services.seasons, "attach", lost)
    sent = await harness.invoke("season attach", roles=ORG, locale=locale, season="Anno", tournament="Tappa")
    assert sent[-1].ephemeral and line in sent[-1].text
    assert not any(w in sent[-1].text for w in WENT_WRONG)
