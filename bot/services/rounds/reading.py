"""What the rounds use cases read, shared as plain functions: a round as users see it, who plays it, its history
and the planner's inputs, the standings the finals follow, a round picked by number — each inside the caller's
use case, about its tournament (nothing here commits) — and the refusals the tournament engine's errors become."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.db.documents import DrawDocument
from bot.db.models import (
    CheckInStatus,
    GameTable,
    Registration,
    RegistrationStatus,
    Round,
    RoundKind,
    RoundStatus,
    Seat,
)
from bot.errors import Conflict, InvalidInput, NotFound
from bot.rules.errors import refusal_params
from bot.rules.tournament.cut import canonical, resolve_ties
from bot.rules.tournament.model import Player, TournamentError
from bot.rules.tournament.planner import DrawRequest
from bot.services._base import UseCase, clean_text, id_of
from bot.services.rounds.knockout import knockout_refusal, knockout_view
from bot.services.rounds.views import (
    CutView,
    FinalSeatView,
    KnockoutView,
    RepechageView,
    RoundView,
    SeatView,
    TableView,
    report_view,
)
from bot.services.seasons import previous_tournament_ranking
from bot.services.standings import StandingsService

# --------------------------------------------------------------------------------------------------- helpers


def engine_error(exc: TournamentError) -> Conflict:
    """The tournament engine's refusal in the organizer's words."""
    if exc.code == "firk_sizes_impossible":
        return Conflict("error.round_firk_cannot_seat", count=exc.value)
    if exc.code in ("too_few_players_for_tables", "too_few_ranked_players"):
        value = (
            exc.value if isinstance(exc.value, int) else exc.value.get("have", 0) if isinstance(exc.value, dict) else 0
        )
        return Conflict("error.round_too_few_players", count=value)
    if exc.code == "team_larger_than_tables" and isinstance(exc.value, dict):
        counts = ", ".join(f"{team}: {n}" for team, n in sorted(exc.value["teams"].items()))
        return Conflict("error.round_team_larger_than_tables", counts=counts[:300], tables=exc.value["tables"])
    if exc.code == "player_without_team":
        return Conflict("error.round_player_without_team")
    if exc.code == "repechage_with_odd_even_halves":  # issue 47: no place for the extra seat in two halves
        return Conflict("error.round_repechage_with_halves", count=exc.value if isinstance(exc.value, int) else 0)
    if exc.code == "no_knockout_plan" and isinstance(exc.value, dict):
        return Conflict("error.knockout_no_plan", **knockout_refusal(exc.value))
    return Conflict("error.round_engine", **refusal_params(exc))


def closed_or_published(r: Round) -> bool:
    return r.status in (RoundStatus.PUBLISHED, RoundStatus.CLOSED)


def _pairs_of_groups(groups: Mapping[str, list[int]]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for members in groups.values():
        ms = sorted(members)
        out += [(a, b) for i, a in enumerate(ms) for b in ms[i + 1 :]]
    return tuple(out)


def _player_key(name: str) -> str:
    return " ".join(name.split()).lower()


def _cut_view(cut: Mapping[str, Any], name: Callable[[Any], str]) -> CutView:
    seed, rank = cut.get("seed"), cut.get("rank")
    return CutView(
        rank=None if rank is None else int(rank),
        tied=tuple(name(p) for p in cut["tied"]),
        seats=int(cut["seats"]),
        qualified=tuple(name(p) for p in cut["qualified"]),
        method=str(cut["method"]),
        seed=None if seed is None else int(seed),
        boundary=str(cut.get("boundary", "cut")),
        order=tuple(name(p) for p in cut.get("order") or cut["qualified"]),
    )


# ------------------------------------------------------------------------------------------ tables and seats


async def tables_of(uc: UseCase, round_ids: Sequence[int]) -> tuple[dict[int, list[GameTable]], dict[int, list[Seat]]]:
    """The tables of ``round_ids`` by round, and their seats by table (two queries)."""
    tables = await uc.rounds.list_tables_for_rounds(round_ids=round_ids)
    by_round: dict[int, list[GameTable]] = defaultdict(list)
    for gt in tables:
        by_round[gt.round_id].append(gt)
    seats = await uc.rounds.list_seats_for_tables(table_ids=[id_of(gt) for gt in tables])
    by_table: dict[int, list[Seat]] = defaultdict(list)
    for s in seats:
        by_table[s.table_id].append(s)
    return by_round, by_table


async def seated(uc: UseCase, r: Round) -> tuple[list[GameTable], dict[int, list[Seat]], dict[int, Registration]]:
    """A round's tables, their seats by table and the seated players by registration id."""
    by_round, by_table = await tables_of(uc, [id_of(r)])
    tables = by_round.get(id_of(r), [])
    ids = sorted({s.registration_id for seats in by_table.values() for s in seats})
    regs = await uc.rounds.registrations_by_ids(ids=ids)
    return tables, by_table, regs


def find_player(regs: Mapping[int, Registration], name: str) -> Registration:
    """The player of ``regs`` called ``name`` (case and spacing aside), or "not seated"."""
    cleaned = clean_text(name, field="player", max_len=64)
    key = _player_key(cleaned)
    for reg in regs.values():
        if _player_key(reg.display_name) == key:
            return reg
    raise InvalidInput("error.round_player_not_seated", name=cleaned)


async def pick_round(uc: UseCase, number: int | None, statuses: Sequence[RoundStatus]) -> Round:
    """Round ``number``; without one, the latest round in one of ``statuses`` (else the latest round)."""
    if number is not None:
        r = await uc.rounds.get_round(tournament_id=uc.tournament_id, number=number)
        if r is None:
            raise NotFound("error.round_not_found", number=number, tournament=uc.tournament.name)
        return r
    rounds = await uc.rounds.list_rounds(tournament_id=uc.tournament_id)
    chosen = [r for r in rounds if r.status in statuses]
    if chosen:
        return chosen[-1]
    if rounds:
        return rounds[-1]
    raise NotFound("error.round_none", tournament=uc.tournament.name)


# ------------------------------------------------------------------------------------------- the round view


def _repechage_view(rescued: Mapping[str, Any], name: Callable[[Any], str], min_games: int) -> RepechageView:
    return RepechageView(name(rescued["player"]), str(rescued.get("reason", "best_single_game")),
                         float(rescued.get("points", 0.0)), int(rescued.get("games", 0)), min_games)  # fmt: skip


async def round_view(uc: UseCase, r: Round, only: GameTable | None = None) -> RoundView:
    """A round of the use case's tournament as users see it; with ``only``, that one table (what /my-table needs:
    loading every seat and registration of a 300-player round for each of 300 simultaneous calls was too slow)."""
    t, round_id = uc.tournament, id_of(r)
    if only is not None:
        seats_of = await uc.rounds.list_seats_for_tables(table_ids=[id_of(only)])
        by_round: dict[int, list[GameTable]] = {round_id: [only]}
        by_table: dict[int, list[Seat]] = {id_of(only): list(seats_of)}
    else:
        by_round, by_table = await tables_of(uc, [round_id])
    reg_ids = sorted({s.registration_id for seats in by_table.values() for s in seats})
    doc = DrawDocument.from_json(r.draw_report)
    cut_ids = [int(p) for tie in doc.ties for p in tie.get("tied", [])]
    rescued = next((g.repechage for g in doc.groups if g.repechage), None)
    extra_ids = [*doc.declined, *doc.direct_finalists, *cut_ids, *([int(rescued["player"])] if rescued else [])]
    regs = await uc.rounds.registrations_by_ids(ids=[*reg_ids, *extra_ids])
    group_of = {number: group.label for group in doc.groups for number in group.tables}
    tables: list[TableView] = []
    for gt in by_round.get(round_id, []):
        seats = tuple(
            SeatView(
                s.registration_id,
                regs[s.registration_id].user_id,
                regs[s.registration_id].display_name,
                regs[s.registration_id].club,
                s.position,
                regs[s.registration_id].team,
            )
            for s in sorted(by_table.get(id_of(gt), []), key=lambda s: s.position)
        )
        label = group_of.get(gt.number)
        tables.append(
            TableView(
                gt.number,
                seats,
                gt.size,
                gt.thread_id,
                label if label and label != "all" else None,
                special=doc.special_tables.get(gt.number),
                note=gt.note,
                thread_requested_at=gt.thread_requested_at,
                thread_pinged=gt.thread_pinged,
            )
        )

    def name(rid: Any) -> str:
        reg = regs.get(int(rid))
        return reg.display_name if reg else str(rid)

    final_seats = tuple(
        FinalSeatView(
            name(s.player),
            s.source,
            s.semifinal_table,
            s.semifinal_place,
            s.replaces_table,
            group.label if len(doc.groups) > 1 else None,
        )
        for group in doc.groups
        for s in group.seats
    )
    directs = tuple(name(p) for p in doc.direct_finalists)
    knockout: KnockoutView | None = None
    stored = (doc.engine.extra.get("knockout") if doc.engine is not None else None) or {}
    if stored.get("plan"):  # a drawn knockout round: the plan it was drawn with
        plan = tuple((int(k["players"]), tuple(int(x) for x in k["tables"])) for k in stored["plan"])
        knockout = KnockoutView(plan[0][0], plan, final_size=int(stored.get("final_size", 0)))
    elif r.status == RoundStatus.PLANNED and r.kind == RoundKind.QUALIFYING:
        rules = uc.rules.tournament
        if rules.knockout:
            try:
                knockout = knockout_view(rules, len(await participants(uc, r)))
            except Conflict:  # the previous round's results are not all in yet
                knockout = None
    return RoundView(
        tournament_id=uc.tournament_id,
        tournament_name=t.name,
        game=t.game,
        round_id=round_id,
        number=r.number,
        kind=r.kind,
        status=r.status,
        seed=r.draw_seed,
        scheduled_start=r.scheduled_start,
        published_at=r.published_at,
        announcement_message_id=r.announcement_message_id,
        discord_event_id=r.discord_event_id,
        tables=tuple(tables),
        report=report_view(doc, r.draw_seed) if doc.engine is not None else None,
        direct_finalists=directs if r.kind == RoundKind.SEMIFINAL else (),
        repechage=_repechage_view(rescued, name, uc.rules.tournament.repechage_min_games)
        if rescued and r.kind == RoundKind.SEMIFINAL
        else None,
        final_seats=final_seats if r.kind == RoundKind.FINAL else (),
        declined=tuple(name(x) for x in doc.declined),
        unfilled=sum(g.unfilled for g in doc.groups),
        cut=_cut_view(doc.cut, name) if r.kind == RoundKind.SEMIFINAL and doc.cut else None,
        ties=tuple(_cut_view(tie, name) for tie in doc.ties),
        club_pairs=(sum(g.club_pairs for g in doc.groups), sum(g.club_pairs_plain for g in doc.groups))
        if r.kind == RoundKind.SEMIFINAL and doc.groups
        else None,
        knockout=knockout,
    )


# ------------------------------------------------------------------------------------ who plays and the draw


async def participants(uc: UseCase, round_row: Round | None) -> list[Registration]:
    """Validated players (registered ones when nobody was validated), minus forfeits of this round. In a knockout
    (NP-FMT-1) from round 2 on: the winner of each table of the previous round."""
    regs = await uc.registrations.listed(tournament_id=uc.tournament_id)
    validated = [r for r in regs if r.status == RegistrationStatus.VALIDATED]
    pool = validated or [r for r in regs if r.status == RegistrationStatus.REGISTERED]
    out: set[int] = set()
    if round_row is not None and round_row.id is not None:
        checkins = await uc.rounds.list_checkins(round_id=round_row.id)
        out = {c.registration_id for c in checkins if c.status == CheckInStatus.FORFEIT}
        pool = [r for r in pool if r.id not in out]
    if uc.rules.tournament.knockout:
        number = round_row.number if round_row is not None else None
        advancing = await knockout_advancing(uc, regs, number, out)
        if advancing is not None:
            pool = advancing
    return sorted(pool, key=id_of)


async def knockout_advancing(
    uc: UseCase,
    regs: Sequence[Registration],
    number: int | None,
    forfeits: set[int],
) -> list[Registration] | None:
    """NP-FMT-1: who goes on from the previous knockout round — each table's winner (its first place, decided by
    the preset's table tie-breaks when the report was scored). Our readings where NP is silent: a winner who has
    withdrawn, was disqualified or forfeits this round is replaced by the next of the same table; a table with
    nobody left gives its seat to the best runner-up of the other tables (the best 2nd by table points, then
    the best 3rd…, as ARB 5 recovers a final's seat), so the plan's table count holds. None before the first
    round; refused while a table has no result or a shared first. Runners-up level on place and table points across
    the last seat to fill are ordered by a lot drawn with the previous round's published seed, never by their ids."""
    rounds = [
        r for r in await uc.rounds.list_rounds(tournament_id=uc.tournament_id)
        if r.kind == RoundKind.QUALIFYING and (number is None or r.number < number)
    ]  # fmt: skip
    if not rounds:
        return None
    last = rounds[-1]
    engine = DrawDocument.from_json(last.draw_report).engine
    if engine is not None and (engine.extra.get("knockout") or {}).get("final"):
        raise Conflict("error.knockout_over", tournament=uc.tournament.name)
    by_round, by_table = await tables_of(uc, [id_of(last)])
    tables = by_round.get(id_of(last), [])
    results = await uc.rounds.list_results_for_tables(table_ids=[id_of(gt) for gt in tables])
    rank: dict[tuple[int, int], int] = {
        (res.table_id, res.registration_id): res.table_rank for res in results if res.table_rank is not None
    }
    points = {(res.table_id, res.registration_id): res.table_points or 0.0 for res in results}
    active = {RegistrationStatus.VALIDATED, RegistrationStatus.REGISTERED}
    by_id = {r.id: r for r in regs}
    advancing: list[Registration] = []
    runners_up: list[tuple[int, float, int]] = []  # (place, -table points, id) of everyone eligible not first
    empty_tables = 0
    missing: list[str] = []
    for gt in tables:
        seats = by_table.get(id_of(gt), [])
        ranked = sorted(
            (rank[(id_of(gt), s.registration_id)], s.registration_id)
            for s in seats
            if (id_of(gt), s.registration_id) in rank
        )
        if len(ranked) < len(seats):
            missing.append(f"{last.number}/{gt.number}")
            continue
        eligible = [
            (place, rid) for place, rid in ranked
            if rid in by_id and by_id[rid].status in active and rid not in forfeits
        ]  # fmt: skip
        if not eligible:
            empty_tables += 1
            continue
        if len(eligible) > 1 and eligible[0][0] == eligible[1][0]:
            raise Conflict("error.knockout_tied_winner", table=gt.number, round=last.number)
        advancing.append(by_id[eligible[0][1]])
        runners_up += [(place, -points.get((id_of(gt), rid), 0.0), rid) for place, rid in eligible[1:]]
    if missing:
        raise Conflict("error.round_results_missing", tables=", ".join(missing[:20]))
    if empty_tables:  # the best runners-up; level ones across the last seat: the previous round's published lot
        ordered = sorted(runners_up, key=lambda r: (r[0], r[1], canonical(r[2])))
        keys = [(place, points) for place, points, _ in ordered]
        ranks = [keys.index(k) + 1 for k in keys]
        lines = {empty_tables: "cut"} if empty_tables < len(ordered) else {}
        chosen, _ = resolve_ties([rid for _, _, rid in ordered], ranks, lines, seed=last.draw_seed or 0)
        advancing += [by_id[int(rid)] for rid in chosen[:empty_tables]]
    return advancing


async def history(
    uc: UseCase, rounds: Sequence[Round], before: int, large: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]:
    """Earlier qualifying rounds, the whole history (TOUR-R2-1 from round 2 on): every table (repeat
    pairs), every table's winner (TableResult rank 1) and every 5-player-table player of every earlier round;
    also how many of the last round's tables lack results."""
    earlier = [r for r in rounds if r.kind == RoundKind.QUALIFYING and r.number < before]
    if not earlier:
        return (), (), (), 0
    by_round, by_table = await tables_of(uc, [id_of(r) for r in earlier])
    previous: list[tuple[int, ...]] = []
    for r in earlier:
        for gt in by_round.get(id_of(r), []):
            previous.append(tuple(s.registration_id for s in by_table.get(id_of(gt), [])))
    every_table = [gt for r in earlier for gt in by_round.get(id_of(r), [])]
    results = await uc.rounds.list_results_for_tables(table_ids=[id_of(gt) for gt in every_table])
    winners = tuple(sorted({res.registration_id for res in results if res.table_rank == 1}))
    reported = {res.table_id for res in results if res.table_rank is not None}
    missing = sum(1 for gt in by_round.get(id_of(earlier[-1]), []) if gt.id not in reported)
    five = tuple(
        sorted(
            {
                s.registration_id
                for gt in every_table
                for s in by_table.get(id_of(gt), [])
                if len(by_table.get(id_of(gt), [])) >= large
            }
        )
    )
    return tuple(previous), winners, five, missing


async def draw_inputs(
    uc: UseCase,
    rounds: Sequence[Round],
    number: int,
    players: Sequence[Registration],
    standings: StandingsService,
) -> tuple[DrawRequest, int]:
    """The planner's request for round ``number`` (also the round's published export) and how many tables of
    the previous round still lack a result."""
    t, rules = uc.tournament, uc.rules.tournament
    previous, winners, five, missing = await history(uc, rounds, number, rules.large_table_size)
    families: dict[str, list[int]] = defaultdict(list)
    for r in players:
        if r.family_group:
            families[r.family_group.strip().lower()].append(id_of(r))
    ranking: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()
    first = rules.seeded_round1 and number == 1
    carried = await previous_tournament_ranking(uc, players, standings) if first else None
    if carried is not None:  # FIRK-SEED-1: the season's previous tournament
        ranking, ranks = carried
    elif first:  # FIRK-SEED-1: the previous tournament's ranks, as typed — players typed with one rank are level
        # (the planner's lot seats them where a table boundary cuts them); no rank typed: a newcomer, after everyone
        typed = sorted((r.previous_rank, id_of(r)) for r in players if r.previous_rank is not None)
        ranking = tuple(rid for _, rid in typed)
        ranks = tuple(rank for rank, _ in typed)
    elif (rules.seeded_round1 or rules.later_round_tables == "standings") and previous:
        # FIRK §9 last round, reading 8 (seated by rank), reading 4: the standings before this round, with
        # each line's rank so that the planner sees who is level
        view = await standings.compute_in(uc, before_round=number)
        present = {r.id for r in players}
        lines = [line for line in view.lines if line.player_id in present]
        ranking = tuple(line.player_id for line in lines)
        ranks = tuple(line.rank for line in lines)
    request = DrawRequest(
        preset=t.preset,
        round_no=number,
        players=tuple(Player(id_of(r), r.club, r.team) for r in players),
        overrides=dict(t.overrides or {}),
        names={id_of(r): r.display_name for r in players},
        previous_tables=previous,
        winners=winners,
        five_table_players=five,
        family_pairs=_pairs_of_groups(families),
        ranking=ranking,
        ranks=ranks,
    )
    return request, missing


# ---------------------------------------------------------------------------------------------- standings


async def qualifying_ranking(uc: UseCase, standings: StandingsService) -> list[int]:
    """The active players after the qualifying rounds, best first (see :func:`qualifying_ranks`)."""
    return [p for p, _ in await qualifying_ranks(uc, standings)]


async def qualifying_ranks(uc: UseCase, standings: StandingsService) -> list[tuple[int, int]]:
    """The standings after the qualifying rounds (ARB art. 5: semifinals and the final's recoveries use
    them), active players best first; refused while a published qualifying table has no result.

    The ranking itself is ``StandingsService.compute_in`` (the tournament engine's standings with
    the preset's tie-breakers over the stored TableResults of the qualifying rounds); with each player, their
    rank — players the tie-breakers leave level share it (a tie across a cut is decided by the semifinals' draw).
    """
    rounds = [
        r
        for r in await uc.rounds.list_rounds(tournament_id=uc.tournament_id)
        if r.kind == RoundKind.QUALIFYING and closed_or_published(r)
    ]
    if not rounds:
        raise Conflict("error.round_no_results", tournament=uc.tournament.name)
    by_round, _ = await tables_of(uc, [id_of(r) for r in rounds])
    tables = [gt for r in rounds for gt in by_round.get(id_of(r), [])]
    results = await uc.rounds.list_results_for_tables(table_ids=[id_of(gt) for gt in tables])
    reported = {res.table_id for res in results if res.table_rank is not None}
    missing = [f"{r.number}/{gt.number}" for r in rounds for gt in by_round.get(id_of(r), []) if gt.id not in reported]
    if missing:
        raise Conflict("error.round_results_missing", tables=", ".join(missing[:20]))
    view = await standings.compute_in(uc)
    return [(line.player_id, line.rank) for line in view.lines if line.standing == "active"]
