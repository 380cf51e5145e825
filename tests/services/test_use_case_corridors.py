"""Issue #48, "the unit of work down the corridors": a use case reaches another tournament (a season's earlier
evening, the tournament a token names) through ``uc.about(t)`` — its server's queries and its ruleset parsed once —
and a tournament's new overrides become its ``uc.rules`` at once. A real SQLite file."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput, NotFound
from bot.services import Services
from bot.services.access import Actor
from tests.support.rounds import GUILD, ORGANIZER, setup_tournament

OTHER = 222


async def test_issue_48_a_use_case_about_another_tournament_reads_its_server_and_its_ruleset(services: Services):
    """Issue #48: ``uc.about(t)`` is the use case itself for its own tournament; for another one of the server it
    keeps the server's configuration and parses that tournament's ruleset; for one of another server (a venue
    token's) its queries read that server's rows, never the first one's."""
    await setup_tournament(services, 4, name="Coppa")
    await setup_tournament(services, 3, name="Trofeo", preset="risiko-firk-1")
    admin = Actor(guild_id=OTHER, user_id=1, is_admin=True)
    await services.setup.set_roles(admin, organizer_role_id=1, referee_role_id=2, head_referee_role_id=3)
    elsewhere = await services.tournaments.create(admin, name="Lontano", preset="risiko-ufficiali-2018")
    async with services.standings.run(GUILD, tournament="Coppa") as uc:
        assert uc.about(uc.tournament) is uc
        trofeo = await uc.tournaments.by_name("Trofeo")
        assert trofeo is not None
        evening = uc.about(trofeo)
        assert (evening.tournament_id, evening.guild_id, evening.config) == (trofeo.id, GUILD, uc.config)
        assert evening.rules.name == "risiko-firk-1" and uc.rules.name == "risiko-ufficiali-2018"
        assert len(await evening.registrations.listed(tournament_id=evening.tournament_id)) == 3
        assert await uc.tournaments.by_id(elsewhere.id) is None  # another server's tournament is not this one's
    async with services.venue.run(GUILD) as uc:
        far = await uc.server(OTHER).tournaments.by_id(elsewhere.id)
        assert far is not None
        there = uc.about(far)
        assert (there.guild_id, there.config) == (OTHER, None)  # its own server; not this server's configuration
        assert (await there.tournaments.by_name("Lontano")) is not None
        assert (await there.tournaments.by_name("Coppa")) is None


async def test_issue_48_new_overrides_are_the_tournament_s_rules_at_once(services: Services):
    """Issue #48: ``uc.change_overrides`` parses the new overrides first (a refused one changes nothing), then they
    are the tournament's and its ``uc.rules`` in the same use case — what /schedule reminders and /tournament edit
    read right after."""
    await setup_tournament(services, 0)
    async with services.tournaments.run(ORGANIZER, tournament="Coppa") as uc:
        before = uc.rules.tournament.qualifying_rounds
        rules = uc.change_overrides({"tournament": {"qualifying_rounds": before + 2}})
        assert uc.rules is rules and rules.tournament.qualifying_rounds == before + 2
        assert uc.tournament.overrides == {"tournament": {"qualifying_rounds": before + 2}}
        with pytest.raises(Exception):  # noqa: B017 - the preset's own refusal, whatever its class
            uc.change_overrides({"tournament": {"no_such_setting": 1}})
        assert uc.rules is rules and uc.tournament.overrides == {"tournament": {"qualifying_rounds": before + 2}}
    view = await services.tournaments.get(GUILD, "Coppa")
    assert view.qualifying_rounds == before + 2


async def test_bad_input_an_import_with_an_appeal_state_nobody_knows_is_refused_and_writes_nothing(
    services: Services,
):
    """Issue #48 (typed states): an export's appeal state that is no state of the bot ("sospeso") is a bad field of
    the document, refused before anything is written, not an error of the database."""
    await setup_tournament(services, 4)
    document = await services.exports.tournament(ORGANIZER, tournament="Coppa")
    player = document["players"][0]["id"]
    document["sanctions"] = [{"case": 1, "player": player, "kind": "warning", "appeal": {"state": "sospeso"}}]
    with pytest.raises(InvalidInput) as err:
        await services.imports.tournament(ORGANIZER, document=document, name="Copia")
    assert err.value.key == "error.import.bad_document" and "sospeso" in err.value.params["detail"]
    with pytest.raises(NotFound):
        await services.tournaments.get(GUILD, "Copia")
