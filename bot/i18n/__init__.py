"""Italian and English messages (BOT-I18N-1), in gettext catalogues (``bot.i18n.catalogues``).

Code names a message by its key (``error.tournament_not_found``), the ``msgctxt`` of a gettext entry whose
``msgid`` is the English text; ``t(key, locale, **params)`` looks it up with ``pgettext`` (``npgettext`` for a
counted message, the number taken from the placeholder its ``#. n = {…}`` comment names) and fills in ``params``
with ``str.format`` *after* translation. Plural rules come from each catalogue's ``Plural-Forms`` header.
Command names and descriptions use keys ``cmd.<qualified name>.name`` / ``.description`` and
``cmd.<qualified name>.opt.<option>.name`` / ``.description`` (read by the command ``Translator``).

Tools: ``python -m bot.i18n extract|update|compile|check`` (``bot.i18n.tool``).
"""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

from bot.i18n.catalogues import Message, index, translations
from bot.i18n.numbers import format_number as _format_number

log = logging.getLogger(__name__)

LOCALES: tuple[str, ...] = ("it", "en")
FALLBACK = "en"


def plural_n(value: object) -> int | None:
    """The integer gettext's plural rule is given for a counted value (1.5 → 2: a fraction is never singular)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return 2
    return abs(int(value))


def _lookup(message: Message, locale: str, params: dict[str, Any]) -> str:
    catalog = translations(locale, message.domain)
    if message.plural is None:
        return catalog.pgettext(message.key, message.msgid)
    n = plural_n(params.get(message.counter or "count"))
    if n is None:
        log.warning("i18n key %s: counted by {%s}, which was not given a number", message.key, message.counter)
        n = 2
    return catalog.npgettext(message.key, message.msgid, message.plural, n)


@cache
def catalogue(locale: str) -> dict[str, str]:
    """key → template in ``locale`` (a counted message's form for 2): for listings, labels and command names."""
    return {key: _lookup(message, locale, {message.counter or "count": 2}) for key, message in index().items()}


def normalise_locale(locale: object, default: str = "it") -> str:
    """Map a Discord locale ('it', 'en-US', 'en-GB', …) or anything else to 'it' or 'en'."""
    value = str(getattr(locale, "value", locale) or "").lower()
    if value.startswith("it"):
        return "it"
    if value.startswith("en"):
        return "en"
    return default


def has_key(key: str, locale: str) -> bool:
    return key in index()


def t(key: str, locale: str, /, **params: Any) -> str:
    """Translate ``key`` into ``locale`` and fill in ``params`` (numbers formatted for the locale)."""
    message = index().get(key)
    if message is None:
        log.warning("missing i18n key %s", key)
        return key
    template = _lookup(message, locale if locale in LOCALES else FALLBACK, params)
    values = {k: (format_number(v, locale) if isinstance(v, float) else v) for k, v in params.items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        log.warning("i18n key %s: bad parameters %s", key, sorted(params))
        return template


def format_number(value: float | int, locale: str, *, decimals: int | None = None) -> str:
    """31.8 → '31,8' in Italian, '31.8' in English (the one formatter: ``bot.i18n.numbers``)."""
    return _format_number(value, locale, decimals=decimals)


TRANSLATED_PARAMS: dict[str, str] = {"field": "field", "role": "role"}


def render_error(key: str, params: dict[str, Any], locale: str) -> str:
    """A domain error's message: parameters naming a field or a role are translated too."""
    values = dict(params)
    for name, prefix in TRANSLATED_PARAMS.items():
        if isinstance(values.get(name), str):
            values[name] = t(f"{prefix}.{values[name]}", locale)
    return t(key, locale, **values)
