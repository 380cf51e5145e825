"""Numbers and dates in Italian or English, through Babel (BOT-I18N-1: ``31,8`` in Italian).

One formatter for every surface: Discord messages and embeds, images, CSV files. Display text uses the typographic
minus sign (U+2212) so an embed and an image show the same ``−7``; data files (CSV) use plain ASCII digits, no
grouping and ``-`` so spreadsheets read them as numbers.
"""

from __future__ import annotations

import datetime as dt
from functools import cache

from babel import Locale
from babel.dates import format_date as _babel_date
from babel.numbers import format_decimal

from bot.rules.text import decimals_needed

LOCALES: tuple[str, ...] = ("it", "en")
BABEL_LOCALE = {"it": "it_IT", "en": "en_GB"}
MINUS = "\u2212"


@cache
def _babel(locale: str) -> Locale:
    return Locale.parse(BABEL_LOCALE.get(locale, BABEL_LOCALE["en"]))


def format_number(value: float, locale: str, *, decimals: int | None = None, grouping: bool = True) -> str:
    """``31.8`` → ``31,8`` (it) / ``31.8`` (en); thousands grouped; negative numbers with the minus sign U+2212.

    ``decimals=None`` prints as many as needed, at most two (``31``, ``31,8``, ``14,25``)."""
    places = decimals_needed([value]) if decimals is None else decimals
    rounded = round(float(value), places)
    if rounded == 0:
        rounded = 0.0  # no "−0"
    pattern = ("#,##0" if grouping else "0") + ("." + "0" * places if places else "")
    text = format_decimal(abs(rounded), format=pattern, locale=_babel(locale))
    return (MINUS + text) if rounded < 0 else text


def format_data_number(value: float, locale: str) -> str:
    """A number for a data file (CSV): no grouping, ASCII minus, the locale's decimal separator."""
    return format_number(value, locale, grouping=False).replace(MINUS, "-")


def format_signed(value: float, locale: str, *, decimals: int | None = None) -> str:
    """``+2`` / ``−7`` / ``0``: a change or a deduction shown with its sign."""
    text = format_number(value, locale, decimals=decimals)
    return "+" + text if round(float(value), 6) > 0 else text


def format_date(value: dt.date | str, locale: str) -> str:
    """``24 novembre 2026`` / ``24 November 2026``; accepts a date or an ISO ``YYYY-MM-DD`` string."""
    day = dt.date.fromisoformat(value) if isinstance(value, str) else value
    return str(_babel_date(day, format="long", locale=_babel(locale)))


def plural_category(count: float, locale: str) -> str:
    """CLDR plural category of ``count`` in ``locale`` (``one`` / ``other`` for Italian and English)."""
    return str(_babel(locale).plural_form(abs(count)))
