"""A final situation being entered on the table's report page (issue 42): the draft several phones edit at once,
the edits they send, what is still missing or impossible, and each seat's live figures.

The draft is data (seat indices, canonical territory names, numbers); a phone's edit is an *operation* applied in
arrival order, so the last write of a territory wins. When nothing is missing, :func:`draft_document` gives the
final-situation document that ``/report situation`` reads (``parse_situation``: the one parser), with the players'
names in seating order — the page submits exactly what a JSON document typed in Discord would.

Problems are codes with the place they belong to (a seat, a territory); the page words them. Live figures follow the
engine's own functions (strips, continents, the objective's territories), so the page shows what the score will use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.rules.data import load_json
from bot.rules.risiko.board import Board
from bot.rules.risiko.config import RisikoRules
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.scoring import (
    Status,
    best_chain_strip,
    best_connected_strip,
    unverified_objective,
)
from bot.rules.risiko.situation_csv import objective_card_name

ARMIES_MAX = 999  # a territory never holds a thousand armies (the CSV's bound is looser: it reads files)
POINTS_TEXT_MAX = 16  # a typed value ("31,5", "r", "sq")
STATUSES = (Status.ACTIVE, Status.WITHDRAWN, Status.DISQUALIFIED)
OBJECTIVE_METHODS = ("objective", "boxed")  # scoring methods that need each player's objective
CARDS_MAX = 44  # the deck: 42 territory cards and 2 jolly


class DraftError(RisikoError):
    """An edit the page should never send (a territory not on the board, a seat not at the table, …)."""


@dataclass(frozen=True, slots=True)
class Held:
    """A territory as the draft holds it: the seat that owns it (an index into the seating order) and its armies."""

    seat: int
    armies: int


@dataclass(frozen=True, slots=True)
class SituationDraft:
    """What the phones entered so far. Seats are indices into the table's seating order."""

    territories: Mapping[str, Held] = field(default_factory=dict)
    objectives: Mapping[int, str] = field(default_factory=dict)
    status: Mapping[int, str] = field(default_factory=dict)
    achieved: Mapping[int, bool] = field(default_factory=dict)
    frozen: Mapping[int, bool] = field(default_factory=dict)
    cards: Mapping[int, int] = field(default_factory=dict)
    points: Mapping[int, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The draft as the page reads it (seat keys as strings, as JSON has them)."""
        return {
            "territories": {t: {"seat": h.seat, "armies": h.armies} for t, h in sorted(self.territories.items())},
            "objectives": {str(k): v for k, v in sorted(self.objectives.items())},
            "status": {str(k): v for k, v in sorted(self.status.items())},
            "achieved": {str(k): v for k, v in sorted(self.achieved.items())},
            "frozen": {str(k): v for k, v in sorted(self.frozen.items())},
            "cards": {str(k): v for k, v in sorted(self.cards.items())},
            "points": {str(k): v for k, v in sorted(self.points.items())},
        }

    @classmethod
    def from_json(cls, doc: object) -> SituationDraft:
        """A stored draft read back (:meth:`as_json`'s shape); what cannot be read is left out, never raised: a draft
        is a convenience, the submission is checked again."""
        if not isinstance(doc, Mapping):
            return cls()

        def seats(name: str, kind: type) -> dict[int, Any]:
            raw = doc.get(name)
            out: dict[int, Any] = {}
            if isinstance(raw, Mapping):
                for key, value in raw.items():
                    if isinstance(key, str) and key.isdigit() and isinstance(value, kind):
                        out[int(key)] = value
            return out

        territories: dict[str, Held] = {}
        raw = doc.get("territories")
        if isinstance(raw, Mapping):
            for name, held in raw.items():
                if isinstance(name, str) and isinstance(held, Mapping):
                    seat, armies = held.get("seat"), held.get("armies")
                    if isinstance(seat, int) and isinstance(armies, int) and not isinstance(armies, bool):
                        territories[name] = Held(seat, armies)
        return cls(territories, seats("objectives", str), seats("status", str), seats("achieved", bool),
                   seats("frozen", bool), seats("cards", int), seats("points", str))  # fmt: skip

    def status_of(self, seat: int) -> str:
        return self.status.get(seat, Status.ACTIVE)


def objective_names() -> tuple[str, ...]:
    """The tournament objective cards' names (the transcription in ``objectives-unverified.json``), in its order."""
    return tuple(load_json("objectives-unverified.json")["objectives"])


def uses_objectives(rules: RisikoRules) -> bool:
    """Whether the preset's scoring method reads each player's objective (so the page asks for it)."""
    return rules.scoring.method in OBJECTIVE_METHODS


def _seat(value: object, seats: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
        raise DraftError("seat_invalid", value)
    return value


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise DraftError("flag_invalid", value)
    return value


def _with(mapping: Mapping[Any, Any], key: Any, value: Any) -> dict[Any, Any]:
    """A copy of ``mapping`` with ``key`` set to ``value`` (dropped when ``value`` is None)."""
    out = dict(mapping)
    if value is None:
        out.pop(key, None)
    else:
        out[key] = value
    return out


def apply_edit(
    draft: SituationDraft, op: object, *, board: Board, seats: int, rules: RisikoRules | None
) -> SituationDraft:
    """The draft after one phone's edit (``{"t": "territory", "name": …, "seat": 0, "armies": 3}`` and the others
    ``docs/report-page.md`` lists). ``rules`` None: a table that reports typed values only (no map).
    Raises :class:`DraftError` for an edit the page cannot have meant; the draft is then unchanged."""
    if not isinstance(op, Mapping):
        raise DraftError("edit_invalid", type(op).__name__)
    kind = op.get("t")
    if kind == "points":
        seat = _seat(op.get("seat"), seats)
        value = op.get("value")
        if not isinstance(value, str) or len(value) > POINTS_TEXT_MAX:
            raise DraftError("points_invalid", value)
        return replace(draft, points=_with(draft.points, seat, value.strip() or None))
    if kind == "clear":
        return SituationDraft(points=draft.points) if rules is not None else SituationDraft()
    if rules is None:
        raise DraftError("map_not_used", kind)
    if kind == "territory":
        try:
            name = board.canonical(op.get("name"))  # type: ignore[arg-type]
        except RisikoError:
            raise DraftError("unknown_territory", op.get("name")) from None
        owner = op.get("seat")
        if owner is None:
            return replace(draft, territories=_with(draft.territories, name, None))
        seat = _seat(owner, seats)
        armies = op.get("armies", 1)
        if not isinstance(armies, int) or isinstance(armies, bool) or not 1 <= armies <= ARMIES_MAX:
            raise DraftError("armies_invalid", armies)
        return replace(draft, territories=_with(draft.territories, name, Held(seat, armies)))
    seat = _seat(op.get("seat"), seats)
    if kind == "objective":
        value = op.get("name")
        if value is None:
            return replace(draft, objectives=_with(draft.objectives, seat, None))
        if not uses_objectives(rules):
            raise DraftError("objectives_not_used", value)
        found = objective_card_name(value)
        if found is None:
            raise DraftError("unknown_objective", value)
        return replace(draft, objectives=_with(draft.objectives, seat, found))
    if kind == "status":
        value = op.get("status")
        if value not in STATUSES:
            raise DraftError("status_invalid", value)
        return replace(draft, status=_with(draft.status, seat, None if value == Status.ACTIVE else value))
    if kind == "achieved":
        return replace(draft, achieved=_with(draft.achieved, seat, _flag(op.get("value")) or None))
    if kind == "frozen":
        return replace(draft, frozen=_with(draft.frozen, seat, _flag(op.get("value")) or None))
    if kind == "cards":
        value = op.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= CARDS_MAX:
            raise DraftError("cards_invalid", value)
        return replace(draft, cards=_with(draft.cards, seat, value or None))
    raise DraftError("edit_invalid", kind)


# -- what is missing or impossible -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """Something the situation cannot be submitted with: ``code``, and where (a seat, a territory) with numbers."""

    code: str  # missing, over_limit, objective_missing, objective_taken, nothing_held
    seat: int | None = None
    territory: str | None = None
    number: int | None = None
    other: int | None = None  # objective_taken: the other seat; over_limit: the limit


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """One seat's live figures on the report page: territories and armies against the army limit, whole continents,
    the strip FIRK doubles, and how many of its objective's territories it holds."""

    seat: int
    territories: int
    armies: int
    limit: int | None
    continents: tuple[str, ...]
    strip: tuple[str, ...]
    objective: str | None
    objective_held: int
    objective_total: int

    @property
    def over_limit(self) -> bool:
        return self.limit is not None and self.armies > self.limit


def seat_figures(draft: SituationDraft, seats: int, rules: RisikoRules) -> tuple[SeatFigures, ...]:
    """Each seat's territories, armies (against the army limit), whole continents, doubled strip (FIRK) and how
    many of its objective's territories it holds — the engine's own functions on the draft as it stands."""
    board = rules.board
    limit = rules.limits.army_limit or None
    owned: dict[int, dict[str, int]] = {s: {} for s in range(seats)}
    for name, held in draft.territories.items():
        owned.setdefault(held.seat, {})[name] = held.armies
    out = []
    firk = rules.scoring.method == "firk"
    for seat in range(seats):
        mine = owned.get(seat, {})
        names = sorted(mine)
        strip: tuple[str, ...] = ()
        if firk and names and not draft.frozen.get(seat):
            find = best_connected_strip if rules.scoring.strip == "connected" else best_chain_strip
            strip = find(names, board, rules.scoring.strip_min_territories)
        continents = tuple(c.name for c in board.continents if set(c.territories) <= set(mine))
        objective = draft.objectives.get(seat)
        target = unverified_objective(objective, board) if objective is not None else ()
        out.append(
            SeatFigures(
                seat=seat,
                territories=len(mine),
                armies=sum(mine.values()),
                limit=limit,
                continents=continents,
                strip=strip,
                objective=objective,
                objective_held=sum(1 for t in target if t in mine),
                objective_total=len(target),
            )
        )
    return tuple(out)


def draft_problems(
    draft: SituationDraft, seats: int, rules: RisikoRules, figures: Sequence[SeatFigures] = ()
) -> tuple[Problem, ...]:
    """What stops the situation from being submitted, in the page's order: territories without an owner, then each
    seat's problems. An objective is the player's own card: two players cannot hold the same one."""
    board = rules.board
    figures = figures or seat_figures(draft, seats, rules)
    out: list[Problem] = []
    missing = [t for t in board.territories if t not in draft.territories]
    if missing:
        out.append(Problem("missing", number=len(missing)))
    need_objective = uses_objectives(rules)
    first_with: dict[str, int] = {}
    for f in figures:
        in_play = draft.status_of(f.seat) == Status.ACTIVE
        if f.over_limit and in_play:
            out.append(Problem("over_limit", seat=f.seat, number=f.armies, other=f.limit))
        if need_objective and f.objective is None and in_play:
            out.append(Problem("objective_missing", seat=f.seat))
        if f.objective is not None:
            if f.objective in first_with:
                out.append(Problem("objective_taken", seat=f.seat, other=first_with[f.objective]))
            else:
                first_with[f.objective] = f.seat
    return tuple(out)


def draft_document(draft: SituationDraft, names: Sequence[str], rules: RisikoRules) -> dict[str, Any]:
    """The final-situation document of the draft, players in seating order under their names (what
    ``/report situation`` reads; the scoring refuses what is still missing)."""
    players = []
    for seat, name in enumerate(names):
        player: dict[str, Any] = {
            "name": name,
            "territories": {t: h.armies for t, h in sorted(draft.territories.items()) if h.seat == seat},
        }
        if seat in draft.objectives:
            player["objective"] = draft.objectives[seat]
        if draft.cards.get(seat):
            player["cards"] = draft.cards[seat]
        if draft.achieved.get(seat) and uses_objectives(rules):
            player["achieved_objective"] = True
        if draft.frozen.get(seat) and rules.scoring.method == "firk":
            player["frozen_in_supplementary"] = True
        status = draft.status_of(seat)
        if status != Status.ACTIVE:
            player["status"] = status
        players.append(player)
    return {"players": players}


def typed_values(draft: SituationDraft, registrations: Sequence[int]) -> dict[int, str]:
    """The typed table points (or tokens) per registration id, as ``/report`` takes them."""
    return {rid: draft.points.get(seat, "") for seat, rid in enumerate(registrations)}


def draft_from_situation(doc: object, names: Sequence[str], board: Board) -> SituationDraft:
    """The draft of a final situation already entered (``/report situation``): the page opens on what the report
    holds. Players are matched to seats by name (any case); what cannot be read is left out."""
    if not isinstance(doc, Mapping) or not isinstance(doc.get("players"), list):
        return SituationDraft()
    seat_of = {name.casefold(): seat for seat, name in enumerate(names)}
    territories: dict[str, Held] = {}
    objectives: dict[int, str] = {}
    status: dict[int, str] = {}
    achieved: dict[int, bool] = {}
    frozen: dict[int, bool] = {}
    cards: dict[int, int] = {}
    for player in doc["players"]:
        if not isinstance(player, Mapping) or not isinstance(player.get("name"), str):
            continue
        seat = seat_of.get(player["name"].strip().casefold())
        if seat is None:
            continue
        held = player.get("territories")
        if isinstance(held, list):
            held = dict.fromkeys(held, 1)
        for name, armies in held.items() if isinstance(held, Mapping) else ():
            try:
                canonical = board.canonical(name)
            except RisikoError:
                continue
            if isinstance(armies, int) and not isinstance(armies, bool) and 1 <= armies <= ARMIES_MAX:
                territories[canonical] = Held(seat, armies)
        objective = player.get("objective")
        found = objective_card_name(objective) if isinstance(objective, str) else None
        if found is not None:
            objectives[seat] = found
        if player.get("status") in (Status.WITHDRAWN, Status.DISQUALIFIED):
            status[seat] = player["status"]
        if player.get("achieved_objective") is True:
            achieved[seat] = True
        if player.get("frozen_in_supplementary") is True:
            frozen[seat] = True
        if isinstance(player.get("cards"), int) and 0 < player["cards"] <= CARDS_MAX:
            cards[seat] = player["cards"]
    return SituationDraft(territories, objectives, status, achieved, frozen, cards)
