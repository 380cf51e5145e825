"""The RisiKo! board: 42 territories, 6 continents, 82 borders, bonuses and spelling aliases (RK-MAP-1).

Data come from the bundled ``map.json`` (see its ``sources`` and ``notes``). A territory's border count is its
value in the boxed tournament table (NP) and in FIRK §15; the 42 values total 164.

Referee toggle: two borders are disputed in the data notes — America Centrale–Stati Uniti Orientali (missing on
the 2023 reprint board) and Egitto–Medio Oriente (FIRK §7 confirms it, FIRK-MAP-1). ``Board.without(...)`` (and
the preset field ``risiko.disabled_borders``) removes any border the referee rules out.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from bot.rules.data import load_json
from bot.rules.risiko.errors import RisikoError

DISPUTED_BORDERS: tuple[tuple[str, str], ...] = (
    ("America Centrale", "Stati Uniti Orientali"),
    ("Egitto", "Medio Oriente"),
)

# Spellings seen in rulebooks, boards and other sources -> canonical name (map.json notes; NP value table).
ALIASES: Mapping[str, str] = {
    "Afghanistan": "Afganistan",
    "Cita": "Čita",
    "Irkutsk": "Čita",
    "Jakutsk": "Jacuzia",
    "Yakutsk": "Jacuzia",
    "Jakuzia": "Jacuzia",
    "Asia sudorientale": "Siam",
    "Africa settentrionale": "Africa del Nord",
    "Africa meridionale": "Africa del Sud",
    "Territori del Nord-Ovest": "Territori del Nord Ovest",
    "Territori del Nord O.": "Territori del Nord Ovest",
    "Stati Uniti Occ.": "Stati Uniti Occidentali",
    "Stati Uniti Orient.": "Stati Uniti Orientali",
    "Peru": "Perù",
}


def _key(name: str) -> str:
    """Comparison key: no accents, no case, no punctuation, single spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    cleaned = "".join(c if c.isalnum() else " " for c in plain.casefold())
    return " ".join(cleaned.split())


@dataclass(frozen=True, slots=True)
class Continent:
    """A continent of ``map.json``: its territories and the armies its bonus gives whoever holds them all."""

    name: str
    bonus: int
    territories: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """Territories, borders and continents. ``borders`` holds each border once as a sorted pair."""

    territories: tuple[str, ...]
    continents: tuple[Continent, ...]
    borders: frozenset[tuple[str, str]]
    _neighbours: Mapping[str, frozenset[str]] = field(repr=False, compare=False)
    _continent_of: Mapping[str, str] = field(repr=False, compare=False)
    _lookup: Mapping[str, str] = field(repr=False, compare=False)

    @classmethod
    def build(
        cls, territories: Sequence[str], continents: Sequence[Continent], borders: Iterable[Sequence[str]]
    ) -> Board:
        names = tuple(territories)
        known = set(names)
        pairs: set[tuple[str, str]] = set()
        for pair in borders:
            a, b = pair
            if a not in known or b not in known or a == b:
                raise RisikoError("invalid_border", list(pair))
            pairs.add((a, b) if a < b else (b, a))
        neighbours: dict[str, set[str]] = {t: set() for t in names}
        for a, b in pairs:
            neighbours[a].add(b)
            neighbours[b].add(a)
        continent_of = {t: c.name for c in continents for t in c.territories}
        lookup: dict[str, str] = {_key(t): t for t in names}
        for alias, canonical in ALIASES.items():
            lookup.setdefault(_key(alias), canonical)
        return cls(
            territories=names,
            continents=tuple(continents),
            borders=frozenset(pairs),
            _neighbours={t: frozenset(n) for t, n in neighbours.items()},
            _continent_of=continent_of,
            _lookup=lookup,
        )

    # -- names -------------------------------------------------------------------------------------------
    def canonical(self, name: str) -> str:
        """The canonical spelling of ``name`` (aliases, accents and case accepted); raises ``unknown_territory``."""
        if not isinstance(name, str):
            raise RisikoError("unknown_territory", name)
        found = self._lookup.get(_key(name))
        if found is None:
            raise RisikoError("unknown_territory", name)
        return found

    # -- graph ---------------------------------------------------------------------------------------------
    def neighbours(self, territory: str) -> frozenset[str]:
        return self._neighbours[self.canonical(territory)]

    def adjacent(self, a: str, b: str) -> bool:
        return self.canonical(b) in self.neighbours(a)

    def degree(self, territory: str) -> int:
        """Number of borders = the territory's value (boxed tournament table, FIRK §15)."""
        return len(self.neighbours(territory))

    def continent_of(self, territory: str) -> Continent:
        name = self._continent_of[self.canonical(territory)]
        return next(c for c in self.continents if c.name == name)

    def continent(self, name: str) -> Continent:
        for c in self.continents:
            if _key(c.name) == _key(name):
                return c
        raise RisikoError("unknown_continent", name)

    def external_border_links(self, continent: Continent) -> int:
        """Borders leading out of the continent (Europa 8)."""
        inside = set(continent.territories)
        return sum(1 for a, b in self.borders if (a in inside) != (b in inside))

    def border_territories(self, continent: Continent) -> int:
        """Territories of the continent with at least one border outside it (Europa 4)."""
        inside = set(continent.territories)
        return sum(1 for t in continent.territories if any(n not in inside for n in self._neighbours[t]))

    def without(self, borders: Iterable[Sequence[str]]) -> Board:
        """A copy of the board with the given borders removed (referee toggle); unknown borders are refused."""
        drop: set[tuple[str, str]] = set()
        for pair in borders:
            if len(pair) != 2:
                raise RisikoError("invalid_border", list(pair))
            a, b = self.canonical(pair[0]), self.canonical(pair[1])
            key = (a, b) if a < b else (b, a)
            if key not in self.borders:
                raise RisikoError("not_a_border", [a, b])
            drop.add(key)
        if not drop:
            return self
        return Board.build(self.territories, self.continents, [list(p) for p in self.borders - drop])


@cache
def standard_board() -> Board:
    """The board of ``map.json`` (82 borders)."""
    data = load_json("map.json")
    continents = tuple(
        Continent(name=name, bonus=int(c["bonus"]), territories=tuple(c["territories"]))
        for name, c in data["continents"].items()
    )
    territories = tuple(t for c in continents for t in c.territories)
    return Board.build(territories, continents, data["adjacency"])


def board_for(disabled_borders: Iterable[Sequence[str]] = ()) -> Board:
    """The standard board minus the borders a preset or referee disables."""
    return standard_board().without(list(disabled_borders))
