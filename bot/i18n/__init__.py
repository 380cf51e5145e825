"""Italian and English message catalogues (BOT-I18N-1).

Keys are stable codes (``error.tournament_not_found``); values are ``str.format`` templates filled
*after* translation. Plural forms: when a ``count`` parameter is given and ``"<key>|one"`` exists, a count in the
CLDR category "one" (Babel: 1 in Italian and English) takes that template ("1 partita", "1 game").
Command names and descriptions use keys ``cmd.<qualified name>.name`` / ``.description`` and
``cmd.<qualified name>.opt.<option>.name`` / ``.description``.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from importlib import resources
from typing import Any

from bot.i18n.numbers import format_number as _format_number
from bot.i18n.numbers import plural_category

log = logging.getLogger(__name__)

LOCALES: tuple[str, ...] = ("it", "en")
FALLBACK = "en"


@cache
def catalogue(locale: str) -> dict[str, str]:
    """Every ``<locale>/*.json`` file merged (one file per feature area, so areas never edit the same file)."""
    merged: dict[str, str] = {}
    folder = resources.files(__package__).joinpath(locale)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        data: dict[str, str] = json.loads(entry.read_text(encoding="utf-8"))
        clash = merged.keys() & data.keys()
        if clash:
            raise ValueError(f"i18n keys defined twice ({locale}/{entry.name}): {sorted(clash)[:5]}")
        merged.update(data)
    return merged


def normalise_locale(locale: object, default: str = "it") -> str:
    """Map a Discord locale ('it', 'en-US', 'en-GB', …) or anything else to 'it' or 'en'."""
    value = str(getattr(locale, "value", locale) or "").lower()
    if value.startswith("it"):
        return "it"
    if value.startswith("en"):
        return "en"
    return default


def has_key(key: str, locale: str) -> bool:
    return key in catalogue(locale)


def t(key: str, locale: str, /, **params: Any) -> str:
    """Translate ``key`` into ``locale`` and fill in ``params`` (numbers formatted for the locale)."""
    template = catalogue(locale).get(key)
    count = params.get("count")
    if template is not None and isinstance(count, int | float) and not isinstance(count, bool):
        # plural forms: "<key>|one" holds the singular (CLDR category of the count), the key itself the other form
        template = catalogue(locale).get(f"{key}|{plural_category(count, locale)}", template)
    if template is None:
        template = catalogue(FALLBACK).get(key)
        if template is None:
            log.warning("missing i18n key %s", key)
            return key
    values = {k: (format_number(v, locale) if isinstance(v, float) else v) for k, v in params.items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError):
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
