"""The typed options parsed at the edge, once (issue 48): a date and time, a case number and a sanction kind.

Each is an ``app_commands.Transformer``: a command annotates ``at: LocalDateTime``, ``case: CaseNumber`` or
``kind: SanctionKind`` and receives the parsed value; what does not parse is refused before the command runs, with
one localised line (the refusal is an ``InvalidInput`` that the commands' error path words), and nothing changes.

* ``LocalDateTime``: ``2026-12-05 21:00`` or ``05/12/2026 21:00`` (also ``21.00``) → that naive wall-clock time;
  the services read it in the server's time zone (refusing the hour daylight saving time skips or repeats).
* ``CaseNumber``: ``12``, ``#12``, ``n. 12``, ``caso 12`` / ``case 12`` (as a case card's title shows it) → 12.
* ``SanctionKind``: the kind's code or its name in Italian or English (any case, accents optional), suggested while
  typing → the code; whether the case's rulebook has that kind is the service's check.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from functools import cache
from typing import Any

import discord
from discord import app_commands

from bot.cogs._common import locale_of
from bot.cogs._params import CHOICES_MAX, StringOption
from bot.errors import InvalidInput
from bot.i18n import catalogue

DATETIME_MAX = 40  # characters of a typed date and time
DATETIME_FORMATS = ("%Y-%m-%d %H:%M", "%d/%m/%Y %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H.%M", "%d/%m/%Y %H.%M")
CASE_MAX = 1_000_000  # case numbers of one server
CASE_TEXT_MAX = 20
KIND_MAX = 60  # a kind's code or name as typed
KIND_PREFIX = "sanction.kind."
_CASE = re.compile(r"(?:(?:caso|case)\s*)?(?:#|n\s*[.°º]?|nr\.?|no\.?)?\s*([0-9]{1,7})")


def parse_local_datetime(text: object) -> datetime:
    """``text`` as a wall-clock date and time in one of ``DATETIME_FORMATS`` (blanks around and between the date
    and the time do not matter); anything else, blank included, → ``error.bad_datetime``."""
    value = " ".join(str(text).split())
    for fmt in DATETIME_FORMATS:
        try:
            return datetime.strptime(value, fmt)  # noqa: DTZ007 - naive on purpose: the services read it in the server's zone
        except ValueError:
            continue
    raise InvalidInput("error.bad_datetime", value=value[:DATETIME_MAX])


def parse_case_number(text: object) -> int:
    """``12``, ``#12``, ``n. 12``, ``caso 12`` → 12; anything else, 0 or past ``CASE_MAX`` →
    ``error.sanction.bad_case_number``."""
    value = " ".join(str(text).split())
    found = _CASE.fullmatch(value.casefold())
    if found is None or not 1 <= int(found[1]) <= CASE_MAX:
        raise InvalidInput("error.sanction.bad_case_number", value=value[:CASE_TEXT_MAX])
    return int(found[1])


def _folded(text: str) -> str:
    """Case and accents folded, blanks and underscores as one space: how a typed kind is compared."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(plain.casefold().replace("_", " ").split())


@cache
def sanction_kind_names() -> dict[str, dict[str, str]]:
    """Every sanction kind the catalogue words: code → {locale: name}, Italian and English."""
    names: dict[str, dict[str, str]] = {}
    for locale in ("it", "en"):
        for key, text in catalogue(locale).items():
            if key.startswith(KIND_PREFIX):
                names.setdefault(key[len(KIND_PREFIX) :], {})[locale] = text
    return names


def parse_sanction_kind(text: object) -> str:
    """A kind's code, or its Italian or English name (any case, accents optional) → the code; anything else →
    ``error.sanction.unknown_sanction_kind``."""
    value = " ".join(str(text).split())
    wanted = _folded(value)
    for code, names in sanction_kind_names().items():
        if wanted == _folded(code) or any(wanted == _folded(name) for name in names.values()):
            return code
    raise InvalidInput("error.sanction.unknown_sanction_kind", value=value[:KIND_MAX])


class LocalDateTimeTransformer(StringOption):
    longest = DATETIME_MAX

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> datetime:
        return parse_local_datetime(value)


class CaseNumberTransformer(StringOption):
    longest = CASE_TEXT_MAX

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> int:
        return parse_case_number(value)


class SanctionKindTransformer(StringOption):
    longest = KIND_MAX

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        return parse_sanction_kind(value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: str, /
    ) -> list[app_commands.Choice[str]]:
        """The kinds whose name (in the reader's language) or code holds what is typed, by name."""
        locale = locale_of(interaction)
        typed = _folded(str(value))
        found = sorted(
            (names.get(locale) or names.get("en") or code, code)
            for code, names in sanction_kind_names().items()
            if typed in _folded(names.get(locale) or "") or typed in _folded(code)
        )
        return [app_commands.Choice(name=name[:100], value=code) for name, code in found[:CHOICES_MAX]]


LocalDateTime = app_commands.Transform[datetime, LocalDateTimeTransformer]
CaseNumber = app_commands.Transform[int, CaseNumberTransformer]
SanctionKind = app_commands.Transform[str, SanctionKindTransformer]
