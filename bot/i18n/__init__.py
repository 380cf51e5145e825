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
from collections.abc import Iterable
from functools import cache
from string import Formatter
from typing import Any

from bot.i18n.catalogues import Message, domains, index, translations
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


def load() -> None:
    """Read every catalogue now (the English index, each language's compiled messages — compiled from the ``.po``
    where no current ``.mo`` is — and the key → template tables): the bot calls it at start-up, off the event loop,
    so neither the command sync nor a first command compiles them on the loop (issue 48)."""
    index()
    for locale in LOCALES:
        for domain in domains():
            translations(locale, domain)
        catalogue(locale)


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
PRESET_PARAMS: tuple[str, ...] = ("preset", "season_preset")  # an error's parameters that may hold a preset's id


def join_names(names: Iterable[object], locale: str) -> str:
    """People's names (or any words) as a sentence lists them: "Anna", "Anna e Bruno", "Anna, Bruno e Carla" in
    Italian, "Anna, Bruno and Carla" in English; "" for none (issue 44)."""
    items = [str(n) for n in names]
    if len(items) < 2:
        return items[0] if items else ""
    return t("list.and", locale, rest=", ".join(items[:-1]), last=items[-1])


def preset_name(preset: object, locale: str) -> str:
    """A preset's name as people read it ("RisiKo! — tornei ufficiali 2018"), never its id; text that names no
    preset is given back as it is (issue 44)."""
    from bot.rules.presets import PRESET_NAMES

    text = str(preset)
    return t(f"choice.{text}", locale) if text in PRESET_NAMES else text


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


ENGINE_FAMILIES: tuple[str, ...] = (
    "error.engine",
    "error.tournament",
    "error.adjudicator",
    "error.season",
    "error.sanction",
    "error.clock",
)


def engine_reason(code: str, locale: str, /, **params: Any) -> str | None:
    """A rules engine's refusal (its stable ``code``, e.g. ``bad_table_size``) as a sentence in ``locale``, filled
    with ``params`` (``value`` and, for a refusal whose value is a mapping, its keys); None when no catalogue
    sentence says it with those parameters. The code itself is never shown (issue 44)."""
    values = _listed(params, locale)
    for family in ENGINE_FAMILIES:
        message = index().get(f"{family}.{code}")
        if message is not None and _fields(message.msgid) <= set(values):
            return t(message.key, locale, **values)
    return None


def _listed(values: dict[str, Any], locale: str) -> dict[str, Any]:
    """Lists of words (names) as a sentence lists them, in ``locale``."""
    return {k: join_names(v, locale) if isinstance(v, list | tuple) else v for k, v in values.items()}


def _other(values: dict[str, Any], locale: str) -> str:
    """A refusal no catalogue sentence words: what the rules could not accept, quoted when there is a value."""
    value = values.get("value")
    return t("error.engine.other", locale, value=value) if value not in (None, "") else t("error.engine.none", locale)


def render_error(key: str, params: dict[str, Any], locale: str) -> str:
    """A domain error's message: parameters naming a field or a role are translated too, a preset's id becomes its
    name, a list of names reads "Anna, Bruno e Carla", and a rules engine's ``code`` becomes a sentence in
    ``{reason}`` (a message missing from the catalogues says the engine's reason instead of its key)."""
    values = _listed(dict(params), locale)
    for name, prefix in TRANSLATED_PARAMS.items():
        if isinstance(values.get(name), str):
            values[name] = t(f"{prefix}.{values[name]}", locale)
    for name in PRESET_PARAMS:
        if isinstance(values.get(name), str):
            values[name] = preset_name(values[name], locale)
    code = values.get("code")
    if isinstance(code, str) and "reason" not in values:
        values["reason"] = engine_reason(code, locale, **values) or _other(values, locale)
    if key not in index():  # a family's message (error.clock.<code>) no catalogue has: the engine's reason
        log.warning("missing i18n key %s", key)
        fallback = key.rsplit(".", 1)[-1]
        return engine_reason(fallback, locale, **values) or _other(values, locale)
    return t(key, locale, **values)
