"""What a season's two services share (``seasons`` ranks, ``season_games`` keeps the scheme and the one-off games):
who a player is across the season, the season by name, the scheme as users see it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.db.models import Registration, Season, SeasonGamePlayer, SeasonTournament, Tournament, registration_key
from bot.errors import NotFound
from bot.rules.ruleset import Ruleset, load_ruleset
from bot.rules.season import PointScheme
from bot.services._base import UseCase

PLAYER_NAME_MAX = 64
REMOVE = "-"  # ``places`` / ``event_type``: remove the event type, clear the tournament's type


@dataclass(frozen=True, slots=True)
class SchemeView:
    """A season's point scheme and its tournaments' event types (None: a tournament without one)."""

    season: str
    per_game: float
    events: tuple[tuple[str, tuple[float, ...]], ...]
    one_off: str | None
    tournaments: tuple[tuple[str, str | None], ...]


def player_key(reg: Registration) -> str:
    """The same person across a season's tournaments: the Discord account, else the name (case, accents aside)."""
    return f"u:{reg.user_id}" if reg.user_id is not None else f"n:{registration_key(reg.display_name)}"


def game_player_key(row: SeasonGamePlayer) -> str:
    """A one-off game's player as the season knows them: the Discord account, else the name (as ``player_key``)."""
    return f"u:{row.user_id}" if row.user_id is not None else f"n:{row.name_key}"


def scheme_of(season: Season) -> PointScheme | None:
    """The season's point scheme (None: the preset's points)."""
    return PointScheme.from_data(season.scheme) if season.scheme else None


async def season_or_404(uc: UseCase, name: str) -> Season:
    """The season of that name in the use case's server, or the user's "no such season"."""
    season = await uc.seasons.get_season_by_name(name=name)
    if season is None:
        raise NotFound("error.season.not_found", name=name.strip()[:100])
    return season


def season_rules(season: Season) -> Ruleset:
    """The ruleset of the season's preset (a season has no overrides: its tournaments' own are theirs)."""
    return load_ruleset(season.preset)


def scheme_view(
    season: Season, scheme: PointScheme, links: Sequence[tuple[SeasonTournament, Tournament]]
) -> SchemeView:
    return SchemeView(season.name, scheme.per_game, scheme.events, scheme.one_off,
                      tuple((t.name, link.event_type) for link, t in links))  # fmt: skip
