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

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.db.documents import TableSituation, TieBreakNote
from bot.db.models import GameTable, Round, RoundStatus, SeatOutcome, TableResult
from bot.errors import Conflict, InvalidInput, NotFound
from bot.rules.tournament.rescore import Line
from bot.services._base import BaseService, UseCase, clean_text, id_of, retry_when_locked
from bot.services.access import Actor, StaffRole
from bot.services.report_integrity import RepairView, ReportStamp, drop_unseated, repair_table, result_json
from bot.services.report_lines import (
    parse_points,
    situation_lines,
    special_of,
    table_adjustments,
    typed_lines,
    write_line,
)
from bot.services.report_views import (  # re-exported: the cogs and tests import them from here
    NOTE_MAX,
    MapScore,
    MyGame,
    MyGamesView,
    ReportView,
    SeatLine,
    SignOutcome,
    TableNote,
    TableRef,
    map_owners,
    map_scores,
)

__all__ = [
    "NOTE_MAX", "MapScore", "MyGame", "MyGamesView", "RepairView", "ReportService", "ReportStamp", "ReportView",
    "SeatLine", "SignOutcome", "TableNote", "TableRef",
]  # fmt: skip

ROW_ID_MAX = 2**31 - 1  # the largest id of an INTEGER primary key on PostgreSQL
PAGE_USER_ID = 0  # who entered a report through the table's report page: the page, no member (audited "via page")

# A table found: the table, its round, and the use case about its tournament (its ruleset, its queries)
Found = tuple[GameTable, Round, UseCase]


class ReportService(BaseService):
    # ---------------------------------------------------------------------------------------------- reading
    async def sheet(self, actor: Actor, ref: TableRef | int) -> ReportView:
        """The table's report as it stands; only a referee or a player of the table may open it for entry."""
        async with self.run(actor) as uc:
            table, rnd, tuc = await self._resolve(uc, ref)
            _require_published(rnd)
            seats = await uc.reports.list_report_seats(table_id=id_of(table))
            referee = uc.has_role(StaffRole.REFEREE)
            if not referee and actor.user_id not in {r.user_id for _, r in seats}:
                uc.require(StaffRole.REFEREE)
            if table.locked:
                raise Conflict("error.report.locked_use_correct" if referee else "error.report.locked")
            return await self._view(tuc, table, rnd)

    async def correction_sheet(self, actor: Actor, ref: TableRef | int) -> ReportView:
        """The table's report for a referee's correction form (locked tables included)."""
        async with self.run(actor, role=StaffRole.REFEREE) as uc:
            table, rnd, tuc = await self._resolve(uc, ref)
            return await self._view(tuc, table, rnd)

    async def lookup(self, actor: Actor, ref: TableRef | int) -> ReportView:
        """Anyone in the server may read a table's report."""
        async with self.run(actor) as uc:
            table, rnd, tuc = await self._resolve(uc, ref)
            return await self._view(tuc, table, rnd)

    async def view(self, guild_id: int, table_id: int) -> ReportView:
        async with self.run(guild_id) as uc:
            table, rnd, tuc = await self._resolve(uc, table_id)
            return await self._view(tuc, table, rnd)

    async def my_games(self, actor: Actor, tournament: str) -> MyGamesView:
        """The actor's tables in a tournament: points, ranks and the signatures still pending."""
        async with self.run(actor, tournament=tournament) as uc:
            t = uc.tournament
            reg = await uc.registrations.for_user(tournament_id=uc.tournament_id, user_id=actor.user_id)
            if reg is None:
                raise NotFound("error.report.not_registered", tournament=t.name)
            games: list[MyGame] = []
            for rnd, table in await uc.reports.list_report_tables_for_registration(registration_id=id_of(reg)):
                view = await self._view(uc, table, rnd)
                mine = next(s for s in view.seats if s.registration_id == reg.id)
                games.append(
                    MyGame(
                        round_number=rnd.number,
                        table_number=table.number,
                        table_id=id_of(table),
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
        self,
        actor: Actor,
        ref: TableRef | int,
        values: Mapping[int, str],
        *,
        reason: str | None = None,
        seen: ReportStamp | None = None,
    ) -> ReportView:
        """Table points (RisiKo!) or tokens (Ricochet Robots) per registration id, as typed by the user; ``seen``:
        the table as the form showed it (default: as the submission finds it), see :meth:`_record`."""
        return await self._record(actor, ref, reason=reason, points=values, seen=seen)

    async def enter_situation(
        self,
        actor: Actor,
        ref: TableRef | int,
        situation: str | Mapping[str, Any] | Sequence[Any],
        *,
        reason: str | None = None,
        rng: random.Random | None = None,
        seen: ReportStamp | None = None,
    ) -> ReportView:
        """RisiKo! final situation (the ``steward risiko score`` shape, names = players' display names)."""
        return await self._record(actor, ref, reason=reason, situation=situation, rng=rng, seen=seen)

    async def enter_from_page(self, guild_id: int, table_id: int, *, situation: Mapping[str, Any] | None = None,
                              values: Mapping[int, str] | None = None,
                              seen: ReportStamp | None = None) -> ReportView:  # fmt: skip
        """A report page's entry (issue 42), as ``/report situation`` or the form; audited ``via: page``, actor 0."""
        page = Actor(guild_id=guild_id, user_id=PAGE_USER_ID, display_name="report page")
        return await self._record(page, table_id, reason=None, points=values, situation=situation, seen=seen,
                                  via_page=True)  # fmt: skip

    async def correct(self, actor: Actor, ref: TableRef | int, *, reason: str, values: Mapping[int, str] | None = None,
                      situation: str | Mapping[str, Any] | Sequence[Any] | None = None,
                      seen: ReportStamp | None = None) -> ReportView:  # fmt: skip
        """A referee's correction (also of a locked table); before/after and the reason are audited."""
        if not (reason or "").strip():
            raise InvalidInput("error.field_empty", field="report_reason")
        if values is None and situation is None:
            raise InvalidInput("error.report.nothing_entered")
        return await self._record(
            actor, ref, reason=reason.strip()[:500], points=values, situation=situation, seen=seen
        )

    async def _record(
        self,
        actor: Actor,
        ref: TableRef | int,
        *,
        reason: str | None,
        points: Mapping[int, str] | None = None,
        situation: str | Mapping[str, Any] | Sequence[Any] | None = None,
        rng: random.Random | None = None,
        seen: ReportStamp | None = None,
        via_page: bool = False,
    ) -> ReportView:
        """Write a table's report. The write goes against the table as the user saw it (``seen``: the form they typed
        into; else as the submission found it on arrival) and holds the table's lock while it reads the table again:
        a seating changed meanwhile (``/replace``) or a report another person entered meanwhile is refused with one
        clear line, so a result is only ever written for the players seated at the table and two simultaneous
        submissions give one report, never an error. Lines of players no longer seated go (audited)."""
        correcting = reason is not None
        arrived = await self._stamp(actor, ref)
        if seen is None or seen.table_id != arrived.table_id:
            seen = arrived
        elif (early := seen.refusal(arrived)) is not None:
            raise early  # the table already changed since the form: no need to wait for its lock to say so
        async with self.run(actor) as uc:  # the table is found before its tournament, the role decided after
            table, rnd, tuc = await self._locked(uc, arrived.table_id)
            table_id = id_of(table)
            _require_published(rnd)
            seats = await uc.reports.list_report_seats(table_id=table_id)
            if not seats:
                raise Conflict("error.report.no_seats", table=table.number)
            referee = uc.has_role(StaffRole.REFEREE)
            if correcting or (not via_page and not referee and actor.user_id not in {r.user_id for _, r in seats}):
                uc.require(StaffRole.REFEREE)
            if table.locked and not correcting:
                raise Conflict("error.report.locked_use_correct" if referee else "error.report.locked")
            seating = {id_of(r) for _, r in seats}
            as_now = ReportStamp.of(await self._view(tuc, table, rnd))
            if (refusal := seen.refusal(as_now)) is not None:  # a /replace, or another report, got the lock first
                raise refusal
            ruleset = tuc.rules  # parsed once per use case
            special = special_of(rnd, table)
            if situation is not None:
                if ruleset.game != "risiko":
                    raise InvalidInput("error.report.situation_risiko_only")
                kind = "situation"
                adjusted = await table_adjustments(tuc, table, seats)
                lines, stored = situation_lines(ruleset, seats, situation, rng, adjusted, special)
            else:
                if points is None:  # pragma: no cover - the public methods give one or the other
                    raise InvalidInput("error.report.nothing_entered")
                entries = parse_points(seats, points)
                adjusted = await table_adjustments(tuc, table, seats)
                kind, lines = typed_lines(ruleset, seats, entries, adjusted, special)
                stored = {
                    "entries": [
                        {"registration_id": rid, "outcome": outcome, "value": value} for rid, outcome, value in entries
                    ]
                }
            rows = await uc.reports.list_report_results(table_id=table_id)
            before = [result_json(r) for r in rows]
            dropped = await drop_unseated(uc, seats, rows)  # a result belongs to a seated player
            existing = {r.registration_id: r for r in rows if r.registration_id in seating}
            now = uc.clock()
            for line in lines:
                row = existing.get(line.registration_id)
                if row is None:
                    row = TableResult(guild_id=actor.guild_id, table_id=table_id, registration_id=line.registration_id)
                    uc.add(row)
                write_line(row, line)
                row.entered_by = actor.user_id
                if not table.locked:
                    row.signed_at = None  # a new report must be signed again
                row.locked = table.locked
            table.final_situation = TableSituation(kind, stored).to_json()
            table.reported_by = actor.user_id
            table.reported_at = now
            if not table.locked:
                table.countersigned_by = None
                table.countersigned_at = None
            await uc.flush()
            after = [_line_dict(x) for x in lines]
            details: dict[str, Any] = {"round": rnd.number, "table": table.number, "kind": kind, "after": after}
            if dropped:
                details["dropped"] = dropped
            if via_page:
                details["via"] = "page"
            if correcting:
                details |= {"before": before, "reason": reason, "locked": table.locked}
            await uc.audit("report.correct" if correcting else "report.enter", "game_table", table.id, **details)
            return await self._view(tuc, table, rnd)

    # ------------------------------------------------------------------------------------------ signatures
    async def sign(self, actor: Actor, table_id: int) -> SignOutcome:
        """A player of the table signs its report; signing twice changes nothing (so a locked database is retried)."""
        return await retry_when_locked(lambda: self._sign(actor, table_id))

    async def _sign(self, actor: Actor, table_id: int) -> SignOutcome:
        async with self.run(actor) as uc:
            table, rnd, tuc = await self._locked(uc, table_id)
            seats = await uc.reports.list_report_seats(table_id=table_id)
            mine = next((r for _, r in seats if r.user_id == actor.user_id), None)
            if mine is None:
                raise Conflict("error.report.not_at_table", table=table.number, round=rnd.number)
            results = {r.registration_id: r for r in await uc.reports.list_report_results(table_id=table_id)}
            row = results.get(id_of(mine))
            if row is None or row.tournament_points is None:
                raise Conflict("error.report.nothing_to_sign", table=table.number)
            already = row.signed_at is not None or table.locked
            if not already:
                already = not await uc.reports.mark_result_signed(result_id=id_of(row), when=uc.clock())
            if not already:
                await uc.audit("report.sign", "game_table", table_id, registration_id=mine.id, round=rnd.number,
                               table=table.number)  # fmt: skip
            return SignOutcome(await self._view(tuc, table, rnd), already)

    async def countersign(self, actor: Actor, ref: TableRef | int) -> ReportView:
        """A referee countersigns once every player has signed; the table and its rows lock (idempotent, so a
        locked database is retried)."""
        return await retry_when_locked(lambda: self._countersign(actor, ref))

    async def _countersign(self, actor: Actor, ref: TableRef | int) -> ReportView:
        table_id = await self._table_id(actor, ref)
        async with self.run(actor, role=StaffRole.REFEREE) as uc:
            table, rnd, tuc = await self._locked(uc, table_id)
            view = await self._view(tuc, table, rnd)
            if table.locked:
                return view
            if not view.reported:
                raise Conflict("error.report.nothing_to_sign", table=table.number)
            if view.pending:
                raise Conflict("error.report.signatures_missing", names=tuple(s.name for s in view.pending))
            now = uc.clock()
            table.countersigned_by = actor.user_id
            table.countersigned_at = now
            table.locked = True
            for row in await uc.reports.list_report_results(table_id=id_of(table)):
                row.locked = True
            await uc.flush()
            await uc.audit("report.countersign", "game_table", table.id, round=rnd.number, table=table.number)
            return await self._view(tuc, table, rnd)

    async def note_table(self, actor: Actor, ref: TableRef, text: str) -> TableNote:
        """A referee writes (or, with "-", clears) the note of a table: FIRK §9 lets the referee set special rules
        for three players plus the "morto"; the note is shown with the table and posted in its thread."""
        cleaned = clean_text(text, field="note", max_len=NOTE_MAX)
        async with self.run(actor, role=StaffRole.REFEREE) as uc:
            table, rnd, tuc = await self._resolve(uc, ref)
            before = table.note
            table.note = None if cleaned == "-" else cleaned
            await uc.flush()
            await uc.audit("table.note", "game_table", table.id, round=rnd.number, table=table.number, before=before,
                           after=table.note)  # fmt: skip
            return TableNote(tuc.tournament.name, rnd.number, table.number, table.note, special_of(rnd, table),
                             table.thread_id)  # fmt: skip

    # ---------------------------------------------------------------------------------------------- repair
    async def repair(
        self, actor: Actor, tournament: str, *, round: int | None = None, table: int | None = None
    ) -> RepairView:
        """The head referee makes a tournament's tables consistent again (issue 40, finding 3): the results of
        players no longer seated at their table go — a ``/replace`` that raced a report before tables were locked
        left them, and the standings counted them — and a report left without a line for a seated player loses its
        signatures and lock and waits for a referee's correction. Each table repaired is audited (what went, who
        lacks a line); ``round`` / ``table``: only those (a table without a round: the latest round's)."""
        async with self.run(actor, role=StaffRole.HEAD_REFEREE, tournament=tournament) as uc:  # which tables
            only = None
            if table is not None:
                only, _, _ = await self._resolve(uc, TableRef(tournament, table, round))
            elif round is not None and not await uc.reports.get_report_round(
                tournament_id=uc.tournament_id, number=round
            ):
                raise NotFound("error.report.no_round", tournament=uc.tournament.name, round=round)
            found = await uc.reports.list_unseated_results(
                tournament_id=uc.tournament_id,
                round_number=round,
                table_id=only.id if only is not None else None,
            )
            rounds = {row.table_id: row.round_number for row in found}
        async with self.run(actor, role=StaffRole.HEAD_REFEREE, tournament=tournament) as uc:
            done = []
            for table_id in sorted(rounds):  # one order for every locker of several tables
                await uc.reports.lock_report_table(table_id=table_id)
            for table_id in sorted(rounds, key=lambda i: (rounds[i], i)):
                row = await uc.reports.get_report_table_by_id(table_id=table_id)
                fixed = await repair_table(uc, row, rounds[table_id]) if row is not None else None
                if fixed is not None:
                    await uc.audit("report.repair", "game_table", table_id, tournament=uc.tournament.name, **fixed[1])
                    done.append(fixed[0])
            return RepairView(uc.tournament.name, tuple(sorted(done, key=lambda x: (x.round_number, x.table_number))))

    # --------------------------------------------------------------------------------------------- helpers
    async def _stamp(self, actor: Actor, ref: TableRef | int) -> ReportStamp:
        """The table ``ref`` names, and its seats and report as they are now (a read before the locked write)."""
        async with self.run(actor) as uc:
            table, rnd, tuc = await self._resolve(uc, ref)
            return ReportStamp.of(await self._view(tuc, table, rnd))

    async def _table_id(self, actor: Actor, ref: TableRef | int) -> int:
        """The id of the table ``ref`` names (a read before the locked write: the lock is taken by id)."""
        if isinstance(ref, int):
            return ref
        async with self.run(actor) as uc:
            return id_of((await self._resolve(uc, ref))[0])

    async def _locked(self, uc: UseCase, table_id: int) -> Found:
        """The table's row lock, first in the transaction (a report write, a signature, a replacement: one at a
        time per table), then the table read as it now is."""
        if not 0 < table_id <= ROW_ID_MAX or not await uc.reports.lock_report_table(table_id=table_id):
            raise NotFound("error.report.table_gone")
        return await self._resolve(uc, table_id)

    async def _resolve(self, uc: UseCase, ref: TableRef | int) -> Found:
        """The table ``ref`` names (a button's id, or a tournament, round and number), its round, and the use case
        about its tournament."""
        if isinstance(ref, int):
            # a button's id comes back from Discord as typed there: one outside the ids a row can have is a forgery
            found = await uc.reports.get_report_table_in_server(table_id=ref) if 0 < ref <= ROW_ID_MAX else None
            if found is None:
                raise NotFound("error.report.table_gone")
            table, rnd, t = found
            return table, rnd, uc.about(t)
        tournament = await uc.tournaments.by_name(name=ref.tournament)
        if tournament is None:
            raise NotFound("error.tournament_not_found", name=ref.tournament.strip()[:100])
        at_round = await uc.reports.get_report_round(tournament_id=id_of(tournament), number=ref.round)
        if at_round is None:
            raise NotFound("error.report.no_round", tournament=tournament.name, round=ref.round or "-")
        at_table = await uc.reports.get_report_table(round_id=id_of(at_round), number=ref.table)
        if at_table is None:
            raise NotFound("error.report.no_table", table=ref.table, round=at_round.number)
        return at_table, at_round, uc.about(tournament)

    async def _view(self, uc: UseCase, table: GameTable, rnd: Round) -> ReportView:
        """The table's report as it stands (``uc``: the use case about the table's tournament)."""
        t = uc.tournament
        seats = await uc.reports.list_report_seats(table_id=id_of(table))
        results = {r.registration_id: r for r in await uc.reports.list_report_results(table_id=id_of(table))}
        lines = []
        for _, reg in seats:
            row = results.get(id_of(reg))
            lines.append(
                SeatLine(
                    registration_id=id_of(reg),
                    user_id=reg.user_id,
                    name=reg.display_name,
                    club=reg.club,
                    table_points=row.table_points if row else None,
                    rank=row.table_rank if row else None,
                    tournament_points=row.tournament_points if row else None,
                    outcome=row.outcome if row else SeatOutcome.PLAYED,
                    signed=bool(row and row.signed_at is not None),
                    decided_by=TieBreakNote.from_json(row.tiebreak).decided_by if row else None,
                )
            )
        situation = TableSituation.from_json(table.final_situation)
        kind = situation.kind if results and situation else None
        return ReportView(
            table_id=id_of(table),
            tournament_name=t.name,
            game=t.game,
            preset=t.preset,
            round_number=rnd.number,
            table_number=table.number,
            seats=tuple(lines),
            kind=kind,
            reported_by=table.reported_by,
            countersigned_by=table.countersigned_by,
            locked=table.locked,
            map_owners=map_owners(uc.rules, situation) if kind == "situation" and situation else (),
            map_scores=map_scores(situation) if kind == "situation" and situation else (),
        )


def _require_published(rnd: Round) -> None:
    """A report is written only for a published round: a draft's tables may still be swapped, moved or redrawn, and
    a result must only ever belong to a player seated at its table (issue 40, finding 3)."""
    if rnd.status in (RoundStatus.PLANNED, RoundStatus.DRAWN):
        raise Conflict("error.report.round_not_published", round=rnd.number)


def _line_dict(x: Line) -> dict[str, Any]:
    return {
        "registration_id": x.registration_id,
        "table_points": x.table_points,
        "rank": x.rank,
        "tournament_points": x.tournament_points,
        "outcome": x.outcome,
    }
