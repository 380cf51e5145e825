"""The venue pages' tests use the cogs' bot and harness fixtures too."""

from tests.cogs.conftest import bot, harness  # noqa: F401
