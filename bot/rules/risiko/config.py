"""The RisiKo! tables of a preset, parsed and validated into frozen value types.

Every number a rulebook fixes is read from the preset (``[risiko]``, ``[risiko.dice]``, ``[risiko.cards]``,
``[risiko.limits]``, ``[risiko.end]``, ``[scoring]``, ``[sanctions]``); the engine modules take a ``RisikoRules``.
The three shipped RisiKo! presets are validated when this module is imported, so a broken preset file fails
at start-up rather than in the middle of a dispute. ``docs/risiko.md`` lists every field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.rules.outcomes import DISQUALIFIED_RANKS
from bot.rules.presets import Preset, PresetFieldError, load_preset
from bot.rules.presets.reader import REQUIRED, TableReader
from bot.rules.risiko.board import Board, board_for
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.points import PointsRules

RISIKO_PRESETS: tuple[str, ...] = (
    "risiko-nostra-passione-2018",
    "risiko-ufficiali-2018",
    "risiko-firk-1",
    "club-championship",
)

CARD_MODES = ("sets", "exchange")
END_PROCEDURES = ("sdadata", "firk")
SCORING_METHODS = ("objective", "boxed", "firk")
STRIP_READINGS = ("connected", "chain")
CONTINENT_EXTERNAL_READINGS = ("links", "territories")
TIEBREAKS = (
    "outside_objective_value",
    "objective_armies",
    "all_armies",
    "territories",
    "armies_plus_cards",
    "dice_roll",
)


@dataclass(frozen=True, slots=True)
class DiceRules:
    """The preset's ``[risiko.dice]``: the most dice each side may roll, whether each side must roll the most it may
    and whether the attacker may roll fewer dice than the defender (FIRK §13), and FIRK's superiority rule with the
    armies an unsupported attack needs (FIRK §12)."""

    max_attack_dice: int
    max_defence_dice: int
    mandatory_max_dice: bool
    no_attack_with_fewer_dice: bool
    superiority_required: bool
    unsupported_min_armies: int


BOXED_DICE = DiceRules(3, 3, False, False, False, 0)


@dataclass(frozen=True, slots=True)
class CardRules:
    """The preset's ``[risiko.cards]``: ``sets`` with the armies each set gives (RK-TRIS-1) or FIRK's ``exchange``
    values for one, two and three cards (hand of 3, 4, 5 or more), and the hand limit (RK-CARD-1; 0 = none)."""

    mode: str
    cannons: int
    infantry: int
    cavalry: int
    one_of_each: int
    jolly_pair: int
    territory_bonus: int
    hand_limit: int
    discard_all_from: int
    exchange_one: int
    exchange_two: int
    exchange_three: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class LimitRules:
    """The preset's army limit (0 = none) and ``[risiko.limits]``: how many armies come off per army too many,
    whether the limit drops, when the player declared it or was spotted, and when deliberate over-placing puts a
    player out."""

    army_limit: int
    remove_factor_declared: int
    remove_factor_spotted: int
    lower_limit_when_declared: bool
    lower_limit_when_spotted: bool
    over_remove_factor_declared: int
    over_remove_factor_spotted: int
    over_cap_at_placed: bool
    over_deliberate_out_at: int


@dataclass(frozen=True, slots=True)
class EndRules:
    """The preset's ``[risiko.end]``: the time limit in minutes and how the game ends after it, the sdadata's dice
    and thresholds (NP) or FIRK's announced last rounds and supplementary turns."""

    procedure: str
    time_limit_minutes: int
    sdadata_dice: int
    sdadata_first_threshold: int
    sdadata_threshold_step: int
    sdadata_max_threshold: int
    sdadata_max_conquests: int
    sdadata_forgotten_rolls_to_out: int
    announce_rounds_left: int
    supplementary_turns: int
    supplementary_conquest_cards: int


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The preset's ``[scoring]``: how a table's final situation becomes table points (objective, boxed or FIRK), the
    tie-breaks in order, and the numbers each method reads."""

    method: str
    objective_achieved_points: int
    boxed_method: int
    boxed_add_armies: bool
    boxed_achieved_bonus: int
    tiebreaks: tuple[str, ...]
    card_army_value: int
    strip: str
    strip_min_territories: int
    continent_external: str
    risiko_thresholds: tuple[int, ...]
    risiko_points: int
    disqualified_below_withdrawn: bool  # the preset's [tournament] disqualified_ranks (bot.rules.outcomes)
    freeze_min_territories: int
    freeze_max_armies: int
    freeze_armies: int

    def risiko_threshold(self, players: int) -> int | None:
        """FIRK §18 threshold for a table of ``players`` (3, 4, 5); None when the table size has none."""
        index = players - 3
        if 0 <= index < len(self.risiko_thresholds) and self.risiko_thresholds[index] > 0:
            return self.risiko_thresholds[index]
        return None


@dataclass(frozen=True, slots=True)
class SanctionRules:
    """The preset's ``[sanctions]``: the ladders (codes) for a pact, over-placing and a forgotten sdadata roll, the
    cards and armies the ARB art. 27 second step takes, FIRK's army cap (FIRK §26), the sanction kinds it knows and
    FIRK's standing-point deduction for deliberate over-placing (FIRK §6)."""

    pact: tuple[str, ...]
    pact_cards_if_two: int
    pact_cards_if_one: int
    pact_armies_if_one: int
    pact_armies_if_none: int
    pact_cards_on_repeat: int
    army_cap: int  # FIRK §26: the army cap given instead of cards to a player holding more than cap_cards_over
    army_cap_cards_over: int
    outsider_army_cap_on_repeat: int  # FIRK §26 "penalità peggiori": the cap on a repeat, ≤ army_cap (0 = army_cap)
    over_placement: tuple[str, ...]
    forgotten_sdadata_roll: tuple[str, ...]
    kinds: tuple[str, ...]
    deliberate_over_placement_standing_points: int


@dataclass(frozen=True, slots=True)
class RisikoRules:
    """Everything the RisiKo! engine reads from a preset."""

    preset: str
    initial_armies: tuple[int, ...]
    min_players: int
    max_players: int
    territories_divisor: int
    elimination_after_turn: int
    continent_share_limit: float
    disabled_borders: tuple[tuple[str, str], ...]
    dice: DiceRules
    cards: CardRules
    limits: LimitRules
    end: EndRules
    scoring: ScoringRules
    points: PointsRules
    sanctions: SanctionRules

    @property
    def board(self) -> Board:
        return _board(self.disabled_borders)


@cache
def _board(disabled: tuple[tuple[str, str], ...]) -> Board:
    return board_for(disabled)


def rules_from_preset(preset: Preset) -> RisikoRules:
    """Parse and validate the RisiKo! tables of ``preset`` (overrides already applied)."""
    if preset.game != "risiko":
        raise RisikoError("not_a_risiko_preset", preset.name)
    name = preset.name
    r = TableReader(preset.section("risiko"), "risiko")
    d, c, lim, e = r.sub("dice"), r.sub("cards"), r.sub("limits"), r.sub("end")
    s = TableReader(preset.section("scoring"), "scoring")
    san = TableReader(preset.section("sanctions"), "sanctions")
    raw_borders = r.get("disabled_borders")
    if not isinstance(raw_borders, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in raw_borders
    ):
        raise PresetFieldError("risiko.disabled_borders", raw_borders, "[[territory, territory], …]")
    disabled = tuple((str(p[0]), str(p[1])) for p in raw_borders)
    board_for(disabled)  # validates the names and that each pair is a border
    three = c.ints("exchange_three")
    if len(three) != 3:
        raise PresetFieldError("risiko.cards.exchange_three", list(three), "[0, 1, …] × 3")
    share = r.number("continent_share_limit")
    if share > 1:
        raise PresetFieldError("risiko.continent_share_limit", share, "0 … 1")
    values = s.choice("values", REQUIRED, ("borders",))
    del values
    rules = RisikoRules(
        preset=name,
        initial_armies=r.ints("initial_armies"),
        min_players=r.integer("min_players", minimum=2),
        max_players=r.integer("max_players", minimum=2),
        territories_divisor=r.integer("territories_divisor", minimum=1),
        elimination_after_turn=r.integer("elimination_after_turn"),
        continent_share_limit=share,
        disabled_borders=disabled,
        dice=DiceRules(
            max_attack_dice=d.integer("max_attack_dice", minimum=1),
            max_defence_dice=d.integer("max_defence_dice", minimum=1),
            mandatory_max_dice=d.flag("mandatory_max_dice"),
            no_attack_with_fewer_dice=d.flag("no_attack_with_fewer_dice"),
            superiority_required=d.flag("superiority_required"),
            unsupported_min_armies=d.integer("unsupported_min_armies"),
        ),
        cards=CardRules(
            mode=c.choice("mode", REQUIRED, CARD_MODES),
            cannons=c.integer("cannons"),
            infantry=c.integer("infantry"),
            cavalry=c.integer("cavalry"),
            one_of_each=c.integer("one_of_each"),
            jolly_pair=c.integer("jolly_pair"),
            territory_bonus=c.integer("territory_bonus"),
            hand_limit=c.integer("hand_limit"),
            discard_all_from=c.integer("discard_all_from"),
            exchange_one=c.integer("exchange_one"),
            exchange_two=c.integer("exchange_two"),
            exchange_three=(three[0], three[1], three[2]),
        ),
        limits=LimitRules(
            army_limit=r.integer("army_limit"),
            remove_factor_declared=lim.integer("remove_factor_declared"),
            remove_factor_spotted=lim.integer("remove_factor_spotted"),
            lower_limit_when_declared=lim.flag("lower_limit_when_declared"),
            lower_limit_when_spotted=lim.flag("lower_limit_when_spotted"),
            over_remove_factor_declared=lim.integer("over_remove_factor_declared"),
            over_remove_factor_spotted=lim.integer("over_remove_factor_spotted"),
            over_cap_at_placed=lim.flag("over_cap_at_placed"),
            over_deliberate_out_at=lim.integer("over_deliberate_out_at"),
        ),
        end=EndRules(
            procedure=e.choice("procedure", REQUIRED, END_PROCEDURES),
            time_limit_minutes=e.integer("time_limit_minutes", minimum=1),
            sdadata_dice=e.integer("sdadata_dice"),
            sdadata_first_threshold=e.integer("sdadata_first_threshold"),
            sdadata_threshold_step=e.integer("sdadata_threshold_step"),
            sdadata_max_threshold=e.integer("sdadata_max_threshold"),
            sdadata_max_conquests=e.integer("sdadata_max_conquests"),
            sdadata_forgotten_rolls_to_out=e.integer("sdadata_forgotten_rolls_to_out"),
            announce_rounds_left=e.integer("announce_rounds_left"),
            supplementary_turns=e.integer("supplementary_turns"),
            supplementary_conquest_cards=e.integer("supplementary_conquest_cards"),
        ),
        scoring=ScoringRules(
            method=s.choice("method", REQUIRED, SCORING_METHODS),
            objective_achieved_points=s.integer("objective_achieved_points"),
            boxed_method=s.integer("boxed_method", minimum=1),
            boxed_add_armies=s.flag("boxed_add_armies"),
            boxed_achieved_bonus=s.integer("boxed_achieved_bonus"),
            tiebreaks=s.choices("tiebreaks", REQUIRED, TIEBREAKS),
            card_army_value=s.integer("card_army_value"),
            strip=s.choice("strip", REQUIRED, STRIP_READINGS),
            strip_min_territories=s.integer("strip_min_territories", minimum=1),
            continent_external=s.choice("continent_external", REQUIRED, CONTINENT_EXTERNAL_READINGS),
            risiko_thresholds=s.ints("risiko_thresholds"),
            risiko_points=s.integer("risiko_points"),
            disqualified_below_withdrawn=TableReader(preset.section("tournament"), "tournament").choice(
                "disqualified_ranks", "with_withdrawn", DISQUALIFIED_RANKS
            )
            == "below_withdrawn",
            freeze_min_territories=s.integer("freeze_min_territories"),
            freeze_max_armies=s.integer("freeze_max_armies"),
            freeze_armies=s.integer("freeze_armies"),
        ),
        points=PointsRules.from_preset(preset),
        sanctions=SanctionRules(
            pact=san.strs("pact"),
            pact_cards_if_two=san.integer("pact_cards_if_two"),
            pact_cards_if_one=san.integer("pact_cards_if_one"),
            pact_armies_if_one=san.integer("pact_armies_if_one"),
            pact_armies_if_none=san.integer("pact_armies_if_none"),
            pact_cards_on_repeat=san.integer("pact_cards_on_repeat"),
            army_cap=san.integer("outsider_army_cap"),
            army_cap_cards_over=san.integer("outsider_cards_over"),
            outsider_army_cap_on_repeat=san.integer("outsider_army_cap_on_repeat"),
            over_placement=san.strs("over_placement"),
            forgotten_sdadata_roll=san.strs("forgotten_sdadata_roll"),
            kinds=san.strs("kinds"),
            deliberate_over_placement_standing_points=_signed(san, "deliberate_over_placement_standing_points"),
        ),
    )
    if rules.scoring.boxed_method not in (1, 2):
        raise PresetFieldError("scoring.boxed_method", rules.scoring.boxed_method, "1, 2")
    if rules.min_players > rules.max_players:
        raise PresetFieldError("risiko.min_players", rules.min_players, f"≤ {rules.max_players} (risiko.max_players)")
    first_cap, repeat_cap = rules.sanctions.army_cap, rules.sanctions.outsider_army_cap_on_repeat
    if first_cap and repeat_cap > first_cap:  # a repeat is never lighter than the first offence (FIRK §26)
        raise PresetFieldError(
            "sanctions.outsider_army_cap_on_repeat", repeat_cap, f"0 … {first_cap} (sanctions.outsider_army_cap)"
        )
    return rules


def _signed(t: TableReader, key: str) -> int:
    v = t.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise t.bad(key, v, "…, -1, 0, 1, …")
    return v


def load_rules(name: str, overrides: Mapping[str, Any] | None = None) -> RisikoRules:
    """Load a RisiKo! preset by name (with optional overrides) and parse its tables."""
    return rules_from_preset(load_preset(name, overrides))


@cache
def shipped_rules(name: str) -> RisikoRules:
    """A shipped RisiKo! preset without overrides (cached)."""
    return load_rules(name)


def boxed_rules() -> RisikoRules:
    """The boxed rules used when no preset is given: the UFF preset with free dice choice (already boxed)."""
    return shipped_rules("risiko-ufficiali-2018")


# Validated at import: a broken shipped preset fails loudly at start-up.
for _name in RISIKO_PRESETS:
    shipped_rules(_name)
