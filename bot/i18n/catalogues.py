"""The gettext catalogues behind ``bot.i18n.t`` (BOT-I18N-1).

Sources are ordinary gettext files, one per feature area (*domain*) and language::

    bot/i18n/locale/en/LC_MESSAGES/<domain>.po    English: the source language
    bot/i18n/locale/it/LC_MESSAGES/<domain>.po    Italian: a translation of the English
    bot/i18n/locale/<domain>.pot                  the template (``python -m bot.i18n extract``; not in git)
    bot/i18n/locale/*/LC_MESSAGES/<domain>.mo     compiled (``python -m bot.i18n compile``; not in git)

Every message has a context (``msgctxt``): the stable key the code uses (``error.tournament_not_found``). Its
``msgid`` is the English text, so a translator sees the English beside the Italian in any gettext tool. A counted
message has ``msgid_plural`` and one ``msgstr[n]`` per plural form of the language (``Plural-Forms`` in the
header); the placeholder that carries the number is named in an extracted comment ``#. n = {count}``.

At run time the English ``.po`` files give the index (key → msgid, msgid_plural, counter) and each language is a
``gettext.GNUTranslations`` read from its ``.mo``; a ``.mo`` missing or older than its ``.po`` is compiled in
memory with Babel, so a fresh clone runs without a build step and an edited ``.po`` is never shadowed.
"""

from __future__ import annotations

import gettext
import io
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_LOCALE = "en"
COUNTER_RE = re.compile(r"^n = \{(\w+)\}$")


@dataclass(frozen=True, slots=True)
class Message:
    """One message of the English source: what the code's key stands for."""

    key: str
    domain: str
    msgid: str
    plural: str | None = None  # msgid_plural: set for a counted message
    counter: str | None = None  # the placeholder whose number picks the plural form


def po_path(locale: str, domain: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po"


def domains() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in (LOCALE_DIR / SOURCE_LOCALE / "LC_MESSAGES").glob("*.po")))


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, abort_invalid=True)


def counter_of(auto_comments: list[str] | tuple[str, ...]) -> str | None:
    for comment in auto_comments:
        match = COUNTER_RE.match(comment.strip())
        if match:
            return match.group(1)
    return None


@cache
def index() -> dict[str, Message]:
    """key → Message, from the English sources (a key defined in two domains is an error)."""
    found: dict[str, Message] = {}
    for domain in domains():
        for entry in read_catalog(po_path(SOURCE_LOCALE, domain)):
            if not entry.id or entry.context is None:
                continue
            if entry.context in found:
                raise ValueError(f"i18n key {entry.context} defined in {found[entry.context].domain} and {domain}")
            if isinstance(entry.id, tuple):
                msgid, plural = str(entry.id[0]), str(entry.id[1])
                found[entry.context] = Message(entry.context, domain, msgid, plural, counter_of(entry.auto_comments))
            else:
                found[entry.context] = Message(entry.context, domain, str(entry.id))
    return found


def compile_catalog(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


@cache
def translations(locale: str, domain: str) -> gettext.NullTranslations:
    """The compiled catalogue of one domain in one language (``NullTranslations`` when there is none)."""
    po = po_path(locale, domain)
    if not po.exists():
        return gettext.NullTranslations()
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        data = mo.read_bytes()
    else:
        data = compile_catalog(read_catalog(po))
    return gettext.GNUTranslations(io.BytesIO(data))


def clear_caches() -> None:
    index.cache_clear()
    translations.cache_clear()
