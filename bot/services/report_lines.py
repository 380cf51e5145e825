"""From what a user typed to a report's lines (BOT-RES-1), and a table re-scored when a sanction changes it.

The rules decide (``bot.rules.tournament.rescore``: the typed-points order, the one RR ranking, the final situation,
special tables' points, what the sanctions in force change); this module reads what a user typed — a number or a word
per player, a situation as JSON or a territory;owner;armies export — turns rule refusals into localised ones, and
reads and writes the rows around the one scoring call.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.db.documents import DrawDocument, TableSituation, TieBreakNote
from bot.db.models import CheckInStatus, GameTable, Registration, Round, Seat, SeatOutcome, TableResult
from bot.errors import InvalidInput
from bot.rules.errors import refusal_params
from bot.rules.jsondoc import DocumentError, NotJson, loads_bounded
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.scoring import situation_from_csv
from bot.rules.ruleset import Ruleset
from bot.rules.sanctions import TableAdjustment
from bot.rules.tournament.rescore import (
    RESCORED_KINDS,
    Entry,
    InForce,
    Line,
    Player,
    ReportError,
    StoredReport,
    adjustments,
    apply_adjustments,
    rescore,
    score_entries,
    score_situation,
    special_points,
)
from bot.services._base import UseCase, document_refusal, id_of

WITHDRAWN_WORDS = frozenset({"r", "rit", "ritirato", "ritirata", "ritiro", "w", "withdrawn", "forfeit"})
DISQUALIFIED_WORDS = frozenset({"sq", "squalificato", "squalificata", "dq", "disqualified"})
MAX_POINTS = 100_000.0
SITUATION_MAX_CHARS = 6000

Seated = Sequence[tuple[Seat, Registration]]


def parse_entry(raw: str, *, name: str) -> tuple[SeatOutcome, float]:
    """One player's entry: ('played', number) or ('withdrawn'/'disqualified', 0). Comma or dot decimals."""
    text = " ".join(str(raw).split()).lower()
    if not text:
        raise InvalidInput("error.report.missing_value", name=name)
    if text in WITHDRAWN_WORDS:
        return SeatOutcome.WITHDRAWN, 0.0
    if text in DISQUALIFIED_WORDS:
        return SeatOutcome.DISQUALIFIED, 0.0
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        raise InvalidInput("error.report.bad_number", name=name, value=str(raw)[:40]) from None
    if not math.isfinite(value) or value < 0 or value > MAX_POINTS:
        raise InvalidInput("error.report.bad_number", name=name, value=str(raw)[:40])
    return SeatOutcome.PLAYED, value


def players_of(seats: Seated) -> list[Player]:
    """The table's players as the rules name them: registration id and display name, in seating order."""
    return [Player(id_of(reg), reg.display_name) for _, reg in seats]


def report_refusal(exc: ReportError) -> InvalidInput:
    """A report the rules refused, in the report's words (``error.report.<code>``)."""
    return InvalidInput(f"error.report.{exc.code}", **exc.params)


def parse_points(seats: Seated, values: Mapping[int, str]) -> list[Entry]:
    """What a user typed per registration id → one entry per seated player (every one of them, nobody else)."""
    known = {id_of(r): r.display_name for _, r in seats}
    unknown = [rid for rid in values if rid not in known]
    if unknown:
        raise InvalidInput("error.report.not_at_this_table", value=str(unknown[0]))
    out: list[Entry] = []
    for rid, name in known.items():
        if rid not in values:
            raise InvalidInput("error.report.missing_value", name=name)
        outcome, value = parse_entry(values[rid], name=name)
        out.append((rid, outcome, value))
    return out


def situation_document(situation: str | Mapping[str, Any] | Sequence[Any]) -> Any:
    """A final situation as typed or attached (JSON, or a territory;owner;armies export) read into its document; a
    document given as data is taken as it is."""
    if not isinstance(situation, str):
        return situation
    if len(situation) > SITUATION_MAX_CHARS:
        raise InvalidInput(
            "error.field_too_long", field="report_situation", max=SITUATION_MAX_CHARS, length=len(situation)
        )
    body = situation.lstrip("\ufeff \r\n\t")
    try:
        if body.startswith(("{", "[")):
            return loads_bounded(body, max_chars=SITUATION_MAX_CHARS, max_depth=6)
        return situation_from_csv(body)
    except DocumentError as exc:
        if isinstance(exc, NotJson):
            raise InvalidInput("error.report.bad_json", detail=f"{exc.message} (col {exc.column})") from None
        raise document_refusal(exc, field="report_situation") from None
    except RisikoError as exc:
        raise InvalidInput("error.report.bad_situation", **refusal_params(exc, limit=60)) from None


def typed_lines(
    ruleset: Ruleset,
    seats: Seated,
    entries: Sequence[Entry],
    adjusted: Mapping[int, TableAdjustment],
    special: str | None,
) -> tuple[str, list[Line]]:
    """Typed entries, as the sanctions in force leave them, ranked: the report's kind and its lines."""
    try:
        return score_entries(ruleset, players_of(seats), apply_adjustments(entries, adjusted), special)
    except ReportError as exc:
        raise report_refusal(exc) from None


def situation_lines(
    ruleset: Ruleset,
    seats: Seated,
    situation: str | Mapping[str, Any] | Sequence[Any],
    rng: random.Random | None,
    adjusted: Mapping[int, TableAdjustment] | None,
    special: str | None = None,
) -> tuple[list[Line], dict[str, Any]]:
    """A final situation scored by the engine with the sanctions in force (then a special table's points), and what
    is stored with the report. The document is parsed by ``bot.rules.risiko.scoring.parse_situation`` — the one
    parser ``steward risiko score`` uses (docs/risiko.md); names are the players' display names (any case)."""
    doc = situation_document(situation)
    try:
        lines, stored = score_situation(ruleset, players_of(seats), doc, rng, adjusted)
    except ReportError as exc:
        raise report_refusal(exc) from None
    return special_points(ruleset.tournament, special, lines), stored


def special_of(rnd: Round, table: GameTable) -> str | None:
    """The planner's kind of the table (FIRK's head to head, a sit-out), from its round's draw."""
    return DrawDocument.from_json(rnd.draw_report).special_tables.get(table.number)


async def in_force(uc: UseCase, table: GameTable, seats: Seated) -> tuple[list[InForce], list[int]]:
    """What changes the table's result besides what was typed: the sanctions in force at the table (the referee's
    desk) and the seated players a check-in says forfeited the game. ``uc``: the table's tournament's use case."""
    table_id = id_of(table)
    sanctions = await uc.sanctions.sanction_list(tournament_id=uc.tournament_id, table_id=table_id)
    seated = {reg.id for _, reg in seats}
    checks = await uc.rounds.list_checkins(round_id=table.round_id)
    forfeited = [c.registration_id for c in checks if c.status == CheckInStatus.FORFEIT and c.registration_id in seated]
    return [InForce(s.registration_id, s.consequence, s.points) for s in sanctions if s.active], forfeited


async def table_adjustments(uc: UseCase, table: GameTable, seats: Seated) -> dict[int, TableAdjustment]:
    """Each player's adjustment at this table (the sanctions in force, the check-ins' forfeits)."""
    sanctions, forfeited = await in_force(uc, table, seats)
    return adjustments(sanctions, forfeited)


def write_line(row: TableResult, line: Line) -> None:
    """A seat's result row as the line scored it."""
    row.table_points, row.table_rank = line.table_points, line.rank
    row.tournament_points, row.outcome = line.tournament_points, SeatOutcome(line.outcome)
    row.tiebreak = TieBreakNote.from_json(line.tiebreak).to_json()


async def rescore_table(uc: UseCase, table: GameTable) -> bool:
    """Score a reported table again from what was entered, with the sanctions in force now (a sanction recorded,
    revoked or annulled after the report): the rows are read, :func:`bot.rules.tournament.rescore.rescore` decides,
    the lines are written. ``False`` when there is nothing to re-score (no report, or a final situation whose tie only
    the dice decided: the referee corrects it). The signatures stay: the entry did not change. The table's lock
    first: a report write on it finishes before, and the report is read as it left it. ``uc``: the table's
    tournament's use case."""
    if not await uc.reports.lock_report_table(table_id=id_of(table)):
        return False
    await uc.refresh(table)
    situation = TableSituation.from_json(table.final_situation)
    if situation is None or situation.kind not in RESCORED_KINDS:
        return False
    rnd = await uc.get(Round, table.round_id)
    if rnd is None:  # pragma: no cover - a table belongs to a round of its server
        return False
    seats = await uc.reports.list_report_seats(table_id=id_of(table))
    sanctions, forfeited = await in_force(uc, table, seats)
    report = StoredReport(situation.kind, situation.input)
    try:
        lines = rescore(uc.rules, report, players_of(seats), sanctions, forfeited=forfeited,
                        special=special_of(rnd, table))  # fmt: skip
    except ReportError as exc:
        raise report_refusal(exc) from None
    if lines is None:
        return False
    rows = {r.registration_id: r for r in await uc.reports.list_report_results(table_id=id_of(table))}
    for line in lines:
        row = rows.get(line.registration_id)
        if row is not None:
            write_line(row, line)
    await uc.flush()
    return True
