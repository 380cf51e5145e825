"""Match reports (referto, ARB art. 6; BOT-RES-1, TOUR-REF-1): entry, signatures, countersignature, corrections.

A report is one ``TableResult`` row per seat (table points, table rank, tournament points, tie-break data,
outcome, signature) plus ``GameTable.final_situation`` (what was entered and the engine's explanation).

* Entry: a referee, or a player seated at the table. RisiKo! either by table points per player or by the final
  situation (the engine ``bot.rules.risiko.scoring.score_table`` computes table points, ranks and explains
  them); Ricochet Robots by tokens per player, with forfeits (``bot.rules.ricochet.game.final_ranking``).
  Tournament points come from the preset (``bot.rules.risiko.points.tournament_points``; RR
  ``ricochet_tournament_points``). Entering again before the lock replaces the report and clears signatures.
* Signatures: every player who played at the table signs (a second click changes nothing); then a referee
  countersigns, which locks the table and its rows.
* Corrections: referees only, with a reason; before/after go to the audit log. A locked table stays locked.

Player entries accept a number (``31,8`` or ``31.8``) or a word for a player who left the game: ``r`` /
``ritirato`` / ``withdrawn`` (RR: forfeit, RR 9.3) and ``sq`` / ``squalificato`` / ``dq`` (disqualified).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.models import GameTable, Registration, Round, Seat, SeatOutcome, TableResult, Tournament
from bot.errors import Conflict, InvalidInput, NotFound
from bot.rules.errors import RuleError
from bot.rules.ricochet.game import PlayerStatus, ranking_from_entries
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.points import tournament_points
from bot.rules.risiko.scoring import PlayerSituation, Status, parse_situation, score_table
from bot.rules.ruleset import Ruleset, load_ruleset
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.planner import special_table_points
from bot.rules.tournament.standings import EntryStatus, ricochet_tournament_points
from bot.services._base import BaseService, tournament_or_404
from bot.services.access import Actor, StaffRole, has_role, require

WITHDRAWN_WORDS = frozenset({"r", "rit", "ritirato", "ritirata", "ritiro", "w", "withdrawn", "forfeit"})
DISQUALIFIED_WORDS = frozenset({"sq", "squalificato", "squalificata", "dq", "disqualified"})
MAX_POINTS = 100_000.0
SITUATION_MAX_CHARS = 6000


@dataclass(frozen=True, slots=True)
class TableRef:
    """A table named the way users name it: tournament, table number, round (None = the latest round)."""

    tournament: str
    table: int
    round: int | None = None


@dataclass(frozen=True, slots=True)
class SeatLine:
    registration_id: int
    user_id: int | None
    name: str
    club: str | None
    table_points: float | None
    rank: int | None
    tournament_points: float | None
    outcome: str
    signed: bool
    decided_by: str | None = None


@dataclass(frozen=True, slots=True)
class ReportView:
    table_id: int
    tournament_name: str
    game: str
    preset: str
    round_number: int
    table_number: int
    seats: tuple[SeatLine, ...]  # seating order
    kind: str | None  # "points", "situation", "ricochet"; None = nothing reported yet
    reported_by: int | None
    countersigned_by: int | None
    locked: bool

    @property
    def reported(self) -> bool:
        return self.kind is not None

    @property
    def must_sign(self) -> tuple[SeatLine, ...]:
        """Seats whose signature is required: the players who played the game to its end."""
        return tuple(s for s in self.seats if s.outcome == SeatOutcome.PLAYED.value)

    @property
    def pending(self) -> tuple[SeatLine, ...]:
        return tuple(s for s in self.must_sign if not s.signed)

    @property
    def all_signed(self) -> bool:
        return self.reported and not self.pending

    @property
    def ranking(self) -> tuple[SeatLine, ...]:
        return tuple(sorted(self.seats, key=lambda s: (s.rank if s.rank is not None else 99, s.name)))


@dataclass(frozen=True, slots=True)
class SignOutcome:
    view: ReportView
    already_signed: bool


@dataclass(frozen=True, slots=True)
class MyGame:
    round_number: int
    table_number: int
    table_id: int
    opponents: tuple[str, ...]
    table_points: float | None
    rank: int | None
    tournament_points: float | None
    signed: bool
    reported: bool
    locked: bool
    pending_names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MyGamesView:
    tournament_name: str
    player_name: str
    games: tuple[MyGame, ...] = field(default_factory=tuple)

    @property
    def to_sign(self) -> tuple[MyGame, ...]:
        return tuple(g for g in self.games if g.reported and not g.signed and not g.locked)


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


def _entry_status(outcome: str) -> EntryStatus:
    if outcome == SeatOutcome.DISQUALIFIED.value:
        return EntryStatus.DISQUALIFIED
    if outcome == SeatOutcome.PLAYED.value:
        return EntryStatus.PLAYED
    return EntryStatus.FORFEIT


class ReportService(BaseService):
    # ---------------------------------------------------------------------------------------------- reading
    async def sheet(self, actor: Actor, ref: TableRef | int) -> ReportView:
        """The table's report as it stands; only a referee or a player of the table may open it for entry."""
        async with self._sessionmaker() as session:
            table, rnd, tournament_name = await self._resolve(session, actor.guild_id, ref)
            seats = await repo.list_report_seats(session=session, guild_id=actor.guild_id, table_id=_id(table))
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            referee = has_role(actor, config, StaffRole.REFEREE)
            if not referee and actor.user_id not in {r.user_id for _, r in seats}:
                require(actor, config, StaffRole.REFEREE)
            if table.locked:
                raise Conflict("error.report.locked_use_correct" if referee else "error.report.locked")
            return await self._view(session, actor.guild_id, table, rnd, tournament_name)

    async def correction_sheet(self, actor: Actor, ref: TableRef | int) -> ReportView:
        """The table's report for a referee's correction form (locked tables included)."""
        async with self._sessionmaker() as session:
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            require(actor, config, StaffRole.REFEREE)
            table, rnd, tournament_name = await self._resolve(session, actor.guild_id, ref)
            return await self._view(session, actor.guild_id, table, rnd, tournament_name)

    async def lookup(self, actor: Actor, ref: TableRef | int) -> ReportView:
        """Anyone in the server may read a table's report."""
        async with self._sessionmaker() as session:
            table, rnd, tournament_name = await self._resolve(session, actor.guild_id, ref)
            return await self._view(session, actor.guild_id, table, rnd, tournament_name)

    async def view(self, guild_id: int, table_id: int) -> ReportView:
        async with self._sessionmaker() as session:
            table, rnd, name = await self._resolve(session, guild_id, table_id)
            return await self._view(session, guild_id, table, rnd, name)

    async def my_games(self, actor: Actor, tournament: str) -> MyGamesView:
        """The actor's tables in a tournament: points, ranks and the signatures still pending."""
        async with self._sessionmaker() as session:
            t = await tournament_or_404(session, actor.guild_id, tournament)
            reg = await repo.get_registration_for_user(
                session=session, guild_id=actor.guild_id, tournament_id=_id(t), user_id=actor.user_id
            )
            if reg is None:
                raise NotFound("error.report.not_registered", tournament=t.name)
            games: list[MyGame] = []
            for rnd, table in await repo.list_report_tables_for_registration(
                session=session, guild_id=actor.guild_id, registration_id=_id(reg)
            ):
                view = await self._view(session, actor.guild_id, table, rnd, t.name)
                mine = next(s for s in view.seats if s.registration_id == reg.id)
                games.append(
                    MyGame(
                        round_number=rnd.number,
                        table_number=table.number,
                        table_id=_id(table),
                        opponents=tuple(s.name for s in view.seats if s.registration_id != reg.id),
                        table_points=mine.table_points,
                        rank=mine.rank,
                        tournament_points=mine.tournament_points,
                        signed=mine.signed,
                        reported=view.reported,
                        locked=view.locked,
                        pending_names=tuple(s.name for s in view.pending) if view.reported else (),
                    )
                )
            return MyGamesView(tournament_name=t.name, player_name=reg.display_name, games=tuple(games))

    # ---------------------------------------------------------------------------------------------- entry
    async def enter_points(
        self, actor: Actor, ref: TableRef | int, values: Mapping[int, str], *, reason: str | None = None
    ) -> ReportView:
        """Table points (RisiKo!) or tokens (Ricochet Robots) per registration id, as typed by the user."""
        return await self._record(actor, ref, reason=reason, points=values)

    async def enter_situation(
        self,
        actor: Actor,
        ref: TableRef | int,
        situation: str | Mapping[str, Any] | Sequence[Any],
        *,
        reason: str | None = None,
        rng: random.Random | None = None,
    ) -> ReportView:
        """RisiKo! final situation (the ``steward risiko score`` shape, names = players' display names)."""
        return await self._record(actor, ref, reason=reason, situation=situation, rng=rng)

    async def correct(
        self,
        actor: Actor,
        ref: TableRef | int,
        *,
        reason: str,
        values: Mapping[int, str] | None = None,
        situation: str | Mapping[str, Any] | Sequence[Any] | None = None,
    ) -> ReportView:
        """A referee's correction (also of a locked table); before/after and the reason are audited."""
        if not (reason or "").strip():
            raise InvalidInput("error.field_empty", field="report_reason")
        if values is None and situation is None:
            raise InvalidInput("error.report.nothing_entered")
        return await self._record(actor, ref, reason=reason.strip()[:500], points=values, situation=situation)

    async def _record(
        self,
        actor: Actor,
        ref: TableRef | int,
        *,
        reason: str | None,
        points: Mapping[int, str] | None = None,
        situation: str | Mapping[str, Any] | Sequence[Any] | None = None,
        rng: random.Random | None = None,
    ) -> ReportView:
        correcting = reason is not None
        async with self._sessionmaker() as session, session.begin():
            table, rnd, tournament_name = await self._resolve(session, actor.guild_id, ref)
            tournament = await tournament_or_404(session, actor.guild_id, tournament_name)
            seats = await repo.list_report_seats(session=session, guild_id=actor.guild_id, table_id=_id(table))
            if not seats:
                raise Conflict("error.report.no_seats", table=table.number)
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            referee = has_role(actor, config, StaffRole.REFEREE)
            if correcting or (not referee and actor.user_id not in {r.user_id for _, r in seats}):
                require(actor, config, StaffRole.REFEREE)
            if table.locked and not correcting:
                raise Conflict("error.report.locked_use_correct" if referee else "error.report.locked")
            ruleset = load_ruleset(tournament.preset, tournament.overrides or None)  # parsed once per use case
            preset = ruleset.preset
            special = str((rnd.draw_report or {}).get("special_tables", {}).get(str(table.number), "")) or None
            if situation is not None:
                if preset.game != "risiko":
                    raise InvalidInput("error.report.situation_risiko_only")
                kind = "situation"
                lines, stored = _score_situation(ruleset, seats, situation, rng)
                lines = _special_points(ruleset.tournament, special, lines)
            else:
                assert points is not None
                entries = _parse_points(seats, points)
                if preset.game == "risiko":
                    kind = "points"
                    lines = _special_points(ruleset.tournament, special, _risiko_points(preset, seats, entries))
                else:
                    kind = "ricochet"
                    lines = _ricochet_points(ruleset.tournament.points_by_place, entries)
                stored = {
                    "entries": [
                        {"registration_id": rid, "outcome": outcome, "value": value} for rid, outcome, value in entries
                    ]
                }
            existing = {
                r.registration_id: r
                for r in await repo.list_report_results(session=session, guild_id=actor.guild_id, table_id=_id(table))
            }
            before = [_line_json(r) for r in existing.values()]
            now = self._clock()
            for line in lines:
                row = existing.get(line.registration_id)
                if row is None:
                    row = TableResult(
                        guild_id=actor.guild_id, table_id=_id(table), registration_id=line.registration_id
                    )
                    session.add(row)
                row.table_points = line.table_points
                row.table_rank = line.rank
                row.tournament_points = line.tournament_points
                row.outcome = line.outcome
                row.tiebreak = line.tiebreak
                row.entered_by = actor.user_id
                if not table.locked:
                    row.signed_at = None  # a new report must be signed again
                row.locked = table.locked
            table.final_situation = {"kind": kind, "input": stored}
            table.reported_by = actor.user_id
            table.reported_at = now
            if not table.locked:
                table.countersigned_by = None
                table.countersigned_at = None
            await session.flush()
            after = [_line_dict(x) for x in lines]
            details: dict[str, Any] = {"round": rnd.number, "table": table.number, "kind": kind, "after": after}
            if correcting:
                details |= {"before": before, "reason": reason, "locked": table.locked}
            await repo.add_audit(
                session=session,
                guild_id=actor.guild_id,
                actor_id=actor.user_id,
                action="report.correct" if correcting else "report.enter",
                entity="game_table",
                entity_id=table.id,
                details=details,
            )
            return await self._view(session, actor.guild_id, table, rnd, tournament_name)

    # ------------------------------------------------------------------------------------------ signatures
    async def sign(self, actor: Actor, table_id: int) -> SignOutcome:
        """A player of the table signs its report; signing twice changes nothing."""
        async with self._sessionmaker() as session, session.begin():
            table, rnd, name = await self._resolve(session, actor.guild_id, table_id)
            seats = await repo.list_report_seats(session=session, guild_id=actor.guild_id, table_id=table_id)
            mine = next((r for _, r in seats if r.user_id == actor.user_id), None)
            if mine is None:
                raise Conflict("error.report.not_at_table", table=table.number, round=rnd.number)
            results = {
                r.registration_id: r
                for r in await repo.list_report_results(session=session, guild_id=actor.guild_id, table_id=table_id)
            }
            row = results.get(_id(mine))
            if row is None or row.tournament_points is None:
                raise Conflict("error.report.nothing_to_sign", table=table.number)
            already = row.signed_at is not None or table.locked
            if not already:
                assert row.id is not None
                already = not await repo.mark_result_signed(
                    session=session, guild_id=actor.guild_id, result_id=row.id, when=self._clock()
                )
            if not already:
                await repo.add_audit(
                    session=session,
                    guild_id=actor.guild_id,
                    actor_id=actor.user_id,
                    action="report.sign",
                    entity="game_table",
                    entity_id=table_id,
                    details={"registration_id": mine.id, "round": rnd.number, "table": table.number},
                )
            return SignOutcome(await self._view(session, actor.guild_id, table, rnd, name), already)

    async def countersign(self, actor: Actor, ref: TableRef | int) -> ReportView:
        """A referee countersigns once every player has signed; the table and its rows lock."""
        async with self._sessionmaker() as session, session.begin():
            config = await repo.get_guild_config(session=session, guild_id=actor.guild_id)
            require(actor, config, StaffRole.REFEREE)
            table, rnd, name = await self._resolve(session, actor.guild_id, ref)
            view = await self._view(session, actor.guild_id, table, rnd, name)
            if table.locked:
                return view
            if not view.reported:
                raise Conflict("error.report.nothing_to_sign", table=table.number)
            if view.pending:
                raise Conflict("error.report.signatures_missing", names=", ".join(s.name for s in view.pending))
            now = self._clock()
            table.countersigned_by = actor.user_id
            table.countersigned_at = now
            table.locked = True
            for row in await repo.list_report_results(session=session, guild_id=actor.guild_id, table_id=_id(table)):
                row.locked = True
            await session.flush()
            await repo.add_audit(
                session=session,
                guild_id=actor.guild_id,
                actor_id=actor.user_id,
                action="report.countersign",
                entity="game_table",
                entity_id=table.id,
                details={"round": rnd.number, "table": table.number},
            )
            return await self._view(session, actor.guild_id, table, rnd, name)

    # --------------------------------------------------------------------------------------------- helpers
    async def _resolve(self, session: AsyncSession, guild_id: int, ref: TableRef | int) -> tuple[GameTable, Round, str]:
        if isinstance(ref, int):
            table = await repo.get_report_table_by_id(session=session, guild_id=guild_id, table_id=ref)
            if table is None:
                raise NotFound("error.report.table_gone")
            rnd = await session.get(Round, table.round_id)
            assert rnd is not None and rnd.guild_id == guild_id
            tournament = await _tournament_name(session, guild_id, rnd.tournament_id)
            return table, rnd, tournament
        t = await tournament_or_404(session, guild_id, ref.tournament)
        found = await repo.get_report_round(session=session, guild_id=guild_id, tournament_id=_id(t), number=ref.round)
        if found is None:
            raise NotFound("error.report.no_round", tournament=t.name, round=ref.round or "-")
        table = await repo.get_report_table(session=session, guild_id=guild_id, round_id=_id(found), number=ref.table)
        if table is None:
            raise NotFound("error.report.no_table", table=ref.table, round=found.number)
        return table, found, t.name

    async def _view(
        self, session: AsyncSession, guild_id: int, table: GameTable, rnd: Round, tournament_name: str
    ) -> ReportView:
        seats = await repo.list_report_seats(session=session, guild_id=guild_id, table_id=_id(table))
        results = {
            r.registration_id: r
            for r in await repo.list_report_results(session=session, guild_id=guild_id, table_id=_id(table))
        }
        t = await tournament_or_404(session, guild_id, tournament_name)
        lines = []
        for _, reg in seats:
            row = results.get(_id(reg))
            lines.append(
                SeatLine(
                    registration_id=_id(reg),
                    user_id=reg.user_id,
                    name=reg.display_name,
                    club=reg.club,
                    table_points=row.table_points if row else None,
                    rank=row.table_rank if row else None,
                    tournament_points=row.tournament_points if row else None,
                    outcome=row.outcome if row else SeatOutcome.PLAYED.value,
                    signed=bool(row and row.signed_at is not None),
                    decided_by=(row.tiebreak or {}).get("decided_by") if row else None,
                )
            )
        kind = (table.final_situation or {}).get("kind") if results else None
        return ReportView(
            table_id=_id(table),
            tournament_name=tournament_name,
            game=t.game,
            preset=t.preset,
            round_number=rnd.number,
            table_number=table.number,
            seats=tuple(lines),
            kind=kind,
            reported_by=table.reported_by,
            countersigned_by=table.countersigned_by,
            locked=table.locked,
        )


async def _tournament_name(session: AsyncSession, guild_id: int, tournament_id: int) -> str:
    t = await session.get(Tournament, tournament_id)
    assert t is not None and t.guild_id == guild_id
    return t.name


def _id(row: GameTable | Round | Registration | Seat | Any) -> int:
    assert row.id is not None
    return int(row.id)


def _line_json(r: TableResult) -> dict[str, Any]:
    return {
        "registration_id": r.registration_id,
        "table_points": r.table_points,
        "rank": r.table_rank,
        "tournament_points": r.tournament_points,
        "outcome": r.outcome,
    }


def _line_dict(x: _Line) -> dict[str, Any]:
    return {
        "registration_id": x.registration_id,
        "table_points": x.table_points,
        "rank": x.rank,
        "tournament_points": x.tournament_points,
        "outcome": x.outcome,
    }


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


def _risiko_points(
    preset: Any, seats: Sequence[tuple[Seat, Registration]], entries: list[tuple[int, str, float]]
) -> list[_Line]:
    """Table points typed in: order by points (ARB 6), players out of the game after those in play
    (withdrawn above disqualified, ARB art. 25); a tie among players in play needs the final situation."""
    names = {_id(r): r.display_name for _, r in seats}
    active = sorted((e for e in entries if e[1] == SeatOutcome.PLAYED.value), key=lambda e: -e[2])
    for a, b in itertools.pairwise(active):
        if a[2] == b[2]:
            raise InvalidInput("error.report.tie_needs_situation", names=f"{names[a[0]]}, {names[b[0]]}")
    out_of_play = [e for e in entries if e[1] == SeatOutcome.WITHDRAWN.value] + [
        e for e in entries if e[1] == SeatOutcome.DISQUALIFIED.value
    ]
    ordered = active + out_of_play
    try:
        points = tournament_points(preset, [e[2] for e in ordered])
    except RisikoError as exc:
        raise InvalidInput("error.report.engine", code=exc.code, value=str(exc.value)[:80]) from None
    lines = []
    for position, (entry, pts) in enumerate(zip(ordered, points, strict=True), start=1):
        rid, outcome, value = entry
        decided = "points" if outcome == SeatOutcome.PLAYED.value else "status"
        lines.append(_Line(rid, value, position, pts, outcome, {"decided_by": decided}))
    return lines


def _ricochet_points(points_table: Sequence[float], entries: list[tuple[int, str, float]]) -> list[_Line]:
    """RR-WIN-1, RR-WD-1: tokens per player; the one RR ranking (``final_ranking``), forfeits in the order typed."""
    status = {
        SeatOutcome.PLAYED.value: PlayerStatus.ACTIVE,
        SeatOutcome.DISQUALIFIED.value: PlayerStatus.DISQUALIFIED,
    }
    rows = [(rid, value, status.get(outcome, PlayerStatus.FORFEIT)) for rid, outcome, value in entries]
    for _, value, st in rows:
        if st is PlayerStatus.ACTIVE and not float(value).is_integer():
            raise InvalidInput("error.report.tokens_whole", value=str(value))
    try:
        placements = ranking_from_entries(rows)
        pts = ricochet_tournament_points(points_table, placements)
    except (RuleError, TournamentError) as exc:
        raise InvalidInput("error.report.engine", code=exc.code, value=str(exc.value)[:80]) from None
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


def _score_situation(
    ruleset: Ruleset,
    seats: Sequence[tuple[Seat, Registration]],
    situation: str | Mapping[str, Any] | Sequence[Any],
    rng: random.Random | None,
) -> tuple[list[_Line], dict[str, Any]]:
    """The final situation scored by the engine (table points, ranks, explanation), then tournament points.

    The document is parsed by ``bot.rules.risiko.scoring.parse_situation`` — the one parser ``steward risiko
    score`` uses (docs/risiko.md); names are the players' display names (any case)."""
    if isinstance(situation, str):
        if len(situation) > SITUATION_MAX_CHARS:
            raise InvalidInput(
                "error.field_too_long", field="report_situation", max=SITUATION_MAX_CHARS, length=len(situation)
            )
        try:
            doc: Any = json.loads(situation)
        except json.JSONDecodeError as exc:
            raise InvalidInput("error.report.bad_json", detail=f"{exc.msg} (col {exc.colno})") from None
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
        detail = f"{exc.code}: {str(exc.value)[:60]}"
        if exc.code in ("unknown_territory", "territory_owned_twice", "negative_armies"):
            raise InvalidInput("error.report.engine", code=exc.code, value=str(exc.value)[:80]) from None
        raise InvalidInput("error.report.bad_situation", detail=detail) from None
    players: list[PlayerSituation] = []
    reg_of: dict[str, Registration] = {}
    for p in parsed.players:
        reg = by_name.get(p.name.strip().casefold())
        if reg is None:
            raise InvalidInput("error.report.not_at_this_table", value=p.name[:64])
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
        score = score_table(players, rules, dice=canonical_dice, rng=rng)
        in_play_unresolved = [
            p.name for p in score.players if p.unresolved and p.status in (Status.ACTIVE, Status.FROZEN)
        ]
        if in_play_unresolved:
            raise InvalidInput("error.report.tie_unresolved", names=", ".join(sorted(in_play_unresolved)))
        ordered = sorted(score.players, key=lambda x: (x.rank, x.name))
        pts = tournament_points(ruleset.preset, [float(x.table_points) for x in ordered])
    except RisikoError as exc:
        raise InvalidInput("error.report.engine", code=exc.code, value=str(exc.value)[:80]) from None
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
