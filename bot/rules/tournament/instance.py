"""Parse/serialise the ``risiko-draw-instance/1`` documents of ../shared/data/draws (DRAWS.md).

An instance holds the players with their clubs, the round-1 tables with finishing order, the winners,
the 5-player-table players, the previous tablemate pairs and the round-2 table sizes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.tournament.documents import InstanceDocument, validate
from bot.rules.tournament.model import DrawContext, Player, PlayerId, TournamentError


@dataclass(frozen=True, slots=True)
class DrawInstance:
    """A parsed draw instance: its name, the draw context (players, clubs, round-1 history), round 2's table sizes,
    the round-1 tables, and the checked document as given."""

    name: str
    context: DrawContext
    table_sizes: tuple[int, ...]
    round1_tables: tuple[tuple[PlayerId, ...], ...]
    raw: Mapping[str, Any]


def parse_instance(doc: Mapping[str, Any]) -> DrawInstance:
    """Read a ``risiko-draw-instance/1`` mapping, checked by its schema (``documents.InstanceDocument``); raises
    TournamentError naming the bad field."""
    checked = validate(InstanceDocument, doc)
    players = tuple(Player(p.id, p.club) for p in checked.players)
    r1 = checked.round1
    r1_tables = tuple(tuple(t.players) for t in r1.tables)
    ctx = DrawContext.build(
        players,
        five_table_players=r1.five_table_players,
        winners=r1.winners,
        previous_pairs=[(a, b) for a, b in checked.previous_tablemate_pairs],
        previous_tables=r1_tables,
    )
    return DrawInstance(checked.name, ctx, tuple(checked.table_sizes), r1_tables, doc)


def with_round(
    inst: DrawInstance,
    tables: Sequence[Sequence[PlayerId]],
    winners: Sequence[PlayerId],
    *,
    large_table_size: int = 5,
) -> DrawInstance:
    """The instance one round later (TOUR-R2-1 over the whole history): ``tables`` join the earlier tables (every
    tablemate is a repeat pair), their ``winners`` join the earlier winners and their 5-player-table players join
    the earlier ones; same players and table sizes. Round 3 of the benchmarks is ``with_round`` of a round-2 draw."""
    ctx = inst.context
    drawn = [tuple(t) for t in tables]
    ids = set(ctx.ids)
    seated = [p for t in drawn for p in t]
    if sorted(map(str, seated)) != sorted(map(str, ids)) or not set(winners) <= ids:
        raise TournamentError("history_does_not_match_players", len(seated))
    five = set(ctx.five_table_players) | {p for t in drawn if len(t) >= large_table_size for p in t}
    new = DrawContext.build(
        ctx.players,
        five_table_players=five,
        winners=set(ctx.winners) | set(winners),
        previous_pairs=[tuple(p) for p in ctx.previous_pairs],
        previous_tables=[*ctx.previous_tables, *drawn],
    )
    return DrawInstance(inst.name, new, inst.table_sizes, inst.round1_tables, inst.raw)


def round3_instance(
    inst: DrawInstance, round2_tables: Sequence[Sequence[PlayerId]], rng: random.Random
) -> DrawInstance:
    """The shared instance extended with a second history round: ``round2_tables`` played, each table won by a
    player chosen with ``rng`` (the finishing order is not what the draw looks at — only who won)."""
    winners = [rng.choice(list(t)) for t in round2_tables if t]
    return with_round(inst, round2_tables, winners)
