"""The player list as a CSV file or an Excel workbook (BOT-REG-1): organizers import players (a file with
a bad row imports nothing, read by ``bot.files.players``); organizers and referees read the list for spreadsheets
(``RosterView``: ``bot.present.roster`` writes the file)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError

from bot.db.models import Registration, RegistrationStatus
from bot.errors import Conflict, InvalidInput
from bot.files.players import (
    CsvPlayer,
    RowProblem,
    parse_players_csv,
    parse_players_xlsx,
)
from bot.rules.text import name_key
from bot.services._base import BaseService, Spellings, UseCase
from bot.services.access import STAFF, Actor, StaffRole
from bot.services.registrations import EDITABLE_STATES, HOLDS_A_PLACE, staff_status

CSV_MAX_BYTES = 512 * 1024


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """``problems`` non-empty means nothing was imported. ``rows_read``: the file's rows of players as read (every
    row it holds, whatever it declares); ``MAX_ROWS + 1`` when it holds more than an import takes."""

    tournament_name: str
    imported: int
    waitlisted: int
    problems: tuple[RowProblem, ...]
    rows_read: int = 0


@dataclass(frozen=True, slots=True)
class RosterView:
    """A tournament's players as the spreadsheet lists them: the import's own columns, each entry's status, and
    whether the identity columns (the national ranking's) are filled in (a tournament set up for publishing)."""

    tournament_name: str
    players: tuple[CsvPlayer, ...]
    statuses: tuple[str, ...]
    identity: bool

    @property
    def rows(self) -> int:
        return len(self.players)


FLUSH_EVERY = 200  # rows written per flush of an import


class RosterService(BaseService):
    async def import_csv(self, actor: Actor, *, tournament: str, data: bytes, workbook: bool = False) -> ImportOutcome:
        """Import players from a CSV file or, with ``workbook``, an Excel workbook's first sheet (organizers); any
        bad row and nothing is imported (BOT-REG-1). The same columns, limits and checks for both."""
        if len(data) > CSV_MAX_BYTES:
            raise InvalidInput("error.csv_too_big", max=CSV_MAX_BYTES // 1024, size=len(data) // 1024)
        parse = parse_players_xlsx if workbook else parse_players_csv
        parsed = await self._workers.thread(parse, data)  # up to 2,000 rows: off the event loop
        now = self._clock()
        # the tournament's lock first: the cap
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament, lock=True) as uc:
            t, tid = uc.tournament, uc.tournament_id
            if t.status not in EDITABLE_STATES:
                raise Conflict("error.tournament_started", tournament=t.name)
            if parsed.problems:
                return ImportOutcome(t.name, 0, 0, parsed.problems, parsed.rows)
            existing = await uc.registrations.listed(tournament_id=tid)
            live = [r for r in existing if r.status != RegistrationStatus.WITHDRAWN]
            names = {name_key(r.display_name) for r in live}
            by_user = {r.user_id: r for r in existing if r.user_id is not None}
            problems: list[RowProblem] = []
            for p in parsed.players:
                if name_key(p.name) in names:
                    problems.append(RowProblem(p.line, "csv.error.name_taken", {"name": p.name}))
                old = by_user.get(p.user_id) if p.user_id is not None else None
                if old is not None and old.status != RegistrationStatus.WITHDRAWN:
                    problems.append(RowProblem(p.line, "csv.error.already_registered", {"name": old.display_name}))
            if problems:
                return ImportOutcome(t.name, 0, 0, tuple(problems), parsed.rows)
            active = sum(1 for r in live if r.status in HOLDS_A_PLACE)
            validated = any(r.status == RegistrationStatus.VALIDATED for r in live)
            waitlisted = 0
            spellings = await Spellings.of(uc)
            pending = 0
            for p in parsed.players:
                full = t.cap is not None and active >= t.cap
                status = staff_status(t, full, list_validated=validated)
                waitlisted += full
                active += not full
                reg = (by_user.get(p.user_id) if p.user_id is not None else None) or Registration(
                    guild_id=actor.guild_id, tournament_id=tid, user_id=p.user_id, display_name=p.name
                )
                reg.display_name, reg.club = p.name, spellings.spell("club", p.club)
                reg.team, reg.family_group = spellings.spell("team", p.team), spellings.spell("family_group", p.family)
                for attr in ("first_name", "surname", "birth_date", "national_id", "region"):  # national publishing
                    if getattr(p, attr) is not None:
                        setattr(reg, attr, getattr(p, attr))
                reg.status, reg.registered_at, reg.withdrawn_at = status, now, None
                reg.validated_at = now if status == RegistrationStatus.VALIDATED else None
                uc.add(reg)
                pending += 1
                if pending >= FLUSH_EVERY:  # the ORM's work in slices: the loop breathes between them
                    await self._flush(uc, t.name)
                    pending = 0
            await self._flush(uc, t.name)
            await uc.audit("registration.import", "tournament", tid, tournament=t.name, rows=len(parsed.players),
                           waitlisted=waitlisted)  # fmt: skip
            return ImportOutcome(t.name, len(parsed.players), waitlisted, (), parsed.rows)

    @staticmethod
    async def _flush(uc: UseCase, tournament: str) -> None:
        try:
            await uc.flush()
        except IntegrityError:  # a player registered the same name or account while the file was read
            raise Conflict("error.roster_changed", tournament=tournament) from None

    async def export(self, actor: Actor, *, tournament: str) -> RosterView:
        """The player list for spreadsheets (organizers and referees): the import's own columns."""
        async with self.run(actor, role=STAFF, tournament=tournament) as uc:
            rows = await uc.registrations.listed(tournament_id=uc.tournament_id)
            players = tuple(
                CsvPlayer(
                    r.display_name,
                    r.club,
                    r.team,
                    r.family_group,
                    r.user_id,
                    0,
                    r.first_name,
                    r.surname,
                    r.birth_date,
                    r.national_id,
                    r.region,
                )
                for r in rows
            )
            return RosterView(uc.tournament.name, players, tuple(str(r.status) for r in rows),
                              uc.tournament.publishing is not None)  # fmt: skip
