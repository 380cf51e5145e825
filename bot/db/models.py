"""SQLModel tables for the whole domain as far as it is known.

Every row carries ``guild_id``: one bot serves many Discord servers and their data never mix; every query
in ``bot.db.repo`` filters on it. Discord ids are snowflakes (64-bit): always ``BigInteger``. Times are
aware UTC (``UTCDateTime`` stores naive UTC and gives back aware datetimes on SQLite and PostgreSQL alike).
Enumerations are stored as short strings so adding a value never needs a migration of a database enum; the
columns are typed with their ``StrEnum`` (``StrEnumType``): a row reads back as the member, so code compares members
(``row.status == RoundStatus.PUBLISHED``) and mypy checks it.
"""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

import sqlalchemy as sa
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from bot.rules.text import name_key

TOURNAMENT_KEY_LENGTH = 100
REGISTRATION_KEY_LENGTH = 64

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
SQLModel.metadata.naming_convention = NAMING_CONVENTION


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out, whatever the backend keeps."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime refused: {value!r} (use aware UTC)")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


log = logging.getLogger(__name__)


E = TypeVar("E", bound=StrEnum)


class StrEnumType(TypeDecorator[E], Generic[E]):
    """A ``StrEnum`` column stored as its short string (a ``VARCHAR``, no database enum, no migration): a member or
    its string is written as the string, and a row reads back as the member — rows written before the columns were
    typed hold the same strings. A string that is no member is refused on write; one met on read (a row of a newer
    release, a hand edit) is given back as the plain string, logged, rather than making the whole query fail."""

    impl = sa.String
    cache_ok = True

    def __init__(self, enum: type[E], length: int) -> None:
        super().__init__(length)
        self.enum = enum

    def process_bind_param(self, value: E | str | None, dialect: sa.Dialect) -> str | None:
        if value is None:
            return None
        return self.enum(value).value  # a member, or a string that is one: ValueError otherwise

    def process_result_value(self, value: str | None, dialect: sa.Dialect) -> E | None:
        if value is None:
            return None
        try:
            return self.enum(value)
        except ValueError:
            log.warning("%s: %r is no member, read as a plain string", self.enum.__name__, value)
            return value  # type: ignore[return-value]

    @property
    def python_type(self) -> type[E]:
        return self.enum


def _enum(enum: type[StrEnum], length: int, default: StrEnum | None = None, *, nullable: bool = False) -> Any:
    """A ``StrEnumType`` column; with no default and not nullable, a value the row must be given."""
    extra: dict[str, Any] = {"default": default} if default is not None or nullable else {}
    return Field(sa_type=StrEnumType(enum, length), nullable=nullable, **extra)


def utcnow() -> datetime:
    return datetime.now(UTC)


VENUE_TOKEN_BYTES = 24  # the venue page's URL token: 32 URL-safe characters, unguessable


def new_venue_token() -> str:
    """A tournament's venue token: the only key to its public, read-only page (never its id)."""
    return secrets.token_urlsafe(VENUE_TOKEN_BYTES)


def _snowflake(*, nullable: bool = True, index: bool = False) -> Any:
    return Field(default=None, sa_type=sa.BigInteger, nullable=nullable, index=index)


def _when(*, nullable: bool = True) -> Any:
    return Field(default=None, sa_type=UTCDateTime, nullable=nullable)


def _created() -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class TournamentStatus(StrEnum):
    REGISTRATION_OPEN = "registration_open"
    REGISTRATION_CLOSED = "registration_closed"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class RegistrationStatus(StrEnum):
    REGISTERED = "registered"
    VALIDATED = "validated"
    WAITLISTED = "waitlisted"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"


class RoundKind(StrEnum):
    QUALIFYING = "qualifying"
    SEMIFINAL = "semifinal"
    FINAL = "final"


class RoundStatus(StrEnum):
    PLANNED = "planned"
    DRAWN = "drawn"
    PUBLISHED = "published"
    CLOSED = "closed"


class CheckInStatus(StrEnum):
    PRESENT = "present"
    LATE = "late"
    ABSENT = "absent"
    FORFEIT = "forfeit"


class SeatOutcome(StrEnum):
    """How a seat's game ended for its player (RR-WD-1, RK-WD-1, FIRK-WD-1)."""

    PLAYED = "played"
    WITHDRAWN = "withdrawn"
    FORFEIT = "forfeit"
    DISQUALIFIED = "disqualified"


class AppealState(StrEnum):
    NONE = "none"
    PENDING = "pending"
    UPHELD = "upheld"  # the head referee confirms the sanction
    CHANGED = "changed"  # the head referee gives another kind
    OVERTURNED = "overturned"  # annulled: the consequences are undone


class GuildConfig(SQLModel, table=True):
    """One Discord server: its role mapping, announcement channel, locale and case counter."""

    __tablename__ = "guild_config"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, unique=True)
    organizer_role_id: int | None = _snowflake()
    referee_role_id: int | None = _snowflake()
    head_referee_role_id: int | None = _snowflake()
    player_role_id: int | None = _snowflake()
    announcement_channel_id: int | None = _snowflake()
    locale: str = Field(default="it", max_length=8)
    timezone: str = Field(default="Europe/Rome", max_length=64)  # schedules are typed in this zone (BOT-SCH-1)
    events_refused_at: datetime | None = _when()  # when the bot last said it may not create Discord events
    next_case_number: int = Field(default=1, nullable=False)
    created_at: datetime = _created()
    updated_at: datetime = _created()


class MemberLocale(SQLModel, table=True):
    """A member's Discord language ('it' or 'en') as their own interactions last carried it: the language of the
    direct messages the bot writes them (the server's when none is known)."""

    __tablename__ = "member_locale"
    __table_args__ = (sa.UniqueConstraint("guild_id", "user_id", name="uq_member_locale_guild_id_user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False)
    user_id: int = Field(sa_type=sa.BigInteger, nullable=False)
    locale: str = Field(max_length=8, nullable=False)
    updated_at: datetime = _created()


class Tournament(SQLModel, table=True):
    __tablename__ = "tournament"
    __table_args__ = (
        sa.UniqueConstraint("guild_id", "name", name="uq_tournament_guild_id_name"),
        sa.UniqueConstraint("guild_id", "name_key", name="uq_tournament_guild_id_name_key"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    name: str = Field(max_length=100)
    name_key: str = Field(default="", max_length=TOURNAMENT_KEY_LENGTH)  # tournament_key(name), set on every write
    game: str = Field(max_length=16)
    preset: str = Field(max_length=64)
    overrides: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    status: TournamentStatus = _enum(TournamentStatus, 32, TournamentStatus.REGISTRATION_OPEN)
    registration_deadline: datetime | None = _when()
    cap: int | None = Field(default=None)
    created_by: int | None = _snowflake()
    created_at: datetime = _created()
    # the venue page's token (/venue link posts it, /venue revoke replaces it); every tournament has one
    venue_token: str | None = Field(default_factory=new_venue_token, max_length=64, index=True, unique=True)
    # national publishing (ModuloTorneo): {"organiser": "ROMA [Il Gufo]", "type": "Torneo Open", "venue": "…"}; None =
    # the tournament does not publish to the national ranking
    publishing: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)


class Season(SQLModel, table=True):
    """A season: an ordered list of tournaments of one preset whose results make one ranking (NP's project, FIRK's
    year). Its name collides within the server as a tournament's does (the name key)."""

    __tablename__ = "season"
    __table_args__ = (sa.UniqueConstraint("guild_id", "name_key", name="uq_season_guild_id_name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    name: str = Field(max_length=100)
    name_key: str = Field(default="", max_length=TOURNAMENT_KEY_LENGTH)  # tournament_key(name), set on every write
    preset: str = Field(max_length=64)
    created_by: int | None = _snowflake()
    created_at: datetime = _created()
    # the club's own points ("giocatore dell'anno", bot.rules.season.PointScheme.to_data): {"per_game": 50,
    # "events": {"master": [2000, 1000, …]}, "one_off": "amichevole"}; None = the preset's points
    scheme: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)


class SeasonTournament(SQLModel, table=True):
    """A tournament's place in its season: 1 is the first. A tournament belongs to at most one season, and two
    tournaments never share a place: both are constraints."""

    __tablename__ = "season_tournament"
    __table_args__ = (
        sa.UniqueConstraint("tournament_id", name="uq_season_tournament_tournament_id"),
        sa.UniqueConstraint("season_id", "position", name="uq_season_tournament_season_id_position"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    season_id: int = Field(foreign_key="season.id", nullable=False, index=True)
    tournament_id: int = Field(foreign_key="tournament.id", nullable=False)
    position: int = Field(nullable=False)
    attached_at: datetime = _created()
    event_type: str | None = Field(default=None, max_length=32)  # the season scheme's event type ("master")


class SeasonSanction(SQLModel, table=True):
    """A sanction of the referee's desk whose standings points go to its season's ranking instead of its
    tournament's (FIRK penalità 4: "anche a livello annuale"). Its points, and whether it is in force (revoked,
    annulled on appeal), are the sanction's own; ``given_at`` is the season's latest tournament when it was given
    (the ranking before that tournament leaves it out)."""

    __tablename__ = "season_sanction"
    __table_args__ = (sa.UniqueConstraint("sanction_id", name="uq_season_sanction_sanction_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    season_id: int = Field(foreign_key="season.id", nullable=False, index=True)
    sanction_id: int = Field(foreign_key="sanction.id", nullable=False)
    given_at: int | None = Field(default=None, foreign_key="tournament.id")
    created_at: datetime = _created()


class SeasonGame(SQLModel, table=True):
    """A ranked one-off game ("amichevole classificata"): one table recorded into a season with no tournament around
    it. ``number`` is its number in the season (1 for the first); ``given_at`` the season's latest tournament when it
    was recorded (the ranking before that tournament leaves it out); a voided game stays, counting nothing."""

    __tablename__ = "season_game"
    __table_args__ = (sa.UniqueConstraint("season_id", "number", name="uq_season_game_season_id_number"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    season_id: int = Field(foreign_key="season.id", nullable=False, index=True)
    number: int = Field(nullable=False)
    given_at: int | None = Field(default=None, foreign_key="tournament.id")
    recorded_by: int | None = _snowflake()
    created_at: datetime = _created()
    voided_by: int | None = _snowflake()
    voided_at: datetime | None = _when()


class SeasonGamePlayer(SQLModel, table=True):
    """A player of a one-off game and their place (1 = won; a shared place is each one's). The same person as in the
    season's tournaments: the Discord account, else the name key (``bot.services.seasons.player_key``)."""

    __tablename__ = "season_game_player"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    game_id: int = Field(foreign_key="season_game.id", nullable=False, index=True)
    user_id: int | None = _snowflake()
    display_name: str = Field(max_length=64)
    name_key: str = Field(max_length=REGISTRATION_KEY_LENGTH)
    place: int = Field(nullable=False)
    table_points: float | None = Field(default=None)


class Registration(SQLModel, table=True):
    """A player's registration to one tournament. Two entries still in the tournament (registered, validated,
    waitlisted) cannot share a name: a partial unique index on the case-folded ``name_key``."""

    __tablename__ = "registration"
    __table_args__ = (
        sa.UniqueConstraint("tournament_id", "user_id", name="uq_registration_tournament_id_user_id"),
        sa.Index(
            "uq_registration_entered_name", "tournament_id", "name_key", unique=True,
            sqlite_where=sa.text("status IN ('registered', 'validated', 'waitlisted')"),
            postgresql_where=sa.text("status IN ('registered', 'validated', 'waitlisted')"),
        ),
    )  # fmt: skip

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    tournament_id: int = Field(foreign_key="tournament.id", nullable=False, index=True)
    user_id: int | None = _snowflake()
    display_name: str = Field(max_length=64)
    name_key: str = Field(default="", max_length=REGISTRATION_KEY_LENGTH)  # registration_key(display_name), on write
    club: str | None = Field(default=None, max_length=64)
    team: str | None = Field(default=None, max_length=64)
    family_group: str | None = Field(default=None, max_length=64)
    previous_rank: int | None = Field(default=None)  # last tournament's final rank (FIRK-SEED-1 seeding)
    notes: str | None = Field(default=None, max_length=500)
    # national publishing (the ModuloTorneo workbook's Iscritti): optional, asked when the tournament publishes
    first_name: str | None = Field(default=None, max_length=64)
    surname: str | None = Field(default=None, max_length=64)
    national_id: int | None = Field(default=None, sa_type=sa.BigInteger)  # the player's id in the national ranking
    birth_date: date | None = Field(default=None)
    region: str | None = Field(default=None, max_length=32)
    # an imported player's id in the export they came from: exports keep it, so the imported draws still replay
    source_id: int | None = Field(default=None, sa_type=sa.BigInteger)
    status: RegistrationStatus = _enum(RegistrationStatus, 16, RegistrationStatus.REGISTERED)
    registered_at: datetime = _created()
    validated_at: datetime | None = _when()
    withdrawn_at: datetime | None = _when()


class Round(SQLModel, table=True):
    __tablename__ = "round"
    __table_args__ = (sa.UniqueConstraint("tournament_id", "number", name="uq_round_tournament_id_number"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    tournament_id: int = Field(foreign_key="tournament.id", nullable=False, index=True)
    number: int
    kind: RoundKind = _enum(RoundKind, 16, RoundKind.QUALIFYING)
    scheduled_start: datetime | None = _when()
    draw_seed: int | None = Field(default=None, sa_type=sa.BigInteger)
    draw_report: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)
    status: RoundStatus = _enum(RoundStatus, 16, RoundStatus.PLANNED)
    published_at: datetime | None = _when()
    announcement_message_id: int | None = _snowflake()
    discord_event_id: int | None = _snowflake()  # the Discord scheduled event of the round, when the bot made one
    created_at: datetime = _created()


class GameTable(SQLModel, table=True):
    """A table of a round ("tavolo"); ``number`` 1 is the top table."""

    __tablename__ = "game_table"
    __table_args__ = (sa.UniqueConstraint("round_id", "number", name="uq_game_table_round_id_number"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    round_id: int = Field(foreign_key="round.id", nullable=False, index=True)
    number: int
    size: int | None = Field(default=None)  # seats incl. a FIRK dummy seat, when it differs from the players
    note: str | None = Field(default=None, max_length=500)  # the referee's note (FIRK §9: the "morto"'s special rules)
    thread_id: int | None = _snowflake()
    # each side effect of a publish is recorded, its intent first, so a publish resumed after a
    # crash does exactly what is missing: when the thread was asked of Discord (a thread made then but never stored
    # is found again, not made twice), and whether the players were told in it
    thread_requested_at: datetime | None = _when()
    thread_pinged: bool = Field(default=False, nullable=False, sa_column_kwargs={"server_default": sa.false()})
    final_situation: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)  # report input, engine explanation
    reported_by: int | None = _snowflake()
    reported_at: datetime | None = _when()
    countersigned_by: int | None = _snowflake()
    countersigned_at: datetime | None = _when()
    locked: bool = Field(default=False, nullable=False)


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (
        sa.UniqueConstraint("table_id", "registration_id", name="uq_seat_table_id_registration_id"),
        sa.UniqueConstraint("table_id", "position", name="uq_seat_table_id_position"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    table_id: int = Field(foreign_key="game_table.id", nullable=False, index=True)
    registration_id: int = Field(foreign_key="registration.id", nullable=False, index=True)
    position: int


class TableResult(SQLModel, table=True):
    """One seat's line of the match report (referto, ARB 6): points, ranks, tie-break data, signature."""

    __tablename__ = "table_result"
    __table_args__ = (
        sa.UniqueConstraint("table_id", "registration_id", name="uq_table_result_table_id_registration_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    table_id: int = Field(foreign_key="game_table.id", nullable=False, index=True)
    registration_id: int = Field(foreign_key="registration.id", nullable=False, index=True)
    table_points: float | None = Field(default=None)
    table_rank: int | None = Field(default=None)
    tournament_points: float | None = Field(default=None)
    tiebreak: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)
    outcome: SeatOutcome = _enum(SeatOutcome, 16, SeatOutcome.PLAYED)
    points_adjustment: float = Field(default=0.0, nullable=False)  # sanctions, e.g. FIRK −25 / −7
    entered_by: int | None = _snowflake()
    signed_at: datetime | None = _when()
    locked: bool = Field(default=False, nullable=False)


class ReportDraft(SQLModel, table=True):
    """What a table's report page holds while its phones enter the final situation (issue 42): one row per table,
    written a moment after the edits, read when the page opens again — a restart of the bot loses no tap older than
    that moment. No foreign key: a table redrawn away leaves a row no page reads (its round and number must match
    the table the link names)."""

    __tablename__ = "report_draft"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(nullable=False, unique=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    round_id: int = Field(nullable=False)
    number: int = Field(nullable=False)
    draft: dict[str, Any] = Field(sa_type=sa.JSON, nullable=False)
    version: int = Field(default=1, nullable=False)
    updated_at: datetime = _created()


class CheckIn(SQLModel, table=True):
    """A player's presence for one round: check-in by the player or an arrival marked by staff (BOT-REG-4)."""

    __tablename__ = "check_in"
    __table_args__ = (sa.UniqueConstraint("round_id", "registration_id", name="uq_check_in_round_id_registration_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    round_id: int = Field(foreign_key="round.id", nullable=False, index=True)
    registration_id: int = Field(foreign_key="registration.id", nullable=False, index=True)
    status: CheckInStatus = _enum(CheckInStatus, 16, CheckInStatus.PRESENT)
    minutes_late: int = Field(default=0, nullable=False)
    checked_in_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    marked_by: int | None = _snowflake()


class Sanction(SQLModel, table=True):
    __tablename__ = "sanction"
    __table_args__ = (sa.UniqueConstraint("guild_id", "case_number", name="uq_sanction_guild_id_case_number"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    case_number: int
    kind: str = Field(max_length=48)
    article: str | None = Field(default=None, max_length=32)
    registration_id: int = Field(foreign_key="registration.id", nullable=False, index=True)
    tournament_id: int = Field(foreign_key="tournament.id", nullable=False, index=True)
    round_id: int | None = Field(default=None, foreign_key="round.id")
    table_id: int | None = Field(default=None, foreign_key="game_table.id")
    referee_id: int = Field(sa_type=sa.BigInteger, nullable=False)
    details: str | None = Field(default=None, max_length=1000)
    infraction: str | None = Field(default=None, max_length=48)  # the preset's infraction code
    offence: int = Field(default=1, nullable=False)  # 1 = the player's first offence of this infraction
    proposed_kind: str | None = Field(default=None, max_length=48)  # the ladder's proposal (kind differs: override)
    consequence: str = Field(default="recorded", max_length=24)  # bot.rules.sanctions.Consequence
    points: float | None = Field(default=None)  # standings points (negative) or table points taken
    previous_status: RegistrationStatus | None = _enum(
        RegistrationStatus, 16, nullable=True
    )  # before a disqualification
    revoked_at: datetime | None = _when()
    revoked_by: int | None = _snowflake()
    revoke_reason: str | None = Field(default=None, max_length=500)
    appeal_state: AppealState = _enum(AppealState, 16, AppealState.NONE)
    appeal_reason: str | None = Field(default=None, max_length=500)
    appealed_at: datetime | None = _when()
    appeal_decided_by: int | None = _snowflake()
    appeal_decided_at: datetime | None = _when()
    appeal_note: str | None = Field(default=None, max_length=500)
    created_at: datetime = _created()

    @property
    def active(self) -> bool:
        """In force: neither revoked nor annulled on appeal."""
        return self.revoked_at is None and self.appeal_state != AppealState.OVERTURNED


class SanctionProposal(SQLModel, table=True):
    """What a referee asked in ``/sanction give``, waiting for Confirm: a row, so the Confirm button and the kind
    menu work after a restart and a sanction is written once however often Confirm is pressed (``confirmed_at`` is
    set by one conditional UPDATE)."""

    __tablename__ = "sanction_proposal"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    referee_id: int = Field(sa_type=sa.BigInteger, nullable=False)
    tournament: str = Field(max_length=100)
    player: str | None = Field(default=None, max_length=64)
    user_id: int | None = _snowflake()
    infraction: str = Field(max_length=48)
    cards_in_hand: int = Field(default=0, nullable=False)
    points: float | None = Field(default=None)
    round_number: int | None = Field(default=None)
    table_number: int | None = Field(default=None)
    details: str | None = Field(default=None, max_length=1000)
    kind: str | None = Field(default=None, max_length=48)  # another kind picked in the menu (an override)
    created_at: datetime = _created()
    confirmed_at: datetime | None = _when()
    case_number: int | None = Field(default=None)


class RefereeCall(SQLModel, table=True):
    """A table calling a referee (BOT-RUL-2); the first referee to claim it takes it (``claimed_by``, set once)."""

    __tablename__ = "referee_call"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    tournament_id: int = Field(foreign_key="tournament.id", nullable=False, index=True)
    round_id: int | None = Field(default=None, foreign_key="round.id")
    table_id: int | None = Field(default=None, foreign_key="game_table.id")
    caller_id: int = Field(sa_type=sa.BigInteger, nullable=False)
    note: str | None = Field(default=None, max_length=200)
    created_at: datetime = _created()
    claimed_by: int | None = _snowflake()
    claimed_at: datetime | None = _when()


class ReminderKind(StrEnum):
    ROUND = "round_reminder"  # before a round's start, at one of the tournament's offsets
    ANNOUNCEMENT = "announcement"  # an organizer's message (text and an optional image) at a time
    REGISTRATION_CLOSE = "registration_close"  # the registration deadline: registration closes by itself
    CLOCK = "clock_call"  # a table clock's call (the sdadata, FIRK's third-to-last round, RR's replay)


class ReminderStatus(StrEnum):
    PENDING = "pending"
    CLAIMED = "claimed"  # a process took it and is sending; stays visible if it crashed before confirming
    DELIVERED = "delivered"
    DROPPED = "dropped"  # fell due after its round had started (the bot was offline): never sent, logged
    CANCELLED = "cancelled"  # the round moved, the clock paused, the organizer cancelled it


class ScheduledReminder(SQLModel, table=True):
    """Every schedule and reminder is a row: the scheduler only wakes the bot, and is rebuilt from the pending rows
    at start-up. A row is claimed (``status`` pending → claimed, one conditional UPDATE) before anything is sent, so
    no row is ever sent twice, also by two bot processes on one PostgreSQL."""

    __tablename__ = "scheduled_reminder"
    __table_args__ = (sa.Index("ix_scheduled_reminder_status_due_at", "status", "due_at"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    tournament_id: int | None = Field(default=None, foreign_key="tournament.id")
    round_id: int | None = Field(default=None, foreign_key="round.id")
    table_id: int | None = Field(default=None, foreign_key="game_table.id")
    kind: ReminderKind = _enum(ReminderKind, 32)
    offset_minutes: int | None = Field(default=None)  # round reminders: minutes before the start
    call: str | None = Field(default=None, max_length=32)  # clock calls: the announcement code
    image: str | None = Field(default=None, max_length=16)  # announcements: tables | standings | bracket
    channel_id: int | None = _snowflake()
    message: str | None = Field(default=None, max_length=2000)
    due_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    status: ReminderStatus = _enum(ReminderStatus, 16, ReminderStatus.PENDING)
    late: bool = Field(default=False, nullable=False)  # fell due while no bot process was running
    claimed_at: datetime | None = _when()  # when the current claim (a lease) was taken or last renewed
    claimed_by: str | None = Field(default=None, max_length=64)
    attempts: int = Field(default=0, nullable=False, sa_column_kwargs={"server_default": "0"})  # claims so far
    delivered_at: datetime | None = _when()
    outcome: str | None = Field(default=None, max_length=200)  # why dropped/cancelled, or what failed
    created_by: int | None = _snowflake()
    created_at: datetime = _created()


class DmDelivery(SQLModel, table=True):
    """One direct message of a reminder to one player: sent or failed, once (the unique pair is the "once")."""

    __tablename__ = "dm_delivery"
    __table_args__ = (sa.UniqueConstraint("reminder_id", "user_id", name="uq_dm_delivery_reminder_id_user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    tournament_id: int | None = Field(default=None, foreign_key="tournament.id", index=True)
    reminder_id: int = Field(foreign_key="scheduled_reminder.id", nullable=False)
    user_id: int = Field(sa_type=sa.BigInteger, nullable=False)
    ok: bool = Field(default=False, nullable=False)
    error: str | None = Field(default=None, max_length=200)
    at: datetime = _created()


class TableClock(SQLModel, table=True):
    """A table's game clock (BOT-SCH-2) and its end-of-game tracker; rows, not memory, so it survives restarts."""

    __tablename__ = "table_clock"
    __table_args__ = (sa.UniqueConstraint("table_id", name="uq_table_clock_table_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    table_id: int = Field(foreign_key="game_table.id", nullable=False)
    started_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    started_by: int | None = _snowflake()
    paused_at: datetime | None = _when()
    paused_seconds: int = Field(default=0, nullable=False)
    pauses: int = Field(default=0, nullable=False)
    turns_completed: int = Field(default=0, nullable=False)  # full rounds of turns recorded (RK-ELIM-1)
    tracker: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)  # the engine's EndState, serialised
    time_up_at: datetime | None = _when()  # when the timed ending was called
    ended_at: datetime | None = _when()


class AuditLog(SQLModel, table=True):
    __tablename__ = "audit_log"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=sa.BigInteger, nullable=False, index=True)
    actor_id: int | None = _snowflake()
    action: str = Field(max_length=64)
    entity: str = Field(max_length=32)
    entity_id: int | None = Field(default=None)
    details: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    created_at: datetime = _created()


@sa.event.listens_for(Tournament, "before_insert")
@sa.event.listens_for(Tournament, "before_update")
def _tournament_key(mapper: Any, connection: Any, target: Tournament) -> None:
    target.name_key = tournament_key(target.name)


@sa.event.listens_for(Registration, "before_insert")
@sa.event.listens_for(Registration, "before_update")
def _registration_key(mapper: Any, connection: Any, target: Registration) -> None:
    target.name_key = registration_key(target.display_name)


def tournament_key(name: str) -> str:
    """The key a tournament's name collides on within its server, as stored (the column's length)."""
    return name_key(name)[:TOURNAMENT_KEY_LENGTH]


def registration_key(display_name: str) -> str:
    """The key a player's name collides on within a tournament, as stored (the column's length)."""
    return name_key(display_name)[:REGISTRATION_KEY_LENGTH]
