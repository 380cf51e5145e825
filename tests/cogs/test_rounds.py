"""/round, /finals and /my-table through the real command tree; channel messages and threads through the
recorded ``bot.http`` (BOT-TAB-1, BOT-TAB-2, TOUR-SF-1, TOUR-FIN-1, BOT-ROLE-1, BOT-I18N-1)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.db.models import AuditLog, GameTable, Registration, RegistrationStatus, Round, Seat
from bot.present.images import image_words
from bot.present.tables import tables_render_data
from bot.services import Services
from bot.services.access import Actor
from bot.services.reports import TableRef
from renderer.tables import layout_tables
from tests.support.cog_rounds import ORG, prepare, rows
from tests.support.helpers import Harness
from tests.support.helpers_components import ComponentHarness
from tests.support.rounds import report_all
from tests.test_user_text import internal_ids


async def test_bot_tab_1_draw_replies_with_an_ephemeral_preview_image_and_report_in_italian(harness, services):
    await prepare(harness, services, 18)
    sent = await harness.invoke("round draw", roles=ORG, locale="it", tournament="Coppa")
    assert sent[0].kind == "callback" and sent[0].body["type"] == 5 and sent[0].ephemeral
    preview = sent[-1]
    assert preview.ephemeral and preview.files and preview.files[0].endswith(".png")
    assert "Coppie dello stesso club" in preview.text and "minimo possibile" in preview.text
    assert "Codice del sorteggio:" in preview.text and "Tavolo 1" in preview.text
    assert "/turno pubblica" in preview.text
    assert await rows(services, Round) == 1 and await rows(services, Seat) == 18


async def test_bot_tab_2_swap_shows_criteria_before_and_after(harness, services):
    await prepare(harness, services, 16)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    async with services.sessionmaker() as session:
        seats = (await session.execute(select(Seat).order_by(Seat.table_id, Seat.position))).scalars().all()
        names = {r.id: r.display_name for r in (await session.execute(select(Registration))).scalars().all()}
    a = names[seats[0].registration_id]
    b = names[seats[-1].registration_id]
    sent = await harness.invoke("round swap", roles=ORG, locale="en-GB", tournament="Coppa", player_a=a, player_b=b)
    assert sent[-1].ephemeral and "Same-club pairs:" in sent[-1].text and "→" in sent[-1].text
    assert a in sent[-1].text and b in sent[-1].text
    async with services.sessionmaker() as session:
        n = (await session.execute(select(func.count()).where(AuditLog.action == "round.swap"))).scalar_one()
    assert n == 1


async def test_bot_tab_1_publish_announces_pings_each_table_in_its_thread_and_stores_thread_ids(
    harness, services, http
):
    await prepare(harness, services, 9)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    sent = await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    assert sent[-1].ephemeral and "è pubblicato" in sent[-1].text and "2 su 2" in sent[-1].text
    channel = harness.guild.channel_id
    announcements = [
        c for c in http.of("POST", "/channels/{channel_id}/messages") if c.path.endswith(f"{channel}/messages")
    ]
    assert len(announcements) == 1 and announcements[0].files and announcements[0].files[0].endswith(".png")
    assert "Tavolo 1" in announcements[0].content and "Codice del sorteggio:" in announcements[0].content
    assert announcements[0].allowed_mentions.get("parse") == []  # the announcement pings nobody
    threads = http.of("POST", "/channels/{channel_id}/threads")
    assert [t.body["name"] for t in threads] == ["Tavolo 1 — Turno 1", "Tavolo 2 — Turno 1"]
    pings = [c for c in http.of("POST", "/channels/{channel_id}/messages") if c not in announcements]
    assert len(pings) == 2
    for ping in pings:
        assert ping.allowed_mentions["parse"] == ["users"]
        assert ping.content.count("<@7") in (4, 5)
    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round))).scalar_one()
        tables = (await session.execute(select(GameTable).order_by(GameTable.number))).scalars().all()
    assert rnd.status == "published" and rnd.announcement_message_id is not None
    assert all(t.thread_id for t in tables)


async def test_bot_tab_1_missing_thread_permission_is_reported_and_a_retry_completes_only_what_is_missing(
    harness, services, http
):
    await prepare(harness, services, 8)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    http.fail("POST", "/channels/{channel_id}/threads", status=403, times=1)
    sent = await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    text = sent[-1].text
    assert sent[-1].ephemeral and "Crea thread pubblici" in text and "rilancia /turno pubblica" in text
    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round))).scalar_one()
        threads = (await session.execute(select(GameTable.thread_id))).scalars().all()
    assert rnd.status == "published" and rnd.announcement_message_id is not None and threads == [None, None]
    # without threads every player is still told their table, in the channel, pinging users only
    pings = [c for c in http.of("POST", "/channels/{channel_id}/messages") if not c.files]
    assert len(pings) == 1 and pings[0].allowed_mentions["parse"] == ["users"]
    assert pings[0].content.count("<@7") == 8 and "avvisati dei loro tavoli" in text
    before = len(http.calls)
    retry = await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    assert "era già pubblicato" in retry[-1].text and "2 su 2" in retry[-1].text
    new = http.calls[before:]
    assert sum(1 for c in new if c.route == "/channels/{channel_id}/threads") == 2
    assert sum(1 for c in new if c.files) == 0  # no second announcement
    async with services.sessionmaker() as session:
        assert all((await session.execute(select(GameTable.thread_id))).scalars().all())


async def test_bot_tab_1_a_forbidden_announcement_channel_is_explained(harness, services, http):
    await prepare(harness, services, 8)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    http.fail("POST", "/channels/{channel_id}/messages", status=403)
    http.fail("POST", "/channels/{channel_id}/threads", status=403)
    sent = await harness.invoke("round publish", roles=ORG, locale="en-US", tournament="Coppa")
    assert "may not post" in sent[-1].text and "run /round publish again" in sent[-1].text
    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round))).scalar_one()
    assert rnd.status == "published" and rnd.announcement_message_id is None


async def test_my_table_shows_the_player_their_table_and_thread(harness, services, http):
    await prepare(harness, services, 8)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    await harness.invoke("round publish", roles=ORG, tournament="Coppa")
    sent = await harness.invoke("my-table", user_id=7003, locale="it", tournament="Coppa")
    assert sent[-1].ephemeral and "Tavolo" in sent[-1].text and "Giocatore 03" in sent[-1].text
    assert "Thread del tavolo: <#" in sent[-1].text
    shown = await harness.invoke("tables", user_id=7003, locale="it", tournament="Coppa")
    assert "Giocatore 03" in shown[-1].text and "pubblicato" in shown[-1].text


async def test_bot_role_1_a_player_cannot_draw_and_is_told_the_role(harness, services):
    await prepare(harness, services, 8)
    sent = await harness.invoke("round draw", locale="it", tournament="Coppa")
    assert sent[-1].ephemeral and "Organizzatore" in sent[-1].text
    assert await rows(services, Round) == 0


async def test_bad_input_gets_a_localised_line_and_changes_nothing(harness, services):
    await prepare(harness, services, 3)
    cases = [
        ("round draw", {"tournament": "Inesistente"}, "Nessun torneo chiamato"),
        ("round draw", {"tournament": "Coppa"}, "Troppo pochi giocatori"),
        ("round publish", {"tournament": "Coppa"}, "non ha ancora turni"),
        ("round swap", {"tournament": "Coppa", "player_a": "A", "player_b": "B"}, "non ha ancora turni"),
        ("finals final", {"tournament": "Coppa"}, "non ha ancora semifinali"),
    ]
    for path, options, expected in cases:
        sent = await harness.invoke(path, roles=ORG, locale="it", **options)
        assert sent[-1].ephemeral, path
        assert expected in sent[-1].text, (path, sent[-1].text)
        assert "Traceback" not in sent[-1].text
    assert await rows(services, Round) == 0 and await rows(services, GameTable) == 0


async def test_bad_input_swapping_an_unseated_player_and_showing_an_unpublished_round(harness, services):
    await prepare(harness, services, 8)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    async with services.sessionmaker() as session:
        before = (await session.execute(select(Seat.registration_id, Seat.table_id))).all()
    sent = await harness.invoke(
        "round swap", roles=ORG, locale="it", tournament="Coppa", player_a="Giocatore 00", player_b="Fantasma"
    )
    assert "«Fantasma» non siede a nessun tavolo" in sent[-1].text
    sent = await harness.invoke("tables", user_id=7001, locale="it", tournament="Coppa")
    assert "non è ancora stato pubblicato" in sent[-1].text
    async with services.sessionmaker() as session:
        assert (await session.execute(select(Seat.registration_id, Seat.table_id))).all() == before


async def test_tour_sf_1_tour_fin_1_semifinals_final_and_a_decline_through_the_tree(harness, services, http):
    await prepare(harness, services, 20)
    for number in (1, 2):
        await harness.invoke("round draw", roles=ORG, tournament="Coppa")
        await harness.invoke("round publish", roles=ORG, tournament="Coppa")
        await report_all(services, number, guild_id=harness.guild.id)
    sent = await harness.invoke("finals semifinals", roles=ORG, locale="it", tournament="Coppa", tables=3)
    assert sent[-1].ephemeral and "Semifinali" in sent[-1].text and "Accesso diretto alla finale" in sent[-1].text
    assert "Coppie dello stesso club:" in sent[-1].text and "(con le sole fasce:" in sent[-1].text
    assert "/turno risorteggia" not in sent[-1].text
    assert sent[-1].files
    staff = Actor(guild_id=harness.guild.id, user_id=1, is_admin=True)
    semi_cards = layout_tables(
        tables_render_data(await services.rounds.show(staff, tournament="Coppa"), date="2026-11-24"),
        words=image_words("it"),
    )
    titles = [t.text for t in semi_cards.texts if t.group == "card" and t.text.startswith("Semi")]
    assert titles == ["Semifinale 1", "Semifinale 2", "Semifinale 3"]
    await harness.invoke("round publish", roles=ORG, tournament="Coppa")
    await report_all(services, 3, guild_id=harness.guild.id)
    sent = await harness.invoke("finals final", roles=ORG, locale="it", tournament="Coppa")
    assert "accesso diretto alla finale" in sent[-1].text and sent[-1].text.count("ha vinto la semifinale") == 3
    admin = Actor(guild_id=harness.guild.id, user_id=1, is_admin=True)
    semi = await services.rounds.show(admin, tournament="Coppa", number=3)
    winner = semi.tables[0].seats[0].name
    winner_id = 7000 + int(winner.split()[-1])  # prepare's user ids
    await harness.invoke("tables", user_id=winner_id, locale="en-GB", tournament="Coppa")  # their Discord: English
    sent = await harness.invoke("finals decline", roles=ORG, locale="it", tournament="Coppa", player=winner)
    assert "Hanno rinunciato" in sent[-1].text and "al posto di chi l'ha vinta" in sent[-1].text
    (told,) = [text for user, text in http.dms() if user == winner_id]  # in the reader's language …
    assert told.startswith("You have declined the final of Coppa") and "(ARB 5.4)" in told
    assert not internal_ids(told)  # … citing the rulebook's article, never our requirement ids
    await harness.invoke("round publish", roles=ORG, tournament="Coppa")  # the final's announcement
    (announcement,) = [c for c in http.of("POST", "/channels/{channel_id}/messages") if "bracket-4.png" in c.files]
    assert any(name.startswith("tavoli-4") for name in announcement.files)  # the final table and the bracket


async def test_round_plan_and_close_through_the_tree(harness, services, http):
    """/round plan opens the round for check-in; its start is set in one place, /schedule round, and a
    round planned again keeps it."""
    await prepare(harness, services, 8)
    assert [p.name for p in harness.bot.tree.get_command("round").get_command("plan").parameters] == ["tournament"]
    sent = await harness.invoke("round plan", roles=ORG, locale="it", tournament="Coppa")
    assert sent[-1].ephemeral and "Turno 1 di Coppa è pianificato" in sent[-1].text
    assert "/programma turno" in sent[-1].text and "<t:" not in sent[-1].text
    sent = await harness.invoke("schedule round", roles=ORG, locale="it", tournament="Coppa", start="2026-12-05 21:00")
    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round))).scalar_one()
    assert rnd.status == "planned" and rnd.scheduled_start.hour == 20  # 21:00 in Rome is 20:00 UTC in December
    sent = await harness.invoke("round plan", roles=ORG, locale="it", tournament="Coppa")
    assert "<t:" in sent[-1].text  # the start set with /schedule round is kept and shown
    async with services.sessionmaker() as session:
        assert (await session.execute(select(Round))).scalar_one().scheduled_start == rnd.scheduled_start
    bad = await harness.invoke("schedule round", roles=ORG, locale="it", tournament="Coppa", start="domani")
    assert "non è una data e ora" in bad[-1].text
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    refused = await harness.invoke("round close", roles=ORG, locale="it", tournament="Coppa")
    assert "non ha turni pubblicati da chiudere" in refused[-1].text
    assert await rows(services, Round) == 1


async def test_player_options_autocomplete_from_the_tournament_s_players(harness, services):
    await prepare(harness, services, 8)
    choices = await harness.autocomplete(
        "round swap", "player_a", roles=ORG, tournament="Coppa", player_a="ocatore 0", player_b=""
    )
    assert [c["name"] for c in choices] == [f"Giocatore {i:02d}" for i in range(8)]


async def test_bot_i18n_1_an_english_organizer_publishes_in_the_server_language(harness, services, http):
    """Issue 11: public messages speak the server's language (Italian here, GuildConfig.locale from the server's
    Discord language), while the organizer's private reply stays in English."""
    await prepare(harness, services, 9)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    sent = await harness.invoke("round publish", roles=ORG, locale="en-US", tournament="Coppa")
    assert sent[-1].ephemeral and "Tavolo" not in sent[-1].text
    channel = harness.guild.channel_id
    announcement = next(
        c for c in http.of("POST", "/channels/{channel_id}/messages") if c.path.endswith(f"{channel}/messages")
    )
    assert "Tavolo 1" in announcement.content and "Table 1" not in announcement.content
    assert next(t.body["name"] for t in http.of("POST", "/channels/{channel_id}/threads")) == "Tavolo 1 — Turno 1"
    await services.setup.set_locale(Actor(guild_id=harness.guild.id, user_id=1, is_admin=True), locale="en")
    assert await services.setup.locale(harness.guild.id, default="it") == "en"


async def test_a_publish_killed_half_way_resumes_without_a_second_announcement(harness, services, http):
    """The process dies while creating the third table's thread; publishing again posts no second announcement
    and creates only the missing threads (each side effect is stored the moment Discord confirms it)."""
    import pytest

    from tests.support.helpers_http import SimulatedCrash

    await prepare(harness, services, 20)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    http.crash_at = ("POST", "/channels/{channel_id}/threads", 3)
    with pytest.raises(SimulatedCrash):
        await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    announcements = [c for c in http.of("POST", "/channels/{channel_id}/messages") if any(
        name.startswith("tavoli-") for name in c.files)]  # fmt: skip
    assert len(announcements) == 1
    threads = http.of("POST", "/channels/{channel_id}/threads")
    view = await services.rounds.show(Actor(guild_id=harness.guild.id, user_id=1, is_admin=True), tournament="Coppa")
    assert len(threads) == len(view.tables) and all(t.thread_id is not None for t in view.tables)


async def test_a_publish_killed_before_a_table_is_told_tells_it_on_the_rerun(harness, services, http):
    """The process dies after the second table's thread was made and stored but before its players were told in
    it: publishing again makes no thread twice and pings that table's players — every table told exactly once (the
    ping is recorded as its own step, not assumed with the thread)."""
    import pytest

    from tests.support.helpers_http import SimulatedCrash

    await prepare(harness, services, 20)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    http.crash_at = ("POST", "/channels/{channel_id}/messages", 3)  # the announcement, table 1's ping, table 2's
    with pytest.raises(SimulatedCrash):
        await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    threads = http.of("POST", "/channels/{channel_id}/threads")
    view = await services.rounds.show(Actor(guild_id=harness.guild.id, user_id=1, is_admin=True), tournament="Coppa")
    assert len(threads) == len(view.tables) and all(t.thread_id and t.thread_pinged for t in view.tables)
    pings = [c for c in http.of("POST", "/channels/{channel_id}/messages") if "<@" in (c.content or "")]
    assert sorted(int(c.path.split("/")[2]) for c in pings) == sorted(t.thread_id for t in view.tables)


async def _bulk_players(services: Services, guild_id: int, n: int, *, team_of=None) -> None:
    tournament = await services.tournaments.get(guild_id, "Coppa")
    async with services.sessionmaker() as session, session.begin():
        for i in range(n):
            session.add(
                Registration(
                    guild_id=guild_id, tournament_id=tournament.id, user_id=7000 + i, display_name=f"Giocatore {i:02d}",
                    club=("Roma", "Milano", None)[i % 3], team=team_of(i) if team_of else None,
                    status=RegistrationStatus.VALIDATED.value, registered_at=services.clock(),
                )
            )  # fmt: skip


async def report_through_the_tree(ch: ComponentHarness, services: Services, number: int) -> dict[int, list[int]]:
    """Every table of round ``number`` reported as a club's referee does it: /report enter opens the modal, the table
    points go in (the last seat scores most: it wins), submitted. Returns each table's finishing order."""
    staff = Actor(guild_id=ch.guild.id, user_id=1, is_admin=True)
    view = await services.rounds.show(staff, tournament="Coppa", number=number)
    orders = {}
    for table in view.tables:
        (modal,) = await ch.invoke("report enter", user_id=4242, roles=("Arbitri",), locale="it", tournament="Coppa",
                                   table=table.number, round=number)  # fmt: skip
        points = [str(40 + 9 * k) for k in range(len(table.seats))]
        sent = await ch.submit(modal, dict(zip(ch.modal_labels(modal), points, strict=True)), user_id=4242,
                               roles=("Arbitri",), locale="it")  # fmt: skip
        assert sent and "(ref " not in sent[-1].text, sent[-1].text
        orders[table.number] = [s.registration_id for s in reversed(table.seats)]
    return orders


async def test_np_fmt_1_an_organizer_runs_a_hundred_player_knockout_through_the_tree(ch, services, http):
    """NP-FMT-1 through the real command tree: /tournament create with the knockout format says how it runs; /round
    plan shows 100 → 20 tables of 5 → 5 tables of 4 → the final of 5 before the first draw; every table's result is
    entered with /report enter, each winner goes on; the final is announced as the final, a fourth draw is refused
    and /standings puts the final's winner first."""
    h = ch
    await h.invoke("setup roles", admin=True, organizer=h.role("Organizzatori"), referee=h.role("Arbitri"),
                   head_referee=h.role("Capo arbitro"))  # fmt: skip
    sent = await h.invoke("tournament create", roles=ORG, locale="it", name="Coppa",
                          preset="risiko-nostra-passione-2018", format="knockout")  # fmt: skip
    assert "eliminazione diretta" in sent[-1].text and "finale a 5" in sent[-1].text
    await _bulk_players(services, h.guild.id, 100)
    sent = await h.invoke("round plan", roles=ORG, locale="it", tournament="Coppa")
    assert "Eliminazione diretta per 100 giocatori: 20 tavoli da 5 → 5 tavoli da 4 → la finale a 5" in sent[-1].text
    advancing: set[int] = set()
    for number, tables in ((1, 20), (2, 5), (3, 1)):
        sent = await h.invoke("round draw", roles=ORG, locale="it", tournament="Coppa")
        assert sent[-1].ephemeral and sent[-1].files
        if number == 3:
            assert "Finale" in sent[-1].text
        await h.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
        staff = Actor(guild_id=h.guild.id, user_id=1, is_admin=True)
        seated = {s.registration_id for t in (await services.rounds.show(staff, tournament="Coppa")).tables
                  for s in t.seats}  # fmt: skip
        assert number == 1 or seated == advancing  # exactly the previous round's winners go on
        orders = await report_through_the_tree(h, services, number)
        assert len(orders) == tables
        advancing = {order[0] for order in orders.values()}
    announcements = [c for c in http.of("POST", "/channels/{channel_id}/messages") if c.files]
    assert "Finale" in announcements[-1].content
    refused = await h.invoke("round draw", roles=ORG, locale="it", tournament="Coppa")
    assert "è finita" in refused[-1].text
    (champion,) = advancing
    standings = await services.standings.compute(h.guild.id, "Coppa")
    assert standings.lines[0].player_id == champion and standings.lines[0].rank == 1
    sent = await h.invoke("standings show", locale="it", tournament="Coppa")
    assert standings.lines[0].name in sent[-1].text


async def test_np_tab_1_an_organizer_runs_a_six_team_tournament_through_the_tree(ch, services, http):
    """NP-TAB-1 through the tree: players register with their team; six teams of four sit at six tables of four,
    never two teammates together, in three rounds; every result is entered with /report enter; /standings shows
    the team standings beside the individual ones, each team's total the sum of its players'."""
    h = ch
    await h.invoke("setup roles", admin=True, organizer=h.role("Organizzatori"), referee=h.role("Arbitri"),
                   head_referee=h.role("Capo arbitro"))  # fmt: skip
    await h.invoke("tournament create", roles=ORG, name="Coppa", preset="risiko-nostra-passione-2018")
    teams = ["Aquile", "Lupi", "Orsi", "Falchi", "Tigri", "Volpi"]
    for i in range(24):
        sent = await h.invoke("register", user_id=7000 + i, tournament="Coppa", name=f"Giocatore {i:02d}",
                              team=teams[i % 6])  # fmt: skip
    async with services.sessionmaker() as session:
        team_of = {r.id: r.team for r in (await session.execute(select(Registration))).scalars()}
    assert sorted(set(team_of.values())) == sorted(teams)
    listed = await h.invoke("players", locale="it", tournament="Coppa")  # the teams shown as teams
    shown = listed[-1].data["embeds"][0]["description"]
    assert shown.startswith("**6 squadre**: Aquile (4) · Falchi (4) · Lupi (4)"), shown
    for number in (1, 2, 3):
        sent = await h.invoke("round draw", roles=ORG, locale="it", tournament="Coppa")
        assert "**Coppie della stessa squadra**: 0 (minimo possibile 0)" in sent[-1].text
        staff = Actor(guild_id=h.guild.id, user_id=1, is_admin=True)
        view = await services.rounds.show(staff, tournament="Coppa", number=number)
        assert [len(t.seats) for t in view.tables] == [4] * 6
        for table in view.tables:
            assert len({team_of[s.registration_id] for s in table.seats}) == 4
        assert all(f"({team_of[s.registration_id]})" in sent[-1].text for s in view.tables[0].seats)  # teams shown
        await h.invoke("round publish", roles=ORG, tournament="Coppa")
        # the announcement names every table's players with their team; one thread per table
        channel = h.guild.channel_id
        announced = [
            c for c in http.of("POST", "/channels/{channel_id}/messages") if c.path.endswith(f"{channel}/messages")
        ]
        assert len(announced) == number and announced[-1].files  # this round's, with the table image
        assert all(f"({team})" in announced[-1].content for team in teams), announced[-1].content
        assert len(http.of("POST", "/channels/{channel_id}/threads")) == 6 * number
        await report_through_the_tree(h, services, number)
        await h.invoke("round close", roles=ORG, tournament="Coppa")
    sent = await h.invoke("standings show", locale="it", tournament="Coppa")
    assert all(team in sent[-1].text for team in teams)
    standings = await services.standings.compute(h.guild.id, "Coppa")
    assert len(standings.teams) == 6
    for line in standings.teams:
        assert line.points == pytest.approx(sum(x.points for x in standings.lines if x.team == line.team))


async def test_tour_fin_1_a_decline_after_the_final_is_published_re_announces_it_and_tells_the_player(
    harness, services, http
):
    """TOUR-FIN-1 at every moment, through the tree: after /round publish of the final, /finals decline recomposes
    it, posts a new announcement (table card and bracket) and a new thread that pings the new table, and tells the
    player who declined by direct message."""
    await prepare(harness, services, 20)
    for number in (1, 2):
        await harness.invoke("round draw", roles=ORG, tournament="Coppa")
        await harness.invoke("round publish", roles=ORG, tournament="Coppa")
        await report_all(services, number, guild_id=harness.guild.id)
    await harness.invoke("finals semifinals", roles=ORG, tournament="Coppa", tables=4)
    await harness.invoke("round publish", roles=ORG, tournament="Coppa")
    await report_all(services, 3, guild_id=harness.guild.id)
    await harness.invoke("finals final", roles=ORG, tournament="Coppa")
    await harness.invoke("round publish", roles=ORG, tournament="Coppa")
    staff = Actor(guild_id=harness.guild.id, user_id=1, is_admin=True)
    final = await services.rounds.show(staff, tournament="Coppa", number=4)
    winner = final.tables[0].seats[1]
    old_thread = final.tables[0].thread_id
    threads_before = len(http.of("POST", "/channels/{channel_id}/threads"))
    sent = await harness.invoke("finals decline", roles=ORG, locale="it", tournament="Coppa", player=winner.name)
    assert "annunciata di nuovo" in sent[-1].text and "Hanno rinunciato" in sent[-1].text
    announcements = [c for c in http.of("POST", "/channels/{channel_id}/messages") if "bracket-4.png" in c.files]
    assert len(announcements) == 2 and winner.name not in announcements[-1].content
    assert len(http.of("POST", "/channels/{channel_id}/threads")) == threads_before + 1
    assert winner.user_id in http.dm_channels.values()  # the player who declined is told
    again = await services.rounds.show(staff, tournament="Coppa", number=4)
    assert again.status == "published" and again.tables[0].thread_id is not None
    assert winner.registration_id not in [s.registration_id for s in again.tables[0].seats]
    # the old final's thread (its players were pinged there) is told it no longer stands
    assert old_thread is not None and again.tables[0].thread_id != old_thread
    told = [c for c in http.of("POST", "/channels/{channel_id}/messages") if c.path.endswith(f"/{old_thread}/messages")]
    assert [c.content for c in told if "non vale più" in c.content] == [told[-1].content], [c.content for c in told]


async def _firk_round_two(h: Harness, services: Services, present: int) -> None:
    """A FIRK tournament of 8 through the tree; round 1 played; only ``present`` come to round 2 (the last)."""
    await prepare(h, services, 8, preset="risiko-firk-1")
    async with services.sessionmaker() as session, session.begin():
        for k, reg in enumerate((await session.execute(select(Registration))).scalars()):
            reg.previous_rank = k + 1
    await h.invoke("round draw", roles=ORG, tournament="Coppa")
    await h.invoke("round publish", roles=ORG, tournament="Coppa")
    await report_all(services, 1, guild_id=h.guild.id)
    await h.invoke("round close", roles=ORG, tournament="Coppa")
    await h.invoke("round plan", roles=ORG, tournament="Coppa")
    standings = await services.standings.compute(h.guild.id, "Coppa")
    async with services.sessionmaker() as session:
        user_of = {r.id: r.user_id for r in (await session.execute(select(Registration))).scalars()}
    for line in standings.lines[present:]:
        await services.checkins.forfeit(Actor(guild_id=h.guild.id, user_id=user_of[line.player_id]), tournament="Coppa")


async def test_firk_size_1_through_the_tree_the_morto_table_is_announced_and_its_rules_noted_in_its_thread(
    harness, services, http
):
    """FIRK-SIZE-1 through Discord: 7 present in the last round → a table of four and three plus the "morto"; the
    preview and the announcement say so, and /review note posts the referee's special rules in that table's
    thread without pinging anyone."""
    await _firk_round_two(harness, services, 7)
    sent = await harness.invoke("round draw", roles=ORG, locale="it", tournament="Coppa")
    assert "3 giocatori + il «morto» (FIRK §9)" in sent[-1].text
    await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    announcement = [c for c in http.of("POST", "/channels/{channel_id}/messages") if c.files][-1]
    assert "«morto»" in announcement.content
    rules = "Il morto difende con 2 dadi, non attacca"
    sent = await harness.invoke("review note", roles=("Arbitri",), locale="it", tournament="Coppa", table=2,
                                text=rules)  # fmt: skip
    assert sent[-1].ephemeral and "pubblicata nel suo thread" in sent[-1].text
    posted = http.of("POST", "/channels/{channel_id}/messages")[-1]
    assert rules in posted.content and posted.allowed_mentions.get("parse") == []
    staff = Actor(guild_id=harness.guild.id, user_id=1, is_admin=True)
    assert (await services.rounds.show(staff, tournament="Coppa")).tables[1].thread_id is not None


async def test_firk_size_1_through_the_tree_five_present_the_fifth_sits_out_and_is_told(harness, services, http):
    """FIRK-SIZE-1 through Discord: 5 present in the last round → the four best at table 1 and the 5th sits out;
    the announcement says how the sitting-out player scores."""
    await _firk_round_two(harness, services, 5)
    sent = await harness.invoke("round draw", roles=ORG, locale="it", tournament="Coppa")
    assert "riposa: 15 punti se 5° in classifica, altrimenti 1" in sent[-1].text
    await harness.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    announcement = [c for c in http.of("POST", "/channels/{channel_id}/messages") if c.files][-1]
    assert "riposa" in announcement.content


async def test_firk_size_1_through_the_tree_six_present_the_fifth_and_sixth_play_head_to_head(ch, services, http):
    """FIRK-SIZE-1 through Discord: 6 present in the last round → the four best at table 1, the 5th and 6th of the
    standings head to head; the preview and the announcement say so, and the pair's result entered with /report
    enter scores 31 / 15 (FIRK §9), not the gap formula."""
    await _firk_round_two(ch, services, 6)
    sent = await ch.invoke("round draw", roles=ORG, locale="it", tournament="Coppa")
    assert "testa a testa: 31 / 15" in sent[-1].text
    await ch.invoke("round publish", roles=ORG, locale="it", tournament="Coppa")
    announcement = [c for c in http.of("POST", "/channels/{channel_id}/messages") if c.files][-1]
    assert "testa a testa" in announcement.content
    staff = Actor(guild_id=ch.guild.id, user_id=1, is_admin=True)
    pair = (await services.rounds.show(staff, tournament="Coppa")).tables[1]
    assert pair.special == "head_to_head" and len(pair.seats) == 2
    (modal,) = await ch.invoke("report enter", user_id=4242, roles=("Arbitri",), locale="it", tournament="Coppa",
                               table=2)  # fmt: skip
    await ch.submit(modal, dict(zip(ch.modal_labels(modal), ["40", "32"], strict=True)), user_id=4242,
                    roles=("Arbitri",), locale="it")  # fmt: skip
    report = await services.reports.lookup(staff, TableRef("Coppa", 2))
    assert sorted(s.tournament_points for s in report.seats) == [15.0, 31.0]
