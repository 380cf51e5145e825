"""Semifinals and the final with the replacement chain (TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.db.documents import DrawDocument, FinalsGroup
from bot.db.models import Registration, RegistrationStatus, Round, RoundKind, RoundStatus
from bot.errors import Conflict, InvalidInput
from bot.rules.tournament.config import MAX_DIRECT_FINALISTS
from bot.rules.tournament.model import PlayerId, TournamentError
from bot.rules.tournament.planner import (
    FinalsRequest,
    plan_final,
    plan_semifinals,
    semifinal_tables_after_direct_decline,
)
from bot.rules.tournament.standings import best_single_games
from bot.services._base import UseCase, id_of
from bot.services.access import Actor, StaffRole
from bot.services.rounds.reading import (
    closed_or_published,
    engine_error,
    find_player,
    qualifying_ranking,
    qualifying_ranks,
    round_view,
    seated,
    tables_of,
)
from bot.services.rounds.seeded import SeededRoundsService
from bot.services.rounds.views import DeclineView, RoundView


class RoundFinals(SeededRoundsService):
    """The semifinals and the final: seeded from the qualifying standings, composed from the semifinal results,
    recomposed on a decline."""

    # ------------------------------------------------------------------------------------ semifinals/final

    async def seed_semifinals(
        self, actor: Actor, *, tournament: str, tables: int | None = None, tie_order: Sequence[str] = ()
    ) -> RoundView:
        """Semifinal tables from the qualifying standings in bands (TOUR-SF-1), odd/even at 100+ (TOUR-SF-2). Players
        the standings leave level across the cut are ordered by ``tie_order`` (their names, best first: the
        organizer's choice) or else by the preset's reading (a lot seeded with the round's seed)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            return await self._seed_semifinals(uc, tables, tie_order)

    async def _seed_semifinals(self, uc: UseCase, tables: int | None, tie_order: Sequence[str] = ()) -> RoundView:
        t = uc.tournament
        rules = uc.rules.tournament
        count = tables or rules.semifinal_tables
        if count == 0:
            raise Conflict("error.round_no_semifinals", preset=t.preset)
        fewest = 4 - MAX_DIRECT_FINALISTS if rules.final_size == 4 else 3
        if not fewest <= count <= 4 or rules.direct_for(count) > MAX_DIRECT_FINALISTS:
            raise InvalidInput("error.out_of_range", field="tables", min=fewest, max=4, value=count)
        rounds = list(await uc.rounds.list_rounds(tournament_id=uc.tournament_id))
        if any(r.kind == RoundKind.FINAL for r in rounds):
            raise Conflict("error.round_final_exists", tournament=t.name)
        semi = next((r for r in rounds if r.kind == RoundKind.SEMIFINAL), None)
        if semi is not None and semi.status != RoundStatus.DRAWN:
            raise Conflict("error.round_already_published", number=semi.number)
        pending = [r for r in rounds if r.kind == RoundKind.QUALIFYING and not closed_or_published(r)]
        if pending:
            raise Conflict("error.round_previous_not_published", number=pending[0].number)
        declined = list(DrawDocument.from_json(semi.draw_report).declined) if semi else []
        ranked = await qualifying_ranks(uc, self._standings)
        field = [p for p, _ in ranked]
        regs = await uc.rounds.registrations_by_ids(ids=field)
        clubs: dict[PlayerId, str | None] = {i: regs[i].club for i in field}
        order = tuple(id_of(find_player(regs, n)) for n in tie_order)
        seed = self._seed_source()
        rescue: tuple[tuple[int, float, int], ...] = ()
        if rules.repechage != "none":  # each ranked player's best single game and games played (issue 47)
            found = await self._standings.engine(uc)
            ranked_ids = set(field)
            rescue = tuple((int(p), best, n) for p, best, n in best_single_games(found.results) if p in ranked_ids)
        request = FinalsRequest("semifinal", t.preset, dict(t.overrides or {}), tuple(field), clubs, count,
                                declined=tuple(declined), ranks=tuple(r for _, r in ranked),
                                tie_order=order, repechage=rescue)  # fmt: skip
        try:
            planned_tables, groups, ties = await self._workers.in_transaction(plan_semifinals, request, seed)
        except TournamentError as exc:
            raise _cut_refusal(exc, regs) or engine_error(exc) from None
        ranking = [p for p in field if p not in declined]
        for tie in ties:  # the order that decided each tie is the ranking the semifinals were seeded from
            ranking = _with_cut(ranking, tie.tied, tie.order)
        cut = next((tie for tie in ties if tie.boundary == "cut"), None)
        all_tables = [tuple(int(p) for p in x) for x in planned_tables]
        semi = await _set_up(uc, semi, RoundKind.SEMIFINAL, rounds, all_tables)
        semi.draw_seed = seed
        semi.status = RoundStatus.DRAWN
        semi.draw_report = DrawDocument(
            kind="semifinal",
            seed=seed,
            semifinal_tables=count,
            ranking=tuple(ranking),
            groups=tuple(FinalsGroup.from_json(g) for g in groups),
            declined=tuple(declined),
            request=request.to_json(),  # the export: steward draw --seed reproduces these tables
            ties=tuple(tie.to_json() for tie in ties),
        ).to_json()
        await uc.flush()
        await uc.audit("round.semifinals", "round", semi.id, tournament=t.name, number=semi.number, seed=seed,
                       tables=count, groups=len(groups), cut=cut.to_json() if cut is not None else None,
                       ties=len(ties))  # fmt: skip
        return await round_view(uc, semi)

    async def compose_final(self, actor: Actor, *, tournament: str, tie_order: Sequence[str] = ()) -> RoundView:
        """The final from the semifinal results, with the replacement chain for declines (TOUR-FIN-1). Players the
        chain must choose between who are level in the standings after the qualifying rounds are ordered by
        ``tie_order`` (their names, best first) or else by the preset's reading (a lot with the semifinals' seed)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            return await self._compose_final(uc, add_declined=None, tie_order=tie_order)

    async def decline(self, actor: Actor, *, tournament: str, player: str) -> DeclineView:
        """A finalist declines (TOUR-FIN-1) at any moment before the final is played.

        Before the semifinals are published, a direct finalist who declines is dropped from the ranking and four
        semifinals are seeded instead (ARB art. 5). After they are published the decline is recorded; once every
        semifinal result is in, the final is (re)composed with the replacement chain — a declining direct finalist
        gives the seat to the best 2nd of the semifinals. A decline after the final was published recomposes it and
        marks it for re-publication (a new announcement and thread; the cog tells the player who declined).
        """
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament, lock=True) as uc:  # one at a time
            t = uc.tournament
            rounds = list(await uc.rounds.list_rounds(tournament_id=uc.tournament_id))
            semi = next((r for r in rounds if r.kind == RoundKind.SEMIFINAL), None)
            final = next((r for r in rounds if r.kind == RoundKind.FINAL), None)
            if semi is None:
                raise Conflict("error.round_no_semifinal_round", tournament=t.name)
            _, _, regs = await seated(uc, semi)
            doc = DrawDocument.from_json(semi.draw_report)
            directs = list(doc.direct_finalists)
            regs.update(await uc.rounds.registrations_by_ids(ids=directs))
            reg = find_player(regs, player)
            reg_id = id_of(reg)
            if final is None and semi.status == RoundStatus.DRAWN and reg_id in directs:
                semi.draw_report = replace(doc, declined=(*doc.declined, reg_id)).to_json()
                await uc.flush()
                await uc.audit("round.decline", "round", semi.id, tournament=t.name, player=reg_id,
                               before_semifinals=True)  # fmt: skip
                field = len(await qualifying_ranking(uc, self._standings))
                tables = semifinal_tables_after_direct_decline(uc.rules.tournament, field, doc.semifinal_tables or 4)
                view = await self._seed_semifinals(uc, tables)
                return DeclineView(view, reg.display_name, reg.user_id, republish=False)
            if final is None:
                if semi.status == RoundStatus.DRAWN:
                    raise Conflict("error.round_previous_not_published", number=semi.number)
                if reg_id in doc.declined:
                    raise Conflict("error.round_already_declined")
                semi.draw_report = replace(doc, declined=(*doc.declined, reg_id)).to_json()
                await uc.flush()
                await uc.audit("round.decline", "round", semi.id, tournament=t.name, player=reg_id, before_final=True)
                try:
                    view = await self._compose_final(uc, add_declined=None)
                except Conflict as exc:
                    if exc.key != "error.round_results_missing":
                        raise
                    view = await round_view(uc, semi)  # recorded: the final is composed with it later
                return DeclineView(view, reg.display_name, reg.user_id, republish=False)
            published = final.status == RoundStatus.PUBLISHED
            old_tables = await uc.rounds.list_tables(round_id=id_of(final))
            view = await self._compose_final(uc, add_declined=reg_id)
            old_threads = tuple(gt.thread_id for gt in old_tables if gt.thread_id is not None) if published else ()
            return DeclineView(view, reg.display_name, reg.user_id, republish=published,
                               superseded_threads=old_threads)  # fmt: skip

    async def _compose_final(
        self, uc: UseCase, *, add_declined: int | None, tie_order: Sequence[str] | None = None
    ) -> RoundView:
        t = uc.tournament
        rules = uc.rules.tournament
        rounds = list(await uc.rounds.list_rounds(tournament_id=uc.tournament_id))
        semi = next((r for r in rounds if r.kind == RoundKind.SEMIFINAL), None)
        final = next((r for r in rounds if r.kind == RoundKind.FINAL), None)
        if semi is None:
            raise Conflict("error.round_no_semifinal_round", tournament=t.name)
        if not closed_or_published(semi):
            raise Conflict("error.round_previous_not_published", number=semi.number)
        republish = False
        if final is not None and final.status != RoundStatus.DRAWN:
            # TOUR-FIN-1 at every moment: a published final not yet played is recomposed on a decline
            played = await _final_played(uc, final)
            if add_declined is None or final.status != RoundStatus.PUBLISHED or played:
                raise Conflict(
                    "error.round_final_played" if played else "error.round_already_published", number=final.number
                )
            republish = True
        if final is None and add_declined is not None:
            raise Conflict("error.round_no_final", tournament=t.name)
        by_round, by_table = await tables_of(uc, [id_of(semi)])
        semi_tables = by_round.get(id_of(semi), [])
        results = await uc.rounds.list_results_for_tables(table_ids=[id_of(gt) for gt in semi_tables])
        table_ranks: dict[int, dict[int, int]] = defaultdict(dict)
        for res in results:
            if res.table_rank is not None:
                table_ranks[res.table_id][res.registration_id] = res.table_rank
        missing = [
            str(gt.number)
            for gt in semi_tables
            if len(table_ranks.get(id_of(gt), {})) < len(by_table.get(id_of(gt), []))
        ]
        if missing:
            raise Conflict("error.round_results_missing", tables=", ".join(missing))
        orders: dict[int, list[int]] = {}
        places: dict[int, list[int]] = {}
        for gt in semi_tables:  # each table's places; players sharing one are ordered by the engine, not the seats
            r_of = table_ranks[id_of(gt)]
            at_table = sorted((r_of[s.registration_id], s.registration_id) for s in by_table.get(id_of(gt), []))
            orders[gt.number], places[gt.number] = [p for _, p in at_table], [place for place, _ in at_table]
        semi_doc = DrawDocument.from_json(semi.draw_report)
        declined = list(DrawDocument.from_json(final.draw_report).declined) if final else []
        declined += [p for p in semi_doc.declined if p not in declined]  # declines recorded before the final
        if add_declined is not None:
            semi_players = {p for o in orders.values() for p in o} | set(semi_doc.direct_finalists)
            if add_declined not in semi_players:
                raise InvalidInput("error.round_not_finalist")
            if add_declined in declined:
                raise Conflict("error.round_already_declined")
            declined.append(add_declined)
        # a finalist disqualified on the referee's desk (BOT-SAN-2) is replaced by the chain, like a decline
        everyone = sorted({p for o in orders.values() for p in o} | set(semi_doc.direct_finalists))
        regs = await uc.rounds.registrations_by_ids(ids=everyone)
        declined += [p for p in everyone if regs[p].status == RegistrationStatus.DISQUALIFIED and p not in declined]
        ranked = await qualifying_ranks(uc, self._standings)
        standings = [p for p, _ in ranked]
        if tie_order is None:  # a recomposition after a decline keeps the organizer's earlier order of level players
            previous = DrawDocument.from_json(final.draw_report).request if final is not None else None
            kept = tuple((previous or {}).get("tie_order") or ())
        else:
            kept = tuple(id_of(find_player(regs, n)) for n in tie_order)

        def request_with(order: tuple[int, ...]) -> FinalsRequest:
            return FinalsRequest(
                "final",
                t.preset,
                dict(t.overrides or {}),
                ranking=tuple(standings),
                groups=tuple(
                    {
                        "label": group.label,
                        "tables": list(group.tables),
                        "orders": [orders[n] for n in group.tables],
                        "places": [places[n] for n in group.tables],
                        "direct_finalist": group.direct_finalist,
                        **({"direct_finalists": list(group.direct_finalists)} if group.more_direct else {}),
                    }
                    for group in semi_doc.groups or (FinalsGroup("all", tuple(sorted(orders))),)
                ),
                declined=tuple(declined),
                ranks=tuple(r for _, r in ranked),
                tie_order=order,
                seed=semi.draw_seed,
            )

        request = request_with(kept)
        try:
            planned_final, groups, ties = plan_final(request)
        except TournamentError as exc:
            if tie_order is not None or exc.code != "cut_tie_order_without_tie":
                raise _cut_refusal(exc, regs) or engine_error(exc) from None
            request = request_with(())  # the earlier order no longer names a tie: the reading decides
            try:
                planned_final, groups, ties = plan_final(request)
            except TournamentError as again:
                raise _cut_refusal(again, regs) or engine_error(again) from None
        final_tables = [tuple(int(p) for p in x) for x in planned_final]
        risiko = uc.rules.risiko
        fewest = risiko.min_players if risiko is not None else rules.min_table_size
        short = next((x for x in final_tables if len(x) < fewest), None)
        if short is not None:  # the chain is exhausted: a final nobody can play is refused, nothing is recorded
            raise Conflict("error.round_final_too_few", count=len(short), minimum=fewest)
        final = await _set_up(uc, final, RoundKind.FINAL, rounds, final_tables)
        if republish:  # the new final table is announced again, with its own thread (the cog re-publishes)
            final.announcement_message_id = None
        else:
            final.status = RoundStatus.DRAWN
        final.draw_report = DrawDocument(
            kind="final",
            seed=semi.draw_seed,
            groups=tuple(FinalsGroup.from_json(g) for g in groups),
            declined=tuple(declined),
            standings_after_qualifying=tuple(standings),
            request=request.to_json(),
            ties=tuple(tie.to_json() for tie in ties),
        ).to_json()
        await uc.flush()
        await uc.audit("round.decline" if add_declined is not None else "round.final", "round", final.id,
                       tournament=t.name, number=final.number, declined=declined, player=add_declined,
                       republish=republish)  # fmt: skip
        return await round_view(uc, final)

    async def ranking(self, guild_id: int, *, tournament: str) -> list[int]:
        """Registration ids of the active players, best first, by the standings after the qualifying rounds."""
        async with self.run(guild_id, tournament=tournament) as uc:
            return await qualifying_ranking(uc, self._standings)


async def _set_up(
    uc: UseCase, found: Round | None, kind: RoundKind, rounds: Sequence[Round], tables: Sequence[Sequence[int]]
) -> Round:
    """The semifinals' or the final's round with these tables (the one set-up of both): a new round after the last
    one when there is none yet, else the round found with its earlier tables replaced."""
    if found is None:
        number = max((r.number for r in rounds), default=0) + 1
        found = await uc.insert(Round(guild_id=uc.tournament.guild_id, tournament_id=uc.tournament_id, number=number,
                                      kind=kind, created_at=uc.clock()))  # fmt: skip
    else:
        await uc.rounds.delete_round_tables(round_id=id_of(found))
    await uc.rounds.add_tables(round_id=id_of(found), tables=tables)
    return found


async def _final_played(uc: UseCase, final: Round) -> bool:
    """Whether any result of the final is in (then a decline can no longer change it). The final's tables are
    locked first, in id order, as a report write locks its table: a report being written finishes and is seen
    here, and none starts on a table this recomposition may delete (issue 40, finding 3)."""
    tables = await uc.rounds.list_tables(round_id=id_of(final))
    for table_id in sorted(id_of(gt) for gt in tables):
        await uc.reports.lock_report_table(table_id=table_id)
    results = await uc.rounds.list_results_for_tables(table_ids=[id_of(gt) for gt in tables])
    return any(res.table_rank is not None for res in results) or any(gt.locked for gt in tables)


def _with_cut(ranking: list[int], tied: Sequence[PlayerId], decided: Sequence[PlayerId]) -> list[int]:
    """The ranking with the level group at the cut in the decided order (the qualified first, then the others)."""
    group = [int(p) for p in decided] + [int(p) for p in tied if p not in decided]
    members = set(group)
    first = next(i for i, p in enumerate(ranking) if p in members)
    rest = [p for p in ranking if p not in members]
    return [*rest[:first], *group, *rest[first:]]


def _cut_refusal(exc: TournamentError, regs: Mapping[int, Registration]) -> Conflict | InvalidInput | None:
    """A tie order that does not fit the tie at the cut, in the organizer's words (the players by name)."""
    value = exc.value if isinstance(exc.value, dict) else {}

    def names(ids: object) -> str:
        found = [regs[int(p)].display_name if int(p) in regs else str(p) for p in ids or ()]  # type: ignore[attr-defined]
        return ", ".join(found)[:300]

    if exc.code == "cut_tie_needs_order":
        groups = value.get("groups") or [value]
        listed = "; ".join(f"{names(g.get('tied'))} ({g.get('rank')})" for g in groups)
        return Conflict("error.tournament.cut_tie_needs_order", names=listed[:1000])
    if exc.code == "cut_tie_order_must_name_the_tied":
        return InvalidInput("error.tournament.cut_tie_order_mismatch", names=names(value.get("tied")))
    if exc.code == "cut_tie_order_without_tie":
        return InvalidInput("error.tournament.cut_tie_order_without_tie", names=names(exc.value))
    return None
