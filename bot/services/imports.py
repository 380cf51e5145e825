"""A club's past in (issue: to the national ranking and back): a whole-tournament export (``steward-export/1``) or a
ModuloTorneo workbook becomes a finished tournament of this server — its players, rounds, tables, reports and
sanctions — so standings, seasons and FIRK's round 1 continue from history.

All or nothing: the document is checked whole before anything is written (a bad field is named: the export's
schema, or the workbook's sheet and cell), and everything is written in one transaction. Players keep their id
in the document (``Registration.source_id``), so the imported draws still replay and a new export gives the same
document back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import partial
from typing import Any

from sqlalchemy.exc import IntegrityError

from bot.db.models import (
    AppealState,
    GameTable,
    Registration,
    RegistrationStatus,
    Round,
    RoundKind,
    RoundStatus,
    Sanction,
    Seat,
    SeatOutcome,
    TableResult,
    Tournament,
    TournamentStatus,
)
from bot.errors import Conflict, InvalidInput
from bot.rules.errors import refusal_params
from bot.rules.presets import PRESET_NAMES
from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.documents import BadDocument
from bot.rules.tournament.export import ExportDocument, read_export
from bot.services._base import BaseService, clean_text, id_of
from bot.services.access import Actor, StaffRole
from bot.services.modulo_reader import ModuloError, modulo_document


@dataclass(frozen=True, slots=True)
class ImportView:
    tournament_name: str
    players: int
    rounds: int
    tables: int
    sanctions: int


def _when(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _day(text: str | None) -> datetime | None:
    """A round's date (``YYYY-MM-DD``) as the moment it was played (midnight, UTC), which exports back as the date."""
    if not text:
        return None
    return datetime.combine(date.fromisoformat(text), datetime.min.time(), tzinfo=UTC)


class ImportService(BaseService):
    async def tournament(self, actor: Actor, *, document: Any, name: str | None = None) -> ImportView:
        """A whole-tournament export as a finished tournament of the actor's server (organizers)."""
        await self._organizer(actor)
        try:
            export = read_export(document)
        except BadDocument as exc:
            raise InvalidInput("error.import.bad_document", detail=str(exc.value)[:300]) from None
        return await self._write(actor, export, name)

    async def modulo(self, actor: Actor, *, data: bytes, preset: str, name: str | None = None) -> ImportView:
        """A ModuloTorneo workbook as a finished tournament with ``preset``'s rules (organizers)."""
        await self._organizer(actor)
        if preset not in PRESET_NAMES:
            raise InvalidInput("error.unknown_preset", preset=preset[:64], known=", ".join(PRESET_NAMES))
        try:
            document = await self._workers.thread(partial(modulo_document, data, preset=preset))
        except ModuloError as exc:
            if exc.rule is not None:  # a table the rules refuse: the refusal in words (issue 44), with where it is
                raise InvalidInput("error.import.workbook_table", sheet=exc.sheet[:40], table=exc.table,
                                   **refusal_params(exc.rule, limit=60)) from None  # fmt: skip
            raise InvalidInput("error.import.bad_workbook", detail=str(exc)[:300]) from None
        return await self.tournament(actor, document=document, name=name)

    async def _organizer(self, actor: Actor) -> None:
        """Who may import is decided before the file is read: a member's upload costs no parsing."""
        async with self.run(actor, role=StaffRole.ORGANIZER):
            pass

    async def _write(self, actor: Actor, export: ExportDocument, name: str | None) -> ImportView:
        info = export.tournament
        title = clean_text(name or info.name, field="name", max_len=100)
        try:
            load_ruleset(info.preset, info.overrides or None)
        except (KeyError, ValueError) as exc:
            raise InvalidInput("error.import.bad_document", detail=f"tournament.preset: {str(exc)[:200]}") from None
        unknown = next((s.appeal.state for s in export.sanctions if s.appeal.state not in set(AppealState)), None)
        if unknown is not None:  # the export's schema takes any short word here; the database, only a state
            raise InvalidInput("error.import.bad_document", detail=f"sanctions.appeal.state: {unknown[:40]}")
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            if await uc.tournaments.by_name(title) is not None:
                raise Conflict("error.import.name_taken", name=title)
            t = Tournament(
                guild_id=uc.guild_id,
                name=title,
                game=info.game,
                preset=info.preset,
                overrides=dict(info.overrides),
                status=TournamentStatus.FINISHED,
                created_by=actor.user_id,
                publishing=dict(info.publishing) if info.publishing else None,
            )
            try:
                tid = id_of(await uc.insert(t))
            except IntegrityError:
                raise Conflict("error.import.name_taken", name=title) from None
            reg_of: dict[int, int] = {}
            for p in export.players:
                reg = Registration(
                    guild_id=uc.guild_id,
                    tournament_id=tid,
                    display_name=p.name,
                    club=p.club,
                    team=p.team,
                    status=RegistrationStatus(p.status),
                    family_group=p.family_group,
                    previous_rank=p.previous_rank,
                    first_name=p.first_name,
                    surname=p.surname,
                    national_id=p.national_id,
                    birth_date=date.fromisoformat(p.birth_date) if p.birth_date else None,
                    region=p.region,
                    source_id=p.id,
                )
                reg_of[p.id] = id_of(await uc.insert(reg))
            tables_written = 0
            round_of: dict[int, int] = {}
            table_of: dict[tuple[int, int], int] = {}
            for r in sorted(export.rounds, key=lambda x: x.number):
                rnd = Round(
                    guild_id=uc.guild_id,
                    tournament_id=tid,
                    number=r.number,
                    kind=RoundKind(r.kind),
                    status=RoundStatus(r.status),
                    draw_seed=r.seed,
                    draw_report=dict(r.draw) if r.draw else None,
                    published_at=_day(r.date),
                )
                round_id = round_of[r.number] = id_of(await uc.insert(rnd))
                for table in sorted(r.tables, key=lambda x: x.number):
                    report = table.report
                    gt = GameTable(
                        guild_id=uc.guild_id,
                        round_id=round_id,
                        number=table.number,
                        size=table.size,
                        note=table.note,
                        final_situation={"kind": report.kind, "input": dict(report.input)} if report.kind else None,
                        reported_at=_when(report.reported_at),
                        countersigned_at=_when(report.countersigned_at),
                        locked=report.locked,
                    )
                    table_id = table_of[(r.number, table.number)] = id_of(await uc.insert(gt))
                    for position, pid in enumerate(table.seats, start=1):
                        uc.add(
                            Seat(
                                guild_id=uc.guild_id, table_id=table_id, registration_id=reg_of[pid], position=position
                            )
                        )
                    for res in report.results:
                        uc.add(
                            TableResult(
                                guild_id=uc.guild_id,
                                table_id=table_id,
                                registration_id=reg_of[res.player],
                                table_points=res.table_points,
                                table_rank=res.rank,
                                tournament_points=res.tournament_points,
                                outcome=SeatOutcome(res.outcome),
                                points_adjustment=float(res.adjustment),
                                signed_at=_when(res.signed_at),
                                tiebreak=res.tiebreak,
                                locked=report.locked,
                            )
                        )
                    tables_written += 1
            for s in export.sanctions:  # the server's own case numbers: a case number is unique in a server
                case = await uc.sanctions.allocate_case_number()
                if case is None:
                    raise Conflict("error.import.no_server_setup")
                uc.add(
                    Sanction(
                        guild_id=uc.guild_id,
                        case_number=case,
                        kind=s.kind,
                        article=s.article,
                        registration_id=reg_of[s.player],
                        tournament_id=tid,
                        round_id=round_of.get(s.round) if s.round else None,
                        table_id=table_of.get((s.round, s.table)) if s.round and s.table else None,
                        referee_id=actor.user_id or 0,
                        details=s.details,
                        infraction=s.infraction,
                        offence=s.offence,
                        consequence=s.consequence,
                        points=s.points,
                        revoked_at=_when(s.revoked_at),
                        revoke_reason=s.revoke_reason,
                        appeal_state=AppealState(s.appeal.state),
                        appeal_reason=s.appeal.reason,
                        appealed_at=_when(s.appeal.appealed_at),
                        appeal_decided_at=_when(s.appeal.decided_at),
                        appeal_note=s.appeal.note,
                        created_at=_when(s.created_at) or uc.clock(),
                    )
                )
            await uc.flush()
            await uc.audit(
                "tournament.import",
                "tournament",
                tid,
                tournament=title,
                players=len(reg_of),
                rounds=len(round_of),
                tables=tables_written,
            )
            return ImportView(title, len(reg_of), len(round_of), tables_written, len(export.sanctions))
