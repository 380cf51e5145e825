"""The adjudicators in Discord (BOT-RUL-1): RisiKo! battles, odds, army limits and card values, computed by the rules
engine (the same functions ``steward risiko`` calls) and returned with the article they apply.

Who may ask: during a live round (a published round not yet closed) only referees and organizers, so a player
cannot consult the engine in the middle of a game; anyone otherwise. The preset is the one named, else the server's
latest RisiKo! tournament's, else the boxed rules (cited from the NP rulebook, which prints them).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from bot.errors import InvalidInput, PermissionDenied
from bot.rules.errors import RuleError, plain
from bot.rules.jsondoc import DocumentError
from bot.rules.presets import PRESET_NAMES
from bot.rules.ricochet import solver as rr_solver
from bot.rules.ricochet import verify as rr_verify
from bot.rules.ricochet.board import Board, Position, validate_position
from bot.rules.ricochet.config import RicochetRules
from bot.rules.ricochet.moves import Step, replay
from bot.rules.risiko import cards as cards_mod
from bot.rules.risiko import dice as dice_mod
from bot.rules.risiko import limits as limits_mod
from bot.rules.risiko.config import BOXED_DICE, DiceRules, RisikoRules
from bot.rules.risiko.scoring import ScoredSituation, score_situation, situation_document
from bot.rules.rulebook import Article, cite
from bot.rules.ruleset import Ruleset, load_ruleset
from bot.services._base import BaseService, UseCase
from bot.services.access import Actor, StaffRole

BOXED = "risiko-nostra-passione-2018"  # the rulebook that prints the boxed rules, for citations
DEFAULT_RR = "ricochet-v3.3"  # Ricochet Robots' rules where the server has no tournament of it
BATTLE_MAX = dice_mod.BATTLE_ARMIES_MAX


@dataclass(frozen=True, slots=True)
class Answer:
    preset: str | None  # None: the boxed rules
    article: Article | None
    values: dict[str, object]


def refusal(exc: RuleError) -> InvalidInput:
    return InvalidInput(f"error.adjudicator.{exc.code}", value=plain(exc.value)[:60])


def percent(x: Fraction) -> str:
    return f"{float(x) * 100:.2f}"


ODDS_BUDGET = 20.0  # seconds: 300 armies a side takes about 1 s of CPU
SCORE_BUDGET = 20.0
VERIFY_BUDGET = 10.0
SOLVE_MARGIN = 10.0  # beyond the preset's own search budget


def battle_values(attackers: int, defenders: int, dice_rules: DiceRules) -> dict[str, object]:
    """A whole battle's exact odds, as the answer shows them (run in a worker process: plain data in and out)."""
    odds = dice_mod.battle_odds(attackers, defenders, dice_rules)
    return {"kind": "battle", "attackers": attackers, "defenders": defenders,
            "attacker_wins": percent(odds.attacker_wins), "defender_holds": percent(odds.defender_holds),
            "expected_attacker_losses": f"{float(odds.expected_attacker_losses):.2f}",
            "expected_defender_losses": f"{float(odds.expected_defender_losses):.2f}"}  # fmt: skip


def scored_text(text: str, rules: RisikoRules) -> ScoredSituation:
    """A final situation typed or attached, read and scored (run in a worker process)."""
    return score_situation(situation_document(text), rules, also_allowed=("preset",))


def preset_rules(name: str) -> Ruleset:
    """A preset's ruleset by name, without a tournament's overrides — one the user names, or the boxed rules: the one
    place the adjudicators parse a ruleset that is not a use case's tournament's."""
    return load_ruleset(name)


def boxed_rules() -> RisikoRules:
    """The boxed rules (cited from the NP rulebook, which prints them)."""
    rules = preset_rules(BOXED).risiko
    if rules is None:  # pragma: no cover - the boxed preset is RisiKo!'s
        raise AssertionError(f"{BOXED} has no RisiKo! rules")
    return rules


async def allowed(uc: UseCase) -> None:
    """Referees and organizers always; others only while no round of this server is being played."""
    if uc.has_role(StaffRole.REFEREE) or uc.has_role(StaffRole.ORGANIZER):
        return
    if await uc.rulebook.round_in_play():
        raise PermissionDenied("error.adjudicator.live_round")


async def latest_rules(uc: UseCase, game: str) -> tuple[str, Ruleset] | None:
    """The preset and ruleset (overrides applied) of the server's most recently created tournament of ``game``:
    whose rules an adjudicator applies by default."""
    latest = await uc.rulebook.latest_tournament_of_game(game=game)
    return None if latest is None else (latest.preset, uc.about(latest).rules)


class AdjudicatorService(BaseService):
    async def _consult(self, actor: Actor, preset: str | None) -> tuple[str | None, RisikoRules | None]:
        """Whether the actor may consult the engine now, then the RisiKo! rules it applies: the preset named, else
        the server's latest RisiKo! tournament's (None: the boxed rules). One use case."""
        async with self.run(actor) as uc:
            await allowed(uc)
            if preset is not None:
                if preset not in PRESET_NAMES:
                    raise InvalidInput("error.unknown_preset", preset=preset[:64], known=", ".join(PRESET_NAMES))
                rules = preset_rules(preset).risiko
                if rules is None:
                    raise InvalidInput("error.adjudicator.not_risiko", preset=preset)
                return preset, rules
            latest = await latest_rules(uc, "risiko")
            return (None, None) if latest is None else (latest[0], latest[1].risiko)

    @staticmethod
    def _cite(preset: str | None, engine: str) -> Article | None:
        return cite(preset or BOXED, engine) or (cite(BOXED, engine) if preset else None)

    async def battle(
        self,
        actor: Actor,
        *,
        attacker: Sequence[int],
        defender: Sequence[int],
        preset: str | None = None,
        attacker_armies: int | None = None,
        defender_armies: int | None = None,
    ) -> Answer:
        """RK-DICE-1: one roll's losses; with the armies given, also whether the attack was allowed (FIRK §12-13)."""
        name, rules = await self._consult(actor, preset)
        dice_rules = rules.dice if rules else BOXED_DICE
        try:
            roll = dice_mod.resolve_roll(attacker, defender, dice_rules)
            values: dict[str, object] = {
                "attacker_losses": roll.attacker_losses, "defender_losses": roll.defender_losses,
                "pairs": [list(p) for p in roll.pairs],
            }  # fmt: skip
            if attacker_armies is not None and defender_armies is not None:
                verdict = dice_mod.judge_attack(len(attacker), len(defender), attacker_armies, defender_armies, (),
                                                dice_rules)  # fmt: skip
                values |= {"legal": verdict.legal, "reason": verdict.reason}
        except RuleError as exc:
            raise refusal(exc) from None
        return Answer(name, self._cite(name, "bot.rules.risiko.dice:resolve_roll"), values)

    async def odds(
        self,
        actor: Actor,
        *,
        preset: str | None = None,
        attackers: int | None = None,
        defenders: int | None = None,
        attack_dice: int | None = None,
        defence_dice: int | None = None,
    ) -> Answer:
        """Exact odds: one roll of ``attack_dice`` against ``defence_dice``, or a whole battle of armies."""
        name, rules = await self._consult(actor, preset)
        dice_rules = rules.dice if rules else BOXED_DICE
        try:
            if attack_dice is not None and defence_dice is not None:
                if not 1 <= attack_dice <= dice_rules.max_attack_dice:
                    raise RuleError("attacker_dice_count_invalid", attack_dice)
                if not 1 <= defence_dice <= dice_rules.max_defence_dice:
                    raise RuleError("defender_dice_count_invalid", defence_dice)
                dist = dice_mod.roll_distribution(attack_dice, defence_dice)
                values: dict[str, object] = {"kind": "roll", "attack_dice": attack_dice, "defence_dice": defence_dice,
                                             "attacker_loses": [percent(p) for p in dist]}  # fmt: skip
            elif attackers is not None and defenders is not None:
                if attackers > BATTLE_MAX or defenders > BATTLE_MAX:
                    raise RuleError("battle_too_large", max(attackers, defenders))
                values = await self._workers.compute(battle_values, attackers, defenders, dice_rules,
                                                     budget=ODDS_BUDGET)  # fmt: skip
            else:
                raise RuleError("odds_need_dice_or_armies", "")
        except RuleError as exc:
            raise refusal(exc) from None
        return Answer(name, self._cite(name, "bot.rules.risiko.dice:resolve_roll"), values)

    async def limit(
        self, actor: Actor, *, armies: int, spotted: bool, preset: str | None = None, current_limit: int | None = None
    ) -> Answer:
        """RK-LIM-1 / FIRK-LIM-1: armies to remove and the limit for the rest of the game."""
        name, rules = await self._consult(actor, preset)
        if rules is None:
            name, rules = BOXED, boxed_rules()
        found = limits_mod.FoundBy.OTHER if spotted else limits_mod.FoundBy.SELF
        try:
            verdict = limits_mod.army_limit_check(armies, found, rules.limits, current_limit)
        except RuleError as exc:
            raise refusal(exc) from None
        limit = current_limit or rules.limits.army_limit
        values: dict[str, object] = {"armies": armies, "excess": verdict.excess, "remove": verdict.remove,
                                     "new_limit": verdict.new_limit, "limit": limit}  # fmt: skip
        return Answer(name, self._cite(name, "bot.rules.risiko.limits:army_limit_check"), values)

    async def cards(
        self,
        actor: Actor,
        *,
        symbols: Sequence[str] = (),
        preset: str | None = None,
        in_hand: int | None = None,
        exchange: int | None = None,
    ) -> Answer:
        """A set's value (boxed combinations and the preset's values), or a FIRK exchange by count (FIRK §14)."""
        name, rules = await self._consult(actor, preset)
        if rules is None:
            name, rules = BOXED, boxed_rules()
        try:
            if rules.cards.mode == "exchange":
                if in_hand is None:
                    raise RuleError("exchange_needs_hand", "")
                worth = cards_mod.exchange_values(in_hand, exchange or min(in_hand, 3), rules.cards)
                values: dict[str, object] = {"kind": "exchange", "in_hand": in_hand, "armies": list(worth),
                                             "total": sum(worth)}  # fmt: skip
                engine = "bot.rules.risiko.cards:exchange_values"
            else:
                if len(symbols) != 3:
                    raise RuleError("set_needs_three_cards", len(symbols))
                hand = [cards_mod.Card(cards_mod.Symbol.read(s)) for s in symbols]  # Italian or English words
                value = cards_mod.set_value(hand, (), rules.cards)
                values = {"kind": "set", "set": value.kind.value, "armies": value.base,
                          "bonus_per_owned_territory": rules.cards.territory_bonus}  # fmt: skip
                engine = "bot.rules.risiko.cards:set_value"
        except ValueError as exc:  # RuleError, or an unknown symbol
            raise refusal(exc if isinstance(exc, RuleError) else RuleError("card_symbol_invalid", symbols)) from None
        return Answer(name, self._cite(name, engine), values)


@dataclass(frozen=True, slots=True)
class RRAnswer:
    """A Ricochet Robots ruling and what its picture needs (the board, the robots, the replayed path)."""

    article: Article | None
    values: dict[str, object]
    board: Board
    robots: dict[str, tuple[int, int]]
    steps: tuple[Step, ...]
    target: tuple[int, int]
    diagonal_variant: bool


class RicochetAdjudicator(BaseService):
    """``/rr verify`` and ``/rr solve``: the demonstration judged (RR 4.8, 4.10) and the optimal solution found."""

    async def _rules(self, actor: Actor) -> tuple[str, RicochetRules]:
        """Whether the actor may consult the engine now (as the RisiKo! adjudicators), then the rules of the server's
        latest Ricochet Robots tournament (overrides applied), else the rulebook's. One use case."""
        async with self.run(actor) as uc:
            await allowed(uc)
            latest = await latest_rules(uc, "ricochet")
        name, ruleset = latest if latest is not None else (DEFAULT_RR, preset_rules(DEFAULT_RR))
        if ruleset.ricochet is None:  # pragma: no cover - a Ricochet Robots tournament has its rules
            raise AssertionError(f"{name} has no Ricochet Robots rules")
        return name, ruleset.ricochet

    @staticmethod
    def _position(
        quadrants: Sequence[str], robots: dict[str, tuple[int, int]], target: Sequence[object]
    ) -> tuple[Board, Position]:
        try:
            board = Board.from_json({"quadrants": list(quadrants)})
            raw = list(target)
            found = board.target(str(raw[0]), str(raw[1])) if len(raw) == 2 else None
            position = Position.make(robots, list(found) if found else raw)
            validate_position(board, position)
        except (RuleError, ValueError, KeyError, TypeError) as exc:
            value = exc.value if isinstance(exc, RuleError) else exc
            raise InvalidInput("error.adjudicator.rr_position", value=str(value)[:80]) from None
        return board, position

    async def verify(
        self,
        actor: Actor,
        *,
        quadrants: Sequence[str],
        robots: dict[str, tuple[int, int]],
        target: Sequence[object],
        moves: Sequence[tuple[str, str]],
        declared: int | None = None,
    ) -> RRAnswer:
        name, rules = await self._rules(actor)
        board, position = self._position(quadrants, robots, target)
        try:
            verdict = await self._workers.thread(
                partial(rr_verify.verify, board, position, [list(m) for m in moves], minimum_moves=rules.minimum_moves,
                        declared=declared, diagonal_variant=rules.diagonal_variant), budget=VERIFY_BUDGET,
            )  # fmt: skip
        except RuleError as exc:
            raise InvalidInput("error.adjudicator.rr_moves", value=str(exc.value)[:80]) from None
        void = verdict.code is rr_verify.VerifyCode.BELOW_MINIMUM
        article = cite(
            name, "bot.rules.ricochet.solver:void_below_minimum" if void else "bot.rules.ricochet.verify:verify"
        )
        values: dict[str, object] = {"code": verdict.code.value, "valid": verdict.valid, "reached": verdict.reached,
                                     "moves": verdict.moves, "minimum": rules.minimum_moves,
                                     "void": verdict.void_below_minimum}  # fmt: skip
        return RRAnswer(article, values, board, dict(position.robot_map), tuple(verdict.steps),
                        (position.target.row, position.target.col), rules.diagonal_variant)  # fmt: skip

    async def solve(
        self, actor: Actor, *, quadrants: Sequence[str], robots: dict[str, tuple[int, int]], target: Sequence[object]
    ) -> RRAnswer:
        name, rules = await self._rules(actor)
        board, position = self._position(quadrants, robots, target)
        result = await self._workers.compute(
            partial(rr_solver.solve, board, position, time_budget=float(rules.solve_budget_seconds),
                    clock=time.perf_counter, diagonal_variant=rules.diagonal_variant),
            budget=rules.solve_budget_seconds + SOLVE_MARGIN,
        )  # fmt: skip
        moves = [tuple(m) for m in result.moves] if result.moves is not None else []
        steps = tuple(
            replay(board, position.robot_map, [list(m) for m in moves], diagonal_variant=rules.diagonal_variant)
        )
        values: dict[str, object] = {"status": result.status.value, "optimal": result.optimal_moves,
                                     "lower_bound": result.lower_bound, "moves": moves, "minimum": rules.minimum_moves,
                                     "budget": rules.solve_budget_seconds}  # fmt: skip
        return RRAnswer(cite(name, "bot.rules.ricochet.solver:void_below_minimum"), values, board,
                        dict(position.robot_map), steps, (position.target.row, position.target.col),
                        rules.diagonal_variant)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ScoreAnswer:
    preset: str
    article: Article | None
    scored: ScoredSituation


class ScoringDesk(BaseService):
    """``/risiko score``: a final situation (JSON or a territory;owner;armies CSV, typed or attached) scored and
    ranked by the preset, with the tie-breaks explained — the same scoring as ``steward risiko score``."""

    async def score(self, actor: Actor, *, text: str, preset: str | None = None) -> ScoreAnswer:
        name, rules = await AdjudicatorService(self._sessionmaker, self._clock)._consult(actor, preset)
        if name is None or rules is None:
            raise InvalidInput("error.rule.which_preset")
        try:
            scored = await self._workers.compute(scored_text, text, rules, budget=SCORE_BUDGET)
        except DocumentError as exc:
            raise InvalidInput(f"error.json.{exc.code}", field="situation", value=str(exc.value)[:80]) from None
        except RuleError as exc:
            raise refusal(exc) from None
        return ScoreAnswer(name, cite(name, "bot.rules.risiko.scoring:score_table"), scored)
