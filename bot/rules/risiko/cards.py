"""Territory cards: set values (RK-TRIS-1, RK-TRIS-2), FIRK exchange without sets (FIRK-CARD-1), hand limit
(RK-CARD-1) and reinforcements (RK-REIN-1)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations

from bot.rules.risiko.board import Board
from bot.rules.risiko.config import CardRules, RisikoRules
from bot.rules.risiko.errors import RisikoError

DECK_SIZE = 44  # 42 territory cards and 2 jolly: no hand holds more


class Symbol(Enum):
    """The symbol on a card: the three troop kinds of the territory cards, or a jolly (which has no territory)."""

    CANNON = "cannon"  # artiglieria
    INFANTRY = "infantry"  # fanteria
    CAVALRY = "cavalry"  # cavalleria
    JOLLY = "jolly"

    @classmethod
    def read(cls, word: object) -> Symbol:
        """The symbol a player names (:data:`SYMBOL_WORDS`: Italian singular and plural, English, the engine's
        values; any case, accents optional); raises ``card_symbol_invalid``."""
        found = SYMBOL_WORDS.get(_word_key(word)) if isinstance(word, str) else None
        if found is None:
            raise RisikoError("card_symbol_invalid", word)
        return found


def _word_key(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


# What players type (compared without case or accents) -> the symbol. One table for Discord, the CLI's JSON and
# the services.
SYMBOL_WORDS: Mapping[str, Symbol] = {
    **dict.fromkeys(("cannon", "cannons", "cannone", "cannoni", "artiglieria", "artiglierie", "artillery", "c"),
                    Symbol.CANNON),
    **dict.fromkeys(("infantry", "fante", "fanti", "fanteria", "fanterie", "f", "i"), Symbol.INFANTRY),
    **dict.fromkeys(("cavalry", "cavaliere", "cavalieri", "cavalleria", "cavallerie", "cavallo", "cavalli"),
                    Symbol.CAVALRY),
    **dict.fromkeys(("jolly", "jollies", "joker", "jokers", "wild", "j"), Symbol.JOLLY),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Card:
    """A territory card (``territory`` canonical) or a jolly (``territory`` None)."""

    symbol: Symbol
    territory: str | None = None

    def serialise(self) -> dict[str, str]:
        out = {"symbol": self.symbol.value}
        if self.territory is not None:
            out["territory"] = self.territory
        return out

    @classmethod
    def parse(cls, obj: object, board: Board) -> Card:
        if isinstance(obj, str):
            obj = {"symbol": obj}
        if not isinstance(obj, dict) or set(obj) - {"symbol", "territory"} or "symbol" not in obj:
            raise RisikoError("card_invalid", obj)
        symbol = Symbol.read(obj["symbol"])
        territory = obj.get("territory")
        if symbol is Symbol.JOLLY:
            if territory is not None:
                raise RisikoError("jolly_has_no_territory", territory)
            return cls(symbol)
        return cls(symbol, board.canonical(territory) if territory is not None else None)


class SetKind(Enum):
    """The boxed combinations of three cards (RK-TRIS-1): three of a kind, one of each, or a jolly with two equal
    cards."""

    CANNONS = "three_cannons"
    INFANTRY = "three_infantry"
    CAVALRY = "three_cavalry"
    ONE_OF_EACH = "one_of_each"
    JOLLY_PAIR = "jolly_pair"


@dataclass(frozen=True, slots=True)
class SetValue:
    """The armies a set gives (RK-TRIS-1, RK-TRIS-2): the preset's value for its kind (``base``) plus the bonus for
    the cards whose territories the player holds, which are listed."""

    kind: SetKind
    base: int
    territory_bonus: int
    bonus_territories: tuple[str, ...]

    @property
    def total(self) -> int:
        return self.base + self.territory_bonus


def set_kind(cards: Sequence[Card]) -> SetKind | None:
    """Which boxed combination three cards make, or None (jollies only with two equal cards)."""
    if len(cards) != 3:
        return None
    symbols = [c.symbol for c in cards]
    jollies = symbols.count(Symbol.JOLLY)
    rest = [s for s in symbols if s is not Symbol.JOLLY]
    if jollies == 1:
        return SetKind.JOLLY_PAIR if rest[0] is rest[1] else None
    if jollies > 1:
        return None
    if len(set(rest)) == 3:
        return SetKind.ONE_OF_EACH
    if len(set(rest)) == 1:
        return {Symbol.CANNON: SetKind.CANNONS, Symbol.INFANTRY: SetKind.INFANTRY, Symbol.CAVALRY: SetKind.CAVALRY}[
            rest[0]
        ]
    return None


def set_value(cards: Sequence[Card], owned: Iterable[str], rules: CardRules) -> SetValue:
    """Armies a set of three cards gives: the preset's value + ``territory_bonus`` per owned card territory."""
    if rules.mode != "sets":
        raise RisikoError("preset_uses_exchange_not_sets", rules.mode)
    kind = set_kind(cards)
    if kind is None:
        raise RisikoError("not_a_valid_set", [c.symbol.value for c in cards])
    base = {
        SetKind.CANNONS: rules.cannons,
        SetKind.INFANTRY: rules.infantry,
        SetKind.CAVALRY: rules.cavalry,
        SetKind.ONE_OF_EACH: rules.one_of_each,
        SetKind.JOLLY_PAIR: rules.jolly_pair,
    }[kind]
    owned_set = set(owned)
    bonus_territories = tuple(c.territory for c in cards if c.territory is not None and c.territory in owned_set)
    return SetValue(kind, base, rules.territory_bonus * len(bonus_territories), bonus_territories)


def best_set(hand: Sequence[Card], owned: Iterable[str], rules: CardRules) -> tuple[tuple[int, ...], SetValue] | None:
    """The most valuable set in a hand: (card indices, value); None when the hand holds no set."""
    owned_list = list(owned)
    best: tuple[tuple[int, ...], SetValue] | None = None
    for idx in combinations(range(len(hand)), 3):
        trio = [hand[i] for i in idx]
        if set_kind(trio) is None:
            continue
        value = set_value(trio, owned_list, rules)
        if best is None or value.total > best[1].total:
            best = (idx, value)
    return best


def exchange_values(hand_size: int, exchanged: int, rules: CardRules) -> tuple[int, ...]:
    """FIRK-CARD-1 (FIRK §14): armies for exchanging ``exchanged`` cards out of a hand of ``hand_size``.

    One card only from a hand of exactly one, two only from a hand of two; from three cards on, only multiples of
    three, each trio valued by the cards in hand when it is played (7 cards: 12 then 10).
    """
    if rules.mode != "exchange":
        raise RisikoError("preset_uses_sets_not_exchange", rules.mode)
    if hand_size < 0 or exchanged < 0:
        raise RisikoError("negative_cards", min(hand_size, exchanged))
    if exchanged == 0 or exchanged > hand_size:
        raise RisikoError("exchange_count_invalid", exchanged)
    if hand_size == 1:
        return (rules.exchange_one,)
    if hand_size == 2:
        if exchanged != 2:
            raise RisikoError("exchange_count_invalid", exchanged)
        return (rules.exchange_two,)
    if exchanged % 3:
        raise RisikoError("exchange_not_multiple_of_three", exchanged)
    values: list[int] = []
    held = hand_size
    for _ in range(exchanged // 3):
        three, four, five_plus = rules.exchange_three
        values.append(three if held == 3 else four if held == 4 else five_plus)
        held -= 3
    return tuple(values)


class HandVerdict(Enum):
    """What the preset's hand limit (RK-CARD-1) lets a player with so many cards do: draw, not draw until a set is
    played, or discard them all."""

    NO_LIMIT = "no_limit"
    MAY_DRAW = "may_draw"
    AT_LIMIT_NO_DRAW = "at_limit_no_draw"  # ARB art. 22: no draw until a set is played
    DISCARD_ALL = "discard_all"  # UFF casistica: found with 8 or more, all are discarded


def hand_check(cards_in_hand: int, rules: CardRules) -> HandVerdict:
    """RK-CARD-1: what a hand of ``cards_in_hand`` allows under the preset's hand limit."""
    if cards_in_hand < 0:
        raise RisikoError("negative_cards", cards_in_hand)
    if rules.discard_all_from and cards_in_hand >= rules.discard_all_from:
        return HandVerdict.DISCARD_ALL
    if not rules.hand_limit:
        return HandVerdict.NO_LIMIT
    if cards_in_hand >= rules.hand_limit:
        return HandVerdict.AT_LIMIT_NO_DRAW
    return HandVerdict.MAY_DRAW


@dataclass(frozen=True, slots=True)
class Reinforcements:
    """A turn's reinforcements (RK-REIN-1), part by part: the territories held and the armies they give, each
    continent held with its bonus, and the armies from cards."""

    territories: int
    from_territories: int
    continents: tuple[tuple[str, int], ...]
    from_cards: int

    @property
    def total(self) -> int:
        return self.from_territories + sum(b for _, b in self.continents) + self.from_cards


def reinforcements(owned: Iterable[str], rules: RisikoRules, from_cards: int = 0) -> Reinforcements:
    """RK-REIN-1: owned territories divided by the preset divisor (rounded down) + continent bonuses + cards."""
    board = rules.board
    names: list[str] = []
    for t in owned:
        c = board.canonical(t)
        if c in names:
            raise RisikoError("territory_listed_twice", c)
        names.append(c)
    have = set(names)
    continents = tuple((c.name, c.bonus) for c in board.continents if have.issuperset(c.territories))
    return Reinforcements(len(names), len(names) // rules.territories_divisor, continents, from_cards)
