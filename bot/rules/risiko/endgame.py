"""End of a game as small state machines fed with events.

* ``sdadata`` (RK-SD-1..3; NP "finale con sdadata", UFF casistica "sdadata"): after the time limit the round in
  progress ends, one full supplementary round is played, then the last seat of the round rolls two dice after
  its turn; a total at or under the threshold ends the game, otherwise every player rolls after their turn.
  The threshold starts at 4 and rises by 1 each time play comes back to the last seat, up to 7. A player who
  conquered more than 2 territories in the turn does not roll. If the last seat is eliminated the player before
  becomes the last seat from the next round on, so they roll with the thresholds the last seat would have had
  (UFF example: 4th rolls 4, 1st/2nd/3rd roll 4, the 3rd eliminates the 4th, next round the 3rd rolls 5).
  A forgotten roll lapses once the next player ends their turn: a warning, the second time the player is out.
* ``firk`` (FIRK-TIME-1, FIRK §2-3): when time is up the round in progress is announced as the third-to-last;
  after the last round every player may play up to 3 supplementary turns in seat order or pass; the game ends
  when all remaining players pass consecutively or all have used their turns; a conquest in a supplementary turn
  draws 2 cards.

Events (dicts, see ``Event.parse``): ``time_up``, ``turn_ended`` (player, conquests), ``roll`` (player, dice),
``pass`` (player; FIRK supplementary turns), ``player_eliminated`` (player), ``player_withdrawn`` (player).
A withdrawn player's territories turn neutral (ARB art. 25): the seat plays no more turns, but in the sdadata
its rolls are still made, by the player before it, with the seat's own thresholds. Each step returns the new
state and an ``Outcome`` code; nothing here knows wording.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from bot.rules.risiko.config import EndRules, RisikoRules
from bot.rules.risiko.errors import RisikoError

EVENT_KINDS = ("time_up", "turn_ended", "roll", "pass", "player_eliminated", "player_withdrawn")


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened at the table during the end procedure: its ``kind`` (one of :data:`EVENT_KINDS`), the
    player it concerns, and the conquests of a ``turn_ended`` or the dice of a ``roll``."""

    kind: str
    player: str | None = None
    conquests: int = 0
    dice: tuple[int, ...] = ()

    @classmethod
    def parse(cls, obj: object) -> Event:
        if not isinstance(obj, Mapping) or obj.get("event") not in EVENT_KINDS:
            raise RisikoError("event_invalid", obj)
        kind = str(obj["event"])
        allowed = {
            "time_up": {"event"},
            "turn_ended": {"event", "player", "conquests"},
            "roll": {"event", "player", "dice"},
        }
        extra = set(obj) - allowed.get(kind, {"event", "player"})
        if extra:
            raise RisikoError("event_field_unknown", sorted(extra)[0])
        player = obj.get("player")
        if kind != "time_up" and not isinstance(player, str):
            raise RisikoError("event_player_missing", obj)
        conquests = obj.get("conquests", 0)
        if not isinstance(conquests, int) or isinstance(conquests, bool) or conquests < 0:
            raise RisikoError("conquests_invalid", conquests)
        dice = obj.get("dice", [])
        if kind == "roll" and (not isinstance(dice, list) or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice)):
            raise RisikoError("dice_invalid", dice)
        return cls(kind, player if isinstance(player, str) else None, conquests, tuple(dice))

    def serialise(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind}
        if self.player is not None:
            out["player"] = self.player
        if self.kind == "turn_ended":
            out["conquests"] = self.conquests
        if self.kind == "roll":
            out["dice"] = list(self.dice)
        return out


class Outcome(Enum):
    """What a step of the end procedure led to, as a code the presentation words (the comments name the rule)."""

    TIME_RECORDED = "time_recorded"  # sdadata: the round in progress ends, then one supplementary round
    ROUNDS_ANNOUNCED = "rounds_announced"  # FIRK: the round in progress is the third-to-last
    NEXT_TURN = "next_turn"
    ROLL_REQUIRED = "roll_required"
    NO_ROLL_CONQUESTS = "no_roll_conquests"  # RK-SD-2
    GAME_CONTINUES = "game_continues"  # roll above the threshold
    GAME_ENDED = "game_ended"
    FORGOTTEN_ROLL_WARNING = "forgotten_roll_warning"  # RK-SD-3
    FORGOTTEN_ROLL_OUT = "forgotten_roll_out"
    PLAYER_OUT = "player_out"
    PLAYER_WITHDRAWN = "player_withdrawn"
    SUPPLEMENTARY_PLAYED = "supplementary_played"
    SUPPLEMENTARY_PASSED = "supplementary_passed"


class EndReason(Enum):
    """Why the game ended: the sdadata roll, every player passing or using their supplementary turns (FIRK), or one
    player left."""

    SDADATA = "sdadata"
    ALL_PASSED = "all_passed"
    SUPPLEMENTARY_USED = "supplementary_used"
    ONE_PLAYER_LEFT = "one_player_left"


@dataclass(frozen=True, slots=True)
class EndState:
    """Where the end procedure stands. Seats are indices into ``players`` (playing order)."""

    procedure: str
    players: tuple[str, ...]
    current: int = 0
    out: tuple[str, ...] = ()  # eliminated or excluded, in order
    withdrawn: tuple[str, ...] = ()  # neutral seats: no turns; their sdadata rolls are made by the seat before
    time_up: bool = False
    last_seat_ends: int = 0  # sdadata: last-seat turn ends since time up; FIRK: rounds completed since announcement
    last_seat_rolls: int = 0  # sdadata: last-seat roll turns so far (the threshold counter)
    current_is_last_seat: bool = False  # when the turn started; an elimination of the last seat during it hands over
    pending: tuple[tuple[str, str, int], ...] = ()  # rolls owed: (roller, seat rolled for, threshold)
    forgotten: tuple[tuple[str, int], ...] = ()
    supplementary: bool = False  # FIRK supplementary turns running
    used: tuple[tuple[str, int], ...] = ()
    consecutive_passes: int = 0
    ended: bool = False
    end_reason: str | None = None
    cards_drawn: int = 0  # cards drawn for the last turn_ended (FIRK supplementary: 2)
    log: tuple[Mapping[str, Any], ...] = field(default=(), compare=False)

    # -- notation ------------------------------------------------------------------------------------------
    def serialise(self) -> dict[str, Any]:
        return {
            "procedure": self.procedure,
            "players": list(self.players),
            "current": self.players[self.current],
            "out": list(self.out),
            "time_up": self.time_up,
            "last_seat_ends": self.last_seat_ends,
            "last_seat_rolls": self.last_seat_rolls,
            "current_is_last_seat": self.current_is_last_seat,
            "withdrawn": list(self.withdrawn),
            "pending": [{"player": r, "for": seat, "threshold": t} for r, seat, t in self.pending],
            "forgotten": dict(self.forgotten),
            "supplementary": self.supplementary,
            "used": dict(self.used),
            "consecutive_passes": self.consecutive_passes,
            "ended": self.ended,
            "end_reason": self.end_reason,
            "cards_drawn": self.cards_drawn,
        }

    @classmethod
    def parse(cls, obj: Mapping[str, Any]) -> EndState:
        players = tuple(obj["players"])
        return cls(
            procedure=str(obj["procedure"]),
            players=players,
            current=players.index(obj["current"]),
            out=tuple(obj.get("out", ())),
            time_up=bool(obj.get("time_up", False)),
            last_seat_ends=int(obj.get("last_seat_ends", 0)),
            last_seat_rolls=int(obj.get("last_seat_rolls", 0)),
            current_is_last_seat=bool(obj.get("current_is_last_seat", False)),
            withdrawn=tuple(obj.get("withdrawn", ())),
            pending=tuple((str(x["player"]), str(x["for"]), int(x["threshold"])) for x in obj.get("pending", ())),
            forgotten=tuple(sorted(obj.get("forgotten", {}).items())),
            supplementary=bool(obj.get("supplementary", False)),
            used=tuple(sorted(obj.get("used", {}).items())),
            consecutive_passes=int(obj.get("consecutive_passes", 0)),
            ended=bool(obj.get("ended", False)),
            end_reason=obj.get("end_reason"),
            cards_drawn=int(obj.get("cards_drawn", 0)),
        )

    # -- helpers -------------------------------------------------------------------------------------------
    def alive(self) -> list[str]:
        """Seats still on the board (withdrawn seats included)."""
        return [p for p in self.players if p not in self.out]

    def active(self) -> list[str]:
        """Players still taking turns."""
        return [p for p in self.players if p not in self.out and p not in self.withdrawn]

    def is_last_seat(self, seat: int) -> bool:
        return all(p in self.out for p in self.players[seat + 1 :])

    def next_seat(self, seat: int) -> int:
        n = len(self.players)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self.players[s] not in self.out and self.players[s] not in self.withdrawn:
                return s
        return seat


def elimination_allowed(rules: RisikoRules, completed_turns: int) -> bool:
    """RK-ELIM-1 / FIRK-ELIM-1 (boxed rules, FIRK §23): nobody may be eliminated before the end of turn 4.

    ``completed_turns`` counts the full turns already finished at the table (0 during the first turn)."""
    if completed_turns < 0:
        raise RisikoError("negative_count", completed_turns)
    return completed_turns >= rules.elimination_after_turn


def time_limit_reached(rules: EndRules, elapsed_minutes: float, recovery_minutes: float = 0.0) -> bool:
    """RK-SD-1 / FIRK-TIME-1 with TOUR-TIME-1: the preset's time limit (NP 120, FIRK 105) plus the recovery minutes
    a referee granted for interruptions has passed, so the timed ending (sdadata or FIRK's last rounds) begins."""
    if elapsed_minutes < 0 or recovery_minutes < 0:
        raise RisikoError("negative_minutes", min(elapsed_minutes, recovery_minutes))
    return elapsed_minutes >= rules.time_limit_minutes + recovery_minutes


def start(players: Sequence[str], rules: EndRules, current: str | None = None) -> EndState:
    """A game in progress before the time limit; ``current`` is whose turn it is (default the first seat)."""
    names = tuple(players)
    if len(names) < 2 or not all(isinstance(p, str) and p for p in names) or len(set(names)) != len(names):
        raise RisikoError("players_invalid", list(names))
    seat = 0 if current is None else _seat(names, current)
    state = EndState(procedure=rules.procedure, players=names, current=seat)
    return replace(state, current_is_last_seat=state.is_last_seat(seat))


def _seat(players: Sequence[str], name: str | None) -> int:
    if name is None or name not in players:
        raise RisikoError("unknown_player", name)
    return list(players).index(name)


def threshold_for(state: EndState, rules: EndRules, last_seat: bool) -> int:
    """RK-SD-1: the last seat's k-th roll turn uses first + k*step (capped); the others the last seat's latest."""
    k = state.last_seat_rolls if last_seat else max(0, state.last_seat_rolls - 1)
    return min(rules.sdadata_first_threshold + k * rules.sdadata_threshold_step, rules.sdadata_max_threshold)


def step(state: EndState, event: Event, rules: EndRules) -> tuple[EndState, Outcome, dict[str, Any]]:
    """Apply one event; returns (new state, outcome code, details such as player/threshold/cards)."""
    if state.ended:
        raise RisikoError("game_already_ended", event.serialise())
    if event.kind == "player_eliminated":
        return _eliminate(state, _checked_player(state, event.player), Outcome.PLAYER_OUT, {})
    if event.kind == "player_withdrawn":
        return _withdraw(state, _checked_player(state, event.player))
    if rules.procedure == "sdadata":
        return _step_sdadata(state, event, rules)
    return _step_firk(state, event, rules)


def _checked_player(state: EndState, name: str | None) -> str:
    seat = _seat(state.players, name)
    player = state.players[seat]
    if player in state.out:
        raise RisikoError("player_already_out", player)
    return player


def _eliminate(
    state: EndState, player: str, outcome: Outcome, details: dict[str, Any]
) -> tuple[EndState, Outcome, dict[str, Any]]:
    if state.players[state.current] == player and outcome is Outcome.PLAYER_OUT:
        raise RisikoError("player_out_on_own_turn", player)
    pending = tuple(x for x in state.pending if player not in (x[0], x[1]))
    withdrawn = tuple(p for p in state.withdrawn if p != player)
    new = replace(state, out=(*state.out, player), withdrawn=withdrawn, pending=pending)
    details = {**details, "player": player}
    if len(new.alive()) < 2 or not new.active():
        return replace(new, ended=True, end_reason=EndReason.ONE_PLAYER_LEFT.value), Outcome.GAME_ENDED, details
    if new.players[new.current] in new.out:
        new = _advance(new)
    return new, outcome, details


def _withdraw(state: EndState, player: str) -> tuple[EndState, Outcome, dict[str, Any]]:
    """ARB art. 25: the seat turns neutral; a withdrawal during one's own turn ends that turn without a roll."""
    if player in state.withdrawn:
        raise RisikoError("player_already_withdrawn", player)
    pending = tuple(x for x in state.pending if x[0] != player)
    new = replace(state, withdrawn=(*state.withdrawn, player), pending=pending)
    if not new.active():
        return (
            replace(new, ended=True, end_reason=EndReason.ONE_PLAYER_LEFT.value),
            Outcome.GAME_ENDED,
            {"player": player},
        )
    if new.players[new.current] == player:
        new = _advance(new)
    return new, Outcome.PLAYER_WITHDRAWN, {"player": player}


def _advance(state: EndState) -> EndState:
    seat = state.next_seat(state.current)
    return replace(state, current=seat, current_is_last_seat=state.is_last_seat(seat))


def _expect_turn(state: EndState, player: str | None) -> str:
    name = _checked_player(state, player)
    if name != state.players[state.current] or name in state.withdrawn:
        raise RisikoError("not_their_turn", name)
    return name


def _step_sdadata(state: EndState, event: Event, rules: EndRules) -> tuple[EndState, Outcome, dict[str, Any]]:
    if event.kind == "time_up":
        if state.time_up:
            raise RisikoError("time_already_up", event.kind)
        return replace(state, time_up=True), Outcome.TIME_RECORDED, {"player": state.players[state.current]}
    if event.kind == "pass":
        raise RisikoError("event_not_in_procedure", event.kind)
    if event.kind == "roll":
        if not state.pending or state.pending[0][0] != event.player:
            raise RisikoError("roll_not_expected", event.player)
        if len(event.dice) != rules.sdadata_dice:
            raise RisikoError("sdadata_dice_count_invalid", list(event.dice))
        player, seat, threshold = state.pending[0]
        total = sum(event.dice)
        details = {"player": player, "for": seat, "threshold": threshold, "total": total}
        new = replace(state, pending=state.pending[1:])
        if total <= threshold:
            return replace(new, ended=True, end_reason=EndReason.SDADATA.value), Outcome.GAME_ENDED, details
        return new, Outcome.GAME_CONTINUES, details
    # turn_ended
    player = _expect_turn(state, event.player)
    new = state
    forgotten_note: dict[str, Any] = {}
    if new.pending:  # the previous roll(s) were forgotten and have now lapsed
        late = new.pending[0][0]
        counts = dict(new.forgotten)
        counts[late] = counts.get(late, 0) + 1
        new = replace(new, forgotten=tuple(sorted(counts.items())), pending=())
        forgotten_note = {"forgotten_by": late, "forgotten_count": counts[late]}
        if rules.sdadata_forgotten_rolls_to_out and counts[late] >= rules.sdadata_forgotten_rolls_to_out:
            new, outcome, details = _eliminate(new, late, Outcome.FORGOTTEN_ROLL_OUT, {})
            forgotten_note["forgotten_outcome"] = Outcome.FORGOTTEN_ROLL_OUT.value
            if outcome is Outcome.GAME_ENDED:
                return new, outcome, {**details, **forgotten_note}
        else:
            forgotten_note["forgotten_outcome"] = Outcome.FORGOTTEN_ROLL_WARNING.value
    outcome = Outcome.NEXT_TURN
    info: dict[str, Any] = {"player": player, **forgotten_note}
    # Reading 2 (UFF casistica, "Ritiro/squalifica" third bullet and "Sdadata" first bullet): when the last seat
    # of the round is eliminated (also by this player during this very turn), this player becomes the last of the
    # round at once: their turn end is the last seat's, and once the rolls have begun they roll their own threshold
    # and also the one the last seat would have rolled ("not only with 4 but also with 5").
    took_over = not new.current_is_last_seat and new.is_last_seat(new.current)
    thresholds: list[int] = []
    new, own_threshold = _seat_turn_end(new, rules, new.current_is_last_seat)
    if own_threshold is not None:
        thresholds.append(own_threshold)
    if took_over:
        new, last_threshold = _seat_turn_end(new, rules, True)
        info["took_over_last_seat"] = True
        if last_threshold is not None:
            thresholds.append(last_threshold)
    if thresholds:
        info["threshold"] = thresholds[0]
        if len(thresholds) > 1:
            info["thresholds"] = thresholds
        if event.conquests > rules.sdadata_max_conquests:
            outcome = Outcome.NO_ROLL_CONQUESTS
        else:
            new = replace(new, pending=(*new.pending, *((player, player, t) for t in thresholds)))
            outcome = Outcome.ROLL_REQUIRED
    # Withdrawn seats right after this player: their (turn-less) rolls are made by this player (ARB art. 25).
    index = new.current
    extra: list[dict[str, Any]] = []
    for _ in range(len(new.players) - 1):
        index = (index + 1) % len(new.players)
        name = new.players[index]
        if name in new.out:
            continue
        if name not in new.withdrawn:
            break
        new, seat_threshold = _seat_turn_end(new, rules, new.is_last_seat(index))
        if seat_threshold is not None:
            new = replace(new, pending=(*new.pending, (player, name, seat_threshold)))
            extra.append({"for": name, "threshold": seat_threshold})
    if extra:
        info["rolls_for_withdrawn"] = extra
        if outcome is Outcome.NEXT_TURN:
            outcome = Outcome.ROLL_REQUIRED
    new = _advance(replace(new, cards_drawn=1 if event.conquests else 0))
    return new, outcome, info


def _seat_turn_end(state: EndState, rules: EndRules, last_seat: bool) -> tuple[EndState, int | None]:
    """Count a seat's turn end after time up; the threshold when that seat rolls now, else None.

    The last seat first rolls at the end of the supplementary round (its 2nd turn end after time up); from then
    on every seat rolls after its turn.
    """
    new = state
    if not new.time_up:
        return new, None
    if last_seat:
        new = replace(new, last_seat_ends=new.last_seat_ends + 1)
    if (last_seat and new.last_seat_ends >= 2) or (not last_seat and new.last_seat_rolls > 0):
        threshold = threshold_for(new, rules, last_seat)
        if last_seat:
            new = replace(new, last_seat_rolls=new.last_seat_rolls + 1)
        return new, threshold
    return new, None


def _step_firk(state: EndState, event: Event, rules: EndRules) -> tuple[EndState, Outcome, dict[str, Any]]:
    if event.kind == "roll":
        raise RisikoError("event_not_in_procedure", event.kind)
    if event.kind == "time_up":
        if state.time_up:
            raise RisikoError("time_already_up", event.kind)
        details = {"player": state.players[state.current], "rounds_left": rules.announce_rounds_left}
        return replace(state, time_up=True), Outcome.ROUNDS_ANNOUNCED, details
    player = _expect_turn(state, event.player)
    used = dict(state.used)
    if event.kind == "pass":
        if not state.supplementary:
            raise RisikoError("pass_outside_supplementary_turns", player)
        new = replace(state, consecutive_passes=state.consecutive_passes + 1, cards_drawn=0)
        if new.consecutive_passes >= len(new.active()):
            return (
                replace(new, ended=True, end_reason=EndReason.ALL_PASSED.value),
                Outcome.GAME_ENDED,
                {"player": player},
            )
        return _firk_next(new, rules), Outcome.SUPPLEMENTARY_PASSED, {"player": player}
    # turn_ended
    if state.supplementary:
        if used.get(player, 0) >= rules.supplementary_turns:
            raise RisikoError("no_supplementary_turns_left", player)
        used[player] = used.get(player, 0) + 1
        cards = rules.supplementary_conquest_cards if event.conquests else 0
        new = replace(state, used=tuple(sorted(used.items())), consecutive_passes=0, cards_drawn=cards)
        details = {"player": player, "cards": cards, "used": used[player]}
        if all(used.get(p, 0) >= rules.supplementary_turns for p in new.active()):
            return replace(new, ended=True, end_reason=EndReason.SUPPLEMENTARY_USED.value), Outcome.GAME_ENDED, details
        return _firk_next(new, rules), Outcome.SUPPLEMENTARY_PLAYED, details
    new = replace(state, cards_drawn=1 if event.conquests else 0)
    details = {"player": player, "cards": new.cards_drawn}
    if new.time_up and new.current_is_last_seat:
        new = replace(new, last_seat_ends=new.last_seat_ends + 1)
        if new.last_seat_ends >= rules.announce_rounds_left:
            first = next(i for i, p in enumerate(new.players) if p in new.active())
            new = replace(new, supplementary=True, current=first, current_is_last_seat=new.is_last_seat(first))
            return _skip_exhausted(new, rules), Outcome.NEXT_TURN, {**details, "supplementary_starts": True}
    return _advance(new), Outcome.NEXT_TURN, details


def _firk_next(state: EndState, rules: EndRules) -> EndState:
    return _skip_exhausted(_advance(state), rules)


def _skip_exhausted(state: EndState, rules: EndRules) -> EndState:
    """A player with no supplementary turns left can only pass: counted as a pass automatically."""
    used = dict(state.used)
    new = state
    for _ in range(len(new.players)):
        name = new.players[new.current]
        if used.get(name, 0) < rules.supplementary_turns:
            return new
        new = replace(new, consecutive_passes=new.consecutive_passes + 1)
        if new.consecutive_passes >= len(new.active()):
            return replace(new, ended=True, end_reason=EndReason.ALL_PASSED.value)
        new = _advance(new)
    return new


def expectation(state: EndState) -> dict[str, Any]:
    """What the table waits for next: a roll (who, threshold), a turn or a supplementary choice, or nothing."""
    if state.ended:
        return {"kind": "none", "end_reason": state.end_reason}
    if state.pending:
        roller, seat, threshold = state.pending[0]
        out = {"kind": "roll", "player": roller, "threshold": threshold}
        if seat != roller:
            out["for"] = seat
        return out
    kind = "supplementary_choice" if state.supplementary else "turn"
    return {"kind": kind, "player": state.players[state.current]}


def run(
    players: Sequence[str], events: Sequence[Event], rules: EndRules, current: str | None = None
) -> tuple[EndState, list[dict[str, Any]]]:
    """Feed ``events`` from the start; returns the final state and one log entry per event."""
    state = start(players, rules, current)
    log: list[dict[str, Any]] = []
    for index, event in enumerate(events):
        state, outcome, details = step(state, event, rules)
        log.append({"index": index, "event": event.kind, "outcome": outcome.value, **details})
    return state, log
