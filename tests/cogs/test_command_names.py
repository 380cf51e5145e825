"""Names that collide: the end-of-game tracker's Italian name is not the final phase's; the Italian names issue 44
found confusing (`/mie-sanzioni` read by referees for anyone, `/verifica` for two commands, singular/plural pairs side
by side in the picker, a player's turn named like the tournament's round) are gone, from the catalogue and from the
README and the guides; the number of qualifying rounds is an option of /tournament create and /tournament edit
(stored as a JSON override is), with a localised refusal for a number out of range or below the rounds already
drawn."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from discord import app_commands
from sqlalchemy import func, select

from bot.app import StewardBot
from bot.db.models import Round, RoundKind, RoundStatus, Tournament
from bot.i18n import catalogue
from bot.rules.ruleset import load_ruleset
from bot.services import Services
from tests.support.helpers import Harness

ORG = ("Organizzatori",)


def _distance(a: str, b: str) -> int:
    """Levenshtein distance (how many letters to add, drop or change to turn one name into the other)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def test_the_end_of_game_tracker_and_the_final_phase_have_italian_names_apart(bot: StewardBot):
    italian = catalogue("it")
    names = {c.name: italian[f"cmd.{c.name}.name"] for c in bot.tree.get_commands()}
    assert names["endgame"] == "fine-partita" and names["finals"] == "finali"
    tracker = names.pop("endgame")
    close = [other for other in names.values() if _distance(tracker, other) <= 2]  # «finale»/«finali» were 1 apart
    assert close == [] and _distance(tracker, "finali") > 3, close
    assert len(set(names.values())) == len(names)  # no two commands share an Italian name


def _italian_names(bot: StewardBot) -> dict[str, str]:
    """Every command's and subcommand's qualified English name → its Italian name."""
    italian = catalogue("it")
    names = {}
    for command in bot.tree.walk_commands():
        names[command.qualified_name] = italian[f"cmd.{command.qualified_name}.name"]
    return names


# Issue 44: old Italian name → new one (the English names stay).
RENAMED = {
    "record": ("mie-sanzioni", "scheda-sanzioni"),
    "review": ("verifica", "revisione"),
    "publishing check": ("verifica", "controlla"),
    "tournaments": ("tornei", "calendario"),
    "players": ("giocatori", "partecipanti"),
    "roster": ("iscritti", "file-partecipanti"),
    "sanctions": ("sanzioni", "registro-sanzioni"),
    "endgame turn": ("turno", "turno-di-gioco"),
}


def test_issue_44_the_confusing_italian_command_names_are_renamed(bot: StewardBot):
    """Issue 44: /mie-sanzioni (referees read anyone's record), /verifica (review and rr verify), the picker's
    singular/plural pairs and /fine-partita turno (a player's turn, not the tournament's round) have new names."""
    names = _italian_names(bot)
    assert {english: names[english] for english in RENAMED} == {english: new for english, (_, new) in RENAMED.items()}
    assert [english for english, name in names.items() if name == "verifica"] == ["rr verify"]  # one meaning
    assert not any(name.startswith("mie-sanzioni") for name in names.values())
    assert "arbitri" in catalogue("it")["cmd.record.description"]  # the record is not only "mine"
    assert names["round"] == "turno" and names["endgame turn"] != names["round"]


def test_issue_44_no_two_top_level_italian_names_sit_side_by_side_alike(bot: StewardBot):
    """Issue 44: «/torneo» and «/tornei», «/giocatore» and «/giocatori», «/sanzione» and «/sanzioni», «/iscrizione»
    and «/iscritti» sat side by side in the picker: no two top-level Italian names share their first five letters,
    so typing one never offers its look-alike."""
    top = sorted({_italian_names(bot)[c.name] for c in bot.tree.get_commands()})
    alike = [(a, b) for a, b in itertools.combinations(top, 2) if a[:5] == b[:5]]
    assert alike == []
    for name in _italian_names(bot).values():  # valid Discord names
        assert re.fullmatch(r"[-_\w]{1,32}", name) and name == name.lower(), name


DOCUMENTS = [Path(__file__).resolve().parents[2] / "README.md",
             *sorted((Path(__file__).resolve().parents[2] / "docs").glob("*.md"))]  # fmt: skip


def test_issue_44_the_readme_and_the_guides_name_no_old_italian_command():
    """Issue 44: after the renames the README and the guides send nobody to an Italian name that no longer exists."""
    old = [r"/mie-sanzioni", r"/verifica (?:controfirma|correggi|nota|ripara)", r"/tornei\b", r"/giocatori\b",
           r"/sanzioni (?:elenco|esporta|ritardatari)", r"/iscritti\b", r"/fine-partita turno(?!-)",
           r"/pubblicazione verifica", r"`verifica` \|"]  # fmt: skip
    found = [f"{path.name}: {m.group(0)}" for path in DOCUMENTS for pattern in old
             for m in re.finditer(pattern, path.read_text(encoding="utf-8"))]  # fmt: skip
    assert found == []
    readme = DOCUMENTS[0].read_text(encoding="utf-8")
    for _, new in RENAMED.values():
        assert new in readme, new


async def _setup(h: Harness) -> None:
    await h.invoke("setup roles", admin=True, organizer=h.role("Organizzatori"), referee=h.role("Arbitri"),
                   head_referee=h.role("Capo arbitro"))  # fmt: skip


async def _tournament(services: Services, name: str) -> Tournament | None:
    async with services.sessionmaker() as session:
        return (await session.execute(select(Tournament).where(Tournament.name == name))).scalar_one_or_none()


async def test_the_number_of_qualifying_rounds_is_an_option_of_tournament_create(harness: Harness, services: Services):
    await _setup(harness)
    options = [p.name for p in harness.bot.tree.get_command("tournament").get_command("create").parameters]
    assert "qualifying_rounds" in options
    sent = await harness.invoke("tournament create", roles=ORG, locale="it", name="Coppa",
                                preset="risiko-ufficiali-2018", qualifying_rounds=3)  # fmt: skip
    assert "Turni di qualificazione: 3" in sent[-1].text
    t = await _tournament(services, "Coppa")
    assert t is not None and t.overrides == {"tournament": {"qualifying_rounds": 3}}  # as the JSON override stores it
    assert load_ruleset(t.preset, t.overrides).tournament.qualifying_rounds == 3

    for value in (21, -1):
        sent = await harness.invoke("tournament create", roles=ORG, locale="it", name=f"Coppa {value}",
                                    preset="risiko-firk-1", qualifying_rounds=value)  # fmt: skip
        assert sent[-1].ephemeral
        assert (
            f"Il numero di turni di qualificazione va da 0 (non fissato) a 20: {value} non è ammesso." in sent[-1].text
        )
        assert await _tournament(services, f"Coppa {value}") is None
    sent = await harness.invoke("tournament create", roles=ORG, locale="en-US", name="Cup", preset="risiko-firk-1",
                                qualifying_rounds=99)  # fmt: skip
    assert "The number of qualifying rounds goes from 0 (not fixed) to 20: 99 is not allowed." in sent[-1].text
    # the option wins over the same field typed in the JSON overrides, which keep their other fields
    await harness.invoke(
        "tournament create",
        roles=ORG,
        name="Mista",
        preset="risiko-ufficiali-2018",
        qualifying_rounds=4,
        overrides='{"tournament": {"qualifying_rounds": 2, "cinquisti": false}}',
    )
    t = await _tournament(services, "Mista")
    assert t is not None and t.overrides == {"tournament": {"qualifying_rounds": 4, "cinquisti": False}}


async def test_tournament_edit_changes_the_qualifying_rounds_never_below_those_drawn(
    harness: Harness, services: Services
):
    await _setup(harness)
    await harness.invoke("tournament create", roles=ORG, name="Coppa", preset="risiko-ufficiali-2018")
    t = await _tournament(services, "Coppa")
    assert t is not None
    async with services.sessionmaker() as session, session.begin():
        for number in (1, 2):
            session.add(Round(guild_id=t.guild_id, tournament_id=t.id, number=number,
                              status=RoundStatus.PUBLISHED.value))  # fmt: skip
        session.add(Round(guild_id=t.guild_id, tournament_id=t.id, number=3, status=RoundStatus.PLANNED.value))

    sent = await harness.invoke("tournament edit", roles=ORG, locale="it", tournament="Coppa", qualifying_rounds=4)
    assert "Turni di qualificazione: 4" in sent[-1].text
    assert (await services.tournaments.get(harness.guild.id, "Coppa")).qualifying_rounds == 4
    refused = await harness.invoke("tournament edit", roles=ORG, locale="it", tournament="Coppa", qualifying_rounds=1)
    assert "Coppa ha già sorteggiato 2 turni di qualificazione: non si può scendere sotto questo numero" in (
        refused[-1].text
    )
    refused = await harness.invoke("tournament edit", roles=ORG, locale="it", tournament="Coppa", qualifying_rounds=30)
    assert "va da 0 (non fissato) a 20: 30 non è ammesso" in refused[-1].text
    refused = await harness.invoke("tournament edit", roles=ORG, locale="en-US", tournament="Coppa")
    assert "Nothing to change: give the number of qualifying rounds." in refused[-1].text
    assert (await services.tournaments.get(harness.guild.id, "Coppa")).qualifying_rounds == 4  # nothing changed

    sent = await harness.invoke("tournament edit", roles=ORG, locale="it", tournament="Coppa", qualifying_rounds=0)
    assert "non fissati" in sent[-1].text
    t = await _tournament(services, "Coppa")
    assert t is not None and t.overrides == {"tournament": {"qualifying_rounds": 0}}

    async with services.sessionmaker() as session, session.begin():  # the semifinals began: too late
        session.add(Round(guild_id=t.guild_id, tournament_id=t.id, number=4, kind=RoundKind.SEMIFINAL.value,
                          status=RoundStatus.DRAWN.value))  # fmt: skip
    refused = await harness.invoke("tournament edit", roles=ORG, locale="it", tournament="Coppa", qualifying_rounds=5)
    assert "è già alle semifinali o alla finale" in refused[-1].text
    async with services.sessionmaker() as session:
        assert (await session.execute(select(func.count()).select_from(Tournament))).scalar_one() == 1


def test_tournament_edit_is_a_slash_command_with_its_italian_names(bot: StewardBot):
    command = bot.tree.get_command("tournament").get_command("edit")
    assert isinstance(command, app_commands.Command)
    italian = catalogue("it")
    assert italian["cmd.tournament edit.name"] == "modifica"
    assert italian["cmd.tournament edit.opt.qualifying_rounds.name"] == "turni_qualificazione"
