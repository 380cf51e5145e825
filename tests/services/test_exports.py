"""All the data out and back (steward-export/1, docs/export.md), and the national ranking's workbook (ModuloTorneo,
../shared/spec/modulo-torneo.md) for every format the bot runs: the repository's own contract check gives no error
and no warning, GestioneTorneo's validator too where it is built (STEWARD_MODULO), a refusal names what is missing,
and import → export gives the same document and the same workbook back. Real SQLite file and PostgreSQL."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from bot.present.modulo import ModuloRefused, modulo_workbook
from bot.rules.tournament.export import read_export
from bot.rules.tournament.modulo import ModuloOptions
from bot.services import Services
from bot.services.access import Actor
from bot.tools.export import verify_document
from tests.support.modulo_contract import check
from tests.support.rounds import GUILD, ORGANIZER, REF_ROLE, setup_knockout, setup_tournament

REFEREE = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
SURNAMES = ["Rossi", "Bianchi", "Verdi", "Neri", "Gallo", "Conti", "Greco", "Costa", "Ricci", "Marino"]
VALIDATOR = os.environ.get("STEWARD_MODULO")  # the path of GestioneTorneo's validate-modulo (README: how to build)


async def report(services: Services, number: int, *, out: dict[int, str] | None = None) -> None:
    """Every table of round ``number`` reported by a referee through the services (typed points, distinct at each
    table; ``out``: registration id → "ritirato" / "squalificato") and countersigned, as at a real evening."""
    view = await services.rounds.show(ORGANIZER, tournament="Coppa", number=number)
    for table in view.tables:
        table_id = await _table_id(services, number, table.number)
        values = {s.registration_id: str(90 - 11 * i - table.number) for i, s in enumerate(table.seats)}
        values |= {rid: word for rid, word in (out or {}).items() if rid in values}
        await services.reports.enter_points(REFEREE, table_id, values)
        await _lock(services, table_id)


async def _table_id(services: Services, number: int, table: int) -> int:
    from sqlalchemy import select

    from bot.db.models import GameTable, Round

    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round).where(Round.number == number))).scalar_one()
        row = (
            await session.execute(select(GameTable).where(GameTable.round_id == rnd.id, GameTable.number == table))
        ).scalar_one()
        assert row.id is not None
        return row.id


async def _lock(services: Services, table_id: int) -> None:
    from bot.db.models import GameTable

    async with services.sessionmaker() as session, session.begin():
        row = await session.get(GameTable, table_id)
        assert row is not None
        row.locked = True


async def identities(services: Services, *, publish: bool = True, type: str = "Torneo Open") -> None:
    """Every registered player's identity for the national ranking, as the organizer types it."""
    if publish:
        await services.publishing.settings(ORGANIZER, tournament="Coppa", organiser="ROMA [Il Gufo]", type=type,
                                           venue="Circolo di prova")  # fmt: skip
    players = (await services.registrations.list_players(GUILD, tournament="Coppa")).players
    for i, p in enumerate(players):
        await services.publishing.identity(
            ORGANIZER, tournament="Coppa", player=p.display_name, first_name=p.display_name.split()[-1],
            surname=SURNAMES[i % len(SURNAMES)], birth_date=f"{1 + i % 28:02d}/{1 + i % 12:02d}/{1970 + i}",
            national_id=None if i % 2 else 50_000 + i,
        )  # fmt: skip


async def uff_evening(services: Services, players: int = 18) -> None:
    """UFF with 18 players (tables of four and five): two rounds, a withdrawal and a disqualification at one table
    of round 2, a late player replaced by a reserve (ARB 3), four semifinals and the final."""
    from bot.db.models import Registration, RegistrationStatus

    tid = await setup_tournament(services, players)
    async with services.sessionmaker() as session, session.begin():
        session.add(Registration(guild_id=GUILD, tournament_id=tid, user_id=1999, display_name="Riserva Uno",
                                 status=RegistrationStatus.WAITLISTED.value))  # fmt: skip
    for number in (1, 2):
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
        view = (await services.rounds.publish(ORGANIZER, tournament="Coppa")).round
        out = {}
        if number == 2:
            late = view.tables[-1].seats[-1]
            await services.rounds.replace_player(ORGANIZER, tournament="Coppa", player=late.name, by="Riserva Uno")
            seats = view.tables[0].seats
            out = {seats[2].registration_id: "ritirato", seats[3].registration_id: "squalificato"}
        await report(services, number, out=out)
        await services.rounds.close(ORGANIZER, tournament="Coppa")
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa", number=semi.number)
    await report(services, semi.number)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa", number=final.number)
    await report(services, final.number)


def judged(data: bytes, tmp_path: Path) -> None:
    """No error and no warning by the repository's own contract check and, where it is built, by GestioneTorneo's
    validator itself."""
    errors, warnings = check(data)
    assert (errors, warnings) == ([], []), (errors, warnings)
    if VALIDATOR:
        path = tmp_path / "ModuloTorneo.xlsx"
        path.write_bytes(data)
        run = subprocess.run([VALIDATOR, str(path)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and "RESULT: OK (0 errors, 0 warnings)" in run.stdout, run.stdout


async def test_the_whole_tournament_export_reads_back_verifies_and_gives_the_final_classification(services: Services):
    await uff_evening(services)
    document = await services.exports.tournament(ORGANIZER, tournament="Coppa")
    export = read_export(document)
    assert [r.kind for r in export.rounds] == ["qualifying", "qualifying", "semifinal", "final"]
    assert export.final_classification is not None and export.final_classification[0].place == 1
    lines = verify_document(document)
    assert lines[-1].startswith("verified: Coppa") and "4 round(s) replayed" in lines[0]
    statuses = {r.outcome for rnd in export.rounds for t in rnd.tables for r in t.report.results}
    assert {"withdrawn", "disqualified", "played"} <= statuses
    view = await services.classification.show(GUILD, "Coppa")
    assert view is not None
    regs = {line.player_id: line.place for line in view.lines}
    assert {row.player: row.place for row in export.final_classification} == regs  # ids are registration ids


async def test_steward_verify_names_the_first_thing_that_does_not_hold(services: Services):
    from bot.tools.export import Mismatch

    await uff_evening(services)
    document = await services.exports.tournament(ORGANIZER, tournament="Coppa")
    result = document["rounds"][0]["tables"][0]["report"]["results"][0]
    result["tournament_points"] = float(result["tournament_points"]) + 1
    with pytest.raises(Mismatch, match=r"round 1, table 1, player \d+"):
        verify_document(document)


async def test_import_then_export_gives_the_same_document_back(services: Services):
    """A whole-tournament export imported into another server is the same tournament: a new export of it is the
    same document (players keep their ids, so its draws still replay), but for when it was exported and its status
    (an imported tournament is finished)."""
    await uff_evening(services)
    await identities(services)
    document = await services.exports.tournament(ORGANIZER, tournament="Coppa")
    other = 222
    admin = Actor(guild_id=other, user_id=1, is_admin=True)
    await services.setup.set_roles(admin, organizer_role_id=1, referee_role_id=2, head_referee_role_id=3)
    done = await services.imports.tournament(admin, document=document)
    assert (done.tournament_name, done.players, done.rounds) == ("Coppa", 19, 4)
    again = await services.exports.tournament(admin, tournament="Coppa")
    for doc in (document, again):
        doc.pop("exported_at")
        doc["tournament"].pop("created_at")
        doc["tournament"].pop("status")
    assert again == document
    assert verify_document(again)[-1].startswith("verified")


async def test_bad_input_an_import_names_the_bad_field_and_writes_nothing(services: Services):
    from bot.errors import InvalidInput

    await uff_evening(services)
    document = await services.exports.tournament(ORGANIZER, tournament="Coppa")
    document["rounds"][0]["tables"][0]["seats"].append(99_999)
    with pytest.raises(InvalidInput) as err:
        await services.imports.tournament(ORGANIZER, document=document, name="Copia")
    assert err.value.key == "error.import.bad_document" and "99999" in err.value.params["detail"]
    with pytest.raises(Exception):  # noqa: B017 - nothing was written: the name is free
        await services.tournaments.get(GUILD, "Copia")


async def test_modulo_uff_tables_of_four_and_five_a_withdrawal_a_disqualification_a_replacement_and_the_final(
    services: Services, tmp_path: Path
):
    await uff_evening(services)
    await identities(services)
    export = read_export(await services.exports.tournament(ORGANIZER, tournament="Coppa"))
    data = modulo_workbook(export)
    judged(data, tmp_path)
    book = load_workbook(io.BytesIO(data))
    assert [ws.title for ws in book.worksheets] == ["TORNEO", "Iscritti", "1° Turno", "2° Turno", "3° Turno",
                                                    "4° Turno", "Classifica Ridotta"]  # fmt: skip
    reduced = list(book["Classifica Ridotta"].iter_rows(min_row=2, values_only=True))
    final = next(iter(book["4° Turno"].iter_rows(min_row=2, max_row=2, values_only=True)))
    finalists_by_points = sorted(((final[i + 2], final[i]) for i in range(0, len(final), 3) if final[i]),
                                 reverse=True)  # fmt: skip
    assert [row[4] for row in reduced[:4]] == [pid for _, pid in finalists_by_points]  # the final's order
    assert book["TORNEO"]["D6"].value == 4 and book["TORNEO"]["D3"].value == "ROMA [Il Gufo]"


async def test_modulo_np_knockout(services: Services, tmp_path: Path):
    await setup_knockout(services, 25)
    for number in (1, 2):
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        await report(services, number)
        await services.rounds.close(ORGANIZER, tournament="Coppa")
    await identities(services)
    data = modulo_workbook(read_export(await services.exports.tournament(ORGANIZER, tournament="Coppa")))
    judged(data, tmp_path)
    assert load_workbook(io.BytesIO(data))["TORNEO"]["D6"].value == 2  # the plan: 25 → 5 tables → the final


async def test_modulo_np_team_event_as_a_team_tournament(services: Services, tmp_path: Path):
    teams = {i: {"team": ["Aquile", "Lupi", "Orsi", "Falchi"][i % 4]} for i in range(16)}
    await setup_tournament(services, 16, preset="risiko-nostra-passione-2018", extra=teams)
    for number in (1, 2):
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        await report(services, number)
        await services.rounds.close(ORGANIZER, tournament="Coppa")
    await identities(services, type="Torneo a Squadre")
    judged(modulo_workbook(read_export(await services.exports.tournament(ORGANIZER, tournament="Coppa"))), tmp_path)


async def test_modulo_firk_two_rounds(services: Services, tmp_path: Path):
    await setup_tournament(services, 12, preset="risiko-firk-1")
    for number in (1, 2):
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        await report(services, number)
        await services.rounds.close(ORGANIZER, tournament="Coppa")
    await identities(services)
    judged(modulo_workbook(read_export(await services.exports.tournament(ORGANIZER, tournament="Coppa"))), tmp_path)


async def test_modulo_refuses_naming_the_players_without_a_surname_and_the_missing_organiser(services: Services):
    await setup_tournament(services, 8)
    for number in (1,):
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        await report(services, number)
    export = read_export(await services.exports.tournament(ORGANIZER, tournament="Coppa"))
    with pytest.raises(ModuloRefused) as refused:
        modulo_workbook(export)
    codes = {p.code: p.names for p in refused.value.problems}
    assert set(codes) == {"no_organiser", "no_first_name", "no_surname", "no_birth_or_national_id"}
    assert len(codes["no_surname"]) == 8 and "Giocatore 00" in codes["no_surname"]
    view, problems = await services.publishing.check(ORGANIZER, tournament="Coppa")  # the same list, in the bot
    assert not view.on and {p.code for p in problems} == set(codes)
    await identities(services)
    _, problems = await services.publishing.check(ORGANIZER, tournament="Coppa")
    assert problems == []


async def test_publishing_warns_of_a_probable_duplicate_as_the_national_side_refuses_it(services: Services):
    await setup_tournament(services, 4)
    for player in ("Giocatore 00", "Giocatore 01"):
        done = await services.publishing.identity(ORGANIZER, tournament="Coppa", player=player, first_name="Anna",
                                                  surname="Rossi", birth_date="01/02/1990")  # fmt: skip
    assert done.duplicates == ("Giocatore 00",)


async def test_a_modulo_workbook_round_trips_through_import(services: Services, tmp_path: Path):
    """A ModuloTorneo workbook imported as a finished tournament writes back the same workbook: every value of
    TORNEO, Iscritti, the rounds and the reduced standings."""
    await uff_evening(services)
    await identities(services)
    first = modulo_workbook(read_export(await services.exports.tournament(ORGANIZER, tournament="Coppa")))
    admin = Actor(guild_id=333, user_id=1, is_admin=True)  # another club's server
    await services.setup.set_roles(admin, organizer_role_id=1, referee_role_id=2, head_referee_role_id=3)
    done = await services.imports.modulo(admin, data=first, preset="risiko-ufficiali-2018")
    assert (done.tournament_name, done.rounds) == ("Coppa", 4)
    again = modulo_workbook(read_export(await services.exports.tournament(admin, tournament="Coppa")), ModuloOptions())
    judged(again, tmp_path)

    def values(data: bytes) -> dict[str, list[tuple[Any, ...]]]:
        book = load_workbook(io.BytesIO(data))
        return {ws.title: [tuple(r) for r in ws.iter_rows(values_only=True)] for ws in book.worksheets}

    assert values(again) == values(first)


async def test_the_roster_import_reads_identity_columns_and_a_publishing_tournament_exports_them(services: Services):
    from bot.files.players import IDENTITY_HEADER
    from bot.present.roster import roster_table

    await setup_tournament(services, 0)
    await services.publishing.settings(ORGANIZER, tournament="Coppa", organiser="ROMA [Il Gufo]")
    data = (
        b"nome;club;nome proprio;cognome;data di nascita;id nazionale;regione\n"
        b"Anna R.;Lupi;Anna;Rossi;03/04/1990;12345;LAZIO\n"
        b"Bruno;Orsi;Bruno;Verdi;1988-11-02;;\n"
    )
    outcome = await services.roster.import_csv(ORGANIZER, tournament="Coppa", data=data, workbook=False)
    assert outcome.imported == 2 and not outcome.problems
    table = roster_table(await services.roster.export(ORGANIZER, tournament="Coppa"))
    assert table.header[-5:] == IDENTITY_HEADER
    rows = {row[0]: row[-5:] for row in table.rows}
    assert rows == {"Anna R.": ("Anna", "Rossi", "03/04/1990", "12345", "LAZIO"),
                    "Bruno": ("Bruno", "Verdi", "02/11/1988", None, None)}  # fmt: skip
    bad = b"nome;data di nascita;id nazionale\nCarla;31/02/1990;x12\n"
    refused = await services.roster.import_csv(ORGANIZER, tournament="Coppa", data=bad, workbook=False)
    assert refused.imported == 0 and [p.key for p in refused.problems] == ["csv.error.birth_date",
                                                                         "csv.error.national_id"]  # fmt: skip
