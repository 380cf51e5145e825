"""Table scoring from a final situation (NP-SCORE-1..3, NP-METHOD-1, FIRK-SCORE-1, FIRK-RISIKO-1,
FIRK-FREEZE-1, FIRK-TIE-1) with the preset's tie-break chain. The result explains itself.

Methods (preset ``scoring.method``):

* ``objective`` (NP punteggio finale): value of the owned territories in the player's objective; a player who
  achieved the objective before time scores the fixed ``objective_achieved_points`` (100).
* ``boxed`` (boxed tournament rules, methods 1/2 and the +1 per army of method 3).
* ``firk`` (FIRK §15-18): every owned territory is worth its border count; the most valuable strip of contiguous
  owned territories counts twice (reading ``strip``: ``connected`` group, default, or ``chain`` = simple path,
  found exactly by a bounded depth-first search); each conquered continent adds its territories + its external
  borders (reading ``continent_external``: border ``links``, default, Europa 8, or border ``territories``,
  Europa 4); reaching the table-size threshold (180/160/150 for 3/4/5 players) gives 200. A player frozen during
  the supplementary turns loses the strip doubling (FIRK §25).

Withdrawn and disqualified players score 0 (their territories are neutral, ARB art. 25) and rank below everyone
still in play, withdrawn above disqualified. Ties run through the preset's ``tiebreaks``; ``dice_roll`` uses the
given dice or an injected ``random.Random``, otherwise the tie stays with the code ``dice_roll_needed``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.rules.data import load_json
from bot.rules.outcomes import PlacesError, table_places
from bot.rules.risiko.board import Board
from bot.rules.risiko.config import RisikoRules, ScoringRules
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.situation_csv import SITUATION_CSV_MAX_ROWS as SITUATION_CSV_MAX_ROWS  # re-exported
from bot.rules.risiko.situation_csv import objective_card_name
from bot.rules.risiko.situation_csv import situation_from_csv as situation_from_csv  # re-exported


class Status(StrEnum):
    """A player's status in the final situation: in play (``active``, or ``frozen`` under FIRK-FREEZE-1) or out of it
    (``withdrawn``, ``disqualified``: 0 points, ranked below everyone in play)."""

    ACTIVE = "active"
    FROZEN = "frozen"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True, slots=True)
class PlayerSituation:
    """One player's final situation. ``territories`` maps canonical territory -> armies."""

    name: str
    territories: Mapping[str, int]
    cards: int = 0
    objective: tuple[str, ...] | None = None
    objective_source: str = "explicit"  # or "unverified_card:<name>"
    achieved_objective: bool = False
    status: Status = Status.ACTIVE
    frozen_in_supplementary: bool = False

    def serialise(self) -> dict[str, Any]:
        """JSON notation (inverse of ``parse_player``)."""
        return _serialise_player(self)


PLAYER_FIELDS = ("name", "territories", "cards", "objective", "achieved_objective", "status", "frozen_in_supplementary")


def _serialise_player(p: PlayerSituation) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "territories": dict(p.territories), "cards": p.cards}
    if p.objective is not None:
        out["objective"] = (
            p.objective_source.split(":", 1)[1]
            if p.objective_source.startswith("unverified_card:")
            else list(p.objective)
        )
    out.update(achieved_objective=p.achieved_objective, status=p.status.value)
    if p.frozen_in_supplementary:
        out["frozen_in_supplementary"] = True
    return out


def parse_player(obj: object, board: Board) -> PlayerSituation:
    """A player's final situation from its JSON notation (the ``steward risiko score`` player object).

    ``objective`` is a list of territories or the NAME of a tournament objective card (then read from the
    unverified transcription and marked ``unverified_card:<name>``). Aliases are accepted and canonicalised.
    """
    if not isinstance(obj, Mapping):
        raise RisikoError("player_not_an_object", obj)
    extra = sorted(set(obj) - set(PLAYER_FIELDS))
    if extra:
        raise RisikoError("player_field_unknown", extra[0])
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        raise RisikoError("player_name_invalid", name)
    raw = obj.get("territories")
    if isinstance(raw, list) and all(isinstance(t, str) for t in raw):  # a plain list: one army on each
        raw = dict.fromkeys(raw, 1)
    if not isinstance(raw, Mapping):
        raise RisikoError("territories_not_an_object", raw)
    territories: dict[str, int] = {}
    for t, armies in raw.items():
        canonical = board.canonical(t)
        if not isinstance(armies, int) or isinstance(armies, bool):
            raise RisikoError("armies_not_an_integer", f"{t}={armies!r}")
        if armies < 0:
            raise RisikoError("negative_armies", f"{t}={armies}")
        if canonical in territories:
            raise RisikoError("territory_owned_twice", canonical)
        territories[canonical] = armies
    objective: tuple[str, ...] | None = None
    source = "explicit"
    raw_obj = obj.get("objective")
    if isinstance(raw_obj, str):
        objective = unverified_objective(raw_obj, board)
        source = f"unverified_card:{raw_obj}"
    elif isinstance(raw_obj, list):
        objective = tuple(board.canonical(t) for t in raw_obj)
    elif raw_obj is not None:
        raise RisikoError("objective_invalid", raw_obj)
    try:
        status = Status(obj.get("status", "active"))
    except ValueError:
        raise RisikoError("status_invalid", obj.get("status")) from None
    cards = obj.get("cards", 0)
    if not isinstance(cards, int) or isinstance(cards, bool):
        raise RisikoError("cards_not_an_integer", cards)
    if cards < 0:
        raise RisikoError("negative_cards", cards)
    achieved = obj.get("achieved_objective", False)
    frozen_supp = obj.get("frozen_in_supplementary", False)
    if not isinstance(achieved, bool):
        raise RisikoError("achieved_objective_not_a_boolean", achieved)
    if not isinstance(frozen_supp, bool):
        raise RisikoError("frozen_in_supplementary_not_a_boolean", frozen_supp)
    return PlayerSituation(name, territories, cards, objective, source, achieved, status, frozen_supp)


SITUATION_FIELDS = ("players", "dice", "seed")


@dataclass(frozen=True, slots=True)
class TableSituation:
    """A table's final situation document (docs/risiko.md, "The final situation"): players, optional dice for a
    last tie (player name → die) and seed."""

    players: tuple[PlayerSituation, ...]
    dice: Mapping[str, int] | None = None
    seed: int | None = None


def parse_situation(doc: object, board: Board, *, also_allowed: Sequence[str] = ()) -> TableSituation:
    """The one parser of the final-situation document, for ``steward risiko score`` and ``/report situation``.

    ``{"players": [player, ...], "dice"?: {name: die}, "seed"?: int}``; each player as :func:`parse_player`
    (``territories`` an object territory → armies, or a plain list of territories with one army each). Unknown
    fields are refused (``also_allowed`` names the caller's own keys, e.g. ``preset``)."""
    if not isinstance(doc, Mapping):
        raise RisikoError("situation_not_an_object", type(doc).__name__)
    extra = sorted(set(doc) - set(SITUATION_FIELDS) - set(also_allowed))
    if extra:
        raise RisikoError("situation_field_unknown", extra[0])
    raw_players = doc.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        raise RisikoError("players_not_a_list", raw_players)
    players = tuple(parse_player(p, board) for p in raw_players)
    names = [p.name for p in players]
    if len({n.casefold() for n in names}) != len(names):
        raise RisikoError("player_twice", names)
    dice = doc.get("dice")
    if dice is not None and (
        not isinstance(dice, Mapping) or not all(isinstance(v, int) and not isinstance(v, bool) for v in dice.values())
    ):
        raise RisikoError("dice_invalid", dice)
    seed = doc.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RisikoError("seed_not_an_integer", seed)
    return TableSituation(players, dict(dice) if dice else None, seed)


def unverified_objective(name: str, board: Board) -> tuple[str, ...]:
    """Territories of a tournament objective card by name (any case, accents optional), from
    objectives-unverified.json (UNVERIFIED data)."""
    card = objective_card_name(name)
    if card is None:
        raise RisikoError("unknown_objective", name)
    territories = load_json("objectives-unverified.json")["objectives"][card]["territories"]
    return tuple(board.canonical(t) for t in territories)


def validate_table(players: Sequence[PlayerSituation], board: Board) -> None:
    """Names unique, each territory owned once, armies positive, cards not negative."""
    if not players:
        raise RisikoError("no_players", [])
    seen: set[str] = set()
    for p in players:
        if p.name in seen:
            raise RisikoError("player_listed_twice", p.name)
        seen.add(p.name)
    owner: dict[str, str] = {}
    for p in players:
        if p.cards < 0:
            raise RisikoError("negative_cards", p.cards)
        for territory, armies in p.territories.items():
            canonical = board.canonical(territory)
            if canonical in owner:
                raise RisikoError("territory_owned_twice", canonical)
            owner[canonical] = p.name
            if armies < 0:
                raise RisikoError("negative_armies", armies)
            if armies == 0:
                raise RisikoError("territory_without_armies", canonical)


# -- strips (FIRK §16) ------------------------------------------------------------------------------------------
def components(owned: Sequence[str], board: Board) -> list[tuple[str, ...]]:
    """Connected groups of owned territories (borders between two owned territories)."""
    left = set(owned)
    out: list[tuple[str, ...]] = []
    for start in owned:
        if start not in left:
            continue
        group = [start]
        left.discard(start)
        i = 0
        while i < len(group):
            for n in board.neighbours(group[i]):
                if n in left:
                    left.discard(n)
                    group.append(n)
            i += 1
        out.append(tuple(sorted(group)))
    return out


def best_connected_strip(owned: Sequence[str], board: Board, min_size: int) -> tuple[str, ...]:
    """The most valuable connected group with at least ``min_size`` territories (ties: alphabetical first)."""
    best: tuple[str, ...] = ()
    best_value = -1
    for group in sorted(components(owned, board)):
        if len(group) < min_size:
            continue
        value = sum(board.degree(t) for t in group)
        if value > best_value:
            best, best_value = group, value
    return best


def _blocks(nodes: set[str], adj: Mapping[str, Sequence[str]]) -> list[frozenset[str]]:
    """Biconnected blocks (node sets) of the subgraph induced by ``nodes`` (Hopcroft-Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    edges: list[tuple[str, str]] = []
    out: list[frozenset[str]] = []

    def visit(u: str, parent: str | None) -> None:
        index[u] = low[u] = len(index)
        for w in adj[u]:
            if w not in nodes or w == parent:
                continue
            if w not in index:
                edges.append((u, w))
                visit(w, u)
                low[u] = min(low[u], low[w])
                if low[w] >= index[u]:
                    block: set[str] = set()
                    while True:
                        a, b = edges.pop()
                        block.update((a, b))
                        if (a, b) == (u, w):
                            break
                    out.append(frozenset(block))
            elif index[w] < index[u]:
                edges.append((u, w))
                low[u] = min(low[u], index[w])

    for start in sorted(nodes):
        if start not in index:
            visit(start, None)
    return out


class _ChainSearch:
    """Exact longest-weighted simple path over the owned territories (branch and bound)."""

    def __init__(self, value: Mapping[str, int], adj: Mapping[str, Sequence[str]], min_size: int) -> None:
        self.value = value
        self.adj = adj
        self.min_size = min_size
        self.best: list[str] = []
        self.best_value = -1
        self.path: list[str] = []
        self.visited: set[str] = set()
        self.target = 0

    def reachable_value(self) -> int:
        """Upper bound on what the path can still add from its end (block-cut tree bound).

        Take the unvisited territories reachable from the end plus the end, split them into biconnected blocks:
        a simple path leaving the end crosses blocks along one path of the block-cut tree, taking at most every
        territory of each block it crosses. The bound is the best such chain of blocks.
        """
        end = self.path[-1]
        nodes = {end}
        stack = [end]
        while stack:
            for n in self.adj[stack.pop()]:
                if n not in nodes and n not in self.visited:
                    nodes.add(n)
                    stack.append(n)
        if len(nodes) == 1:
            return 0
        blocks = _blocks(nodes, self.adj)
        member: dict[str, list[int]] = {}
        for i, block in enumerate(blocks):
            for t in block:
                member.setdefault(t, []).append(i)

        def gain(i: int, entry: str) -> int:
            block = blocks[i]
            best_next = 0
            for t in block:
                if t != entry and len(member[t]) > 1:
                    for j in member[t]:
                        if j != i:
                            best_next = max(best_next, gain(j, t))
            return sum(self.value[t] for t in block if t != entry) + best_next

        return max(gain(i, end) for i in member[end])

    def dfs(self, current: int) -> bool:
        """Extend the path; True when a path covering the whole component was found (nothing can beat it)."""
        if len(self.path) >= self.min_size and current > self.best_value:
            self.best, self.best_value = list(self.path), current
            if current == self.target:
                return True
        if current + self.reachable_value() <= self.best_value:
            return False
        # Warnsdorff order: the neighbour with the fewest onward options first finds long paths early.
        options = [n for n in self.adj[self.path[-1]] if n not in self.visited]
        options.sort(key=lambda n: (sum(1 for m in self.adj[n] if m not in self.visited), -self.value[n], n))
        for n in options:
            self.visited.add(n)
            self.path.append(n)
            done = self.dfs(current + self.value[n])
            self.path.pop()
            self.visited.discard(n)
            if done:
                return True
        return False

    def search(self, group: Sequence[str]) -> None:
        self.target = sum(self.value[t] for t in group)
        if len(group) < self.min_size or self.target <= self.best_value:
            return
        for start in sorted(group, key=lambda t: (len(self.adj[t]), -self.value[t], t)):
            self.path, self.visited = [start], {start}
            if self.dfs(self.value[start]):
                return


def best_chain_strip(owned: Sequence[str], board: Board, min_size: int) -> tuple[str, ...]:
    """The most valuable simple path of owned territories (exact: depth-first search with an upper bound).

    Bound: value so far + value of every unvisited owned territory still reachable from the path's end; a branch
    that cannot beat the best is cut, and a component's search stops when a path takes the whole component.
    """
    mine = set(owned)
    value = {t: board.degree(t) for t in mine}
    adj = {t: sorted(n for n in board.neighbours(t) if n in mine) for t in mine}
    search = _ChainSearch(value, adj, min_size)
    for group in sorted(components(owned, board), key=lambda g: -sum(value[t] for t in g)):
        search.search(group)
    return tuple(search.best)


# -- results ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TerritoryScore:
    """One territory of a player's score: its armies, its value (the border count), whether the method counted it and
    whether the strip doubled it."""

    territory: str
    armies: int
    value: int
    counted: bool
    doubled: bool


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's table points and how they were made (the explanation :meth:`serialise` writes), the place at the
    table and what decided it; ``unresolved`` names a tie the preset's chain could not break."""

    name: str
    status: Status
    table_points: int
    territories: tuple[TerritoryScore, ...]
    base_points: int
    strip: tuple[str, ...]
    strip_points: int
    continents: tuple[tuple[str, int], ...]
    army_points: int
    achieved_objective: bool
    risiko: bool
    objective_source: str | None
    freeze_condition: bool
    tiebreak_values: tuple[tuple[str, int], ...]
    rank: int = 0
    decided_by: str | None = None  # "points", a tie-break name, or "status"
    unresolved: str | None = None  # "dice_roll_needed" / "tie_unresolved"

    def serialise(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "table_points": self.table_points,
            "rank": self.rank,
            "status": self.status.value,
            "decided_by": self.decided_by,
            "unresolved": self.unresolved,
            "explanation": {
                "base_points": self.base_points,
                "strip": list(self.strip),
                "strip_points": self.strip_points,
                "continents": [{"continent": c, "points": v} for c, v in self.continents],
                "army_points": self.army_points,
                "achieved_objective": self.achieved_objective,
                "risiko": self.risiko,
                "objective_source": self.objective_source,
                "freeze_condition": self.freeze_condition,
                "tiebreak_values": dict(self.tiebreak_values),
                "territories": [
                    {
                        "territory": t.territory,
                        "armies": t.armies,
                        "value": t.value,
                        "counted": t.counted,
                        "doubled": t.doubled,
                    }
                    for t in self.territories
                ],
            },
        }


@dataclass(frozen=True, slots=True)
class TableScore:
    """A table scored by the preset's ``method``, players in input order; :attr:`order` lists them by place."""

    players: tuple[PlayerScore, ...]  # input order
    method: str

    @property
    def order(self) -> list[str]:
        return [p.name for p in sorted(self.players, key=lambda p: (p.rank, p.name))]

    @property
    def table_points_in_order(self) -> list[int]:
        return [p.table_points for p in sorted(self.players, key=lambda p: (p.rank, p.name))]

    @property
    def ranks_in_order(self) -> list[int]:
        """The places of :attr:`order` (a shared place repeats: players out of the game of one tier)."""
        return sorted(p.rank for p in self.players)


def freeze_condition(territories: Mapping[str, int], rules: ScoringRules) -> bool:
    """FIRK-FREEZE-1: at least ``freeze_min_territories`` territories holding 1..``freeze_max_armies`` armies."""
    if not rules.freeze_min_territories:
        return False
    weak = sum(1 for a in territories.values() if 1 <= a <= rules.freeze_max_armies)
    return weak >= rules.freeze_min_territories


def apply_freeze(territories: Mapping[str, int], rules: ScoringRules) -> dict[str, int]:
    """FIRK-FREEZE-1 (FIRK §25): a frozen player's weak territories (1..``freeze_max_armies``) get
    ``freeze_armies`` each; they only defend from then on. Other territories keep their armies."""
    return {t: (rules.freeze_armies if 1 <= a <= rules.freeze_max_armies else a) for t, a in territories.items()}


def _score_player(p: PlayerSituation, rules: RisikoRules, table_size: int) -> PlayerScore:
    s = rules.scoring
    board = rules.board
    terr = {board.canonical(t): a for t, a in p.territories.items()}
    objective = set(p.objective or ())
    in_play = p.status in (Status.ACTIVE, Status.FROZEN)
    tiebreak_values = (
        ("outside_objective_value", sum(board.degree(t) for t in terr if t not in objective)),
        ("objective_armies", sum(a for t, a in terr.items() if t in objective)),
        ("all_armies", sum(terr.values())),
        ("territories", len(terr)),
        ("armies_plus_cards", sum(terr.values()) + s.card_army_value * p.cards),
    )
    counted: set[str] = set()
    strip: tuple[str, ...] = ()
    strip_points = 0
    continents: list[tuple[str, int]] = []
    army_points = 0
    base = 0
    risiko = False
    achieved = p.achieved_objective
    if s.method in ("objective", "boxed") and p.objective is None and in_play:  # out of the game, it scores 0
        raise RisikoError("objective_missing", p.name)
    if s.method == "objective":
        counted = set(terr) & objective
        base = sum(board.degree(t) for t in counted)
        total = s.objective_achieved_points if achieved else base
        risiko = achieved
    elif s.method == "boxed":
        if s.boxed_method == 1:
            counted = set(terr)
            base = sum(board.degree(t) for t in counted) + (s.boxed_achieved_bonus if achieved else 0)
        else:
            counted = set(terr) if achieved else set(terr) & objective
            base = sum(board.degree(t) for t in counted)
        if s.boxed_add_armies:
            army_points = sum(terr[t] for t in counted)
        total = base + army_points
    else:  # firk
        counted = set(terr)
        base = sum(board.degree(t) for t in counted)
        owned = sorted(terr)
        if not p.frozen_in_supplementary:
            if s.strip == "connected":
                strip = best_connected_strip(owned, board, s.strip_min_territories)
            else:
                strip = best_chain_strip(owned, board, s.strip_min_territories)
            strip_points = sum(board.degree(t) for t in strip)
        for c in board.continents:
            if set(c.territories) <= counted:
                external = (
                    board.external_border_links(c) if s.continent_external == "links" else board.border_territories(c)
                )
                continents.append((c.name, len(c.territories) + external))
        total = base + strip_points + sum(v for _, v in continents)
        threshold = s.risiko_threshold(table_size)
        if threshold is not None and total >= threshold and p.status is Status.ACTIVE:
            risiko = True
            total = s.risiko_points
    if not in_play:
        total = 0
    strip_set = set(strip)
    scores = tuple(TerritoryScore(t, terr[t], board.degree(t), t in counted, t in strip_set) for t in sorted(terr))
    return PlayerScore(
        name=p.name,
        status=p.status,
        table_points=total,
        territories=scores,
        base_points=base,
        strip=strip,
        strip_points=strip_points,
        continents=tuple(continents),
        army_points=army_points,
        achieved_objective=achieved,
        risiko=risiko,
        objective_source=p.objective_source if p.objective is not None else None,
        freeze_condition=freeze_condition(terr, s) if s.method == "firk" else False,
        tiebreak_values=tiebreak_values,
    )


def score_table(
    players: Sequence[PlayerSituation],
    rules: RisikoRules,
    *,
    dice: Mapping[str, int] | None = None,
    rng: random.Random | None = None,
    penalties: Mapping[str, int] | None = None,
) -> TableScore:
    """Score and rank one table. ``dice`` (player -> die) or ``rng`` settle a final ``dice_roll`` tie-break;
    ``penalties`` (player -> table points) are taken off before the table is ranked (ARB art. 13, RK-SAN-1)."""
    board = rules.board
    validate_table(players, board)
    if dice:
        for name, die in dice.items():
            if name not in {p.name for p in players}:
                raise RisikoError("unknown_player", name)
            if not isinstance(die, int) or not 1 <= die <= 6:
                raise RisikoError("die_invalid", die)
    scored = [_score_player(p, rules, len(players)) for p in players]
    if penalties:
        for name, taken in penalties.items():
            if name not in {p.name for p in players} or taken < 0:
                raise RisikoError("bad_penalty", f"{name}: {taken}")
        scored = [_with_penalty(x, penalties.get(x.name, 0)) for x in scored]
    in_play = [x for x in scored if x.status in (Status.ACTIVE, Status.FROZEN)]
    out = [x for x in scored if x.status not in (Status.ACTIVE, Status.FROZEN)]
    ranked: dict[str, PlayerScore] = {}
    position = 1
    # In play: by points, then the tie-break chain.
    groups: dict[int, list[PlayerScore]] = {}
    for x in in_play:
        groups.setdefault(x.table_points, []).append(x)
    for points in sorted(groups, reverse=True):
        group = sorted(groups[points], key=lambda x: x.name)
        for sub, decided, unresolved in _break(
            group, rules.scoring.tiebreaks, dice, rng, "points" if len(group) == 1 else None
        ):
            for x in sub:
                ranked[x.name] = _with(x, position, decided if len(sub) == 1 else None, unresolved)
            position += len(sub)
    # Out of play: below everyone in play in the preset's tiers, each tier sharing one place — not a tie waiting to
    # be broken (ARB art. 23 and 25, the one rule: bot.rules.outcomes.table_places).
    try:
        places = table_places(
            [(x.name, x.status.value, ranked[x.name].rank if x.name in ranked else None) for x in scored],
            disqualified_below_withdrawn=rules.scoring.disqualified_below_withdrawn,
        )
    except PlacesError as exc:
        raise RisikoError(exc.code, exc.value) from None
    for x in out:
        ranked[x.name] = _with(x, places[x.name], "status", None)
    return TableScore(tuple(ranked[x.name] for x in scored), rules.scoring.method)


def _with_penalty(x: PlayerScore, taken: int) -> PlayerScore:
    from dataclasses import replace

    return replace(x, table_points=max(0, x.table_points - taken)) if taken else x


def _with(x: PlayerScore, rank: int, decided: str | None, unresolved: str | None) -> PlayerScore:
    from dataclasses import replace

    return replace(x, rank=rank, decided_by=decided, unresolved=unresolved)


def _break(
    group: list[PlayerScore],
    chain: Sequence[str],
    dice: Mapping[str, int] | None,
    rng: random.Random | None,
    decided: str | None,
) -> list[tuple[list[PlayerScore], str | None, str | None]]:
    """Split a tied group into ordered subgroups: (players, criterion that isolated them, unresolved code)."""
    if len(group) == 1:
        return [(group, decided, None)]
    if not chain:
        return [(group, None, "tie_unresolved")]
    criterion, rest = chain[0], chain[1:]
    if criterion == "dice_roll":
        return _dice_break(group, dice, rng)
    values = {x.name: dict(x.tiebreak_values)[criterion] for x in group}
    out: list[tuple[list[PlayerScore], str | None, str | None]] = []
    for v in sorted(set(values.values()), reverse=True):
        sub = [x for x in group if values[x.name] == v]
        out.extend(_break(sub, rest, dice, rng, criterion))
    return out


def _dice_break(
    group: list[PlayerScore], dice: Mapping[str, int] | None, rng: random.Random | None
) -> list[tuple[list[PlayerScore], str | None, str | None]]:
    if dice and all(x.name in dice for x in group):
        rolls = {x.name: dice[x.name] for x in group}
        out: list[tuple[list[PlayerScore], str | None, str | None]] = []
        for v in sorted(set(rolls.values()), reverse=True):
            sub = [x for x in group if rolls[x.name] == v]
            out.append((sub, "dice_roll", None if len(sub) == 1 else "dice_roll_needed"))
        return out
    if rng is None:
        return [(group, None, "dice_roll_needed")]
    # Roll until everyone in the group is separated; ties re-roll among themselves.
    rolled = {x.name: rng.randint(1, 6) for x in group}
    out = []
    for v in sorted(set(rolled.values()), reverse=True):
        sub = [x for x in group if rolled[x.name] == v]
        out.extend(_dice_break(sub, None, rng) if len(sub) > 1 else [(sub, "dice_roll", None)])
    return out


@dataclass(frozen=True, slots=True)
class ScoredSituation:
    """A final situation scored: the situation read, the ranked table and the tournament points in rank order (None
    while a tie waits for its dice roll)."""

    situation: TableSituation
    table: TableScore
    tournament_points: tuple[Any, ...] | None


def score_situation(doc: object, rules: RisikoRules, *, also_allowed: Sequence[str] = ()) -> ScoredSituation:
    """The one scoring of a final-situation document, for ``steward risiko score`` and the bot's ``/risiko score``:
    parse it, rank the table (a ``seed`` settles a dice tie-break reproducibly) and convert to tournament points."""
    from bot.rules.risiko.points import tournament_points_for_places

    situation = parse_situation(doc, rules.board, also_allowed=also_allowed)
    rng = random.Random(situation.seed) if situation.seed is not None else None
    table = score_table(list(situation.players), rules, dice=situation.dice, rng=rng)
    points: tuple[Any, ...] | None = None
    if not any(p.unresolved for p in table.players):  # an open tie must be settled before points are given
        try:  # a shared place (players out of the game) shares its points
            points = tuple(
                tournament_points_for_places(rules.points, table.table_points_in_order, table.ranks_in_order)
            )
        except RisikoError:
            points = None
    return ScoredSituation(situation, table, points)


SITUATION_TEXT_MAX = 200_000


def situation_document(text: str) -> object:
    """A final situation as typed or attached: the JSON document, or a ``territory;owner;armies[;objective[;status
    [;achieved]]]`` CSV (:mod:`bot.rules.risiko.situation_csv`)."""
    from bot.rules.jsondoc import loads_bounded

    body = text.lstrip("\ufeff \r\n\t")
    if body.startswith(("{", "[")):
        return loads_bounded(body, max_chars=SITUATION_TEXT_MAX)
    return situation_from_csv(body[:SITUATION_TEXT_MAX])
