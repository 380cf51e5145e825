"""Deterministic renderer inputs shared by the tests, the benchmark and the example files."""

from __future__ import annotations

import dataclasses
import random

from bot.rules.data import load_json
from renderer.models import (
    BracketData,
    BracketPlayer,
    BracketTable,
    MapPlayer,
    MapTerritory,
    RiskMapData,
    RRBoardData,
    RRMove,
    RRRobot,
    RRTarget,
    SeatCard,
    StandingRow,
    StandingsData,
    TableCard,
    TablesData,
)

FIRST = [
    "Anna",
    "Marco",
    "Giulia",
    "Luca",
    "Chiara",
    "Matteo",
    "Sofia",
    "Niccolò",
    "Elena",
    "Tommaso",
    "Beatrice",
    "Čedomir",
    "Zoë",
    "Andrea",
    "Federica",
    "Gianluca",
    "Ilaria",
    "Raffaele",
    "Noemi",
    "Stefano",
    "Agnese",
    "Leonardo",
    "Martina",
    "Pietro",
    "Ludovica",
    "Emanuele",
    "Francesca",
    "Dušan",
]
LAST = [
    "Rossi",
    "Bianchi",
    "Esposito",
    "Ferrari",
    "Romano",
    "Colombo",
    "Ricci",
    "Marino",
    "Greco",
    "Bruno",
    "Gallo",
    "Conti",
    "De",
    "Luca",
    "Mancini",
    "Costa",
    "Giordano",
    "Rizzo",
    "Lombardi",
    "Moretti",
    "Barbieri",
    "Fontana",
    "Santoro",
    "Mariani",
    "Rinaldi",
    "Caruso",
    "Ferrara",
    "Galli",
    "Martini",
    "Leone",
    "Longo",
    "Gentile",
    "Martinelli",
    "Vitale",
    "Lombardo",
    "Serra",
    "Coppola",
    "De",
    "Santis",
    "D'Angelo",
    "Marchetti",
    "Parisi",
    "Villa",
    "Conte",
    "Ferraro",
    "Ferri",
    "Fabbri",
    "Bianco",
    "Marini",
    "Grasso",
    "Valentini",
    "Messina",
    "Sala",
    "De",
    "Angelis",
    "Gatti",
    "Pellegrini",
    "Palumbo",
    "Sanna",
    "Farina",
    "Rizzi",
    "Monti",
    "Cattaneo",
    "Morelli",
    "Amato",
    "Silvestri",
    "Mazza",
    "Testa",
    "Grassi",
    "Pellegrino",
    "Carbone",
    "Giuliani",
    "Benedetti",
    "Barone",
    "Rossetti",
    "Caputo",
    "Montanari",
    "Guerra",
    "Palmieri",
    "Bernardi",
    "Martino",
    "Fiore",
    "Ferretti",
    "Bellini",
    "Basile",
    "Riva",
    "Donati",
    "Piras",
    "Vitali",
    "Battaglia",
    "Sartori",
    "Neri",
    "Costantini",
    "Milani",
    "Pagano",
    "Ruggiero",
    "Sorrentino",
    "D'Amico",
    "Orlando",
    "Damico",
    "Negri",
    "Novak",
    "Kovačević",
    "Übermann-Sánchez",
]
CLUBS = (
    "Circolo RisiKo! Torino",
    "Ludoteca Ca' Foscari",
    "Club Dadi Rotolanti Reggio Emilia",
    "Armate di Čađavica",
    "Associazione Giochi da Tavolo di Sant'Elpidio a Mare",
    "Roma Strategica",
    "Genova Gioca",
    "Napoli Conquista",
    "Bologna Tattica",
    "Firenze Tabletop",
)


def sample_standings(n: int = 250, round_no: int = 3, seed: int = 7) -> StandingsData:
    """``n`` players with long accented names, clubs, FIRK-style points (one decimal) and movement."""
    rng = random.Random(seed)
    names = set()
    while len(names) < n:
        names.add(f"{rng.choice(FIRST)} {rng.choice(LAST)}" + (f" {rng.choice(LAST)}" if rng.random() < 0.15 else ""))
    players = sorted(names)
    rng.shuffle(players)
    points = sorted((round(rng.uniform(0, 95), 1) for _ in range(n)), reverse=True)
    previous = list(range(1, n + 1))
    rng.shuffle(previous)
    rows = []
    for i, (name, pts) in enumerate(zip(players, points, strict=True)):
        prev: int | None = previous[i] if rng.random() > 0.03 else None
        rows.append(
            StandingRow(
                rank=i + 1,
                name=name,
                points=pts,
                games=round_no,
                club=rng.choice(CLUBS),
                tiebreak=float(rng.randint(20, 190)),
                previous_rank=prev,
            )
        )
    return StandingsData(
        tournament="3° Torneo FIRK — Città di Čačak & Sant'Agata",
        round=round_no,
        date="2026-11-22",
        rows=tuple(rows),
        tiebreak_label=None,
    )


def sample_tables(n_players: int = 18, seed: int = 4242) -> TablesData:
    """A round of ``n_players`` at tables of 4 with as many 5s as needed (TOUR-SIZE-1), some clubs shared."""
    rng = random.Random(seed)
    players = [row for row in sample_standings(max(n_players, 8), seed=seed).rows][:n_players]
    rng.shuffle(players)
    n_tables = n_players // 4
    sizes = [4] * n_tables
    for i in range(n_players % 4):
        sizes[-1 - i] += 1
    tables, k = [], 0
    for t, size in enumerate(sizes, start=1):
        tables.append(TableCard(t, tuple(SeatCard(p.name, p.club) for p in players[k : k + size])))
        k += size
    return TablesData("Torneo di Natale — Circolo RisiKo! Torino", 2, "2026-12-13", tuple(tables), seed, True)


def sample_bracket(direct: bool = False, played: bool = True) -> BracketData:
    """Banded semifinals (TOUR-SF-1); in SF 3 the winner declines and the 2nd replaces them (TOUR-FIN-1)."""
    rows = sample_standings(16, seed=11).rows
    n_sf = 3 if direct else 4
    first = 2 if direct else 1
    bands = [list(range(first + b * n_sf, first + (b + 1) * n_sf)) for b in range(4)]
    semis = []
    finalists: list[BracketPlayer] = []
    for t in range(n_sf):
        seeds = [bands[b][t if b % 2 == 0 else n_sf - 1 - t] for b in range(4)]
        players = [BracketPlayer(rows[s - 1].name, rows[s - 1].club, s) for s in seeds]
        winner = (t * 3 + 1) % 4
        if t == 2:
            players[winner] = dataclasses.replace(players[winner], declined=True)
            second = (winner + 1) % 4
            finalists.append(dataclasses.replace(players[second], replaces=players[winner].name))
        else:
            finalists.append(players[winner])
        semis.append(BracketTable(t + 1, tuple(players), winner if played else None))
    direct_players = (BracketPlayer(rows[0].name, rows[0].club, 1),) if direct else ()
    final_players = tuple(direct_players) + tuple(finalists)
    final = BracketTable(1, final_players, 2 if played else None)
    return BracketData("Campionato Regionale RisiKo! 2026", "2026-12-20", tuple(semis), final, direct_players)


STEP = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}


def slide(
    walls: tuple[tuple[str, ...], ...], robots: dict[str, tuple[int, int]], colour: str, d: str
) -> tuple[int, int]:
    """Test-only plain slide (RR-MOVE-1): until a wall or a robot; the engine lives in bot/rules/ricochet."""
    r, c = robots[colour]
    dr, dc = STEP[d]
    occupied = {p for k, p in robots.items() if k != colour}
    while d not in walls[r][c] and (r + dr, c + dc) not in occupied:
        r, c = r + dr, c + dc
    return (r, c)


def sample_board(board: str = "A", position: int = 0, with_path: bool = True) -> RRBoardData:
    """A bundled board (boards.json) with a benchmark position; the path is its example optimal solution."""
    spec = load_json("boards.json")["boards"][board]
    pos = spec["benchmark_positions"][position]
    walls = tuple(tuple(row) for row in spec["cell_walls"])
    robots = {k: (v[0], v[1]) for k, v in pos["robots"].items()}
    moves = []
    if with_path:
        for colour, d in pos["example_solution"]:
            stop = slide(walls, robots, colour, d)
            robots[colour] = stop
            moves.append(RRMove(colour, (stop,)))
    return RRBoardData(
        cell_walls=walls,
        targets=tuple(RRTarget.from_json(t) for t in spec["targets"]),
        robots=tuple(RRRobot(k, v[0], v[1]) for k, v in pos["robots"].items()),
        active_target=(pos["target"][0], pos["target"][1]),
        path=tuple(moves),
        title=f"Board {board} — {pos['optimal_moves']}" if with_path else None,
    )


def sample_map(seed: int = 3, neutral: int = 2) -> RiskMapData:
    """A final situation for 4 players (FIRK style): territories dealt at random, two neutral, armies 1–12;
    the doubled strip is the first player's largest connected group (FIRK-SCORE-1), objective 8 territories."""
    rng = random.Random(seed)
    m = load_json("map.json")
    names = [n for c in m["continents"].values() for n in c["territories"]]
    rng.shuffle(names)
    players = (
        MapPlayer("Anna Ferrari", "red"),
        MapPlayer("Čedomir Novak", "blue"),
        MapPlayer("Giulia D'Angelo", "yellow"),
        MapPlayer("Niccolò Übermann", "green"),
    )
    owners: dict[str, str | None] = {}
    for i, n in enumerate(names):
        owners[n] = None if i < neutral else players[i % 4].name
    territories = {n: MapTerritory(n, o, 8 if o is None else rng.randint(1, 12)) for n, o in owners.items()}
    mine = {n for n, o in owners.items() if o == players[0].name}
    adj: dict[str, set[str]] = {n: set() for n in names}
    for a, b in m["adjacency"]:
        adj[a].add(b)
        adj[b].add(a)
    best: set[str] = set()
    seen: set[str] = set()
    for start in sorted(mine):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            n = todo.pop()
            if n in group:
                continue
            group.add(n)
            todo += [x for x in adj[n] if x in mine and x not in group]
        seen |= group
        best = max(best, group, key=len)
    objective = tuple(sorted(rng.sample(sorted(names), 8)))
    return RiskMapData(
        players=players,
        territories=tuple(territories[n] for n in sorted(territories)),
        title="Finale — Tavolo 1 · 1° Torneo FIRK",
        doubled_strip=tuple(sorted(best)),
        objective=objective,
    )
