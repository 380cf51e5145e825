"""All the data out (``steward-export/1``, docs/export.md): a tournament as one JSON document — players, rounds with
their draws, tables, reports and signatures, sanctions and appeals, the standings and the final classification.

A player's id in the document is their registration id, or — for a tournament imported from such a document — the
id they had there (``Registration.source_id``), so every draw document inside still names the same players and
``steward verify`` / ``steward draw`` replay it. Discord accounts are not exported.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from bot.db.documents import DrawDocument
from bot.db.models import Registration, Round, RoundStatus
from bot.rules.tournament.export import EXPORT_SCHEMA, iso
from bot.services._base import BaseService, UseCase, id_of
from bot.services.access import STAFF, Actor
from bot.services.classification import classification_in
from bot.services.standings import StandingsService


def _doc_id(reg: Registration) -> int:
    return int(reg.source_id or id_of(reg))


def _round_date(r: Round) -> str | None:
    when: datetime | None = r.scheduled_start or r.published_at
    return when.date().isoformat() if when is not None else None


async def export_document(uc: UseCase, standings: StandingsService, *, now: datetime) -> dict[str, Any]:
    """The whole-tournament document of the use case's tournament (inside its transaction)."""
    t, tid = uc.tournament, uc.tournament_id
    rules = uc.rules.tournament
    regs = list(await uc.registrations.listed(tournament_id=tid))
    doc_id = {id_of(r): _doc_id(r) for r in regs}
    rounds = list(await uc.rounds.list_rounds(tournament_id=tid))
    tables = await uc.rounds.list_tables_for_rounds(round_ids=[id_of(r) for r in rounds])
    table_ids = [id_of(gt) for gt in tables]
    seats: dict[int, list[Any]] = defaultdict(list)
    for s in await uc.rounds.list_seats_for_tables(table_ids=table_ids):
        seats[s.table_id].append(s)
    results: dict[int, list[Any]] = defaultdict(list)
    for res in await uc.rounds.list_results_for_tables(table_ids=table_ids):
        results[res.table_id].append(res)
    by_round: dict[int, list[Any]] = defaultdict(list)
    for gt in tables:
        by_round[gt.round_id].append(gt)
    round_number = {r.id: r.number for r in rounds}
    table_number = {gt.id: gt.number for gt in tables}

    rounds_out = []
    for r in rounds:
        draw = DrawDocument.from_json(r.draw_report)
        group_of = {number: group.label for group in draw.groups for number in group.tables}
        tables_out = []
        for gt in sorted(by_round.get(id_of(r), []), key=lambda x: x.number):
            report: dict[str, Any] = {"locked": gt.locked}
            if gt.final_situation:
                report["kind"] = gt.final_situation.get("kind")
                report["input"] = dict(gt.final_situation.get("input") or {})
            if gt.reported_at is not None:
                report["reported_at"] = iso(gt.reported_at)
            if gt.countersigned_at is not None:
                report["countersigned_at"] = iso(gt.countersigned_at)
            report["results"] = [
                {
                    "player": doc_id[res.registration_id],
                    "table_points": res.table_points,
                    "rank": res.table_rank,
                    "tournament_points": res.tournament_points,
                    "outcome": res.outcome,
                    "adjustment": res.points_adjustment,
                    "signed_at": iso(res.signed_at),
                    "tiebreak": res.tiebreak,
                }
                for res in sorted(results.get(gt.id, []), key=lambda x: (x.table_rank or 99, x.registration_id))
            ]
            table: dict[str, Any] = {
                "number": gt.number,
                "seats": [doc_id[s.registration_id] for s in sorted(seats.get(gt.id, []), key=lambda s: s.position)],
                "report": report,
            }
            for key, value in (
                ("size", gt.size),
                ("special", draw.special_tables.get(gt.number)),
                ("note", gt.note),
                ("group", group_of.get(gt.number)),
            ):
                if value is not None and value != "all":
                    table[key] = value
            tables_out.append(table)
        item: dict[str, Any] = {"number": r.number, "kind": r.kind, "status": r.status, "tables": tables_out}
        if r.draw_seed is not None:
            item["seed"] = r.draw_seed
        if r.draw_report:
            item["draw"] = r.draw_report
        if (day := _round_date(r)) is not None:
            item["date"] = day
        rounds_out.append(item)

    sanctions_out = []
    for sn in await uc.sanctions.sanction_list(tournament_id=tid):
        sanction: dict[str, Any] = {
            "case": sn.case_number,
            "player": doc_id[sn.registration_id],
            "kind": sn.kind,
            "offence": sn.offence,
            "consequence": sn.consequence,
            "appeal": {"state": sn.appeal_state},
        }
        for key, value in (
            ("round", round_number.get(sn.round_id) if sn.round_id else None),
            ("table", table_number.get(sn.table_id) if sn.table_id else None),
            ("article", sn.article),
            ("infraction", sn.infraction),
            ("points", sn.points),
            ("details", sn.details),
            ("created_at", iso(sn.created_at)),
            ("revoked_at", iso(sn.revoked_at)),
            ("revoke_reason", sn.revoke_reason),
        ):
            if value is not None:
                sanction[key] = value
        for key, value in (
            ("reason", sn.appeal_reason),
            ("appealed_at", iso(sn.appealed_at)),
            ("decided_at", iso(sn.appeal_decided_at)),
            ("note", sn.appeal_note),
        ):
            if value is not None:
                sanction["appeal"][key] = value
        sanctions_out.append(sanction)

    view = await standings.compute_in(uc)
    final = await classification_in(uc, standings, view)
    players_out = []
    for reg in sorted(regs, key=_doc_id):
        player: dict[str, Any] = {"id": _doc_id(reg), "name": reg.display_name, "status": reg.status}
        for key, value in (
            ("club", reg.club),
            ("team", reg.team),
            ("family_group", reg.family_group),
            ("previous_rank", reg.previous_rank),
            ("first_name", reg.first_name),
            ("surname", reg.surname),
            ("national_id", reg.national_id),
            ("birth_date", iso(reg.birth_date)),
            ("region", reg.region),
        ):
            if value is not None:
                player[key] = value
        players_out.append(player)
    return {
        "schema": EXPORT_SCHEMA,
        "exported_at": iso(now),
        "tournament": {
            "name": t.name,
            "game": t.game,
            "preset": t.preset,
            "overrides": dict(t.overrides or {}),
            "format": rules.format,
            "status": t.status,
            "created_at": iso(t.created_at),
            "rounds_foreseen": _rounds_foreseen(rules.qualifying_rounds, rules.semifinal_tables, rounds),
            **({"publishing": dict(t.publishing)} if t.publishing else {}),
        },
        "players": players_out,
        "rounds": rounds_out,
        "sanctions": sanctions_out,
        "standings": [
            {
                "rank": line.rank,
                "player": doc_id[line.player_id],
                "points": line.points,
                "games": line.games,
                "table_points": line.table_points,
                "deductions": line.deductions,
                "standing": line.standing,
            }
            for line in view.lines
        ],
        "final_classification": (
            [{"place": line.place, "player": doc_id[line.player_id], "stage": line.stage} for line in final.lines]
            if final is not None
            else None
        ),
    }


def _rounds_foreseen(qualifying: int, semifinal_tables: int, rounds: list[Round]) -> int:
    """The rounds the tournament plays in all: its qualifying rounds and, with a final phase, the semifinals and
    the final; 0 when the preset fixes no number (the rounds played are then the count)."""
    played = [r for r in rounds if r.status != RoundStatus.PLANNED]
    if not qualifying:
        return len(played)
    return qualifying + (2 if semifinal_tables else 0)


class ExportService(BaseService):
    standings: StandingsService  # set by Services

    async def tournament(self, actor: Actor, *, tournament: str) -> dict[str, Any]:
        """The whole-tournament export (organizers and referees: it holds the sanctions)."""
        async with self.run(actor, role=STAFF, tournament=tournament) as uc:
            return await export_document(uc, self.standings, now=uc.clock())

    async def by_name(self, guild_id: int, *, tournament: str) -> dict[str, Any]:
        """The same document read by server id (the demo and the command line, which act as the organizer)."""
        async with self.run(guild_id, tournament=tournament) as uc:
            return await export_document(uc, self.standings, now=uc.clock())
