"""Direct messages in the reader's language: each member's Discord language is remembered from their own
interactions, and the reminder DMs are written in it while the channel post keeps the server's; a player never seen
reads the server's language. The language is written only when it is new or different."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from bot.app import StewardBot
from bot.db.models import MemberLocale
from bot.services import Services
from bot.services.members import MemberService
from tests.cogs.test_schedule_runner import ORG_ROLES, T, _channel, channel_posts, rome
from tests.conftest import FakeClock
from tests.support.helpers import Harness
from tests.support.helpers_http import HttpRecorder
from tests.support.reports_fixtures import GUILD, ORGANIZER, build_tournament
from tests.test_user_text import internal_ids


async def _stored(services: Services) -> dict[int, str]:
    async with services.sessionmaker() as session:
        rows = (await session.execute(select(MemberLocale))).scalars().all()
    return {r.user_id: r.locale for r in rows if r.guild_id == GUILD}


async def test_a_player_whose_discord_is_in_english_gets_the_reminder_dm_in_english_while_the_server_is_italian(
    services: Services, clock: FakeClock, bot: StewardBot
):
    clock.now = T
    b = await build_tournament(services, rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    await _channel(services)  # the server's language: Italian (the default of its configuration)
    h = Harness(bot, guild_id=GUILD, roles=ORG_ROLES)
    await h.invoke("my-table", user_id=b.users["Anna"], locale="en-US", tournament=b.name)
    await h.invoke("tables", user_id=b.users["Carla"], locale="it", tournament=b.name)
    await h.invoke("tables", user_id=b.users["Dario"], locale="de", tournament=b.name)  # a language we do not write
    assert await _stored(services) == {}  # noted in memory: no write before a first response
    await bot.flush_locales()
    assert await _stored(services) == {b.users["Anna"]: "en", b.users["Carla"]: "it"}  # Bruno never seen

    done = await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=rome(T + timedelta(hours=2)))
    http = HttpRecorder(bot, guild_id=GUILD)
    await bot.runner.start(wake=False)
    clock.now = done.start - timedelta(hours=1)
    await bot.runner.run_due()
    dms = dict(http.dms())
    assert set(dms) == set(b.users.values())
    assert "round 1 starts" in dms[b.users["Anna"]] and "turno" not in dms[b.users["Anna"]]
    for italian in ("Bruno", "Carla", "Dario"):  # never seen, Italian, or a language the bot does not write
        assert "il turno 1 inizia" in dms[b.users[italian]], italian
    (post,) = channel_posts(http)
    assert "il turno 1 inizia" in post  # the channel keeps the server's language
    assert [internal_ids(text) for text in dms.values()] == [[]] * 4  # no requirement id or code name in a DM
    http.close()


async def test_a_member_s_language_follows_their_latest_interaction_and_is_written_only_when_it_changes(
    services: Services, clock: FakeClock, bot: StewardBot
):
    clock.now = T
    b = await build_tournament(services, rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    h = Harness(bot, guild_id=GUILD, roles=ORG_ROLES)
    anna = b.users["Anna"]
    await h.invoke("tables", user_id=anna, locale="en-GB", tournament=b.name)
    await bot.flush_locales()
    async with services.sessionmaker() as session:
        first = (await session.execute(select(MemberLocale))).scalar_one()
    clock.now = T + timedelta(hours=1)
    await h.invoke("tables", user_id=anna, locale="en-US", tournament=b.name)
    assert not await services.members.remember_locale(GUILD, anna, "en")  # known in this process: nothing read

    fresh = MemberService(services.sessionmaker, clock)  # another process: one read, no write (the same language)
    assert not await fresh.remember_locale(GUILD, anna, "en")
    async with services.sessionmaker() as session:
        row = (await session.execute(select(MemberLocale))).scalar_one()
    assert (row.id, row.locale, row.updated_at) == (first.id, "en", T)

    await h.invoke("tables", user_id=anna, locale="it", tournament=b.name)  # she switched Discord to Italian
    assert await services.members.locale(GUILD, anna, default="en") == "it"  # this process knows before the write
    await bot.flush_locales()
    assert await _stored(services) == {anna: "it"}
    assert await services.members.locale(GUILD, anna, default="en") == "it"
    assert await services.members.locale(GUILD, b.users["Bruno"], default="en") == "en"  # never seen: the server's
    assert await services.members.locale(GUILD + 1, anna, default="en") == "en"  # another server knows nothing


async def test_a_rush_of_first_interactions_is_written_in_one_batch_after_the_answers(services: Services):
    """300 members' first interactions (a registration rush) cost no database work on the way to their answers: each
    language is noted in memory, and one flush writes them all (one transaction for the server)."""
    members = services.members
    assert all(members.note(GUILD, 5000 + i, "en" if i % 3 else "it") for i in range(300))
    assert not members.note(GUILD, 5000, "it")  # the same language again: nothing new
    assert members.pending == 300 and await _stored(services) == {}
    assert await members.locale(GUILD, 5001, default="it") == "en"  # already the DM language in this process
    assert await members.flush() == 300
    stored = await _stored(services)
    assert len(stored) == 300 and stored[5000] == "it" and stored[5001] == "en"
    assert members.pending == 0 and not members.note(GUILD, 5001, "en")  # known now
    assert await members.flush() == 0


async def test_a_language_being_written_is_still_the_one_a_dm_reads(services: Services, monkeypatch):
    """A DM prepared while the background write runs (the declined final's, a reminder's) must not fall back to the
    server's language: a noted language stays noted until its write commits."""
    from bot.db.repo import members as member_queries

    members = services.members
    members.note(GUILD, 6001, "en")
    seen: list[int] = []
    write = member_queries.set_member_locale  # what ``uc.members.set_member_locale`` calls

    async def watching(**kwargs):  # type: ignore[no-untyped-def]
        seen.append(members.pending)  # what locale() reads meanwhile
        return await write(**kwargs)

    monkeypatch.setattr(member_queries, "set_member_locale", watching)
    assert await members.flush() == 1
    assert seen == [1] and members.pending == 0
    assert await members.locale(GUILD, 6001, default="it") == "en"  # and, once written, from the database
