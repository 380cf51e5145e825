"""The JSON columns' documents: one typed value per column with its ``from_json`` / ``to_json`` pair.

The services read and write these instead of string keys. Each ``from_json`` reads every document the column has
ever held (absent keys take their defaults), and ``to_json`` writes the same shape, so stored rows need no migration.

- ``Round.draw_report`` → ``DrawDocument`` (a qualifying draw, the semifinals or the final)
- ``GameTable.final_situation`` → ``TableSituation`` (what was entered, by which path)
- ``TableResult.tiebreak`` → ``TieBreakNote`` (what decided a player's place at the table)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _ints(values: Sequence[Any] | None) -> tuple[int, ...]:
    return tuple(int(x) for x in values or ())


@dataclass(frozen=True, slots=True)
class EngineReport:
    """The draw engine's report (``bot.rules.tournament`` ``DrawReport.to_json``): criteria in priority order, their
    values and lower bounds, the optimality verdict and the engine's notes; other keys ride along unchanged."""

    kind: str = ""
    criteria_order: tuple[str, ...] = ()
    criteria: Mapping[str, int] = field(default_factory=dict)
    lower_bound: Mapping[str, int] = field(default_factory=dict)
    optimality: str = ""
    notes: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    KEYS = ("kind", "criteria_order", "criteria", "lower_bound", "optimality", "notes")

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> EngineReport:
        data = data or {}
        criteria = {str(k): int(v) for k, v in (data.get("criteria") or {}).items()}
        return cls(
            kind=str(data.get("kind", "")),
            criteria_order=tuple(str(c) for c in data.get("criteria_order") or criteria),
            criteria=criteria,
            lower_bound={str(k): int(v) for k, v in (data.get("lower_bound") or {}).items()},
            optimality=str(data.get("optimality", "")),
            notes=tuple(str(n) for n in data.get("notes") or ()),
            extra={k: v for k, v in data.items() if k not in cls.KEYS},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            **self.extra,
            "kind": self.kind,
            "criteria_order": list(self.criteria_order),
            "criteria": dict(self.criteria),
            "lower_bound": dict(self.lower_bound),
            "optimality": self.optimality,
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A hand change after the draw: a swap of two players or a move to a table, with its cost."""

    kind: str  # swap | move
    players: tuple[int, ...]
    to_table: int | None
    before: Mapping[str, int]
    after: Mapping[str, int]
    by: int

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Adjustment:
        return cls(
            kind=str(data["kind"]),
            players=_ints(data.get("players")),
            to_table=_int_or_none(data.get("to_table")),
            before={str(k): int(v) for k, v in (data.get("before") or {}).items()},
            after={str(k): int(v) for k, v in (data.get("after") or {}).items()},
            by=int(data.get("by", 0)),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "players": list(self.players),
            "to_table": self.to_table,
            "before": dict(self.before),
            "after": dict(self.after),
            "by": self.by,
        }


@dataclass(frozen=True, slots=True)
class FinalSeatRecord:
    """A seat of the final: who, why (``source``: semifinal place, direct, replacement) and from where."""

    player: int
    source: str
    semifinal_table: int | None = None
    semifinal_place: int | None = None
    replaces_table: int | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FinalSeatRecord:
        return cls(
            player=int(data["player"]),
            source=str(data["source"]),
            semifinal_table=_int_or_none(data.get("semifinal_table")),
            semifinal_place=_int_or_none(data.get("semifinal_place")),
            replaces_table=_int_or_none(data.get("replaces_table")),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "source": self.source,
            "semifinal_table": self.semifinal_table,
            "semifinal_place": self.semifinal_place,
            "replaces_table": self.replaces_table,
        }


@dataclass(frozen=True, slots=True)
class FinalsGroup:
    """One group of the final phase (``all``, or ``odd`` / ``even`` at 100+ players, TOUR-SF-2).

    Semifinals: its table numbers, the direct finalist (three tables), the bands and the same-club pairs after and
    before the shuffle. Final: its table, the semifinal tables it comes from, its seats and the places left empty.
    """

    label: str = "all"
    tables: tuple[int, ...] = ()
    direct_finalist: int | None = None
    bands: tuple[tuple[int, ...], ...] = ()
    club_pairs: int = 0
    club_pairs_plain: int = 0
    semifinal_tables: tuple[int, ...] = ()
    seats: tuple[FinalSeatRecord, ...] = ()
    unfilled: int = 0
    more_direct: tuple[int, ...] = ()  # a second player straight to the final (a club championship's two, issue 47)
    # the repechage's seat (issue 47): {"player", "reason" ("best_single_game" / "standings"), "points", "games"}
    repechage: Mapping[str, Any] | None = None

    @property
    def direct_finalists(self) -> tuple[int, ...]:
        return (*(() if self.direct_finalist is None else (self.direct_finalist,)), *self.more_direct)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FinalsGroup:
        directs = _ints(data.get("direct_finalists"))
        return cls(
            label=str(data.get("label", "all")),
            tables=_ints(data.get("tables")),
            direct_finalist=_int_or_none(data.get("direct_finalist")),
            bands=tuple(_ints(b) for b in data.get("bands") or ()),
            club_pairs=int(data.get("club_pairs", 0)),
            club_pairs_plain=int(data.get("club_pairs_plain", 0)),
            semifinal_tables=_ints(data.get("semifinal_tables")),
            seats=tuple(FinalSeatRecord.from_json(s) for s in data.get("seats") or ()),
            unfilled=int(data.get("unfilled", 0)),
            more_direct=directs[1:],
            repechage=dict(data["repechage"]) if isinstance(data.get("repechage"), Mapping) else None,
        )

    def to_json(self) -> dict[str, Any]:
        if self.seats or self.semifinal_tables:  # a final's group
            return {
                "label": self.label,
                "tables": list(self.tables),
                "semifinal_tables": list(self.semifinal_tables),
                "seats": [s.to_json() for s in self.seats],
                "unfilled": self.unfilled,
            }
        doc: dict[str, Any] = {
            "label": self.label,
            "tables": list(self.tables),
            "direct_finalist": self.direct_finalist,
            "bands": [list(b) for b in self.bands],
            "club_pairs": self.club_pairs,
            "club_pairs_plain": self.club_pairs_plain,
        }
        if self.more_direct:
            doc["direct_finalists"] = list(self.direct_finalists)
        if self.repechage is not None:
            doc["repechage"] = dict(self.repechage)
        return doc


QUALIFYING_KEYS = (
    "engine",
    "tables_drawn",
    "current",
    "adjustments",
    "participants",
    "results_missing",
    "seed",
    "request",
    "special_tables",
)


@dataclass(frozen=True, slots=True)
class DrawDocument:
    """``Round.draw_report``: what the schema has no column for.

    A qualifying draw: the engine's report, the tables as drawn, the criteria now (after hand changes) and the
    changes, the published request and seed (``steward draw`` reproduces the tables from them) and the special
    tables (FIRK's last round). The semifinals: the ranking they were seeded from, the groups and the declines
    before they were played. The final: the groups with their seats, the declines and the qualifying standings.
    """

    kind: str = ""  # the engine's kind for a qualifying draw; "semifinal" / "final" for the final phase
    seed: int | None = None
    request: Mapping[str, Any] | None = None  # the planner's request document (DrawRequest / FinalsRequest JSON)
    engine: EngineReport | None = None
    tables_drawn: tuple[tuple[int, ...], ...] = ()
    current: Mapping[str, int] = field(default_factory=dict)
    adjustments: tuple[Adjustment, ...] = ()
    participants: int = 0
    results_missing: int = 0  # earlier results not yet reported when the round was drawn
    special_tables: Mapping[int, str] = field(default_factory=dict)
    semifinal_tables: int | None = None
    ranking: tuple[int, ...] = ()
    groups: tuple[FinalsGroup, ...] = ()
    declined: tuple[int, ...] = ()
    standings_after_qualifying: tuple[int, ...] = ()
    # level players a line of the final phase cut through (``cut.CutTie.to_json``: the qualification cut, the direct
    # seat, a band's edge, the halves; in the final the replacement chain), each with how it was decided
    ties: tuple[Mapping[str, Any], ...] = ()

    @property
    def cut(self) -> Mapping[str, Any] | None:
        """The semifinals' tie across the qualification cut, if any (documents before ``ties`` stored only it)."""
        return next((tie for tie in self.ties if tie.get("boundary", "cut") == "cut"), None)

    @property
    def direct_finalists(self) -> tuple[int, ...]:
        return tuple(p for g in self.groups for p in g.direct_finalists)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> DrawDocument:
        data = data or {}
        kind = str(data.get("kind", ""))
        engine = None
        if "criteria" in data:  # a qualifying draw: the engine's report is merged at the top level too
            engine = EngineReport.from_json(data.get("engine") or data)
        return cls(
            kind=kind,
            seed=_int_or_none(data.get("seed")),
            request=data.get("request"),
            engine=engine,
            tables_drawn=tuple(_ints(x) for x in data.get("tables_drawn") or ()),
            current={str(k): int(v) for k, v in (data.get("current") or data.get("criteria") or {}).items()},
            adjustments=tuple(Adjustment.from_json(a) for a in data.get("adjustments") or ()),
            participants=int(data.get("participants", 0)),
            results_missing=int(data.get("results_missing") or 0),
            special_tables={int(k): str(v) for k, v in (data.get("special_tables") or {}).items()},
            semifinal_tables=_int_or_none(data.get("semifinal_tables")),
            ranking=_ints(data.get("ranking")),
            groups=tuple(FinalsGroup.from_json(g) for g in data.get("groups") or ()),
            declined=_ints(data.get("declined")),
            standings_after_qualifying=_ints(data.get("standings_after_qualifying")),
            ties=tuple(data.get("ties") or ((data["cut"],) if data.get("cut") else ()))
            if kind in ("semifinal", "final")
            else (),  # a qualifying draw's ties are the engine's (tables seated by rank), kept in its report
        )

    def to_json(self) -> dict[str, Any]:
        if self.kind == "semifinal":
            return {
                "kind": self.kind,
                "seed": self.seed,
                "semifinal_tables": self.semifinal_tables,
                "ranking": list(self.ranking),
                "groups": [g.to_json() for g in self.groups],
                "declined": list(self.declined),
                "request": dict(self.request or {}),
                **({"ties": [dict(t) for t in self.ties]} if self.ties else {}),
                **({"cut": dict(self.cut)} if self.cut else {}),  # what readers of the older shape look for
            }
        if self.kind == "final":
            return {
                "kind": self.kind,
                "groups": [g.to_json() for g in self.groups],
                "declined": list(self.declined),
                "standings_after_qualifying": list(self.standings_after_qualifying),
                "request": dict(self.request or {}),
                **({"seed": self.seed} if self.seed is not None else {}),
                **({"ties": [dict(t) for t in self.ties]} if self.ties else {}),
            }
        engine = (self.engine or EngineReport(kind=self.kind)).to_json()
        return {
            **engine,  # the engine's report also sits at the top level (the shape rounds have always had)
            "engine": engine,
            "tables_drawn": [list(x) for x in self.tables_drawn],
            "current": dict(self.current),
            "adjustments": [a.to_json() for a in self.adjustments],
            "participants": self.participants,
            "results_missing": self.results_missing,
            "seed": self.seed,
            "request": dict(self.request) if self.request is not None else None,
            "special_tables": {str(n): kind for n, kind in self.special_tables.items()},
        }


@dataclass(frozen=True, slots=True)
class TableSituation:
    """``GameTable.final_situation``: by which path the table was reported (``points``, ``situation``,
    ``ricochet``, ``sit_out``) and what was entered, as entered (the engine's input)."""

    kind: str
    input: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TableSituation | None:
        if not data:
            return None
        return cls(kind=str(data.get("kind", "")), input=dict(data.get("input") or {}))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "input": dict(self.input)}


@dataclass(frozen=True, slots=True)
class TieBreakNote:
    """``TableResult.tiebreak``: what decided the player's place at the table (a tie-breaker code, or ``sit_out``)
    and the values compared; the rest of the engine's note rides along."""

    decided_by: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TieBreakNote:
        data = data or {}
        decided = data.get("decided_by")
        return cls(
            decided_by=None if decided is None else str(decided),
            values={k: v for k, v in data.items() if k != "decided_by"},
        )

    def to_json(self) -> dict[str, Any]:
        return {**self.values, "decided_by": self.decided_by}
