"""Services of the first slice on a real database: set-up, tournaments, registrations (BOT-REG-1, BOT-ROLE-1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from bot.db.models import AuditLog, Registration, Tournament
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services import Services
from bot.services.access import Actor

GUILD = 111
OTHER_GUILD = 222
ORG_ROLE, REF_ROLE, HEAD_ROLE = 9001, 9002, 9003

ADMIN = Actor(guild_id=GUILD, user_id=1, is_admin=True)
ORGANIZER = Actor(guild_id=GUILD, user_id=2, role_ids=frozenset({ORG_ROLE}))


def member(user_id: int, guild_id: int = GUILD) -> Actor:
    return Actor(guild_id=guild_id, user_id=user_id)


async def count(services: Services, model: type) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def configured(services: Services) -> None:
    await services.setup.set_roles(
        ADMIN, organizer_role_id=ORG_ROLE, referee_role_id=REF_ROLE, head_referee_role_id=HEAD_ROLE
    )


async def test_bot_role_1_setup_roles_is_for_administrators_only(services: Services):
    with pytest.raises(PermissionDenied):
        await services.setup.set_roles(
            ORGANIZER, organizer_role_id=ORG_ROLE, referee_role_id=REF_ROLE, head_referee_role_id=HEAD_ROLE
        )
    setup = await services.setup.set_roles(
        ADMIN, organizer_role_id=ORG_ROLE, referee_role_id=REF_ROLE, head_referee_role_id=HEAD_ROLE
    )
    assert (setup.organizer_role_id, setup.referee_role_id, setup.head_referee_role_id) == (
        ORG_ROLE,
        REF_ROLE,
        HEAD_ROLE,
    )
    assert await count(services, AuditLog) == 1


async def test_bot_role_1_a_non_organizer_cannot_create_a_tournament_and_nothing_changes(services: Services):
    await configured(services)
    with pytest.raises(PermissionDenied) as err:
        await services.tournaments.create(member(50), name="Coppa", preset="risiko-firk-1")
    assert err.value.params["role"] == "organizer"
    assert await count(services, Tournament) == 0


async def test_bot_role_1_an_unmapped_organizer_role_says_how_to_map_it(services: Services):
    with pytest.raises(PermissionDenied) as err:
        await services.tournaments.create(member(50), name="Coppa", preset="risiko-firk-1")
    assert err.value.key == "error.permission_unmapped"


async def test_bot_reg_1_organizer_creates_a_tournament_with_its_preset_and_game(services: Services):
    await configured(services)
    t = await services.tournaments.create(ORGANIZER, name="  Coppa   Natale ", preset="ricochet-v3.3", cap=16)
    assert (t.name, t.game, t.preset, t.cap, t.status) == (
        "Coppa Natale",
        "ricochet",
        "ricochet-v3.3",
        16,
        "registration_open",
    )
    assert (await services.tournaments.get(GUILD, "coppa natale")).id == t.id


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"name": "   ", "preset": "risiko-firk-1"}, "error.field_empty"),
        ({"name": "x" * 101, "preset": "risiko-firk-1"}, "error.field_too_long"),
        ({"name": "Coppa", "preset": "risiko-2099"}, "error.unknown_preset"),
        ({"name": "Coppa", "preset": "risiko-firk-1", "cap": 1}, "error.out_of_range"),
        ({"name": "Coppa", "preset": "risiko-firk-1", "overrides": {"nope": 1}}, "error.bad_override"),
    ],
)
async def test_bot_reg_1_bad_tournament_input_is_refused_and_changes_nothing(services: Services, kwargs, error):
    await configured(services)
    with pytest.raises(InvalidInput) as err:
        await services.tournaments.create(ORGANIZER, **kwargs)
    assert err.value.key == error
    assert await count(services, Tournament) == 0
    assert await count(services, AuditLog) == 1  # only the set-up


async def test_bot_reg_1_a_duplicate_tournament_name_is_a_conflict(services: Services):
    await configured(services)
    await services.tournaments.create(ORGANIZER, name="Coppa", preset="risiko-firk-1")
    with pytest.raises(Conflict):
        await services.tournaments.create(ORGANIZER, name="COPPA", preset="risiko-firk-1")
    assert await count(services, Tournament) == 1


async def test_bot_reg_1_players_register_and_are_listed_in_order(services: Services):
    await configured(services)
    await services.tournaments.create(ORGANIZER, name="Coppa", preset="risiko-firk-1")
    for uid, name, club in [(10, "Anna", "Roma"), (11, "Bruno", "Milano"), (12, "Čeněk", None)]:
        await services.registrations.register(member(uid), tournament="Coppa", display_name=name, club=club)
    listing = await services.registrations.list_players(GUILD, tournament="Coppa")
    assert [p.display_name for p in listing.players] == ["Anna", "Bruno", "Čeněk"]
    assert listing.counts == {"registered": 3}


@pytest.mark.parametrize(
    ("name", "club", "error"),
    [
        ("", "Roma", "error.field_empty"),
        ("Anna", "c" * 500, "error.field_too_long"),
        ("a" * 65, None, "error.field_too_long"),
    ],
)
async def test_bot_reg_1_bad_registration_input_changes_nothing(services: Services, name, club, error):
    await configured(services)
    await services.tournaments.create(ORGANIZER, name="Coppa", preset="risiko-firk-1")
    with pytest.raises(InvalidInput) as err:
        await services.registrations.register(member(10), tournament="Coppa", display_name=name, club=club)
    assert err.value.key == error
    assert await count(services, Registration) == 0


async def test_bot_reg_1_registering_twice_or_to_an_unknown_tournament_is_refused(services: Services):
    await configured(services)
    await services.tournaments.create(ORGANIZER, name="Coppa", preset="risiko-firk-1")
    await services.registrations.register(member(10), tournament="Coppa", display_name="Anna", club="Roma")
    with pytest.raises(Conflict):
        await services.registrations.register(member(10), tournament="Coppa", display_name="Anna B", club="Roma")
    with pytest.raises(Conflict):
        await services.registrations.register(member(11), tournament="Coppa", display_name="anna", club=None)
    with pytest.raises(NotFound):
        await services.registrations.register(member(10), tournament="Nope", display_name="Anna", club=None)
    assert await count(services, Registration) == 1


async def test_bot_reg_2_over_the_cap_players_go_to_the_waitlist(services: Services):
    await configured(services)
    await services.tournaments.create(ORGANIZER, name="Coppa", preset="risiko-firk-1", cap=2)
    outcomes = [
        await services.registrations.register(member(uid), tournament="Coppa", display_name=f"P{uid}", club=None)
        for uid in (10, 11, 12)
    ]
    assert [o.waitlisted for o in outcomes] == [False, False, True]
    listing = await services.registrations.list_players(GUILD, tournament="Coppa")
    assert listing.counts == {"registered": 2, "waitlisted": 1}


async def test_bot_reg_2_registration_after_the_deadline_is_refused(services: Services, clock):
    await configured(services)
    await services.tournaments.create(
        ORGANIZER, name="Coppa", preset="risiko-firk-1", registration_deadline=clock() + timedelta(hours=1)
    )
    clock.advance(hours=2)
    with pytest.raises(Conflict) as err:
        await services.registrations.register(member(10), tournament="Coppa", display_name="Anna", club=None)
    assert err.value.key == "error.registration_deadline_passed"
    assert await count(services, Registration) == 0


async def test_bot_role_1_data_of_two_servers_never_mix(services: Services):
    await configured(services)
    await services.tournaments.create(ORGANIZER, name="Coppa", preset="risiko-firk-1")
    other_admin = Actor(guild_id=OTHER_GUILD, user_id=1, is_admin=True)
    await services.tournaments.create(other_admin, name="Coppa", preset="ricochet-v3.3")
    await services.registrations.register(member(10), tournament="Coppa", display_name="Anna", club=None)
    assert [t.game for t in await services.tournaments.list(OTHER_GUILD)] == ["ricochet"]
    other = await services.registrations.list_players(OTHER_GUILD, tournament="Coppa")
    assert other.players == ()
    with pytest.raises(NotFound):
        await services.registrations.list_players(333, tournament="Coppa")


async def test_np_fmt_1_the_format_is_chosen_at_creation_where_the_preset_offers_it(services: Services):
    """NP-FMT-1: NP offers "all'italiana" and knockout; the official ruleset only all'italiana — a knockout there is
    refused naming the field, and nothing is stored. The format joins the other overrides."""
    await configured(services)
    t = await services.tournaments.create(
        ORGANIZER, name="Lampo", preset="risiko-nostra-passione-2018", format="knockout",
        overrides={"tournament": {"final_size": 4}},
    )  # fmt: skip
    assert (t.format, t.final_size) == ("knockout", 4)
    assert t.overrides == {"tournament": {"final_size": 4, "format": "knockout"}}
    with pytest.raises(InvalidInput) as err:
        await services.tournaments.create(ORGANIZER, name="Coppa", preset="risiko-ufficiali-2018", format="knockout")
    assert "tournament.format" in str(err.value.params)
    assert await count(services, Tournament) == 1
