"""Infractions and sanctions of every preset as data, and the ladder's proposal (BOT-SAN-2, RR-SAN-1, RK-SAN-1,
RK-PACT-1, RK-CARD-1, RK-OBJ-1, RK-FLIP-1, RK-WD-1, FIRK-PEN-1).

A preset's ``[sanctions.infractions]`` table lists what a referee can log: each infraction names its article and
the ladder it climbs (a list of sanction codes, a field of ``[sanctions]``), and optionally the field with the
standings points it costs. ``propose`` gives the sanction for a player's next offence of that kind: the rung after
their earlier offences in this tournament (the top rung once past it), with the article, what the bot applies
(``consequence``) and, for the ARB art. 27 / FIRK §26 pact ladders, the cards and armies the hand decides.

Rules return codes and numbers; the i18n layer words them (``sanction.kind.<code>``, ``sanction.infraction.<code>``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.rules.errors import RuleError
from bot.rules.lateness import LatenessCode, judge_lateness
from bot.rules.presets import PresetFieldError
from bot.rules.risiko.sanctions import Ladder, next_step
from bot.rules.ruleset import Ruleset


class SanctionError(RuleError):
    """An infraction or sanction kind this preset does not know; ``value`` quotes it."""


class Consequence(StrEnum):
    """What the bot does when a sanction is confirmed (the rest the players do at the table)."""

    RECORDED = "recorded"  # a warning or reminder: logged, it counts for the ladder
    IN_GAME = "in_game"  # pass turn, cards, armies, army cap, freezing: applied at the table, logged here
    LAST_OF_GAME = "last_of_game"  # RR 13: the player takes the last place of the game
    EXPELLED_FROM_GAME = "expelled_from_game"  # out of this game (treated as withdrawn at the table, ARB 25)
    TABLE_POINTS = "table_points"  # ARB 13: the player's table points reduced by the referee's amount
    STANDING_POINTS = "standing_points"  # FIRK: points off the general standings
    DISQUALIFIED = "disqualified"  # out of the game and the tournament (later draws, finals)


CONSEQUENCE_OF: Mapping[str, Consequence] = {
    "verbal_warning": Consequence.RECORDED,
    "reminder": Consequence.RECORDED,
    "last_of_game": Consequence.LAST_OF_GAME,
    "expelled_from_game": Consequence.EXPELLED_FROM_GAME,
    "excluded_from_game": Consequence.EXPELLED_FROM_GAME,
    "disqualified_from_game": Consequence.EXPELLED_FROM_GAME,
    "table_points": Consequence.TABLE_POINTS,
    "standing_points": Consequence.STANDING_POINTS,
    "disqualification": Consequence.DISQUALIFIED,
    "excluded_and_expelled": Consequence.DISQUALIFIED,
    # lateness: the check-in already takes the player out of the game (the draw and the report follow it)
    "forfeit_game": Consequence.RECORDED,
    "cannot_play": Consequence.RECORDED,
    "replaced_by_organizers": Consequence.RECORDED,
}
LATE = "late"
SCOPES = ("tournament", "game")  # where a ladder counts earlier offences: every game of the tournament, or this one
LATENESS_KIND: Mapping[LatenessCode, str] = {
    LatenessCode.WARNING: "verbal_warning",
    LatenessCode.FORFEIT_GAME: "forfeit_game",
    LatenessCode.CARDS_FORFEITED: "cards_forfeited",
    LatenessCode.CANNOT_PLAY: "cannot_play",
    LatenessCode.REPLACED: "replaced_by_organizers",
}


def consequence_of(kind: str) -> Consequence:
    """Every other kind (pass turn, lose cards, remove the excess…) is carried out at the table."""
    return CONSEQUENCE_OF.get(kind, Consequence.IN_GAME)


@dataclass(frozen=True, slots=True)
class Infraction:
    """An infraction a referee of this preset can log: its code, the article it breaks, the ladder of sanction codes
    it climbs, the standings points it costs (FIRK) and where earlier offences count."""

    code: str
    article: str
    ladder: tuple[str, ...]  # sanction codes, first offence first
    standing_points: float = 0.0  # points off the general standings the sanction costs (FIRK), 0 = none
    scope: str = "tournament"  # where earlier offences count: "tournament" (every game) or "game" (the same table)

    @property
    def immediate(self) -> bool:
        """One rung only: the first offence already gets the sanction (cheating, overturning the board…)."""
        return len(self.ladder) == 1


@dataclass(frozen=True, slots=True)
class Proposal:
    """The ladder's next step for a player: ``offence`` is 1 for a first offence."""

    infraction: str
    article: str
    offence: int
    kind: str
    consequence: Consequence
    rung: int  # the ladder's step, 0 = the first (a ladder may repeat a kind: ARB 23 removes the excess twice)
    last_rung: bool
    cards: int = 0  # ARB 27 / FIRK §26: cards the player loses
    armies: int = 0  # ARB 27: armies the player loses
    army_cap: int = 0  # FIRK §26: instead of cards, the player's armies are capped
    at_least: bool = False  # FIRK §26: the cards are a minimum, the referee may take more
    cards_not_drawn: int = 0  # FIRK penalità 2: cards the player may not draw
    standing_points: float = 0.0


CODE_MAX = 48  # characters of a sanction or infraction code (the sanction log's columns)


def _ladder(table: Mapping[str, Any], field: str, where: str) -> tuple[str, ...]:
    value = table.get(field)
    if isinstance(value, str):
        value = [value]
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(x, str) and 0 < len(x) <= CODE_MAX for x in value)
    ):
        raise PresetFieldError(f"{where}.{field}", value, f"[sanction code of at most {CODE_MAX} characters, …]")
    return tuple(value)


def infractions(ruleset: Ruleset) -> tuple[Infraction, ...]:
    """The preset's infractions, in the order the preset lists them."""
    table = ruleset.preset.section("sanctions")
    raw = table.get("infractions")
    if not isinstance(raw, Mapping) or not raw:
        raise PresetFieldError("sanctions.infractions", raw, "{code = {article, ladder}}")
    out = []
    for code, spec in raw.items():
        where = f"sanctions.infractions.{code}"
        if not isinstance(spec, Mapping) or not isinstance(spec.get("article"), str) or "ladder" not in spec:
            raise PresetFieldError(where, spec, "{article = '…', ladder = '<field of [sanctions]>'}")
        if len(str(code)) > CODE_MAX:
            raise PresetFieldError(where, code, f"an infraction code of at most {CODE_MAX} characters")
        points = 0.0
        if "points" in spec:
            value = table.get(str(spec["points"]))
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise PresetFieldError(f"sanctions.{spec['points']}", value, "a number")
            points = float(value)
        scope = spec.get("scope", "tournament")
        if scope not in SCOPES:
            raise PresetFieldError(f"{where}.scope", scope, ", ".join(SCOPES))
        ladder = _ladder(table, str(spec["ladder"]), "sanctions")
        out.append(Infraction(str(code), spec["article"], ladder, points, str(scope)))
    return tuple(out)


def infraction(ruleset: Ruleset, code: str) -> Infraction:
    """The preset's infraction ``code``; SanctionError ``unknown_infraction`` quoting it when the preset has none."""
    found = next((i for i in infractions(ruleset) if i.code == code), None)
    if found is None:
        raise SanctionError("unknown_infraction", code)
    return found


def sanction_kinds(ruleset: Ruleset) -> tuple[str, ...]:
    """Every kind a referee of this preset may give: the RisiKo! kinds of ARB 10-13 / FIRK penalità, and every
    rung of every ladder (RR 13's warning, last of the game, disqualification)."""
    kinds: list[str] = []
    if ruleset.risiko is not None:
        kinds += ruleset.risiko.sanctions.kinds
    for item in infractions(ruleset):
        kinds += item.ladder
    return tuple(dict.fromkeys(kinds))


def propose(ruleset: Ruleset, code: str, *, previous: int, cards_in_hand: int = 0) -> Proposal:
    """The sanction for the next offence of ``code`` after ``previous`` earlier ones by the same player in this
    tournament: the next rung, never skipping one; past the top, the top rung again."""
    if previous < 0 or cards_in_hand < 0:
        raise SanctionError("negative_count", min(previous, cards_in_hand))
    item = infraction(ruleset, code)
    index = min(previous, len(item.ladder) - 1)
    kind = item.ladder[index]
    cards = armies = army_cap = not_drawn = 0
    at_least = False
    if ruleset.risiko is not None and code == Ladder.PACT:  # ARB 27 / FIRK §26: the hand decides
        step = next_step(ruleset.risiko.sanctions, Ladder.PACT, previous, cards_in_hand)
        cards, armies, army_cap, at_least = step.cards, step.armies, step.army_cap, step.at_least
        not_drawn = step.cards_not_drawn
    consequence = consequence_of(kind)
    points = item.standing_points
    if points and consequence is not Consequence.DISQUALIFIED:
        consequence = Consequence.STANDING_POINTS if consequence is Consequence.IN_GAME else consequence
    return Proposal(
        infraction=code,
        article=item.article,
        offence=previous + 1,
        kind=kind,
        consequence=consequence,
        rung=index,
        last_rung=index == len(item.ladder) - 1,
        cards=cards,
        armies=armies,
        army_cap=army_cap,
        at_least=at_least,
        cards_not_drawn=not_drawn,
        standing_points=points,
    )


def lateness_proposal(ruleset: Ruleset, minutes_late: int) -> Proposal | None:
    """RR-LATE-1, FIRK-LATE-1, ARB 3: the sanction for arriving ``minutes_late`` after the set time, from the
    preset's ``[lateness]`` verdict (not from repeats); ``None`` when on time or the preset attaches nothing."""
    verdict = judge_lateness(ruleset.lateness, minutes_late)
    kind = LATENESS_KIND.get(verdict.code)
    if kind is None:
        return None
    item = infraction(ruleset, LATE)
    if kind not in item.ladder:
        raise PresetFieldError(f"sanctions.{LATE}", list(item.ladder), f"a ladder holding {kind}")
    rung = item.ladder.index(kind)
    return Proposal(
        infraction=LATE,
        article=item.article,
        offence=1,
        kind=kind,
        consequence=consequence_of(kind),
        rung=rung,
        last_rung=rung == len(item.ladder) - 1,
        cards=verdict.cards_forfeited,
    )


@dataclass(frozen=True, slots=True)
class TableAdjustment:
    """What a player's sanctions in force change in their table's result before it is ranked: an outcome forced
    by the sanction (RR 13.3 last of the game → ``forfeit``, the last place; ARB 25 out of the game → ``withdrawn``;
    a disqualification → ``disqualified``: RR 13.4 last of the game even below a forfeit, ARB 23/27 handled as a
    withdrawal — the preset's tier, :mod:`bot.rules.outcomes`) and table points taken (ARB 13)."""

    outcome: str | None = None
    table_points_taken: float = 0.0


FORCED_OUTCOME: Mapping[Consequence, str] = {
    Consequence.LAST_OF_GAME: "forfeit",
    Consequence.EXPELLED_FROM_GAME: "withdrawn",
    Consequence.DISQUALIFIED: "disqualified",
}
SEVERITY = ("forfeit", "withdrawn", "disqualified")  # of two forced outcomes the later one here wins


def table_adjustment(consequences: Sequence[tuple[str, float | None]]) -> TableAdjustment:
    """One player's adjustment from their sanctions in force at the table: ``(consequence, points)`` each."""
    outcome = None
    taken = 0.0
    for code, points in consequences:
        consequence = Consequence(code)
        if consequence in FORCED_OUTCOME:
            forced = FORCED_OUTCOME[consequence]
            outcome = forced if outcome is None else max(outcome, forced, key=SEVERITY.index)
        elif consequence is Consequence.TABLE_POINTS and points:
            taken += abs(points)
    return TableAdjustment(outcome, taken)


def check_kind(ruleset: Ruleset, kind: str) -> str:
    """A kind the referee picked instead of the proposal (recorded as an override): one this preset knows."""
    if kind not in sanction_kinds(ruleset):
        raise SanctionError("unknown_sanction_kind", kind)
    return kind


@dataclass(frozen=True, slots=True)
class AppealRules:
    """``appeal_window_minutes``: how long after a sanction the player may appeal to the head referee (RR 11);
    0 = no appeal (NP: the official judge's decisions are final)."""

    appeal_window_minutes: int

    @property
    def appealable(self) -> bool:
        return self.appeal_window_minutes > 0


def appeal_rules(ruleset: Ruleset) -> AppealRules:
    """The preset's ``appeal_window_minutes`` from ``[sanctions]``, checked (a whole number, 0 or more)."""
    value = ruleset.preset.section("sanctions").get("appeal_window_minutes")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PresetFieldError("sanctions.appeal_window_minutes", value, ">= 0")
    return AppealRules(value)
