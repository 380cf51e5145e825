"""Seasons (NP-PTS-1, FIRK-SEED-1, FIRK-PEN-1): an organizer groups tournaments of one preset into a season, and the
season keeps one ranking across them — NP's project points board by board, FIRK's annual standings.

A season is an ordered list of tournaments (``season_tournament``: a tournament belongs to at most one season, and
two never share a place — both constraints). The ranking is the rules' (``bot.rules.season.compute_season``) over
each tournament's engine standings (``StandingsService.engine``), with the season's own deductions: sanctions of
the referee's desk given to the season's ranking (FIRK penalità 4 "anche a livello annuale", ``/season sanction``)
instead of the tournament's; a revoked or annulled one costs nothing. The same person across tournaments is the
Discord account, or the name for an entry made without one.

A season may rank with the club's own point scheme and ranked one-off games (issue 47): ``season_games``.

Also the FIRK round-1 hook: a tournament of a season seated from standings in round 1 (``tournament.seeded_round1``,
FIRK §6) follows the final standings of the previous tournament of its season (:func:`previous_tournament_ranking`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from sqlalchemy.exc import IntegrityError

from bot.db.models import (
    Registration,
    RoundKind,
    Season,
    SeasonSanction,
    SeasonTournament,
    Tournament,
    tournament_key,
)
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.rules.errors import refusal_params
from bot.rules.presets import PRESET_NAMES
from bot.rules.sanctions import infractions
from bot.rules.season import (
    OneOffEntry,
    OneOffGame,
    SeasonDeduction,
    compute_season,
)
from bot.rules.season import SeasonTournament as RankedTournament
from bot.rules.tournament.model import PlayerId, TournamentError
from bot.rules.tournament.standings import GameResult, Standings
from bot.services._base import BaseService, UseCase, clean_text, id_of
from bot.services.access import Actor, StaffRole
from bot.services.classification import classify
from bot.services.sanction_places import sanctioned_player
from bot.services.sanction_views import SanctionView
from bot.services.sanctions import SanctionService, checked_details
from bot.services.season_views import (
    SchemeView,
    game_player_key,
    player_key,
    scheme_of,
    scheme_view,
    season_or_404,
    season_rules,
)
from bot.services.standings import EngineStandings, StandingsService

NAME_MAX = 100
ALL_ROUNDS = tuple(RoundKind)  # NP: every board of the tournament counts for the project


@dataclass(frozen=True, slots=True)
class SeasonInfo:
    """A season and its tournaments in order."""

    name: str
    preset: str
    tournaments: tuple[str, ...]
    attached: str | None = None  # the tournament this use case attached


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """A player's line: ``points`` per tournament of the season (None: not played), and which ones count."""

    rank: int
    name: str
    club: str | None
    user_id: int | None
    points: float
    tournaments: int
    games: int
    by_tournament: tuple[float | None, ...]  # aligned with SeasonView.tournaments
    counted: tuple[bool, ...]  # False: a best-N season drops that tournament
    standings: tuple[str | None, ...]  # "withdrawn" / "disqualified" where the player left a tournament so
    deductions: float
    first_places: int
    previous_rank: int | None  # before the season's latest tournament (None: not ranked then)
    one_off_points: float = 0.0  # the ranked one-off games' points
    one_off_games: int = 0


@dataclass(frozen=True, slots=True)
class SeasonTieBreak:
    names: tuple[str, ...]
    tie_breaker: str | None  # None: nothing separated them, they share the rank
    values: tuple[tuple[str, float | int | None], ...]
    resolved: bool
    tournament: str | None  # the tournament the tie-breaker read (the latest they all played)


@dataclass(frozen=True, slots=True)
class SeasonPenalty:
    """Points taken off the season's ranking: a desk case given to the season."""

    name: str
    points: float  # taken off (positive)
    infraction: str | None
    case_number: int
    tournament: str | None  # the season's latest tournament when it was given


@dataclass(frozen=True, slots=True)
class SeasonView:
    name: str
    preset: str
    points_kind: str  # "project" (NP) or "standings" (FIRK)
    tournaments: tuple[str, ...]
    lines: tuple[SeasonLine, ...]
    explanations: tuple[SeasonTieBreak, ...]
    penalties: tuple[SeasonPenalty, ...]
    tie_breakers: tuple[str, ...]
    unconfirmed_tables: int  # reported but not yet countersigned, in every tournament of the season
    scheme: SchemeView | None = None  # points_kind "scheme": the club's points
    one_off_games: int = 0  # ranked one-off games counted (voided ones left out)

    def line_of(self, name: str) -> SeasonLine | None:
        return next((line for line in self.lines if line.name == name), None)


@dataclass(frozen=True, slots=True)
class SeasonSanctionView:
    season: str
    sanction: SanctionView


def _keyed(
    name: str,
    results: Sequence[GameResult],
    standings: Standings,
    key: dict[int, str],
    places: Mapping[int, int] | None = None,
) -> RankedTournament:
    """A tournament's engine results (and its final places, when it has a final classification) with its
    registration ids as the season's player keys."""
    games = tuple(
        replace(res, entries=tuple(replace(e, player=key[int(e.player)]) for e in res.entries)) for res in results
    )
    rows = tuple(replace(row, player=key[int(row.player)]) for row in standings.rows)
    final: dict[PlayerId, int] = {key[rid]: place for rid, place in (places or {}).items() if rid in key}
    return RankedTournament(name, games, replace(standings, rows=rows, decisions=()), final)


async def _final_places(uc: UseCase, engine: EngineStandings) -> dict[int, int]:
    """Each player's place in the use case's tournament's final classification, once it is complete (else none: the
    standings give the places)."""
    ranked = [(int(row.player), row.rank) for row in engine.standings.rows]
    found = await classify(uc, ranked, engine.registrations, unconfirmed=engine.unconfirmed_tables,
                           rounds_reported=len({res.round for res in engine.results}))  # fmt: skip
    if found is None or not found.complete:
        return {}
    return {int(row.player): row.place for row in found.rows if row.place is not None}


def _keys_of(registrations: dict[int, Registration]) -> dict[int, str]:
    """Each registration's player key; two of one tournament that would share one keep their own."""
    out: dict[int, str] = {}
    taken: set[str] = set()
    for rid, reg in sorted(registrations.items()):
        key = player_key(reg)
        out[rid] = key if key not in taken else f"r:{rid}"
        taken.add(out[rid])
    return out


class SeasonService(BaseService):
    standings: StandingsService  # set by Services: each tournament's engine standings
    desk: SanctionService  # set by Services: a sanction given to the season is a case of the referee's desk

    @staticmethod
    async def _info(uc: UseCase, season: Season, attached: str | None = None) -> SeasonInfo:
        links = await uc.seasons.tournaments(season_id=id_of(season))
        return SeasonInfo(season.name, season.preset, tuple(t.name for _, t in links), attached)

    @staticmethod
    async def _attach(uc: UseCase, season: Season, t: Tournament) -> None:
        """Put ``t`` last in ``season`` (the caller holds the season's lock)."""
        season_id, tid = id_of(season), id_of(t)
        if t.preset != season.preset:
            raise Conflict("error.season.other_preset", tournament=t.name, preset=t.preset, season=season.name,
                           season_preset=season.preset)  # fmt: skip
        found = await uc.seasons.of_tournament(tournament_id=tid)
        if found is not None:
            raise Conflict("error.season.already_in", tournament=t.name, season=found[0].name)
        position = await uc.seasons.next_position(season_id=season_id)
        link = SeasonTournament(guild_id=season.guild_id, season_id=season_id, tournament_id=tid, position=position)
        try:
            # the row is added inside the savepoint: added before, it was flushed as the savepoint opened, outside
            # it, and a constraint's refusal aborted the whole transaction ("something went wrong" on PostgreSQL)
            async with uc.savepoint():
                await uc.insert(link)
        except IntegrityError:  # another season took the tournament meanwhile (one season each: a constraint)
            taken = await uc.seasons.of_tournament(tournament_id=tid)
            other = taken[0].name if taken is not None else "—"
            raise Conflict("error.season.already_in", tournament=t.name, season=other) from None

    # --------------------------------------------------------------------------------------- use cases

    async def create(
        self, actor: Actor, *, name: str, preset: str | None = None, tournament: str | None = None
    ) -> SeasonInfo:
        """A new season (organizers) of ``preset``, or of ``tournament``'s preset, that tournament attached first."""
        clean = clean_text(name, field="name", max_len=NAME_MAX)
        if preset is not None and preset not in PRESET_NAMES:
            raise InvalidInput("error.unknown_preset", preset=preset[:64], known=", ".join(PRESET_NAMES))
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament or None) as uc:
            first = uc.tournament if tournament else None
            chosen = preset or (first.preset if first is not None else None)
            if chosen is None:
                raise InvalidInput("error.season.preset_needed")
            if await uc.seasons.get_season_by_name(name=clean):
                raise Conflict("error.season.exists", name=clean)
            season = Season(guild_id=actor.guild_id, name=clean, name_key=tournament_key(clean), preset=chosen,
                            created_by=actor.user_id, created_at=uc.clock())  # fmt: skip
            try:
                async with uc.savepoint():  # the row added inside it: a refusal leaves the transaction usable
                    await uc.insert(season)
            except IntegrityError:  # a concurrent create with the same name won the race
                raise Conflict("error.season.exists", name=clean) from None
            if first is not None:
                await self._attach(uc, season, first)
            await uc.audit("season.create", "season", season.id, name=clean, preset=chosen,
                           tournament=first.name if first else None)  # fmt: skip
            return await self._info(uc, season, first.name if first else None)

    async def attach(self, actor: Actor, *, season: str, tournament: str) -> SeasonInfo:
        """Put a tournament of the season's preset last in the season (organizers); one season per tournament."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            found = await season_or_404(uc, season)
            await uc.seasons.lock_season(season_id=id_of(found))
            await self._attach(uc, found, uc.tournament)
            await uc.audit("season.attach", "season", found.id, tournament=uc.tournament.name)
            return await self._info(uc, found, uc.tournament.name)

    async def names(self, guild_id: int, *, name_prefix: str = "", limit: int = 25) -> tuple[str, ...]:
        """The server's seasons whose name contains ``name_prefix``, newest first (autocompletion)."""
        async with self.run(guild_id) as uc:
            found = await uc.seasons.list_seasons(name_prefix=name_prefix, limit=limit)
            return tuple(s.name for s in found)

    async def show(self, guild_id: int, season: str) -> SeasonView:
        """The season's ranking: each tournament's points, the season's deductions, ties explained (anyone)."""
        async with self.run(guild_id) as uc:
            found = await season_or_404(uc, season)
            season_id = id_of(found)
            rules = season_rules(found).season
            scheme = scheme_of(found)
            kinds = ALL_ROUNDS if rules.project else (RoundKind.QUALIFYING,)
            ranked: list[RankedTournament] = []
            names: dict[str, str] = {}
            clubs: dict[str, str | None] = {}
            users: dict[str, int | None] = {}
            unconfirmed = 0
            links = await uc.seasons.tournaments(season_id=season_id)
            for link, t in links:
                evening = uc.about(t)
                engine = await self.standings.engine(evening, kinds=kinds)
                keys = _keys_of(engine.registrations)
                for rid, reg in engine.registrations.items():  # the latest tournament's name and club win
                    names[keys[rid]], clubs[keys[rid]], users[keys[rid]] = reg.display_name, reg.club, reg.user_id
                places = await _final_places(evening, engine) if rules.place == "classification" else {}
                results = engine.results
                if scheme is not None and not rules.project:  # a game is every table: semifinals and final too
                    every = await self.standings.engine(evening, kinds=ALL_ROUNDS)
                    results, unconfirmed = every.results, unconfirmed + every.unconfirmed_tables
                else:
                    unconfirmed += engine.unconfirmed_tables
                keyed = _keyed(t.name, results, engine.standings, keys, places)
                ranked.append(replace(keyed, event_type=link.event_type) if scheme is not None else keyed)
            by_id = {t.id: t.name for _, t in links}
            games: list[OneOffGame] = []
            for game, players in await uc.seasons.games(season_id=season_id):
                for gp in players:
                    key = game_player_key(gp)
                    names.setdefault(key, gp.display_name)
                    clubs.setdefault(key, None)
                    users.setdefault(key, gp.user_id)
                entries = tuple(OneOffEntry(game_player_key(r), r.place, r.table_points) for r in players)
                games.append(OneOffGame(entries, by_id.get(game.given_at), f"#{game.number}"))
            deductions: list[SeasonDeduction] = []
            penalties: list[SeasonPenalty] = []
            for given_to, s, reg in await uc.seasons.sanctions(season_id=season_id):
                if not s.active or not s.points:
                    continue
                key = player_key(reg)
                names.setdefault(key, reg.display_name)
                clubs.setdefault(key, reg.club)
                users.setdefault(key, reg.user_id)
                given = by_id.get(given_to.given_at)
                deductions.append(SeasonDeduction(key, -s.points, s.infraction or "sanction", given))
                penalties.append(SeasonPenalty(reg.display_name, -s.points, s.infraction, s.case_number, given))
            try:
                result = await self._workers.in_transaction(
                    partial(
                        compute_season,
                        ranked,
                        rules=rules,
                        deductions=deductions,
                        players=[d.player for d in deductions],
                        scheme=scheme,
                        games=games,
                    )
                )
            except TournamentError as exc:
                raise InvalidInput("error.standings.engine", **refusal_params(exc, limit=100)) from None
            order = result.tournaments
            lines = []
            for row in result.rows:
                mine = {line.tournament: line for line in row.lines}
                lines.append(
                    SeasonLine(
                        rank=row.rank, name=names.get(str(row.player), str(row.player)),
                        club=clubs.get(str(row.player)), user_id=users.get(str(row.player)), points=row.points,
                        tournaments=row.tournaments, games=row.games,
                        by_tournament=tuple(mine[n].points if n in mine else None for n in order),
                        counted=tuple(mine[n].counted if n in mine else False for n in order),
                        standings=tuple(mine[n].standing if n in mine and mine[n].standing != "active" else None
                                        for n in order),
                        deductions=row.deductions, first_places=row.first_places, previous_rank=row.previous_rank,
                        one_off_points=row.one_off_points, one_off_games=row.one_off_games,
                    )
                )  # fmt: skip

            def name(p: object) -> str:
                return names.get(str(p), str(p))

            explanations = tuple(
                SeasonTieBreak(
                    tuple(name(p) for p in d.players),
                    d.tie_breaker,
                    tuple((name(p), v) for p, v in d.values),
                    d.resolved,
                    d.note,
                )
                for d in result.decisions
            )
            view = None if scheme is None else scheme_view(found, scheme, links)
            return SeasonView(found.name, found.preset, "scheme" if scheme else rules.points, order, tuple(lines),
                              explanations, tuple(penalties), rules.tie_breakers, unconfirmed, view,
                              len(games))  # fmt: skip

    async def season_infractions(self, guild_id: int, *, season: str) -> tuple[str, ...]:
        """The infractions of the season's preset whose sanction takes standings points (FIRK: −7, −25)."""
        async with self.run(guild_id) as uc:
            found = await season_or_404(uc, season)
            return tuple(i.code for i in infractions(season_rules(found)) if i.standing_points)

    async def sanction(
        self,
        actor: Actor,
        *,
        season: str,
        infraction: str,
        player: str | None,
        user_id: int | None,
        tournament: str | None = None,
        details: str | None = None,
    ) -> SeasonSanctionView:
        """A sanction whose standings points go to the season's ranking (referees): FIRK penalità 4, −7 "anche a
        livello annuale" for someone disturbing a table while not playing that evening. It is a case of the desk
        (its number, the ladder, the revoke and the appeal), logged in ``tournament`` — by default the latest
        tournament of the season the player is registered in — and it costs that tournament's standings nothing."""
        note = checked_details(details)
        async with self.run(actor) as uc:
            # the case number first: the server row's lock then serialises concurrent sanctions of this server
            case = await uc.sanctions.allocate_case_number()
            uc.require(StaffRole.REFEREE)
            if case is None:  # pragma: no cover - require() refuses a server without its row first
                raise PermissionDenied("error.permission_unmapped", role=StaffRole.REFEREE)
            found = await season_or_404(uc, season)
            links = await uc.seasons.tournaments(season_id=id_of(found))
            if not links:
                raise Conflict("error.season.empty", season=found.name)
            points = next((i.standing_points for i in infractions(season_rules(found)) if i.code == infraction), None)
            if not points:
                raise InvalidInput("error.season.no_standing_points", infraction=infraction[:48], season=found.name)
            target = await self._case_tournament(uc, found, [t for _, t in links], tournament, player, user_id)
            view = await self.desk.record_request(
                uc, case, tournament=target.name, player=player, user_id=user_id, infraction=infraction, kind=None,
                points=None, cards_in_hand=0, details=note, round_number=None, table=None,
            )  # fmt: skip
            s = await uc.sanctions.by_case(case)
            if s is None:  # pragma: no cover - recorded just above, in this transaction
                raise NotFound("error.sanction.not_found", case=case)
            uc.add(SeasonSanction(guild_id=actor.guild_id, season_id=id_of(found), sanction_id=id_of(s),
                                  given_at=links[-1][1].id, created_at=uc.clock()))  # fmt: skip
            await uc.audit("season.sanction", "season", found.id, case=case, infraction=infraction)
            return SeasonSanctionView(found.name, view)

    @staticmethod
    async def _case_tournament(
        uc: UseCase,
        season: Season,
        tournaments: Sequence[Tournament],
        name: str | None,
        player: str | None,
        user_id: int | None,
    ) -> Tournament:
        """The season's tournament a season sanction is logged in: the one named, or the latest the player is
        registered in."""
        if name is not None:
            chosen = next((t for t in tournaments if t.name_key == tournament_key(name)), None)
            if chosen is None:
                raise NotFound("error.season.not_in_season", tournament=name.strip()[:100], season=season.name)
            return chosen
        for t in reversed(tournaments):
            try:
                await sanctioned_player(uc.about(t), player, user_id)
            except NotFound:
                continue
            return t
        raise NotFound("error.season.player_not_found", player=(player or "")[:64] or "—", season=season.name)


async def previous_tournament_ranking(
    uc: UseCase, players: Sequence[Registration], standings: StandingsService
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """FIRK §6 (FIRK-SEED-1): round 1 follows the final standings of the previous tournament. For the use case's
    tournament, of a season: the previous tournament of the season's general classification, best first, as
    ``players``' registration ids with each one's rank there (newcomers are left for the planner to seat after them);
    None when the tournament is first in its season, or in none."""
    earlier = await uc.seasons.tournaments_before_in_season(tournament_id=uc.tournament_id)
    if not earlier:
        return None
    previous = uc.about(earlier[-1])
    before = await standings.engine(previous)
    here = {player_key(r): id_of(r) for r in players}
    keys = _keys_of(before.registrations)
    final = await _final_places(previous, before)  # its final classification, when it has one
    rows = sorted(before.standings.rows, key=lambda row: final.get(int(row.player), row.rank)) if final else list(
        before.standings.rows)  # fmt: skip
    ranking: list[int] = []
    ranks: list[int] = []
    for row in rows:
        rid = here.get(keys[int(row.player)])
        if rid is not None:
            ranking.append(rid)
            ranks.append(final.get(int(row.player), row.rank))
    return tuple(ranking), tuple(ranks)
