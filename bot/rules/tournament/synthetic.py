"""Synthetic draw instances (same shape as ``risiko-draw-instance/1``) for tests and the benchmark.

``harsh_instance`` builds the held-back style of field DRAWS.md warns about: one club holding a large
share of the players (30-50 %), a few mid clubs, many small clubs and some unaffiliated players. The
round-1 tables are a plain random draw with a random finishing order.
"""

from __future__ import annotations

import random
from typing import Any

from bot.rules.tournament.sizes import standard_sizes


def harsh_instance(n: int, rng: random.Random, *, big_share: float = 0.4, name: str = "") -> dict[str, Any]:
    """A ``risiko-draw-instance/1`` document with one dominant club of ``big_share`` of ``n`` players."""
    sizes = list(standard_sizes(n))
    big = max(2, round(n * big_share))
    clubs: list[str | None] = ["B00"] * big
    k = 1
    while len(clubs) < n:
        remaining = n - len(clubs)
        if remaining <= 2:
            clubs.extend([None] * remaining)
            break
        s = min(remaining, rng.choice([1, 2, 2, 3, 3, 4, 6]))
        clubs.extend([f"C{k:02d}"] * s)
        k += 1
    rng.shuffle(clubs)
    players = [{"id": i + 1, "club": c} for i, c in enumerate(clubs)]
    order = [p["id"] for p in players]
    rng.shuffle(order)
    tables = []
    pos = 0
    r1_sizes = sorted(sizes)
    for t, s in enumerate(r1_sizes, start=1):
        members = order[pos : pos + s]
        pos += s
        ranking = list(members)
        rng.shuffle(ranking)
        tables.append({"table": t, "size": s, "players": members, "ranking": ranking})
    pairs = sorted(
        {tuple(sorted((a, b))) for t in tables for a in t["players"] for b in t["players"] if a != b}  # type: ignore[attr-defined]
    )
    club_sizes: dict[str, int] = {}
    for c in clubs:
        if c is not None:
            club_sizes[c] = club_sizes.get(c, 0) + 1
    return {
        "schema": "risiko-draw-instance/1",
        "name": name or f"harsh_n{n}",
        "family": "harsh",
        "n": n,
        "table_sizes": sizes,
        "clubs": [{"id": c, "size": s} for c, s in sorted(club_sizes.items())],
        "players": players,
        "round1": {
            "tables": tables,
            "winners": [t["ranking"][0] for t in tables],  # type: ignore[index]
            "five_table_players": [x for t in tables if t["size"] == 5 for x in t["players"]],  # type: ignore[attr-defined]
        },
        "previous_tablemate_pairs": [list(p) for p in pairs],
    }


# ----------------------------------------------------------------------------------- tournaments with a history

CLUB_MIXES = ("ordinary", "club_heavy", "extreme")


def club_field(n: int, mix: str, rng: random.Random) -> list[str | None]:
    """The clubs of ``n`` players: ``ordinary`` (clubs of 1-6, a tenth unaffiliated), ``club_heavy`` (two clubs
    holding a quarter and a sixth of the field, the rest ordinary) or ``extreme`` (one club holding half)."""
    if mix not in CLUB_MIXES:
        raise ValueError(f"unknown club mix {mix!r}")
    clubs: list[str | None] = []
    if mix == "club_heavy":
        clubs += ["H1"] * round(n * 0.25) + ["H2"] * round(n * 0.16)
    elif mix == "extreme":
        clubs += ["X1"] * round(n * 0.5)
    k = 1
    while len(clubs) < n:
        if rng.random() < 0.1:
            clubs.append(None)
            continue
        s = min(n - len(clubs), rng.choice([1, 2, 2, 3, 3, 4, 5, 6]))
        clubs += [f"C{k:03d}"] * s
        k += 1
    rng.shuffle(clubs)
    return clubs


def tournament_requests(
    n: int,
    *,
    mix: str = "ordinary",
    seed: int = 0,
    rounds: int = 4,
    preset: str = "risiko-ufficiali-2018",
    overrides: dict[str, Any] | None = None,
) -> list[Any]:
    """The bot's own draw exports of a synthetic tournament: round 1's request, then each later round's with the
    full history (every earlier table, winner and 5-player-table player). Every round is drawn by the project's
    planner (``plan_draw``, seed = ``seed * 100 + round``) and played with a seeded random finishing order, as the
    services do with reported results. Returns ``rounds`` :class:`~bot.rules.tournament.planner.DrawRequest`."""
    from bot.rules.tournament.model import Player, PlayerId
    from bot.rules.tournament.planner import DrawRequest, plan_draw

    rng = random.Random(f"{n}-{mix}-{seed}")
    players = tuple(Player(i + 1, c) for i, c in enumerate(club_field(n, mix, rng)))
    large = 5
    tables: list[tuple[PlayerId, ...]] = []
    winners: list[PlayerId] = []
    five: list[PlayerId] = []
    out: list[Any] = []
    for round_no in range(1, rounds + 1):
        request = DrawRequest(
            preset=preset,
            round_no=round_no,
            players=players,
            overrides=dict(overrides or {}),
            previous_tables=tuple(tables),
            winners=tuple(winners),
            five_table_players=tuple(dict.fromkeys(five)),
        )
        out.append(request)
        if round_no == rounds:
            break
        drawn = plan_draw(request, seed * 100 + round_no)
        for table in drawn.tables:
            order = list(table)
            rng.shuffle(order)
            tables.append(tuple(table))
            winners.append(order[0])
            if len(table) >= large:
                five += list(table)
    return out
