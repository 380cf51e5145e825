"""A season's own point scheme and its ranked one-off games (issue 47: a club's "giocatore dell'anno").

An organizer sets the scheme event type by event type (:meth:`SeasonGameService.set_scheme`: points by final place
plus points for each game played), gives each attached tournament its event type (``set_event_type``) and records
ranked one-off games ("amichevoli classificate") into the season without a tournament around them (``record_game``,
``void_game``). The ranking itself stays :meth:`bot.services.seasons.SeasonService.show` (``compute_season`` with the
scheme); the scheme is the season's ``scheme`` column, its rules :class:`bot.rules.season.PointScheme`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.db.models import (
    SeasonGame,
    SeasonGamePlayer,
    registration_key,
    tournament_key,
)
from bot.errors import Conflict, InvalidInput, NotFound
from bot.rules.season import (
    OneOffEntry,
    OneOffGame,
    PointScheme,
    compute_season,
    event_type_key,
    parse_finish_order,
    parse_place_points,
)
from bot.rules.tournament.model import TournamentError
from bot.services._base import BaseService, clean_text, id_of
from bot.services.access import Actor, StaffRole
from bot.services.season_views import (
    PLAYER_NAME_MAX,
    REMOVE,
    SchemeView,
    game_player_key,
    player_key,
    scheme_of,
    scheme_view,
    season_or_404,
    season_rules,
)


@dataclass(frozen=True, slots=True)
class GamePlayer:
    """A player of a one-off game as the organizer names them: a name, or a server member (with the name the
    server shows), and their place (1 = won); table points optional."""

    name: str | None
    user_id: int | None
    place: int
    table_points: float | None = None


@dataclass(frozen=True, slots=True)
class GameView:
    season: str
    number: int
    players: tuple[tuple[str, int], ...]  # (name, place), best first
    points: tuple[float, ...]  # what the game gives each of them in the season, aligned with ``players``
    newcomers: tuple[str, ...]  # names the season did not know before this game
    voided: bool = False


def _invalid(exc: TournamentError) -> InvalidInput:
    """A scheme's or a one-off game's refusal, worded by its code (``error.season.<code>``)."""
    return InvalidInput(f"error.season.{exc.code}", value=str(exc.value)[:48])


class SeasonGameService(BaseService):
    """The season's scheme, its tournaments' event types and its one-off games (organizers)."""

    async def set_scheme(
        self,
        actor: Actor,
        *,
        season: str,
        per_game: float | None = None,
        event_type: str | None = None,
        places: str | None = None,
        one_off: bool | None = None,
    ) -> SchemeView:
        """Set the season's own point scheme (organizers), one event type at a time: ``per_game`` points for every
        game played; ``event_type``'s ``places`` (``"2000, 1000x3, 500x12"``; ``"-"`` removes the type); ``one_off``:
        that type also scores the ranked one-off games (False: they score ``per_game`` only). With nothing to
        change it says the scheme as it is. A season without a scheme gets one (0 per game) by the first call."""
        if (places is not None or one_off is not None) and event_type is None:
            raise InvalidInput("error.season.event_type_needed")
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            found = await season_or_404(uc, season)
            await uc.seasons.lock_season(season_id=id_of(found))
            links = await uc.seasons.tournaments(season_id=id_of(found))
            scheme = scheme_of(found) or PointScheme()
            try:
                name = event_type_key(event_type) if event_type is not None else None
                if per_game is not None:
                    scheme = replace(scheme, per_game=float(per_game)).validated()
                if name is not None and places is not None:
                    removed = places.strip() == REMOVE
                    used = [t.name for link, t in links if link.event_type == name]
                    if removed and used:
                        raise Conflict("error.season.event_type_in_use", event_type=name, tournaments=", ".join(used))
                    scheme = scheme.with_event(name, None if removed else parse_place_points(places))
                if name is not None and one_off is not None:
                    if one_off and scheme.places(name) is None:
                        raise InvalidInput("error.season.unknown_event_type", event_type=name,
                                           known=", ".join(scheme.event_types) or "—")  # fmt: skip
                    if one_off:
                        scheme = replace(scheme, one_off=name)
                    elif scheme.one_off == name:
                        scheme = replace(scheme, one_off=None)
                    scheme = scheme.validated()
            except TournamentError as exc:
                raise _invalid(exc) from None
            changed = scheme.to_data() != (found.scheme or None)
            if changed:
                found.scheme = scheme.to_data()
                uc.add(found)
                await uc.audit("season.scheme", "season", found.id, scheme=found.scheme)
            return scheme_view(found, scheme, links)

    async def set_event_type(self, actor: Actor, *, season: str, tournament: str, event_type: str) -> SchemeView:
        """Give a tournament of the season its event type in the season's scheme (organizers); ``"-"`` clears it
        (the tournament then gives points per game only)."""
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            found = await season_or_404(uc, season)
            await uc.seasons.lock_season(season_id=id_of(found))
            scheme = scheme_of(found)
            if scheme is None:
                raise Conflict("error.season.no_scheme", season=found.name)
            links = await uc.seasons.tournaments(season_id=id_of(found))
            link = next((link for link, t in links if t.name_key == tournament_key(tournament)), None)
            if link is None:
                raise NotFound("error.season.not_in_season", tournament=tournament.strip()[:100], season=found.name)
            name: str | None = None
            if event_type.strip() != REMOVE:
                try:
                    name = event_type_key(event_type)
                except TournamentError as exc:
                    raise _invalid(exc) from None
                if scheme.places(name) is None:
                    raise InvalidInput("error.season.unknown_event_type", event_type=name,
                                       known=", ".join(scheme.event_types) or "—")  # fmt: skip
            if link.event_type != name:
                link.event_type = name
                uc.add(link)
                await uc.audit("season.event_type", "season", found.id, tournament=link.tournament_id, event_type=name)
            return scheme_view(found, scheme, links)

    async def event_types(self, guild_id: int, *, season: str) -> tuple[str, ...]:
        """The event types of the season's scheme (autocompletion; none without a scheme)."""
        async with self.run(guild_id) as uc:
            scheme = scheme_of(await season_or_404(uc, season))
            return scheme.event_types if scheme is not None else ()

    async def record_game(
        self, actor: Actor, *, season: str, players: Sequence[GamePlayer], newcomers: bool = False
    ) -> GameView:
        """Record a ranked one-off game ("amichevole classificata") into the season (organizers): its players with
        their places. A name is the player of that name in the season's tournaments (the latest one's), or of an
        earlier one-off game; a name the season does not know is refused unless ``newcomers`` (a typo must not make
        a new player); a member is their Discord account. The season needs a point scheme."""
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            found = await season_or_404(uc, season)
            season_id = id_of(found)
            await uc.seasons.lock_season(season_id=season_id)
            scheme = scheme_of(found)
            if scheme is None:
                raise Conflict("error.season.no_scheme", season=found.name)
            known: dict[str, tuple[str, str, int | None]] = {}  # name key → (season key, name, user id)
            accounts: dict[int, str] = {}  # user id → name
            for reg in await uc.seasons.registrations(season_id=season_id):
                known[registration_key(reg.display_name)] = (player_key(reg), reg.display_name, reg.user_id)
                if reg.user_id is not None:
                    accounts[reg.user_id] = reg.display_name
            before = await uc.seasons.games(season_id=season_id)
            for _, rows in before:
                for gp in rows:
                    known.setdefault(gp.name_key, (game_player_key(gp), gp.display_name, gp.user_id))
                    if gp.user_id is not None:
                        accounts.setdefault(gp.user_id, gp.display_name)
            resolved: list[tuple[str, str, int | None, GamePlayer]] = []
            unknown: list[str] = []
            new: list[str] = []
            for p in players:
                if p.user_id is not None:
                    name = accounts.get(p.user_id) or clean_text(p.name or str(p.user_id), field="player",
                                                                 max_len=PLAYER_NAME_MAX)  # fmt: skip
                    if p.user_id not in accounts:
                        new.append(name)
                    resolved.append((f"u:{p.user_id}", name, p.user_id, p))
                    continue
                typed = clean_text(p.name, field="player", max_len=PLAYER_NAME_MAX)
                hit = known.get(registration_key(typed))
                if hit is not None:
                    resolved.append((hit[0], hit[1], hit[2], p))
                elif newcomers:
                    new.append(typed)
                    resolved.append((f"n:{registration_key(typed)}", typed, None, p))
                else:
                    unknown.append(typed)
            if unknown:
                raise InvalidInput("error.season.game_unknown_players", names=tuple(n[:60] for n in unknown[:20]),
                                   season=found.name)  # fmt: skip
            number = await uc.seasons.next_game_number(season_id=season_id)
            entries = tuple(OneOffEntry(key, p.place, p.table_points) for key, _, _, p in resolved)
            game = OneOffGame(entries, label=f"#{number}")
            try:
                game.validated()
                gives = compute_season([], rules=season_rules(found).season, scheme=scheme, games=[game])
            except TournamentError as exc:
                raise _invalid(exc) from None
            links = await uc.seasons.tournaments(season_id=season_id)
            row = await uc.insert(SeasonGame(guild_id=actor.guild_id, season_id=season_id, number=number,
                                             given_at=links[-1][1].id if links else None, recorded_by=actor.user_id,
                                             created_at=uc.clock()))  # fmt: skip
            for key, name, user_id, p in resolved:
                name_key = key[2:] if key.startswith("n:") else registration_key(name)
                uc.add(SeasonGamePlayer(guild_id=actor.guild_id, game_id=id_of(row), user_id=user_id,
                                        display_name=name, name_key=name_key, place=p.place,
                                        table_points=p.table_points))  # fmt: skip
            await uc.audit("season.game", "season", found.id, number=number,
                           players=[[name, p.place] for _, name, _, p in resolved])  # fmt: skip
            points = {r.player: r.one_off_points for r in gives.rows}
            order = sorted(resolved, key=lambda x: x[3].place)
            return GameView(found.name, number, tuple((name, p.place) for _, name, _, p in order),
                            tuple(points[key] for key, _, _, _ in order), tuple(new))  # fmt: skip

    async def void_game(self, actor: Actor, *, season: str, number: int) -> GameView:
        """Void a one-off game of the season (organizers): it stays in the log, counting nothing."""
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            found = await season_or_404(uc, season)
            await uc.seasons.lock_season(season_id=id_of(found))
            game = await uc.seasons.game_by_number(season_id=id_of(found), number=number)
            if game is None:
                raise NotFound("error.season.game_not_found", number=number, season=found.name)
            if game.voided_at is not None:
                raise Conflict("error.season.game_voided", number=number, season=found.name)
            game.voided_at, game.voided_by = uc.clock(), actor.user_id
            uc.add(game)
            await uc.audit("season.game_void", "season", found.id, number=number)
            return GameView(found.name, number, (), (), (), voided=True)


MENTION = re.compile(r"^<@!?(\d{15,21})>$")


def finish_order(text: str) -> list[GamePlayer]:
    """A one-off game's players as the organizer types them, in finish order: ``"Anna, Bruno = Carla, Dario"``
    (``=``: a shared place), a member as a mention (``<@123…>``, its name left for the caller to fill)."""
    try:
        order = parse_finish_order(text)
    except TournamentError as exc:
        raise _invalid(exc) from None
    out = []
    for name, place in order:
        mention = MENTION.match(name)
        out.append(GamePlayer(None, int(mention.group(1)), place) if mention else GamePlayer(name, None, place))
    return out
