"""Who may use each command and button: declared once, here (BOT-ROLE-1).

The services enforce it (``require``, the seat and registration checks) because the command line and the demo call
them too; this table says what they enforce, in one place a reader can check. ``tests/cogs/test_persona_matrix.py``
invokes every command and button as every persona and holds the two together, and a test requires the README's
permissions table to be :func:`markdown_table`, so the README cannot drift from the code either.
"""

from __future__ import annotations

from enum import StrEnum


class Audience(StrEnum):
    ANYONE = "anyone"  # every member of the server
    PLAYER = "player"  # who may register: the player role, when the server maps one (else every member)
    ENTRANT = "entrant"  # a player registered in the tournament: their own entry, table, games and record
    SANCTIONED = "sanctioned"  # the player the sanction is about (an appeal)
    SEATED = "seated"  # a player seated at the table (a report's signature is the players' own)
    TABLE = "table"  # a player seated at the table, or a referee
    TABLE_OR_STAFF = "table_or_staff"  # a player seated at the table (their own table only), or referees and organizers
    ADJUDICATOR = "adjudicator"  # anyone while no round of the server is being played; referees and organizers always
    STAFF = "staff"  # organizers and referees
    REFEREE = "referee"  # referees (a head referee is a referee)
    HEAD_REFEREE = "head_referee"
    ORGANIZER = "organizer"
    ADMIN = "admin"  # the server's administrators (Discord's Administrator permission)


# Every slash command by its qualified English name. Administrators pass every role check.
COMMANDS: dict[str, Audience] = {
    "setup roles": Audience.ADMIN,
    "setup timezone": Audience.ADMIN,
    "tournament create": Audience.ORGANIZER,
    "tournament edit": Audience.ORGANIZER,
    "tournament close": Audience.ORGANIZER,
    "tournament validate": Audience.STAFF,
    "tournament export": Audience.STAFF,
    "tournament delete": Audience.ORGANIZER,
    "publishing settings": Audience.ORGANIZER,
    "publishing player": Audience.ORGANIZER,
    "publishing me": Audience.ENTRANT,
    "publishing check": Audience.ORGANIZER,
    "history import": Audience.ORGANIZER,
    "tournaments list": Audience.ANYONE,
    "tournaments show": Audience.ANYONE,
    "roster import": Audience.ORGANIZER,
    "roster export": Audience.STAFF,
    "register": Audience.PLAYER,
    "withdraw": Audience.ENTRANT,
    "players": Audience.ANYONE,
    "player add": Audience.ORGANIZER,
    "player remove": Audience.ORGANIZER,
    "player edit": Audience.ORGANIZER,
    "checkin": Audience.ENTRANT,
    "forfeit": Audience.ENTRANT,
    "arrival": Audience.STAFF,
    "round plan": Audience.ORGANIZER,
    "round draw": Audience.ORGANIZER,
    "round redraw": Audience.ORGANIZER,
    "round swap": Audience.ORGANIZER,
    "round move": Audience.ORGANIZER,
    "replace": Audience.ORGANIZER,
    "round publish": Audience.ORGANIZER,
    "round close": Audience.ORGANIZER,
    "finals semifinals": Audience.ORGANIZER,
    "finals final": Audience.ORGANIZER,
    "finals decline": Audience.ORGANIZER,
    "tables": Audience.ANYONE,
    "my-table": Audience.ENTRANT,
    "report enter": Audience.TABLE,
    "report situation": Audience.TABLE,
    "report page": Audience.TABLE,
    "my-games": Audience.ENTRANT,
    "review note": Audience.REFEREE,
    "review countersign": Audience.REFEREE,
    "review correct": Audience.REFEREE,
    "review repair": Audience.HEAD_REFEREE,
    "standings show": Audience.ANYONE,
    "standings export": Audience.ANYONE,
    "season create": Audience.ORGANIZER,
    "season attach": Audience.ORGANIZER,
    "season scheme": Audience.ORGANIZER,
    "season event": Audience.ORGANIZER,
    "season game": Audience.ORGANIZER,
    "season void": Audience.ORGANIZER,
    "season show": Audience.ANYONE,
    "season export": Audience.ANYONE,
    "season sanction": Audience.REFEREE,
    "sanction give": Audience.REFEREE,
    "sanction revoke": Audience.HEAD_REFEREE,
    "sanction decide": Audience.HEAD_REFEREE,
    "sanctions list": Audience.REFEREE,
    "sanctions export": Audience.REFEREE,
    "sanctions latecomers": Audience.REFEREE,
    "record": Audience.ENTRANT,
    "appeal": Audience.SANCTIONED,
    "referee": Audience.TABLE_OR_STAFF,
    "rule": Audience.ANYONE,
    "about": Audience.ANYONE,
    "risiko battle": Audience.ADJUDICATOR,
    "risiko odds": Audience.ADJUDICATOR,
    "risiko limit": Audience.ADJUDICATOR,
    "risiko cards": Audience.ADJUDICATOR,
    "score": Audience.ADJUDICATOR,
    "rr verify": Audience.ADJUDICATOR,
    "rr solve": Audience.ADJUDICATOR,
    "schedule round": Audience.ORGANIZER,
    "schedule clear": Audience.ORGANIZER,
    "schedule deadline": Audience.ORGANIZER,
    "schedule reminders": Audience.ORGANIZER,
    "schedule list": Audience.STAFF,
    "schedule cancel": Audience.ORGANIZER,
    "announce": Audience.ORGANIZER,
    "clock start": Audience.REFEREE,
    "clock pause": Audience.REFEREE,
    "clock resume": Audience.REFEREE,
    "clock status": Audience.TABLE_OR_STAFF,
    "endgame turn": Audience.TABLE,
    "endgame roll": Audience.TABLE,
    "endgame pass": Audience.TABLE,
    "endgame out": Audience.TABLE,
    "endgame status": Audience.TABLE_OR_STAFF,
    "venue link": Audience.ORGANIZER,
    "venue revoke": Audience.ORGANIZER,
    "print round": Audience.STAFF,
    "print standings": Audience.STAFF,
}

# What a command allows beyond its audience, in the same words as the table (the README shows it).
EXTRA: dict[str, str] = {
    "record": "referees: anyone's record",
    "rule": "referees: post and pin the answer at a table",
    "tables": "organizers also see the unpublished draft",
}

# Every button and menu the bot posts, by the start of its custom id (each survives a restart: ids only).
BUTTONS: dict[str, tuple[str, Audience]] = {
    "report:sign:": ("Sign (a match report)", Audience.SEATED),
    "report:countersign:": ("Countersign (a match report)", Audience.REFEREE),
    "referee:call:": ("🛎️ Referee (a table's thread)", Audience.TABLE_OR_STAFF),
    "referee:claim:": ("I'm on it (a referee call)", Audience.REFEREE),
    "late:apply:": ("Apply (a latecomer's lateness step)", Audience.REFEREE),
    "sanction:pick:": ("the kind menu of a sanction proposal", Audience.REFEREE),
    "sanction:confirm:": ("Confirm (a sanction proposal)", Audience.REFEREE),
    "rule:more:": ("More articles (a rules desk answer)", Audience.ANYONE),
    "tournament:delete:": ("Delete for good (a test tournament with no results)", Audience.ORGANIZER),
}

WORDS: dict[Audience, str] = {
    Audience.ANYONE: "anyone",
    Audience.PLAYER: "the player role (every member when the server maps none)",
    Audience.ENTRANT: "a player registered in the tournament (their own entry)",
    Audience.SANCTIONED: "the sanctioned player",
    Audience.SEATED: "the players seated at the table",
    Audience.TABLE: "the players seated at the table, referees",
    Audience.TABLE_OR_STAFF: "the players seated at the table (their own table), referees, organizers",
    Audience.ADJUDICATOR: "anyone while no round is being played; referees and organizers always",
    Audience.STAFF: "organizers, referees",
    Audience.REFEREE: "referees (and the head referee)",
    Audience.HEAD_REFEREE: "the head referee",
    Audience.ORGANIZER: "organizers",
    Audience.ADMIN: "server administrators",
}


def markdown_table() -> str:
    """The README's permissions table: every command and button with who may use it (administrators: all)."""
    lines = ["| command or button | who may use it |", "|---|---|"]
    for name, audience in COMMANDS.items():
        extra = f"; {EXTRA[name]}" if name in EXTRA else ""
        lines.append(f"| `/{name}` | {WORDS[audience]}{extra} |")
    for label, audience in BUTTONS.values():
        lines.append(f"| {label} | {WORDS[audience]} |")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - prints the README's table
    print(markdown_table())
