"""Sanction ladders as data (RK-PACT-1 / ARB art. 27, RK-OVER-1 / ARB art. 23, RK-SD-3 forgotten roll,
RK-SAN-1 / ARB art. 10-13 kinds, FIRK-PEN-1): the next step given the previous offences of the same kind."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.rules.risiko.config import SanctionRules
from bot.rules.risiko.errors import RisikoError


class Ladder(StrEnum):
    """The offences that climb a ladder of sanctions, each rung read from the preset's ``[sanctions]``."""

    PACT = "pact"  # pacts, advice, threats, anger, blasphemy
    OVER_PLACEMENT = "over_placement"  # deliberate repeats of placing more than due
    FORGOTTEN_SDADATA_ROLL = "forgotten_sdadata_roll"


@dataclass(frozen=True, slots=True)
class Step:
    """One rung: ``code`` from the preset; for the pact second step, the cards and armies to lose."""

    ladder: Ladder
    offence: int  # 1 = first offence
    code: str
    cards: int = 0
    armies: int = 0
    last_rung: bool = False
    army_cap: int = 0  # FIRK §26: instead of cards, the player's armies are capped at this number
    at_least: bool = False  # FIRK §26 "una o più carte": the number is a minimum, the referee may take more
    cards_not_drawn: int = 0  # FIRK penalità 2: cards the player may not draw (their hand is not touched)


def sanction_kinds(rules: SanctionRules) -> tuple[str, ...]:
    """RK-SAN-1 (ARB art. 10-13) / FIRK-PEN-1: the kinds of sanction a referee of this preset may give."""
    return rules.kinds


def check_kind(rules: SanctionRules, kind: str) -> str:
    """A sanction kind of this preset, or RisikoError ``unknown_sanction_kind`` quoting it."""
    if kind not in rules.kinds:
        raise RisikoError("unknown_sanction_kind", kind)
    return kind


def next_step(rules: SanctionRules, ladder: Ladder, previous_offences: int, cards_in_hand: int = 0) -> Step:
    """The sanction for the next offence after ``previous_offences`` earlier ones (past the top: the top rung).

    The ARB art. 27 second step depends on the hand: 2 cards with at least two, 1 card + 3 armies with one,
    6 armies with none (numbers from the preset).
    """
    if previous_offences < 0 or cards_in_hand < 0:
        raise RisikoError("negative_count", min(previous_offences, cards_in_hand))
    rungs = {
        Ladder.PACT: rules.pact,
        Ladder.OVER_PLACEMENT: rules.over_placement,
        Ladder.FORGOTTEN_SDADATA_ROLL: rules.forgotten_sdadata_roll,
    }[ladder]
    if not rungs:
        raise RisikoError("no_ladder_in_preset", ladder.value)
    index = min(previous_offences, len(rungs) - 1)
    code = rungs[index]
    cards = armies = 0
    if code == "lose_cards_or_armies":
        if cards_in_hand >= 2:
            cards = rules.pact_cards_if_two
        elif cards_in_hand == 1:
            cards, armies = rules.pact_cards_if_one, rules.pact_armies_if_one
        else:
            armies = rules.pact_armies_if_none
    army_cap = not_drawn = 0
    at_least = False
    if code in ("penalty_cards_or_army_cap", "heavier_penalty_cards_or_army_cap"):  # FIRK §26, penalità 2
        # Penalità 2 is about cards the player may *not draw*, not cards taken from the hand: an empty hand still
        # gets its penalty. Over the preset's number of cards in hand, an army cap instead.
        at_least = True
        first = code == "penalty_cards_or_army_cap"
        if rules.army_cap_cards_over and cards_in_hand > rules.army_cap_cards_over:
            # "penalità peggiori" on a repeat: the preset's lower cap (0 = the first offence's)
            army_cap = rules.army_cap if first else rules.outsider_army_cap_on_repeat or rules.army_cap
        else:
            not_drawn = rules.pact_cards_if_one if first else rules.pact_cards_on_repeat
    last = index == len(rungs) - 1
    return Step(ladder, previous_offences + 1, code, cards, armies, last, army_cap, at_least, not_drawn)
