"""Who may do what, for every slash command and every button, as every persona (BOT-ROLE-1).

The audience of each command is declared once, in ``bot/cogs/_audience.py``; here every command is invoked through
the real command tree by a plain member, a player seated at table 1, a player of another table, a referee, the head
referee, an organizer and a server administrator, on a tournament in the middle of its first round. A persona
outside the audience must be refused *for who they are* (the refusal's message key says so: a role, a seat, a
registration, a live round), and one inside must never be. Then another server's staff runs every command in their
own server naming this server's tournament and cases: nothing of this server changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import func, select

import bot.cogs._errors as errors_module
from bot.app import StewardBot
from bot.cogs._audience import BUTTONS, COMMANDS, Audience, markdown_table
from bot.db.models import (
    AuditLog,
    GameTable,
    Registration,
    RegistrationStatus,
    Round,
    RoundStatus,
    Sanction,
    Seat,
    SQLModel,
    Tournament,
    TournamentStatus,
)
from bot.services import Services
from bot.services.access import Actor
from bot.services.tournaments import creation_stamp
from tests.cogs.conftest import ROLES
from tests.support.helpers import FakeFile, Sent
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

# A refusal for who the person is (not for the state of the tournament or a typo): these message keys.
WHO = {
    "error.permission", "error.permission_unmapped", "error.permission_staff", "error.permission_generic",
    "error.adjudicator.live_round", "error.call.not_seated", "error.call.not_your_table",
    "error.clock.not_your_table", "error.sanction.not_yours", "error.not_registered", "error.not_playing",
    "error.report.not_at_table", "error.report.not_registered", "error.round_not_registered",
}  # fmt: skip


@dataclass(frozen=True)
class Persona:
    user_id: int
    roles: tuple[str, ...] = ()
    admin: bool = False


PERSONAS = {
    "member": Persona(6001),
    "player": Persona(7001, ("Giocatori",)),  # seated at table 1, sanctioned in case 1
    "other_player": Persona(7005, ("Giocatori",)),  # seated at table 2
    "referee": Persona(4242, ("Arbitri",)),
    "head_referee": Persona(4343, ("Capo arbitro",)),
    "organizer": Persona(4141, ("Organizzatori",)),
    "admin": Persona(4040, admin=True),
}
STAFF = {"referee", "head_referee", "organizer", "admin"}
ALLOWED: dict[Audience, set[str]] = {
    Audience.ANYONE: set(PERSONAS),
    Audience.PLAYER: {"player", "other_player", "admin"},
    Audience.ENTRANT: {"player", "other_player"},
    Audience.SANCTIONED: {"player"},
    Audience.SEATED: {"player"},
    Audience.TABLE: {"player", "referee", "head_referee", "admin"},
    Audience.TABLE_OR_STAFF: {"player"} | STAFF,
    Audience.ADJUDICATOR: STAFF,  # a round is being played
    Audience.STAFF: STAFF,
    Audience.REFEREE: {"referee", "head_referee", "admin"},
    Audience.HEAD_REFEREE: {"head_referee", "admin"},
    Audience.ORGANIZER: {"organizer", "admin"},
    Audience.ADMIN: {"admin"},
}
HARD = {"board": "1A 2A 3A 4A", "robots": "R15,5 G10,7 B5,15 Y10,3", "target": "2,9 blue triangle"}
SITUATION = '{"players": [{"name": "Giocatore 1", "territories": {"Cina": 3}}, {"name": "Giocatore 2", ' \
            '"territories": {"Urali": 2}}, {"name": "Giocatore 3", "territories": {"India": 2}}, ' \
            '{"name": "Giocatore 4", "territories": {"Siam": 2}}]}'  # fmt: skip

# (command, options): every command once, with options that reach its decision. Those that change the round run last.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("tournaments list", {}),
    ("tournaments show", {"tournament": "Coppa"}),
    ("players", {"tournament": "Coppa"}),
    ("tables", {"tournament": "Coppa"}),
    ("standings show", {"tournament": "Coppa"}),
    ("standings export", {"tournament": "Coppa"}),
    ("season show", {"season": "Anno"}),
    ("season export", {"season": "Anno"}),
    ("rule", {"question": "quanti dadi tira il difensore?", "preset": "risiko-ufficiali-2018"}),
    ("about", {}),
    ("risiko battle", {"attacker": "6 5 3", "defender": "4 4"}),
    ("risiko odds", {"attackers": 5, "defenders": 3}),
    ("risiko limit", {"armies": 40}),
    ("risiko cards", {"cards": "cannon cannon cannon"}),
    ("score", {"situation": SITUATION, "preset": "risiko-ufficiali-2018"}),
    ("rr verify", {**HARD, "moves": "RN RE"}),
    ("rr solve", HARD),
    ("my-table", {"tournament": "Coppa"}),
    ("my-games", {"tournament": "Coppa"}),
    ("record", {"tournament": "Coppa"}),
    ("appeal", {"case": 1, "reason": "non ero io"}),
    ("clock status", {"tournament": "Coppa", "table": 1}),
    ("endgame status", {"tournament": "Coppa", "table": 1}),
    ("venue link", {"tournament": "Coppa"}),
    ("venue revoke", {"tournament": "Coppa"}),
    ("print round", {"tournament": "Coppa"}),
    ("print standings", {"tournament": "Coppa"}),
    ("sanctions list", {"tournament": "Coppa"}),
    ("sanctions export", {"tournament": "Coppa"}),
    ("sanctions latecomers", {"tournament": "Coppa"}),
    ("schedule list", {}),
    ("roster export", {"tournament": "Coppa"}),
    ("register", {"tournament": "Libero", "name": "Nuovo"}),
    ("checkin", {"tournament": "Coppa"}),
    ("forfeit", {"tournament": "Coppa"}),
    ("referee", {"tournament": "Coppa", "table": 1}),
    ("report enter", {"tournament": "Coppa", "table": 1}),
    ("report situation", {"tournament": "Coppa", "table": 1, "situation": SITUATION}),
    ("report page", {"tournament": "Coppa", "table": 1}),
    ("review note", {"tournament": "Coppa", "table": 1, "text": "il morto gioca per ultimo"}),
    ("review countersign", {"tournament": "Coppa", "table": 1}),
    ("review correct", {"tournament": "Coppa", "table": 1, "reason": "errore", "situation": SITUATION}),
    ("review repair", {"tournament": "Coppa"}),
    ("clock start", {"tournament": "Coppa", "table": 1}),
    ("clock pause", {"tournament": "Coppa", "table": 1}),
    ("clock resume", {"tournament": "Coppa", "table": 1}),
    ("endgame turn", {"tournament": "Coppa", "table": 1, "conquests": 1}),
    ("endgame roll", {"tournament": "Coppa", "table": 1, "die1": 3, "die2": 4}),
    ("endgame pass", {"tournament": "Coppa", "table": 1}),
    ("endgame out", {"tournament": "Coppa", "table": 1, "player": "Giocatore 4"}),
    ("arrival", {"tournament": "Coppa", "player": "Giocatore 3"}),
    ("sanction give", {"tournament": "Coppa", "infraction": "pact", "player": "Giocatore 2"}),
    ("season sanction", {"season": "Anno", "infraction": "disturbing_table", "player": "Giocatore 1"}),
    ("sanction decide", {"case": 2, "decision": "upheld"}),
    ("sanction revoke", {"case": 2, "reason": "errore di persona"}),
    ("withdraw", {"tournament": "Aperto"}),
    ("player add", {"tournament": "Aperto", "name": "Aggiunto"}),
    ("player edit", {"tournament": "Aperto", "player": "Giocatore 1", "club": "Lupi"}),
    ("player remove", {"tournament": "Aperto", "player": "Aggiunto"}),
    ("roster import", {"tournament": "Aperto", "file": FakeFile("r.csv", b"Nome;Club\nDaFile;Orsi\n")}),
    ("tournament validate", {"tournament": "Aperto"}),
    ("tournament export", {"tournament": "Coppa"}),
    ("tournament delete", {"tournament": "Libero"}),  # issue 44: only the confirmation; the button deletes
    ("publishing check", {"tournament": "Coppa"}),
    ("publishing me", {"tournament": "Coppa", "first_name": "Anna"}),
    ("publishing player", {"tournament": "Coppa", "player": "Giocatore 1", "surname": "Rossi"}),
    ("publishing settings", {"tournament": "Coppa", "organiser": "ROMA [Il Gufo]"}),
    ("history import", {"file": FakeFile("storico.json", b'{"schema": "steward-export/1"}')}),
    ("tournament close", {"tournament": "Aperto"}),
    ("tournament create", {"name": "Nuovo torneo", "preset": "risiko-firk-1"}),
    ("season create", {"name": "Nuova stagione", "preset": "risiko-firk-1"}),
    ("season attach", {"season": "Anno", "tournament": "Libero"}),
    ("season scheme", {"season": "Anno", "per_game": 50.0}),
    ("season event", {"season": "Anno", "tournament": "Aperto", "event_type": "master"}),
    ("season game", {"season": "Anno", "players": "Giocatore 1, Giocatore 2"}),
    ("season void", {"season": "Anno", "number": 1}),
    ("tournament edit", {"tournament": "Aperto", "qualifying_rounds": 4}),
    ("schedule deadline", {"tournament": "Aperto", "at": "2027-01-10 21:00"}),
    ("schedule reminders", {"tournament": "Coppa", "offsets": "60, 10"}),
    ("schedule round", {"tournament": "Coppa", "start": "2027-01-10 21:00", "number": 2}),
    ("schedule clear", {"tournament": "Coppa", "number": 2}),
    ("schedule cancel", {"id": 999_999}),
    ("announce", {"tournament": "Coppa", "at": "2027-01-10 20:00", "text": "Buon torneo"}),
    ("setup timezone", {"zone": "Europe/Rome"}),
    ("round plan", {"tournament": "Coppa"}),
    ("round swap", {"tournament": "Coppa", "player_a": "Giocatore 1", "player_b": "Giocatore 5"}),
    ("round move", {"tournament": "Coppa", "player": "Giocatore 1", "table": 2}),
    ("replace", {"tournament": "Coppa", "player": "Giocatore 8", "by": "Giocatore 1"}),
    ("round draw", {"tournament": "Coppa"}),
    ("round redraw", {"tournament": "Coppa"}),
    ("round publish", {"tournament": "Coppa"}),
    ("finals decline", {"tournament": "Coppa", "player": "Giocatore 1"}),
    ("finals semifinals", {"tournament": "Coppa"}),
    ("finals final", {"tournament": "Coppa"}),
    ("round close", {"tournament": "Coppa"}),
    ("setup roles", {}),  # options filled per harness below
]


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The message keys of the refusals the one error path shows, in order."""
    seen: list[str] = []
    original = errors_module.error_message

    def spy(interaction: Any, error: BaseException, *, where: str) -> str:
        domain = errors_module.user_facing(error)
        seen.append(domain.key if domain is not None else type(error).__name__)
        return original(interaction, error, where=where)

    monkeypatch.setattr(errors_module, "error_message", spy)
    yield seen


async def _world(ch: ComponentHarness, services: Services) -> None:
    """Coppa (official rules) in its first round, published: eight players at two tables, case 1 against the
    player of table 1, case 2 with an appeal pending; Aperto and Libero still taking registrations (the two players
    are in Aperto), Aperto in the season Anno."""
    await ch.invoke("setup roles", admin=True, organizer=ch.role("Organizzatori"), referee=ch.role("Arbitri"),
                    head_referee=ch.role("Capo arbitro"), player=ch.role("Giocatori"))  # fmt: skip
    guild = ch.guild.id
    async with services.sessionmaker() as session, session.begin():
        coppa = Tournament(guild_id=guild, name="Coppa", game="risiko", preset="risiko-ufficiali-2018",
                           status=TournamentStatus.RUNNING.value)  # fmt: skip
        aperto = Tournament(guild_id=guild, name="Aperto", game="risiko", preset="risiko-nostra-passione-2018")
        libero = Tournament(guild_id=guild, name="Libero", game="risiko", preset="risiko-nostra-passione-2018")
        session.add_all([coppa, aperto, libero])
        await session.flush()
        regs = []
        for i in range(1, 9):
            reg = Registration(guild_id=guild, tournament_id=coppa.id, user_id=7000 + i,
                               display_name=f"Giocatore {i}", club=("Lupi", "Orsi", None)[i % 3],
                               status=RegistrationStatus.VALIDATED.value)  # fmt: skip
            regs.append(reg)
        for user in (7001, 7005):
            regs.append(Registration(guild_id=guild, tournament_id=aperto.id, user_id=user,
                                     display_name=f"Giocatore {user - 7000}"))  # fmt: skip
        session.add_all(regs)
        rnd = Round(guild_id=guild, tournament_id=coppa.id, number=1, status=RoundStatus.PUBLISHED.value,
                    draw_seed=7)  # fmt: skip
        session.add(rnd)
        await session.flush()
        for number, seated in ((1, regs[0:4]), (2, regs[4:8])):
            table = GameTable(guild_id=guild, round_id=rnd.id, number=number, thread_id=900 + number)
            session.add(table)
            await session.flush()
            session.add_all(Seat(guild_id=guild, table_id=table.id, registration_id=r.id, position=k)
                            for k, r in enumerate(seated, start=1))  # fmt: skip
    organizer = Actor(guild_id=guild, user_id=4141, role_ids=frozenset({ch.guild.roles["Organizzatori"]}))
    await services.seasons.create(organizer, name="Anno", tournament="Aperto")  # an NP season: Aperto, then Libero
    referee = Actor(guild_id=guild, user_id=4242, role_ids=frozenset({ch.guild.roles["Arbitri"]}))
    for name in ("Giocatore 1", "Giocatore 6"):
        await services.sanctions.record(referee, tournament="Coppa", player=name, user_id=None, infraction="pact")
    await services.sanctions.appeal(Actor(guild_id=guild, user_id=7006), case_number=2, reason="ricorso")


def _options(ch: ComponentHarness, path: str, options: dict[str, Any]) -> dict[str, Any]:
    if path == "setup roles":
        return {"organizer": ch.role("Organizzatori"), "referee": ch.role("Arbitri"),
                "head_referee": ch.role("Capo arbitro"), "player": ch.role("Giocatori")}  # fmt: skip
    return options


def test_every_command_of_the_tree_has_one_declared_audience_and_a_case(bot: StewardBot):
    from discord import app_commands

    names = {c.qualified_name for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)}
    assert names == set(COMMANDS), f"undeclared: {names - set(COMMANDS)}; stale: {set(COMMANDS) - names}"
    assert {path for path, _ in CASES} == names


def test_the_readme_shows_the_declared_audiences():
    from pathlib import Path

    readme = Path(__file__).resolve().parents[2] / "README.md"
    assert markdown_table() in readme.read_text(encoding="utf-8"), "README: paste `python -m bot.cogs._audience`"


async def test_bot_role_1_every_command_as_every_persona(
    ch: ComponentHarness, services: Services, http: HttpRecorder, keys: list[str]
):
    await _world(ch, services)
    wrong: list[str] = []
    for path, options in CASES:
        allowed = ALLOWED[COMMANDS[path]]
        order = sorted(PERSONAS, key=lambda name: name in allowed)  # the refused first: they must change nothing
        for name in order:
            persona = PERSONAS[name]
            del keys[:]
            await ch.invoke(path, user_id=persona.user_id, roles=persona.roles, admin=persona.admin,
                            locale="en-US", **_options(ch, path, options))  # fmt: skip
            refused = any(k in WHO for k in keys)
            if refused == (name in allowed):
                wrong.append(f"/{path} as {name}: {'refused' if refused else 'let through'} ({keys})")
    assert wrong == [], "\n".join(wrong)


async def _guild_rows(services: Services, guild: int) -> dict[str, int]:
    async with services.sessionmaker() as session:
        out = {}
        for table in SQLModel.metadata.sorted_tables:
            if "guild_id" in table.columns:
                query = select(func.count()).select_from(table).where(table.c.guild_id == guild)
                out[table.name] = int((await session.execute(query)).scalar_one())
        return out


async def test_bot_role_1_another_server_s_staff_changes_nothing_here(
    ch: ComponentHarness, services: Services, http: HttpRecorder, bot: StewardBot
):
    """Staff of server B, with every role of B, naming A's tournament and case numbers: nothing of A changes."""
    await _world(ch, services)
    await bot.flush_locales()  # the members' languages are written in the background: count them written
    before = await _guild_rows(services, ch.guild.id)
    other = ComponentHarness(bot, roles=ROLES)
    await other.invoke("setup roles", admin=True, organizer=other.role("Organizzatori"), referee=other.role("Arbitri"),
                       head_referee=other.role("Capo arbitro"))  # fmt: skip
    for path, options in CASES:
        await other.invoke(path, user_id=8001, roles=("Organizzatori", "Arbitri", "Capo arbitro"), locale="en-US",
                           **_options(other, path, options))  # fmt: skip
    await bot.flush_locales()
    assert await _guild_rows(services, ch.guild.id) == before
    async with services.sessionmaker() as session:
        ours = (await session.execute(select(Sanction).where(Sanction.guild_id == ch.guild.id))).scalars().all()
        audit = (await session.execute(select(AuditLog).where(AuditLog.actor_id == 8001))).scalars().all()
    assert {s.revoked_at for s in ours} == {None} and [a for a in audit if a.guild_id == ch.guild.id] == []


def _message(custom_id: str, message_id: int) -> Sent:
    button = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
    if custom_id.startswith("sanction:pick:"):
        button = {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "pass_turn"}]}
    sent = Sent("followup", "POST", "/webhooks", {"content": "", "components": [{"type": 1, "components": [button]}],
                                                  "embeds": []})  # fmt: skip
    sent.message_id = message_id  # type: ignore[attr-defined]
    return sent


async def test_bot_role_1_every_button_as_every_persona(
    ch: ComponentHarness, services: Services, http: HttpRecorder, keys: list[str]
):
    await _world(ch, services)
    guild = ch.guild.id
    referee = Actor(guild_id=guild, user_id=4242, role_ids=frozenset({ch.guild.roles["Arbitri"]}))
    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round))).scalars().one()
        tables = {t.number: t for t in (await session.execute(select(GameTable))).scalars()}
        third = (await session.execute(select(Registration).where(Registration.display_name == "Giocatore 3"))).scalar()
    *_, rule = await ch.invoke("rule", question="quanti dadi tira il difensore?", preset="risiko-ufficiali-2018")
    more = next(c for c in ch.custom_ids(rule) if c.startswith("rule:more:"))
    cases: list[tuple[str, Sent]] = [(more, rule)]
    cases.append((f"referee:call:{rnd.id}:1", _message(f"referee:call:{rnd.id}:1", 55_001)))
    call = await services.calls.call(referee, tournament="Coppa", table=2)
    cases.append((f"referee:claim:{call.view.call_id}", _message(f"referee:claim:{call.view.call_id}", 55_002)))
    cases.append((f"late:apply:{rnd.id}:{third.id}", _message(f"late:apply:{rnd.id}:{third.id}", 55_003)))
    offer = await services.proposals.offer(referee, tournament="Coppa", player="Giocatore 3", user_id=None,
                                           infraction="pact")  # fmt: skip
    cases.append((f"sanction:pick:{offer.proposal_id}", _message(f"sanction:pick:{offer.proposal_id}", 55_004)))
    cases.append((f"sanction:confirm:{offer.proposal_id}", _message(f"sanction:confirm:{offer.proposal_id}", 55_005)))
    report = await services.reports.enter_points(
        referee, tables[1].id or 0, {r: str(40 - 5 * k) for k, r in enumerate(await _seated(services, tables[1]))}
    )
    cases.append((f"report:sign:{report.table_id}", _message(f"report:sign:{report.table_id}", 55_006)))
    cases.append((f"report:countersign:{report.table_id}", _message(f"report:countersign:{report.table_id}", 55_007)))
    async with services.sessionmaker() as session:  # issue 44: a test tournament's Delete button (organizers)
        libero = (await session.execute(select(Tournament).where(Tournament.name == "Libero"))).scalar_one()
    delete = f"tournament:delete:{libero.id}:{creation_stamp(libero.created_at)}"
    cases.append((delete, _message(delete, 55_008)))
    assert {next(p for p in BUTTONS if c.startswith(p)) for c, _ in cases} == set(BUTTONS)
    wrong = []
    for custom_id, message in cases:
        audience = next(a for prefix, (_, a) in BUTTONS.items() if custom_id.startswith(prefix))
        allowed = ALLOWED[audience]
        for name in sorted(PERSONAS, key=lambda n: n in allowed):
            persona = PERSONAS[name]
            del keys[:]
            values = ["pass_turn"] if custom_id.startswith("sanction:pick:") else None
            await ch.click(message, custom_id, user_id=persona.user_id, roles=persona.roles, admin=persona.admin,
                           values=values)  # fmt: skip
            refused = any(k in WHO for k in keys)
            if refused == (name in allowed):
                wrong.append(f"{custom_id} as {name}: {'refused' if refused else 'let through'} ({keys})")
    assert wrong == [], "\n".join(wrong)


async def _seated(services: Services, table: GameTable) -> list[int]:
    async with services.sessionmaker() as session:
        seats = (await session.execute(select(Seat).where(Seat.table_id == table.id))).scalars().all()
    return [s.registration_id for s in sorted(seats, key=lambda s: s.position)]
