"""StandingsService on a real database (BOT-STD-1): engine standings, tie-break explanations, teams, CSV, image."""

from __future__ import annotations

import pytest

from bot.db.models import GameTable, Registration, RegistrationStatus, SeatOutcome, TableResult
from bot.errors import NotFound
from bot.present.standings import standings_csv, standings_image, standings_render_data
from bot.services import Services
from tests.support.reports_fixtures import GUILD, build_tournament


async def put_results(services: Services, table_id: int, lines: list[tuple[int, float, int, float, str]]) -> None:
    """(registration id, table points, rank, tournament points, outcome) per seat; the table is locked."""
    async with services.sessionmaker() as session, session.begin():
        table = await session.get(GameTable, table_id)
        assert table is not None
        table.locked = True
        for rid, tp, rank, pts, outcome in lines:
            session.add(
                TableResult(
                    guild_id=GUILD,
                    table_id=table_id,
                    registration_id=rid,
                    table_points=tp,
                    table_rank=rank,
                    tournament_points=pts,
                    outcome=outcome,
                    locked=True,
                )
            )


async def test_bot_std_1_standings_sum_tournament_points_and_explain_the_firk_table_tie_break(services: Services):
    rounds = {1: [["Anna", "Bruno", "Carla", "Dario"]], 2: [["Carla", "Anna"], ["Bruno", "Dario"]]}
    b = await build_tournament(services, preset="risiko-firk-1", rounds=rounds)
    r = b.registrations
    played = SeatOutcome.PLAYED.value
    await put_results(
        services,
        b.tables[(1, 1)],
        [
            (r["Anna"], 40, 1, 31.8, played),
            (r["Bruno"], 32, 2, 14.2, played),
            (r["Carla"], 20, 3, 5.0, played),
            (r["Dario"], 10, 4, 0.0, played),
        ],
    )
    # Round 2: Bruno wins table 2 and draws level with Anna (2nd at table 1): the lower table decides (FIRK §8).
    await put_results(services, b.tables[(2, 1)], [(r["Carla"], 30, 1, 33.0, played), (r["Anna"], 14, 2, 14.0, played)])
    await put_results(
        services, b.tables[(2, 2)], [(r["Bruno"], 30, 1, 31.6, played), (r["Dario"], 10, 2, 13.0, played)]
    )
    view = await services.standings.compute(GUILD, "coppa test")
    assert [line.name for line in view.lines] == ["Anna", "Bruno", "Carla", "Dario"]
    assert view.lines[0].points == pytest.approx(45.8) and view.lines[1].points == pytest.approx(45.8)
    assert [line.rank for line in view.lines] == [1, 2, 3, 4]
    (decision,) = view.explanations
    assert decision.tie_breaker == "last_game_table" and decision.resolved
    assert decision.names == ("Anna", "Bruno")
    assert dict(decision.values) == {"Anna": 1, "Bruno": 2}
    assert view.player_ids == tuple(r[n] for n in ("Anna", "Bruno", "Carla", "Dario"))
    assert view.rounds == 2 and view.unconfirmed_tables == 0
    # the movement since round 1 (1 Anna, 2 Bruno, 3 Carla, 4 Dario): the image draws its arrows from these
    assert [line.previous_rank for line in view.lines] == [1, 2, 3, 4]
    assert view.tie_breakers == ("first_game_table_points", "last_game_table") and view.last_round == 2
    assert not view.breaks_ties_on_table_points  # FIRK orders ties by game 1 and the last table, not the total
    data = standings_render_data(view, date="2026-11-24", locale="it")
    assert all(row.tiebreak is None for row in data.rows)  # no PT column that would contradict the order
    assert data.legend == (
        "A pari punti decidono, nell'ordine: i punti tavolo della prima partita; "
        "il tavolo dell'ultima partita (più basso è meglio)."
    )


async def test_bot_std_1_withdrawn_player_ranks_last_and_a_forfeit_costs_the_firk_deduction(services: Services):
    b = await build_tournament(services, preset="risiko-firk-1")
    r = b.registrations
    await put_results(
        services,
        b.tables[(1, 1)],
        [
            (r["Anna"], 40, 1, 31.8, "played"),
            (r["Bruno"], 32, 2, 14.2, "played"),
            (r["Carla"], 20, 3, 5.0, "played"),
            (r["Dario"], 0, 4, 0.0, SeatOutcome.WITHDRAWN.value),
        ],
    )
    async with services.sessionmaker() as session, session.begin():
        reg = await session.get(Registration, r["Dario"])
        assert reg is not None
        reg.status = RegistrationStatus.WITHDRAWN.value
    view = await services.standings.compute(GUILD, "Coppa Test")
    last = view.lines[-1]
    assert last.name == "Dario" and last.standing == "withdrawn"
    assert last.points == -25.0 and last.deductions == 25.0


async def test_bot_std_1_team_standings_where_the_preset_has_teams(services: Services):
    teams = {"Anna": "Roma", "Bruno": "Milano", "Carla": "Roma", "Dario": "Milano"}
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", teams=teams)
    r = b.registrations
    await put_results(
        services,
        b.tables[(1, 1)],
        [
            (r["Anna"], 50, 1, 12, "played"),
            (r["Bruno"], 40, 2, 9, "played"),
            (r["Carla"], 30, 3, 6, "played"),
            (r["Dario"], 20, 4, 3, "played"),
        ],
    )
    view = await services.standings.compute(GUILD, "Coppa Test")
    assert [(t.team, t.points) for t in view.teams] == [("Roma", 18.0), ("Milano", 12.0)]


async def test_bot_std_1_csv_uses_semicolons_a_bom_and_the_italian_decimal_comma(services: Services):
    b = await build_tournament(services, preset="risiko-firk-1")
    r = b.registrations
    await put_results(
        services,
        b.tables[(1, 1)],
        [
            (r["Anna"], 40, 1, 31.8, "played"),
            (r["Bruno"], 32, 2, 14.2, "played"),
            (r["Carla"], 20, 3, 5.0, "played"),
            (r["Dario"], 10, 4, 0.0, "played"),
        ],
    )
    data = standings_csv(await services.standings.compute(GUILD, "Coppa Test"), "it")
    assert data.startswith(b"\xef\xbb\xbf")
    text = data.decode("utf-8-sig").splitlines()
    assert text[0].split(";")[:2] == ["Pos.", "Giocatore"]
    assert text[1].split(";")[:5] == ["1", "Anna", "", "", "31,8"]
    english = standings_csv(await services.standings.compute(GUILD, "Coppa Test"), "en").decode("utf-8-sig")
    assert "31.8" in english.splitlines()[1]


async def test_bot_std_1_image_pages_are_png_within_the_attachment_limit(services: Services):
    b = await build_tournament(services, preset="risiko-firk-1")
    r = b.registrations
    await put_results(
        services,
        b.tables[(1, 1)],
        [
            (r["Anna"], 40, 1, 31.8, "played"),
            (r["Bruno"], 32, 2, 14.2, "played"),
            (r["Carla"], 20, 3, 5.0, "played"),
            (r["Dario"], 10, 4, 0.0, "played"),
        ],
    )
    view = await services.standings.compute(GUILD, "Coppa Test")
    image = await standings_image(view, date="2026-11-24", locale="it", max_bytes=10 * 1024 * 1024)
    assert image.pages and all(p.startswith(b"\x89PNG\r\n\x1a\n") for p in image.pages)
    assert sum(len(p) for p in image.pages) <= 10 * 1024 * 1024


async def test_bot_std_1_unknown_tournament_is_a_clear_not_found(services: Services):
    with pytest.raises(NotFound) as err:
        await services.standings.compute(GUILD, "Fantasma")
    assert err.value.key == "error.tournament_not_found"


async def test_bot_std_1_each_line_carries_its_rank_before_the_latest_round(services: Services):
    """The movement arrows of the standings image: ranks after round 1 against ranks after round 2 (UFF)."""
    rounds = {1: [["Anna", "Bruno", "Carla", "Dario"]], 2: [["Anna", "Bruno", "Carla", "Dario"]]}
    b = await build_tournament(services, preset="risiko-ufficiali-2018", rounds=rounds)
    r = b.registrations
    played = SeatOutcome.PLAYED.value
    first = [("Anna", 12), ("Bruno", 9), ("Carla", 6), ("Dario", 3)]
    second = [("Dario", 12), ("Carla", 9), ("Anna", 6), ("Bruno", 3)]
    for number, order in ((1, first), (2, second)):
        lines = [(r[name], 50 - 10 * i, i + 1, float(pts), played) for i, (name, pts) in enumerate(order)]
        await put_results(services, b.tables[(number, 1)], lines)
    view = await services.standings.compute(GUILD, "coppa test")
    moved = {line.name: (line.previous_rank, line.rank) for line in view.lines}
    assert moved == {"Anna": (1, 1), "Carla": (3, 2), "Dario": (4, 2), "Bruno": (2, 4)}
    data = standings_render_data(view, date="2026-11-24", locale="en")
    assert data.legend == "Players level on points share the place."
    assert {row.name: row.previous_rank for row in data.rows} == {k: v[0] for k, v in moved.items()}
