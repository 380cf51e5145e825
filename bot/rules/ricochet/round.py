"""Round adjudication (RR 4.2–4.11, 5.2): declarations, demonstration order, award or void, the token pile.

Feed the events of one round in the order they happened and get the outcome:

* declarations (RR 4.9, RR-DECL-1): a player may re-declare only a lower number, the last one counts; equal
  numbers go to the earlier declaration; simultaneous ones (same ``time``) to the player with fewer tokens;
  a tie that still stands and proves valid voids the round;
* mistaken declarations (RR-DECL-2): withdrawn freely before the hourglass is turned (the player's declaration
  is dropped), afterwards they stand; a single declaration at time-out that proves wrong voids the round;
* demonstrations (RR 4.10, RR-DEMO-1): the lowest declarer first; valid when minimum ≤ moves ≤ declared; if
  not, the next declaration (equal or higher) demonstrates; no valid demonstration voids the round;
* the other void causes of RR 4.11 (token seen early, unanimous "too complex", target covered by a robot
  marker, a solution below the minimum) arrive as ``VoidCall`` events.

The token pile (RR 4.11, 5.2) keeps void tokens face up aside until the next valid award, then shuffles them
back; when every token left has been voided in a row, 4 or more left → robots are re-placed, 3 or fewer →
the game ends (the threshold is the preset's ``game_over_tokens_left``).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from bot.rules.errors import RuleError
from bot.rules.ricochet.board import Board


class RoundError(RuleError):
    """A round event, declaration or demonstration that does not fit the RR rules."""


class VoidReason(enum.Enum):
    """Why a round is void (RR 4.11), as a code; the comments name the article of each."""

    TOKEN_SEEN_EARLY = "token_seen_early"  # RR 4.3
    TOO_COMPLEX = "too_complex"  # RR 4.4, unanimous
    TARGET_COVERED = "target_covered"  # RR 4.4, target under a robot marker
    BELOW_MINIMUM = "below_minimum"  # RR 4.8
    UNBREAKABLE_TIE = "unbreakable_tie"  # RR 4.9
    SINGLE_WRONG_DECLARATION = "single_wrong_declaration"  # RR 4.9 (mistaken declaration)
    ALL_DEMONSTRATIONS_WRONG = "all_demonstrations_wrong"  # RR 4.10


class RoundStatus(enum.Enum):
    """Where a round stands: nobody has declared, declarations are open, a demonstration is awaited, or it is awarded
    or void."""

    PLANNING = "planning"  # no declaration yet (RR 4.4)
    DECLARING = "declaring"  # declarations made, time not up (RR 4.9)
    AWAITING_DEMONSTRATION = "awaiting_demonstration"  # RR 4.10: ``next_demonstrator`` must show
    AWARDED = "awarded"
    VOID = "void"


class Phase(enum.Enum):
    """The part of the round being played: planning (RR 4.4), declaring (RR 4.9), or demonstrating (RR 4.10)."""

    PLANNING = "planning"
    DECLARATION = "declaration"
    DEMONSTRATION = "demonstration"


# -- events ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Declare:
    """A player declares a solution in ``moves`` moves at ``time`` (the round's clock: only the order and equality of
    times matter; RR 4.9)."""

    player: str
    moves: int
    time: float


@dataclass(frozen=True, slots=True)
class Withdraw:
    """A player withdraws a mistaken declaration at ``time`` (RR-DECL-2: allowed only before the hourglass is
    turned)."""

    player: str
    time: float


@dataclass(frozen=True, slots=True)
class TurnHourglass:
    """The hourglass is turned at ``time`` (RR 4.9): from then on a declaration can no longer be withdrawn."""

    time: float


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The hourglass runs out at ``time``: declarations close and the demonstrations begin (RR 4.10)."""

    time: float


@dataclass(frozen=True, slots=True)
class Demonstrate:
    """The result of a player's demonstration (e.g. from ``verify``): moves counted, target reached, padding."""

    player: str
    moves: int
    reached: bool
    padded: bool = False


@dataclass(frozen=True, slots=True)
class VoidCall:
    """A void cause the players or the referee call (RR 4.11): a token seen early, a unanimous "too complex", a
    target covered, a solution below the minimum."""

    reason: VoidReason


RoundEvent = Declare | Withdraw | TurnHourglass | TimeUp | Demonstrate | VoidCall


_EVENT_TYPES: dict[str, type] = {
    "declare": Declare,
    "withdraw": Withdraw,
    "turn_hourglass": TurnHourglass,
    "time_up": TimeUp,
    "demonstrate": Demonstrate,
    "void_call": VoidCall,
}
_EVENT_NAMES: dict[type, str] = {v: k for k, v in _EVENT_TYPES.items()}


def event_to_json(event: RoundEvent) -> dict[str, Any]:
    """``{"type": "declare", "player": "ada", "moves": 7, "time": 12.5}`` etc."""
    out: dict[str, Any] = {"type": _EVENT_NAMES[type(event)]}
    for f in fields(event):
        value = getattr(event, f.name)
        out[f.name] = value.value if isinstance(value, enum.Enum) else value
    return out


def event_from_json(obj: Mapping[str, Any]) -> RoundEvent:
    """The event a ``{"type": …}`` mapping stands for (the inverse of :func:`event_to_json`); RoundError naming the
    unknown type, void reason or the fields extra or missing."""
    kind = obj.get("type")
    cls = _EVENT_TYPES.get(str(kind))
    if cls is None:
        raise RoundError("unknown_event_type", kind)
    names = {f.name for f in fields(cls)}
    extra = set(obj) - names - {"type"}
    missing = {n for n in names if n not in obj and not (cls is Demonstrate and n == "padded")}
    if extra or missing:
        raise RoundError("bad_event_fields", f"{kind}: extra {sorted(extra)}, missing {sorted(missing)}")
    values = {n: obj[n] for n in names if n in obj}
    if cls is VoidCall:
        try:
            values["reason"] = VoidReason(values["reason"])
        except ValueError:
            raise RoundError("unknown_void_reason", values["reason"]) from None
    event: RoundEvent = cls(**values)
    return event


# -- outcome --------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Declaration:
    """A declaration as it ranks for the demonstrations (RR 4.9): fewer moves first, then the earlier time, then
    fewer tokens held."""

    player: str
    moves: int
    time: float
    tokens: int


class DemoResult(enum.Enum):
    """How a demonstration went (RR 4.10): valid, wrong (target not reached, more moves than declared, or padded), or
    reached below the minimum (RR 4.8)."""

    VALID = "valid"
    WRONG = "wrong"  # not reached, more moves than declared, or padded
    BELOW_MINIMUM = "below_minimum"


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """A round adjudicated from its events: status and phase, the demonstration order and ties no rule separates,
    each demonstration's result, who shows next, the winner or the void reason, the events refused with their codes,
    and when the hourglass was turned."""

    status: RoundStatus
    phase: Phase
    order: tuple[Declaration, ...]  # demonstration order
    tied_players: tuple[tuple[str, ...], ...]  # groups no rule separates (RR 4.9)
    demonstrations: tuple[tuple[str, DemoResult], ...]
    next_demonstrator: str | None
    winner: str | None
    void_reason: VoidReason | None
    rejected: tuple[tuple[int, str], ...]  # (event index, code) of events the rules do not allow
    hourglass_turned_at: float | None


def _judge(demo: Demonstrate, declared: int, minimum_moves: int) -> DemoResult:
    if demo.reached and not demo.padded and demo.moves < minimum_moves:
        return DemoResult.BELOW_MINIMUM
    if demo.reached and not demo.padded and demo.moves <= declared:
        return DemoResult.VALID
    return DemoResult.WRONG


def adjudicate_round(
    events: Sequence[RoundEvent],
    *,
    tokens: Mapping[str, int],
    minimum_moves: int,
) -> RoundOutcome:
    """Apply the events of one round (RR-ROUND-1, RR-DECL-1/2, RR-DEMO-1, RR-VOID-1). ``tokens`` are the players'
    token counts at the start of the round (for simultaneous declarations)."""
    current: dict[str, Declaration] = {}
    rejected: list[tuple[int, str]] = []
    demos: dict[str, Demonstrate] = {}
    turned: float | None = None
    time_up = False
    void_call: VoidReason | None = None
    for index, ev in enumerate(events):
        if void_call is not None:
            rejected.append((index, "round_already_void"))
            continue
        if isinstance(ev, Declare):
            if ev.player not in tokens:
                raise RoundError("unknown_player", ev.player)
            if ev.moves < 1:
                rejected.append((index, "declaration_not_positive"))
            elif time_up:
                rejected.append((index, "declaration_after_time_up"))
            elif ev.player in current and ev.moves >= current[ev.player].moves:
                rejected.append((index, "redeclaration_not_lower"))
            else:
                current[ev.player] = Declaration(ev.player, ev.moves, ev.time, tokens[ev.player])
        elif isinstance(ev, Withdraw):
            if ev.player not in current:
                rejected.append((index, "nothing_to_withdraw"))
            elif turned is not None:
                rejected.append((index, "withdrawal_after_hourglass"))
            else:
                del current[ev.player]
        elif isinstance(ev, TurnHourglass):
            if turned is not None:
                rejected.append((index, "hourglass_already_turned"))
            elif not current:
                rejected.append((index, "hourglass_before_declaration"))
            else:
                turned = ev.time
        elif isinstance(ev, TimeUp):
            if turned is None:
                rejected.append((index, "time_up_without_hourglass"))
            else:
                time_up = True
        elif isinstance(ev, Demonstrate):
            if not time_up:
                rejected.append((index, "demonstration_before_time_up"))
            elif ev.player not in current:
                rejected.append((index, "demonstration_without_declaration"))
            else:
                demos[ev.player] = ev
        else:
            void_call = ev.reason

    order = tuple(sorted(current.values(), key=lambda d: (d.moves, d.time, d.tokens)))
    ties = _tie_groups(order)
    phase = Phase.DEMONSTRATION if time_up else (Phase.DECLARATION if order else Phase.PLANNING)

    def outcome(
        status: RoundStatus,
        *,
        shown: Sequence[tuple[str, DemoResult]] = (),
        nxt: str | None = None,
        winner: str | None = None,
        reason: VoidReason | None = None,
    ) -> RoundOutcome:
        return RoundOutcome(status, phase, order, ties, tuple(shown), nxt, winner, reason, tuple(rejected), turned)

    if void_call is not None:
        return outcome(RoundStatus.VOID, reason=void_call)
    if not order:
        return outcome(RoundStatus.PLANNING)
    if not time_up:
        return outcome(RoundStatus.DECLARING)

    shown: list[tuple[str, DemoResult]] = []
    i = 0
    while i < len(order):
        group = [order[i]]
        while i + len(group) < len(order) and _same_rank(order[i], order[i + len(group)]):
            group.append(order[i + len(group)])
        for decl in group:
            demo = demos.get(decl.player)
            if demo is None:
                return outcome(RoundStatus.AWAITING_DEMONSTRATION, shown=shown, nxt=decl.player)
            result = _judge(demo, decl.moves, minimum_moves)
            shown.append((decl.player, result))
            if result is DemoResult.BELOW_MINIMUM:
                return outcome(RoundStatus.VOID, shown=shown, reason=VoidReason.BELOW_MINIMUM)
            if result is DemoResult.VALID:
                if len(group) > 1:
                    return outcome(RoundStatus.VOID, shown=shown, reason=VoidReason.UNBREAKABLE_TIE)
                return outcome(RoundStatus.AWARDED, shown=shown, winner=decl.player)
        i += len(group)
    reason = VoidReason.SINGLE_WRONG_DECLARATION if len(order) == 1 else VoidReason.ALL_DEMONSTRATIONS_WRONG
    return outcome(RoundStatus.VOID, shown=shown, reason=reason)


def _same_rank(a: Declaration, b: Declaration) -> bool:
    return (a.moves, a.time, a.tokens) == (b.moves, b.time, b.tokens)


def _tie_groups(order: Sequence[Declaration]) -> tuple[tuple[str, ...], ...]:
    groups: list[tuple[str, ...]] = []
    i = 0
    while i < len(order):
        j = i + 1
        while j < len(order) and _same_rank(order[i], order[j]):
            j += 1
        if j - i > 1:
            groups.append(tuple(d.player for d in order[i:j]))
        i = j
    return tuple(groups)


# -- the token pile -------------------------------------------------------------------------------------------
class PileStatus(enum.Enum):
    """What the token pile allows next (RR 5.2): play on, place the robots again, or end the game."""

    CONTINUE = "continue"
    RESET_ROBOTS = "reset_robots"  # RR 5.2: every token left voided in a row, enough left: re-place robots
    NO_VALID_TOKEN = "no_valid_token"  # RR 5.2 / 6.2: the game ends


def token_id(colour: str, symbol: str) -> str:
    """A target token's id, ``colour-symbol`` (``red-circle``), as the pile lists it."""
    return f"{colour}-{symbol}"


@dataclass(frozen=True, slots=True)
class TokenPile:
    """The 17 target tokens (RR 2): face down to draw, the one in play, void ones set aside face up, awarded ones
    and those of players who left (not reused, RR 9.3)."""

    face_down: tuple[str, ...]
    in_play: str | None = None
    set_aside: tuple[str, ...] = ()
    awarded: tuple[tuple[str, str], ...] = ()  # (player, token)
    removed: tuple[str, ...] = ()

    @classmethod
    def for_board(cls, board: Board) -> TokenPile:
        return cls(tuple(sorted(token_id(t.colour, t.symbol) for t in board.targets)))

    def draw(self, rng: random.Random) -> TokenPile:
        """The first player draws a face-down token at random (RR 4.3); randomness is injected."""
        if self.in_play is not None:
            raise RoundError("token_already_in_play", self.in_play)
        if not self.face_down:
            raise RoundError("no_token_to_draw", self.status_counts())
        return self.reveal(rng.choice(sorted(self.face_down)))

    def reveal(self, token: str) -> TokenPile:
        """Record the token actually drawn at the table."""
        if self.in_play is not None:
            raise RoundError("token_already_in_play", self.in_play)
        if token not in self.face_down:
            raise RoundError("token_not_face_down", token)
        rest = list(self.face_down)
        rest.remove(token)
        return replace(self, face_down=tuple(rest), in_play=token)

    def award(self, player: str) -> TokenPile:
        """Valid award: the token goes to the player; void tokens set aside are shuffled back (RR 4.11)."""
        if self.in_play is None:
            raise RoundError("no_token_in_play", player)
        return replace(
            self,
            face_down=tuple(sorted(self.face_down + self.set_aside)),
            in_play=None,
            set_aside=(),
            awarded=(*self.awarded, (player, self.in_play)),
        )

    def void(self) -> TokenPile:
        """Void round: the token stays face up aside until the next valid award (RR 4.11)."""
        if self.in_play is None:
            raise RoundError("no_token_in_play", "void")
        return replace(self, in_play=None, set_aside=(*self.set_aside, self.in_play))

    def remove_player(self, player: str) -> TokenPile:
        """A player leaves the game: their tokens are not reused (RR 9.3)."""
        keep = tuple(a for a in self.awarded if a[0] != player)
        gone = tuple(tok for p, tok in self.awarded if p == player)
        return replace(self, awarded=keep, removed=(*self.removed, *gone))

    def status(self, game_over_tokens_left: int) -> PileStatus:
        """RR 5.2: nothing left to draw → either re-place the robots (enough tokens voided in a row) or end."""
        if self.in_play is not None or self.face_down:
            return PileStatus.CONTINUE
        if len(self.set_aside) > game_over_tokens_left:
            return PileStatus.RESET_ROBOTS
        return PileStatus.NO_VALID_TOKEN

    def reset_for_new_placement(self) -> TokenPile:
        """After RESET_ROBOTS: the set-aside tokens are turned face down and reshuffled."""
        return replace(self, face_down=tuple(sorted(self.face_down + self.set_aside)), set_aside=())

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["awarded"] = [list(a) for a in self.awarded]
        for key in ("face_down", "set_aside", "removed"):
            data[key] = list(data[key])
        return data

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TokenPile:
        try:
            return cls(
                face_down=tuple(obj["face_down"]),
                in_play=obj.get("in_play"),
                set_aside=tuple(obj.get("set_aside", ())),
                awarded=tuple((str(p), str(t)) for p, t in obj.get("awarded", ())),
                removed=tuple(obj.get("removed", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RoundError("bad_token_pile", str(exc)) from None

    def status_counts(self) -> dict[str, int]:
        return {
            "face_down": len(self.face_down),
            "in_play": int(self.in_play is not None),
            "set_aside": len(self.set_aside),
            "awarded": len(self.awarded),
            "removed": len(self.removed),
        }
