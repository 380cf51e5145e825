"""Where a sanction goes: the player it is for (whatever their status) and the round and table it belongs to. Each
helper takes the use case about the sanction's tournament."""

from __future__ import annotations

from bot.db.models import Registration, Round
from bot.errors import NotFound
from bot.services._base import UseCase, id_of
from bot.services.registrations import find_player


async def sanctioned_player(uc: UseCase, name: str | None, user_id: int | None) -> Registration:
    """A player of the tournament by member or name, whatever their status: a disqualified player still has
    a record, and can be sanctioned or appeal."""
    regs = await uc.registrations.listed(tournament_id=uc.tournament_id)
    wanted = (name or "").strip().casefold()
    found = next(
        (r for r in regs if (user_id is not None and r.user_id == user_id)
         or (user_id is None and wanted and r.display_name.casefold() == wanted)),
        None,
    )  # fmt: skip
    if found is None:  # its refusal names what was asked
        return await find_player(uc, name=name, user_id=user_id)
    return found


async def seat_of(uc: UseCase, reg: Registration) -> tuple[Round, int] | None:
    """The player's table (round, table id) in the latest drawn round that seats them."""
    found = await uc.rounds.seat_in_latest_round(tournament_id=uc.tournament_id, registration_id=id_of(reg))
    return None if found is None else (found[0], id_of(found[1]))


async def where(
    uc: UseCase, reg: Registration, round_number: int | None, table: int | None
) -> tuple[int | None, int | None]:
    """(round id, table id): the given round/table, or by default the player's current table."""
    if round_number is None and table is None:
        seat = await seat_of(uc, reg)
        return (id_of(seat[0]), seat[1]) if seat else (None, None)
    return await round_and_table(uc, round_number, table)


async def round_and_table(uc: UseCase, round_number: int | None, table: int | None) -> tuple[int, int | None]:
    """The ids of round ``round_number`` (default: the latest) and of its table ``table`` (if given)."""
    rounds = await uc.rounds.list_rounds(tournament_id=uc.tournament_id)
    rnd = (
        next((r for r in rounds if r.number == round_number), None)
        if round_number is not None
        else max(rounds, key=lambda r: r.number, default=None)
    )
    if rnd is None:
        raise NotFound("error.round_not_found", number=round_number or 1, tournament=uc.tournament.name)
    if table is None:
        return id_of(rnd), None
    tables = await uc.rounds.list_tables(round_id=id_of(rnd))
    found = next((gt for gt in tables if gt.number == table), None)
    if found is None:
        raise NotFound("error.sanction.no_such_table", table=table, round=rnd.number)
    return id_of(rnd), id_of(found)
