"""The referee's desk on a real database (SQLite, and PostgreSQL in CI): BOT-SAN-1 case numbers and records,
BOT-SAN-2 the ladder and its standing consequences, BOT-SAN-3 appeals to the head referee (RR-REF-1), FIRK-PEN-1,
RK-PACT-1."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from bot.cogs.standings.commands import standings_text
from bot.db.models import AuditLog, Registration, RegistrationStatus, Sanction, SeatOutcome
from bot.errors import Conflict, InvalidInput, PermissionDenied
from bot.present.sanctions import sanctions_csv
from bot.services import Services
from bot.services.access import Actor
from tests.services.test_standings_service import put_results
from tests.support.reports_fixtures import GUILD, HEAD_ROLE, ORGANIZER, REFEREE, build_tournament, player

HEAD = Actor(guild_id=GUILD, user_id=43, display_name="Capo", role_ids=frozenset({HEAD_ROLE}))
ROUNDS = {1: [["Anna", "Bruno", "Carla", "Dario"]]}


async def _firk_round(services: Services):  # type: ignore[no-untyped-def]
    b = await build_tournament(services, preset="risiko-firk-1", rounds=ROUNDS)
    r = b.registrations
    played = SeatOutcome.PLAYED.value
    await put_results(
        services,
        b.tables[(1, 1)],
        [(r["Anna"], 40, 1, 31.8, played), (r["Bruno"], 32, 2, 14.2, played),
         (r["Carla"], 20, 3, 5.0, played), (r["Dario"], 10, 4, 0.0, played)],
    )  # fmt: skip
    return b


async def test_firk_pen_1_bot_san_2_disturbing_a_table_costs_7_standing_points_and_a_revoke_gives_them_back(
    services: Services,
):
    b = await _firk_round(services)
    before = {line.name: line.points for line in (await services.standings.compute(GUILD, b.name)).lines}
    case = await services.sanctions.record(
        REFEREE, tournament=b.name, player="Anna", user_id=None, infraction="disturbing_table", details="rumore"
    )
    assert (case.case_number, case.kind, case.article, case.points) == (1, "standing_points", "FIRK penalità 4", -7)
    assert (case.round_number, case.table_number) == (1, 1)  # by default the player's current table
    view = await services.standings.compute(GUILD, b.name)
    after = {line.name: line.points for line in view.lines}
    assert after["Anna"] == pytest.approx(before["Anna"] - 7) and after["Bruno"] == before["Bruno"]
    assert [(p.name, p.points, p.code, p.round_number) for p in view.penalties] == [("Anna", 7.0, "sanction", 1)]
    text = standings_text(view, "it")  # the standings say why Anna has 7 points less
    assert "Penalità in classifica:" in text and "Anna −7 (sanzione, turno 1)" in text
    with pytest.raises(PermissionDenied):  # only the head referee revokes
        await services.sanctions.revoke(REFEREE, case_number=1, reason="errore")
    revoked = await services.sanctions.revoke(HEAD, case_number=1, reason="errore di persona")
    assert revoked.revoked and revoked.revoke_reason == "errore di persona"
    restored = {line.name: line.points for line in (await services.standings.compute(GUILD, b.name)).lines}
    assert restored == before
    async with services.sessionmaker() as session:
        actions = [a.action for a in (await session.execute(select(AuditLog))).scalars()]
    assert actions.count("sanction.record") == 1 and actions.count("sanction.revoke") == 1


async def test_rk_pact_1_the_ladder_climbs_with_each_offence_and_the_third_disqualifies_the_player(services: Services):
    b = await build_tournament(services, rounds=ROUNDS)  # UFF/ARB
    steps = []
    for _ in range(3):
        proposal = await services.sanctions.propose(
            REFEREE, tournament=b.name, player="Bruno", user_id=None, infraction="pact", cards_in_hand=1
        )
        steps.append((proposal.proposal.kind, proposal.proposal.cards, proposal.proposal.armies))
        await services.sanctions.record(
            REFEREE, tournament=b.name, player="Bruno", user_id=None, infraction="pact", cards_in_hand=1
        )
    assert steps == [("verbal_warning", 0, 0), ("lose_cards_or_armies", 1, 3), ("excluded_and_expelled", 0, 0)]
    listing = await services.sanctions.list(REFEREE, tournament=b.name)
    assert [s.case_number for s in listing] == [1, 2, 3] and [s.offence for s in listing] == [1, 2, 3]
    async with services.sessionmaker() as session:
        status = (await session.execute(select(Sanction))).scalars().all()[-1].previous_status
    assert status == RegistrationStatus.VALIDATED.value
    players = await services.registrations.list_players(GUILD, tournament=b.name)
    assert {p.display_name: p.status for p in players.players}["Bruno"] == RegistrationStatus.DISQUALIFIED.value
    # the head referee annuls the third step on appeal: Bruno is back in the tournament
    bruno = player(b.users["Bruno"])
    appealed = await services.sanctions.appeal(bruno, case_number=3, reason="non ho patteggiato")
    assert appealed.appeal_state == "pending"
    decided = await services.sanctions.decide_appeal(HEAD, case_number=3, decision="annulled", note="testimoni")
    assert decided.appeal_state == "overturned"
    players = await services.registrations.list_players(GUILD, tournament=b.name)
    assert {p.display_name: p.status for p in players.players}["Bruno"] == RegistrationStatus.VALIDATED.value
    with pytest.raises(Conflict):  # decided: final (RR-REF-1)
        await services.sanctions.decide_appeal(HEAD, case_number=3, decision="upheld")


async def test_bot_san_1_an_override_is_kept_and_the_record_is_the_player_s_own_unless_a_referee_asks(
    services: Services,
):
    b = await build_tournament(services, preset="ricochet-v3.3", game="ricochet", rounds=ROUNDS)
    case = await services.sanctions.record(
        REFEREE, tournament=b.name, player="Carla", user_id=None, infraction="misconduct", kind="last_of_game"
    )
    assert case.overridden and (case.proposed_kind, case.kind) == ("verbal_warning", "last_of_game")
    assert case.changes_the_table  # the last place of the game changes the table's result
    carla = player(b.users["Carla"])
    own = await services.sanctions.record_of(carla, tournament=b.name)
    assert [s.case_number for s in own] == [1]
    with pytest.raises(PermissionDenied):  # another player's record is the referees' to read
        await services.sanctions.record_of(carla, tournament=b.name, player="Anna")
    assert await services.sanctions.record_of(REFEREE, tournament=b.name, player="Anna") == ()
    with pytest.raises(PermissionDenied):  # only the sanctioned player appeals
        await services.sanctions.appeal(player(b.users["Anna"]), case_number=1, reason="per lei")
    filename, data = sanctions_csv(await services.sanctions.export(REFEREE, tournament=b.name))
    assert filename.endswith("-sanzioni.csv")
    rows = data.decode("utf-8-sig").splitlines()
    assert rows[0].startswith("case;player;infraction") and rows[1].startswith(
        "1;Carla;misconduct;RR 13.1;last_of_game"
    )


async def test_bot_san_1_refusals_change_nothing(services: Services):
    b = await build_tournament(services, rounds=ROUNDS)
    for actor in (ORGANIZER, player(b.users["Anna"])):
        with pytest.raises(PermissionDenied):
            await services.sanctions.record(actor, tournament=b.name, player="Anna", user_id=None, infraction="pact")
    with pytest.raises(InvalidInput):
        await services.sanctions.record(REFEREE, tournament=b.name, player="Anna", user_id=None, infraction="cheating")
    with pytest.raises(InvalidInput):  # ARB 13: a table-point penalty needs the referee's amount
        await services.sanctions.record(
            REFEREE, tournament=b.name, player="Anna", user_id=None, infraction="disturbing"
        )
    async with services.sessionmaker() as session:
        assert (await session.execute(select(Sanction))).scalars().all() == []
    case = await services.sanctions.record(REFEREE, tournament=b.name, player="Anna", user_id=None, infraction="pact")
    assert case.case_number == 1  # the refused calls used no case number


async def test_bot_san_1_case_numbers_are_unique_per_server_under_50_concurrent_sanctions(services: Services):
    b = await build_tournament(services, rounds=ROUNDS)
    names = ["Anna", "Bruno", "Carla", "Dario"]
    calls = [  # ARB 27 climbs to a disqualification at the third offence: the desk still finds the player
        services.sanctions.record(REFEREE, tournament=b.name, player=names[i % 4], user_id=None, infraction="pact")
        for i in range(50)
    ]
    views = await asyncio.gather(*calls)
    assert sorted(v.case_number for v in views) == list(range(1, 51))
    offences = {}
    for v in sorted(views, key=lambda v: v.case_number):
        offences.setdefault(v.player_name, []).append(v.offence)
    assert all(o == list(range(1, len(o) + 1)) for o in offences.values())  # each ladder climbed once per call


async def test_bot_san_2_a_disqualified_player_is_out_of_the_next_draw_and_the_finals(services: Services):
    """RR-SAN-1 / ARB 26: a disqualification removes the player from later draws and from the finals' ranking."""
    from tests.support.rounds import GUILD as ROUNDS_GUILD
    from tests.support.rounds import ORGANIZER as ORG
    from tests.support.rounds import REF_ROLE, report_all, setup_tournament

    referee = Actor(guild_id=ROUNDS_GUILD, user_id=77, role_ids=frozenset({REF_ROLE}))
    await setup_tournament(services, 16)
    await services.rounds.draw(ORG, tournament="Coppa")
    await services.rounds.publish(ORG, tournament="Coppa")
    await report_all(services, 1)
    out = "Giocatore 03"
    case = await services.sanctions.record(
        referee, tournament="Coppa", player=out, user_id=None, infraction="objective_shown", details="mostrato"
    )
    assert (case.kind, case.consequence, case.article) == ("disqualification", "disqualified", "ARB 26")
    ranking = await services.rounds.ranking(ROUNDS_GUILD, tournament="Coppa")
    regs = await services.registrations.list_players(ROUNDS_GUILD, tournament="Coppa")
    out_id = next(p.id for p in regs.players if p.display_name == out)
    assert out_id not in ranking and len(ranking) == 15  # the finals are seeded from this ranking
    drawn = await services.rounds.draw(ORG, tournament="Coppa")
    seated = {s.name for t in drawn.tables for s in t.seats}
    assert out not in seated and len(seated) == 15


async def test_rr_san_1_last_of_the_game_rescores_the_typed_report_and_a_revoke_restores_it(services: Services):
    """RR 13.1 second step: the sanctioned player takes the last place of the game at once; the standings follow."""
    b = await build_tournament(services, preset="ricochet-v3.3", game="ricochet", rounds=ROUNDS)
    r = b.registrations
    tokens = {r["Anna"]: "5", r["Bruno"]: "3", r["Carla"]: "2", r["Dario"]: "1"}
    await services.reports.enter_points(REFEREE, b.tables[(1, 1)], tokens)
    before = {line.name: (line.rank, line.points) for line in (await services.standings.compute(GUILD, b.name)).lines}
    assert before["Anna"][0] == 1
    case = await services.sanctions.record(
        REFEREE, tournament=b.name, player="Anna", user_id=None, infraction="misconduct", kind="last_of_game"
    )
    report = await services.reports.lookup(REFEREE, b.tables[(1, 1)])
    assert [s.name for s in report.ranking][-1] == "Anna" and report.ranking[0].name == "Bruno"
    after = {line.name: (line.rank, line.points) for line in (await services.standings.compute(GUILD, b.name)).lines}
    assert after["Anna"][0] == 4 and after["Bruno"][0] == 1 and after["Anna"][1] < before["Anna"][1]
    await services.sanctions.revoke(HEAD, case_number=case.case_number, reason="visto male")
    restored = {line.name: (line.rank, line.points) for line in (await services.standings.compute(GUILD, b.name)).lines}
    assert restored == before


async def test_rk_san_1_a_table_point_penalty_lowers_the_players_table_points_before_the_table_is_ranked(
    services: Services,
):
    """ARB 9 / 13: the referee's amount comes off the player's table points; the order and points follow."""
    b = await build_tournament(services, rounds=ROUNDS)  # UFF/ARB
    r = b.registrations
    points = {r["Anna"]: "70", r["Bruno"]: "55", r["Carla"]: "41", r["Dario"]: "12"}
    await services.reports.enter_points(REFEREE, b.tables[(1, 1)], points)
    await services.sanctions.record(
        REFEREE, tournament=b.name, player="Anna", user_id=None, infraction="disturbing", points=20
    )
    report = await services.reports.lookup(REFEREE, b.tables[(1, 1)])
    ranking = [(s.name, s.table_points) for s in report.ranking]
    assert ranking[:2] == [("Bruno", 55.0), ("Anna", 50.0)]  # 70 − 20: Anna drops to second


async def test_rk_wd_1_out_of_the_game_rescores_a_final_situation_with_the_player_withdrawn(services: Services):
    """FIRK §26's third step (expelled from the game) on a table reported as a final situation: the player is
    scored as withdrawn (territories neutral, ARB 25 / RK-WD-1) at once, and a revoke gives the place back."""
    import json

    from tests.services.test_reports_service import FOUR, SITUATION

    b = await build_tournament(services, preset="risiko-firk-1", rounds=FOUR)
    table_id = b.tables[(1, 1)]
    await services.reports.enter_situation(REFEREE, table_id, json.dumps(SITUATION))
    first = {s.name: s.rank for s in (await services.reports.lookup(REFEREE, table_id)).seats}
    assert first["Anna"] == 1
    for _ in range(3):
        case = await services.sanctions.record(
            REFEREE, tournament=b.name, player="Anna", user_id=None, infraction="pact", cards_in_hand=2
        )
    assert case.kind == "expelled_from_game"
    seats = {s.name: s for s in (await services.reports.lookup(REFEREE, table_id)).seats}
    assert (seats["Anna"].outcome == "withdrawn" and seats["Anna"].rank > 1 and seats["Bruno"].rank == 1) or (
        seats["Anna"].outcome == "withdrawn" and seats["Anna"].rank > 1
    )
    await services.sanctions.revoke(HEAD, case_number=case.case_number, reason="errore")
    assert {s.name: s.rank for s in (await services.reports.lookup(REFEREE, table_id)).seats} == first


async def test_tour_fin_1_bot_san_2_a_semifinal_winner_disqualified_is_replaced_by_the_chain(services: Services):
    """A disqualification on the desk takes the player out of the final: the replacement chain fills the seat."""
    from tests.support.rounds import GUILD as ROUNDS_GUILD
    from tests.support.rounds import ORGANIZER as ORG
    from tests.support.rounds import REF_ROLE, semis_played

    semi, orders = await semis_played(services)
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    winner = orders[1][0]
    referee = Actor(guild_id=ROUNDS_GUILD, user_id=77, role_ids=frozenset({REF_ROLE}))
    await services.sanctions.record(
        referee, tournament="Coppa", player=names[winner], user_id=None, infraction="board_overturned"
    )
    final = await services.rounds.compose_final(ORG, tournament="Coppa")
    seated = [s.registration_id for s in final.tables[0].seats]
    assert winner not in seated and orders[1][1] in seated  # the 2nd of that semifinal takes the seat
    assert names[winner] in final.declined


async def _outcomes(calls: list) -> tuple[list, list]:  # type: ignore[type-arg]
    results = await asyncio.gather(*calls, return_exceptions=True)
    won = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(e, Conflict) for e in lost), [repr(e) for e in lost if not isinstance(e, Conflict)]
    return won, lost


async def test_bot_san_3_of_fifty_concurrent_revokes_one_wins_and_undoes_once(services: Services):
    """Two head referees (25 presses each) revoking one disqualification: one revoke, one audit entry, the player's
    status restored once; every other press is told the case is already revoked."""
    b = await _firk_round(services)
    for _ in range(3):
        await services.sanctions.record(REFEREE, tournament=b.name, player="Anna", user_id=None, infraction="pact")
    heads = [Actor(guild_id=GUILD, user_id=43 + i % 2, role_ids=frozenset({HEAD_ROLE})) for i in range(50)]
    won, lost = await _outcomes([services.sanctions.revoke(h, case_number=3, reason=f"r{i}") for i, h in
                                 enumerate(heads)])  # fmt: skip
    assert len(won) == 1 and len(lost) == 49
    assert {e.key for e in lost} == {"error.sanction.already_revoked"}
    async with services.sessionmaker() as session:
        actions = [a.action for a in (await session.execute(select(AuditLog))).scalars()]
        row = (await session.execute(select(Sanction).where(Sanction.case_number == 3))).scalar_one()
    assert actions.count("sanction.revoke") == 1 and row.revoke_reason == won[0].revoke_reason


async def test_bot_san_3_a_revoke_and_an_appeal_decision_at_once_one_wins(services: Services):
    """A pending appeal: a revoke and 'upheld' and 'annulled' decisions pressed together — exactly one of them
    changes the case; a decided or revoked case refuses the others."""
    b = await build_tournament(services, preset="ricochet-v3.3", game="ricochet", rounds=ROUNDS)
    await services.sanctions.record(REFEREE, tournament=b.name, player="Anna", user_id=None, infraction="misconduct")
    appeals = [services.sanctions.appeal(player(b.users["Anna"]), case_number=1, reason=f"non ero io {i}")
               for i in range(20)]  # fmt: skip
    won, lost = await _outcomes(appeals)
    assert len(won) == 1 and {e.key for e in lost} == {"error.sanction.appeal_closed"}
    calls = []
    for i in range(10):
        calls.append(services.sanctions.revoke(HEAD, case_number=1, reason=f"revoca {i}"))
        calls.append(services.sanctions.decide_appeal(HEAD, case_number=1, decision="upheld"))
        calls.append(services.sanctions.decide_appeal(HEAD, case_number=1, decision="annulled"))
    won, lost = await _outcomes(calls)
    assert len(won) == 1 and len(lost) == 29
    async with services.sessionmaker() as session:
        row = (await session.execute(select(Sanction))).scalar_one()
        actions = [a.action for a in (await session.execute(select(AuditLog))).scalars()]
    changes = actions.count("sanction.revoke") + actions.count("sanction.appeal_decided")
    assert changes == 1
    assert (row.revoked_at is not None) != (row.appeal_state != "pending")  # revoked, or decided: never both


async def test_rr_13_4_a_disqualified_player_is_last_of_the_game_even_below_a_forfeit_and_a_revoke_restores_it(
    services: Services,
):
    """RR 13.4: for the points, the player disqualified counts as last of the game; if another player of that game
    forfeited, the disqualified one is still last and the forfeit takes the place above. The table is re-scored at
    once (it used to keep the disqualified player first) and the revoke gives the result back."""
    b = await build_tournament(services, preset="ricochet-v3.3", game="ricochet", rounds=ROUNDS)
    r = b.registrations
    tokens = {r["Anna"]: "6", r["Bruno"]: "4", r["Carla"]: "r", r["Dario"]: "1"}  # Carla forfeited the game
    table_id = b.tables[(1, 1)]
    await services.reports.enter_points(REFEREE, table_id, tokens)
    before = {s.name: s.rank for s in (await services.reports.lookup(REFEREE, table_id)).seats}
    assert before == {"Anna": 1, "Bruno": 2, "Dario": 3, "Carla": 4}
    case = await services.sanctions.record(REFEREE, tournament=b.name, player="Anna", user_id=None,
                                           infraction="cheating")  # fmt: skip
    assert case.kind == "disqualification"
    seats = {s.name: s for s in (await services.reports.lookup(REFEREE, table_id)).seats}
    assert {n: s.rank for n, s in seats.items()} == {"Bruno": 1, "Dario": 2, "Carla": 3, "Anna": 4}
    assert seats["Anna"].outcome == "disqualified"
    standings = {line.name: line for line in (await services.standings.compute(GUILD, b.name)).lines}
    assert standings["Anna"].points == 0 and standings["Anna"].standing == "disqualified"
    await services.sanctions.revoke(HEAD, case_number=case.case_number, reason="visto male")
    assert {s.name: s.rank for s in (await services.reports.lookup(REFEREE, table_id)).seats} == before


async def test_arb_27_the_third_pact_offence_takes_the_player_out_as_in_ritiro_dal_gioco_and_an_annulment_restores(
    services: Services,
):
    """ARB art. 27 third offence (official rules): excluded from the game and the tournament; at the table the
    player is handled as in art. 25 "Ritiro dal gioco" — out of play, below everyone still playing, in the same tier
    as a withdrawal (ARB 23). The typed report is re-scored at once; annulling on appeal restores it."""
    b = await build_tournament(services, preset="risiko-ufficiali-2018", rounds=ROUNDS)
    r = b.registrations
    table_id = b.tables[(1, 1)]
    await services.reports.enter_points(REFEREE, table_id, {r["Anna"]: "80", r["Bruno"]: "60", r["Carla"]: "40",
                                                             r["Dario"]: "20"})  # fmt: skip
    first = {s.name: s.rank for s in (await services.reports.lookup(REFEREE, table_id)).seats}
    assert first["Anna"] == 1
    for _ in range(3):
        case = await services.sanctions.record(REFEREE, tournament=b.name, player="Anna", user_id=None,
                                               infraction="pact", cards_in_hand=2)  # fmt: skip
    assert case.kind == "excluded_and_expelled" and case.consequence == "disqualified"
    seats = {s.name: s for s in (await services.reports.lookup(REFEREE, table_id)).seats}
    assert seats["Anna"].outcome == "disqualified" and seats["Anna"].rank == 4
    assert max(s.rank for n, s in seats.items() if n != "Anna") == 3
    await services.sanctions.appeal(player(b.users["Anna"]), case_number=case.case_number, reason="ricorso")
    await services.sanctions.decide_appeal(HEAD, case_number=case.case_number, decision="annulled")
    assert {s.name: s.rank for s in (await services.reports.lookup(REFEREE, table_id)).seats} == first


async def test_rr_11_a_sanction_changed_on_appeal_takes_the_consequences_of_its_new_kind(services: Services):
    """The head referee changes a disqualification to a verbal warning on appeal (RR 11, the decision is final): the
    player is back in the tournament and at the top of their table — the consequence follows the new kind (it used
    to keep the disqualification's), and the table is re-scored."""
    b = await build_tournament(services, preset="ricochet-v3.3", game="ricochet", rounds=ROUNDS)
    r = b.registrations
    table_id = b.tables[(1, 1)]
    await services.reports.enter_points(REFEREE, table_id, {r["Anna"]: "6", r["Bruno"]: "4", r["Carla"]: "2",
                                                             r["Dario"]: "1"})  # fmt: skip
    case = await services.sanctions.record(REFEREE, tournament=b.name, player="Anna", user_id=None,
                                           infraction="cheating")  # fmt: skip
    assert {s.name: s.rank for s in (await services.reports.lookup(REFEREE, table_id)).seats}["Anna"] == 4
    await services.sanctions.appeal(player(b.users["Anna"]), case_number=case.case_number, reason="non ho barato")
    changed = await services.sanctions.decide_appeal(HEAD, case_number=case.case_number, decision="changed",
                                                     kind="verbal_warning")  # fmt: skip
    assert (changed.kind, changed.consequence, changed.appeal_state) == ("verbal_warning", "recorded", "changed")
    assert {s.name: s.rank for s in (await services.reports.lookup(REFEREE, table_id)).seats}["Anna"] == 1
    async with services.sessionmaker() as session:
        anna = (await session.execute(select(Registration).where(Registration.id == r["Anna"]))).scalar_one()
    assert anna.status == RegistrationStatus.VALIDATED.value


async def test_uff_sdadata_a_forgotten_roll_counts_within_the_game_and_arb_27_pacts_across_the_tournament(
    services: Services,
):
    """UFF casistica "Sdadata": a player who forgets the sdadata roll again later in *the same game* is excluded —
    a forgotten roll in an earlier game does not count (the ladder's scope is the game). ARB 27's pacts climb
    across the tournament (our reading: the text gives no scope). Each infraction's scope is a preset field."""
    rounds = {1: [["Anna", "Bruno", "Carla", "Dario"]], 2: [["Anna", "Carla", "Bruno", "Dario"]]}
    b = await build_tournament(services, preset="risiko-ufficiali-2018", rounds=rounds)

    async def give(infraction: str, round_number: int) -> str:
        case = await services.sanctions.record(REFEREE, tournament=b.name, player="Anna", user_id=None,
                                               infraction=infraction, round_number=round_number, table=1)  # fmt: skip
        return case.kind

    assert await give("forgotten_sdadata_roll", 1) == "verbal_warning"
    assert await give("forgotten_sdadata_roll", 2) == "verbal_warning"  # another game: a first offence again
    assert await give("forgotten_sdadata_roll", 2) == "excluded_from_game"  # the same game: the second step
    assert await give("pact", 1) == "verbal_warning"
    assert await give("pact", 2) == "lose_cards_or_armies"  # the tournament: the second step in the next game
