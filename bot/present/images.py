"""The words the renderer draws an image with, from the message catalogue (``img.*`` keys of ``renderer.json``)
and the project's one number and date formatter: the renderer is given them, it has no catalogue of its own.
The letters on the Ricochet Robots come from the notation the ``/rr`` parser reads
(``bot.rules.ricochet.notation``), so a letter copied off the image names the same robot."""

from __future__ import annotations

from functools import cache, partial

from bot.i18n import FALLBACK, catalogue, normalise_locale
from bot.i18n.numbers import format_date, format_number
from bot.rules.ricochet.notation import ROBOT_LETTERS
from renderer.models import Words

PREFIX = "img."


def _number(locale: str, value: float, decimals: int | None = None) -> str:
    return format_number(value, locale, decimals=decimals)


@cache
def image_words(locale: str) -> Words:
    """The image words of ``locale`` (Italian or English; another language falls back as messages do)."""
    loc = normalise_locale(locale)
    labels = {key[len(PREFIX) :]: text for key, text in (catalogue(FALLBACK) | catalogue(loc)).items()
              if key.startswith(PREFIX)}  # fmt: skip
    labels |= {f"robot_letter.{colour}": letter for colour, letter in ROBOT_LETTERS[loc].items()}
    return Words(labels=labels, numbers=partial(_number, loc), dates=partial(format_date, locale=loc))
