"""Army limit and over-placement (RK-LIM-1 / ARB art. 24, RK-OVER-1 / ARB art. 23, FIRK-LIM-1 / FIRK §5,
FIRK-OVER-1 / FIRK §6) and the initial-distribution check (RK-SET-2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from math import floor

from bot.rules.risiko.board import Board
from bot.rules.risiko.config import LimitRules, RisikoRules, SanctionRules
from bot.rules.risiko.errors import RisikoError


class FoundBy(Enum):
    """Who found an over-limit or over-placement: the player who declares it, or someone who spots it (the preset's
    factors differ)."""

    SELF = "self"  # spontaneously declared by the player
    OTHER = "other"  # spotted by a referee or another player


@dataclass(frozen=True, slots=True)
class LimitVerdict:
    """An army-limit finding (RK-LIM-1, FIRK-LIM-1): the armies over the limit, the armies to take off, and the
    player's limit for the rest of the game."""

    excess: int
    remove: int
    new_limit: int | None  # None = the preset has no army limit


def army_limit_check(
    armies_on_board: int, found_by: FoundBy, rules: LimitRules, limit: int | None = None
) -> LimitVerdict:
    """Armies to take off and the limit for the rest of the game when a player is over the limit.

    ``limit`` is the player's current limit (already lowered by an earlier finding), default the preset's.
    """
    if armies_on_board < 0:
        raise RisikoError("negative_armies", armies_on_board)
    current = limit if limit is not None else (rules.army_limit or None)
    if current is None:
        return LimitVerdict(0, 0, None)
    if current < 0:
        raise RisikoError("negative_limit", current)
    excess = max(0, armies_on_board - current)
    if excess == 0:
        return LimitVerdict(0, 0, current)
    spotted = found_by is FoundBy.OTHER
    factor = rules.remove_factor_spotted if spotted else rules.remove_factor_declared
    lower = rules.lower_limit_when_spotted if spotted else rules.lower_limit_when_declared
    new_limit = current - excess if lower else current
    return LimitVerdict(excess, min(excess * factor, armies_on_board), new_limit)


class OverOutcome(Enum):
    """Whether the player goes on after an over-placement or is out of the game."""

    CONTINUE = "continue"
    OUT_OF_GAME = "out_of_game"  # ARB art. 23 third deliberate repeat / FIRK §6 deliberate over-placing


@dataclass(frozen=True, slots=True)
class OverVerdict:
    """An over-placement finding (RK-OVER-1, FIRK-OVER-1): the armies placed too many, the armies to remove, the
    outcome, the deliberate over-placements counted so far, and FIRK's standing points when it puts the player out."""

    excess: int
    remove: int
    outcome: OverOutcome
    deliberate_count: int
    standing_points: int = 0  # FIRK §6: −25 in the general standings when deliberate over-placing puts the player out


def over_placement_check(
    placed: int,
    due: int,
    found_by: FoundBy,
    rules: LimitRules,
    *,
    deliberate: bool = False,
    previous_deliberate: int = 0,
    sanctions: SanctionRules | None = None,
) -> OverVerdict:
    """Armies to remove after placing ``placed`` reinforcements when ``due`` were owed.

    ``previous_deliberate`` counts earlier deliberate over-placements in this game; with this one (when
    ``deliberate``) reaching the preset's ``over_deliberate_out_at`` the player is out of the game.
    """
    for value in (placed, due, previous_deliberate):
        if value < 0:
            raise RisikoError("negative_armies", value)
    excess = max(0, placed - due)
    factor = rules.over_remove_factor_spotted if found_by is FoundBy.OTHER else rules.over_remove_factor_declared
    remove = excess * factor
    if rules.over_cap_at_placed:
        remove = min(remove, placed)
    count = previous_deliberate + (1 if deliberate and excess else 0)
    out = bool(deliberate and excess and rules.over_deliberate_out_at and count >= rules.over_deliberate_out_at)
    points = sanctions.deliberate_over_placement_standing_points if out and sanctions else 0
    return OverVerdict(excess, remove, OverOutcome.OUT_OF_GAME if out else OverOutcome.CONTINUE, count, points)


def initial_armies(players: int, rules: RisikoRules) -> int:
    """RK-SET-1: each player's starting armies for a table of ``players`` (boxed 35/30/25/20 for 3..6)."""
    index = players - rules.min_players
    if not 0 <= index < len(rules.initial_armies) or players > rules.max_players:
        raise RisikoError("player_count_invalid", players)
    return rules.initial_armies[index]


# -- initial distribution (RK-SET-2) --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ShareViolation:
    """A player holding more of a continent after the initial distribution than the preset's share allows (RK-SET-2):
    how many territories, and how many are allowed."""

    player: str
    continent: str
    owned: int
    allowed: int


def continent_cap(size: int, share: float) -> int:
    """Most territories of a continent of ``size`` one player may hold (half: Europa 3, Asia 6)."""
    return floor(size * share + 1e-9)


def distribution_violations(owners: Mapping[str, str], board: Board, share: float) -> list[ShareViolation]:
    """Players holding more than ``share`` of a continent. ``owners`` maps territory -> player."""
    if share <= 0:
        return []
    counts: dict[tuple[str, str], int] = {}
    for territory, player in owners.items():
        where = board.continent_of(territory).name
        counts[(player, where)] = counts.get((player, where), 0) + 1
    out: list[ShareViolation] = []
    for cont in board.continents:
        cap = continent_cap(len(cont.territories), share)
        for (player, name), n in sorted(counts.items()):
            if name == cont.name and n > cap:
                out.append(ShareViolation(player, name, n, cap))
    return out


def fix_last_card(
    deal: Sequence[tuple[str, str]], board: Board, share: float
) -> tuple[list[tuple[str, str]], int | None]:
    """UFF casistica: when the LAST card dealt breaks the limit, swap it with the one before (and further back).

    ``deal`` is the dealing order as (territory, player). Returns the fixed deal and the index swapped with the
    last card (None when no swap was needed). Raises ``distribution_not_fixable`` when no swap helps or a
    violation is not caused by the last card.
    """
    cards = [(board.canonical(t), p) for t, p in deal]
    owners = dict(cards)
    if len(owners) != len(cards):
        raise RisikoError("territory_dealt_twice", next(t for t, _ in cards if sum(1 for u, _ in cards if u == t) > 1))
    if not distribution_violations(owners, board, share):
        return cards, None
    last_t, last_p = cards[-1]
    for i in range(len(cards) - 2, -1, -1):
        t, p = cards[i]
        if p == last_p:
            continue
        trial = list(cards)
        trial[i], trial[-1] = (last_t, p), (t, last_p)
        if not distribution_violations(dict(trial), board, share):
            return trial, i
    raise RisikoError("distribution_not_fixable", [v.player for v in distribution_violations(owners, board, share)])
