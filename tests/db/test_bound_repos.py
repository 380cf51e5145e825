"""The use case's repositories (issue 48, "the unit of work down the corridors"): every query of ``bot.db.repo`` is
bound to one use case's session and server, generated from the queries' own signatures so it cannot drift, and a
row of another server is not found through the use case."""

from __future__ import annotations

import inspect

import pytest

from bot.db import repo
from bot.db.models import Tournament
from bot.db.repo.bound import Repositories
from bot.services import Services
from bot.services._base import NO_SERVER
from scripts.bind_repos import TARGET, render
from tests.support.rounds import GUILD, ORGANIZER, setup_tournament


def test_the_bound_file_is_what_the_generator_writes():
    """``python -m scripts.bind_repos`` after changing a query: the file in the repository is current."""
    assert TARGET.read_text(encoding="utf-8") == render(), "stale: run python -m scripts.bind_repos"


def test_every_query_is_reachable_through_the_use_case():
    bound = {
        inspect.getsource(method).split("return await ", 1)[1].split("(", 1)[0].rsplit(".", 1)[1]
        for area in vars(Repositories(None, 0)).values()  # type: ignore[arg-type]
        for name, method in inspect.getmembers(type(area), inspect.iscoroutinefunction)
        if not name.startswith("_")
    }
    queries = {
        name
        for name in dir(repo)
        if inspect.iscoroutinefunction(getattr(repo, name))
        and "session" in inspect.signature(getattr(repo, name)).parameters
    }
    assert queries - bound == set()


async def test_a_use_case_reads_only_its_own_server(services: Services):
    await setup_tournament(services, 8, preset="risiko-nostra-passione-2018")
    async with services.tournaments.run(ORGANIZER, tournament="Coppa") as uc:
        tid = uc.tournament_id
        assert (await uc.get(Tournament, tid)) is uc.tournament
        assert (await uc.tournaments.by_name("coppa")) is uc.tournament
    async with services.tournaments.run(GUILD + 1) as other:
        assert await other.get(Tournament, tid) is None
        assert await other.tournaments.by_name("Coppa") is None
    async with services.tournaments.run(NO_SERVER) as page:
        found = await page.get(Tournament, tid)
        assert found is not None
        page.enter(found)
        assert page.guild_id == GUILD and page.rules.game == "risiko"
        with pytest.raises(AssertionError):
            page.enter(found)
