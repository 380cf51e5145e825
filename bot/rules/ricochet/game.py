"""A game of Ricochet Robots: game points, first player, the end of the game and the final ranking.

RR 5.1 / RR-NEXT-1: the winner of the last token becomes the first player. RR 6.1: one token, one game point.
RR 6.2 / RR-END-1: the game ends when a player takes the preset's number of tokens for the players at the
*start* (6 for 2, 5 for 3, 4 for 4+), when no valid token is left (RR 5.2), or when fewer than the minimum of
players remain (RR 6.4: the one left is given the points still needed to finish). RR 6.3 / RR-WIN-1: most
tokens wins, equal tokens are joint winners. RR 9.3 / 13.4 / RR-WD-1: a player who leaves during the game
(forfeit, withdrawal, "last of the game") is last, later ones take the places above; a disqualified player is
always below them. RR 14 / RR-INT-1: interruptions up to the preset total resume the game, beyond it a replay.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.rules.outcomes import PlacesError, table_places
from bot.rules.ricochet.config import RicochetRules
from bot.rules.ricochet.round import PileStatus, RoundError, RoundOutcome, RoundStatus, TokenPile


class PlayerStatus(enum.Enum):
    """Whether a player is still in the game or how they left it (the comments name the article); the final ranking
    places them by it."""

    ACTIVE = "active"
    FORFEIT = "forfeit"  # RR 9.3 withdrawal / forfeit, RR 13.5 lateness
    LAST_OF_GAME = "last_of_game"  # RR 13.3 sanction
    DISQUALIFIED = "disqualified"  # RR 13.4


class GameOver(enum.Enum):
    """Why the game ended (RR 6.2, RR 5.2, RR 6.4): a player took the preset's tokens, no valid token is left, or too
    few players remain."""

    TOKENS_REACHED = "tokens_reached"
    NO_VALID_TOKEN = "no_valid_token"
    TOO_FEW_PLAYERS = "too_few_players"


class InterruptionOutcome(enum.Enum):
    """What RR 14 makes of a game's interruptions (RR-INT-1): resume it with the points so far, or replay it."""

    RESUME = "resume"
    REPLAY = "replay"


@dataclass(frozen=True, slots=True)
class Placement:
    """A player's place in the final ranking (RR 6.3, RR-WIN-1): the place (1 = best, shared by joint players), the
    tokens taken and how the player ended the game."""

    player: Any  # the caller's player id (a name in the engine, a registration id in the bot)
    place: int  # 1 = best; joint places share the number
    tokens: int
    status: PlayerStatus
    joint: bool  # shares its place with another player


@dataclass(frozen=True, slots=True)
class GameState:
    """A game as data: the players seated at the start in order, each one's tokens, the token pile, the next first
    player, who left and how, why it ended (None while running) and the minutes of interruptions."""

    players: tuple[str, ...]  # seated at the start, in order
    tokens: tuple[tuple[str, int], ...]
    pile: TokenPile
    first_player: str
    left: tuple[tuple[str, PlayerStatus], ...] = ()  # players who left, in order
    over: GameOver | None = None
    interruption_minutes: float = 0.0

    @property
    def token_map(self) -> dict[str, int]:
        return dict(self.tokens)

    @property
    def active_players(self) -> tuple[str, ...]:
        gone = {p for p, _ in self.left}
        return tuple(p for p in self.players if p not in gone)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "tokens": dict(self.tokens),
            "pile": self.pile.to_json(),
            "first_player": self.first_player,
            "left": [[p, s.value] for p, s in self.left],
            "over": self.over.value if self.over else None,
            "interruption_minutes": self.interruption_minutes,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> GameState:
        try:
            players = tuple(str(p) for p in obj["players"])
            tokens = {str(k): int(v) for k, v in obj["tokens"].items()}
            return cls(
                players=players,
                tokens=tuple((p, tokens[p]) for p in players),
                pile=TokenPile.from_json(obj["pile"]),
                first_player=str(obj["first_player"]),
                left=tuple((str(p), PlayerStatus(s)) for p, s in obj.get("left", ())),
                over=GameOver(obj["over"]) if obj.get("over") else None,
                interruption_minutes=float(obj.get("interruption_minutes", 0.0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RoundError("bad_game_state", str(exc)) from None

    def ranking(self) -> tuple[Placement, ...]:
        return final_ranking(self.token_map, left=self.left, players=self.players)


def new_game(players: Sequence[str], pile: TokenPile, first_player: str, rules: RicochetRules) -> GameState:
    """Start a game; ``first_player`` is drawn by the caller with an injected rng (RR 3)."""
    if len(set(players)) != len(players):
        raise RoundError("duplicate_player", list(players))
    if len(players) < rules.minimum_players:
        raise RoundError("too_few_players", list(players))
    if first_player not in players:
        raise RoundError("unknown_player", first_player)
    return GameState(tuple(players), tuple((p, 0) for p in players), pile, first_player)


def reveal_token(state: GameState, token: str) -> GameState:
    """The first player turns the token drawn at the table (RR 4.3)."""
    _check_running(state)
    return replace(state, pile=state.pile.reveal(token))


def draw_token(state: GameState, rng: random.Random) -> GameState:
    """Draw a face-down token at random (RR 4.3) with an injected rng."""
    _check_running(state)
    return replace(state, pile=state.pile.draw(rng))


def _check_running(state: GameState) -> None:
    if state.over is not None:
        raise RoundError("game_over", state.over.value)


def record_round(state: GameState, outcome: RoundOutcome, rules: RicochetRules) -> GameState:
    """Apply an AWARDED or VOID round to the game (the token in play must be revealed in ``state.pile``)."""
    _check_running(state)
    if outcome.status is RoundStatus.AWARDED:
        assert outcome.winner is not None
        return award(state, outcome.winner, rules)
    if outcome.status is RoundStatus.VOID:
        return void(state, rules)
    raise RoundError("round_not_finished", outcome.status.value)


def award(state: GameState, player: str, rules: RicochetRules) -> GameState:
    """A valid award: one game point (RR 6.1); the winner is the next first player (RR 5.1)."""
    _check_running(state)
    if player not in state.active_players:
        raise RoundError("player_not_active", player)
    tokens = {p: n + (1 if p == player else 0) for p, n in state.tokens}
    new = replace(state, tokens=tuple(tokens.items()), pile=state.pile.award(player), first_player=player)
    if tokens[player] >= rules.end_tokens(len(state.players)):
        return replace(new, over=GameOver.TOKENS_REACHED)
    return _check_pile(new, rules)


def void(state: GameState, rules: RicochetRules) -> GameState:
    """A void round (RR 4.11): the token in play is set aside, and the game ends when no valid token is left
    (RR 5.2)."""
    _check_running(state)
    return _check_pile(replace(state, pile=state.pile.void()), rules)


def _check_pile(state: GameState, rules: RicochetRules) -> GameState:
    status = state.pile.status(rules.game_over_tokens_left)
    if status is PileStatus.NO_VALID_TOKEN:
        return replace(state, over=GameOver.NO_VALID_TOKEN)
    return state


def needs_new_placement(state: GameState, rules: RicochetRules) -> bool:
    """RR 5.2: every token left was voided in a row and more than ``game_over_tokens_left`` remain: the robots
    are placed again as at set-up (then call ``TokenPile.reset_for_new_placement``)."""
    return state.over is None and state.pile.status(rules.game_over_tokens_left) is PileStatus.RESET_ROBOTS


def leave(state: GameState, player: str, status: PlayerStatus, rules: RicochetRules) -> GameState:
    """A player leaves the game (forfeit/withdrawal, "last of the game", disqualification): tokens not reused;
    with fewer than the minimum of players left the game ends and the last one gets the points needed (RR 6.4)."""
    if status is PlayerStatus.ACTIVE:
        raise RoundError("bad_leave_status", status.value)
    if player not in state.active_players:
        raise RoundError("player_not_active", player)
    new = replace(state, left=(*state.left, (player, status)), pile=state.pile.remove_player(player))
    if state.over is not None:
        return new  # placement still changes after the end (e.g. a disqualification), points do not
    remaining = new.active_players
    if len(remaining) < rules.minimum_players:
        needed = rules.end_tokens(len(state.players))
        tokens = {p: (max(n, needed) if p in remaining else n) for p, n in new.tokens}
        return replace(new, tokens=tuple(tokens.items()), over=GameOver.TOO_FEW_PLAYERS)
    if new.first_player == player:
        idx = state.players.index(player)
        order = state.players[idx + 1 :] + state.players[:idx]
        new = replace(new, first_player=next(p for p in order if p in remaining))
    return new


def interruption_outcome(total_minutes: float, rules: RicochetRules) -> InterruptionOutcome:
    """RR 14 / RR-INT-1: up to the preset total the game resumes with the points so far; beyond it, a replay."""
    if total_minutes <= rules.interruption_replay_hours * 60:
        return InterruptionOutcome.RESUME
    return InterruptionOutcome.REPLAY


def final_ranking(
    tokens: Mapping[Any, int],
    *,
    left: Iterable[tuple[Any, PlayerStatus]] = (),
    players: Sequence[Any] | None = None,
    left_at: Mapping[Any, int] | None = None,
) -> tuple[Placement, ...]:
    """Places of one game — the one ranking of a Ricochet Robots table, used by the bot's reports, the standings and
    ``steward standings`` (RR-END-1, RR-WIN-1, RR-WD-1).

    ``tokens``: tokens per player; ``left``: players who left during the game, in the order they left, with
    FORFEIT (RR 9.3 withdrawal / forfeit, RR 13.5 lateness), LAST_OF_GAME (RR 13.3) or DISQUALIFIED (RR 13.4).

    Reading of RR 9.3 and 13.4: players still in the game rank by tokens, equal tokens sharing a place (joint
    winners at the top, RR 6.3). Below them come those who left: the first to forfeit (or to be declared last of the
    game) is last, the next penultimate, and so on — the latest to leave ranks highest. A disqualified player "is
    in any case declared last of the game" (RR 13.4, whatever the order of the forfeits), so every disqualified
    player sits below every forfeit; two disqualified players at one table are both "declared last": they share
    the last place (neither rule puts one above the other). Returned best first.

    ``left_at`` (when the order of leaving is not known from ``left``: a report that records who left, not when)
    gives each forfeit when they left; forfeits who left at the same moment (or whose moment is unknown: the same
    value) share their place — never the order they were listed in.
    """
    order = list(players) if players is not None else list(tokens)
    for p in order:
        if p not in tokens:
            raise RoundError("unknown_player", p)
    left_list = list(left)
    gone = [p for p, _ in left_list]
    for p in gone:
        if p not in tokens:
            raise RoundError("unknown_player", p)
    if len(set(gone)) != len(gone):
        raise RoundError("player_left_twice", gone)
    status = dict(left_list)
    active = [p for p in order if p not in status]
    active.sort(key=lambda p: -tokens[p])
    forfeits = [p for p, s in reversed(left_list) if s is not PlayerStatus.DISQUALIFIED]  # the latest to leave first
    disq = [p for p, s in left_list if s is PlayerStatus.DISQUALIFIED]
    try:  # the one rule of a table's places (bot.rules.outcomes): RR 9.3 orders the forfeits, RR 13.4 does not
        places = table_places(
            [(p, PlayerStatus.ACTIVE.value, -tokens[p]) for p in active]
            + [(p, status[p].value, n if left_at is None else -left_at.get(p, 0)) for n, p in enumerate(forfeits)]
            + [(p, status[p].value, None) for p in disq],
            disqualified_below_withdrawn=True,  # RR 13.4: "in any case" last, below every forfeit
        )
    except PlacesError as exc:
        raise RoundError(exc.code, exc.value) from None
    shared = Counter(places.values())
    return tuple(
        Placement(p, places[p], tokens[p], status.get(p, PlayerStatus.ACTIVE), shared[places[p]] > 1)
        for p in (*active, *forfeits, *disq)
    )


def ranking_from_entries(
    entries: Sequence[tuple[Any, float, PlayerStatus]], *, left_at: Mapping[Any, int] | None = None
) -> tuple[Placement, ...]:
    """``final_ranking`` from a table's report lines (player, tokens, status). ``left_at`` says when each player who
    left did (RR 9.3: the later, the higher); forfeits with the same moment — every one when the report does not
    record it (the bot's typed report: ``{}``) — share their place. Without ``left_at`` the lines' order is the
    leaving order (a document that lists them so)."""
    tokens: dict[Any, int] = {}
    for player, value, _ in entries:
        if float(value) != int(value) or value < 0:
            raise RoundError("tokens_not_whole", f"{player}={value!r}")
        tokens[player] = int(value)
    left = [(p, s) for p, _, s in entries if s is not PlayerStatus.ACTIVE]
    return final_ranking(tokens, left=left, players=[p for p, _, _ in entries], left_at=left_at)
