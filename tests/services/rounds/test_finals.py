"""Semifinals and the final on a real database (bot/services/rounds/finals.py): the bands, odd and even
semifinals, the direct finalist, the replacement chain and declines, ties across the cut (TOUR-SF-1, TOUR-SF-2,
TOUR-FIN-1, ARB 5, issue 40)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.db.models import (
    AuditLog,
    GameTable,
    Round,
    Seat,
    TableResult,
    Tournament,
)
from bot.errors import Conflict, InvalidInput, NotFound
from bot.present.bracket import bracket_table
from bot.services import Services
from bot.services.access import Actor
from bot.services.reports import ReportStamp, TableRef
from tests.support import reports_fixtures as FX
from tests.support.rounds import (
    GUILD,
    ORGANIZER,
    PLAYER,
    REF_ROLE,
    count,
    play_two_rounds,
    ranking,
    report_all,
    semis_played,
    setup_tournament,
    steward_draw,
)


async def qualifying_ranks_of(services: Services) -> list[tuple[int, int]]:
    """Each active player with their qualifying rank (players the tie-breakers leave level share it)."""
    from bot.services.rounds.reading import qualifying_ranks

    async with services.standings.run(GUILD, tournament="Coppa") as uc:
        return await qualifying_ranks(uc, services.standings)


async def test_tour_sf_1_four_semifinals_take_one_player_from_each_band(services: Services):
    await setup_tournament(services, 24)
    await play_two_rounds(services)
    ranked = await ranking(services)
    view = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa")
    assert view.kind == "semifinal" and view.number == 3 and len(view.tables) == 4
    ranked = await as_seeded(services, ranked, view)  # players level across the cut: the round's lot decided
    bands = [set(ranked[k * 4 : (k + 1) * 4]) for k in range(4)]
    for table in view.tables:
        ids = [s.registration_id for s in table.seats]
        assert len(ids) == 4
        assert [sum(1 for p in ids if p in band) for band in bands] == [1, 1, 1, 1]
    assert view.direct_finalists == ()
    after, before = view.club_pairs
    assert after <= before  # club separation may only redistribute within the bands, never worsen


async def test_tour_sf_1_three_semifinals_send_rank_one_straight_to_the_final(services: Services):
    await setup_tournament(services, 20)
    await play_two_rounds(services)
    ranked = await ranking(services)
    view = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    assert len(view.tables) == 3
    net = await as_seeded(services, ranked[1:], view)  # players level across the cut: the round's lot decided
    seated = {s.registration_id for t in view.tables for s in t.seats}
    assert ranked[0] not in seated and seated == set(net[:12])
    names = await services.registrations.list_players(GUILD, tournament="Coppa")
    first = next(p.display_name for p in names.players if p.id == ranked[0])
    assert view.direct_finalists == (first,)


async def as_seeded(services: Services, ranked: list[int], view: Any) -> list[int]:
    """The ranking the semifinals were seeded from: the standings, with every group of level players a line cut
    through (the cut, the direct seat, a band's edge, the halves) in the order that decided it (the round's lot or
    the organizer's order: ``view.ties``), never the list's own order."""
    if not view.ties:
        return ranked
    regs = (await services.registrations.list_players(GUILD, tournament="Coppa")).players
    by_name = {p.display_name: p.id for p in regs}
    out = list(ranked)
    for tie in view.ties:
        tied = {by_name[n] for n in tie.tied}
        group = [by_name[n] for n in tie.order]
        start = next(i for i, p in enumerate(out) if p in tied)
        rest = [p for p in out if p not in tied]
        out = [*rest[:start], *group, *rest[start:]]
    return out


async def test_tour_sf_2_a_hundred_players_split_into_odd_and_even_semifinals(services: Services):
    await setup_tournament(services, 100)
    await play_two_rounds(services)
    ranked = await ranking(services)
    view = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa")
    ranked = await as_seeded(services, ranked, view)
    assert len(view.tables) == 8
    odd = {p for t in view.tables if t.group == "odd" for p in (s.registration_id for s in t.seats)}
    even = {p for t in view.tables if t.group == "even" for p in (s.registration_id for s in t.seats)}
    assert odd == set(ranked[0:32:2]) and even == set(ranked[1:32:2])


async def test_bad_input_semifinals_before_results_are_in_are_refused(services: Services):
    await setup_tournament(services, 16)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    with pytest.raises(Conflict) as err:
        await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.round_results_missing"
    assert await count(services, Round) == 1


async def test_tour_fin_1_the_final_gathers_the_semifinal_winners(services: Services):
    _, orders = await semis_played(services)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    assert final.kind == "final" and len(final.tables) == 1
    assert [s.registration_id for s in final.tables[0].seats] == [orders[n][0] for n in sorted(orders)]
    assert {s.source for s in final.final_seats} == {"semifinal_winner"}


async def test_tour_fin_1_replacement_chain_same_table_then_best_second_elsewhere(services: Services):
    semi, orders = await semis_played(services)
    await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    # the winner of semifinal 1 declines: the 2nd of that table takes the seat
    view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[orders[1][0]])).round
    seat1 = view.final_seats[0]
    assert (seat1.name, seat1.source, seat1.semifinal_place) == (names[orders[1][1]], "same_table_replacement", 2)
    # the rest of table 1 declines too: the best 2nd of the other tables by the qualifying standings
    for rid in orders[1][1:]:
        view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[rid])).round
    ranks = dict(await qualifying_ranks_of(services))
    seconds = [orders[n][1] for n in (2, 3, 4)]
    best = min(ranks[p] for p in seconds)  # seconds level in the standings share a rank: the semifinals' lot decides
    recovered = next(s for s in view.final_seats if s.source == "other_table_recovery")
    assert recovered.name in {names[p] for p in seconds if ranks[p] == best} and recovered.replaces_table == 1
    assert len(view.declined) == 4 and len(view.tables[0].seats) == 4
    async with services.sessionmaker() as session:
        n = (await session.execute(select(func.count()).where(AuditLog.action == "round.decline"))).scalar_one()
    assert n == 4


async def test_tour_fin_1_when_the_chain_runs_out_a_final_below_the_game_s_minimum_is_refused(services: Services):
    """TOUR-FIN-1 at its end: declines are taken while the chain can fill the final; the decline that would leave
    the final with fewer players than a RisiKo! game needs (3) is refused and nothing of it is recorded."""
    semi, orders = await semis_played(services, n=16)
    await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    chain = [p for n in sorted(orders) for p in orders[n]]  # every semifinalist, table by table
    refused = None
    for player in chain:
        try:
            view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[player])).round
        except Conflict as exc:
            refused = (player, exc)
            break
        assert len(view.tables[0].seats) >= 3
    assert refused is not None and refused[1].key == "error.round_final_too_few"
    assert refused[1].params == {"count": 2, "minimum": 3}
    shown = await services.rounds.show(ORGANIZER, tournament="Coppa")
    assert len(shown.tables[0].seats) == 3 and names[refused[0]] not in shown.declined


async def test_tour_sf_1_tour_fin_1_semifinals_and_the_final_are_reproduced_by_steward_draw(
    services: Services, capsys, tmp_path
):
    """Issue 10: the semifinal round's export + seed and the final's export (with a decline) through `steward draw`
    give the bot's tables — the same planner functions on the same document."""
    semi, _ = await semis_played(services)
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=semi.number)
    cli = steward_draw(doc, semi.seed, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in semi.tables]
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    winner = final.tables[0].seats[0]
    final = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=winner.name)).round
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=final.number)
    cli = steward_draw(doc, 0, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in final.tables]
    assert winner.registration_id not in cli["tables"][0]


async def test_tour_fin_1_three_semifinals_final_has_the_direct_finalist(services: Services):
    await semis_played(services, n=20, tables=3)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    sources = [s.source for s in final.final_seats]
    assert sources.count("direct_finalist") == 1 and sources.count("semifinal_winner") == 3


async def test_tour_fin_1_a_direct_finalist_declining_before_the_semifinals_gives_four_semifinals(services: Services):
    await setup_tournament(services, 20)
    await play_two_rounds(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=semi.direct_finalists[0])).round
    assert len(view.tables) == 4 and view.direct_finalists == () and view.declined == semi.direct_finalists


async def test_tour_fin_1_a_winner_declining_after_the_final_is_published_is_replaced_and_the_final_re_announced(
    services: Services,
):
    """TOUR-FIN-1 at every moment: the final is published, then a winner declines — the chain replaces them (2nd of
    the same semifinal), the round stays published but loses its announcement and threads (the new table is
    announced again), and once a result of the final is in, a decline is refused and changes nothing."""
    semi, orders = await semis_played(services)
    await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    job = await services.rounds.publish(ORGANIZER, tournament="Coppa")
    await services.rounds.record_publication(ORGANIZER, round_id=job.round.round_id, announcement_message_id=555,
                                             thread_ids={1: 777})  # fmt: skip
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    outcome = await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[orders[2][0]])
    assert outcome.republish and outcome.player == names[orders[2][0]] and outcome.player_user_id is not None
    final = outcome.round
    assert final.status == "published" and final.announcement_message_id is None
    assert final.tables[0].thread_id is None  # a new thread for the new table
    seated = [s.registration_id for s in final.tables[0].seats]
    assert orders[2][0] not in seated and orders[2][1] in seated
    await report_all(services, final.number)
    with pytest.raises(Conflict) as err:
        await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[orders[3][0]])
    assert err.value.key == "error.round_final_played"
    after = await services.rounds.show(ORGANIZER, tournament="Coppa")
    assert [s.registration_id for s in after.tables[0].seats] == seated


async def test_tour_fin_1_a_final_recomposed_after_a_published_decline_is_reproduced_and_its_winner_is_champion(
    services: Services, capsys, tmp_path
):
    """TOUR-FIN-1 after publication: the winner of semifinal 1 declines once the final is published; the recomposed
    final's export through `steward draw` gives the re-published table (the 2nd of semifinal 1 in place of the
    declined winner). The final is then played and reported by a referee: the declined player's points are refused
    (not at this table), and the final's rank 1 — the champion the announcement and the bracket name — is the
    replacement who won it, never the player who declined."""
    semi, orders = await semis_played(services)
    await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    declined, replacement = orders[1][0], orders[1][1]
    outcome = await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[declined])
    assert outcome.republish and outcome.round.status == "published"
    final = outcome.round
    seated = [s.registration_id for s in final.tables[0].seats]
    assert declined not in seated and replacement in seated
    assert seated == [replacement] + [orders[n][0] for n in (2, 3, 4)]
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=final.number)
    cli = steward_draw(doc, 0, capsys, tmp_path)
    assert cli["tables"] == [seated]
    # the final is played: the replacement wins it
    referee = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
    ref = TableRef("Coppa", 1, final.number)
    points = {rid: str(60 - 10 * k) for k, rid in enumerate(seated)}
    with pytest.raises(InvalidInput) as err:
        await services.reports.enter_points(referee, ref, {**points, declined: "99"})
    assert err.value.key == "error.report.not_at_this_table"
    await services.reports.enter_points(referee, ref, points)
    result = await services.reports.lookup(PLAYER, ref)
    assert result.round_number == final.number and result.reported
    champion = result.ranking[0]
    assert (champion.registration_id, champion.rank) == (replacement, 1)
    assert declined not in {s.registration_id for s in result.seats}
    shown = await services.rounds.show(PLAYER, tournament="Coppa", number=final.number)
    bracket = bracket_table(shown, 0, result, {})
    assert bracket.winner is not None and bracket.players[bracket.winner].name == names[replacement]
    with pytest.raises(Conflict) as late:  # once played, a decline changes nothing
        await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[replacement])
    assert late.value.key == "error.round_final_played"


async def test_tour_fin_1_a_direct_finalist_declining_after_the_semifinals_gives_the_seat_to_the_best_second(
    services: Services,
):
    """TOUR-FIN-1 / ARB 5: the direct finalist declines once the semifinals are published (before the final is
    composed): the decline is recorded, and the final gives that seat to the best 2nd of the semifinals by the
    qualifying standings."""
    await setup_tournament(services, 20)
    await play_two_rounds(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    direct = semi.direct_finalists[0]
    recorded = await services.rounds.decline(ORGANIZER, tournament="Coppa", player=direct)
    assert recorded.round.kind == "semifinal" and recorded.round.declined == (direct,) and not recorded.republish
    await report_all(services, semi.number)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    orders = {t.number: [s.registration_id for s in t.seats] for t in semi.tables}  # report_all: seat order
    rank = {line.player_id: line.rank for line in (await services.standings.compute(GUILD, "Coppa")).lines}
    seconds = [orders[n][1] for n in orders]
    best = min(rank[p] for p in seconds)
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    level = {names[p] for p in seconds if rank[p] == best}  # the best 2nds by the standings: level ones by the lot
    replacement = next(s for s in final.final_seats if s.source == "direct_finalist_replacement")
    assert replacement.name in level and final.declined == (direct,)
    chain = [tie for tie in final.ties if tie.boundary == "chain"]
    assert (len(chain) == 1 and set(chain[0].tied) == level) if len(level) > 1 else not chain
    assert direct not in [s.name for s in final.tables[0].seats]


async def test_bad_input_declining_a_player_not_in_the_semifinals(services: Services):
    await semis_played(services)
    before = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    last = (await ranking(services))[-1]  # ranked 24th: not a semifinalist
    players = await services.registrations.list_players(GUILD, tournament="Coppa")
    name = next(p.display_name for p in players.players if p.id == last)
    with pytest.raises(InvalidInput) as err:
        await services.rounds.decline(ORGANIZER, tournament="Coppa", player=name)
    assert err.value.key == "error.round_player_not_seated" and err.value.params["name"] == name
    after = await services.rounds.show(ORGANIZER, tournament="Coppa")
    assert after.tables == before.tables and after.declined == ()


async def test_tour_sf_2_tour_fin_1_odd_and_even_trios_give_two_finals_joined_by_ranks_one_and_two(services: Services):
    await setup_tournament(services, 100)
    await play_two_rounds(services)
    ranked = await ranking(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    ranked = await as_seeded(services, ranked, semi)  # level players split into halves: the round's lot decided
    assert len(semi.tables) == 6 and len(semi.direct_finalists) == 2
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    await report_all(services, semi.number)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    assert [t.group for t in final.tables] == ["odd", "even"]
    odd, even = ([s.registration_id for s in t.seats] for t in final.tables)
    assert odd[0] == ranked[0] and even[0] == ranked[1]  # the direct finalists of each half
    winners = {t.number: t.seats[0].registration_id for t in semi.tables}
    assert set(odd[1:]) == {winners[n] for n in (1, 2, 3)} and set(even[1:]) == {winners[n] for n in (4, 5, 6)}


@pytest.mark.parametrize("n", [100, 120])
async def test_tour_sf_2_tour_fin_1_a_direct_finalist_declining_before_the_odd_even_trios_moves_the_ranking_up(
    services: Services, n: int, capsys, tmp_path
):
    """TOUR-SF-2 with TOUR-FIN-1 (ARB 5, docs/readings.md): with 100+ players the halves are built from the ranking
    net of a qualified player who withdrew — rank 1 declining before the semifinals moves everyone up one place:
    still two trios, rank 2 keeps the even half's direct seat, the old rank 3 now heads the odd half. At exactly 100
    the field is still 100 (the decline does not undo the split). The semifinal export reproduces it."""
    await setup_tournament(services, n)
    await play_two_rounds(services)
    ranked = await ranking(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=3)
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    regs = (await services.registrations.list_players(GUILD, tournament="Coppa")).players
    names.update({p.id: p.display_name for p in regs})
    first = (await as_seeded(services, ranked, semi))[0]  # the odd half's direct finalist (a lot if level)
    view = (await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[first])).round
    net = await as_seeded(services, [p for p in ranked if p != first], view)  # level players: as the lots decided
    assert len(view.tables) == 6 and view.direct_finalists == (names[net[0]], names[net[1]])
    odd = {p for t in view.tables if t.group == "odd" for p in (s.registration_id for s in t.seats)}
    even = {p for t in view.tables if t.group == "even" for p in (s.registration_id for s in t.seats)}
    assert odd == set(net[2:26:2]) and even == set(net[3:26:2]) and first not in odd | even
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=view.number)
    cli = steward_draw(doc, view.seed, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in view.tables]


async def _level_at_the_cut(services: Services, overrides: dict[str, Any] | None = None):  # type: ignore[no-untyped-def]
    """Twenty players after one round of five tables, each table's places paid 12 / 9 / 6 / 3: five players level
    at each score, so the 16th semifinal seat falls among the five at 3 points (UFF/ARB have no tie-break)."""
    from tests.services.test_standings_service import put_results
    from tests.support.reports_fixtures import build_tournament

    names = [f"P{i:02d}" for i in range(20)]
    b = await build_tournament(services, name="Coppa", rounds={1: [names[k * 4 : k * 4 + 4] for k in range(5)]})
    if overrides:
        async with services.sessionmaker() as session, session.begin():
            t = (await session.execute(select(Tournament).where(Tournament.name == "Coppa"))).scalar_one()
            t.overrides = overrides
    for k in range(5):
        seated = names[k * 4 : k * 4 + 4]
        await put_results(
            services,
            b.tables[(1, k + 1)],
            [(b.registrations[n], 40.0 - 10 * p, p + 1, 12.0 - 3 * p, "played") for p, n in enumerate(seated)],
        )
    last = {n for k in range(5) for n in [names[k * 4 + 3]]}  # the five at 3 points
    return b, last


async def test_arb_5_a_tie_across_the_semifinal_cut_is_decided_by_a_published_lot_and_replayed_by_steward(
    services: Services, capsys, tmp_path
):
    """ARB 5 (semifinals from the standings; TOUR-SF-1): five players level at 16th for one seat. UFF/ARB have no
    tie-break, so the bot says so and a lot seeded with the round's published seed decides — not the program's list
    order; ``steward draw`` on the round's export replays the same lot and tables."""
    from bot.rules.tournament.cut import lot

    b, last = await _level_at_the_cut(services)
    view = await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4)
    assert view.cut is not None and (view.cut.rank, view.cut.seats, view.cut.method) == (16, 1, "lot")
    assert set(view.cut.tied) == last and view.cut.seed == view.seed
    ids = {n: b.registrations[n] for n in last}
    tied_ids = [ids[n] for n in view.cut.tied]
    winner = next(n for n in view.cut.tied if ids[n] == lot(tied_ids, view.seed or 0, rank=16)[0])
    assert view.cut.qualified == (winner,)
    seated = {s.name for t in view.tables for s in t.seats}
    assert winner in seated and not (last - {winner}) & seated
    doc = await services.rounds.export_inputs(FX.GUILD, tournament="Coppa", number=view.number)
    cli = steward_draw(doc, view.seed or 0, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in view.tables]
    assert cli["report"]["cut"]["qualified"] == [ids[winner]] and cli["report"]["cut"]["method"] == "lot"


async def test_arb_5_the_organizer_may_order_the_players_level_at_the_cut_or_be_required_to(services: Services):
    """The organizer's explicit order decides instead of the lot; a preset reading "organizer" (cut_tie) refuses to
    seed without it, naming the tied players; an order that does not name exactly them is refused."""
    _, last = await _level_at_the_cut(services)
    chosen = sorted(last)[2]
    order = [chosen, *sorted(last - {chosen})]
    view = await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4, tie_order=order)
    assert view.cut is not None and view.cut.method == "organizer" and view.cut.qualified == (chosen,)
    with pytest.raises(InvalidInput) as wrong:
        await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4, tie_order=order[:3])
    assert wrong.value.key == "error.tournament.cut_tie_order_mismatch"
    async with services.sessionmaker() as session, session.begin():
        t = (await session.execute(select(Tournament).where(Tournament.name == "Coppa"))).scalar_one()
        t.overrides = {"tournament": {"cut_tie": "organizer"}}
    with pytest.raises(Conflict) as refused:
        await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4)
    assert refused.value.key == "error.tournament.cut_tie_needs_order"
    groups = [g.rsplit(" (", 1) for g in refused.value.params["names"].split("; ")]
    assert [int(rank.rstrip(")")) for _, rank in groups] == [1, 6, 11, 16]  # every band's edge, then the cut
    assert set(groups[-1][0].split(", ")) == last
    everyone = [n for names, _ in groups for n in names.split(", ")]
    view = await services.rounds.seed_semifinals(FX.ORGANIZER, tournament="Coppa", tables=4, tie_order=everyone)
    assert {tie.method for tie in view.ties} == {"organizer"} and len(view.ties) == 4
    assert view.cut is not None and view.cut.qualified == (groups[-1][0].split(", ")[0],)


@pytest.mark.parametrize("delay", [0.0, 0.005, 0.02, "decline_checked"])
async def test_issue_40_a_decline_racing_the_final_s_report_never_leaves_a_result_on_a_changed_final(
    services: Services, delay: float | str, monkeypatch: pytest.MonkeyPatch
):
    """Issue 40, finding 3, in the final: a finalist declines (the published final is recomposed) while a referee
    enters the final's report. The final's tables are locked as a report locks its table, so one of them wins: the
    report is written and the decline is refused (the final is played), or the final is recomposed and the report,
    made against the old seating, is refused. Never a result for a player not seated at the final."""
    semi, _ = await semis_played(services)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    names = {s.registration_id: s.name for t in semi.tables for s in t.seats}
    referee = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
    ref = TableRef("Coppa", 1, final.number)
    seated = [s.registration_id for s in final.tables[0].seats]
    sheet = await services.reports.sheet(referee, ref)
    points = {rid: str(60 - 10 * k) for k, rid in enumerate(seated)}

    async def report() -> str:
        try:
            await services.reports.enter_points(referee, ref, points, seen=ReportStamp.of(sheet))
        except (Conflict, NotFound, InvalidInput) as exc:
            return exc.key
        return "ok"

    if delay == "decline_checked":  # as the probe found it: the decline pauses after it found the final unplayed
        from bot.services.rounds import finals

        real = finals._final_played

        async def checked_then_pause(*args: Any) -> bool:
            played = await real(*args)
            await asyncio.sleep(0.2)
            return played

        monkeypatch.setattr(finals, "_final_played", checked_then_pause)

    async def decline() -> str:
        await asyncio.sleep(0.0 if isinstance(delay, str) else delay)
        try:
            await services.rounds.decline(ORGANIZER, tournament="Coppa", player=names[seated[0]])
        except Conflict as exc:
            return exc.key
        return "ok"

    if delay == "decline_checked":
        declined, reported = await asyncio.gather(decline(), report())
    else:
        reported, declined = await asyncio.gather(report(), decline())
    assert (reported == "ok") != (declined == "ok"), (reported, declined)
    if reported == "ok":
        assert declined == "error.round_final_played"
    async with services.sessionmaker() as session:
        final_round = (await session.execute(select(Round).where(Round.kind == "final"))).scalar_one()
        tables = (await session.execute(select(GameTable).where(GameTable.round_id == final_round.id))).scalars().all()
        for gt in tables:
            seats = set((await session.execute(select(Seat.registration_id).where(Seat.table_id == gt.id))).scalars())
            lines = (await session.execute(select(TableResult).where(TableResult.table_id == gt.id))).scalars().all()
            assert {r.registration_id for r in lines} <= seats
            assert len(lines) == (len(seats) if reported == "ok" else 0)  # a report that said "ok" is kept
