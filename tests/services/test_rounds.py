"""Rounds on a real database: draw, preview, hand changes, publish, semifinals and final
(BOT-TAB-1, BOT-TAB-2, TOUR-SIZE-1, TOUR-R1-1, TOUR-R2-1, TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1, FIRK-SEED-1,
FIRK-SIZE-1, NP-FMT-1, NP-SCORE-2, NP-TAB-1, BOT-ROLE-1)."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.db.models import (
    AuditLog,
    CheckIn,
    CheckInStatus,
    GameTable,
    Registration,
    RegistrationStatus,
    Round,
    Seat,
    TableResult,
    Tournament,
)
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.present.bracket import bracket_table
from bot.present.tables import tables_render_data
from bot.rules.tournament.draw import evaluate
from bot.rules.tournament.model import Criterion, DrawContext, Player
from bot.rules.tournament.planner import DrawRequest, plan_draw
from bot.services import Services
from bot.services.access import Actor
from bot.services.reports import ReportStamp, TableRef
from tests.services import test_reports_fixtures as FX

GUILD = 111
ORG_ROLE, REF_ROLE, HEAD_ROLE = 9001, 9002, 9003
ADMIN = Actor(guild_id=GUILD, user_id=1, is_admin=True)
ORGANIZER = Actor(guild_id=GUILD, user_id=2, role_ids=frozenset({ORG_ROLE}))
PLAYER = Actor(guild_id=GUILD, user_id=1000)
CLUBS = ("Roma", "Milano", "Torino", "Napoli", None)


async def count(services: Services, model: type) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def setup_tournament(
    services: Services,
    n: int,
    *,
    preset: str = "risiko-ufficiali-2018",
    name: str = "Coppa",
    clubs: tuple[str | None, ...] = CLUBS,
    status: str = RegistrationStatus.VALIDATED.value,
    extra: dict[int, dict[str, Any]] | None = None,
    format: str | None = None,
    overrides: dict[str, Any] | None = None,
) -> int:
    await services.setup.set_roles(
        ADMIN, organizer_role_id=ORG_ROLE, referee_role_id=REF_ROLE, head_referee_role_id=HEAD_ROLE
    )
    t = await services.tournaments.create(ORGANIZER, name=name, preset=preset, format=format, overrides=overrides)
    async with services.sessionmaker() as session, session.begin():
        for i in range(n):
            session.add(
                Registration(
                    **{
                        "guild_id": GUILD,
                        "tournament_id": t.id,
                        "user_id": 1000 + i,
                        "display_name": f"Giocatore {i:02d}",
                        "club": clubs[i % len(clubs)],
                        "status": status,
                        "registered_at": services.clock(),
                        **((extra or {}).get(i, {})),
                    }
                )
            )
    return t.id


async def table_ids(services: Services, number: int, name: str = "Coppa") -> list[list[int]]:
    view = await services.rounds.show(ORGANIZER, tournament=name, number=number)
    return [[s.registration_id for s in t.seats] for t in view.tables]


async def report_all(
    services: Services, round_number: int, *, order: dict[int, list[int]] | None = None, guild_id: int = GUILD
) -> None:
    """Write a TableResult per seat: the seat order is the finishing order unless ``order`` says otherwise."""
    async with services.sessionmaker() as session, session.begin():
        rnd = (await session.execute(select(Round).where(Round.number == round_number))).scalar_one()
        tables = (await session.execute(select(GameTable).where(GameTable.round_id == rnd.id))).scalars().all()
        for gt in tables:
            seats = (await session.execute(select(Seat).where(Seat.table_id == gt.id))).scalars().all()
            ids = [s.registration_id for s in sorted(seats, key=lambda s: s.position)]
            if order and gt.number in order:
                ids = order[gt.number]
            for rank, rid in enumerate(ids, start=1):
                session.add(
                    TableResult(
                        guild_id=guild_id,
                        table_id=gt.id,
                        registration_id=rid,
                        table_rank=rank,
                        table_points=float(100 - rank),
                        tournament_points=float(len(ids) - rank) * 3 + (rid % 7) * 0.1,
                    )
                )


# ------------------------------------------------------------------------------------------------- draw


async def test_bot_tab_1_tour_r1_1_draw_stores_tables_seats_seed_and_report(services: Services):
    await setup_tournament(services, 37)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert view.number == 1 and view.status == "drawn" and view.kind == "qualifying"
    sizes = sorted(len(t.seats) for t in view.tables)
    assert sizes == [4] * 8 + [5]  # TOUR-SIZE-1: 37 = 8 × 4 + 1 × 5
    seated = [s.registration_id for t in view.tables for s in t.seats]
    assert len(seated) == len(set(seated)) == 37
    assert view.seed is not None and view.report is not None and view.report.seed == view.seed
    assert [c.name for c in view.report.criteria] == ["club_pairs"]
    club = view.report.criteria[0]
    assert club.value >= club.lower_bound and (view.report.proof == "bound") == (club.value == club.lower_bound)
    # optimal over every draw at the bound, else (a 5-player table: the cinquista drawn first) optimal for it or not
    # proven — never more than the engine proved
    assert view.report.proof in ("bound", "cinquisti", "")
    assert view.report.provably_optimal == bool(view.report.proof)
    assert await count(services, GameTable) == 9 and await count(services, Seat) == 37
    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round))).scalar_one()
        assert rnd.draw_seed == view.seed and rnd.draw_report["seed"] == view.seed
        assert rnd.draw_report["lower_bound"]["club_pairs"] == club.lower_bound
        audit = (await session.execute(select(AuditLog).where(AuditLog.action == "round.draw"))).scalar_one()
        assert audit.details["seed"] == view.seed


async def test_bot_tab_1_the_stored_seed_reproduces_the_draw(services: Services):
    await setup_tournament(services, 22)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    stored = tuple(tuple(s.registration_id for s in t.seats) for t in view.tables)
    assert await services.rounds.replay_draw(GUILD, tournament="Coppa", number=1) == stored


def test_bot_tab_1_the_planner_is_a_pure_function_of_the_request_and_seed():
    players = tuple(Player(i, CLUBS[i % 5]) for i in range(1, 31))
    request = DrawRequest(preset="risiko-ufficiali-2018", round_no=1, players=players)
    a, b, c = plan_draw(request, 1234), plan_draw(request, 1234), plan_draw(request, 99)
    assert a.tables == b.tables and a.report == b.report
    assert DrawRequest.from_json(request.to_json()) == request
    assert a.tables != c.tables  # a different seed gives a different (equally good) draw


async def test_bot_tab_1_participants_are_validated_players_minus_withdrawn_and_forfeits(services: Services):
    tid = await setup_tournament(services, 20, extra={0: {"status": "registered"}, 1: {"status": "withdrawn"}})
    # round 1 planned with a forfeit check-in (part A writes these)
    async with services.sessionmaker() as session, session.begin():
        rnd = Round(guild_id=GUILD, tournament_id=tid, number=1)
        session.add(rnd)
        await session.flush()
        reg = (await session.execute(select(Registration).where(Registration.user_id == 1002))).scalar_one()
        session.add(
            CheckIn(
                guild_id=GUILD,
                round_id=rnd.id,
                registration_id=reg.id,
                status=CheckInStatus.FORFEIT.value,
                checked_in_at=services.clock(),
            )
        )
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    users = {s.user_id for t in view.tables for s in t.seats}
    assert len(users) == 17 and not users & {1000, 1001, 1002}


async def test_bot_tab_1_registered_players_count_when_nobody_was_validated(services: Services):
    await setup_tournament(services, 12, status=RegistrationStatus.REGISTERED.value)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert sum(len(t.seats) for t in view.tables) == 12


async def test_tour_r2_1_round_two_uses_winners_five_tables_and_previous_pairs(services: Services):
    await setup_tournament(services, 33)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    await report_all(services, 1)
    first = await table_ids(services, 1)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert view.number == 2
    assert [c.name for c in view.report.criteria] == ["five_repeat", "winner_pairs", "club_pairs", "repeat_pairs"]
    second = [[s.registration_id for s in t.seats] for t in view.tables]
    winners = {t[0] for t in first}
    five = {p for t in first if len(t) >= 5 for p in t}
    previous = {frozenset(p) for t in first for p in itertools.combinations(t, 2)}
    ctx = DrawContext.build(
        [Player(p) for t in second for p in t], five_table_players=five, winners=winners, previous_pairs=[]
    )
    counted = evaluate(second, ctx, (Criterion.FIVE_REPEAT, Criterion.WINNER_PAIRS))
    assert counted["five_repeat"] == view.report.criteria[0].value == 0
    assert counted["winner_pairs"] == view.report.criteria[1].value == 0  # 8 round-1 winners over 8 tables: kept apart
    repeats = sum(1 for t in second for p in itertools.combinations(t, 2) if frozenset(p) in previous)
    assert repeats == view.report.criteria[3].value


async def test_tour_r2_1_round_three_draws_over_the_whole_history(services: Services):
    """TOUR-R2-1 beyond round 2: round 3 looks at every earlier tablemate, every earlier table winner and
    every earlier 5-player table — rounds 1 and 2 — and its report says so."""
    await setup_tournament(services, 33)
    for number in (1, 2):
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        await report_all(services, number)
    first, second = await table_ids(services, 1), await table_ids(services, 2)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert view.number == 3
    winners = {t[0] for t in first} | {t[0] for t in second}
    five = {p for t in [*first, *second] if len(t) >= 5 for p in t}
    ctx = DrawContext.build([Player(p) for t in first for p in t], five_table_players=five, winners=winners,
                            previous_tables=[*first, *second])  # fmt: skip
    third = [[s.registration_id for s in t.seats] for t in view.tables]
    counted = evaluate(third, ctx, (Criterion.FIVE_REPEAT, Criterion.WINNER_PAIRS, Criterion.REPEAT_PAIRS))
    assert {c.name: c.value for c in view.report.criteria if c.name in counted} == counted
    assert [c.name for c in view.report.criteria] == ["five_repeat", "winner_pairs", "club_pairs", "repeat_pairs"]
    history = view.report.history
    assert history["rounds"] == 2 and history["tables"] == len(first) + len(second)
    assert history["winners"] == len(winners) and history["five_table_players"] == len(five)
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=3)
    assert set(doc["winners"]) == winners and set(doc["five_table_players"]) == five


async def test_tour_r2_1_the_engine_s_bound_makes_the_report_say_provably_optimal(services: Services):
    await setup_tournament(services, 40)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert view.report.provably_optimal and view.report.optimality == "bound_met"


async def test_bot_tab_2_redraw_gives_a_new_seed_and_replaces_the_tables(services: Services):
    await setup_tournament(services, 24)
    first = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    again = await services.rounds.redraw(ORGANIZER, tournament="Coppa")
    assert again.seed != first.seed and again.number == 1
    assert await count(services, GameTable) == 6 and await count(services, Seat) == 24
    assert await count(services, Round) == 1


async def test_ricochet_tables_use_the_preset_table_size(services: Services):
    await setup_tournament(services, 10, preset="ricochet-v3.3")
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert sorted(len(t.seats) for t in view.tables) == [3, 3, 4]


async def test_firk_seed_1_round_one_follows_the_previous_standings_and_splits_families(services: Services):
    extra = {i: {"previous_rank": i + 1} for i in range(12)}
    extra[0]["family_group"] = "Rossi"
    extra[1]["family_group"] = "Rossi"  # ranks 1 and 2 would share table 1
    await setup_tournament(services, 12, preset="risiko-firk-1", extra=extra)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    tables = [[s.user_id for s in t.seats] for t in view.tables]
    assert len(tables) == 3 and 1000 in tables[0] and 1001 not in tables[0]  # FIRK-FAM-1: the lower-ranked moved
    assert 1001 in tables[1]
    assert view.report.criteria[0].name == "family_pairs" and view.report.criteria[0].value == 0


# --------------------------------------------------------------------------------------- bad input


async def test_bot_role_1_a_player_cannot_draw_and_nothing_changes(services: Services):
    await setup_tournament(services, 16)
    with pytest.raises(PermissionDenied) as err:
        await services.rounds.draw(PLAYER, tournament="Coppa")
    assert err.value.params["role"] == "organizer"
    assert await count(services, Round) == 0


async def test_bad_input_unknown_tournament_too_few_players_and_undrawn_publish_change_nothing(services: Services):
    await setup_tournament(services, 3)
    with pytest.raises(NotFound) as err:
        await services.rounds.draw(ORGANIZER, tournament="Inesistente")
    assert err.value.key == "error.tournament_not_found"
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.round_too_few_players" and err.value.params["count"] == 3
    with pytest.raises(NotFound) as err:
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.round_none"
    assert await count(services, Round) == 0 and await count(services, GameTable) == 0


async def test_bad_input_publishing_a_planned_round_is_refused(services: Services):
    tid = await setup_tournament(services, 8)
    async with services.sessionmaker() as session, session.begin():
        session.add(Round(guild_id=GUILD, tournament_id=tid, number=1))
    with pytest.raises(Conflict) as err:
        await services.rounds.publish(ORGANIZER, tournament="Coppa", number=1)
    assert err.value.key == "error.round_not_drawn"
    async with services.sessionmaker() as session:
        assert (await session.execute(select(Round.status))).scalar_one() == "planned"


async def test_bad_input_drawing_round_two_before_round_one_is_published(services: Services):
    await setup_tournament(services, 8)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa", number=2)
    assert err.value.key == "error.round_previous_not_published"
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa", number=1)
    assert err.value.key == "error.round_already_drawn"
    assert await count(services, Round) == 1


# ----------------------------------------------------------------------------------------- swap/move


async def test_bot_tab_2_swap_shows_the_cost_before_and_after_and_is_logged(services: Services):
    await setup_tournament(services, 16, clubs=("Roma", "Milano", "Torino", "Napoli"))
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert view.report.criteria[0].value == 0  # four clubs of four over four tables: perfectly separated
    # swap two players of different clubs at different tables: creates same-club pairs
    t1, t2 = view.tables[0].seats, view.tables[1].seats
    a = t1[0]
    b = next(s for s in t2 if s.club != a.club)
    adj = await services.rounds.swap(ORGANIZER, tournament="Coppa", a=a.name, b=b.name.upper())
    assert adj.before["club_pairs"] == 0 and adj.after["club_pairs"] == 2 and adj.worse
    assert adj.tables == (1, 2) and adj.players == (a.name, b.name)
    after = await table_ids(services, 1)
    assert b.registration_id in after[0] and a.registration_id in after[1]
    assert adj.round.report.criteria[0].value == 2 and not adj.round.report.provably_optimal
    assert adj.round.report.adjustments == 1
    async with services.sessionmaker() as session:
        audit = (await session.execute(select(AuditLog).where(AuditLog.action == "round.swap"))).scalar_one()
        assert audit.details["before"] == {"club_pairs": 0} and audit.details["after"] == {"club_pairs": 2}


async def test_bot_tab_2_move_changes_both_table_sizes_and_reports_the_cost(services: Services):
    await setup_tournament(services, 17)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    five = next(t for t in view.tables if len(t.seats) == 5)
    four = next(t for t in view.tables if len(t.seats) == 4)
    mover = five.seats[-1]
    adj = await services.rounds.move(ORGANIZER, tournament="Coppa", player=mover.name, table=four.number)
    sizes = {t.number: len(t.seats) for t in adj.round.tables}
    assert sizes[five.number] == 4 and sizes[four.number] == 5
    assert set(adj.before) == set(adj.after) == {"club_pairs"}


async def test_bad_input_swapping_a_player_who_is_not_seated_changes_nothing(services: Services):
    await setup_tournament(services, 16)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    before = await table_ids(services, 1)
    with pytest.raises(InvalidInput) as err:
        await services.rounds.swap(ORGANIZER, tournament="Coppa", a="Giocatore 00", b="Nessuno")
    assert err.value.key == "error.round_player_not_seated" and err.value.params["name"] == "Nessuno"
    with pytest.raises(InvalidInput) as err:
        await services.rounds.move(ORGANIZER, tournament="Coppa", player="Giocatore 00", table=9)
    assert err.value.key == "error.round_no_such_table"
    assert await table_ids(services, 1) == before
    async with services.sessionmaker() as session:
        assert (await session.execute(select(func.count()).where(AuditLog.action == "round.swap"))).scalar_one() == 0


async def test_bad_input_a_published_round_cannot_be_swapped(services: Services):
    await setup_tournament(services, 8)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    with pytest.raises(Conflict) as err:
        await services.rounds.swap(ORGANIZER, tournament="Coppa", a="Giocatore 00", b="Giocatore 01")
    assert err.value.key == "error.round_already_published"


# ------------------------------------------------------------------------------------------- publish


async def test_bot_tab_1_publish_marks_the_round_then_records_threads_and_retries_are_idempotent(services: Services):
    await setup_tournament(services, 8)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    job = await services.rounds.publish(ORGANIZER, tournament="Coppa")
    assert job.first_time and job.round.status == "published" and job.channel_id is None
    assert job.round.published_at == services.clock()
    await services.rounds.record_publication(
        ORGANIZER, round_id=job.round.round_id, announcement_message_id=777, thread_ids={1: 501}
    )
    again = await services.rounds.publish(ORGANIZER, tournament="Coppa")
    assert not again.first_time and again.round.announcement_message_id == 777
    assert [t.thread_id for t in again.round.tables] == [501, None]
    async with services.sessionmaker() as session:
        actions = Counter((await session.execute(select(AuditLog.action))).scalars().all())
    assert actions["round.publish"] == 1 and actions["round.publish.discord"] == 1


async def test_players_see_only_published_rounds_and_their_own_table(services: Services):
    await setup_tournament(services, 8)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    with pytest.raises(NotFound) as err:
        await services.rounds.show(PLAYER, tournament="Coppa")
    assert err.value.key == "error.round_not_published"
    with pytest.raises(NotFound):
        await services.rounds.my_table(PLAYER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    mine = await services.rounds.my_table(PLAYER, tournament="Coppa")
    assert any(s.user_id == PLAYER.user_id for s in mine.table.seats) and mine.round.number == 1


# --------------------------------------------------------------------------------------- semifinals


async def play_two_rounds(services: Services) -> None:
    for number in (1, 2):
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        await report_all(services, number)


async def ranking(services: Services) -> list[int]:
    return await services.rounds.ranking(GUILD, tournament="Coppa")


async def qualifying_ranks_of(services: Services) -> list[tuple[int, int]]:
    """Each active player with their qualifying rank (players the tie-breakers leave level share it)."""
    from bot.services.rounds.reading import qualifying_ranks

    async with services.sessionmaker() as session:
        t = (await session.execute(select(Tournament).where(Tournament.name == "Coppa"))).scalar_one()
        return await qualifying_ranks(session, t, services.standings)


async def test_tour_sf_1_four_semifinals_take_one_player_from_each_band(services: Services):
    await setup_tournament(services, 24)
    await play_two_rounds(services)
    ranked = await ranking(services)
    view = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa")
    assert view.kind == "semifinal" and view.number == 3 and len(view.tables) == 4
    ranked = await as_seeded(services, ranked, view)  # players level across the cut: the round's lot decided
    bands = [set(ranked[k * 4 : (k + 1) * 4]) for k in range(4)]
    for table in view.tables:
        ids = [s.registration_id for s in table.seats]
        assert len(ids) == 4
        assert [sum(1 for p in ids if p in band) for band in bands] == [1, 1, 1, 1]
    assert view.direct_finalists == ()
    after, before = view.club_pairs
    assert after <= before  # club separation may only redistribute within the bands, never worsen


async def test_tour_sf_1_three_semifinals_send_rank_one_straight_to_the_final(services: Services):
    await setup_tournament(services, 20)
    await play_two_rounds(services)
    ranked = await ranking(services)
    view = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    assert len(view.tables) == 3
    net = await as_seeded(services, ranked[1:], view)  # players level across the cut: the round's lot decided
    seated = {s.registration_id for t in view.tables for s in t.seats}
    assert ranked[0] not in seated and seated == set(net[:12])
    names = await services.registrations.list_players(GUILD, tournament="Coppa")
    first = next(p.display_name for p in names.players if p.id == ranked[0])
    assert view.direct_finalists == (first,)


async def as_seeded(services: Services, ranked: list[int], view: Any) -> list[int]:
    """The ranking the semifinals were seeded from: the standings, with every group of level players a line cut
    through (the cut, the direct seat, a band's edge, the halves) in the order that decided it (the round's lot or
    the organizer's order: ``view.ties``), never the list's own order."""
    if not view.ties:
        return ranked
    regs = (await services.registrations.list_players(GUILD, tournament="Coppa")).players
    by_name = {p.display_name: p.id for p in regs}
    out = list(ranked)
    for tie in view.ties:
        tied = {by_name[n] for n in tie.tied}
        group = [by_name[n] for n in tie.order]
        start = next(i for i, p in enumerate(out) if p in tied)
        rest = [p for p in out if p not in tied]
        out = [*rest[:start], *group, *rest[start:]]
    return out


async def test_tour_sf_2_a_hundred_players_split_into_odd_and_even_semifinals(services: Services):
    await setup_tournament(services, 100)
    await play_two_rounds(services)
    ranked = await ranking(services)
    view = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa")
    ranked = await as_seeded(services, ranked, view)
    assert len(view.tables) == 8
    odd = {p for t in view.tables if t.group == "odd" for p in (s.registration_id for s in t.seats)}
    even = {p for t in view.tables if t.group == "even" for p in (s.registration_id for s in t.seats)}
    assert odd == set(ranked[0:32:2]) and even == set(ranked[1:32:2])


async def test_bad_input_semifinals_before_results_are_in_are_refused(services: Services):
    await setup_tournament(services, 16)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    with pytest.raises(Conflict) as err:
        await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.round_results_missing"
    assert await count(services, Round) == 1


# -------------------------------------------------------------------------------------------- final


async def semis_played(services: Services, n: int = 24, tables: int = 4) -> tuple[Any, dict[int, list[int]]]:
    await setup_tournament(services, n)
    await play_two_rounds(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=tables)
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    orders = {t.number: [s.registration_id for s in t.seats] for t in semi.tables}
    await report_all(services, semi.number)
    return semi, orders


async def test_tour_fin_1_the_final_gathers_the_semifinal_winners(services: Services):
    _, orders = await semis_played(services)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    assert final.kind == "final" and len(final.tables) == 1
    assert [s.registration_id for s in final.tables[0].seats] == [orders[n][0] for n in sorted(orders)]
    assert {s.source for s in final.final_seats} == {"semifinal_winner"}


async def test_tour_fin_1_replacement_chain_same_table_then_best_second_elsewhere(services: Services):
    semi, orders = await semis_played(services)
    await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    # the winner of semifinal 1 declines: the 2nd of that table takes the seat
    view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[orders[1][0]])).round
    seat1 = view.final_seats[0]
    assert (seat1.name, seat1.source, seat1.semifinal_place) == (names[orders[1][1]], "same_table_replacement", 2)
    # the rest of table 1 declines too: the best 2nd of the other tables by the qualifying standings
    for rid in orders[1][1:]:
        view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[rid])).round
    ranks = dict(await qualifying_ranks_of(services))
    seconds = [orders[n][1] for n in (2, 3, 4)]
    best = min(ranks[p] for p in seconds)  # seconds level in the standings share a rank: the semifinals' lot decides
    recovered = next(s for s in view.final_seats if s.source == "other_table_recovery")
    assert recovered.name in {names[p] for p in seconds if ranks[p] == best} and recovered.replaces_table == 1
    assert len(view.declined) == 4 and len(view.tables[0].seats) == 4
    async with services.sessionmaker() as session:
        n = (await session.execute(select(func.count()).where(AuditLog.action == "round.decline"))).scalar_one()
    assert n == 4


async def test_tour_fin_1_when_the_chain_runs_out_a_final_below_the_game_s_minimum_is_refused(services: Services):
    """TOUR-FIN-1 at its end: declines are taken while the chain can fill the final; the decline that would leave
    the final with fewer players than a RisiKo! game needs (3) is refused and nothing of it is recorded."""
    semi, orders = await semis_played(services, n=16)
    await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    chain = [p for n in sorted(orders) for p in orders[n]]  # every semifinalist, table by table
    refused = None
    for player in chain:
        try:
            view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[player])).round
        except Conflict as exc:
            refused = (player, exc)
            break
        assert len(view.tables[0].seats) >= 3
    assert refused is not None and refused[1].key == "error.round_final_too_few"
    assert refused[1].params == {"count": 2, "minimum": 3}
    shown = await services.rounds.show(ORGANIZER, tournament="Coppa")
    assert len(shown.tables[0].seats) == 3 and names[refused[0]] not in shown.declined


async def test_tour_sf_1_tour_fin_1_semifinals_and_the_final_are_reproduced_by_steward_draw(
    services: Services, capsys, tmp_path
):
    """Issue 10: the semifinal round's export + seed and the final's export (with a decline) through `steward draw`
    give the bot's tables — the same planner functions on the same document."""
    semi, _ = await semis_played(services)
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=semi.number)
    cli = steward_draw(doc, semi.seed, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in semi.tables]
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    winner = final.tables[0].seats[0]
    final = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=winner.name)).round
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=final.number)
    cli = steward_draw(doc, 0, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in final.tables]
    assert winner.registration_id not in cli["tables"][0]


async def test_tour_fin_1_three_semifinals_final_has_the_direct_finalist(services: Services):
    await semis_played(services, n=20, tables=3)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    sources = [s.source for s in final.final_seats]
    assert sources.count("direct_finalist") == 1 and sources.count("semifinal_winner") == 3


async def test_tour_fin_1_a_direct_finalist_declining_before_the_semifinals_gives_four_semifinals(services: Services):
    await setup_tournament(services, 20)
    await play_two_rounds(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=semi.direct_finalists[0])).round
    assert len(view.tables) == 4 and view.direct_finalists == () and view.declined == semi.direct_finalists


async def test_tour_fin_1_a_winner_declining_after_the_final_is_published_is_replaced_and_the_final_re_announced(
    services: Services,
):
    """TOUR-FIN-1 at every moment: the final is published, then a winner declines — the chain replaces them (2nd of
    the same semifinal), the round stays published but loses its announcement and threads (the new table is
    announced again), and once a result of the final is in, a decline is refused and changes nothing."""
    semi, orders = await semis_played(services)
    await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    job = await services.rounds.publish(ORGANIZER, tournament="Coppa")
    await services.rounds.record_publication(ORGANIZER, round_id=job.round.round_id, announcement_message_id=555,
                                             thread_ids={1: 777})  # fmt: skip
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    outcome = await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[orders[2][0]])
    assert outcome.republish and outcome.player == names[orders[2][0]] and outcome.player_user_id is not None
    final = outcome.round
    assert final.status == "published" and final.announcement_message_id is None
    assert final.tables[0].thread_id is None  # a new thread for the new table
    seated = [s.registration_id for s in final.tables[0].seats]
    assert orders[2][0] not in seated and orders[2][1] in seated
    await report_all(services, final.number)
    with pytest.raises(Conflict) as err:
        await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[orders[3][0]])
    assert err.value.key == "error.round_final_played"
    after = await services.rounds.show(ORGANIZER, tournament="Coppa")
    assert [s.registration_id for s in after.tables[0].seats] == seated


async def test_tour_fin_1_a_final_recomposed_after_a_published_decline_is_reproduced_and_its_winner_is_champion(
    services: Services, capsys, tmp_path
):
    """TOUR-FIN-1 after publication: the winner of semifinal 1 declines once the final is published; the recomposed
    final's export through `steward draw` gives the re-published table (the 2nd of semifinal 1 in place of the
    declined winner). The final is then played and reported by a referee: the declined player's points are refused
    (not at this table), and the final's rank 1 — the champion the announcement and the bracket name — is the
    replacement who won it, never the player who declined."""
    semi, orders = await semis_played(services)
    await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    declined, replacement = orders[1][0], orders[1][1]
    outcome = await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[declined])
    assert outcome.republish and outcome.round.status == "published"
    final = outcome.round
    seated = [s.registration_id for s in final.tables[0].seats]
    assert declined not in seated and replacement in seated
    assert seated == [replacement] + [orders[n][0] for n in (2, 3, 4)]
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=final.number)
    cli = steward_draw(doc, 0, capsys, tmp_path)
    assert cli["tables"] == [seated]
    # the final is played: the replacement wins it
    referee = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
    ref = TableRef("Coppa", 1, final.number)
    points = {rid: str(60 - 10 * k) for k, rid in enumerate(seated)}
    with pytest.raises(InvalidInput) as err:
        await services.reports.enter_points(referee, ref, {**points, declined: "99"})
    assert err.value.key == "error.report.not_at_this_table"
    await services.reports.enter_points(referee, ref, points)
    result = await services.reports.lookup(PLAYER, ref)
    assert result.round_number == final.number and result.reported
    champion = result.ranking[0]
    assert (champion.registration_id, champion.rank) == (replacement, 1)
    assert declined not in {s.registration_id for s in result.seats}
    shown = await services.rounds.show(PLAYER, tournament="Coppa", number=final.number)
    bracket = bracket_table(shown, 0, result, {})
    assert bracket.winner is not None and bracket.players[bracket.winner].name == names[replacement]
    with pytest.raises(Conflict) as late:  # once played, a decline changes nothing
        await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[replacement])
    assert late.value.key == "error.round_final_played"


async def test_tour_fin_1_a_direct_finalist_declining_after_the_semifinals_gives_the_seat_to_the_best_second(
    services: Services,
):
    """TOUR-FIN-1 / ARB 5: the direct finalist declines once the semifinals are published (before the final is
    composed): the decline is recorded, and the final gives that seat to the best 2nd of the semifinals by the
    qualifying standings."""
    await setup_tournament(services, 20)
    await play_two_rounds(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    direct = semi.direct_finalists[0]
    recorded = await services.rounds.decline(ORGANIZER, tournament="Coppa", player=direct)
    assert recorded.round.kind == "semifinal" and recorded.round.declined == (direct,) and not recorded.republish
    await report_all(services, semi.number)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    orders = {t.number: [s.registration_id for s in t.seats] for t in semi.tables}  # report_all: seat order
    rank = {line.player_id: line.rank for line in (await services.standings.compute(GUILD, "Coppa")).lines}
    seconds = [orders[n][1] for n in orders]
    best = min(rank[p] for p in seconds)
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    level = {names[p] for p in seconds if rank[p] == best}  # the best 2nds by the standings: level ones by the lot
    replacement = next(s for s in final.final_seats if s.source == "direct_finalist_replacement")
    assert replacement.name in level and final.declined == (direct,)
    chain = [tie for tie in final.ties if tie.boundary == "chain"]
    assert (len(chain) == 1 and set(chain[0].tied) == level) if len(level) > 1 else not chain
    assert direct not in [s.name for s in final.tables[0].seats]


async def test_bad_input_declining_a_player_not_in_the_semifinals(services: Services):
    await semis_played(services)
    before = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    last = (await ranking(services))[-1]  # ranked 24th: not a semifinalist
    players = await services.registrations.list_players(GUILD, tournament="Coppa")
    name = next(p.display_name for p in players.players if p.id == last)
    with pytest.raises(InvalidInput) as err:
        await services.rounds.decline(ORGANIZER, tournament="Coppa", player=name)
    assert err.value.key == "error.round_player_not_seated" and err.value.params["name"] == name
    after = await services.rounds.show(ORGANIZER, tournament="Coppa")
    assert after.tables == before.tables and after.declined == ()


# ------------------------------------------------------------------------------------------ plan/close


async def test_bot_reg_4_a_planned_round_takes_check_ins_and_is_the_one_the_draw_fills(services: Services):
    await setup_tournament(services, 12)
    start = services.clock() + timedelta(hours=2)
    planned = await services.rounds.plan(ORGANIZER, tournament="Coppa", start=start)
    assert (planned.number, planned.status, planned.scheduled_start) == (1, "planned", start)
    again = await services.rounds.plan(ORGANIZER, tournament="Coppa", start=start + timedelta(hours=1))
    assert again.round_id == planned.round_id and again.scheduled_start == start + timedelta(hours=1)
    drawn = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert drawn.round_id == planned.round_id and drawn.status == "drawn"
    assert await count(services, Round) == 1


async def test_bad_input_a_start_in_the_past_and_closing_without_results_change_nothing(services: Services):
    await setup_tournament(services, 8)
    with pytest.raises(InvalidInput) as err:
        await services.rounds.plan(ORGANIZER, tournament="Coppa", start=services.clock() - timedelta(minutes=1))
    assert err.value.key == "error.round_start_in_past"
    assert await count(services, Round) == 0
    with pytest.raises(Conflict) as err:
        await services.rounds.close(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.round_nothing_to_close"
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    with pytest.raises(Conflict) as err:
        await services.rounds.close(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.round_results_missing" and err.value.params["tables"] == "1/1, 1/2"
    async with services.sessionmaker() as session:
        assert (await session.execute(select(Round.status))).scalar_one() == "published"


async def test_closing_a_reported_round_lets_the_next_one_be_drawn(services: Services):
    await setup_tournament(services, 8)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    await report_all(services, 1)
    closed = await services.rounds.close(ORGANIZER, tournament="Coppa")
    assert closed.status == "closed"
    with pytest.raises(Conflict) as err:
        await services.rounds.publish(ORGANIZER, tournament="Coppa", number=1)
    assert err.value.key == "error.round_closed"
    nxt = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert nxt.number == 2 and nxt.report.criteria[-1].name == "repeat_pairs"


async def test_tour_sf_2_tour_fin_1_odd_and_even_trios_give_two_finals_joined_by_ranks_one_and_two(services: Services):
    await setup_tournament(services, 100)
    await play_two_rounds(services)
    ranked = await ranking(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    ranked = await as_seeded(services, ranked, semi)  # level players split into halves: the round's lot decided
    assert len(semi.tables) == 6 and len(semi.direct_finalists) == 2
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    await report_all(services, semi.number)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    assert [t.group for t in final.tables] == ["odd", "even"]
    odd, even = ([s.registration_id for s in t.seats] for t in final.tables)
    assert odd[0] == ranked[0] and even[0] == ranked[1]  # the direct finalists of each half
    winners = {t.number: t.seats[0].registration_id for t in semi.tables}
    assert set(odd[1:]) == {winners[n] for n in (1, 2, 3)} and set(even[1:]) == {winners[n] for n in (4, 5, 6)}


@pytest.mark.parametrize("n", [100, 120])
async def test_tour_sf_2_tour_fin_1_a_direct_finalist_declining_before_the_odd_even_trios_moves_the_ranking_up(
    services: Services, n: int, capsys, tmp_path
):
    """TOUR-SF-2 with TOUR-FIN-1 (ARB 5, docs/readings.md): with 100+ players the halves are built from the ranking
    net of a qualified player who withdrew — rank 1 declining before the semifinals moves everyone up one place:
    still two trios, rank 2 keeps the even half's direct seat, the old rank 3 now heads the odd half. At exactly 100
    the field is still 100 (the decline does not undo the split). The semifinal export reproduces it."""
    await setup_tournament(services, n)
    await play_two_rounds(services)
    ranked = await ranking(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    regs = (await services.registrations.list_players(GUILD, tournament="Coppa")).players
    names.update({p.id: p.display_name for p in regs})
    first = (await as_seeded(services, ranked, semi))[0]  # the odd half's direct finalist (a lot if level)
    view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[first])).round
    net = await as_seeded(services, [p for p in ranked if p != first], view)  # level players: as the lots decided
    assert len(view.tables) == 6 and view.direct_finalists == (names[net[0]], names[net[1]])
    odd = {p for t in view.tables if t.group == "odd" for p in (s.registration_id for s in t.seats)}
    even = {p for t in view.tables if t.group == "even" for p in (s.registration_id for s in t.seats)}
    assert odd == set(net[2:26:2]) and even == set(net[3:26:2]) and first not in odd | even
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=view.number)
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in view.tables]


def steward_draw(doc: dict[str, Any], seed: int, capsys: pytest.CaptureFixture[str], tmp_path: Any) -> dict[str, Any]:
    """``steward draw --seed`` through the real command line (the verifiable-draw promise)."""
    from bot.cli import main

    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    assert main(["draw", "--input", str(path), "--seed", str(seed), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("preset", "n", "extra"),
    [
        ("risiko-ufficiali-2018", 33, None),
        ("ricochet-v3.3", 14, None),
        ("risiko-firk-1", 13, {i: {"previous_rank": i + 1} for i in range(0, 13, 2)}),
        ("risiko-nostra-passione-2018", 12, {i: {"team": f"Squadra {i % 4}"} for i in range(12)}),
    ],
)
async def test_bot_tab_1_the_published_seed_lets_anyone_redo_the_draw_with_steward_draw(
    services: Services, preset: str, n: int, extra: dict[int, dict[str, Any]] | None, capsys, tmp_path
):
    """BOT-TAB-1: the round's export + its seed through `steward draw` give the bot's tables, rounds 1, 2 and 3 —
    by construction: the bot and the CLI call the same planner on the same document."""
    await setup_tournament(services, n, preset=preset, extra=extra)
    for number in (1, 2, 3):
        view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
        assert view.number == number
        doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=number)
        cli = steward_draw(doc, view.seed, capsys, tmp_path)
        assert cli["tables"] == [[s.registration_id for s in t.seats] for t in view.tables], number
        assert cli["report"]["criteria"] == {c.name: c.value for c in view.report.criteria}
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        await report_all(services, number)


async def _firk_round_one(services: Services) -> list[int]:
    """A FIRK tournament of 8 after round 1 (closed, round 2 planned): the general standings, best first."""
    await setup_tournament(services, 8, preset="risiko-firk-1", extra={i: {"previous_rank": i + 1} for i in range(8)})
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    await report_all(services, 1)
    await services.rounds.close(ORGANIZER, tournament="Coppa")
    await services.rounds.plan(ORGANIZER, tournament="Coppa")
    standings = await services.standings.compute(GUILD, "Coppa")
    return [line.player_id for line in standings.lines]


async def _stay_home(services: Services, players: list[int]) -> None:
    """``players`` forfeit the planned round (they do not come)."""
    async with services.sessionmaker() as session:
        regs = {r.id: r for r in (await session.execute(select(Registration))).scalars()}
    for rid in players:
        await services.checkins.forfeit(Actor(guild_id=GUILD, user_id=regs[rid].user_id), tournament="Coppa")


async def _firk_last_round(services: Services, present: int) -> tuple[Any, list[int]]:
    """A FIRK tournament of 8 after round 1; only ``present`` players come to the last round (round 2)."""
    ranked = await _firk_round_one(services)
    await _stay_home(services, ranked[present:])  # the lowest-ranked ones stay home
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    return view, ranked[:present]


async def test_firk_6_8_9_reading_8_round_2_is_seated_from_the_standings_the_leader_at_table_1(
    services: Services, capsys, tmp_path
):
    """FIRK §6, §8, §9 (reading 8, tournament.later_round_tables = "standings"): after round 1 the bot seats round 2
    from the general standings — the best four at table 1 (the leader never at table 2), the next four at table 2 —
    the export carries the standings with their ranks and `steward draw` gives the same tables."""
    ranked = await _firk_round_one(services)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert [[s.registration_id for s in t.seats] for t in view.tables] == [ranked[:4], ranked[4:]]
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=2)
    standings = await services.standings.compute(GUILD, "Coppa")
    assert doc["previous_standings"] == ranked and doc["previous_ranks"] == [line.rank for line in standings.lines]
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == [ranked[:4], ranked[4:]] and cli["report"]["kind"] == "by_standings"


async def firk_alike_round_1(services: Services) -> Any:
    """A FIRK tournament of 12 whose three round-1 tables finished alike, round 2 (the last) planned: the general
    classification's ranks are 1, 1, 1, 4, 4, 4, 7, 7, 7, 10, 10, 10. Its standings."""
    await setup_tournament(services, 12, preset="risiko-firk-1", extra={i: {"previous_rank": i + 1} for i in range(12)})
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    async with services.sessionmaker() as session, session.begin():
        rnd = (await session.execute(select(Round).where(Round.number == 1))).scalar_one()
        for gt in (await session.execute(select(GameTable).where(GameTable.round_id == rnd.id))).scalars().all():
            seats = sorted((await session.execute(select(Seat).where(Seat.table_id == gt.id))).scalars().all(),
                           key=lambda seat: seat.position)  # fmt: skip
            for place, seat in enumerate(seats, start=1):
                session.add(TableResult(guild_id=GUILD, table_id=gt.id, registration_id=seat.registration_id,
                                        table_rank=place, table_points=float(100 - 10 * place),
                                        tournament_points=(31.0, 15.0, 7.0, 3.0)[place - 1]))  # fmt: skip
    await services.rounds.close(ORGANIZER, tournament="Coppa")
    await services.rounds.plan(ORGANIZER, tournament="Coppa")
    standings = await services.standings.compute(GUILD, "Coppa")
    assert [line.rank for line in standings.lines] == [1, 1, 1, 4, 4, 4, 7, 7, 7, 10, 10, 10]
    return standings


async def test_firk_reading_8_players_level_across_a_table_boundary_are_seated_by_the_published_lot(
    services: Services, capsys, tmp_path
):
    """Three tables of round 1 with the very same results: the three 2nd places share 4th place in the standings
    and the boundary between tables 1 and 2 cuts through them. The seeded lot decides who plays table 1, the
    organizer's preview says so with the names (both languages), and `steward draw` replays the same lot."""
    from bot.present.rounds import report_text

    standings = await firk_alike_round_1(services)
    seconds = {line.player_id for line in standings.lines if line.rank == 4}
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    tables = [[s.registration_id for s in t.seats] for t in view.tables]
    firsts = {line.player_id for line in standings.lines if line.rank == 1}
    assert set(tables[0][:3]) == firsts and tables[0][3] in seconds and set(tables[1][:2]) == seconds - {tables[0][3]}
    assert view.report is not None and view.report.from_standings
    ties = dict(view.report.seat_ties)
    assert set(ties) == {4, 7} and ties[4][0] == tables[0][3]
    names = {s.registration_id: s.name for t in view.tables for s in t.seats}
    for locale, said, shown in (
        ("en", "Level at place 4", "not optimised"),
        ("it", "Pari merito al 4° posto", "non ottimizzati"),
    ):
        text = report_text(locale, view)
        assert said in text and names[ties[4][0]] in text and shown in text
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=2)
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == tables and [t["rank"] for t in cli["report"]["ties"]] == [4, 7]


async def test_firk_size_1_five_present_the_fifth_of_the_standings_sits_out_and_scores(
    services: Services, capsys, tmp_path
):
    """FIRK-SIZE-1 (FIRK §9, punteggio 9): the four best at table 1, the 5th sits out with 15 points as 5th overall;
    the bot no longer refuses, and `steward draw` gives the same tables."""
    view, ranked = await _firk_last_round(services, 5)
    assert [[s.registration_id for s in t.seats] for t in view.tables] == [ranked[:4], [ranked[4]]]
    async with services.sessionmaker() as session:
        result = (await session.execute(select(TableResult).where(TableResult.registration_id == ranked[4]))).all()
    points = sorted(r[0].tournament_points for r in result)
    assert 15.0 in points  # 5th in the general standings -> 15 (else 1)
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=2)
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == [ranked[:4], [ranked[4]]] and cli["special_tables"] == {"2": "sit_out"}
    # a redraw replaces the sit-out table and its result (no orphan row, one result for the 5th)
    await services.rounds.redraw(ORGANIZER, tournament="Coppa")
    async with services.sessionmaker() as session:
        again = (await session.execute(select(TableResult).where(TableResult.registration_id == ranked[4]))).all()
    assert len(again) == len(result)


@pytest.mark.parametrize(
    ("absent", "overall", "points"),
    [((3, 7, 8), 6, 1.0), ((1, 7, 8), 6, 1.0), ((6, 7, 8), 5, 15.0)],
    ids=["third-absent", "first-absent", "control-fifth-sits-out"],
)
async def test_firk_size_1_five_present_the_sitter_scores_15_only_if_5th_overall_else_1(
    services: Services, absent: tuple[int, ...], overall: int, points: float, capsys, tmp_path
):
    """FIRK-SIZE-1 (FIRK §9: "il 5° giocatore in classifica fra quelli presenti non giocherà e prenderà 15 punti nel
    caso sia classificato 5° in classifica generale (altrimenti 1 punto)"): the players at ``absent`` places of the
    general standings stay home for the last round. With the 3rd (or the 1st) absent, the 5th of those present is 6th
    overall: he sits out with 1 point, not 15; only when places 1–5 all come is the sitter 5th overall (15). The
    points are on the sit-out table's report and in the general standings, and `steward draw` gives the tables."""
    ranked = await _firk_round_one(services)
    before = await services.standings.compute(GUILD, "Coppa")
    assert [line.rank for line in before.lines] == list(range(1, 9))  # no shared place: "5th overall" is one player
    await _stay_home(services, [ranked[place - 1] for place in absent])
    present = [rid for place, rid in enumerate(ranked, start=1) if place not in absent]
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    sitter = present[4]
    assert ranked.index(sitter) + 1 == overall
    assert [[s.registration_id for s in t.seats] for t in view.tables] == [present[:4], [sitter]]
    assert [t.special for t in view.tables] == [None, "sit_out"]
    report = await services.reports.lookup(PLAYER, TableRef("Coppa", 2, 2))
    assert [(s.registration_id, s.rank, s.tournament_points) for s in report.seats] == [(sitter, 1, points)]
    async with services.sessionmaker() as session:
        row = (await session.execute(select(TableResult).where(TableResult.registration_id == sitter)
                                     .order_by(TableResult.id.desc()))).scalars().first()  # fmt: skip
    assert row is not None and row.tiebreak == {"decided_by": "sit_out", "overall_rank": overall}
    after = await services.standings.compute(GUILD, "Coppa")
    gained = after.line_of(sitter).points - before.line_of(sitter).points
    assert gained == pytest.approx(points)
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=2)
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == [present[:4], [sitter]] and cli["special_tables"] == {"2": "sit_out"}


def _table_ref(table: int) -> Any:
    return TableRef("Coppa", table)


async def test_firk_size_1_six_present_the_fifth_and_sixth_play_head_to_head(services: Services, capsys, tmp_path):
    """FIRK punteggio 9: with 6 present the 5th and 6th *of the standings* play head to head (never a random pair)."""
    view, ranked = await _firk_last_round(services, 6)
    assert [[s.registration_id for s in t.seats] for t in view.tables] == [ranked[:4], ranked[4:6]]
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=2)
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == [ranked[:4], ranked[4:6]] and cli["special_tables"] == {"2": "head_to_head"}
    # reading 3: the head-to-head scores 31 / 15, not the gap formula of an ordinary table
    referee = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    report = await services.reports.enter_points(referee, _table_ref(2), {ranked[4]: "40", ranked[5]: "32"})
    assert {s.registration_id: s.tournament_points for s in report.seats} == {ranked[4]: 31.0, ranked[5]: 15.0}


async def test_firk_size_1_a_count_firk_cannot_seat_is_said_as_such_not_as_too_few(services: Services):
    """FIRK §9 after round 1: 10 present cannot be seated (table 1 of four, no 3 + morto at 10): the organizer is
    told exactly that and what unblocks it — not "too few players" — and nothing is drawn."""
    await setup_tournament(services, 11, preset="risiko-firk-1", extra={i: {"previous_rank": i + 1} for i in range(11)})
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    await report_all(services, 1)
    await services.rounds.close(ORGANIZER, tournament="Coppa")
    await services.rounds.plan(ORGANIZER, tournament="Coppa")
    async with services.sessionmaker() as session:
        last = (await session.execute(select(Registration).order_by(Registration.id.desc()))).scalars().first()
    await services.checkins.forfeit(Actor(guild_id=GUILD, user_id=last.user_id), tournament="Coppa")
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.round_firk_cannot_seat" and err.value.params == {"count": 10}
    assert await count(services, GameTable) == 3  # round 1's tables only: nothing was drawn


async def test_firk_size_1_seven_present_three_plus_a_dummy(services: Services, capsys, tmp_path):
    """FIRK §9: 7 present -> a table of 4 (table 1 is always of four) and 3 + the "morto" (dummy)."""
    view, ranked = await _firk_last_round(services, 7)
    assert [len(t.seats) for t in view.tables] == [4, 3] and view.tables[1].size == 4  # the dummy's seat
    assert {s.registration_id for t in view.tables for s in t.seats} == set(ranked)
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=2)
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in view.tables]
    assert cli["special_tables"] == {"2": "dummy"}
    assert [t.special for t in view.tables] == [None, "dummy"]


async def test_firk_size_1_the_referee_records_the_morto_s_special_rules_as_a_note_on_the_table(services: Services):
    """FIRK §9: three players plus the "morto" play "with special rules set by the referee" — a referee records them
    on the table (shown with it; "-" clears it, audited); a player cannot, and an empty note changes nothing."""
    await _firk_last_round(services, 7)
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    referee = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
    rules = "Il morto difende con 2 dadi e non attacca"
    note = await services.reports.note_table(referee, _table_ref(2), rules)
    assert (note.note, note.special, note.table_number, note.round_number) == (rules, "dummy", 2, 2)
    shown = await services.rounds.show(ORGANIZER, tournament="Coppa")
    assert shown.tables[1].note == rules and shown.tables[0].note is None
    with pytest.raises(PermissionDenied):
        await services.reports.note_table(PLAYER, _table_ref(2), "altro")
    with pytest.raises(InvalidInput):
        await services.reports.note_table(referee, _table_ref(2), "\u200b ")
    assert (await services.rounds.show(ORGANIZER, tournament="Coppa")).tables[1].note == rules
    cleared = await services.reports.note_table(referee, _table_ref(2), "-")
    assert cleared.note is None
    async with services.sessionmaker() as session:
        n = (await session.execute(select(func.count()).where(AuditLog.action == "table.note"))).scalar_one()
    assert n == 2


async def test_np_tab_1_team_tournaments_seat_one_player_of_each_team_per_table(services: Services):
    teams = {i: {"team": f"Squadra {i % 4}"} for i in range(12)}
    await setup_tournament(services, 12, preset="risiko-nostra-passione-2018", extra=teams)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    async with services.sessionmaker() as session:
        team_of = {r.id: r.team for r in (await session.execute(select(Registration))).scalars().all()}
    assert len(view.tables) == 3
    for table in view.tables:
        assert sorted(team_of[s.registration_id] for s in table.seats) == [f"Squadra {k}" for k in range(4)]


async def test_np_tab_1_a_six_team_event_runs_three_rounds_to_team_standings_with_a_player_missing(
    services: Services, capsys, tmp_path
):
    """NP-TAB-1 from creation to the standings: six teams, one of them a player short (23 players) — tables of four
    and one of three, never two teammates at a table, no earlier tablemates again in round 2, team standings; every
    round (round 3 over the whole history) reproduced by `steward draw --seed` on its export."""
    teams = ["Aquile", "Lupi", "Orsi", "Falchi", "Tigri", "Volpi"]
    extra = {i: {"team": teams[i % 6]} for i in range(23)}
    await setup_tournament(services, 23, preset="risiko-nostra-passione-2018", extra=extra)
    team_of = {}
    async with services.sessionmaker() as session:
        team_of = {r.id: r.team for r in (await session.execute(select(Registration))).scalars()}
    for number in (1, 2, 3):
        view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
        assert sorted(len(t.seats) for t in view.tables) == [3, 4, 4, 4, 4, 4]
        for table in view.tables:
            assert len({team_of[s.registration_id] for s in table.seats}) == len(table.seats)
        crit = {c.name: c.value for c in view.report.criteria}
        assert crit["team_pairs"] == 0 and (number == 1 or crit["repeat_pairs"] == 0)
        doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=number)
        cli = steward_draw(doc, view.seed, capsys, tmp_path)
        assert cli["tables"] == [[s.registration_id for s in t.seats] for t in view.tables], number
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        await report_all(services, number)
    standings = await services.standings.compute(GUILD, "Coppa")
    assert sorted(tl.team for tl in standings.teams) == sorted(teams)
    by_team = {tl.team: tl.points for tl in standings.teams}
    assert by_team == pytest.approx({team: sum(line.points for line in standings.lines if line.team == team)
                                     for team in teams})  # fmt: skip


async def test_bad_input_a_team_larger_than_the_tables_is_explained_and_nothing_is_drawn(services: Services):
    """NP-TAB-1: Rossi has 5 players for 2 tables — two of them would have to share a table: refused."""
    teams = {i: {"team": "Rossi" if i < 5 else "Blu" if i < 7 else "Verdi"} for i in range(8)}
    await setup_tournament(services, 8, preset="risiko-nostra-passione-2018", extra=teams)
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.round_team_larger_than_tables"
    assert err.value.params == {"counts": "Rossi: 5", "tables": 2}
    assert await count(services, Round) == 0


# ------------------------------------------------------------------------------------------------ knockout


async def setup_knockout(services: Services, n: int) -> None:
    """An NP knockout created as an organizer creates it (`/tournament create format:knockout`)."""
    await setup_tournament(services, n, preset="risiko-nostra-passione-2018", clubs=CLUBS, format="knockout")


async def test_np_fmt_1_a_hundred_player_knockout_runs_from_the_plan_to_the_champion(
    services: Services, capsys, tmp_path
):
    """NP-FMT-1: 100 players → 20 tables of 5 → 5 tables of 4 → the final of 5, each table's winner going on; the
    plan is shown before the first draw, every round is reproduced by `steward draw --seed` on its export, and the
    final's winner heads the standings."""
    await setup_knockout(services, 100)
    planned = await services.rounds.plan(ORGANIZER, tournament="Coppa")
    assert planned.knockout is not None
    assert planned.knockout.plan == ((100, (5,) * 20), (20, (4,) * 5), (5, (5,)))
    expected = [(5,) * 20, (4,) * 5, (5,)]
    for number, sizes in enumerate(expected, start=1):
        view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
        assert view.number == number and tuple(len(t.seats) for t in view.tables) == sizes
        assert view.knockout is not None and view.knockout.final == (number == 3)
        assert tables_render_data(view, date="2026-11-25").kind == ("final" if number == 3 else "qualifying")
        doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=number)
        cli = steward_draw(doc, view.seed, capsys, tmp_path)
        assert cli["tables"] == [[s.registration_id for s in t.seats] for t in view.tables]
        assert cli["report"]["knockout"]["final"] == (number == 3)
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        # the last seat wins each table: the advancing players are exactly those
        winners = {t.seats[-1].registration_id for t in view.tables}
        await report_all(services, number, order={t.number: [s.registration_id for s in reversed(t.seats)]
                                                  for t in view.tables})  # fmt: skip
        if number < 3:
            nxt = await services.rounds.plan(ORGANIZER, tournament="Coppa")
            assert nxt.knockout is not None and nxt.knockout.players == len(winners)
    champion = next(iter(winners))
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.knockout_over"
    standings = await services.standings.compute(GUILD, "Coppa")
    assert standings.lines[0].player_id == champion and standings.lines[0].rank == 1
    final_players = {s.registration_id for t in view.tables for s in t.seats}
    assert {line.player_id for line in standings.lines[:5]} == final_players  # the finalists come next


async def test_np_fmt_1_a_field_that_cannot_be_planned_is_refused_with_the_nearest_workable_sizes(services: Services):
    """NP-FMT-1: 37 players cannot reach a final of 5 with every round's tables a multiple of 5: the plan says so
    before the draw, the draw is refused naming 25 and 80, and nothing is stored."""
    await setup_knockout(services, 37)
    planned = await services.rounds.plan(ORGANIZER, tournament="Coppa")
    assert planned.knockout is not None and not planned.knockout.plan
    assert (planned.knockout.below, planned.knockout.above) == (25, 80)
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.knockout_no_plan" and err.value.params["nearest"] == "25 / 80"
    assert await count(services, GameTable) == 0


async def test_np_fmt_1_a_winner_who_withdraws_is_replaced_by_the_next_of_the_table_and_ties_are_refused(
    services: Services,
):
    """NP-FMT-1 (our reading where NP is silent): a table winner who withdraws before the next round is replaced by
    the 2nd of the same table, so the plan holds; a shared first place is refused until the referee settles it."""
    await setup_knockout(services, 25)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    orders = {t.number: [s.registration_id for s in t.seats] for t in view.tables}
    await report_all(services, 1, order=orders)
    gone, second = orders[1][0], orders[1][1]

    async def set_rank(player: int, rank: int) -> None:
        async with services.sessionmaker() as session, session.begin():
            row = (await session.execute(select(TableResult).where(TableResult.registration_id == player))).scalar_one()
            row.table_rank = rank

    await set_rank(second, 1)  # a shared first place at table 1
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.knockout_tied_winner" and err.value.params == {"table": 1, "round": 1}
    assert await count(services, Round) == 1
    await set_rank(second, 2)
    async with services.sessionmaker() as session, session.begin():
        (await session.get(Registration, gone)).status = RegistrationStatus.WITHDRAWN.value
    nxt = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    seated = {s.registration_id for t in nxt.tables for s in t.seats}
    assert seated == {second} | {orders[n][0] for n in range(2, 6)}
    assert nxt.knockout is not None and nxt.knockout.final


# NP-SCORE-2 at a knockout table: the two tied on objective points are "tied" and "winner"; the others score less.
# In each case the tie-break that decides comes before one that would have picked the other player.
_NP_TIES = {
    "outside_objective_value": (  # 10 = 10 objective points; outside: Europa Meridionale 6 > Giappone 2
        {"Cina": 10, "India": 10, "Giappone": 20},
        {"Ontario": 1, "Groenlandia": 1, "Europa Meridionale": 1},
        None,
    ),
    "objective_armies": (  # outside 2 = 2; objective armies 8 > 3 (all armies would say 33 > 9)
        {"Cina": 2, "India": 1, "Giappone": 30},
        {"Ontario": 4, "Groenlandia": 4, "Argentina": 1},
        None,
    ),
    "all_armies": (  # outside 2 = 2, objective armies 3 = 3; all armies 8 > 4
        {"Cina": 2, "India": 1, "Giappone": 1},
        {"Ontario": 2, "Groenlandia": 1, "Argentina": 5},
        None,
    ),
    "dice_roll": (  # everything level: the dice the referee records decide
        {"Cina": 2, "India": 1, "Giappone": 1},
        {"Ontario": 2, "Groenlandia": 1, "Argentina": 1},
        (2, 5),
    ),
}


@pytest.mark.parametrize("decider", list(_NP_TIES))
async def test_np_fmt_1_np_score_2_a_knockout_tie_on_objective_points_is_decided_by_np_tie_breaks(
    services: Services, decider: str, capsys, tmp_path
):
    """NP-FMT-1 with NP-SCORE-2: a knockout table (25 players → 5 tables of 5 → the final of 5) reported as a
    RisiKo! final situation (the `/report situation` service call) where two players have the same objective points
    (10 each: Cina + India, Ontario + Groenlandia). NP's tie-breaks in order — value of territories outside the
    objective, armies on the objective, all armies, the dice — rank them; the tie-break winner is the one seated in
    the next round and the other is not (no shared first place to refuse). The tie's winner is the player
    with the higher id (and later name), and the tie-break that decides comes before one that would pick the other."""
    await setup_knockout(services, 25)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    referee = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
    first = view.tables[0]
    by_id = sorted(first.seats, key=lambda s: s.registration_id)
    tied, winner, rest = by_id[0], by_id[-1], by_id[1:-1]
    tied_terr, winner_terr, dice = _NP_TIES[decider]
    others = [  # 7, 4 and 2 objective points: below the tie
        ({"Brasile": 3, "Venezuela": 3}, ["Brasile", "Venezuela"]),
        ({"Egitto": 3}, ["Egitto", "Congo"]),
        ({"Madagascar": 3}, ["Madagascar", "Siam"]),
    ]
    players = [
        {"name": tied.name, "territories": tied_terr, "objective": ["Cina", "India"]},
        {"name": winner.name, "territories": winner_terr, "objective": ["Ontario", "Groenlandia"]},
        *({"name": s.name, "territories": terr, "objective": obj} for s, (terr, obj) in zip(rest, others, strict=True)),
    ]
    situation: dict[str, Any] = {"players": players}
    if dice is not None:
        situation["dice"] = {tied.name: dice[0], winner.name: dice[1]}
    report = await services.reports.enter_situation(referee, TableRef("Coppa", 1, 1), json.dumps(situation))
    line = {s.registration_id: s for s in report.seats}
    assert report.kind == "situation"
    assert line[winner.registration_id].table_points == line[tied.registration_id].table_points == 10
    assert (line[winner.registration_id].rank, line[tied.registration_id].rank) == (1, 2)
    assert line[winner.registration_id].decided_by == decider
    winners = {first.number: winner.registration_id}
    for table in view.tables[1:]:  # the other tables typed as table points: the last seat wins each
        ids = [s.registration_id for s in table.seats]
        await services.reports.enter_points(referee, TableRef("Coppa", table.number, 1),
                                            {rid: str(10 + 5 * k) for k, rid in enumerate(ids)})  # fmt: skip
        winners[table.number] = ids[-1]
    final = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert final.knockout is not None and final.knockout.final
    seated = {s.registration_id for t in final.tables for s in t.seats}
    assert seated == set(winners.values()) and tied.registration_id not in seated
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=2)
    cli = steward_draw(doc, final.seed, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in final.tables]


async def test_np_fmt_1_a_table_with_nobody_left_gives_its_seat_to_the_best_runner_up(services: Services):
    """NP-FMT-1 (our reading where NP is silent, as ARB 5 recovers a final's seat): every player of table 1 withdraws
    before round 2; the best 2nd of the other tables by table points takes the seat, so 25 → 5 tables → the final
    of 5 still holds instead of stopping at 4 players."""
    await setup_knockout(services, 25)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    orders = {t.number: [s.registration_id for s in t.seats] for t in view.tables}
    await report_all(services, 1, order=orders)
    async with services.sessionmaker() as session, session.begin():
        for rid in orders[1]:
            (await session.get(Registration, rid)).status = RegistrationStatus.WITHDRAWN.value
        seconds = [orders[n][1] for n in range(2, 6)]
        rows = (await session.execute(select(TableResult).where(TableResult.registration_id.in_(seconds)))).scalars()
        best = {row.registration_id: row for row in rows}
        best[seconds[2]].table_points = 99.0  # table 4's 2nd scored most of the 2nds
    final = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    seated = {s.registration_id for t in final.tables for s in t.seats}
    assert seated == {orders[n][0] for n in range(2, 6)} | {seconds[2]}
    assert final.knockout is not None and final.knockout.final and len(final.tables[0].seats) == 5


async def test_my_table_loads_only_the_player_s_table(services: Services):
    """Defect 7 (300 simultaneous /my-table took 8–12 s): each call loaded the whole round — every seat and every
    registration — to show one table. Now it loads that table's seats and players only, whatever the field's size
    (`python benchmarks/my_table.py` measures the burst against the old path)."""
    from sqlalchemy import event

    await setup_tournament(services, 80)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    loaded: list[str] = []

    def count(target: Any, _context: Any) -> None:
        loaded.append(type(target).__name__)

    event.listen(Seat, "load", count)
    event.listen(Registration, "load", count)
    try:
        mine = await services.rounds.my_table(Actor(guild_id=GUILD, user_id=1040), tournament="Coppa")
    finally:
        event.remove(Seat, "load", count)
        event.remove(Registration, "load", count)
    assert [t.number for t in mine.round.tables] == [mine.table.number]
    assert any(s.user_id == 1040 for s in mine.table.seats)
    assert loaded.count("Seat") == len(mine.table.seats) <= 5
    assert loaded.count("Registration") <= len(mine.table.seats) + 1


async def _level_at_the_cut(services: Services, overrides: dict[str, Any] | None = None):  # type: ignore[no-untyped-def]
    """Twenty players after one round of five tables, each table's places paid 12 / 9 / 6 / 3: five players level
    at each score, so the 16th semifinal seat falls among the five at 3 points (UFF/ARB have no tie-break)."""
    from tests.services.test_reports_fixtures import build_tournament
    from tests.services.test_standings_service import put_results

    names = [f"P{i:02d}" for i in range(20)]
    b = await build_tournament(services, name="Coppa", rounds={1: [names[k * 4 : k * 4 + 4] for k in range(5)]})
    if overrides:
        async with services.sessionmaker() as session, session.begin():
            t = (await session.execute(select(Tournament).where(Tournament.name == "Coppa"))).scalar_one()
            t.overrides = overrides
    for k in range(5):
        seated = names[k * 4 : k * 4 + 4]
        await put_results(
            services,
            b.tables[(1, k + 1)],
            [(b.registrations[n], 40.0 - 10 * p, p + 1, 12.0 - 3 * p, "played") for p, n in enumerate(seated)],
        )
    last = {n for k in range(5) for n in [names[k * 4 + 3]]}  # the five at 3 points
    return b, last


async def test_arb_5_a_tie_across_the_semifinal_cut_is_decided_by_a_published_lot_and_replayed_by_steward(
    services: Services, capsys, tmp_path
):
    """ARB 5 (semifinals from the standings; TOUR-SF-1): five players level at 16th for one seat. UFF/ARB have no
    tie-break, so the bot says so and a lot seeded with the round's published seed decides — not the program's list
    order; ``steward draw`` on the round's export replays the same lot and tables."""
    from bot.rules.tournament.cut import lot

    b, last = await _level_at_the_cut(services)
    view = await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4)
    assert view.cut is not None and (view.cut.rank, view.cut.seats, view.cut.method) == (16, 1, "lot")
    assert set(view.cut.tied) == last and view.cut.seed == view.seed
    ids = {n: b.registrations[n] for n in last}
    tied_ids = [ids[n] for n in view.cut.tied]
    winner = next(n for n in view.cut.tied if ids[n] == lot(tied_ids, view.seed or 0, rank=16)[0])
    assert view.cut.qualified == (winner,)
    seated = {s.name for t in view.tables for s in t.seats}
    assert winner in seated and not (last - {winner}) & seated
    doc = await services.rounds.export_inputs(FX.GUILD, tournament="Coppa", number=view.number)
    cli = steward_draw(doc, view.seed or 0, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in view.tables]
    assert cli["report"]["cut"]["qualified"] == [ids[winner]] and cli["report"]["cut"]["method"] == "lot"


async def test_arb_5_the_organizer_may_order_the_players_level_at_the_cut_or_be_required_to(services: Services):
    """The organizer's explicit order decides instead of the lot; a preset reading "organizer" (cut_tie) refuses to
    seed without it, naming the tied players; an order that does not name exactly them is refused."""
    _, last = await _level_at_the_cut(services)
    chosen = sorted(last)[2]
    order = [chosen, *sorted(last - {chosen})]
    view = await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4, tie_order=order)
    assert view.cut is not None and view.cut.method == "organizer" and view.cut.qualified == (chosen,)
    with pytest.raises(InvalidInput) as wrong:
        await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4, tie_order=order[:3])
    assert wrong.value.key == "error.tournament.cut_tie_order_mismatch"
    async with services.sessionmaker() as session, session.begin():
        t = (await session.execute(select(Tournament).where(Tournament.name == "Coppa"))).scalar_one()
        t.overrides = {"tournament": {"cut_tie": "organizer"}}
    with pytest.raises(Conflict) as refused:
        await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4)
    assert refused.value.key == "error.tournament.cut_tie_needs_order"
    groups = [g.rsplit(" (", 1) for g in refused.value.params["names"].split("; ")]
    assert [int(rank.rstrip(")")) for _, rank in groups] == [1, 6, 11, 16]  # every band's edge, then the cut
    assert set(groups[-1][0].split(", ")) == last
    everyone = [n for names, _ in groups for n in names.split(", ")]
    view = await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4, tie_order=everyone)
    assert {tie.method for tie in view.ties} == {"organizer"} and len(view.ties) == 4
    assert view.cut is not None and view.cut.qualified == (groups[-1][0].split(", ")[0],)


async def test_arb_3_a_late_player_is_replaced_by_a_waitlisted_one_who_plays_and_scores_in_their_place(
    services: Services,
):
    """ARB 3 / UFF "Ritardi": not at the table at the start, the player is replaced by the organizers. The
    substitute (here the first on the waitlist) takes the seat and the table is scored with them; the replaced
    player has no result in that game and stays in the tournament; a table that reported keeps its players."""
    await setup_tournament(services, 8)
    async with services.sessionmaker() as session, session.begin():
        t = (await session.execute(select(Tournament).where(Tournament.name == "Coppa"))).scalar_one()
        session.add(Registration(guild_id=GUILD, tournament_id=t.id, user_id=1999, display_name="Riserva",
                                 status=RegistrationStatus.WAITLISTED.value))  # fmt: skip
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    view = (await services.rounds.publish(ORGANIZER, tournament="Coppa")).round
    late = view.tables[0].seats[2]
    done = await services.rounds.replace_player(ORGANIZER, tournament="Coppa", player=late.name, by="Riserva")
    assert (done.replaced, done.substitute, done.table_number) == (late.name, "Riserva", 1)
    seated = [s.name for s in done.round.tables[0].seats]
    assert "Riserva" in seated and late.name not in seated
    with pytest.raises(Conflict) as twice:  # the substitute now plays in this round
        await services.rounds.replace_player(ORGANIZER, tournament="Coppa", player=seated[0], by="Riserva")
    assert twice.value.key == "error.round_replace_seated"
    await report_all(services, 1)
    with pytest.raises(Conflict) as reported:
        await services.rounds.replace_player(ORGANIZER, tournament="Coppa", player="Riserva", by=late.name)
    assert reported.value.key in ("error.round_replace_reported", "error.round_replace_seated")
    standings = {line.name: line for line in (await services.standings.compute(GUILD, "Coppa")).lines}
    assert standings["Riserva"].games == 1
    assert late.name not in standings or standings[late.name].games == 0
    listed = await services.registrations.list_players(GUILD, tournament="Coppa")
    players = {p.display_name: p.status for p in listed.players}
    assert players["Riserva"] == "validated" and players[late.name] == "validated"


async def test_arb_3_two_hundred_replacements_at_once_seat_the_substitute_once(services: Services):
    """Organizers pressing at once: one waitlisted substitute, two hundred replacements of the eight seated players
    at the same time — exactly one succeeds, every other is refused, and the round
    keeps eight seats with the substitute in one of them."""
    import asyncio

    await setup_tournament(services, 8)
    async with services.sessionmaker() as session, session.begin():
        t = (await session.execute(select(Tournament).where(Tournament.name == "Coppa"))).scalar_one()
        session.add(Registration(guild_id=GUILD, tournament_id=t.id, user_id=1999, display_name="Riserva",
                                 status=RegistrationStatus.WAITLISTED.value))  # fmt: skip
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    view = (await services.rounds.publish(ORGANIZER, tournament="Coppa")).round
    names = [s.name for table in view.tables for s in table.seats]

    async def one(i: int) -> str:
        try:
            await services.rounds.replace_player(ORGANIZER, tournament="Coppa", player=names[i % 8], by="Riserva")
        except (Conflict, InvalidInput) as exc:
            return exc.key
        return "ok"

    outcomes = Counter(await asyncio.gather(*(one(i) for i in range(200))))
    assert outcomes["ok"] == 1 and sum(outcomes.values()) == 200
    # the others: the substitute already plays, or (the replaced player's own calls) that player no longer sits
    assert set(outcomes) - {"ok"} <= {"error.round_replace_seated", "error.round_player_not_seated"}
    after = await services.rounds.show(ORGANIZER, tournament="Coppa")
    seated = [s.name for table in after.tables for s in table.seats]
    assert len(seated) == 8 and seated.count("Riserva") == 1


@pytest.mark.parametrize("delay", [0.0, 0.005, 0.02, "decline_checked"])
async def test_issue_40_a_decline_racing_the_final_s_report_never_leaves_a_result_on_a_changed_final(
    services: Services, delay: float | str, monkeypatch: pytest.MonkeyPatch
):
    """Issue 40, finding 3, in the final: a finalist declines (the published final is recomposed) while a referee
    enters the final's report. The final's tables are locked as a report locks its table, so one of them wins: the
    report is written and the decline is refused (the final is played), or the final is recomposed and the report,
    made against the old seating, is refused. Never a result for a player not seated at the final."""
    semi, _ = await semis_played(services)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    referee = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
    ref = TableRef("Coppa", 1, final.number)
    seated = [s.registration_id for s in final.tables[0].seats]
    sheet = await services.reports.sheet(referee, ref)
    points = {rid: str(60 - 10 * k) for k, rid in enumerate(seated)}

    async def report() -> str:
        try:
            await services.reports.enter_points(referee, ref, points, seen=ReportStamp.of(sheet))
        except (Conflict, NotFound, InvalidInput) as exc:
            return exc.key
        return "ok"

    if delay == "decline_checked":  # as the probe found it: the decline pauses after it found the final unplayed
        from bot.services.rounds import finals

        real = finals._final_played

        async def checked_then_pause(*args: Any) -> bool:
            played = await real(*args)
            await asyncio.sleep(0.2)
            return played

        monkeypatch.setattr(finals, "_final_played", checked_then_pause)

    async def decline() -> str:
        await asyncio.sleep(0.0 if isinstance(delay, str) else delay)
        try:
            await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[seated[0]])
        except Conflict as exc:
            return exc.key
        return "ok"

    if delay == "decline_checked":
        declined, reported = await asyncio.gather(decline(), report())
    else:
        reported, declined = await asyncio.gather(report(), decline())
    assert (reported == "ok") != (declined == "ok"), (reported, declined)
    if reported == "ok":
        assert declined == "error.round_final_played"
    async with services.sessionmaker() as session:
        final_round = (await session.execute(select(Round).where(Round.kind == "final"))).scalar_one()
        tables = (await session.execute(select(GameTable).where(GameTable.round_id == final_round.id))).scalars().all()
        for gt in tables:
            seats = set((await session.execute(select(Seat.registration_id).where(Seat.table_id == gt.id))).scalars())
            lines = (await session.execute(select(TableResult).where(TableResult.table_id == gt.id))).scalars().all()
            assert {r.registration_id for r in lines} <= seats
            assert len(lines) == (len(seats) if reported == "ok" else 0)  # a report that said "ok" is kept
