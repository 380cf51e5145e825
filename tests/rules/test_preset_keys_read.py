"""Issue 10, "one field per fact": every key of every shipped preset is parsed into a typed field and read by code.

Two checks. (1) ``load_ruleset`` parses every section of every preset (unknown keys are refused by the parsers).
(2) Every leaf key is read somewhere in ``bot/``: its typed field name (or the alias below for renamed fields) is
loaded as an attribute (``rules.minimum_moves``) in the code — so a key that no code applies fails here, whatever
the parsers do with it. Keys whose consumer belongs to an open issue are listed in ``PENDING`` with that issue; a
new unread key, or a pending key that became read, fails the test.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.rules.presets import PRESET_NAMES
from bot.rules.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ROOT / "bot" / "rules" / "presets"

# Preset key -> the typed field that carries it, where the names differ.
ALIAS = {
    "outsider_army_cap": "army_cap",
    "outsider_cards_over": "army_cap_cards_over",
    "last_round_sit_out_total": "sit_out_total",
    "last_round_sit_out_points_if_fifth": "sit_out_points_if_fifth",
    "last_round_sit_out_points_else": "sit_out_points_else",
    "last_round_head_to_head_total": "head_to_head_total",
    # [sanctions]: a ladder field is read through the infraction that names it (Infraction.ladder), a points field
    # through Infraction.standing_points (bot/rules/sanctions.py)
    "cheating": "ladder",
    "outside_help": "ladder",
    "too_many_cards": "ladder",
    "objective_shown": "ladder",
    "objective_swapped": "ladder",
    "board_overturned": "ladder",
    "refused_decision": "ladder",
    "disturbing": "ladder",
    "deliberate_over_placement": "ladder",
    "disturbing_table": "ladder",
    "late": "ladder",
    "disturbing_table_standing_points": "standing_points",
    "points": "standing_points",
}

# Rulebook numbers stored for a consumer that an open issue builds (never silently: each names the issue).
PENDING = {
    ("ricochet-v3.3", "ricochet.hourglass_seconds"): "the clock (RR 2 hourglass)",
    ("ricochet-v3.3", "ricochet.too_complex_after_seconds"): "the clock (RR 4.4)",
    ("ricochet-v3.3", "ricochet.target_tokens"): "the rules desk's RR token pile (RR 2)",
    ("ricochet-v3.3", "sanctions.repeat_similar_warning_may_become"): "RR 13.2",
    ("ricochet-v3.3", "sanctions.repeat_last_of_game_may_become"): "RR 13.3-13.4",
    ("ricochet-v3.3", "sanctions.disqualified_place"): "RR 13.4",
    ("ricochet-v3.3", "sanctions.forfeit_place"): "RR 9.3",
}


def _leaves(table: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, str]]:
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from _leaves(value, f"{path}{key}.")
        else:
            yield f"{path}{key}", key


def _attributes_read_by_code() -> set[str]:
    names: set[str] = set()
    for file in (ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                names.add(node.attr)
    return names


READ = _attributes_read_by_code()


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_section_of_every_shipped_preset_parses_into_typed_rules(name: str) -> None:
    ruleset = load_ruleset(name)
    assert ruleset.tournament.table_size >= 2 and ruleset.lateness is not None
    assert (ruleset.risiko is None) == (ruleset.game == "ricochet")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_key_is_read_by_code(name: str) -> None:
    data = tomllib.loads((PRESETS / f"{name}.toml").read_text(encoding="utf-8"))
    data.pop("preset")
    unread = sorted(path for path, key in _leaves(data) if ALIAS.get(key, key) not in READ)
    expected = sorted(path for (preset, path) in PENDING if preset == name)
    assert unread == expected, "keys no code reads (wire them or delete them): " + ", ".join(
        sorted(set(unread) - set(expected))
    )


PROVENANCE = {
    "ricochet-v3.3": ["format", "table_size", "round1_criteria", "round2_criteria", "points_by_place"],
    "risiko-nostra-passione-2018": ["round1_criteria", "round2_criteria"],
    "risiko-ufficiali-2018": ["base", "tie_breakers"],
    "risiko-firk-1": ["territories_divisor", "max_attack_dice", "max_defence_dice", "round1_criteria"],
    # issue 47: every championship number is the clubs' (their regulations disagree), none a rulebook's
    "club-championship": [
        "qualifying_rounds",
        "discards",
        "late_entry",
        "direct_finalists",
        "repechage",
        "repechage_min_games",
        "tie_breakers",
    ],
}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_values_no_rulebook_fixes_say_where_they_come_from(name: str) -> None:
    """Issue 10: every value no rulebook fixes is marked `# borrowed: <rulebook, article>` or `# our default`."""
    lines = (PRESETS / f"{name}.toml").read_text(encoding="utf-8").splitlines()
    for key in PROVENANCE[name]:
        line = next(x for x in lines if x.split("=", 1)[0].strip() == key)
        assert "# borrowed:" in line or "# our default" in line, line
