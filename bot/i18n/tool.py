"""``python -m bot.i18n extract|update|compile|check``: the catalogues managed with Babel (BOT-I18N-1).

The workflow of a change in wording or a new message:

1. write the English in ``locale/en/LC_MESSAGES/<domain>.po`` (``msgctxt`` = the key the code uses, ``msgid`` =
   ``msgstr`` = the English; a counted message has ``msgid_plural`` and ``#. n = {placeholder}``);
2. ``python -m bot.i18n extract`` writes ``locale/<domain>.pot`` from the English, with where the code uses each
   key (Babel's extractor over ``bot/`` and ``renderer/``);
3. ``python -m bot.i18n update`` merges the template into every translation (``pybabel update``'s merge: a new
   message arrives empty, an English text that changed marks its translation *fuzzy*);
4. translate in ``locale/it/LC_MESSAGES/<domain>.po`` with any gettext tool (Poedit, Lokalize, a text editor);
5. ``python -m bot.i18n compile`` writes the ``.mo`` files; ``python -m bot.i18n check`` is what CI runs.

``check`` fails on: a message missing, empty or fuzzy in a language, or present in a translation but not in the
English; a ``.po`` that does not parse or compile; a template whose placeholders differ between languages (or
between a message's forms); a counted message whose counter is not one of its placeholders; a key the code names
(``t("…")``, an error's key, ``tr(interaction, "…")``) that no catalogue defines; and on the words people
read (``bot.i18n.words``, issue 44): internal ids and codes in a value, a gendered word beside a name, a variant
the glossary (``bot/i18n/glossary.toml``) says to avoid, words hard-coded in the code instead of the catalogues.
"""

from __future__ import annotations

import argparse
import gettext
import io
import re
import string
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from bot.i18n import words
from bot.i18n.catalogues import (
    LOCALE_DIR,
    SOURCE_LOCALE,
    compile_catalog,
    counter_of,
    domains,
    po_path,
    read_catalog,
)

TRANSLATIONS: tuple[str, ...] = ("it",)
ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("bot", "renderer")
GLOSSARY = words.GLOSSARY  # one term for each thing (issue 44)
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"  # Italian and English alike: "1 partita", "0/2/21 partite"
# A key is the literal first argument of t(…), tr(interaction, …), render_error(…) or a user-facing error.
KEY_RE = re.compile(
    r"""(?:\btr\(\s*\w+,\s*|\bt\(\s*|\brender_error\(\s*|(?<!Field)(?:Error|Denied|Input|NotFound|Conflict)\(\s*)"""
    r"""["']([a-z_]+\.[\w.-]+)["']"""
)


def extract_keys(
    fileobj: Any, keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method: every message key the code names literally (``(lineno, funcname, key, [])``)."""
    text = fileobj.read().decode("utf-8")
    for match in KEY_RE.finditer(text):
        key = match.group(1)
        if key.endswith(".") or "{" in key:
            continue
        yield text.count("\n", 0, match.start()) + 1, "t", key, []


def keys_in_code() -> dict[str, list[tuple[str, int]]]:
    """key → where the code names it (Babel's ``extract_from_dir`` with ``extract_keys``)."""
    found: dict[str, list[tuple[str, int]]] = {}
    for folder in SOURCE_DIRS:
        results = extract_from_dir(
            ROOT / folder,
            method_map=[("**.py", "bot.i18n.tool:extract_keys")],
            keywords={"t": None},
            directory_filter=lambda path: "__pycache__" not in path,
        )
        for filename, lineno, key, _comments, _context in results:
            found.setdefault(str(key), []).append((f"{folder}/{filename}", lineno))
    return found


def new_catalog(locale: str | None) -> Catalog:
    catalog = Catalog(
        locale=locale,
        project="Tournament Steward",
        version="0.1.0",
        copyright_holder="Tournament Steward",
        msgid_bugs_address="the project's issue tracker",
        fuzzy=False,
    )
    headers = [(k, v) for k, v in catalog.mime_headers if k.lower() != "plural-forms"]
    catalog.mime_headers = [*headers, ("Plural-Forms", PLURAL_FORMS)]
    return catalog


def save(catalog: Catalog, path: Path, *, locations: bool = False) -> None:
    """A ``.po`` keeps no source locations (they would change with every edit of the code); a ``.pot`` does."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=116, sort_output=False, no_location=not locations)
    text = buffer.getvalue().decode("utf-8")
    text = re.sub(r'"(POT-Creation|PO-Revision)-Date: [^"]*\\n"\n', "", text)  # no churn in git per run
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def extract() -> list[Path]:
    """The templates: the English messages (ids, no translations) with the code's locations of each key."""
    where = keys_in_code()
    written = []
    for domain in domains():
        template = new_catalog(None)
        for entry in read_catalog(po_path(SOURCE_LOCALE, domain)):
            if not entry.id:
                continue
            template.add(
                entry.id,
                None,
                locations=where.get(entry.context or "", []),
                flags=entry.flags,
                auto_comments=entry.auto_comments,
                context=entry.context,
            )
        path = LOCALE_DIR / f"{domain}.pot"
        save(template, path, locations=True)
        written.append(path)
    return written


def update() -> list[Path]:
    """Every translation merged with its template (run ``extract`` first)."""
    written = []
    for domain in domains():
        template = read_catalog(LOCALE_DIR / f"{domain}.pot")
        for locale in TRANSLATIONS:
            path = po_path(locale, domain)
            catalog = read_catalog(path) if path.exists() else new_catalog(locale)
            catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
            catalog.obsolete.clear()
            save(catalog, path)
            written.append(path)
    return written


def compile_all() -> list[Path]:
    written = []
    for locale in (SOURCE_LOCALE, *TRANSLATIONS):
        for domain in domains():
            path = po_path(locale, domain).with_suffix(".mo")
            path.write_bytes(compile_catalog(read_catalog(po_path(locale, domain))))
            written.append(path)
    return written


def fields(template: str) -> set[str]:
    """The placeholders of a ``str.format`` template (``{count}``, ``{name!r}`` → ``count``, ``name``)."""
    names = set()
    for _literal, name, _spec, _conversion in string.Formatter().parse(template):
        if name is not None:
            names.add(re.split(r"[.\[]", name)[0])
    return names


def forms(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(str(v) for v in value)


def problems() -> list[str]:
    """Everything ``check`` refuses, one line each (empty when the catalogues are sound)."""
    found: list[str] = []
    english: dict[str, Any] = {}
    values: list[words.Value] = []
    for domain in domains():
        for locale in (SOURCE_LOCALE, *TRANSLATIONS):
            path = po_path(locale, domain)
            if not path.exists():
                found.append(f"{path.relative_to(ROOT)}: missing")
                continue
            try:
                catalog = read_catalog(path)
                gettext.GNUTranslations(io.BytesIO(compile_catalog(catalog)))
            except Exception as exc:  # a .po that does not parse or compile
                found.append(f"{path.relative_to(ROOT)}: does not compile: {exc}")
                continue
            if catalog.plural_forms != PLURAL_FORMS:
                found.append(f"{path.relative_to(ROOT)}: Plural-Forms is {catalog.plural_forms!r}")
            for entry in catalog:
                if not entry.id:
                    continue
                key = entry.context
                where = f"{locale}/{domain}.po {key}"
                if key is None:
                    found.append(f"{where} {entry.id!r}: no msgctxt (the key)")
                    continue
                if locale == SOURCE_LOCALE:
                    if key in english:
                        found.append(f"{where}: defined twice")
                    english[key] = entry
                source = english.get(key)
                if source is None:
                    found.append(f"{where}: not in the English catalogue")
                    continue
                if entry.id != source.id:
                    found.append(f"{where}: msgid differs from the English one (run extract and update)")
                if entry.fuzzy:
                    found.append(f"{where}: fuzzy (the English changed; check the translation)")
                texts = forms(entry.string)
                if not texts or not all(texts):
                    found.append(f"{where}: not translated")
                    continue
                found.extend(placeholder_problems(where, entry, source, texts))
                values.append(words.Value(locale, domain, key, texts))
        found.extend(missing_translations(domain))
    for key, places in sorted(keys_in_code().items()):
        if key not in english:
            file, line = places[0]
            found.append(f"{file}:{line}: key {key} is in no catalogue")
    found.extend(words.catalogue_problems(values, words.load_glossary(GLOSSARY)))
    found.extend(words.hard_coded_text(ROOT))
    return found


def catalogue_values() -> list[words.Value]:
    """Every message of every catalogue that parses, each language's forms as the word rules read them."""
    values = []
    for domain in domains():
        for locale in (SOURCE_LOCALE, *TRANSLATIONS):
            path = po_path(locale, domain)
            if path.exists():
                for entry in read_catalog(path):
                    if entry.id and entry.context is not None and (texts := forms(entry.string)) and all(texts):
                        values.append(words.Value(locale, domain, entry.context, texts))
    return values


def missing_translations(domain: str) -> list[str]:
    """The English messages a translation of ``domain`` lacks (a file that does not parse is reported above)."""
    try:
        seen = {e.context for e in read_catalog(po_path(SOURCE_LOCALE, domain)) if e.id}
        found: list[str] = []
        for locale in TRANSLATIONS:
            path = po_path(locale, domain)
            if path.exists():
                there = {e.context for e in read_catalog(path) if e.id}
                found.extend(f"{locale}/{domain}.po {k}: missing" for k in sorted(seen - there, key=str))
        return found
    except Exception:  # reported as "does not compile" by the caller
        return []


def placeholder_problems(where: str, entry: Any, source: Any, texts: tuple[str, ...]) -> Iterable[str]:
    ids = forms(source.id)
    if len(ids) == 1:
        if fields(texts[0]) != fields(ids[0]):
            yield f"{where}: placeholders {sorted(fields(texts[0]))} ≠ English {sorted(fields(ids[0]))}"
        return
    counter = counter_of(source.auto_comments) or ""
    every = fields(ids[1])
    if counter not in every:
        yield f"{where}: counted by {{{counter}}}, which is not a placeholder of {ids[1]!r}"
    if len(texts) != 2:
        yield f"{where}: {len(texts)} plural forms, Plural-Forms says 2"
        return
    # the singular may spell the number out ("un minuto"); every other placeholder is in every form
    for text in (*ids, *texts):
        if fields(text) - {counter} != every - {counter} or fields(text) - every:
            yield f"{where}: placeholders of {text!r} ≠ {sorted(every)}"
    if counter not in fields(texts[1]):
        yield f"{where}: the plural form does not show {{{counter}}}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("extract", "update", "compile", "check"))
    args = parser.parse_args(argv)
    if args.command == "check":
        found = problems()
        for line in found:
            print(line)
        count = len(found)
        print(f"{count} problem{'s' if count != 1 else ''} in the catalogues" if found else "catalogues OK")
        return 1 if found else 0
    action = {"extract": extract, "update": update, "compile": compile_all}[args.command]
    paths = action()
    print(f"{args.command}: {len(paths)} files written under {LOCALE_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
