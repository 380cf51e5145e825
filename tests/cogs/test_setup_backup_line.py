"""``/setup roles`` ends with the scheduled backup's state (issue 43): the last backup's time, when the first one is
due, or that none is scheduled — in the reader's language."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.app import StewardBot
from bot.rules.backups import backup_name
from tests.support.helpers import Harness


async def _setup(harness: Harness, locale: str) -> str:
    sent = await harness.invoke(
        "setup roles",
        admin=True,
        locale=locale,
        organizer=harness.role("Organizzatori"),
        referee=harness.role("Arbitri"),
        head_referee=harness.role("Capo arbitro"),
    )
    return sent[-1].text


async def test_no_backup_dir_says_no_scheduled_backup(harness: Harness, bot: StewardBot) -> None:
    bot.settings = bot.settings.model_copy(update={"backup_dir": None})
    assert "Nessun backup programmato: chi gestisce il bot non ha impostato una cartella per i backup." in await _setup(
        harness, "it"
    )
    assert "No scheduled backup: whoever runs the bot has not set a backup folder." in await _setup(harness, "en-GB")


async def test_the_last_backups_time_or_when_the_first_is_due(
    harness: Harness, bot: StewardBot, tmp_path: Path
) -> None:
    bot.settings = bot.settings.model_copy(update={"backup_dir": str(tmp_path)})
    text = await _setup(harness, "en-GB")
    assert "Last backup: none yet (the first is taken at <t:" in text
    taken = datetime(2026, 11, 26, 3, 30, tzinfo=UTC)
    (tmp_path / backup_name(taken, postgres=False)).write_bytes(b"a backup")
    (tmp_path / "steward-2026-12-01.db").write_bytes(b"not one of ours: not the last scheduled backup")
    assert f"Ultimo backup: <t:{int(taken.timestamp())}:f>" in await _setup(harness, "it")
