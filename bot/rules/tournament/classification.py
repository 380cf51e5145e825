"""The final classification: the champion and every later place once the final phase is played (BOT-STD-1,
TOUR-FIN-1, NP-FMT-1).

The standings rank the qualifying rounds; a tournament with a final phase ends with another order — at the
prize-giving the final table's winner is first, whatever the qualifying standings said. One function per format
builds it, and every floor (the bot's ``/standings show``, its image and exports, the venue page, the demo,
``steward standings``, the season) asks it:

* :func:`classify_finals` — semifinals and a final (ARB art. 5, TOUR-SF-1/2, TOUR-FIN-1): the final table's places
  first (by that table's result as the preset ranks it: players out of the game share the place their tier gives);
  then the semifinalists by their place at their semifinal and, between equal places, by the standings after the
  qualifying rounds — ARB 5's own measure when it ranks semifinalists for a seat in the final (our reading, field
  ``tournament.semifinal_places``: ``table_points`` orders them by their semifinal table points instead); then
  everyone else by the qualifying standings. Two finals (the odd and even halves of a 100+ field, "Finale o Finali")
  are two parallel tournaments: their winners share the 1st place, their 2nds the 3rd… (our reading). A player
  disqualified from the tournament (expelled: ARB 26, 28) keeps no final-phase place: the standings put them at
  their bottom; one who withdrew during the final phase keeps the place reached (ARB 25, RR 9.3).
* :func:`classify_knockout` — NP's knockout (NP-FMT-1): who went further ranks higher; among those who went out in
  the same round, the better place at their table, then (our reading, field ``tournament.knockout_places``) the
  more table points in that game; still level, they share the place.
* :func:`classify_standings` — a format without a final phase (FIRK, Ricochet Robots, NP all'italiana): the
  standings are the classification once the rounds foreseen (``tournament.qualifying_rounds``) are played.

Before the final phase is over the classification says which places are still open and who plays for them
(:class:`OpenPlaces`). Players level on everything share a place (numbered as the standings number shared ranks);
nothing here depends on the order of a list: every sort has a total key and level players keep one place.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.rules.tournament.cut import canonical
from bot.rules.tournament.model import PlayerId, TournamentError

SEMIFINAL_PLACES = ("standings", "table_points")  # the preset field's values; the first is the default
KNOCKOUT_PLACES = ("table_points", "shared")


class Stage(StrEnum):
    """Where a player's final place was decided."""

    FINAL = "final"
    SEMIFINAL = "semifinal"
    QUALIFYING = "qualifying"  # the qualifying standings (below the final phase, or a format without one)
    KNOCKOUT = "knockout"  # the knockout round the player went out in (the final's players: the final)


@dataclass(frozen=True, slots=True)
class StageSeat:
    """A player's line at a table of the final phase: ``place`` at the table (players sharing a place share the
    number; None while the table has no result), the table points scored there."""

    player: PlayerId
    place: int | None
    table_points: float | None = None


@dataclass(frozen=True, slots=True)
class StageTable:
    """A table of the final phase (a semifinal, a final, a knockout round's table): its round and number, its group
    (``all``; ``odd`` / ``even`` for the halves of a 100+ field) and its seats."""

    round: int
    table: int
    seats: tuple[StageSeat, ...]
    group: str = "all"

    @property
    def played(self) -> bool:
        return bool(self.seats) and all(s.place is not None for s in self.seats)


@dataclass(frozen=True, slots=True)
class ClassifiedPlayer:
    """One line: the final ``place`` (None while it is still open), the player, the stage that decided it, where
    (round, table and place at that table) and the qualifying rank it started from."""

    place: int | None
    player: PlayerId
    stage: Stage
    round: int | None = None
    table: int | None = None
    table_place: int | None = None
    qualifying_rank: int | None = None
    group: str | None = None  # odd / even in a 100+ field's two finals


@dataclass(frozen=True, slots=True)
class OpenPlaces:
    """Places ``first``–``last`` are still to be decided, among ``players``, at ``stage`` (the final, the
    semifinals, a knockout round)."""

    first: int
    last: int
    players: tuple[PlayerId, ...]
    stage: Stage


@dataclass(frozen=True, slots=True)
class FinalClassification:
    """The tournament's final places, best first. ``complete`` once the final phase is played (then ``open`` is
    empty and ``champions`` names the winner — two with two parallel finals)."""

    rows: tuple[ClassifiedPlayer, ...]
    complete: bool
    open: tuple[OpenPlaces, ...] = field(default=())

    @property
    def champions(self) -> tuple[PlayerId, ...]:
        if not self.complete:
            return ()
        return tuple(r.player for r in self.rows if r.place == 1)

    def place_of(self, player: PlayerId) -> int | None:
        return next((r.place for r in self.rows if r.player == player), None)

    def to_json(self) -> list[dict[str, Any]]:
        """``[{"place": 1, "player": id, "stage": …}, …]`` (the whole-tournament export's ``final_classification``;
        ``place`` null while open)."""
        return [
            {
                "place": r.place,
                "player": r.player,
                "stage": r.stage.value,
                "round": r.round,
                "table": r.table,
                "table_place": r.table_place,
                "qualifying_rank": r.qualifying_rank,
            }
            for r in self.rows
        ]


def _numbered(keyed: Sequence[tuple[Hashable, PlayerId]], first: int) -> list[tuple[int, PlayerId]]:
    """Places from ``first`` on for players sorted by key (best first): equal keys share a place, the next place
    skips as many as shared (1, 1, 3 — as the standings number shared ranks)."""
    out: list[tuple[int, PlayerId]] = []
    for i, (key, player) in enumerate(keyed):
        if i and key == keyed[i - 1][0]:
            out.append((out[-1][0], player))
        else:
            out.append((first + i, player))
    return out


def _sorted(players: Collection[PlayerId], key: Callable[[PlayerId], Any]) -> list[tuple[Any, PlayerId]]:
    """``players`` best first by ``key``; level ones in the canonical order (they share a place: the order among
    them is only how the list is written)."""
    return sorted(((key(p), p) for p in players), key=lambda kp: (kp[0], canonical(kp[1])))


def _qualifying_rows(
    standings: Sequence[tuple[PlayerId, int]], players: Collection[PlayerId], first: int
) -> list[ClassifiedPlayer]:
    """``players`` by their qualifying standings rank, numbered from ``first`` (shared ranks stay shared)."""
    rank = dict(standings)
    unranked = len(standings) + 1
    keyed = _sorted(players, lambda p: rank.get(p, unranked))
    return [ClassifiedPlayer(place, p, Stage.QUALIFYING, qualifying_rank=rank.get(p)) for place, p in
            _numbered(keyed, first)]  # fmt: skip


def classify_standings(standings: Sequence[tuple[PlayerId, int]], *, complete: bool) -> FinalClassification:
    """A format without a final phase: the standings (best first, each player's rank) are the classification,
    final once the rounds foreseen are played (``complete``); before that every place is open."""
    if len({p for p, _ in standings}) != len(standings):
        raise TournamentError("duplicate_player", [p for p, _ in standings])
    rows = _qualifying_rows(standings, [p for p, _ in standings], 1)
    if complete:
        return FinalClassification(tuple(rows), True)
    everyone = tuple(r.player for r in rows)
    return FinalClassification(
        tuple(ClassifiedPlayer(None, r.player, r.stage, qualifying_rank=r.qualifying_rank) for r in rows),
        False,
        (OpenPlaces(1, len(rows), everyone, Stage.QUALIFYING),) if rows else (),
    )


def _stage_rows(
    tables: Sequence[StageTable],
    stage: Stage,
    first: int,
    *,
    rank: Mapping[PlayerId, int],
    by: str,
    skip: Collection[PlayerId] = (),
) -> list[ClassifiedPlayer]:
    """The players of played ``tables`` (minus ``skip``) numbered from ``first``: by their place at the table, then
    ``by`` (``standings``: the qualifying rank; ``table_points``: more first; ``shared``: nothing), else shared."""
    unranked = len(rank) + 1
    seat: dict[PlayerId, tuple[StageTable, StageSeat]] = {}
    for table in tables:
        for s in table.seats:
            if s.player in seat:
                raise TournamentError("player_at_two_tables", s.player)
            seat[s.player] = (table, s)

    def key(p: PlayerId) -> tuple[float, ...]:
        _, s = seat[p]
        place = float(s.place if s.place is not None else 1 << 20)
        if by == "standings":
            return (place, float(rank.get(p, unranked)))
        if by == "table_points":
            return (place, -(s.table_points or 0.0))
        return (place,)

    keyed = _sorted([p for p in seat if p not in set(skip)], key)
    rows = []
    for place, p in _numbered(keyed, first):
        table, s = seat[p]
        rows.append(ClassifiedPlayer(place, p, stage, table.round, table.table, s.place, rank.get(p),
                                     table.group if table.group != "all" else None))  # fmt: skip
    return rows


def classify_finals(
    standings: Sequence[tuple[PlayerId, int]],
    *,
    semifinals: Sequence[StageTable] | None = None,
    finals: Sequence[StageTable] | None = None,
    direct_finalists: Collection[PlayerId] = (),
    expelled: Collection[PlayerId] = (),
    semifinal_places: str = "standings",
) -> FinalClassification:
    """ARB art. 5's final phase (TOUR-SF-1/2, TOUR-FIN-1): see the module docstring for the order.

    ``standings``: the qualifying standings, every player best first with their rank (the withdrawn and disqualified
    at their bottom, as the standings put them). ``semifinals``: the semifinal tables (None: not seeded yet — every
    place is open); ``direct_finalists``: those seated straight in the final; ``finals``: the final table(s) (None:
    not composed yet); ``expelled``: players disqualified from the tournament (they keep no final-phase place).
    """
    if semifinal_places not in SEMIFINAL_PLACES:
        raise TournamentError("unknown_semifinal_places", semifinal_places)
    rank = dict(standings)
    everyone = [p for p, _ in standings]
    if len(set(everyone)) != len(everyone):
        raise TournamentError("duplicate_player", everyone)
    out = set(expelled)
    if semifinals is None:
        return classify_standings(standings, complete=False)
    top = {s.player for t in semifinals for s in t.seats} | set(direct_finalists)
    if finals is not None:
        top |= {s.player for t in finals for s in t.seats}
    top -= out
    below = _qualifying_rows(standings, [p for p in everyone if p not in top], len(top) + 1)
    semis_played = all(t.played for t in semifinals)
    finals_played = finals is not None and bool(finals) and all(t.played for t in finals)
    if finals is None or not semis_played:
        rows = _qualifying_rows(standings, top, 1)
        open_rows = [ClassifiedPlayer(None, r.player, Stage.SEMIFINAL, qualifying_rank=r.qualifying_rank)
                     for r in rows]  # fmt: skip
        block = OpenPlaces(1, len(top), tuple(r.player for r in rows), Stage.SEMIFINAL)
        return FinalClassification(tuple(open_rows + below), False, (block,) if top else ())
    finalists = {s.player for t in finals for s in t.seats} - out
    semi_rows = _stage_rows(semifinals, Stage.SEMIFINAL, len(finalists) + 1, rank=rank, by=semifinal_places,
                            skip=finalists | out)  # fmt: skip
    # a semifinalist who is neither a finalist nor at a semifinal table: a direct finalist who declined after the
    # semifinals were published — ranked after the semifinalists, by the standings
    seated = {r.player for r in semi_rows} | finalists
    stray = _qualifying_rows(standings, [p for p in top if p not in seated], len(seated) + 1)
    if finals_played:
        final_rows = _stage_rows(finals, Stage.FINAL, 1, rank=rank, by="shared", skip=out)
        return FinalClassification(tuple(final_rows + semi_rows + stray + below), True)
    ordered = _qualifying_rows(standings, finalists, 1)
    open_rows = [ClassifiedPlayer(None, r.player, Stage.FINAL, qualifying_rank=r.qualifying_rank) for r in ordered]
    block = OpenPlaces(1, len(finalists), tuple(r.player for r in ordered), Stage.FINAL)
    return FinalClassification(tuple(open_rows + semi_rows + stray + below), False, (block,) if finalists else ())


def classify_knockout(
    rounds: Sequence[Sequence[StageTable]],
    *,
    players: Collection[PlayerId] = (),
    final_played: bool,
    expelled: Collection[PlayerId] = (),
    knockout_places: str = "table_points",
) -> FinalClassification:
    """NP-FMT-1: ``rounds`` oldest first, each its tables; ``final_played`` when the last round is the final and
    every table of it has a result. Who went further ranks higher: the last round's players first (by their place at
    the final once it is played), then those out in the round before, and so on; in one round by the place at the
    table, then (``knockout_places = "table_points"``) the table points scored there; level players share the place.
    Before the final is played the players of the latest round share the open places at the top; places of players
    already out are final. ``players``: every entrant (one who never sat at a table ranks last, sharing the place);
    ``expelled`` (disqualified from the tournament) rank after everyone, sharing the last places."""
    if knockout_places not in KNOCKOUT_PLACES:
        raise TournamentError("unknown_knockout_places", knockout_places)
    out = set(expelled)
    last_round: dict[PlayerId, int] = {}
    for i, tables in enumerate(rounds):
        for table in tables:
            for s in table.seats:
                last_round[s.player] = i
    rows: list[ClassifiedPlayer] = []
    open_blocks: list[OpenPlaces] = []
    place = 1
    for i in range(len(rounds) - 1, -1, -1):
        here = [p for p, r in last_round.items() if r == i and p not in out]
        if not here:
            continue
        latest = i == len(rounds) - 1
        if latest and not final_played:
            ordered = _sorted(here, lambda p: 0)
            block = tuple(p for _, p in ordered)
            open_blocks.append(OpenPlaces(place, place + len(block) - 1, block, Stage.KNOCKOUT))
            rows += [ClassifiedPlayer(None, p, Stage.KNOCKOUT, round=_round_of(rounds[i], p)) for p in block]
            place += len(block)
            continue
        by = "table_points" if knockout_places == "table_points" else "shared"
        stage = Stage.FINAL if latest else Stage.KNOCKOUT
        stage_rows = _stage_rows(rounds[i], stage, place, rank={}, by=by, skip=[p for p in last_round if
                                 last_round[p] != i or p in out])  # fmt: skip
        rows += stage_rows
        place += len(stage_rows)
    rest = [p for p in players if p not in last_round and p not in out]
    rows += [ClassifiedPlayer(place, p, Stage.KNOCKOUT) for p in sorted(rest, key=canonical)]
    place += len(rest)
    gone = sorted(out & (set(last_round) | set(players)), key=canonical)
    rows += [ClassifiedPlayer(place, p, Stage.KNOCKOUT, round=None) for p in gone]
    return FinalClassification(tuple(rows), final_played, tuple(open_blocks))


def _round_of(tables: Sequence[StageTable], player: PlayerId) -> int | None:
    return next((t.round for t in tables for s in t.seats if s.player == player), None)
