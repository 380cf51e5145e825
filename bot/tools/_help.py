"""The ``--help`` text of every engine command: what the input document holds, in a few lines.

Kept apart from the command modules so each ``add_parser`` call stays one line; the full field lists, outputs and
exit codes are in docs/cli.md, and one input file per command is in docs/examples/.
"""

from __future__ import annotations

import argparse
from typing import Any

_DOCS = "Input: --input FILE or standard input. Output: JSON (--json) or text (--text). Bad input: exit 2.\n"

DESCRIPTIONS: dict[str, str] = {
    "verify": """Re-check a whole-tournament export (steward-export/1, docs/export.md) offline: every draw replayed
from its request and seed, every report's places and points from its table points, the standings and the final
classification from the points. Exit 0 ("verified …"), 1 (the first thing that does not hold), 2 (unreadable).""",
    "modulo": """Write the ModuloTorneo workbook (.xlsx) of the national RisiKo! ranking from a whole-tournament export;
refuses (exit 2, naming the players or fields) rather than write one GestioneTorneo's validator rejects.""",
    "print": """The A4 paper kit (PDF, real text, fonts embedded) from a whole-tournament export (steward-export/1):
one sheet per table of round N (--round N, the default: the latest round), the pairings sorted by name (--pairings N)
or the standings, the final classification when there is one (--standings). --venue-url URL: a QR code per table.
Input: the export document (steward demo writes one: demo-output/tournament.json); --out FILE.pdf; --locale it|en.""",
    "rr solve": """Find the optimal solution of one Ricochet Robots round and check it for a void (RR-MIN-1).
Input: {"board": {"quadrants": [4 tiles NW, NE, SE, SW]} or {"cell_walls", "targets"},
        "robots": {colour: [row, col]}, "target": [row, col, colour, symbol], "minimum_moves": N}
Optional: time_budget (seconds), diagonal_variant, engine (auto | python | c). A JSON array of such
documents is solved one by one.""",
    "rr verify": """Judge a demonstrated move list (RR-DEMO-1, RR 4.10 padding).
Input: the rr solve document plus "moves": [[colour, "N" | "E" | "S" | "W"], ...];
optional "declared" (the number called) and "check_void" (default true).""",
    "rr board": """Print a board as text (and its walls, targets and robots as JSON).
Input: {"board": {"quadrants": [...]} or {"cell_walls", "targets"}, "robots"?, "target"?};
the rr solve / verify documents are accepted too.""",
    "risiko battle": """Losses of one roll: dice compared highest to highest, ties to the defender.
Input: {"attacker_dice": [1-3 dice], "defender_dice": [1-3 dice]}; optional attacker_armies,
defender_armies, supporting_armies (then the dice count is checked against the preset), preset.""",
    "risiko odds": """Exact probabilities (fractions as strings).
Input: {"attacker_dice": 1-3, "defender_dice": 1-3} for one roll, {"attackers": A, "defenders": D} for
a whole battle, or {"max_attackers": A, "max_defenders": D} for a table; optional preset.""",
    "risiko reinforcements": """Armies received at the start of a turn: territories, continents and cards.
Input: {"preset", "territories": [owned names], "cards": [cards to exchange]} (FIRK: "cards_in_hand",
"exchange"); names as in the map (aliases accepted).""",
    "risiko cards": """Value of a card exchange, or what a hand may do.
Input: {"cards": [{"symbol": cannone | fante | cavaliere, "territory"} or "jolly", ...],
"territories": [owned names]} (English too: cannon, infantry, cavalry, joker); FIRK: {"cards_in_hand": N,
"exchange"?: M}; optional preset.""",
    "risiko limit": """Army limit, over-placement and distribution checks.
Input: {"kind": "army_limit", "armies_on_board", "found_by": self | other, "limit"} or
{"kind": "over_placement", "placed", "due", "found_by", "deliberate", "previous_deliberate"} or
{"kind": "distribution", "owners": {territory: player}} / "deal": [[territory, player], ...].""",
    "risiko sdadata": """Replay the end of a game under time (sdadata for NP/UFF, the FIRK procedure for FIRK).
Input: {"preset", "players": [seat order], "current": player whose turn it is,
"events": [{"event": time_up | turn_ended | roll | pass | player_eliminated | player_withdrawn, ...}]}.""",
    "risiko score": """Table points and ranks of one table's final situation, explained.
Input: {"preset", "players": [{"name", "territories": {name: armies}, "cards"?, "objective"?,
"achieved_objective"?, "status"?: active | frozen | withdrawn | disqualified}]}; optional
"dice" or "seed" for a final dice-roll tie-break.""",
    "risiko points": """Tournament points from the table points of one table (the preset's points table).
Input: {"preset", "table_points": [points in final table order]}; optional overrides.""",
    "draw": """Draw a round's tables: each criterion against its lower bound, with the seed.
Input: a risiko-draw-instance/1 file (as in docs/examples/draw/n64_s1.json), or the project's export
{"schema": "steward-tournament/1", "preset", "players": [{"id", "club"?, "team"?, "name"?}],
"round"?, "previous_round"?, "previous_standings"?, "previous_ranks"?, "family_pairs"?, "table_sizes"?,
"overrides"?}.""",
    "standings": """Standings with every tie-break explained.
Input: {"preset", "games": [{"round", "table", "players": [{"id", and table_points | tournament_points |
game_points + status + left_at}]}], "deductions"?, "withdrawn"?, "disqualified"?, "teams"?, "players"?}
(players of a game in final table order).""",
    "season": """A season's ranking across tournaments: NP project points, FIRK annual standings.
Input: {"preset", "tournaments": [oldest first, each a standings document without "preset" plus "name" and
"date" (YYYY-MM-DD)], "deductions"?: [{"player", "points", "code", "tournament"?}] (season level)}.""",
    "rule": """The rules desk: the articles of a preset that answer a question, in Italian or English.
steward rule "two of us called 7, who goes first?" --preset ricochet-v3.3, or the JSON document
{"preset", "query", "limit"? (1-10, default 3), "locale"? (it | en; default: the question's language)}.""",
    "render": """Render a PNG from a JSON input (one of five kinds).
standings: {"tournament", "round", "date", "rows": [{"rank", "name", "points", "games", ...}]};
tables: {"tournament", "round", "date", "tables": [{"number", "seats": [...]}]}; bracket: semifinals and
final; rr-board: walls, targets, robots (or the rr verify document); risiko-map: owners and armies.
Shapes: docs/renderer.md; one example of each: docs/examples/render/*.json.""",
}


def command_help(name: str) -> dict[str, Any]:
    """Keyword arguments for ``add_parser``: the description above, an epilog pointing to the docs."""
    return {
        "description": DESCRIPTIONS[name],
        "epilog": _DOCS + f"Every field, the output and an example: docs/cli.md#{name.replace(' ', '-')}",
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }
