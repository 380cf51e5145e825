"""The final classification as the bot shows it (BOT-STD-1, TOUR-FIN-1, NP-FMT-1): the champion first.

The engine (``bot.rules.tournament.classification``) decides every place; this service gathers its inputs — the
qualifying standings, the final phase's tables with their results, the direct finalists, who was disqualified from
the tournament — and turns its answer into a view with names. ``/standings show``, the standings image and exports,
the venue page, the demo and the season read it through :func:`classification_in`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.db.documents import DrawDocument
from bot.db.models import GameTable, Registration, RegistrationStatus, Round, RoundKind, RoundStatus
from bot.rules.tournament.classification import (
    FinalClassification,
    StageSeat,
    StageTable,
    classify_finals,
    classify_knockout,
    classify_standings,
)
from bot.services._base import BaseService, UseCase, id_of
from bot.services.standings import StandingsService, StandingsView

UNPLAYED = (RoundStatus.PLANNED, RoundStatus.DRAWN)  # a round not yet published: its tables may still change


@dataclass(frozen=True, slots=True)
class ClassificationLine:
    """One player's final place (None while open), the stage that decided it and where, with the qualifying
    standings' points and rank it started from."""

    place: int | None
    player_id: int
    user_id: int | None
    name: str
    club: str | None
    team: str | None
    stage: str  # final / semifinal / qualifying / knockout
    round: int | None
    table: int | None
    table_place: int | None
    qualifying_rank: int | None
    points: float  # the qualifying standings' tournament points
    group: str | None = None  # odd / even: the half of a 100+ field whose final the player played


@dataclass(frozen=True, slots=True)
class OpenBlock:
    """Places ``first``–``last`` still to be decided among ``names`` at ``stage``."""

    first: int
    last: int
    names: tuple[str, ...]
    stage: str


@dataclass(frozen=True, slots=True)
class ClassificationView:
    tournament_id: int
    tournament_name: str
    preset: str
    game: str
    complete: bool
    lines: tuple[ClassificationLine, ...]
    open: tuple[OpenBlock, ...] = ()
    standings: StandingsView | None = None  # the qualifying standings it was built from
    format: str = "finals"  # "finals" (semifinals and a final), "knockout" or "standings" (no final phase)

    @property
    def champions(self) -> tuple[ClassificationLine, ...]:
        """The winner (two with the two parallel finals of a 100+ field), once the final phase is played."""
        return tuple(line for line in self.lines if line.place == 1) if self.complete else ()

    def line_of(self, player_id: int) -> ClassificationLine | None:
        return next((line for line in self.lines if line.player_id == player_id), None)


def _stage_tables(
    rnd: Round,
    tables: Sequence[GameTable],
    seats: dict[int, list[int]],
    results: dict[tuple[int, int], tuple[int | None, float | None]],
) -> list[StageTable]:
    doc = DrawDocument.from_json(rnd.draw_report)
    group_of = {number: group.label for group in doc.groups for number in group.tables}
    out = []
    for gt in tables:
        stage_seats = []
        for rid in seats.get(id_of(gt), []):
            place, points = results.get((id_of(gt), rid), (None, None))
            stage_seats.append(StageSeat(rid, place, points))
        out.append(StageTable(rnd.number, gt.number, tuple(stage_seats), group_of.get(gt.number, "all")))
    return out


async def _phase_tables(uc: UseCase, rounds: Sequence[Round]) -> dict[int, list[StageTable]]:
    """The tables of ``rounds`` with their seats and results, by round id (three queries)."""
    ids = [id_of(r) for r in rounds]
    if not ids:
        return {}
    tables = await uc.rounds.list_tables_for_rounds(round_ids=ids)
    table_ids = [id_of(gt) for gt in tables]
    seats: dict[int, list[int]] = defaultdict(list)
    for s in await uc.rounds.list_seats_for_tables(table_ids=table_ids):
        seats[s.table_id].append(s.registration_id)
    results = {
        (res.table_id, res.registration_id): (res.table_rank, res.table_points)
        for res in await uc.rounds.list_results_for_tables(table_ids=table_ids)
    }
    by_round: dict[int, list[GameTable]] = defaultdict(list)
    for gt in tables:
        by_round[gt.round_id].append(gt)
    return {id_of(r): _stage_tables(r, by_round.get(id_of(r), []), seats, results) for r in rounds}


async def classify(
    uc: UseCase,
    ranked: Sequence[tuple[int, int]],
    regs: dict[int, Registration],
    *,
    rounds_reported: int,
    unconfirmed: int,
) -> FinalClassification | None:
    """The engine's final classification of the use case's tournament from its qualifying standings (``ranked``:
    each player best first with their rank; ``rounds_reported`` rounds with results, ``unconfirmed`` tables not yet
    countersigned) — None while there is none to show: before the semifinals are published, before a knockout's first
    round, or, without a final phase, before the rounds foreseen are played and countersigned."""
    rules = uc.rules.tournament
    expelled = {rid for rid, r in regs.items() if r.status == RegistrationStatus.DISQUALIFIED}
    rounds = list(await uc.rounds.list_rounds(tournament_id=uc.tournament_id))
    if rules.knockout:
        played = [r for r in rounds if r.kind == RoundKind.QUALIFYING and r.status not in UNPLAYED]
        if not played:
            return None
        tables = await _phase_tables(uc, played)
        by_round = [tables.get(id_of(r), []) for r in played]
        engine = DrawDocument.from_json(played[-1].draw_report).engine
        is_final = bool(((engine.extra.get("knockout") if engine is not None else None) or {}).get("final"))
        final_played = is_final and bool(by_round[-1]) and all(tb.played for tb in by_round[-1])
        return classify_knockout(by_round, players=list(regs), final_played=final_played, expelled=expelled,
                                 knockout_places=rules.knockout_places)  # fmt: skip
    if rules.semifinal_tables:
        semi = next((r for r in rounds if r.kind == RoundKind.SEMIFINAL), None)
        if semi is None or semi.status in UNPLAYED:
            return None
        final = next((r for r in rounds if r.kind == RoundKind.FINAL), None)
        if final is not None and final.status in UNPLAYED:
            final = None  # a final drawn but not published may still change: its players are not yet finalists
        tables = await _phase_tables(uc, [r for r in (semi, final) if r is not None])
        return classify_finals(
            ranked,
            semifinals=tables.get(id_of(semi), []),
            finals=tables.get(id_of(final), []) if final is not None else None,
            direct_finalists=DrawDocument.from_json(semi.draw_report).direct_finalists,
            expelled=expelled,
            semifinal_places=rules.semifinal_places,
        )
    if rules.qualifying_rounds and rounds_reported >= rules.qualifying_rounds and not unconfirmed:
        qualifying = [r for r in rounds if r.kind == RoundKind.QUALIFYING and r.status != RoundStatus.PLANNED]
        tables = await _phase_tables(uc, qualifying)
        if all(tb.played for tbs in tables.values() for tb in tbs):
            return classify_standings(ranked, complete=True)
    return None


async def classification_in(
    uc: UseCase, standings: StandingsService, view: StandingsView | None = None
) -> ClassificationView | None:
    """The final classification of the use case's tournament inside its transaction, with names (None while there
    is none)."""
    t = uc.tournament
    view = view or await standings.compute_in(uc)
    regs = {id_of(r): r for r in await uc.registrations.listed(tournament_id=uc.tournament_id)}
    ranked = [(line.player_id, line.rank) for line in view.lines]
    found = await classify(uc, ranked, regs, rounds_reported=view.rounds, unconfirmed=view.unconfirmed_tables)
    if found is None:
        return None
    points = {line.player_id: line.points for line in view.lines}

    def name(pid: int) -> str:
        reg = regs.get(pid)
        return reg.display_name if reg is not None else str(pid)

    lines = []
    for row in found.rows:
        pid = int(row.player)
        reg = regs.get(pid)
        lines.append(
            ClassificationLine(
                place=row.place, player_id=pid, user_id=reg.user_id if reg else None, name=name(pid),
                club=reg.club if reg else None, team=reg.team if reg else None, stage=row.stage.value,
                round=row.round, table=row.table, table_place=row.table_place, qualifying_rank=row.qualifying_rank,
                points=points.get(pid, 0.0), group=row.group,
            )
        )  # fmt: skip
    blocks = tuple(
        OpenBlock(b.first, b.last, tuple(name(int(p)) for p in b.players), b.stage.value) for b in found.open
    )
    rules = uc.rules.tournament
    kind = "knockout" if rules.knockout else "finals" if rules.semifinal_tables else "standings"
    return ClassificationView(
        uc.tournament_id, t.name, t.preset, t.game, found.complete, tuple(lines), blocks, view, kind
    )


class ClassificationService(BaseService):
    standings: StandingsService  # set by Services: the tournament's standings as /standings reads them

    async def show(self, guild_id: int, tournament_name: str) -> ClassificationView | None:
        """The final classification of a tournament (None while there is none to show)."""
        async with self.run(guild_id, tournament=tournament_name) as uc:
            return await classification_in(uc, self.standings)
