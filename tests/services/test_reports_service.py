"""ReportService on a real database (BOT-RES-1, TOUR-REF-1, BOT-ROLE-1): entry, signatures, countersignature,
corrections, refusals that change nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from bot.db.models import AuditLog, GameTable, TableResult
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.i18n import format_number
from bot.services import Services
from bot.services.report_lines import parse_entry
from bot.services.reports import TableRef
from tests.support.reports_fixtures import (
    GUILD,
    OUTSIDER,
    REFEREE,
    build_tournament,
    count,
    player,
    results_of,
    table_row,
)

FOUR = {1: [["Anna", "Bruno", "Carla", "Dario"]]}


async def audit(services: Services, action: str) -> list[AuditLog]:
    async with services.sessionmaker() as session:
        rows = await session.execute(select(AuditLog).where(AuditLog.action == action).order_by(AuditLog.id))
        return list(rows.scalars().all())


def by_name(b, values: dict[str, str]) -> dict[int, str]:
    return {b.registrations[n]: v for n, v in values.items()}


async def test_bot_res_1_a_player_enters_firk_table_points_and_the_preset_gives_tournament_points(services: Services):
    b = await build_tournament(services, preset="risiko-firk-1", rounds=FOUR)
    anna = player(b.users["Anna"])
    view = await services.reports.enter_points(
        anna, TableRef("Coppa Test", 1), by_name(b, {"Anna": "40", "Bruno": "32", "Carla": "20,5", "Dario": "10"})
    )
    ranking = [(s.name, s.rank, s.table_points, s.tournament_points) for s in view.ranking]
    # FIRK punteggio: 31 + 0.1 x 8 = 31.8 for the first, 15 - 0.1 x 8 = 14.2 for the second (rulebook example).
    assert ranking[0] == ("Anna", 1, 40.0, 31.8)
    assert ranking[1] == ("Bruno", 2, 32.0, 14.2)
    assert ranking[2] == ("Carla", 3, 20.5, pytest.approx(5.05))
    assert view.kind == "points" and not view.locked and len(view.pending) == 4
    rows = await results_of(services, b.tables[(1, 1)])
    assert {r.table_rank for r in rows} == {1, 2, 3, 4} and all(r.entered_by == anna.user_id for r in rows)
    assert len(await audit(services, "report.enter")) == 1


async def test_bot_res_1_everyone_signs_once_then_a_referee_countersigns_and_the_table_locks(services: Services):
    b = await build_tournament(services, rounds=FOUR)
    table_id = b.tables[(1, 1)]
    await services.reports.enter_points(
        REFEREE, table_id, by_name(b, {"Anna": "50", "Bruno": "40", "Carla": "30", "Dario": "20"})
    )
    with pytest.raises(Conflict) as early:
        await services.reports.countersign(REFEREE, table_id)
    assert early.value.key == "error.report.signatures_missing" and "Anna" in early.value.params["names"]
    first = await services.reports.sign(player(b.users["Anna"]), table_id)
    again = await services.reports.sign(player(b.users["Anna"]), table_id)
    assert not first.already_signed and again.already_signed
    assert len(await audit(services, "report.sign")) == 1  # a double click signs once
    for n in ("Bruno", "Carla", "Dario"):
        outcome = await services.reports.sign(player(b.users[n]), table_id)
    assert outcome.view.all_signed and not outcome.view.locked
    view = await services.reports.countersign(REFEREE, table_id)
    assert view.locked and view.countersigned_by == REFEREE.user_id
    table = await table_row(services, table_id)
    assert table.locked and table.countersigned_at is not None
    assert all(r.locked for r in await results_of(services, table_id))


async def test_bot_res_1_a_player_at_no_table_cannot_sign_and_nothing_changes(services: Services):
    b = await build_tournament(services, rounds=FOUR)
    table_id = b.tables[(1, 1)]
    await services.reports.enter_points(
        REFEREE, table_id, by_name(b, {"Anna": "50", "Bruno": "40", "Carla": "30", "Dario": "20"})
    )
    with pytest.raises(Conflict) as err:
        await services.reports.sign(OUTSIDER, table_id)
    assert err.value.key == "error.report.not_at_table"
    assert all(r.signed_at is None for r in await results_of(services, table_id))
    assert await audit(services, "report.sign") == []


async def test_bot_role_1_an_outsider_cannot_enter_a_report_and_is_told_the_referee_role(services: Services):
    b = await build_tournament(services, rounds=FOUR)
    with pytest.raises(PermissionDenied) as err:
        await services.reports.enter_points(
            OUTSIDER, b.tables[(1, 1)], by_name(b, {"Anna": "1", "Bruno": "2", "Carla": "3", "Dario": "4"})
        )
    assert err.value.params["role"] == "referee"
    assert await count(services, TableResult) == 0


async def locked_table(services: Services):
    b = await build_tournament(services, rounds=FOUR)
    table_id = b.tables[(1, 1)]
    await services.reports.enter_points(
        REFEREE, table_id, by_name(b, {"Anna": "50", "Bruno": "40", "Carla": "30", "Dario": "20"})
    )
    for n in ("Anna", "Bruno", "Carla", "Dario"):
        await services.reports.sign(player(b.users[n]), table_id)
    await services.reports.countersign(REFEREE, table_id)
    return b, table_id


async def test_bot_res_1_a_player_entering_a_report_for_a_locked_table_is_refused_and_nothing_changes(
    services: Services,
):
    b, table_id = await locked_table(services)
    before = [(r.table_points, r.tournament_points) for r in await results_of(services, table_id)]
    with pytest.raises(Conflict) as err:
        await services.reports.enter_points(
            player(b.users["Dario"]), table_id, by_name(b, {"Anna": "1", "Bruno": "2", "Carla": "3", "Dario": "99"})
        )
    assert err.value.key == "error.report.locked"
    with pytest.raises(Conflict) as ref_err:
        await services.reports.sheet(REFEREE, table_id)
    assert ref_err.value.key == "error.report.locked_use_correct"
    assert [(r.table_points, r.tournament_points) for r in await results_of(services, table_id)] == before


async def test_bot_res_1_a_referee_corrects_a_locked_table_with_a_reason_logged_before_and_after(services: Services):
    b, table_id = await locked_table(services)
    with pytest.raises(PermissionDenied):
        await services.reports.correct(player(b.users["Anna"]), table_id, reason="x", values=by_name(b, {"Anna": "1"}))
    view = await services.reports.correct(
        REFEREE,
        table_id,
        reason="punti di Bruno e Carla scambiati",
        values=by_name(b, {"Anna": "50", "Bruno": "30", "Carla": "40", "Dario": "20"}),
    )
    assert [s.name for s in view.ranking] == ["Anna", "Carla", "Bruno", "Dario"]
    assert view.locked  # a referee's correction keeps the lock
    (entry,) = await audit(services, "report.correct")
    assert entry.actor_id == REFEREE.user_id and entry.details["reason"] == "punti di Bruno e Carla scambiati"
    before = {x["registration_id"]: x["table_points"] for x in entry.details["before"]}
    after = {x["registration_id"]: x["table_points"] for x in entry.details["after"]}
    assert before[b.registrations["Bruno"]] == 40.0 and after[b.registrations["Bruno"]] == 30.0


@pytest.mark.parametrize(
    ("values", "key"),
    [
        ({"Anna": "quaranta", "Bruno": "2", "Carla": "3", "Dario": "4"}, "error.report.bad_number"),
        ({"Anna": "-5", "Bruno": "2", "Carla": "3", "Dario": "4"}, "error.report.bad_number"),
        ({"Anna": "nan", "Bruno": "2", "Carla": "3", "Dario": "4"}, "error.report.bad_number"),
        ({"Anna": "10", "Bruno": "2"}, "error.report.missing_value"),
        ({"Anna": "10", "Bruno": "10", "Carla": "3", "Dario": "4"}, "error.report.tie_needs_situation"),
    ],
)
async def test_bot_res_1_bad_points_are_refused_with_a_clear_key_and_nothing_changes(
    services: Services, values: dict[str, str], key: str
):
    b = await build_tournament(services, rounds=FOUR)
    with pytest.raises(InvalidInput) as err:
        await services.reports.enter_points(REFEREE, b.tables[(1, 1)], by_name(b, values))
    assert err.value.key == key
    assert await count(services, TableResult) == 0
    assert (await table_row(services, b.tables[(1, 1)])).final_situation is None


async def test_bot_res_1_unknown_tournament_table_or_round_is_not_found(services: Services):
    await build_tournament(services, rounds=FOUR)
    for ref, key in [
        (TableRef("Fantasma", 1), "error.tournament_not_found"),
        (TableRef("Coppa Test", 9), "error.report.no_table"),
        (TableRef("Coppa Test", 1, 5), "error.report.no_round"),
    ]:
        with pytest.raises(NotFound) as err:
            await services.reports.sheet(REFEREE, ref)
        assert err.value.key == key


def test_bot_res_1_entries_accept_comma_or_dot_and_words_for_players_out_of_the_game():
    assert parse_entry("31,8", name="A") == ("played", 31.8)
    assert parse_entry(" 31.8 ", name="A") == ("played", 31.8)
    assert parse_entry("Ritirato", name="A") == ("withdrawn", 0.0)
    assert parse_entry("SQ", name="A") == ("disqualified", 0.0)
    with pytest.raises(InvalidInput):
        parse_entry("1e400", name="A")


async def test_bot_res_1_a_withdrawn_player_ranks_below_those_in_play_and_need_not_sign(services: Services):
    b = await build_tournament(services, rounds=FOUR)
    table_id = b.tables[(1, 1)]
    view = await services.reports.enter_points(
        REFEREE, table_id, by_name(b, {"Anna": "r", "Bruno": "40", "Carla": "30", "Dario": "20"})
    )
    assert [s.name for s in view.ranking] == ["Bruno", "Carla", "Dario", "Anna"]
    anna = next(s for s in view.seats if s.name == "Anna")
    assert anna.outcome == "withdrawn" and anna.rank == 4
    assert {s.name for s in view.must_sign} == {"Bruno", "Carla", "Dario"}


SITUATION = {
    "players": [
        {"name": "anna", "territories": {"Cina": 5, "India": 3, "Siam": 2, "Indonesia": 1}, "cards": 1},
        {"name": "Bruno", "territories": {"Alaska": 2, "Kamchatka": 3}, "cards": 0},
        {"name": "Carla", "territories": ["Egitto", "Africa del Nord", "Congo"]},
        {"name": "Dario", "territories": {"Brasile": 2}, "status": "withdrawn"},
    ]
}


async def test_bot_res_1_a_firk_final_situation_is_scored_and_explained_by_the_engine(services: Services):
    b = await build_tournament(services, preset="risiko-firk-1", rounds=FOUR)
    table_id = b.tables[(1, 1)]
    view = await services.reports.enter_situation(player(b.users["Bruno"]), table_id, json.dumps(SITUATION))
    assert view.kind == "situation"
    by = {s.name: s for s in view.seats}
    assert by["Dario"].rank == 4 and by["Dario"].table_points == 0 and by["Dario"].outcome == "withdrawn"
    assert by["Anna"].rank == 1 and by["Anna"].table_points is not None and by["Anna"].table_points > 0
    table = await table_row(services, table_id)
    assert table.final_situation is not None and table.final_situation["kind"] == "situation"
    explanation = table.final_situation["input"]["explanation"]
    assert {p["name"] for p in explanation} == {"Anna", "Bruno", "Carla", "Dario"}
    assert all("explanation" in p for p in explanation)


async def test_bot_res_1_a_bad_situation_is_refused_and_nothing_changes(services: Services):
    b = await build_tournament(services, preset="risiko-firk-1", rounds=FOUR)
    table_id = b.tables[(1, 1)]
    bad = [
        ("{not json", "error.report.bad_json"),
        ('{"players": [{"name": "Zorro", "territories": {}}]}', "error.report.not_at_this_table"),
        (
            json.dumps({"players": [*SITUATION["players"][1:], {"name": "Anna", "territories": {"Atlantide": 3}}]}),
            "error.report.engine",
        ),
        ('{"players": [{"name": "Anna", "territories": {"Cina": 3}}]}', "error.report.missing_value"),
        ('{"players": [{"name": "Anna", "territorys": {}}]}', "error.report.bad_situation"),
        ("[" * 1000, "error.json.too_deep"),  # never a RecursionError
        ('{"players": [{"name": "Anna", "territories": {"Cina": ' + "9" * 4500 + "}}]}", "error.json.number_too_long"),
        ("[" + "1," * 4000 + "1]", "error.field_too_long"),
        ('{"players": [{"name": "Anna", "territories": {"Cina": ' + "9" * 400 + "}}]}", "error.json.number_too_long"),
    ]
    for text, key in bad:
        with pytest.raises(InvalidInput) as err:
            await services.reports.enter_situation(REFEREE, table_id, text)
        assert err.value.key == key, text
    assert await count(services, TableResult) == 0


async def test_bot_res_1_ricochet_tokens_rank_players_and_forfeits_go_last(services: Services):
    b = await build_tournament(services, preset="ricochet-v3.3", game="ricochet", rounds=FOUR)
    view = await services.reports.enter_points(
        REFEREE, b.tables[(1, 1)], by_name(b, {"Anna": "7", "Bruno": "r", "Carla": "7", "Dario": "3"})
    )
    by = {s.name: s for s in view.seats}
    assert by["Anna"].rank == by["Carla"].rank == 1  # joint winners (RR-WIN-1)
    assert by["Dario"].rank == 3 and by["Bruno"].rank == 4 and by["Bruno"].outcome == "withdrawn"
    assert by["Anna"].tournament_points == 7.0 and by["Bruno"].tournament_points == 0.0
    with pytest.raises(InvalidInput) as err:
        await services.reports.enter_points(
            REFEREE, b.tables[(1, 1)], by_name(b, {"Anna": "7,5", "Bruno": "1", "Carla": "2", "Dario": "3"})
        )
    assert err.value.key == "error.report.tokens_whole"
    with pytest.raises(InvalidInput):
        await services.reports.enter_situation(REFEREE, b.tables[(1, 1)], "{}")


async def test_bot_res_1_entering_again_before_the_lock_clears_signatures(services: Services):
    b = await build_tournament(services, rounds=FOUR)
    table_id = b.tables[(1, 1)]
    values = by_name(b, {"Anna": "50", "Bruno": "40", "Carla": "30", "Dario": "20"})
    await services.reports.enter_points(REFEREE, table_id, values)
    await services.reports.sign(player(b.users["Anna"]), table_id)
    view = await services.reports.enter_points(player(b.users["Bruno"]), table_id, values)
    assert len(view.pending) == 4


async def test_bot_res_1_my_games_lists_tables_points_and_pending_signatures(services: Services):
    b = await build_tournament(services, rounds={1: [["Anna", "Bruno", "Carla", "Dario"]], 2: [["Anna", "Carla"]]})
    await services.reports.enter_points(
        REFEREE, b.tables[(1, 1)], by_name(b, {"Anna": "50", "Bruno": "40", "Carla": "30", "Dario": "20"})
    )
    games = await services.reports.my_games(player(b.users["Anna"]), "Coppa Test")
    assert [(g.round_number, g.table_number, g.reported) for g in games.games] == [(1, 1, True), (2, 1, False)]
    assert games.games[0].tournament_points == 12.0 and len(games.to_sign) == 1
    with pytest.raises(NotFound):
        await services.reports.my_games(OUTSIDER, "Coppa Test")


async def test_bot_role_1_another_servers_table_is_invisible(services: Services):
    b = await build_tournament(services, rounds=FOUR)
    other = player(b.users["Anna"])
    stranger = type(other)(guild_id=GUILD + 1, user_id=other.user_id)
    with pytest.raises(NotFound):
        await services.reports.sign(stranger, b.tables[(1, 1)])
    assert await count(services, GameTable) == 1


@given(st.decimals(min_value=0, max_value=9999, places=2, allow_nan=False), st.sampled_from(["it", "en"]))
def test_bot_res_1_bot_i18n_1_a_number_shown_in_either_locale_reads_back_the_same(value, locale):
    """format_number (without thousands grouping, as the modal pre-fills it) and parse_entry are a pair."""
    shown = format_number(float(value), locale).replace("." if locale == "it" else ",", "")
    assert parse_entry(shown, name="A") == ("played", pytest.approx(float(value), abs=0.006))


ONE_SCHEMA_ACCEPTED = {
    "players": [
        {"name": "Anna", "territories": {"Cina": 5, "India": 3}, "cards": 2, "objective": ["Cina", "India"]},
        {"name": "Bruno", "territories": ["Alaska", "Kamchatka"]},  # the list form: one army each
        {"name": "Carla", "territories": {"Egitto": 1}, "frozen_in_supplementary": False},
        {"name": "Dario", "territories": {"Brasile": 2}, "status": "withdrawn", "achieved_objective": False},
    ],
    "seed": 1,
}
ONE_SCHEMA_REFUSED = [
    ("objective_card", "Asia"),  # the bot's old alias: `objective` takes a card name
    ("frozen", True),  # the bot's old alias of frozen_in_supplementary
    ("territorys", {}),
]


async def test_bot_res_1_one_final_situation_schema_for_the_bot_and_steward_risiko_score(
    services: Services, capsys, monkeypatch
):
    """Issue 10: `/report situation` and `steward risiko score` parse the same document with the same parser:
    what one accepts the other accepts, what one refuses the other refuses (docs/risiko.md)."""
    import io

    from bot.cli import main

    b = await build_tournament(services, preset="risiko-firk-1", rounds=FOUR)
    view = await services.reports.enter_situation(REFEREE, b.tables[(1, 1)], json.dumps(ONE_SCHEMA_ACCEPTED))
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"preset": "risiko-firk-1", **ONE_SCHEMA_ACCEPTED})))
    assert main(["risiko", "score", "--json"]) == 0
    cli = {p["name"]: p["table_points"] for p in json.loads(capsys.readouterr().out)["players"]}
    assert {s.name: s.table_points for s in view.seats} == cli
    for key, value in ONE_SCHEMA_REFUSED:
        doc = json.loads(json.dumps(ONE_SCHEMA_ACCEPTED))
        doc["players"][0][key] = value
        with pytest.raises(InvalidInput) as err:
            await services.reports.enter_situation(REFEREE, b.tables[(1, 1)], json.dumps(doc))
        assert err.value.key == "error.report.bad_situation", key
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"preset": "risiko-firk-1", **doc})))
        assert main(["risiko", "score", "--json"]) == 2, key
        assert key in capsys.readouterr().err


async def test_rr_13_5_a_player_whose_check_in_forfeited_the_game_is_not_scored_as_having_played(services: Services):
    """RR 13.5 (and FIRK's "cannot play", ARB 3's replacement): a check-in says the player forfeited this game; the
    report typed with tokens for them still ranks them out of the game — last, a forfeit — not first."""
    from bot.db.models import CheckIn, CheckInStatus, Round

    b = await build_tournament(services, preset="ricochet-v3.3", game="ricochet", rounds=FOUR)
    r = b.registrations
    async with services.sessionmaker() as session, session.begin():
        rnd = (await session.execute(select(Round))).scalar_one()
        session.add(CheckIn(guild_id=GUILD, round_id=rnd.id, registration_id=r["Anna"],
                            status=CheckInStatus.FORFEIT.value, minutes_late=12,
                            checked_in_at=services.clock()))  # fmt: skip
    table_id = b.tables[(1, 1)]
    await services.reports.enter_points(REFEREE, table_id, {r["Anna"]: "9", r["Bruno"]: "4", r["Carla"]: "2",
                                                             r["Dario"]: "1"})  # fmt: skip
    seats = {s.name: s for s in (await services.reports.lookup(REFEREE, table_id)).seats}
    assert seats["Anna"].rank == 4 and seats["Anna"].outcome == "forfeit" and seats["Bruno"].rank == 1
