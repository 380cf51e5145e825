"""``/sanction give`` + Confirm as two use cases (issue 48, "one transaction for a sanction proposal"), counted on a
real SQLite file: the command's proposal is one transaction that parses the tournament's ruleset once (it used to
be three transactions and two parses), the Confirm button's sanction one more (it used to parse the ruleset up to
three times: the ladder, the re-scored table, the view)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event, select, update
from sqlmodel import col

from bot.db.models import AuditLog, Sanction, Tournament
from bot.errors import Conflict
from bot.rules import ruleset as ruleset_module
from bot.services import Services
from scripts.house_counts_sanction import sanction_give_transactions
from tests.support.reports_fixtures import REFEREE, build_tournament

OVERRIDES = {"sanctions": {"appeal_window_minutes": 45}}  # every ruleset load parses (no shipped-preset cache)


class Counter:
    def __init__(self) -> None:
        self.transactions = 0
        self.parses = 0

    def mark(self) -> tuple[int, int]:
        return self.transactions, self.parses


@pytest.fixture
def counted(services: Services, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter]:
    """The transactions the services' engine begins (savepoints aside) and the rulesets parsed, from now on."""
    counter = Counter()
    engine = services.sessionmaker.kw["bind"].sync_engine

    def begun(conn: Any) -> None:
        counter.transactions += 1

    real = ruleset_module.parse_ruleset

    def parse(*args: Any, **kwargs: Any) -> Any:
        counter.parses += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(ruleset_module, "parse_ruleset", parse)
    event.listen(engine, "begin", begun)
    try:
        yield counter
    finally:
        event.remove(engine, "begin", begun)


async def _reported_table(services: Services) -> tuple[str, int, dict[str, int]]:
    """A UFF/ARB tournament with overrides, four players at a table whose typed report is entered."""
    b = await build_tournament(services)
    async with services.sessionmaker() as session, session.begin():
        this = col(Tournament.id) == b.tournament_id
        await session.execute(update(Tournament).where(this).values(overrides=OVERRIDES))
    table_id = b.tables[(1, 1)]
    r = b.registrations
    await services.reports.enter_points(REFEREE, table_id, {r["Anna"]: "70", r["Bruno"]: "55", r["Carla"]: "41",
                                                            r["Dario"]: "12"})  # fmt: skip
    return b.name, table_id, r


async def test_issue_48_give_and_confirm_are_one_transaction_and_one_ruleset_parse_each(
    services: Services, counted: Counter
):
    """The cog's two interactions: ``/sanction give`` (``proposals.offer``) and Confirm (``proposals.confirm``),
    with the cog's arguments. A table-point penalty (ARB 13) re-scores the table inside the Confirm's transaction."""
    name, table_id, _ = await _reported_table(services)
    start = counted.mark()
    offer = await services.proposals.offer(
        REFEREE, tournament=name, player="Anna", user_id=None, infraction="disturbing", cards_in_hand=0, points=20,
        round_number=None, table=None, details=None,
    )  # fmt: skip
    given = counted.mark()
    view = await services.proposals.confirm(REFEREE, offer.proposal_id)
    confirmed = counted.mark()
    assert (given[0] - start[0], given[1] - start[1]) == (1, 1)  # the give: one transaction, one parse
    assert (confirmed[0] - given[0], confirmed[1] - given[1]) == (1, 1)  # the Confirm: likewise
    assert confirmed[0] - start[0] == 2
    assert offer.view.proposal.kind == "table_points" and "table_points" in offer.kinds
    assert (view.case_number, view.kind, view.points, view.table_number) == (1, "table_points", 20.0, 1)
    # what the one Confirm transaction did: the case, its audit, the table re-scored (70 - 20: Anna second)
    report = await services.reports.lookup(REFEREE, table_id)
    assert [(s.name, s.table_points) for s in report.ranking][:2] == [("Bruno", 55.0), ("Anna", 50.0)]
    async with services.sessionmaker() as session:
        assert len((await session.execute(select(Sanction))).scalars().all()) == 1
        actions = [a.action for a in (await session.execute(select(AuditLog))).scalars()]
    assert actions.count("sanction.record") == 1


async def test_issue_48_a_second_confirm_press_is_one_transaction_that_writes_nothing(
    services: Services, counted: Counter
):
    """A double press: the second Confirm is refused with the case's number, in one transaction, nothing written."""
    name, _, _ = await _reported_table(services)
    offer = await services.proposals.offer(REFEREE, tournament=name, player="Bruno", user_id=None,
                                           infraction="disturbing", points=5)  # fmt: skip
    await services.proposals.confirm(REFEREE, offer.proposal_id)
    before = counted.mark()
    with pytest.raises(Conflict) as again:
        await services.proposals.confirm(REFEREE, offer.proposal_id)
    assert again.value.key == "error.sanction.proposal_used"
    assert counted.mark()[0] - before[0] == 1
    async with services.sessionmaker() as session:
        assert len((await session.execute(select(Sanction))).scalars().all()) == 1


def test_issue_48_the_counting_script_measures_two_transactions():
    """``scripts/house_counts_sanction.py`` (the closing note's count; it also runs on older checkouts) builds its
    own temporary SQLite tournament and counts give + Confirm."""
    assert sanction_give_transactions() == 2
