"""Battles: one roll (RK-DICE-1), dice-count legality (FIRK-ATK-2), superiority (FIRK-ATK-1) and exact odds.

Odds are exact ``Fraction``s. A single roll of ``a`` attack dice against ``d`` defence dice is enumerated over
all ``6**(a+d)`` faces once and cached. A whole battle (``A`` armies able to attack against ``D`` defenders) is a
dynamic programme over the states ``(a, d)``: each state is visited once, so a 30 x 30 table costs 900 states
instead of the exponential tree of rolls (see ``benchmarks/risiko_odds.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from itertools import product

from bot.rules.risiko.config import BOXED_DICE, DiceRules
from bot.rules.risiko.errors import RisikoError

FACES = range(1, 7)
# The largest battle the adjudicators compute (bot and CLI): more than double the 130-army limit of UFF/FIRK, and
# answered in about 2 s on a small server (500 a side took 8 s).
BATTLE_ARMIES_MAX = 300


@dataclass(frozen=True, slots=True)
class RollResult:
    """Outcome of one roll: armies lost by each side and the pairs compared (attack die, defence die)."""

    attacker_losses: int
    defender_losses: int
    pairs: tuple[tuple[int, int], ...]


def _check_dice(dice: Sequence[int], side: str, maximum: int) -> tuple[int, ...]:
    if not isinstance(dice, list | tuple) or not 1 <= len(dice) <= maximum:
        raise RisikoError(f"{side}_dice_count_invalid", list(dice) if isinstance(dice, list | tuple) else dice)
    for die in dice:
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise RisikoError(f"{side}_die_invalid", die)
    return tuple(dice)


def resolve_roll(
    attacker_dice: Sequence[int], defender_dice: Sequence[int], rules: DiceRules = BOXED_DICE
) -> RollResult:
    """RK-DICE-1: sort both sides high to low, compare pairwise, ties to the defender."""
    att = sorted(_check_dice(attacker_dice, "attacker", rules.max_attack_dice), reverse=True)
    dfn = sorted(_check_dice(defender_dice, "defender", rules.max_defence_dice), reverse=True)
    pairs = tuple(zip(att, dfn, strict=False))
    attacker_losses = sum(1 for a, d in pairs if a <= d)
    return RollResult(attacker_losses, len(pairs) - attacker_losses, pairs)


class DiceVerdict(Enum):
    """Whether a roll's dice counts are legal (RK-DICE-1, FIRK-ATK-2), or the first rule they break, as a code."""

    LEGAL = "legal"
    TOO_MANY_ATTACK_DICE = "too_many_attack_dice"  # needs one army more than dice (boxed rules)
    TOO_MANY_DEFENCE_DICE = "too_many_defence_dice"
    NOT_MAX_ATTACK_DICE = "not_max_attack_dice"  # FIRK §13
    NOT_MAX_DEFENCE_DICE = "not_max_defence_dice"  # FIRK §13
    FEWER_ATTACK_THAN_DEFENCE_DICE = "fewer_attack_than_defence_dice"  # FIRK §13


def allowed_dice(attacker_armies: int, defender_armies: int, rules: DiceRules = BOXED_DICE) -> tuple[int, int]:
    """Most dice each side may roll: attacker one fewer than the armies on the territory, defender its armies."""
    if attacker_armies < 0 or defender_armies < 0:
        raise RisikoError("negative_armies", min(attacker_armies, defender_armies))
    return min(rules.max_attack_dice, attacker_armies - 1), min(rules.max_defence_dice, defender_armies)


def check_dice_counts(
    attack_dice: int, defence_dice: int, attacker_armies: int, defender_armies: int, rules: DiceRules = BOXED_DICE
) -> DiceVerdict:
    """Whether a roll with these dice counts is legal for armies on the two territories (RK-DICE-1, FIRK-ATK-2)."""
    max_att, max_def = allowed_dice(attacker_armies, defender_armies, rules)
    if attack_dice > max_att:
        return DiceVerdict.TOO_MANY_ATTACK_DICE
    if defence_dice > max_def:
        return DiceVerdict.TOO_MANY_DEFENCE_DICE
    if rules.mandatory_max_dice:
        if attack_dice < max_att:
            return DiceVerdict.NOT_MAX_ATTACK_DICE
        if defence_dice < max_def:
            return DiceVerdict.NOT_MAX_DEFENCE_DICE
    if rules.no_attack_with_fewer_dice and attack_dice < defence_dice:
        return DiceVerdict.FEWER_ATTACK_THAN_DEFENCE_DICE
    return DiceVerdict.LEGAL


class Superiority(Enum):
    """How FIRK's superiority rule (FIRK-ATK-1) judges an attack: not required by the preset, met, allowed
    unsupported from a strong territory, or refused."""

    NOT_REQUIRED = "not_required"
    SUPERIORITY = "superiority"  # the bordering own armies outnumber the defenders
    UNSUPPORTED_STRONG = "unsupported_strong"  # parity/inferiority, the attacking territory holds the minimum (10)
    NOT_ALLOWED = "not_allowed"


def check_superiority(
    attacker_armies: int, supporting_armies: Sequence[int], defender_armies: int, rules: DiceRules = BOXED_DICE
) -> Superiority:
    """FIRK-ATK-1 (FIRK §12): attacks only with superiority, where the attacker *may* add the armies of every own
    territory bordering the target.

    ``supporting_armies`` are the armies of the attacker's OTHER territories bordering the attacked one.
    Reading used: at parity or inferiority, the attack is allowed when the attacking territory alone holds at least
    ``unsupported_min_armies`` (10) — the text allows it "from a territory not supported", and since adding the
    neighbours is the attacker's option, a neighbour can never turn an allowed attack into a forbidden one (12
    against 14 stays allowed when a 1-army territory also borders the target). ``legal`` is monotone: more
    attacking or supporting armies never forbid an attack, more defenders never allow one.
    """
    for value in (attacker_armies, defender_armies, *supporting_armies):
        if value < 0:
            raise RisikoError("negative_armies", value)
    if not rules.superiority_required:
        return Superiority.NOT_REQUIRED
    if attacker_armies + sum(supporting_armies) > defender_armies:
        return Superiority.SUPERIORITY
    if attacker_armies >= rules.unsupported_min_armies:  # the attacker declares it unsupported: §12's exception
        return Superiority.UNSUPPORTED_STRONG
    return Superiority.NOT_ALLOWED


@dataclass(frozen=True, slots=True)
class AttackVerdict:
    """Whether an attack may be made (FIRK §12 reading 8): ``legal`` is True only when both the dice counts and the
    superiority rule allow it; ``reason`` is the refusing code (a DiceVerdict or ``superiority_not_allowed``)."""

    legal: bool
    reason: str | None
    dice: DiceVerdict
    superiority: Superiority


def judge_attack(
    attack_dice: int,
    defence_dice: int,
    attacker_armies: int,
    defender_armies: int,
    supporting_armies: Sequence[int] = (),
    rules: DiceRules = BOXED_DICE,
) -> AttackVerdict:
    """One verdict for one attack (RK-DICE-1, FIRK-ATK-1, FIRK-ATK-2): the dice counts first, then superiority."""
    dice = check_dice_counts(attack_dice, defence_dice, attacker_armies, defender_armies, rules)
    sup = check_superiority(attacker_armies, supporting_armies, defender_armies, rules)
    if dice is not DiceVerdict.LEGAL:
        return AttackVerdict(False, dice.value, dice, sup)
    if sup is Superiority.NOT_ALLOWED:
        return AttackVerdict(False, "superiority_not_allowed", dice, sup)
    return AttackVerdict(True, None, dice, sup)


# -- exact odds -------------------------------------------------------------------------------------------------
@cache
def roll_distribution(attack_dice: int, defence_dice: int) -> tuple[Fraction, ...]:
    """P(attacker loses k armies), k = 0..min(a, d), for one roll (exact; enumerated once and cached)."""
    if not 1 <= attack_dice <= 3 or not 1 <= defence_dice <= 3:
        raise RisikoError("dice_count_invalid", [attack_dice, defence_dice])
    n = min(attack_dice, defence_dice)
    counts = [0] * (n + 1)
    for faces in product(FACES, repeat=attack_dice + defence_dice):
        att = sorted(faces[:attack_dice], reverse=True)
        dfn = sorted(faces[attack_dice:], reverse=True)
        counts[sum(1 for a, d in zip(att, dfn, strict=False) if a <= d)] += 1
    total = 6 ** (attack_dice + defence_dice)
    return tuple(Fraction(c, total) for c in counts)


def roll_counts(attack_dice: int, defence_dice: int) -> tuple[tuple[int, ...], int]:
    """The same distribution as integer counts over ``6**(a+d)`` (e.g. 3 vs 3: 6420, 10017, 12348, 17871)."""
    total = 6 ** (attack_dice + defence_dice)
    return tuple(int(p * total) for p in roll_distribution(attack_dice, defence_dice)), total


def _dice_for(a: int, d: int, rules: DiceRules) -> tuple[int, int] | None:
    """Dice rolled in state (a armies able to attack, d defenders); None when the attack cannot go on."""
    att = min(rules.max_attack_dice, a, 3)
    dfn = min(rules.max_defence_dice, d, 3)
    if rules.no_attack_with_fewer_dice and att < dfn:
        return None
    return att, dfn


@dataclass(frozen=True, slots=True)
class BattleOdds:
    """Exact outcome of a battle fought to the end (attacker always rolls the most dice it may).

    ``attacker_remaining[k]``: P(attacker conquers with k armies still able to fight, 1..A).
    ``defender_remaining[k]``: P(the attack ends with k defenders left, k >= 1): the attacker ran out, or (with a
    preset forbidding fewer dice than the defender, FIRK §13) could not go on; ``stopped`` is that last part.
    """

    attackers: int
    defenders: int
    attacker_wins: Fraction
    defender_holds: Fraction
    stopped: Fraction
    attacker_remaining: tuple[tuple[int, Fraction], ...]
    defender_remaining: tuple[tuple[int, Fraction], ...]
    expected_attacker_losses: Fraction
    expected_defender_losses: Fraction


def battle_odds(attackers: int, defenders: int, rules: DiceRules = BOXED_DICE) -> BattleOdds:
    """Forward dynamic programme over states (a, d) from (A, D); every state once."""
    _check_armies(attackers, defenders)
    prob: dict[tuple[int, int], Fraction] = {(attackers, defenders): Fraction(1)}
    win: dict[int, Fraction] = {}
    hold: dict[int, Fraction] = {}
    stopped = Fraction(0)
    lost_a = Fraction(0)
    lost_d = Fraction(0)
    # Every roll lowers a + d, so visiting states by decreasing a + d sees each one after all its parents.
    for total in range(attackers + defenders, 0, -1):
        for a in range(min(attackers, total), -1, -1):
            d = total - a
            if d < 0 or d > defenders:
                continue
            p = prob.pop((a, d), None)
            if p is None:
                continue
            if d == 0:
                win[a] = win.get(a, Fraction(0)) + p
                lost_a += p * (attackers - a)
                lost_d += p * defenders
                continue
            dice = _dice_for(a, d, rules) if a > 0 else None
            if dice is None:
                hold[d] = hold.get(d, Fraction(0)) + p
                if a > 0:
                    stopped += p
                lost_a += p * (attackers - a)
                lost_d += p * (defenders - d)
                continue
            dist = roll_distribution(*dice)
            fights = len(dist) - 1
            for k, q in enumerate(dist):
                if q:
                    key = (a - k, d - (fights - k))
                    prob[key] = prob.get(key, Fraction(0)) + p * q
    wins = sum(win.values(), Fraction(0))
    holds = sum(hold.values(), Fraction(0))
    return BattleOdds(
        attackers=attackers,
        defenders=defenders,
        attacker_wins=wins,
        defender_holds=holds,
        stopped=stopped,
        attacker_remaining=tuple(sorted(win.items())),
        defender_remaining=tuple(sorted(hold.items())),
        expected_attacker_losses=lost_a,
        expected_defender_losses=lost_d,
    )


def _check_armies(attackers: int, defenders: int) -> None:
    for value in (attackers, defenders):
        if not isinstance(value, int) or isinstance(value, bool):
            raise RisikoError("armies_not_an_integer", value)
        if value < 0:
            raise RisikoError("negative_armies", value)
    if attackers < 1 or defenders < 1:
        raise RisikoError("armies_must_be_positive", [attackers, defenders])


def win_table(max_attackers: int, max_defenders: int, rules: DiceRules = BOXED_DICE) -> list[list[Fraction]]:
    """P(attacker conquers) for every A in 1..max_attackers, D in 1..max_defenders, in one memoised pass.

    Backward recursion W(a, d) = sum_k P(k) * W(a - k, d - (n - k)), W(a, 0) = 1, W(0, d) = 0; states are filled
    in increasing a + d, so each of the ``max_attackers * max_defenders`` states is computed once.
    """
    _check_armies(max_attackers, max_defenders)
    w: dict[tuple[int, int], Fraction] = {}
    for a in range(max_attackers + 1):
        w[(a, 0)] = Fraction(1) if a > 0 else Fraction(0)
    for d in range(1, max_defenders + 1):
        w[(0, d)] = Fraction(0)
    for total in range(2, max_attackers + max_defenders + 1):
        for a in range(max(1, total - max_defenders), min(max_attackers, total - 1) + 1):
            d = total - a
            dice = _dice_for(a, d, rules)
            if dice is None:
                w[(a, d)] = Fraction(0)
                continue
            dist = roll_distribution(*dice)
            n = len(dist) - 1
            w[(a, d)] = sum((q * w[(a - k, d - (n - k))] for k, q in enumerate(dist) if q), Fraction(0))
    return [[w[(a, d)] for d in range(1, max_defenders + 1)] for a in range(1, max_attackers + 1)]


def naive_attacker_wins(attackers: int, defenders: int, rules: DiceRules = BOXED_DICE) -> Fraction:
    """Baseline for the benchmark only: the same recursion WITHOUT memoisation (exponential in A + D)."""
    if defenders == 0:
        return Fraction(1)
    if attackers == 0:
        return Fraction(0)
    dice = _dice_for(attackers, defenders, rules)
    if dice is None:
        return Fraction(0)
    dist = roll_distribution(*dice)
    n = len(dist) - 1
    return sum(
        (q * naive_attacker_wins(attackers - k, defenders - (n - k), rules) for k, q in enumerate(dist) if q),
        Fraction(0),
    )
