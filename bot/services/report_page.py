"""The table's report page (issue 42): its link, what the page knows of its table, the live preview of a draft and
the submission — the same entry as ``/report situation`` and the points form (``ReportService``).

The link is ``/r/{table id}-{mac}``: the mac is an HMAC-SHA256 of the table and its round under the tournament's
venue token, so it is unguessable, scoped to that table and round, and revoked with the venue link (a new venue
token changes every table's mac); it needs no row of its own. The page answers while the round is published and
says "closed" once the round is closed (and 404 for anything else: a wrong mac, a table redrawn away).

Nothing private goes to the page: the players' display names (as on the venue page), the table's seats, the
preset's objectives and the draft; no Discord id, no sanction detail."""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.db.documents import TableSituation
from bot.db.models import Registration, RoundStatus, Seat
from bot.errors import InvalidInput, UserFacingError
from bot.rules.risiko.config import RisikoRules
from bot.rules.risiko.situation_draft import (
    Problem,
    SeatFigures,
    SituationDraft,
    draft_document,
    draft_from_situation,
    draft_problems,
    objective_names,
    seat_figures,
    typed_values,
    uses_objectives,
)
from bot.rules.ruleset import Ruleset
from bot.rules.sanctions import TableAdjustment
from bot.rules.tournament.rescore import Player, ReportError, score_situation
from bot.services._base import NO_SERVER, BaseService, id_of
from bot.services.access import STAFF, Actor, StaffRole
from bot.services.report_lines import players_of, report_refusal, table_adjustments
from bot.services.reports import ReportService, ReportStamp, ReportView

log = logging.getLogger(__name__)

ENTERED = ("points", "ricochet", "situation")  # the kinds of a report entered (not a table that sat out)
MAC_CHARS = 22  # 132 bits of HMAC-SHA256, URL-safe
LINK_SHAPE = re.compile(r"([1-9][0-9]{0,9})-([A-Za-z0-9_-]{22})")


def page_mac(venue_token: str, table_id: int, round_id: int) -> str:
    digest = hmac.new(venue_token.encode(), f"report-page:{table_id}:{round_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:MAC_CHARS]


def page_token(venue_token: str, table_id: int, round_id: int) -> str:
    """The report page's path token of a table (``/r/<token>``)."""
    return f"{table_id}-{page_mac(venue_token, table_id, round_id)}"


class PageClosed(Exception):
    """The link was right but its round is closed: the page says so (not a 404)."""


@dataclass(frozen=True, slots=True)
class PageSeat:
    seat: int
    registration_id: int
    name: str


@dataclass(frozen=True, slots=True)
class TablePage:
    """What the page knows of its table, read once and refreshed every few seconds by the web layer."""

    token: str
    guild_id: int
    table_id: int
    round_id: int
    round_number: int
    round_kind: str
    table_number: int
    tournament: str
    locale: str
    game: str  # "risiko" or "ricochet"
    status: str  # "open", "entered", "locked"
    report_kind: str | None
    signed: int
    seats: tuple[PageSeat, ...]
    ruleset: Ruleset
    adjustments: Mapping[int, TableAdjustment]
    stamp: ReportStamp
    players: tuple[Player, ...]  # the seats as read: registration ids and names (what the scoring reads)
    thread_id: int | None = None  # the table's thread, where the bot posts what the page entered
    stored: tuple[SituationDraft, int] | None = None  # the draft stored for this table and its version

    @property
    def risiko(self) -> RisikoRules | None:
        return self.ruleset.risiko

    @property
    def kinds(self) -> tuple[str, ...]:
        """How this table may report: the map (RisiKo!) and typed values (points, or Ricochet Robots tokens)."""
        return ("situation", "points") if self.risiko is not None else ("points",)

    @property
    def objectives(self) -> tuple[str, ...]:
        return objective_names() if self.risiko is not None and uses_objectives(self.risiko) else ()


@dataclass(frozen=True, slots=True)
class SeatScore:
    seat: int
    table_points: float
    rank: int
    tournament_points: float | None


@dataclass(frozen=True, slots=True)
class Preview:
    """A draft as the engine sees it: the seats' figures, what is missing, and — when nothing is — the table points,
    places and tournament points a submission would record (the same function as the submission), or the refusal
    it would meet (``refusal``)."""

    figures: tuple[SeatFigures, ...]
    problems: tuple[Problem, ...]
    scores: tuple[SeatScore, ...]
    refusal: UserFacingError | None

    @property
    def complete(self) -> bool:
        return not self.problems and self.refusal is None and bool(self.scores)


Entered = Callable[[TablePage, ReportView], Awaitable[None]]


class ReportPageService(BaseService):
    """The report pages' use cases. ``listeners`` are told of every report the page enters (the bot posts it in the
    table's thread, for the players to sign)."""

    reports: ReportService  # set by ``Services``: the page submits through the report service

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.listeners: list[Entered] = []

    async def open(self, token: str) -> TablePage | None:
        """The table the token names, or None (404): a malformed or wrong token, a revoked venue link, a table no
        longer drawn, a round not yet published. Raises :class:`PageClosed` once the round is closed."""
        found = LINK_SHAPE.fullmatch(token)
        if found is None:
            return None
        table_id, mac = int(found.group(1)), found.group(2)
        if table_id > 2**31 - 1:
            return None
        async with self.run(NO_SERVER) as uc:  # the token names the server: none is known before it
            row = await uc.reports.get_report_page_table(table_id=table_id)
            if row is None:
                return None
            table, rnd, t = row
            if t.venue_token is None or not hmac.compare_digest(page_mac(t.venue_token, table_id, id_of(rnd)), mac):
                return None
            if rnd.status == RoundStatus.CLOSED:
                raise PageClosed
            if rnd.status != RoundStatus.PUBLISHED:
                return None
            tuc = uc.about(t)  # the table's tournament, in its server
            guild_id = tuc.guild_id
            situation = TableSituation.from_json(table.final_situation)
            seats = await tuc.reports.list_report_seats(table_id=table_id)
            results = await tuc.reports.list_report_results(table_id=table_id)
            config = await tuc.guild.config()
            adjustments = await table_adjustments(tuc, table, seats)
            kept = await tuc.reports.get_report_draft(table_id=table_id)
            ruleset = tuc.rules
            stored = None
            if kept is not None and (kept.round_id, kept.number, kept.guild_id) == (id_of(rnd), table.number, guild_id):
                stored = (SituationDraft.from_json(kept.draft), kept.version)
            elif situation is not None and situation.kind in ENTERED:  # nothing typed here yet: the report entered
                stored = (_entered(situation, seats, ruleset), 1)
        view = await self._report_view(guild_id, table_id)  # the report as /report shows it (its own read)
        reported = situation is not None and situation.kind in ENTERED
        status = "locked" if table.locked else ("entered" if reported else "open")
        return TablePage(
            token=token,
            guild_id=guild_id,
            table_id=table_id,
            round_id=id_of(rnd),
            round_number=rnd.number,
            round_kind=rnd.kind,
            table_number=table.number,
            tournament=t.name,
            locale=config.locale if config else "it",
            game=ruleset.preset.game,
            status=status,
            report_kind=situation.kind if reported and situation is not None else None,
            signed=sum(1 for r in results if r.signed_at is not None),
            seats=tuple(PageSeat(i, id_of(reg), reg.display_name) for i, (_, reg) in enumerate(seats)),
            ruleset=ruleset,
            adjustments=adjustments,
            stamp=ReportStamp.of(view),
            players=tuple(players_of(seats)),
            thread_id=table.thread_id,
            stored=stored,
        )

    async def _report_view(self, guild_id: int, table_id: int) -> ReportView:
        return await self.reports.view(guild_id, table_id)

    async def links(self, actor: Actor, round_id: int) -> dict[int, str]:
        """The report pages' tokens of a round's tables by table number (the publication posts them in the tables'
        threads). A tournament without a venue token gets one (the same as ``/venue link`` would make)."""
        async with self.run(actor, role=STAFF) as uc:
            rows = await uc.reports.list_report_page_tables(round_id=round_id)
            out: dict[int, str] = {}
            for table, rnd, t in rows:
                token = t.venue_token
                if token is None:
                    token = await uc.venue.token_set_if_missing(tournament_id=id_of(t))
                out[table.number] = page_token(token, id_of(table), id_of(rnd))
            return out

    async def link_for_player(self, actor: Actor, table_id: int) -> tuple[int, int, str]:
        """The report page of a table the actor is seated at (a referee: any table of the server): the round's
        number, the table's and the token. Refused once the round is closed or before it is published."""
        async with self.run(actor) as uc:
            row = await uc.reports.get_report_table_in_server(table_id=table_id) if 0 < table_id < 2**31 else None
            if row is None:
                raise InvalidInput("error.report_page.no_table")
            table, rnd, t = row
            seats = await uc.reports.list_report_seats(table_id=table_id)
            if not uc.has_role(StaffRole.REFEREE) and actor.user_id not in {r.user_id for _, r in seats}:
                uc.require(StaffRole.REFEREE)
            if rnd.status != RoundStatus.PUBLISHED:
                raise InvalidInput("error.report_page.round_not_open", round=rnd.number)
            token = t.venue_token
            if token is None:
                token = await uc.venue.token_set_if_missing(tournament_id=id_of(t))
            return rnd.number, table.number, page_token(token, table_id, id_of(rnd))

    # ------------------------------------------------------------------------------------------ the draft
    async def save_drafts(self, drafts: Sequence[tuple[TablePage, SituationDraft, int]]) -> None:
        """Store the drafts the pages changed (one transaction for all of them), so a restart loses nothing."""
        if not drafts:
            return
        rows = [(p.guild_id, p.table_id, p.round_id, p.table_number, d.as_json(), v) for p, d, v in drafts]
        async with self.run(NO_SERVER) as uc:
            await uc.reports.put_report_drafts(drafts=rows, when=uc.clock())

    def preview(self, page: TablePage, draft: SituationDraft) -> Preview:
        """The draft scored as a submission would score it (CPU: the web layer runs it off the event loop)."""
        rules = page.risiko
        if rules is None:
            return Preview((), (), (), None)
        figures = seat_figures(draft, len(page.seats), rules)
        problems = draft_problems(draft, len(page.seats), rules, figures)
        if problems:
            return Preview(figures, problems, (), None)
        doc = draft_document(draft, [s.name for s in page.seats], rules)
        try:
            lines, _ = score_situation(page.ruleset, page.players, doc, None, page.adjustments)
        except ReportError as exc:
            return Preview(figures, problems, (), report_refusal(exc))
        seat_of = {s.registration_id: s.seat for s in page.seats}
        scores = tuple(
            sorted(
                (SeatScore(seat_of[x.registration_id], x.table_points, x.rank, x.tournament_points) for x in lines),
                key=lambda s: s.seat,
            )
        )
        return Preview(figures, problems, scores, None)

    async def submit(self, page: TablePage, draft: SituationDraft, kind: str) -> ReportView:
        """The draft entered as the table's report: the final situation (``kind`` "situation") or the typed values
        ("points"), through the report service, against the table as the page last read it."""
        if kind == "situation":
            rules = page.risiko
            if rules is None:
                raise InvalidInput("error.report.situation_risiko_only")
            problems = draft_problems(draft, len(page.seats), rules)
            if problems:
                raise InvalidInput("error.report_page.incomplete")
            doc = draft_document(draft, [s.name for s in page.seats], rules)
            view = await self.reports.enter_from_page(page.guild_id, page.table_id, situation=doc, seen=page.stamp)
        else:
            values = typed_values(draft, [s.registration_id for s in page.seats])
            view = await self.reports.enter_from_page(page.guild_id, page.table_id, values=values, seen=page.stamp)
        for listener in list(self.listeners):
            try:
                await listener(page, view)
            except Exception:  # the report is entered: a failed post is logged, /my-games still shows it
                log.warning("report of table %s entered by its page, not posted", page.table_id, exc_info=True)
        return view


def _entered(situation: TableSituation, seats: Sequence[tuple[Seat, Registration]], ruleset: Ruleset) -> SituationDraft:
    """The draft of the report already entered: its final situation, or its typed values (a number, ``r``, ``sq``)."""
    names = [reg.display_name for _, reg in seats]
    if situation.kind == "situation":
        rules = ruleset.risiko
        if rules is None:
            return SituationDraft()
        return draft_from_situation(situation.input.get("situation"), names, rules.board)
    seat_of = {id_of(reg): seat for seat, (_, reg) in enumerate(seats)}
    points: dict[int, str] = {}
    for entry in situation.input.get("entries") or ():
        seat = seat_of.get(int(entry.get("registration_id", 0)))
        if seat is None:
            continue
        outcome = entry.get("outcome")
        value = entry.get("value")
        if outcome == "withdrawn":
            points[seat] = "r"
        elif outcome == "disqualified":
            points[seat] = "sq"
        elif isinstance(value, int | float):
            points[seat] = str(int(value)) if float(value).is_integer() else str(value).replace(".", ",")
    return SituationDraft(points=points)
