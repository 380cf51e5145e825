"""Tournament points from the table points of one table (NP-PTS-1, FIRK-PTS-1, ARB art. 6).

The preset's ``[points]`` table holds ``base`` (points by final table position, best first), ``gap_factor`` and
``clamp_at_zero``. Position ``i`` (0 = first) earns::

    first:   base[0] + gap_factor * (tp[0] - tp[1])
    others:  base[i] - gap_factor * (tp[0] - tp[i])

With ``method = "table_points"`` (a club championship's standings, issue 47: the sum of each evening's table points)
a player's tournament points are their table points, whatever the place. With ``gap_factor = 0`` this is a plain
positional table (NP 12/9/6/3; the UFF/ARB default, which the organizer
replaces by an override). With FIRK's 0.1 it is the FIRK formula (rulebook example: 40 vs 32 -> 31.8 and 14.2).

Ties: the order given is final. Every RisiKo! rulebook breaks a table tie before tournament points are given
(NP-SCORE-2 ends in a dice roll, FIRK-TIE-1 territories then armies + cards), so players with equal table points
still occupy distinct positions and earn that position's points (FIRK: with a gap of 0 the first gets 31 and the
second 15). Players out of the game are not a tie to break: those of one tier share one place and the average of
the points of the positions they cover (``tournament_points_for_places``, ARB art. 23 and 25). Arithmetic is exact
(``Fraction``) and the result is rounded to 6 decimals, so 31.8 prints as 31.8.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeGuard

from bot.rules.outcomes import PlacesError, table_places
from bot.rules.presets import Preset, PresetFieldError
from bot.rules.risiko.errors import RisikoError

POINTS_METHODS = ("places", "table_points")


@dataclass(frozen=True, slots=True)
class PointsRules:
    """The ``[points]`` table of a preset, validated."""

    base: tuple[Fraction, ...]
    gap_factor: Fraction
    clamp_at_zero: bool
    method: str = "places"  # "places": base and gap_factor; "table_points": the table points themselves

    @classmethod
    def from_table(cls, table: Mapping[str, Any], where: str = "points") -> PointsRules:
        base = table.get("base")
        if not isinstance(base, list) or not base or not all(_is_number(x) for x in base):
            raise PresetFieldError(f"{where.split(':', 1)[-1]}.base", base, "[≥ 0, …] (not empty)")
        gap = table.get("gap_factor")
        if not _is_number(gap) or gap < 0:
            raise PresetFieldError(f"{where.split(':', 1)[-1]}.gap_factor", gap, "≥ 0")
        clamp = table.get("clamp_at_zero")
        if not isinstance(clamp, bool):
            raise PresetFieldError(f"{where.split(':', 1)[-1]}.clamp_at_zero", clamp, "true, false")
        method = table.get("method", "places")
        if method not in POINTS_METHODS:
            raise PresetFieldError(f"{where.split(':', 1)[-1]}.method", method, ", ".join(POINTS_METHODS))
        return cls(tuple(_exact(x) for x in base), _exact(gap), clamp, str(method))

    @classmethod
    def from_preset(cls, preset: Preset) -> PointsRules:
        return cls.from_table(preset.section("points"), f"{preset.name}:points")


def _is_number(x: object) -> TypeGuard[int | float]:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _exact(x: int | float) -> Fraction:
    # Through str so that 0.1 is one tenth, not the nearest binary double.
    return Fraction(str(x)) if isinstance(x, float) else Fraction(x)


def tournament_points_exact(rules: PointsRules, table_points: Sequence[float]) -> list[Fraction]:
    """Exact tournament points for players in final table order (best first)."""
    n = len(table_points)
    if n == 0:
        raise RisikoError("no_players", list(table_points))
    if rules.method == "table_points":
        if not all(_is_number(v) for v in table_points):
            raise RisikoError("table_points_not_a_number", next(v for v in table_points if not _is_number(v)))
        return [max(_exact(v), Fraction(0)) if rules.clamp_at_zero else _exact(v) for v in table_points]
    if n > len(rules.base):
        raise RisikoError("too_many_players_for_points_table", n)
    tp: list[Fraction] = []
    for value in table_points:
        if not _is_number(value):
            raise RisikoError("table_points_not_a_number", value)
        tp.append(_exact(value))
    result: list[Fraction] = []
    for i in range(n):
        if i == 0:
            gap = tp[0] - tp[1] if n > 1 else Fraction(0)
            pts = rules.base[0] + rules.gap_factor * gap
        else:
            pts = rules.base[i] - rules.gap_factor * (tp[0] - tp[i])
        if rules.clamp_at_zero and pts < 0:
            pts = Fraction(0)
        result.append(pts)
    return result


def tournament_points_for_places(
    rules: PointsRules, table_points: Sequence[float], places: Sequence[int]
) -> list[Fraction]:
    """Exact tournament points for players in final table order (best first) with their places (1 = best; a shared
    place repeats, the next skips: 1, 2, 3, 3). Players sharing a place share the points of the positions they
    cover: the average of those positions' exact points (the gap formula's included), so who is listed first among
    them never matters (ARB art. 25: the points of the position obtained)."""
    exact = tournament_points_exact(rules, table_points)
    if rules.method == "table_points":  # each keeps their own table points: a shared place shares nothing
        return exact
    if len(places) != len(exact) or any(p != i + 1 and (i == 0 or p != places[i - 1]) for i, p in enumerate(places)):
        raise RisikoError("places_not_in_table_order", list(places))
    covered: dict[int, list[Fraction]] = {}
    for place, pts in zip(places, exact, strict=True):
        covered.setdefault(place, []).append(pts)
    return [sum(covered[p], Fraction(0)) / len(covered[p]) for p in places]


def tournament_points(
    preset: Preset, table_points: Sequence[float], *, places: Sequence[int] | None = None
) -> list[float]:
    """Tournament points of one table, players in final table order (best first), same order out; with ``places``
    players sharing a place share its points (:func:`tournament_points_for_places`).

    See the module docstring for the formula and the tie rule. Raises ``RisikoError`` (a ``ValueError``) for an
    empty table, more players than the preset's points table covers, or a non-number.
    """
    rules = PointsRules.from_preset(preset)
    if places is not None:
        return [round(float(p), 6) for p in tournament_points_for_places(rules, table_points, places)]
    return [round(float(p), 6) for p in tournament_points_exact(rules, table_points)]


def order_typed_table(
    entries: Sequence[tuple[Any, str, float]], *, disqualified_below_withdrawn: bool = False
) -> list[tuple[Any, str, float, int]]:
    """The finishing order of a table from typed table points (ARB art. 6), as ``(player, status, points, place)``
    best first: players still in play by points; then those out of the game in the preset's tiers, each tier sharing
    one place (:func:`bot.rules.outcomes.table_places`: ARB art. 23 and 25 put a disqualification with the
    withdrawals). Players sharing a place are listed by id, never by the order given. ``entries`` are ``(player,
    status, points)`` with status ``played`` / ``withdrawn`` / ``disqualified``. Two players in play on the same
    points cannot be ordered from points alone: ``RisikoError("tie_needs_situation", (a, b))`` (the final
    situation's tie-breakers decide, NP-SCORE-2 / FIRK-TIE-1)."""
    active = sorted((e for e in entries if e[1] == "played"), key=lambda e: -e[2])
    for a, b in itertools.pairwise(active):
        if a[2] == b[2]:
            raise RisikoError("tie_needs_situation", (a[0], b[0]))
    try:
        places = table_places(
            ((e[0], e[1], -e[2] if e[1] == "played" else None) for e in entries),
            disqualified_below_withdrawn=disqualified_below_withdrawn,
        )
    except PlacesError as exc:
        raise RisikoError(exc.code, exc.value) from None
    ordered = sorted(entries, key=lambda e: (places[e[0]], str(e[0])))
    return [(player, status, points, places[player]) for player, status, points in ordered]
