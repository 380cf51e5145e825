"""Shared service plumbing: the use-case context (one transaction, the role check, the tournament, its ruleset,
the audit), the clock and text validation helpers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, Literal, Protocol, TypeVar, overload

from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, AsyncSessionTransaction, async_sessionmaker

from bot.db import repo
from bot.db.models import GuildConfig, Tournament
from bot.db.repo.bound import Repositories
from bot.errors import InvalidInput, NotFound
from bot.rules.jsondoc import DocumentError
from bot.rules.ruleset import Ruleset, load_ruleset
from bot.rules.text import name_key, visible_text
from bot.services.access import Actor, Role, StaffRole, has_role, require
from bot.workers import Workers, default_workers

T = TypeVar("T")
NO_SERVER = 0  # a token lookup's use case (a venue page, a report page): the token names the server


class Stored(Protocol):
    id: int | None


def id_of(row: Stored) -> int:
    """A stored row's id, typed ``int`` (a row read from the database, or added and flushed, has one)."""
    if row.id is None:  # pragma: no cover - a programming error: the row was never flushed
        raise AssertionError(f"{type(row).__name__} is not stored yet")
    return row.id


R = TypeVar("R", bound=Stored)


class UseCase(Repositories):
    """One use case's unit of work, as :meth:`BaseService.run` opens it: the transaction, who acts (``actor``;
    None for a read by server id), the server's configuration, the tournament it is about (found once, its id an
    ``int``), that tournament's ruleset parsed once with its overrides (``rules``: the only way to a ruleset), the
    clock, the audit entry, and the queries bound to this transaction and server, one attribute per area
    (``await uc.sanctions.by_case(7)``, ``await uc.rounds.list_rounds(tournament_id=…)``; see
    ``bot/db/repo/bound.py``). A method starts at its decision; what every use case needs before it lives here.
    Helpers take ``uc``, never a session."""

    def __init__(
        self,
        session: AsyncSession,
        guild_id: int,
        actor: Actor | None,
        config: GuildConfig | None,
        clock: Callable[[], datetime],
        tournament: Tournament | None,
    ) -> None:
        super().__init__(session, guild_id)
        self.session = session
        self.guild_id = guild_id
        self.actor = actor
        self.config = config
        self.clock = clock
        self._tournament = tournament
        self._rules: Ruleset | None = None

    @property
    def tournament(self) -> Tournament:
        if self._tournament is None:
            raise AssertionError("this use case was opened without a tournament")
        return self._tournament

    @property
    def tournament_id(self) -> int:
        tid = self.tournament.id
        if tid is None:  # pragma: no cover - a row read from the database has its id
            raise AssertionError("tournament without id")
        return tid

    @property
    def rules(self) -> Ruleset:
        """The tournament's ruleset: its preset with its overrides (parsed once per use case)."""
        if self._rules is None:
            self._rules = load_ruleset(self.tournament.preset, self.tournament.overrides or None)
        return self._rules

    def change_overrides(self, overrides: dict[str, Any]) -> Ruleset:
        """Give the tournament new overrides: parsed first (a ``PresetError`` leaves everything as it was), then
        stored on the tournament and become its ``rules``."""
        rules = load_ruleset(self.tournament.preset, overrides or None)
        self.tournament.overrides, self._rules = overrides, rules
        return rules

    def about(self, tournament: Tournament) -> UseCase:
        """This transaction about ``tournament``: the use case itself when it is its own tournament, else the same
        session, actor and clock about another one — a season's earlier evening, the tournament a venue token names
        — in that tournament's server, its ruleset parsed once (``uc.about(t).rules``: the one way to another
        tournament's ruleset)."""
        if self._tournament is not None and tournament.id == self._tournament.id:
            return self
        same = tournament.guild_id == self.guild_id
        return UseCase(self.session, tournament.guild_id, self.actor, self.config if same else None, self.clock,
                       tournament)  # fmt: skip

    def enter(self, tournament: Tournament) -> None:
        """A use case opened without a server (``NO_SERVER``: a venue or report page, whose token names the
        tournament) enters the tournament the token named: from here on its queries read that tournament's server,
        and ``tournament`` and ``rules`` are that tournament's."""
        if self.guild_id != NO_SERVER or self._tournament is not None:  # pragma: no cover - a programming error
            raise AssertionError("this use case already has a server")
        self.guild_id, self._tournament = tournament.guild_id, tournament
        Repositories.__init__(self, self.session, tournament.guild_id)

    def server(self, guild_id: int) -> Repositories:
        """The queries of another server in this transaction (a maintenance read over every server's rows)."""
        return Repositories(self.session, guild_id)

    def add(self, row: object) -> None:
        """Stage a new row in this transaction."""
        self.session.add(row)

    def add_all(self, rows: Iterable[object]) -> None:
        self.session.add_all(rows)

    async def insert(self, row: R) -> R:
        """Add a row and flush it, so its id is known (``id_of(row)``)."""
        self.session.add(row)
        await self.session.flush()
        return row

    async def flush(self) -> None:
        await self.session.flush()

    async def delete(self, row: object) -> None:
        await self.session.delete(row)

    async def refresh(self, row: object) -> None:
        await self.session.refresh(row)

    async def get(self, model: type[R], row_id: int) -> R | None:
        """The row of ``model`` with this id in this use case's server (another server's row is not found)."""
        row = await self.session.get(model, row_id)
        if row is None or (self.guild_id != NO_SERVER and getattr(row, "guild_id", self.guild_id) != self.guild_id):
            return None
        return row

    def savepoint(self) -> AsyncSessionTransaction:
        """A nested transaction (``async with uc.savepoint():``): what fails inside it is undone, the rest kept."""
        return self.session.begin_nested()

    @property
    def user_id(self) -> int | None:
        return self.actor.user_id if self.actor is not None else None

    def has_role(self, role: StaffRole) -> bool:
        return self.actor is not None and has_role(self.actor, self.config, role)

    def require(self, role: Role) -> None:
        """The role check of a use case that decides it later (the role depends on what it finds)."""
        if self.actor is None:  # pragma: no cover - a programming error: a staff check needs someone
            raise AssertionError("a role check needs an actor")
        require(self.actor, self.config, role)

    async def audit(self, action: str, entity: str, entity_id: int | None, **details: Any) -> None:
        """The audit entry of what this use case did (who, when: the transaction's; what: ``details``)."""
        await self.guild.add_audit(actor_id=self.user_id, action=action, entity=entity, entity_id=entity_id,
                                   details=details)  # fmt: skip


class BaseService:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime],
        workers: Workers | None = None,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._clock = clock
        self._workers = workers or default_workers()  # CPU-heavy work: never on the event loop

    @asynccontextmanager
    async def run(
        self,
        who: Actor | int,
        *,
        role: Role | None = None,
        tournament: str | None = None,
        lock: bool = False,
    ) -> AsyncIterator[UseCase]:
        """Open a use case: one transaction (committed when the block ends, rolled back on any error), with

        * ``lock``: the tournament's row lock taken first (the cap, the waitlist, a seat: one at a time);
        * ``role``: the actor must hold it (``STAFF``: organizer or referee; server administrators always pass) —
          checked before the tournament is looked up;
        * ``tournament``: found by name in the actor's server, or "not found" in their words.

        ``who`` is the acting member, or a server id for a read that nobody in particular makes."""
        actor = who if isinstance(who, Actor) else None
        guild_id = who.guild_id if isinstance(who, Actor) else who
        async with self._sessionmaker() as session, session.begin():
            if lock and tournament is not None:
                await repo.lock_tournament(session=session, guild_id=guild_id, name=tournament)
            config = await repo.get_guild_config(session=session, guild_id=guild_id)
            if role is not None:
                if actor is None:  # pragma: no cover - a programming error
                    raise AssertionError("a role check needs an actor")
                require(actor, config, role)
            found = await tournament_or_404(session, guild_id, tournament) if tournament is not None else None
            yield UseCase(session, guild_id, actor, config, self._clock, found)


@overload
def clean_text(value: str | None, *, field: str, max_len: int, required: Literal[True] = True) -> str: ...
@overload
def clean_text(value: str | None, *, field: str, max_len: int, required: bool) -> str | None: ...
def clean_text(value: str | None, *, field: str, max_len: int, required: bool = True) -> str | None:
    """Unicode-normalise (NFC), drop invisible characters (zero-width, bidi overrides, controls), squash white space;
    refuse empty (when required) or over-long values, quoting the field. So ``Anna\u200b`` is ``Anna`` and meets the
    duplicate check, and a name of nothing but invisible characters is empty."""
    if value is None:
        if required:
            raise InvalidInput("error.field_empty", field=field)
        return None
    text = visible_text(value)
    if not text:
        if required:
            raise InvalidInput("error.field_empty", field=field)
        return None
    if len(text) > max_len:
        raise InvalidInput("error.field_too_long", field=field, max=max_len, length=len(text))
    return text


class Spellings:
    """One spelling per club, team and family group of a tournament: "lupi" or "LUPI" typed after "Lupi" *is* Lupi
    (the name key: case, accents' composition, invisible and look-alike characters), so the draw keeps teammates and
    clubmates apart and the team standings add up one team. The first spelling written wins. Read inside the
    tournament's lock (every entry use case takes it first), so two simultaneous spellings cannot both be first."""

    FIELDS = ("club", "team", "family_group")

    def __init__(self, known: dict[str, list[str]]) -> None:
        self._by_key: dict[str, dict[str, str]] = {
            name: {key: spelling for spelling in reversed(known.get(name, [])) if (key := name_key(spelling))}
            for name in self.FIELDS
        }

    @classmethod
    async def of(cls, uc: UseCase, *, but: int | None = None) -> Spellings:
        """The use case's tournament's spellings; ``but``: a registration whose own do not count (an edit may
        respell a club or team nobody else has)."""
        return cls(await uc.registrations.group_spellings(tournament_id=uc.tournament_id, exclude=but))

    def spell(self, field: str, value: str | None) -> str | None:
        """``value`` as the tournament first wrote it (remembered, so a file's later rows follow its first)."""
        if value is None:
            return None
        return self._by_key[field].setdefault(name_key(value), value)


def document_refusal(exc: DocumentError, *, field: str) -> InvalidInput:
    """A JSON document a user typed that cannot be read, as one localised line naming the option."""
    return InvalidInput(f"error.json.{exc.code}", field=field, value=str(exc.value)[:80])


async def tournament_or_404(session: AsyncSession, guild_id: int, name: str) -> Tournament:
    tournament = await repo.get_tournament_by_name(session=session, guild_id=guild_id, name=name)
    if tournament is None:
        raise NotFound("error.tournament_not_found", name=name.strip()[:100])
    return tournament


LOCK_RETRIES = 5


async def retry_when_locked(use_case: Callable[[], Awaitable[T]]) -> T:
    """Run a use case again when SQLite answers "database is locked" (a writer that started from a stale snapshot
    is refused at once, without waiting): the whole transaction is retried, so a press is never lost.
    Use cases run through this must be idempotent — signing twice signs once."""
    for attempt in range(LOCK_RETRIES):
        try:
            return await use_case()
        except OperationalError as exc:
            if "locked" not in str(exc.orig).lower() or attempt == LOCK_RETRIES - 1:
                raise
            await asyncio.sleep(0.02 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover
