"""Migration 0012: every tournament of an older database gets its own unguessable venue token, and the
data set of the migration ladder upgraded from the revision before keeps every tournament reachable."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command

from bot.db.migrate import alembic_config
from tests.db import ladder_data


def test_0012_gives_every_older_tournament_a_distinct_token(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    command.upgrade(alembic_config(url), "0011")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        meta = sa.MetaData()
        meta.reflect(conn)
        assert "venue_token" not in meta.tables["tournament"].columns
        for n, (name, row) in enumerate(ladder_data.rows()):
            if name in ("guild_config", "tournament"):
                table = meta.tables[name]
                conn.execute(table.insert().values(ladder_data.fill(table, row, n, conn.dialect.name)))
        count = conn.execute(sa.text("SELECT count(*) FROM tournament")).scalar_one()
    command.upgrade(alembic_config(url), "0012")
    with engine.connect() as conn:
        tokens = [t for (t,) in conn.execute(sa.text("SELECT venue_token FROM tournament"))]
    engine.dispose()
    assert len(tokens) == count >= 3
    assert all(t and len(t) >= 32 for t in tokens) and len(set(tokens)) == len(tokens)
