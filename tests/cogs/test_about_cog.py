"""/about (issue 43): privately, the version, every preset and the project's home, in the reader's language."""

from __future__ import annotations

import bot as package
from bot.rules.presets import PRESET_NAMES
from tests.support.helpers import Harness


async def test_about_says_the_version_the_presets_and_the_home_privately(harness: Harness):
    *_, english = await harness.invoke("about", locale="en-US")
    assert english.ephemeral
    assert package.installed_version() in english.text and "Rulebooks" in english.text
    assert all(f"`{name}`" in english.text for name in PRESET_NAMES)
    assert package.project_home() in english.text
    *_, italian = await harness.invoke("about", locale="it")
    assert italian.ephemeral and "Versione" in italian.text and "Progetto e documentazione" in italian.text
    assert "RisiKo! — tornei ufficiali 2018" in italian.text
    for secret in ("sqlite", "token", "DATABASE_URL"):
        assert secret not in english.text + italian.text
