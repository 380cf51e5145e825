"""The migration ladder's data set: a club's database as the bot of any revision could have written it.

Two servers; an official RisiKo! tournament running its second round (registrations of every status, two names that
differ only in case, a waitlist, a disqualification), two NP tournaments whose names collide once case-folded, a
finished Ricochet Robots tournament; rounds, tables with threads and final situations, seats, match reports,
check-ins, sanctions at every appeal state, reminders of every kind and status, DM deliveries, members' languages,
a season of two tournaments with a sanction given to it, referee calls, a table clock and audit entries.

Name keys are written as a database that went through 0005 holds them (the second "Anna Rossi" and "COPPA" end
with their row id); written before 0005, the migration must derive the same. Each row names the columns that carry
meaning; :func:`fill` gives every other column of the table *as it exists at the revision being written* a value of
its type, so every column of every table holds data and a column a later migration adds is covered without touching
this file. A table no row here writes fails the ladder test: a new table needs its rows here.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

T0 = datetime(2026, 3, 7, 20, 30, tzinfo=UTC)
G1, G2 = 111_111_111_111_111_111, 222_222_222_222_222_222  # two Discord servers


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def _registrations() -> list[dict[str, Any]]:
    names = [
        ("Anna Rossi", "Lupi", "validated"),
        ("ANNA ROSSI", "Orsi", "validated"),
        ("Bruno", "Lupi", "validated"),
        ("Carla", "Aquile", "validated"),
        ("Dario", "Orsi", "validated"),
        ("Elena", "Aquile", "validated"),
        ("Fabio", "Lupi", "validated"),
        ("Giulia", None, "validated"),
        ("Ivo", "Orsi", "disqualified"),
        ("Luca", "Aquile", "withdrawn"),
        ("Marta", "Lupi", "waitlisted"),
        ("Nino", None, "registered"),
    ]
    rows = []
    for i, (name, club, status) in enumerate(names, start=1):
        rows.append(
            {
                "id": i,
                "guild_id": G1,
                "tournament_id": 1,
                "user_id": None if i == 8 else 900 + i,
                "display_name": name,
                "name_key": name.casefold() + ("#2" if i == 2 else ""),
                "club": club,
                "team": None,
                "family_group": "Rossi" if i == 2 else None,
                "previous_rank": i if i <= 6 else None,
                "notes": "arriva tardi" if i == 3 else None,
                "status": status,
                "registered_at": at(-200 + i),
                "validated_at": at(-20) if status in ("validated", "disqualified") else None,
                "withdrawn_at": at(-1) if status == "withdrawn" else None,
            }
        )
    for i, name in enumerate(["Ada", "Ben", "Cleo", "Dan"], start=13):
        rows.append(
            {
                "id": i,
                "guild_id": G2,
                "tournament_id": 4,
                "user_id": 900 + i,
                "display_name": name,
                "name_key": name.casefold(),
                "club": "Robots",
                "status": "validated",
                "registered_at": at(-300 + i),
            }
        )
    return rows


def rows() -> list[tuple[str, dict[str, Any]]]:
    """(table, row) in an order that respects foreign keys."""
    out: list[tuple[str, dict[str, Any]]] = []

    def add(table: str, *items: dict[str, Any]) -> None:
        out.extend((table, item) for item in items)

    add(
        "guild_config",
        {
            "id": 1,
            "guild_id": G1,
            "organizer_role_id": 501,
            "referee_role_id": 502,
            "head_referee_role_id": 503,
            "player_role_id": None,
            "announcement_channel_id": 601,
            "locale": "it",
            "timezone": "Europe/Rome",
            "next_case_number": 4,
            "created_at": at(-400),
            "updated_at": at(-10),
        },
        {
            "id": 2,
            "guild_id": G2,
            "organizer_role_id": 511,
            "referee_role_id": 512,
            "locale": "en",
            "timezone": "Europe/London",
            "next_case_number": 1,
            "created_at": at(-500),
            "updated_at": at(-500),
        },
    )
    add(
        "tournament",
        {
            "id": 1,
            "guild_id": G1,
            "name": "Torneo d'Autunno",
            "name_key": "torneo d'autunno",
            "game": "risiko",
            "preset": "risiko-ufficiali-2018",
            "overrides": {"qualifying_rounds": 3},
            "status": "running",
            "registration_deadline": at(-24),
            "cap": 10,
            "created_by": 701,
            "created_at": at(-400),
        },
        {
            "id": 2,
            "guild_id": G1,
            "name": "Coppa",
            "name_key": "coppa",
            "game": "risiko",
            "preset": "risiko-nostra-passione-2018",
            "overrides": {},
            "status": "registration_open",
            "cap": None,
            "created_at": at(-100),
        },
        {
            "id": 3,
            "guild_id": G1,
            "name": "COPPA",
            "name_key": "coppa#3",
            "game": "risiko",
            "preset": "risiko-nostra-passione-2018",
            "overrides": {},
            "status": "cancelled",
            "created_at": at(-90),
        },
        {
            "id": 4,
            "guild_id": G2,
            "name": "RR Cup",
            "name_key": "rr cup",
            "game": "ricochet",
            "preset": "ricochet-v3.3",
            "overrides": {},
            "status": "finished",
            "created_at": at(-600),
        },
    )
    add("registration", *_registrations())
    add(
        "round",
        {
            "id": 1,
            "guild_id": G1,
            "tournament_id": 1,
            "number": 1,
            "kind": "qualifying",
            "scheduled_start": at(0),
            "draw_seed": 2**62 + 5,
            "draw_report": {"criteria": [0, 2, 1], "optimal": True},
            "status": "closed",
            "published_at": at(-1),
            "announcement_message_id": 801,
            "discord_event_id": 851,
            "created_at": at(-30),
        },
        {
            "id": 2,
            "guild_id": G1,
            "tournament_id": 1,
            "number": 2,
            "kind": "qualifying",
            "scheduled_start": at(3),
            "draw_seed": 77,
            "draw_report": {"criteria": [0, 0, 0]},
            "status": "published",
            "published_at": at(2.5),
            "announcement_message_id": 802,
            "created_at": at(2),
        },
        {
            "id": 3,
            "guild_id": G1,
            "tournament_id": 1,
            "number": 3,
            "kind": "semifinal",
            "status": "planned",
            "created_at": at(2.8),
        },
        {
            "id": 4,
            "guild_id": G2,
            "tournament_id": 4,
            "number": 1,
            "kind": "qualifying",
            "status": "closed",
            "scheduled_start": at(-500),
            "created_at": at(-510),
        },
    )
    situation = {"input": {"territories": {"alaska": {"owner": "Anna Rossi", "armies": 3}}}, "explanation": ["ok"]}
    add(
        "game_table",
        {
            "id": 1,
            "guild_id": G1,
            "round_id": 1,
            "number": 1,
            "size": 4,
            "thread_id": 1001,
            "thread_requested_at": at(-0.9),
            "thread_pinged": True,
            "final_situation": situation,
            "reported_by": 902,
            "reported_at": at(2),
            "countersigned_by": 502,
            "countersigned_at": at(2.1),
            "locked": True,
        },
        {
            "id": 2,
            "guild_id": G1,
            "round_id": 1,
            "number": 2,
            "size": 4,
            "note": "il morto gioca per ultimo",
            "thread_id": 1002,
            "reported_by": 502,
            "reported_at": at(2),
            "locked": True,
        },
        {"id": 3, "guild_id": G1, "round_id": 2, "number": 1, "thread_id": 1003, "locked": False},
        {"id": 4, "guild_id": G1, "round_id": 2, "number": 2, "thread_id": None, "locked": False},
        {"id": 5, "guild_id": G2, "round_id": 4, "number": 1, "locked": True},
    )
    seating = {1: [1, 2, 3, 4], 2: [5, 6, 7, 8], 3: [1, 5, 2, 6], 4: [3, 7, 4, 8], 5: [13, 14, 15, 16]}
    seat_id = 0
    for table, regs in seating.items():
        for position, reg in enumerate(regs, start=1):
            seat_id += 1
            add(
                "seat",
                {
                    "id": seat_id,
                    "guild_id": G2 if table == 5 else G1,
                    "table_id": table,
                    "registration_id": reg,
                    "position": position,
                },
            )
    result_id = 0
    for table in (1, 2, 5):
        for rank, reg in enumerate(seating[table], start=1):
            result_id += 1
            add(
                "table_result",
                {
                    "id": result_id,
                    "guild_id": G2 if table == 5 else G1,
                    "table_id": table,
                    "registration_id": reg,
                    "table_points": 100.0 - 20 * rank,
                    "table_rank": rank,
                    "tournament_points": 10.5 - rank,
                    "tiebreak": {"objective": rank == 1, "armies": 30 - rank},
                    "outcome": "played" if rank < 4 else "withdrawn",
                    "points_adjustment": -7.0 if reg == 2 else 0.0,
                    "entered_by": 502,
                    "signed_at": at(2.05),
                    "locked": True,
                },
            )
    for i, reg in enumerate([1, 2, 3, 5, 6, 7], start=1):
        add(
            "check_in",
            {
                "id": i,
                "guild_id": G1,
                "round_id": 2,
                "registration_id": reg,
                "status": "late" if reg == 3 else "present",
                "minutes_late": 12 if reg == 3 else 0,
                "checked_in_at": at(2.9 + i / 100),
                "marked_by": 502 if reg == 3 else None,
            },
        )
    add(
        "sanction",
        {
            "id": 1,
            "guild_id": G1,
            "case_number": 1,
            "kind": "warning",
            "article": "ARB 27",
            "registration_id": 2,
            "tournament_id": 1,
            "round_id": 1,
            "table_id": 1,
            "referee_id": 502,
            "details": "patto non dichiarato",
            "infraction": "undeclared_pact",
            "offence": 1,
            "proposed_kind": "warning",
            "consequence": "recorded",
            "appeal_state": "none",
            "created_at": at(1),
        },
        {
            "id": 2,
            "guild_id": G1,
            "case_number": 2,
            "kind": "points_penalty",
            "article": "ARB 27",
            "registration_id": 5,
            "tournament_id": 1,
            "round_id": 1,
            "table_id": 2,
            "referee_id": 502,
            "infraction": "undeclared_pact",
            "offence": 2,
            "proposed_kind": "points_penalty",
            "consequence": "standings_points",
            "points": -7.0,
            "appeal_state": "upheld",
            "appeal_reason": "non era un patto",
            "appealed_at": at(1.5),
            "appeal_decided_by": 503,
            "appeal_decided_at": at(1.7),
            "appeal_note": "confermata",
            "created_at": at(1.2),
        },
        {
            "id": 3,
            "guild_id": G1,
            "case_number": 3,
            "kind": "disqualification",
            "article": "ARB 27",
            "registration_id": 9,
            "tournament_id": 1,
            "round_id": 2,
            "table_id": None,
            "referee_id": 503,
            "infraction": "undeclared_pact",
            "offence": 3,
            "consequence": "disqualified",
            "previous_status": "validated",
            "revoked_at": None,
            "appeal_state": "pending",
            "appeal_reason": "ricorso",
            "appealed_at": at(2.6),
            "created_at": at(2.5),
        },
    )
    add(
        "sanction_proposal",
        {
            "id": 1,
            "guild_id": G1,
            "referee_id": 502,
            "tournament": "Torneo d'Autunno",
            "player": "Bruno",
            "user_id": None,
            "infraction": "undeclared_pact",
            "cards_in_hand": 3,
            "points": None,
            "round_number": 2,
            "table_number": 1,
            "details": "secondo patto",
            "kind": None,
            "created_at": at(3.1),
            "confirmed_at": None,
            "case_number": None,
        },
        {
            "id": 2,
            "guild_id": G1,
            "referee_id": 503,
            "tournament": "Torneo d'Autunno",
            "player": None,
            "user_id": 909,
            "infraction": "undeclared_pact",
            "cards_in_hand": 0,
            "points": None,
            "round_number": None,
            "table_number": None,
            "details": None,
            "kind": "disqualification",
            "created_at": at(2.4),
            "confirmed_at": at(2.5),
            "case_number": 3,
        },
    )
    add(
        "scheduled_reminder",
        # sent before this row's revision knew statuses: delivered_at is the only trace
        {
            "id": 1,
            "guild_id": G1,
            "tournament_id": 1,
            "round_id": 1,
            "kind": "round_reminder",
            "offset_minutes": 60,
            "channel_id": 601,
            "due_at": at(-1),
            "status": "delivered",
            "claimed_at": at(-1),
            "claimed_by": "host:1",
            "attempts": 1,
            "delivered_at": at(-1),
            "created_by": 701,
            "created_at": at(-30),
        },
        {
            "id": 2,
            "guild_id": G1,
            "tournament_id": 1,
            "round_id": 2,
            "kind": "round_reminder",
            "offset_minutes": 10,
            "channel_id": 601,
            "due_at": at(2.83),
            "status": "pending",
            "delivered_at": None,
            "claimed_at": None,
            "claimed_by": None,
            "attempts": 0,
            "outcome": None,
            "created_at": at(2),
        },
        {
            "id": 3,
            "guild_id": G1,
            "tournament_id": 1,
            "kind": "announcement",
            "channel_id": 601,
            "image": "standings",
            "message": "Classifica dopo il primo turno",
            "due_at": at(30),
            "status": "pending",
            "delivered_at": None,
            "claimed_at": None,
            "claimed_by": None,
            "attempts": 0,
            "outcome": None,
            "created_by": 701,
            "created_at": at(2),
        },
        {
            "id": 4,
            "guild_id": G1,
            "tournament_id": 2,
            "kind": "registration_close",
            "due_at": at(100),
            "status": "cancelled",
            "delivered_at": None,
            "claimed_at": None,
            "claimed_by": None,
            "attempts": 0,
            "outcome": "moved",
            "created_at": at(-100),
        },
        {
            "id": 5,
            "guild_id": G1,
            "tournament_id": 1,
            "round_id": 2,
            "table_id": 3,
            "kind": "clock_call",
            "call": "sdadata",
            "channel_id": 1003,
            "due_at": at(5),
            "status": "pending",
            "delivered_at": None,
            "claimed_at": None,
            "claimed_by": None,
            "attempts": 0,
            "outcome": None,
            "created_at": at(3),
        },
    )
    add(
        "dm_delivery",
        {
            "id": 1,
            "guild_id": G1,
            "tournament_id": 1,
            "reminder_id": 1,
            "user_id": 901,
            "ok": True,
            "error": None,
            "at": at(-1),
        },
        {
            "id": 2,
            "guild_id": G1,
            "tournament_id": 1,
            "reminder_id": 1,
            "user_id": 902,
            "ok": False,
            "error": "forbidden",
            "at": at(-1),
        },
    )
    add(  # 0010: the language each member's interactions carried (the same player in two servers: two rows)
        "member_locale",
        {"id": 1, "guild_id": G1, "user_id": 901, "locale": "en", "updated_at": at(-2)},
        {"id": 2, "guild_id": G1, "user_id": 902, "locale": "it", "updated_at": at(-3)},
        {"id": 3, "guild_id": G2, "user_id": 901, "locale": "it", "updated_at": at(-4)},
    )
    add(  # 0011: a season of the two NP tournaments, and a sanction given to the season's ranking
        "season",
        {"id": 1, "guild_id": G1, "name": "Progetto 2026", "name_key": "progetto 2026",
         "preset": "risiko-nostra-passione-2018", "created_by": 701, "created_at": at(-300)},
    )  # fmt: skip
    add(
        "season_tournament",
        {"id": 1, "guild_id": G1, "season_id": 1, "tournament_id": 2, "position": 1, "attached_at": at(-299)},
        {"id": 2, "guild_id": G1, "season_id": 1, "tournament_id": 3, "position": 2, "attached_at": at(-298)},
    )
    add(
        "season_sanction",
        {"id": 1, "guild_id": G1, "season_id": 1, "sanction_id": 1, "given_at": 3, "created_at": at(2)},
    )
    add(  # 0014: a ranked one-off game recorded into the season, its players by account and by name
        "season_game",
        {"id": 1, "guild_id": G1, "season_id": 1, "number": 1, "given_at": 3, "recorded_by": 701,
         "created_at": at(3), "voided_by": None, "voided_at": None},
    )  # fmt: skip
    add(
        "season_game_player",
        {"id": 1, "guild_id": G1, "game_id": 1, "user_id": 903, "display_name": "Bruno", "name_key": "bruno",
         "place": 1, "table_points": 61.0},
        {"id": 2, "guild_id": G1, "game_id": 1, "user_id": None, "display_name": "Giulia", "name_key": "giulia",
         "place": 2, "table_points": None},
    )  # fmt: skip
    add(  # 0015: a table's report page in the middle of its entry (issue 42)
        "report_draft",
        {"id": 1, "table_id": 1, "guild_id": G1, "round_id": 1, "number": 1, "version": 7, "updated_at": at(0.9),
         "draft": {"territories": {"Alaska": {"seat": 0, "armies": 3}}, "objectives": {"0": "Letto"}, "status": {},
                   "achieved": {}, "frozen": {}, "cards": {}, "points": {}}},
    )  # fmt: skip
    add(
        "referee_call",
        {
            "id": 1,
            "guild_id": G1,
            "tournament_id": 1,
            "round_id": 1,
            "table_id": 1,
            "caller_id": 901,
            "note": "dubbio sul limite",
            "created_at": at(0.5),
            "claimed_by": 502,
            "claimed_at": at(0.51),
        },
        {
            "id": 2,
            "guild_id": G1,
            "tournament_id": 1,
            "round_id": 2,
            "table_id": 4,
            "caller_id": 903,
            "note": None,
            "created_at": at(3.2),
            "claimed_by": None,
            "claimed_at": None,
        },
    )
    add(
        "table_clock",
        {
            "id": 1,
            "guild_id": G1,
            "table_id": 3,
            "started_at": at(3),
            "started_by": 502,
            "paused_at": None,
            "paused_seconds": 240,
            "pauses": 1,
            "turns_completed": 2,
            "tracker": {"turn": 3, "rolls": []},
            "time_up_at": None,
            "ended_at": None,
        },
    )
    add(
        "audit_log",
        {
            "id": 1,
            "guild_id": G1,
            "actor_id": 701,
            "action": "tournament.create",
            "entity": "tournament",
            "entity_id": 1,
            "details": {"preset": "risiko-ufficiali-2018"},
            "created_at": at(-400),
        },
        {
            "id": 2,
            "guild_id": G1,
            "actor_id": 502,
            "action": "sanction.give",
            "entity": "sanction",
            "entity_id": 1,
            "details": {"case": 1, "kind": "warning"},
            "created_at": at(1),
        },
        {
            "id": 3,
            "guild_id": G2,
            "actor_id": None,
            "action": "schedule.dropped",
            "entity": "scheduled_reminder",
            "entity_id": None,
            "details": {},
            "created_at": at(-500),
        },
    )
    return out


def _value_for(column: sa.Column[Any], n: int, dialect: str) -> Any:
    """A value of the column's type, different for every row (``n``)."""
    kind = column.type
    if isinstance(kind, sa.Boolean):
        return n % 2 == 0
    if isinstance(kind, sa.Integer):
        return 7_000 + n
    if isinstance(kind, sa.Float | sa.Numeric):
        return n + 0.25
    if isinstance(kind, sa.DateTime):
        return at(n)
    if isinstance(kind, sa.Date):  # a calendar day (a player's birth date)
        return (T0 - timedelta(days=10_000 + n)).date()
    if isinstance(kind, sa.JSON):
        return {"filled": n}
    if isinstance(kind, sa.String):
        text = f"{column.name}-{n}"
        return text[: kind.length] if kind.length else text
    raise AssertionError(f"no ladder value for {column.table.name}.{column.name} ({kind!r}): teach ladder_data")


def fill(table: sa.Table, row: dict[str, Any], n: int, dialect: str) -> dict[str, Any]:
    """``row`` cut to the table's columns at this revision, every other column given a value (a foreign key only
    when it may be empty: then it stays empty), datetimes as the backend stores them."""
    out: dict[str, Any] = {}
    for column in table.columns:
        if column.name in row:
            value = row[column.name]
        elif column.foreign_keys:
            assert column.nullable, f"ladder_data: give {table.name}.{column.name} (a required foreign key)"
            value = None
        else:
            value = _value_for(column, n, dialect)
        if isinstance(value, datetime) and dialect == "sqlite":
            value = value.astimezone(UTC).replace(tzinfo=None)  # as the bot stores it (naive UTC)
        out[column.name] = value
    return out
