"""The draw on a real database (bot/services/rounds/draws.py): plan, draw, redraw, replay, export, close;
round 1 and later rounds, FIRK's seating from the standings and its table sizes, team tournaments
(BOT-TAB-1, BOT-TAB-2, TOUR-SIZE-1, TOUR-R1-1, TOUR-R2-1, FIRK-SEED-1, FIRK-SIZE-1, NP-TAB-1, BOT-ROLE-1,
BOT-REG-4)."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.db.models import (
    AuditLog,
    GameTable,
    Registration,
    Round,
    Seat,
    TableResult,
)
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.rules.tournament.draw import evaluate
from bot.rules.tournament.model import Criterion, DrawContext, Player
from bot.rules.tournament.planner import DrawRequest, plan_draw
from bot.services import Services
from bot.services.access import Actor
from bot.services.reports import TableRef
from tests.support.rounds import (
    CLUBS,
    GUILD,
    ORGANIZER,
    PLAYER,
    REF_ROLE,
    count,
    firk_alike_round_1,
    report_all,
    setup_tournament,
    stay_home,
    steward_draw,
    table_ids,
)


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


async def _firk_last_round(services: Services, present: int) -> tuple[Any, list[int]]:
    """A FIRK tournament of 8 after round 1; only ``present`` players come to the last round (round 2)."""
    ranked = await _firk_round_one(services)
    await stay_home(services, ranked[present:])  # the lowest-ranked ones stay home
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
    await stay_home(services, [ranked[place - 1] for place in absent])
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
