"""``steward draw`` and ``steward standings``: the tournament engine offline (CLI.md contracts).

``steward draw`` reads a ``risiko-draw-instance/1`` file (../shared/data/draws) or the project's own
``steward-tournament/1`` export and prints ``{"tables": [[ids...]...], "report": {...}}``; ``--seed``
makes it reproducible; ``--swap A B`` / ``--move P T`` show what a hand change costs.
``steward standings`` reads results JSON and prints the standings with every tie-break explained.
Shapes not fixed by CLI.md are documented in docs/tournament.md.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError, model_validator

from bot.rules.tournament.export import EXPORT_SCHEMA as WHOLE_EXPORT
from bot.tools._common import BadInput, add_io_arguments, error_text, run_tool, words
from bot.tools._help import command_help

if TYPE_CHECKING:
    from bot.rules.ruleset import Ruleset
    from bot.rules.tournament.classification import FinalClassification
    from bot.rules.tournament.standings import EntryStatus, GameResult, Standings, TieBreakDecision

EXPORT_SCHEMA = "steward-tournament/1"


BaseModelT = TypeVar("BaseModelT", bound=BaseModel)


def _cli_pid(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _draw_from_instance(data: Mapping[str, Any], args: argparse.Namespace, seed: int) -> dict[str, Any]:
    from bot.rules.tournament.draw import draw_round1, draw_round2
    from bot.rules.tournament.instance import parse_instance, round3_instance
    from bot.rules.tournament.model import DrawContext

    inst = parse_instance(data)
    rng = random.Random(seed)
    if args.round == 1:
        ctx = DrawContext.build(inst.context.players)
        draw = draw_round1(ctx, inst.table_sizes, rng=rng, seed=seed)
        return {"draw": draw, "context": ctx}
    history: dict[str, Any] = {}
    if args.round == 3:  # the instance extended with a second history round: round 2 with the same
        # seed, each of its tables won by a seeded choice, then round 3 over the whole history
        second = draw_round2(inst.context, inst.table_sizes, rng=random.Random(seed), seed=seed).tables
        inst = round3_instance(inst, second, random.Random(seed + 1))
        rng = random.Random(seed)
        history = {"round2_tables": [list(t) for t in second], "winners": sorted(inst.context.winners, key=str)}
    elif args.round not in (0, 2):
        raise BadInput(f"--round {args.round}: an instance file draws round 1, 2 or 3")
    draw = draw_round2(inst.context, inst.table_sizes, rng=rng, seed=seed)
    if args.round == 3:  # the round-2 criteria over the whole history, labelled as the bot's planner labels it
        draw = replace(draw, report=replace(draw.report, kind="round3"))
    return {"draw": draw, "context": inst.context, "history": history}


def _draw_from_export(data: Mapping[str, Any], args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """The bot's own planner on the round's export (``steward-tournament/1``): the same function, the same inputs."""
    from bot.rules.tournament.planner import DrawRequest, context, criteria, plan_draw

    request = DrawRequest.from_json(data)
    if args.round and args.round != request.round_no:
        raise BadInput(f"--round {args.round} does not match the document's round {request.round_no}")
    rules = request.rules
    return {"draw": plan_draw(request, seed), "context": context(request, rules), "criteria": criteria(request, rules)}


def _finals_from_export(data: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """A semifinal or final round's export through the bot's own planner functions (TOUR-SF-1/2, TOUR-FIN-1)."""
    from bot.rules.tournament.planner import FinalsRequest, plan_final, plan_semifinals

    request = FinalsRequest.from_json(data)
    if request.kind == "semifinal":
        tables, groups, ties = plan_semifinals(request, seed)
    else:  # the semifinal results and the chain decide; a lot among level players uses the semifinals' seed
        tables, groups, ties = plan_final(request)
    report: dict[str, Any] = {
        "kind": request.kind,
        "seed": seed if request.kind == "semifinal" else request.seed,
        "criteria_order": [],
        "criteria": {},
        "lower_bound": {},
        "optimality": "not_applicable",
        "notes": [],
    }
    if ties:  # players level where a line cuts them: how they were ordered (the bot's round shows the same)
        report["ties"] = [tie.to_json() for tie in ties]
        cut = next((tie for tie in ties if tie.boundary == "cut"), None)
        if cut is not None:
            report["cut"] = cut.to_json()
    return {"tables": [list(t) for t in tables], "groups": groups, "report": report}


def _compute_draw(args: argparse.Namespace) -> Any:
    from bot.rules.tournament.draw import move_player, swap_players
    from bot.rules.tournament.model import Criterion

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)

    def compute(data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise BadInput(f"input must be a JSON object, got {type(data).__name__}")
        schema = data.get("schema")
        if schema == WHOLE_EXPORT:  # the whole tournament: the round named by --round, its stored seed by default
            data, round_seed = _round_of_export(data, args.round)
            schema = data.get("schema")
            nonlocal seed
            seed = args.seed if args.seed is not None else round_seed
        if schema == "risiko-draw-instance/1":
            out = _draw_from_instance(data, args, seed)
        elif schema == EXPORT_SCHEMA and data.get("kind") in ("semifinal", "final"):
            return _finals_from_export(data, seed)
        elif schema == EXPORT_SCHEMA:
            out = _draw_from_export(data, args, seed)
        else:
            raise BadInput(f"unknown schema {schema!r} (expected 'risiko-draw-instance/1' or {EXPORT_SCHEMA!r})")
        draw = out["draw"]
        result: dict[str, Any] = draw.to_json()
        if out.get("history"):
            result["history"] = out["history"]
        crit = out.get("criteria") or tuple(
            Criterion(c) for c in draw.report.criteria
        )  # instance files: from the report
        if args.swap:
            adj = swap_players(draw.tables, _cli_pid(args.swap[0]), _cli_pid(args.swap[1]), out["context"], crit)
        elif args.move:
            adj = move_player(draw.tables, _cli_pid(args.move[0]), int(args.move[1]), out["context"], crit)
        else:
            return result
        result["adjustment"] = {
            "tables": [list(t) for t in adj.tables],
            "before": adj.before,
            "after": adj.after,
            "delta": adj.delta,
            "worse": adj.worse,
        }
        return result

    return compute


def _round_of_export(data: Mapping[str, Any], number: int) -> tuple[Mapping[str, Any], int]:
    """A whole-tournament export's round ``number``: its published request (``steward-tournament/1``) and seed."""
    from bot.rules.tournament.documents import BadDocument
    from bot.rules.tournament.export import read_export

    try:
        export = read_export(data)
    except BadDocument as exc:
        raise BadInput(str(exc)) from None
    if not number:
        raise BadInput("--round N: which round of the tournament to draw again")
    found = next((r for r in export.rounds if r.number == number), None)
    if found is None or not found.draw or not found.draw.get("request") or found.seed is None:
        raise BadInput(f"round {number}: the export holds no drawn round {number} with its request and seed")
    return found.draw["request"], found.seed


def _draw_text(result: Mapping[str, Any]) -> str:
    rep = result["report"]
    lines = [f"Draw ({rep['kind']}), seed {rep['seed']}"]
    for i, t in enumerate(result["tables"], start=1):
        lines.append(f"  Table {i:>3} ({len(t)}): " + ", ".join(str(x) for x in t))
    for name in rep["criteria_order"]:
        label = words(name, "round.criterion")
        lines.append(f"  {label:<27} {rep['criteria'][name]:>5}   lower bound {rep['lower_bound'][name]}")
    lines.append(f"  optimality: {words(rep['optimality'], 'round.optimality')}")
    if rep.get("cinquisti"):
        lines.append("  cinquisti (drawn first, ARB 5 a-b): " + ", ".join(str(x) for x in rep["cinquisti"]))
    if rep.get("search_nodes"):
        lines.append(f"  exact search: {rep['search_nodes']} steps")
    if rep["notes"]:
        lines.append("  notes: " + "; ".join(words(n) for n in rep["notes"]))
    if "adjustment" in result:
        adj = result["adjustment"]
        lines.append("Hand change:" + (" WORSE than the draw" if adj["worse"] else ""))
        for name, d in adj["delta"].items():
            label = words(name, "round.criterion")
            lines.append(f"  {label:<27} {adj['before'][name]:>5} -> {adj['after'][name]:<5} ({d:+d})")
    return "\n".join(lines)


PLAYER_ID = Annotated[StrictInt, Field(ge=-(2**63), le=2**63 - 1)] | Annotated[StrictStr, Field(max_length=100)]
POINTS = Annotated[float, Field(allow_inf_nan=False, ge=-1e9, le=1e9)]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Row(_Doc):
    id: PLAYER_ID = Field(validation_alias=AliasChoices("player", "id"))  # "player" as every record; "id" still read
    tournament_points: POINTS | None = None
    table_points: POINTS | None = None
    game_points: POINTS | None = None
    status: Literal["played", "forfeit", "disqualified"] = "played"
    left_at: Annotated[StrictInt, Field(ge=0, le=100)] = 0


class _Game(_Doc):
    round: Annotated[StrictInt, Field(ge=1, le=1000)]
    table: Annotated[StrictInt, Field(ge=1, le=10_000)]
    players: Annotated[list[_Row], Field(min_length=1, max_length=10)]
    special: Literal["head_to_head", "sit_out"] | None = None  # FIRK's last-round tables
    overall_rank: Annotated[StrictInt, Field(ge=1, le=100_000)] | None = None  # the sit-out player's place
    overall_shared: Annotated[StrictInt, Field(ge=1, le=100_000)] = 1  # players level at that place, him included
    # the final phase (semifinals and the final; a knockout's final): the standings count the qualifying games, the
    # final classification (the output's ``final``) follows these
    kind: Literal["qualifying", "semifinal", "final"] = "qualifying"


class _Deduction(_Doc):
    player: PLAYER_ID
    points: POINTS
    code: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    round: Annotated[StrictInt, Field(ge=1, le=1000)] | None = None


class StandingsFields(_Doc):
    """A tournament's results as ``steward standings`` reads them (docs/cli.md), validated in one place: types, sizes
    and value ranges; ``steward season`` reads each of its tournaments the same way."""

    games: Annotated[list[_Game], Field(max_length=20_000)]
    players: Annotated[list[PLAYER_ID], Field(max_length=5_000)] = []
    deductions: Annotated[list[_Deduction], Field(max_length=5_000)] = []
    withdrawn: Annotated[list[PLAYER_ID], Field(max_length=5_000)] = []
    disqualified: Annotated[list[PLAYER_ID], Field(max_length=5_000)] = []
    teams: Annotated[dict[StrictStr, Annotated[StrictStr, Field(max_length=64)]], Field(max_length=5_000)] | None = None
    overrides: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _one_kind_of_id(self) -> StandingsFields:
        """Players are numbered or named, never both: "1" beside 1 would silently be two players."""
        ids = [r.id for g in self.games for r in g.players] + [*self.players, *self.withdrawn, *self.disqualified]
        ids += [d.player for d in self.deductions]
        if len({type(i) for i in ids}) > 1:
            raise ValueError("player ids must be all numbers or all names")
        return self


class StandingsDocument(StandingsFields):
    """The ``steward standings`` input: a tournament's results and its preset."""

    preset: Annotated[StrictStr, Field(max_length=64)]


def from_export(data: Any) -> Any:
    """A whole-tournament export as a ``steward standings`` document (its reported games, kinds, statuses and
    adjustments: ``bot.rules.tournament.export.standings_document``); any other input as it is."""
    from bot.rules.tournament.documents import BadDocument
    from bot.rules.tournament.export import is_export, read_export, standings_document

    if not is_export(data):
        return data
    try:
        return standings_document(read_export(data))
    except BadDocument as exc:
        raise BadInput(str(exc)) from None


def validated(model: type[BaseModelT], data: Any) -> BaseModelT:
    """``data`` as ``model`` or one line naming the first bad field and quoting at most ~80 characters of it."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "input"
        got = repr(first.get("input"))
        raise BadInput(f"{where}: {first.get('msg', 'invalid')} (got {got[:80]})") from None


def game_results(games: list[_Game], ruleset: Ruleset) -> list[GameResult]:
    """The engine's results of a document's ``games``: each player's place and tournament points (given, converted
    from table points by the preset, or Ricochet Robots' tokens ranked), as the bot scores its tables."""
    from bot.rules.tournament.standings import EntryStatus, GameResult, TableEntry, ricochet_tournament_points

    preset, rules = ruleset.preset, ruleset.tournament
    results: list[GameResult] = []
    for g, game in enumerate(games):
        rows = game.players
        statuses = [EntryStatus(r.status) for r in rows]
        ids = [r.id for r in rows]
        held: list[float | None] = [r.table_points for r in rows]
        if all(r.tournament_points is not None for r in rows):
            tp = [float(r.tournament_points or 0.0) for r in rows]
            order = _table_places(statuses, tp, rules.disqualified_below_withdrawn)
        elif preset.game == "ricochet":
            from bot.rules.ricochet.game import PlayerStatus, ranking_from_entries

            as_status = {
                EntryStatus.PLAYED: PlayerStatus.ACTIVE,
                EntryStatus.FORFEIT: PlayerStatus.FORFEIT,
                EntryStatus.DISQUALIFIED: PlayerStatus.DISQUALIFIED,
            }
            # RR 9.3: players who left rank by left_at (1 = the first to leave); the same (or no) moment shares a place
            placements = ranking_from_entries(
                [(ids[k], float(rows[k].game_points or 0.0), as_status[statuses[k]]) for k in range(len(rows))],
                left_at={ids[k]: rows[k].left_at for k in range(len(rows))},
            )
            pts = ricochet_tournament_points(rules.points_by_place, placements)
            places = {p.player: p.place for p in placements}
            tp = [pts[p] for p in ids]
            order = [places[p] for p in ids]
        else:
            from bot.rules.risiko.points import tournament_points
            from bot.rules.tournament.model import TournamentError
            from bot.rules.tournament.planner import special_table_points

            try:
                fixed = special_table_points(
                    rules, game.special, len(rows), overall_rank=game.overall_rank, shared=game.overall_shared
                )
            except TournamentError as exc:
                raise BadInput(f"games[{g}].special: {error_text(exc)}") from None
            if fixed is not None:  # FIRK's head to head and sit-out: the bot's fixed points, not the gap formula
                tp = list(fixed)
                order = list(range(1, len(rows) + 1))
            elif not all(r.table_points is not None for r in rows):
                raise BadInput(f"games[{g}]: give tournament_points or table_points for every player")
            else:  # the engine's table: a player out of the game holds no table points; a tier shares its place
                held = [
                    r.table_points if st is EntryStatus.PLAYED else 0.0 for r, st in zip(rows, statuses, strict=True)
                ]
                order = _table_places(statuses, [x or 0.0 for x in held], rules.disqualified_below_withdrawn)
                seq = sorted(range(len(rows)), key=lambda k: (order[k], k))
                converted = tournament_points(preset, [held[k] or 0.0 for k in seq], places=[order[k] for k in seq])
                tp = [0.0] * len(rows)
                for k, value in zip(seq, converted, strict=True):
                    tp[k] = value
        entries = tuple(TableEntry(pid, order[k], tp[k], held[k], statuses[k]) for k, pid in enumerate(ids))
        results.append(GameResult(game.round, game.table, entries))
    return results


def _table_places(statuses: Sequence[EntryStatus], points: Sequence[float], below: bool) -> list[int]:
    """Each row's place at its table, as the engine ranks a table (``bot.rules.outcomes.table_places``): players in
    play by points, best first, equal points in the order listed (the document lists them in final table order);
    those out of the game by their status alone, below them, a tier sharing one place — never the line they were
    typed on (ARB 23 and 25; RR's tables go through ``final_ranking``)."""
    from bot.rules.outcomes import table_places
    from bot.rules.tournament.standings import EntryStatus

    in_play = sorted((k for k, s in enumerate(statuses) if s is EntryStatus.PLAYED), key=lambda k: (-points[k], k))
    rank = {k: n for n, k in enumerate(in_play, start=1)}
    places = table_places(
        ((k, s.value, rank.get(k)) for k, s in enumerate(statuses)), disqualified_below_withdrawn=below
    )
    return [places[k] for k in range(len(statuses))]


def standings_of(doc: StandingsFields, ruleset: Ruleset) -> tuple[list[GameResult], Standings]:
    """One tournament's results (every game, the final phase's included: a season's project points count them) and
    standings (``steward standings``; each tournament of ``steward season``): the bot's own functions on the same
    inputs — the standings count the qualifying games, as the bot's do, and a knockout ranks who went further."""
    from bot.rules.tournament.standings import Deduction, compute_standings

    rules = ruleset.tournament
    results = game_results(doc.games, ruleset)
    qualifying = {(g.round, g.table) for g in doc.games if g.kind == "qualifying" or rules.knockout}
    deductions = [Deduction(d.player, d.points, d.code, d.round) for d in doc.deductions]
    teams: dict[Any, str] | None = None
    if doc.teams is not None:  # JSON object keys are strings: an integer id is matched by its digits
        teams = {next((p for r in doc.games for p in (x.id for x in r.players) if str(p) == k), k): v
                 for k, v in doc.teams.items()}  # fmt: skip
    st = compute_standings(
        [r for r in results if (r.round, r.table) in qualifying],
        players=list(doc.players),
        deductions=deductions,
        withdrawn=set(doc.withdrawn),
        disqualified=set(doc.disqualified),
        teams=teams,
        **rules.standings_fields(),
    )
    return results, st


def classification_of(
    doc: StandingsFields, ruleset: Ruleset, results: Sequence[GameResult], standings: Standings
) -> FinalClassification | None:
    """The final classification of a ``steward standings`` document, by the bot's own functions
    (``bot.rules.tournament.classification``): with semifinal and final games, ARB 5's order; a knockout whose
    final is given (``"kind": "final"``), its order; without a final phase, the standings once the rounds foreseen
    (``tournament.qualifying_rounds``) are all given. None when the document holds no final phase yet."""
    from bot.rules.tournament.classification import (
        StageSeat,
        StageTable,
        classify_finals,
        classify_knockout,
        classify_standings,
    )

    rules = ruleset.tournament
    kind_of = {(g.round, g.table): g.kind for g in doc.games}

    def stage(kinds: Collection[str]) -> list[StageTable]:
        return [
            StageTable(r.round, r.table, tuple(StageSeat(e.player, e.order, e.table_points) for e in r.entries))
            for r in results
            if kind_of[(r.round, r.table)] in kinds
        ]

    ranked = [(row.player, row.rank) for row in standings.rows]
    if rules.knockout:
        rounds = sorted({r.round for r in results})
        if not rounds:
            return None
        tables = stage(("qualifying", "semifinal", "final"))
        final_played = any(kind_of[(r.round, r.table)] == "final" for r in results if r.round == rounds[-1])
        return classify_knockout([[t for t in tables if t.round == n] for n in rounds], players=list(doc.players),
                                 final_played=final_played, expelled=set(doc.disqualified),
                                 knockout_places=rules.knockout_places)  # fmt: skip
    semis, finals = stage(("semifinal",)), stage(("final",))
    if semis or finals:
        at_semis = {s.player for t in semis for s in t.seats}
        direct = [s.player for t in finals for s in t.seats if s.player not in at_semis]
        return classify_finals(ranked, semifinals=semis, finals=finals or None, direct_finalists=direct,
                               expelled=set(doc.disqualified), semifinal_places=rules.semifinal_places)  # fmt: skip
    if rules.final_phase:  # semifinals and a final to come: the document does not hold them yet
        return None
    if rules.qualifying_rounds and len({r.round for r in results}) >= rules.qualifying_rounds:
        return classify_standings(ranked, complete=True)
    return None


def classification_json(found: FinalClassification) -> dict[str, Any]:
    """The ``final`` block of ``steward standings``: complete or not, the champion(s), every place (null while
    open) and the places still open."""
    return {
        "complete": found.complete,
        "champions": list(found.champions),
        "classification": found.to_json(),
        "open": [
            {"first": b.first, "last": b.last, "players": list(b.players), "stage": b.stage.value} for b in found.open
        ],
    }


def tie_breaks_json(decisions: Sequence[TieBreakDecision]) -> list[dict[str, Any]]:
    """The decisions that ordered players level on points, as ``steward standings`` and ``steward season`` print
    them."""
    out: list[dict[str, Any]] = []
    for d in decisions:
        item: dict[str, Any] = {
            "players": list(d.players),
            "tie_breaker": d.tie_breaker,
            "values": [[p, v] for p, v in d.values],
            "resolved": d.resolved,
        }
        if d.note is not None:
            item["tournament"] = d.note
        out.append(item)
    return out


def _compute_standings(data: Any) -> dict[str, Any]:
    from bot.rules.ruleset import load_ruleset

    doc = validated(StandingsDocument, from_export(data))
    ruleset = load_ruleset(doc.preset, doc.overrides)
    results, st = standings_of(doc, ruleset)
    final = classification_of(doc, ruleset, results, st)
    discards = ruleset.tournament.discards > 0

    def row(r: Any) -> dict[str, Any]:
        line = {"rank": r.rank, "player": r.player, "points": r.points, "games": r.games,
                "table_points": r.table_points, "deductions": r.deductions, "standing": r.standing.value}  # fmt: skip
        if discards:  # CLI.md: with discards each row adds the rounds counted and discarded (issue 47)
            line["counted"], line["discarded"] = list(r.counted), list(r.discarded)
        return line

    out: dict[str, Any] = {
        "preset": ruleset.preset.name,
        "standings": [row(r) for r in st.rows],
        "tie_breaks": tie_breaks_json(st.decisions),
        "teams": [{"rank": t.rank, "team": t.team, "points": t.points, "players": list(t.players)} for t in st.teams],
    }
    if final is not None:
        out["final"] = classification_json(final)
    return out


def tie_break_text(d: Mapping[str, Any], family: str = "standings.tiebreaker") -> str:
    """One decision of ``tie_breaks`` as a line of ``--text`` (``family``: where the tie-breakers' words are)."""
    how = words(d["tie_breaker"], family) if d["tie_breaker"] else "not separated: shared rank"
    if d.get("tournament") is not None:
        how += f" ({d['tournament']})"
    vals = ", ".join(f"{p}={v:g}" if isinstance(v, int | float) else f"{p}={v}" for p, v in d["values"])
    return f"tie {', '.join(str(p) for p in d['players'])}: {how}" + (f" ({vals})" if vals else "")


def _standings_text(result: Mapping[str, Any]) -> str:
    lines = [f"Standings ({result['preset']})"]
    for r in result["standings"]:
        extra = f"  [{words(r['standing'], 'standings.standing')}]" if r["standing"] != "active" else ""
        ded = f"  (-{r['deductions']:g})" if r["deductions"] else ""
        dropped = f"  discarded: rounds {', '.join(map(str, r['discarded']))}" if r.get("discarded") else ""
        lines.append(
            f"  {r['rank']:>3}. {r['player']!s:<12} {r['points']:>8g}  games {r['games']}{ded}{extra}{dropped}"
        )
    lines.extend(f"  {tie_break_text(d)}" for d in result["tie_breaks"])
    if result["teams"]:
        lines.append("Teams")
        for t in result["teams"]:
            lines.append(f"  {t['rank']:>3}. {t['team']:<12} {t['points']:>8g}")
    final = result.get("final")
    if final is not None:
        lines.append("Final classification" + ("" if final["complete"] else " (not complete)"))
        if final["champions"]:
            lines.append("  won by " + ", ".join(str(p) for p in final["champions"]))
        for r in final["classification"]:
            place = "  —" if r["place"] is None else f"{r['place']:>3}"
            where = f"{r['stage']}" + (f", place {r['table_place']} at table {r['table']}" if r["table_place"] else "")
            lines.append(f"  {place}. {r['player']!s:<12} ({where})")
        for b in final["open"]:
            lines.append(f"  places {b['first']}-{b['last']} still open ({b['stage']})")
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    p_draw = subparsers.add_parser(
        "draw", help="table draw for a round (instance file or tournament export)", **command_help("draw")
    )
    add_io_arguments(p_draw)
    p_draw.add_argument("--seed", type=int, default=None, help="random seed (stored in the report; default: random)")
    p_draw.add_argument("--round", type=int, default=None, help="round to draw (instance files: 1, 2 or 3, default 2)")
    p_draw.add_argument("--swap", nargs=2, metavar=("A", "B"), help="then swap two players and show the cost")
    p_draw.add_argument("--move", nargs=2, metavar=("PLAYER", "TABLE"), help="then move a player to a table (1-based)")

    def run_draw(args: argparse.Namespace) -> int:
        if args.round is None:
            args.round = 0
        inner = _compute_draw(args)

        def compute(data: Any) -> Any:
            if isinstance(data, Mapping) and data.get("schema") == "risiko-draw-instance/1" and not args.round:
                args.round = 2
            return inner(data)

        return run_tool(args, compute, _draw_text)

    p_draw.set_defaults(func=run_draw)

    p_std = subparsers.add_parser(
        "standings", help="standings from results (tie-breaks explained)", **command_help("standings")
    )
    add_io_arguments(p_std)
    p_std.set_defaults(func=lambda args: run_tool(args, _compute_standings, _standings_text))
