"""Where a sanction goes: the player it is for (whatever their status) and the round and table it belongs to."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.models import Registration, Round, Tournament
from bot.errors import NotFound
from bot.services.registrations import find_player


async def sanctioned_player(
    session: AsyncSession, t: Tournament, name: str | None, user_id: int | None
) -> Registration:
    """A player of the tournament by member or name, whatever their status: a disqualified player still has
    a record, and can be sanctioned or appeal."""
    assert t.id is not None
    regs = await repo.list_registrations(session=session, guild_id=t.guild_id, tournament_id=t.id)
    wanted = (name or "").strip().casefold()
    found = next(
        (r for r in regs if (user_id is not None and r.user_id == user_id)
         or (user_id is None and wanted and r.display_name.casefold() == wanted)),
        None,
    )  # fmt: skip
    if found is None:
        return await find_player(session, t, name=name, user_id=user_id)  # its refusal names what was asked
    return found


async def seat_of(session: AsyncSession, t: Tournament, reg: Registration) -> tuple[Round, int] | None:
    """The player's table (round, table id) in the latest drawn round that seats them."""
    assert t.id is not None and reg.id is not None
    found = await repo.seat_in_latest_round(
        session=session, guild_id=t.guild_id, tournament_id=t.id, registration_id=reg.id
    )
    return None if found is None or found[1].id is None else (found[0], found[1].id)


async def where(
    session: AsyncSession, t: Tournament, reg: Registration, round_number: int | None, table: int | None
) -> tuple[int | None, int | None]:
    """(round id, table id): the given round/table, or by default the player's current table."""
    if round_number is None and table is None:
        seat = await seat_of(session, t, reg)
        return (seat[0].id, seat[1]) if seat else (None, None)
    return await round_and_table(session, t, round_number, table)


async def round_and_table(
    session: AsyncSession, t: Tournament, round_number: int | None, table: int | None
) -> tuple[int | None, int | None]:
    """The ids of round ``round_number`` (default: the latest) and of its table ``table`` (if given)."""
    assert t.id is not None
    rounds = await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id)
    rnd = (
        next((r for r in rounds if r.number == round_number), None)
        if round_number is not None
        else max(rounds, key=lambda r: r.number, default=None)
    )
    if rnd is None or rnd.id is None:
        raise NotFound("error.round_not_found", number=round_number or 1, tournament=t.name)
    if table is None:
        return rnd.id, None
    tables = await repo.list_tables(session=session, guild_id=t.guild_id, round_id=rnd.id)
    found = next((gt for gt in tables if gt.number == table), None)
    if found is None:
        raise NotFound("error.sanction.no_such_table", table=table, round=rnd.number)
    return rnd.id, found.id
