"""The five rulebooks as data, in our own words (BOT-RUL-1): every article, section or numbered item with its id in
the rulebook's own numbering, the presets it belongs to, a title and a summary written by us in Italian and English
(never the rulebook's sentences), the words players use when they ask, whole questions it answers (searched and
learned from, never shown), and links to the preset fields and engine functions that apply it.

One TOML file per rulebook in ``articles/`` (``rr``, ``np``, ``arb``, ``uff``, ``firk``); :func:`articles` loads and
checks them once. Searching them is :mod:`bot.rules.rulebook.search`, with the learned ranker of
:mod:`bot.rules.rulebook.learned`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from bot.rules.errors import RuleError
from bot.rules.presets import rulebook_preset

RULEBOOKS = ("rr", "np", "arb", "uff", "firk")
LANGS = ("it", "en")
SUMMARY_MAX = 700


class RulebookError(RuleError):
    """An article file that does not meet the schema (a packaging defect, caught by the tests)."""


@dataclass(frozen=True, slots=True)
class Article:
    """One article of a rulebook, in our own words, with what the desk searches in it."""

    rulebook: str  # RR, NP, ARB, UFF, FIRK
    id: str  # in the rulebook's own numbering: "4.9", "22", "R16", "R27 3)", "PEN", "PUNTEGGIO FINALE", "UFF Sdadata"
    presets: tuple[str, ...]
    title: dict[str, str]  # lang → our title
    summary: dict[str, str]  # lang → our summary
    keywords: dict[str, tuple[str, ...]]  # lang → how players ask
    asks: dict[str, tuple[str, ...]]  # lang → whole questions this article answers, in our words (searched, not shown)
    fields: tuple[str, ...] = ()  # preset fields (``section.key``) holding this article's numbers
    engine: tuple[str, ...] = ()  # ``module:function`` applying it

    @property
    def reference(self) -> str:
        """How the desk cites it: "RR 4.9", "ARB 22", "FIRK R16", "NP PUNTEGGIO FINALE", "UFF Sdadata"."""
        return self.id if self.id.startswith(self.rulebook + " ") else f"{self.rulebook} {self.id}"


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) and x.strip() for x in value):
        raise RulebookError("list_of_strings_expected", where)
    return tuple(value)


def _parse(code: str, text: str) -> list[Article]:
    data = tomllib.loads(text)
    rulebook = data.get("rulebook")
    presets = _strings(data.get("presets"), f"{code}.presets")
    if not isinstance(rulebook, str) or rulebook.lower() != code:
        raise RulebookError("rulebook_code_mismatch", code)
    out: list[Article] = []
    seen: set[str] = set()
    for index, raw in enumerate(data.get("article", [])):
        where = f"{code}[{index}]"
        ident = raw.get("id")
        if not isinstance(ident, str) or not ident.strip() or ident in seen:
            raise RulebookError("article_id_invalid", where)
        seen.add(ident)
        title: dict[str, str] = {}
        summary: dict[str, str] = {}
        keywords: dict[str, tuple[str, ...]] = {}
        asks: dict[str, tuple[str, ...]] = {}
        for lang in LANGS:
            t, s = raw.get(f"title_{lang}"), raw.get(f"summary_{lang}")
            if not isinstance(t, str) or not t.strip() or not isinstance(s, str) or not s.strip():
                raise RulebookError("title_or_summary_missing", f"{where} {ident} {lang}")
            if len(s) > SUMMARY_MAX:
                raise RulebookError("summary_too_long", f"{where} {ident} {lang}")
            title[lang], summary[lang] = t.strip(), " ".join(s.split())
            keywords[lang] = _strings(raw.get(f"keywords_{lang}", []), f"{where}.keywords_{lang}")
            asks[lang] = _strings(raw.get(f"asks_{lang}", []), f"{where}.asks_{lang}")
        extra = (
            set(raw)
            - {"id", "fields", "engine", "presets"}
            - {f"{k}_{lang}" for k in ("title", "summary", "keywords", "asks") for lang in LANGS}
        )
        if extra:
            raise RulebookError("article_key_unknown", f"{where} {sorted(extra)[0]}")
        out.append(
            Article(
                rulebook=rulebook.upper(),
                id=ident.strip(),
                presets=_strings(raw["presets"], where) if "presets" in raw else presets,
                title=title,
                summary=summary,
                keywords=keywords,
                asks=asks,
                fields=_strings(raw.get("fields", []), where) if raw.get("fields") else (),
                engine=_strings(raw.get("engine", []), where) if raw.get("engine") else (),
            )
        )
    if not out:
        raise RulebookError("no_articles", code)
    return out


@cache
def articles() -> tuple[Article, ...]:
    """Every article of the five rulebooks (checked once)."""
    folder = resources.files(__package__).joinpath("articles")
    out: list[Article] = []
    for code in RULEBOOKS:
        entry = folder.joinpath(f"{code}.toml")
        if entry.is_file():
            out.extend(_parse(code, entry.read_text(encoding="utf-8")))
    return tuple(out)


def for_preset(preset: str) -> tuple[Article, ...]:
    """The articles of ``preset``'s rulebook (a preset playing another's rulebook gets that one's)."""
    own = rulebook_preset(preset)
    return tuple(a for a in articles() if own in a.presets)


def cite(preset: str, engine: str) -> Article | None:
    """The article of ``preset`` applied by the engine function ``engine`` ("module:function"): what an
    adjudicator's answer cites."""
    return next((a for a in for_preset(preset) if engine in a.engine), None)
