"""The table's report page seen from the services (issue 42): its link is scoped to one table and round, dies with
the round and with the venue link; a draft scores exactly as ``/report situation`` and ``steward risiko score``
score the same document; the submission is the same entry, audited as the page's; a locked report refuses it."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select, update

from bot.db.models import AuditLog, GameTable, Round, RoundStatus, Tournament
from bot.errors import Conflict, InvalidInput
from bot.rules.risiko.scoring import score_situation
from bot.rules.risiko.situation_draft import SituationDraft, apply_edit
from bot.rules.ruleset import load_ruleset
from bot.services import Services
from bot.services.report_page import PageClosed, TablePage, page_token
from tests.support.reports_fixtures import GUILD, REFEREE, build_tournament, player, results_of
from tests.web.report_situations import edits, situation_document

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
NP = "risiko-nostra-passione-2018"


async def venue_token(services: Services, tournament_id: int) -> str:
    async with services.sessionmaker() as session:
        t = await session.get(Tournament, tournament_id)
        assert t is not None and t.venue_token is not None
        return t.venue_token


async def round_id(services: Services, table_id: int) -> int:
    async with services.sessionmaker() as session:
        table = await session.get(GameTable, table_id)
        assert table is not None
        return table.round_id


async def opened(services: Services, preset: str = NP, rounds=None, name: str = "Coppa Test"):
    b = await build_tournament(services, preset=preset, rounds=rounds or {1: [NAMES], 2: [NAMES]}, name=name)
    table_id = b.tables[(1, 1)]
    token = page_token(await venue_token(services, b.tournament_id), table_id, await round_id(services, table_id))
    page = await services.report_pages.open(token)
    assert isinstance(page, TablePage)
    return b, token, page


def full_draft(page: TablePage) -> SituationDraft:
    draft = SituationDraft()
    rules = page.risiko
    assert rules is not None
    for op in edits(len(page.seats)):
        draft = apply_edit(draft, op, board=rules.board, seats=len(page.seats), rules=rules)
    return draft


async def test_issue_42_the_link_opens_its_table_only_and_nothing_else(services: Services):
    b, token, page = await opened(services)
    assert [s.name for s in page.seats] == NAMES and page.table_number == 1 and page.status == "open"
    table_id, mac = token.split("-", 1)
    other = b.tables[(2, 1)]
    assert await services.report_pages.open(f"{other}-{mac}") is None  # another table with this table's mac
    assert await services.report_pages.open(f"{table_id}-{'A' * 22}") is None  # a guessed mac
    assert await services.report_pages.open("not-a-token") is None
    assert await services.report_pages.open(f"{2**40}-{mac}") is None
    assert page.objectives and page.kinds == ("situation", "points")


async def test_issue_42_the_link_dies_with_the_venue_link_and_says_closed_with_its_round(services: Services):
    b, token, _ = await opened(services)
    async with services.sessionmaker() as session, session.begin():
        await session.execute(update(Round).where(Round.tournament_id == b.tournament_id).values(
            status=RoundStatus.CLOSED.value))  # fmt: skip
    with pytest.raises(PageClosed):
        await services.report_pages.open(token)
    b2, token2, _ = await opened(services, name="Coppa Due")  # another tournament of the server
    from tests.support.reports_fixtures import ORGANIZER

    await services.venue.revoke(ORGANIZER, tournament=b2.name)
    assert await services.report_pages.open(token2) is None


async def test_issue_42_a_round_not_yet_published_has_no_page(services: Services):
    b, token, _ = await opened(services)
    async with services.sessionmaker() as session, session.begin():
        await session.execute(update(Round).where(Round.tournament_id == b.tournament_id).values(
            status=RoundStatus.DRAWN.value))  # fmt: skip
    assert await services.report_pages.open(token) is None


async def test_issue_42_the_preview_and_the_submission_score_as_steward_risiko_score(services: Services):
    b, _, page = await opened(services)
    draft = full_draft(page)
    preview = services.report_pages.preview(page, draft)
    assert preview.complete, preview
    engine = score_situation(situation_document(NAMES), load_ruleset(NP).risiko)  # type: ignore[arg-type]
    by_name = {p.name: p for p in engine.table.players}
    for score in preview.scores:
        name = NAMES[score.seat]
        assert score.table_points == by_name[name].table_points and score.rank == by_name[name].rank
    view = await services.report_pages.submit(page, draft, "situation")
    assert view.kind == "situation" and view.reported
    rows = {r.registration_id: r for r in await results_of(services, b.tables[(1, 1)])}
    for name in NAMES:
        row = rows[b.registrations[name]]
        assert row.table_points == by_name[name].table_points and row.table_rank == by_name[name].rank
        assert row.signed_at is None  # the players sign in Discord
    async with services.sessionmaker() as session:
        entries = (await session.execute(select(AuditLog).where(AuditLog.action == "report.enter"))).scalars().all()
    assert len(entries) == 1 and entries[0].details["via"] == "page" and entries[0].actor_id == 0


async def test_issue_42_the_page_enters_what_report_situation_enters(services: Services):
    """The same document through the page and through `/report situation` gives the same rows."""
    b, _, page = await opened(services, rounds={1: [NAMES]})
    await services.report_pages.submit(page, full_draft(page), "situation")
    by_page = sorted((r.registration_id, r.table_points, r.table_rank, r.tournament_points)
                     for r in await results_of(services, b.tables[(1, 1)]))  # fmt: skip
    await services.reports.enter_situation(REFEREE, b.tables[(1, 1)], json.dumps(situation_document(NAMES)))
    by_command = sorted((r.registration_id, r.table_points, r.table_rank, r.tournament_points)
                        for r in await results_of(services, b.tables[(1, 1)]))  # fmt: skip
    assert by_page == by_command


async def test_issue_42_an_incomplete_draft_is_refused_and_names_what_is_missing(services: Services):
    b, _, page = await opened(services)
    rules = page.risiko
    assert rules is not None
    draft = apply_edit(SituationDraft(), {"t": "territory", "name": "alaska", "seat": 0, "armies": 3},
                       board=rules.board, seats=4, rules=rules)  # fmt: skip
    preview = services.report_pages.preview(page, draft)
    codes = [p.code for p in preview.problems]
    assert codes[0] == "missing" and preview.problems[0].number == 41
    assert codes.count("objective_missing") == 4 and not preview.complete
    with pytest.raises(InvalidInput) as err:
        await services.report_pages.submit(page, draft, "situation")
    assert err.value.key == "error.report_page.incomplete"
    assert await results_of(services, b.tables[(1, 1)]) == []


async def test_issue_42_a_submission_after_the_lock_is_refused_with_the_reason(services: Services):
    b, token, page = await opened(services)
    await services.report_pages.submit(page, full_draft(page), "situation")
    for name in NAMES:
        await services.reports.sign(player(b.users[name]), b.tables[(1, 1)])
    await services.reports.countersign(REFEREE, b.tables[(1, 1)])
    page = await services.report_pages.open(token)
    assert page is not None and page.status == "locked"
    with pytest.raises(Conflict) as err:
        await services.report_pages.submit(page, full_draft(page), "situation")
    assert err.value.key == "error.report.locked"


async def test_issue_42_ricochet_tokens_and_typed_points_go_through_the_page(services: Services):
    b = await build_tournament(services, preset="ricochet-v3.3", game="ricochet", rounds={1: [NAMES]})
    table_id = b.tables[(1, 1)]
    token = page_token(await venue_token(services, b.tournament_id), table_id, await round_id(services, table_id))
    page = await services.report_pages.open(token)
    assert page is not None and page.kinds == ("points",) and page.risiko is None and not page.objectives
    draft = SituationDraft()
    for seat, value in enumerate(["5", "3", "2", "r"]):
        draft = apply_edit(draft, {"t": "points", "seat": seat, "value": value}, board=None, seats=4, rules=None)  # type: ignore[arg-type]
    view = await services.report_pages.submit(page, draft, "points")
    assert view.kind == "ricochet"
    ranks = {r.registration_id: r.table_rank for r in await results_of(services, table_id)}
    assert ranks[b.registrations["Anna"]] == 1 and ranks[b.registrations["Dario"]] == 4


async def test_issue_42_links_of_a_round_for_the_publication(services: Services):
    b, token, page = await opened(services)
    links = await services.report_pages.links(REFEREE, page.round_id)
    assert links == {1: token}
    rnd, table, again = await services.report_pages.link_for_player(player(b.users["Anna"]), b.tables[(1, 1)])
    assert (rnd, table, again) == (1, 1, token)
    from bot.errors import PermissionDenied

    with pytest.raises(PermissionDenied):
        await services.report_pages.link_for_player(player(5), b.tables[(1, 1)])
    assert GUILD


async def test_issue_42_a_stored_draft_comes_back_for_its_table_only(services: Services):
    _, token, page = await opened(services)
    draft = full_draft(page)
    await services.report_pages.save_drafts([(page, draft, 9)])
    again = await services.report_pages.open(token)
    assert again is not None and again.stored == (draft, 9)
    await services.report_pages.save_drafts([(page, SituationDraft(), 3)])  # an older version: the stored one stays
    again = await services.report_pages.open(token)
    assert again is not None and again.stored == (draft, 9)
    from bot.db.models import ReportDraft

    async with services.sessionmaker() as session, session.begin():  # the row of a table redrawn away
        await session.execute(update(ReportDraft).values(number=2))
    again = await services.report_pages.open(token)
    assert again is not None and again.stored is None


async def test_issue_42_the_page_opens_on_a_report_entered_in_discord(services: Services):
    """Nothing typed on the page yet: it shows the final situation (or the points) `/report` entered."""
    b, token, page = await opened(services, rounds={1: [NAMES]})
    await services.reports.enter_situation(REFEREE, b.tables[(1, 1)], json.dumps(situation_document(NAMES)))
    again = await services.report_pages.open(token)
    assert again is not None and again.stored is not None and again.status == "entered"
    assert again.stored[0] == full_draft(page)
    rr = await build_tournament(services, name="Robot", preset="ricochet-v3.3", game="ricochet", rounds={1: [NAMES]})
    table_id = rr.tables[(1, 1)]
    await services.reports.enter_points(
        REFEREE, table_id, {rr.registrations[n]: v for n, v in zip(NAMES, ["5", "3", "2", "r"], strict=True)}
    )
    rr_token = page_token(await venue_token(services, rr.tournament_id), table_id, await round_id(services, table_id))
    rr_page = await services.report_pages.open(rr_token)
    assert rr_page is not None and rr_page.stored is not None
    assert dict(rr_page.stored[0].points) == {0: "5", 1: "3", 2: "2", 3: "r"}
