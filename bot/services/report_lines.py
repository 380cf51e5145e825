"""From what a user typed to a report's lines: entries, typed points, tokens, the final situation (BOT-RES-1).

The rules decide (``bot.rules``: the typed-points order, the one RR ranking, the one final-situation parser, special
tables' points); this module maps display names and registrations to them and turns rule errors into localised
refusals. The report service stores the lines.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.documents import DrawDocument, TableSituation, TieBreakNote
from bot.db.models import CheckInStatus, GameTable, Registration, Round, Seat, SeatOutcome, Tournament
from bot.errors import InvalidInput
from bot.rules.errors import RuleError, refusal_params
from bot.rules.jsondoc import DocumentError, NotJson, loads_bounded
from bot.rules.ricochet.game import PlayerStatus, ranking_from_entries
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.points import order_typed_table, tournament_points
from bot.rules.risiko.scoring import PlayerSituation, Status, parse_situation, score_table, situation_from_csv
from bot.rules.ruleset import Ruleset, load_ruleset
from bot.rules.sanctions import Consequence, TableAdjustment, table_adjustment
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.planner import special_table_points
from bot.rules.tournament.standings import EntryStatus, ricochet_tournament_points
from bot.services._base import document_refusal

WITHDRAWN_WORDS = frozenset({"r", "rit", "ritirato", "ritirata", "ritiro", "w", "withdrawn", "forfeit"})
DISQUALIFIED_WORDS = frozenset({"sq", "squalificato", "squalificata", "dq", "disqualified"})
MAX_POINTS = 100_000.0
SITUATION_MAX_CHARS = 6000


@dataclass(frozen=True, slots=True)
class _Line:
    registration_id: int
    table_points: float
    rank: int
    tournament_points: float
    outcome: str
    tiebreak: dict[str, Any]


def parse_entry(raw: str, *, name: str) -> tuple[str, float]:
    """One player's entry: ('played', number) or ('withdrawn'/'disqualified', 0). Comma or dot decimals."""
    text = " ".join(str(raw).split()).lower()
    if not text:
        raise InvalidInput("error.report.missing_value", name=name)
    if text in WITHDRAWN_WORDS:
        return SeatOutcome.WITHDRAWN.value, 0.0
    if text in DISQUALIFIED_WORDS:
        return SeatOutcome.DISQUALIFIED.value, 0.0
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        raise InvalidInput("error.report.bad_number", name=name, value=str(raw)[:40]) from None
    if not math.isfinite(value) or value < 0 or value > MAX_POINTS:
        raise InvalidInput("error.report.bad_number", name=name, value=str(raw)[:40])
    return SeatOutcome.PLAYED.value, value


def apply_adjustments(
    entries: list[tuple[int, str, float]], adjustments: Mapping[int, TableAdjustment]
) -> list[tuple[int, str, float]]:
    """The entries as the sanctions in force leave them (BOT-SAN-2): a forced outcome replaces a played one, table
    points taken come off (never below 0). What was typed stays stored as typed; this runs at every scoring."""
    out = []
    for rid, outcome, value in entries:
        adj = adjustments.get(rid)
        if adj is not None:
            if adj.outcome is not None and outcome == SeatOutcome.PLAYED.value:
                outcome, value = adj.outcome, 0.0
            elif adj.table_points_taken and outcome == SeatOutcome.PLAYED.value:
                value = max(0.0, value - adj.table_points_taken)
        out.append((rid, outcome, value))
    return out


def _entry_status(outcome: str) -> EntryStatus:
    if outcome == SeatOutcome.DISQUALIFIED.value:
        return EntryStatus.DISQUALIFIED
    if outcome == SeatOutcome.PLAYED.value:
        return EntryStatus.PLAYED
    return EntryStatus.FORFEIT


def _id(row: GameTable | Round | Registration | Seat | Any) -> int:
    assert row.id is not None
    return int(row.id)


def _parse_points(
    seats: Sequence[tuple[Seat, Registration]], values: Mapping[int, str]
) -> list[tuple[int, str, float]]:
    known = {_id(r): r.display_name for _, r in seats}
    unknown = [rid for rid in values if rid not in known]
    if unknown:
        raise InvalidInput("error.report.not_at_this_table", value=str(unknown[0]))
    out = []
    for rid, name in known.items():
        if rid not in values:
            raise InvalidInput("error.report.missing_value", name=name)
        outcome, value = parse_entry(values[rid], name=name)
        out.append((rid, outcome, value))
    return out


def _special_points(rules: TournamentRules, special: str | None, lines: list[_Line]) -> list[_Line]:
    """A special table's fixed points (FIRK punteggio 9 head to head: 31 / 15) replace the usual table's."""
    fixed = special_table_points(rules, special, len(lines))
    if fixed is None:
        return lines
    ordered = sorted(lines, key=lambda x: x.rank)
    return [replace(x, tournament_points=p) for x, p in zip(ordered, fixed, strict=True)]


def lines_from_entries(
    ruleset: Ruleset,
    seats: Sequence[tuple[Seat, Registration]],
    entries: list[tuple[int, str, float]],
    special: str | None,
) -> tuple[str, list[_Line]]:
    """Typed entries → the report's kind (``points`` for RisiKo!, ``ricochet``) and its ranked lines."""
    if ruleset.game == "risiko":
        return "points", _special_points(
            ruleset.tournament,
            special,
            _risiko_points(ruleset.preset, seats, entries, ruleset.tournament.disqualified_below_withdrawn),
        )
    return "ricochet", _ricochet_points(ruleset.tournament.points_by_place, entries)


async def table_adjustments(
    session: AsyncSession, guild_id: int, tournament: Tournament, table_id: int
) -> dict[int, TableAdjustment]:
    """Each player's adjustment at this table: the sanctions in force (the referee's desk), and the game a check-in
    says the player forfeited (RR 13.5 after ten minutes, FIRK's "cannot play", ARB 3's replacement) — whatever
    was typed for them, they did not play it."""
    assert tournament.id is not None
    sanctions = await repo.sanction_list(
        session=session, guild_id=guild_id, tournament_id=tournament.id, table_id=table_id
    )
    by_player: dict[int, list[tuple[str, float | None]]] = {}
    for s in sanctions:
        if s.active:
            by_player.setdefault(s.registration_id, []).append((s.consequence, s.points))
    table = await session.get(GameTable, table_id)
    if table is not None:
        seated = {s.registration_id for s in await repo.list_seats_for_tables(session=session, guild_id=guild_id,
                                                                              table_ids=[table_id])}  # fmt: skip
        for check in await repo.list_checkins(session=session, guild_id=guild_id, round_id=table.round_id):
            if check.status == CheckInStatus.FORFEIT.value and check.registration_id in seated:
                by_player.setdefault(check.registration_id, []).append((Consequence.LAST_OF_GAME.value, None))
    return {rid: table_adjustment(items) for rid, items in by_player.items()}


async def rescore_table(session: AsyncSession, table: GameTable, tournament: Tournament) -> bool:
    """Score a reported table again from what was entered, with the sanctions in force now (a sanction recorded,
    revoked or annulled after the report); ``False`` when there is nothing to re-score (no report, or a final
    situation whose tie only the dice decided: the referee corrects it). The signatures stay: the entry did not
    change. The table's lock first: a report write on it finishes before, and the report is read as it left it."""
    if table.id is None or not await repo.lock_report_table(
        session=session, guild_id=table.guild_id, table_id=table.id
    ):
        return False
    await session.refresh(table)
    situation = TableSituation.from_json(table.final_situation)
    if situation is None or situation.kind not in ("points", "ricochet", "situation"):
        return False
    rnd = await session.get(Round, table.round_id)
    assert rnd is not None
    seats = await repo.list_report_seats(session=session, guild_id=table.guild_id, table_id=table.id)
    ruleset = load_ruleset(tournament.preset, tournament.overrides or None)
    special = DrawDocument.from_json(rnd.draw_report).special_tables.get(table.number)
    adjustments = await table_adjustments(session, table.guild_id, tournament, table.id)
    if situation.kind == "situation":
        try:  # the same document again; a tie the dice decided needs the referee's correction instead
            lines, _ = _score_situation(ruleset, seats, situation.input["situation"], None, adjustments)
        except InvalidInput:
            return False
        lines = _special_points(ruleset.tournament, special, lines)
    else:
        entries = [
            (int(e["registration_id"]), str(e["outcome"]), float(e["value"])) for e in situation.input["entries"]
        ]
        _, lines = lines_from_entries(ruleset, seats, apply_adjustments(entries, adjustments), special)
    rows = {r.registration_id: r for r in await repo.list_report_results(
        session=session, guild_id=table.guild_id, table_id=table.id)}  # fmt: skip
    for line in lines:
        row = rows.get(line.registration_id)
        if row is not None:
            row.table_points, row.table_rank = line.table_points, line.rank
            row.tournament_points, row.outcome = line.tournament_points, line.outcome
            row.tiebreak = TieBreakNote.from_json(line.tiebreak).to_json()
    await session.flush()
    return True


def _risiko_points(
    preset: Any, seats: Sequence[tuple[Seat, Registration]], entries: list[tuple[int, str, float]], below: bool
) -> list[_Line]:
    """Table points typed in: order by points (ARB 6), players out of the game after those in play in the preset's
    tiers (``below``: a disqualification below the withdrawals), a tier sharing one place and the average of its
    positions' points (``bot.rules.outcomes.table_places``, ARB 23 and 25); a tie among players in play needs the
    final situation."""
    names = {_id(r): r.display_name for _, r in seats}
    try:
        ordered = order_typed_table(entries, disqualified_below_withdrawn=below)
    except RisikoError as exc:
        if exc.code != "tie_needs_situation":
            raise InvalidInput("error.report.engine", **refusal_params(exc)) from None
        a, b = exc.value if isinstance(exc.value, tuple) else (None, None)
        tied = (str(names.get(a, a)), str(names.get(b, b)))
        raise InvalidInput("error.report.tie_needs_situation", names=tied) from None
    try:
        points = tournament_points(preset, [e[2] for e in ordered], places=[e[3] for e in ordered])
    except RisikoError as exc:
        raise InvalidInput("error.report.engine", **refusal_params(exc)) from None
    lines = []
    for (rid, outcome, value, place), pts in zip(ordered, points, strict=True):
        decided = "points" if outcome == SeatOutcome.PLAYED.value else "status"
        lines.append(_Line(rid, value, place, pts, outcome, {"decided_by": decided}))
    return lines


def _ricochet_points(points_table: Sequence[float], entries: list[tuple[int, str, float]]) -> list[_Line]:
    """RR-WIN-1, RR-WD-1: tokens per player; the one RR ranking (``final_ranking``). The report records who left, not
    when: forfeits share their place (RR 9.3 orders them by the moment they left; never by the seat or the line)."""
    status = {
        SeatOutcome.PLAYED.value: PlayerStatus.ACTIVE,
        SeatOutcome.DISQUALIFIED.value: PlayerStatus.DISQUALIFIED,
    }
    rows = [(rid, value, status.get(outcome, PlayerStatus.FORFEIT)) for rid, outcome, value in entries]
    for _, value, st in rows:
        if st is PlayerStatus.ACTIVE and not float(value).is_integer():
            raise InvalidInput("error.report.tokens_whole", value=str(value))
    try:
        placements = ranking_from_entries(rows, left_at={})
        pts = ricochet_tournament_points(points_table, placements)
    except (RuleError, TournamentError) as exc:
        raise InvalidInput("error.report.engine", **refusal_params(exc)) from None
    place = {p.player: p for p in placements}
    return [
        _Line(
            rid,
            float(place[rid].tokens) if place[rid].status is PlayerStatus.ACTIVE else 0.0,
            place[rid].place,
            pts[rid],
            outcome,
            {"decided_by": "tokens" if place[rid].status is PlayerStatus.ACTIVE else "status"},
        )
        for rid, outcome, _ in entries
    ]


def _table_points_taken(
    reg_of: Mapping[str, Registration], adjustments: Mapping[int, TableAdjustment] | None
) -> dict[str, int]:
    """Player name → the table points ARB 13 penalties take off (the engine ranks after taking them)."""
    out = {}
    for name, reg in reg_of.items():
        adj = (adjustments or {}).get(_id(reg))
        if adj is not None and adj.table_points_taken:
            out[name] = round(adj.table_points_taken)
    return out


def _score_situation(
    ruleset: Ruleset,
    seats: Sequence[tuple[Seat, Registration]],
    situation: str | Mapping[str, Any] | Sequence[Any],
    rng: random.Random | None,
    adjustments: Mapping[int, TableAdjustment] | None = None,
) -> tuple[list[_Line], dict[str, Any]]:
    """The final situation scored by the engine (table points, ranks, explanation), then tournament points.
    A player a sanction put out of the game (ARB 25) is scored as withdrawn, their territories neutral; one it
    disqualified as disqualified (the same tier under ARB 23, the preset decides: bot.rules.outcomes).

    The document is parsed by ``bot.rules.risiko.scoring.parse_situation`` — the one parser ``steward risiko
    score`` uses (docs/risiko.md); names are the players' display names (any case)."""
    if isinstance(situation, str):
        if len(situation) > SITUATION_MAX_CHARS:
            raise InvalidInput(
                "error.field_too_long", field="report_situation", max=SITUATION_MAX_CHARS, length=len(situation)
            )
        body = situation.lstrip("\ufeff \r\n\t")
        try:
            if body.startswith(("{", "[")):
                doc: Any = loads_bounded(body, max_chars=SITUATION_MAX_CHARS, max_depth=6)
            else:  # a territory;owner;armies export
                doc = situation_from_csv(body)
        except DocumentError as exc:
            if isinstance(exc, NotJson):
                raise InvalidInput("error.report.bad_json", detail=f"{exc.message} (col {exc.column})") from None
            raise document_refusal(exc, field="report_situation") from None
        except RisikoError as exc:
            raise InvalidInput("error.report.bad_situation", **refusal_params(exc, limit=60)) from None
    else:
        doc = situation
    if isinstance(doc, list):
        doc = {"players": doc}
    by_name = {r.display_name.casefold(): r for _, r in seats}
    rules = ruleset.risiko
    if rules is None:
        raise InvalidInput("error.report.situation_risiko_only")
    try:
        parsed = parse_situation(doc, rules.board, also_allowed=("preset",))
    except RisikoError as exc:
        if exc.code in ("unknown_territory", "territory_owned_twice", "negative_armies"):
            raise InvalidInput("error.report.engine", **refusal_params(exc)) from None
        raise InvalidInput("error.report.bad_situation", **refusal_params(exc, limit=60)) from None
    players: list[PlayerSituation] = []
    reg_of: dict[str, Registration] = {}
    for p in parsed.players:
        reg = by_name.get(p.name.strip().casefold())
        if reg is None:
            raise InvalidInput("error.report.not_at_this_table", value=p.name[:64])
        adj = (adjustments or {}).get(_id(reg))
        if adj is not None and adj.outcome is not None and p.status in (Status.ACTIVE, Status.FROZEN):
            forced = Status.DISQUALIFIED if adj.outcome == SeatOutcome.DISQUALIFIED.value else Status.WITHDRAWN
            p = replace(p, status=forced)
        players.append(replace(p, name=reg.display_name))
        reg_of[reg.display_name] = reg
    missing = [r.display_name for _, r in seats if r.display_name not in reg_of]
    if missing:
        raise InvalidInput("error.report.missing_value", name=missing[0])
    canonical_dice = None
    if parsed.dice:
        canonical_dice = {}
        for k, v in parsed.dice.items():
            reg = by_name.get(str(k).strip().casefold())
            if reg is None:
                raise InvalidInput("error.report.not_at_this_table", value=str(k)[:64])
            canonical_dice[reg.display_name] = v
    try:
        taken = _table_points_taken(reg_of, adjustments)
        score = score_table(players, rules, dice=canonical_dice, rng=rng, penalties=taken or None)
        in_play_unresolved = [
            p.name for p in score.players if p.unresolved and p.status in (Status.ACTIVE, Status.FROZEN)
        ]
        if in_play_unresolved:
            raise InvalidInput("error.report.tie_unresolved", names=tuple(sorted(in_play_unresolved)))
        ordered = sorted(score.players, key=lambda x: (x.rank, x.name))  # a shared place shares its points
        pts = tournament_points(
            ruleset.preset, [float(x.table_points) for x in ordered], places=[x.rank for x in ordered]
        )
    except RisikoError as exc:
        raise InvalidInput("error.report.engine", **refusal_params(exc)) from None
    status_to_outcome = {
        Status.ACTIVE: SeatOutcome.PLAYED.value,
        Status.FROZEN: SeatOutcome.PLAYED.value,
        Status.WITHDRAWN: SeatOutcome.WITHDRAWN.value,
        Status.DISQUALIFIED: SeatOutcome.DISQUALIFIED.value,
    }
    lines = []
    for x, points in zip(ordered, pts, strict=True):
        lines.append(
            _Line(
                _id(reg_of[x.name]),
                float(x.table_points),
                x.rank,
                points,
                status_to_outcome[x.status],
                {
                    "decided_by": x.decided_by,
                    "unresolved": x.unresolved,
                    "values": dict(x.tiebreak_values),
                },
            )
        )
    stored = {"situation": doc, "explanation": [x.serialise() for x in score.players], "method": score.method}
    return lines, stored
