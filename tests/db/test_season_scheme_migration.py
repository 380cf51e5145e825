"""Migration 0014 (season point schemes, issue 47): a database written at 0013 — the ladder's club data set, a
season of two NP tournaments with a sanction given to it — reaches head with every row and value kept; every season
keeps its preset's points (no scheme), every tournament of a season has no event type, and no season has one-off
games. On SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set (the ladder's own database beside it)."""

from __future__ import annotations

import asyncio

from bot.db.migrate import upgrade_to_head
from tests.db.test_migration_ladder import HEAD, _migrate_to, _run, _snapshot, _write
from tests.db.test_migration_ladder import empty_database as empty_database


def test_a_season_written_before_schemes_keeps_its_rows_and_ranks_as_before(empty_database: str) -> None:
    url = empty_database
    _migrate_to(url, "0013")
    asyncio.run(_run(url, _write))
    before = asyncio.run(_run(url, _snapshot))
    assert before["season"] and before["season_tournament"] and "season_game" not in before

    upgrade_to_head(url, backup=False)
    after = asyncio.run(_run(url, _snapshot))
    for table, rows in before.items():
        assert set(after[table]) == set(rows), f"{table}: rows lost or added"
        for row_id, values in rows.items():
            assert {k: after[table][row_id][k] for k in values} == values, f"{table} row {row_id} changed"
    assert {row["scheme"] for row in after["season"].values()} == {None}  # the preset's points, as before
    assert {row["event_type"] for row in after["season_tournament"].values()} == {None}
    assert after["season_game"] == {} and after["season_game_player"] == {}
    assert HEAD >= "0014"
