"""Preset loading and overrides (every number a rulebook fixes is a preset field)."""

import pytest

from bot.rules.presets import PRESET_NAMES, PresetError, all_presets, load_preset


def test_every_shipped_preset_loads_with_a_valid_header():
    presets = all_presets()
    assert [p.name for p in presets] == list(PRESET_NAMES)
    assert {p.game for p in presets} == {"ricochet", "risiko"}


def test_unknown_preset_name_is_refused_quoting_the_name():
    with pytest.raises(PresetError) as err:
        load_preset("risiko-2099")
    assert err.value.code == "unknown_preset"
    assert "risiko-2099" in str(err.value)


def test_an_override_with_an_unknown_key_is_refused():
    with pytest.raises(PresetError) as err:
        load_preset("risiko-firk-1", {"no_such_section": {"x": 1}})
    assert err.value.code == "unknown_override_key"
