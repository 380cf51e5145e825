"""Ruleset presets: one TOML data file per rulebook.

Every number a rulebook fixes lives in its preset file, never in code. A preset file has a small
``[preset]`` header (name, game, rulebook, titles) and one table per engine area (``[ricochet]``,
``[risiko]``, ``[scoring]``, ``[points]``, ``[tournament]``, ``[sanctions]`` ...). Each engine reads
its own table and validates it; this module only loads files, applies per-tournament overrides and
rejects unknown override keys, so a typo in an override never passes silently.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from bot.rules.errors import RuleError

PRESET_NAMES: tuple[str, ...] = (
    "ricochet-v3.3",
    "risiko-nostra-passione-2018",
    "risiko-ufficiali-2018",
    "risiko-firk-1",
    "club-championship",
)

GAMES: tuple[str, ...] = ("ricochet", "risiko")
# A preset that plays another preset's rulebook: its articles, rules desk and learned ranker are that one's. The club
# championship (issue 47) plays the official tournaments' game (UFF + ARB) with the club's own standings.
RULEBOOK_OF: dict[str, str] = {"club-championship": "risiko-ufficiali-2018"}
RULEBOOK_PRESETS: tuple[str, ...] = tuple(n for n in PRESET_NAMES if n not in RULEBOOK_OF)


def rulebook_preset(name: str) -> str:
    """The preset whose rulebook ``name`` plays (itself, but for :data:`RULEBOOK_OF`)."""
    return RULEBOOK_OF.get(name, name)


# Fields whose value is a word or a number (``tournament.late_entry``: "open", "closed" or a round); the field's own
# reader checks which.
TEXT_OR_NUMBER = frozenset({"tournament.late_entry"})


class PresetError(RuleError):
    """A preset name or override that does not fit. ``code`` is stable; ``value`` quotes the input."""


class UnknownOverrideKey(PresetError):
    """An override naming a key the preset does not have; ``known`` lists the keys of that table."""

    def __init__(self, where: str, known: tuple[str, ...]) -> None:
        super().__init__("unknown_override_key", where)
        self.known = known


class PresetFieldError(PresetError):
    """A preset field (shipped or overridden) whose value no engine can use.

    ``field`` is the dotted path in the preset file (``"scoring.boxed_method"``, ``"tournament.table_size"``);
    ``value`` the value found; ``allowed`` a short, language-neutral description of what fits (``"1, 2"``,
    ``">= 2"``, ``"connected, chain"``). The i18n layer words it; ``/tournament create`` and every ``steward``
    command taking a preset and overrides refuse with it, naming the field.
    """

    def __init__(self, field: str, value: object, allowed: str) -> None:
        super().__init__("preset_field_invalid", f"{field}={value!r} (allowed: {allowed})")
        self.field = field
        self.bad_value = value
        self.allowed = allowed


@dataclass(frozen=True, slots=True)
class Preset:
    """A loaded preset. ``data`` holds every table of the file except the header, overrides applied."""

    name: str
    game: str
    rulebook: str
    title_it: str
    title_en: str
    data: Mapping[str, Any] = field(repr=False)
    overrides: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def section(self, key: str) -> Mapping[str, Any]:
        """Return one table of the preset (e.g. ``"risiko"``); raises PresetError when absent."""
        try:
            value = self.data[key]
        except KeyError:
            raise PresetError("preset_section_missing", f"{self.name}:{key}") from None
        if not isinstance(value, Mapping):
            raise PresetError("preset_section_not_table", f"{self.name}:{key}")
        return value

    def has_section(self, key: str) -> bool:
        return isinstance(self.data.get(key), Mapping)


def _read_file(name: str) -> dict[str, Any]:
    if name not in PRESET_NAMES:
        raise PresetError("unknown_preset", name)
    text = resources.files(__package__).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _merge(base: dict[str, Any], override: Mapping[str, Any], path: str) -> None:
    for key, value in override.items():
        where = f"{path}.{key}" if path else key
        if key not in base:
            raise UnknownOverrideKey(where, tuple(sorted(base)))
        if isinstance(base[key], dict):
            if not isinstance(value, Mapping):
                raise PresetError("override_not_table", where)
            _merge(base[key], value, where)
        else:
            base_value = base[key]
            # bool is an int subclass: keep the two apart; ints may replace floats.
            same_kind = type(value) is type(base_value) or (
                isinstance(base_value, float) and isinstance(value, int) and not isinstance(value, bool)
            )
            either = where in TEXT_OR_NUMBER and isinstance(value, str | int) and not isinstance(value, bool)
            if base_value is not None and not same_kind and not either:
                raise PresetError("override_wrong_type", f"{where}={value!r}")
            base[key] = copy.deepcopy(value)


def load_preset(name: str, overrides: Mapping[str, Any] | None = None) -> Preset:
    """Load preset ``name`` with optional per-tournament ``overrides`` (nested tables, known keys only)."""
    raw = _read_file(name)
    header = raw.pop("preset", None)
    if not isinstance(header, dict) or header.get("name") != name:
        raise PresetError("preset_header_invalid", name)
    game = header.get("game")
    if game not in GAMES:
        raise PresetError("preset_game_invalid", f"{name}:{game}")
    data = copy.deepcopy(raw)
    if overrides:
        _merge(data, overrides, "")
    return Preset(
        name=name,
        game=str(game),
        rulebook=str(header.get("rulebook", "")),
        title_it=str(header.get("title_it", name)),
        title_en=str(header.get("title_en", name)),
        data=data,
        overrides=dict(overrides or {}),
    )


def all_presets() -> list[Preset]:
    """Every shipped preset, loaded without overrides (validates all files at once)."""
    return [load_preset(name) for name in PRESET_NAMES]


def presets_for_game(game: str) -> list[str]:
    """The names of the shipped presets for ``game`` (one of :data:`GAMES`), in :data:`PRESET_NAMES` order."""
    return [p.name for p in all_presets() if p.game == game]
