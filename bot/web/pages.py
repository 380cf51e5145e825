"""The venue pages' HTML skeletons, the page of a wrong link, and the words their script draws with (``venue.po``).

The HTML carries no data but the tournament's name (escaped); the script fills everything else with ``textContent``
from the page's JSON, whose ``words`` are these, in the page's language. Placeholders (``{number}``) are filled by
the script; none of these words is counted, so no plural form is needed in the browser."""

from __future__ import annotations

from functools import cache
from html import escape

from bot.i18n import LOCALES, t

# every word the script uses: its name in the script → the catalogue key
WORD_KEYS: dict[str, str] = {
    "round": "venue.round",
    "semifinal": "venue.round.semifinal",
    "final": "venue.round.final",
    "table": "venue.table",
    "tables": "venue.tables",
    "standings": "venue.standings",
    "bracket": "venue.bracket",
    "season": "venue.season",
    "no_round": "venue.no_round",
    "no_standings": "venue.no_standings",
    "clock_running": "venue.clock.running",
    "clock_paused": "venue.clock.paused",
    "clock_sdadata": "venue.clock.sdadata",
    "clock_firk": "venue.clock.firk",
    "clock_time_up": "venue.clock.time_up",
    "clock_ended": "venue.clock.ended",
    "clock_none": "venue.clock.none",
    "recovery": "venue.clock.recovery",
    "report_waiting": "venue.report.waiting",
    "report_entered": "venue.report.entered",
    "report_signed": "venue.report.signed",
    "report_countersigned": "venue.report.countersigned",
    "rank": "venue.col.rank",
    "player": "venue.col.player",
    "club": "venue.col.club",
    "points": "venue.col.points",
    "games": "venue.col.games",
    "withdrawn": "venue.standing.withdrawn",
    "disqualified": "venue.standing.disqualified",
    "find": "venue.find",
    "find_hint": "venue.find.hint",
    "my_table": "venue.my_table",
    "not_seated": "venue.not_seated",
    "not_me": "venue.not_me",
    "live": "venue.live",
    "reconnecting": "venue.reconnecting",
    "gone": "venue.gone",
    "direct_finalists": "venue.direct_finalists",
    "place": "venue.place",
    "movement": "venue.col.movement",
    "total": "venue.col.total",
    "season_new": "venue.season.new",
    "season_tournament": "venue.season.tournament",
    "season_empty": "venue.season.empty",
    "season_place": "venue.season.place",
    "season_legend": "venue.season.legend",
    "classification": "venue.classification",
    "champion_one": "venue.champion.one",
    "champion_many": "venue.champion.many",
    "final_place": "venue.final_place",
    "stage_final": "classification.stage.final",
    "stage_semifinal": "classification.stage.semifinal",
    "stage_knockout": "classification.stage.knockout",
    "stage_qualifying": "classification.stage.qualifying",
    "open_final": "classification.open.final",
    "open_semifinal": "classification.open.semifinal",
    "open_knockout": "classification.open.knockout",
    "open_qualifying": "classification.open.qualifying",
    "qualifying_standings": "venue.qualifying_standings",
    "points_qualifying": "venue.col.points_qualifying",
}


@cache
def words(lang: str) -> dict[str, str]:
    """The script's words in ``lang``, placeholders left for the script."""
    out = {}
    for name, key in WORD_KEYS.items():
        out[name] = t(key, lang, number="{number}", time="{time}", minutes="{minutes}", signed="{signed}",
                      seats="{seats}", names="{names}", rank="{rank}", place="{place}", table="{table}",
                      round="{round}", first="{first}", last="{last}")  # fmt: skip
    return out


def _head(title: str, lang: str, *, script: bool) -> str:
    """The venue pages' document head (``title`` already escaped): their style sheet, and their script or none."""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{title}</title>\n"
        '<link rel="stylesheet" href="/static/venue.css">\n'
        + ('<script src="/static/venue.js" defer></script>\n' if script else "")
        + "</head>\n"
    )


def page_html(*, view: str, tournament: str, lang: str) -> str:
    """The skeleton of the ``screen`` (projector) or ``phone`` view; the script draws the rest."""
    title = escape(tournament)
    mine = "" if view == "screen" else (
        '<section id="mine" class="mine" hidden></section>\n'
        '<section id="find" class="find"><label id="find-label" for="find-input"></label>'
        '<input id="find-input" type="search" autocomplete="off" spellcheck="false">'
        '<ul id="find-results" class="find-results"></ul></section>\n'
        '<nav id="tabs" class="tabs"></nav>\n'
    )  # fmt: skip
    return (
        _head(title, lang, script=True) + f'<body class="{escape(view)}" data-view="{escape(view)}">\n'
        f'<header class="top"><h1 id="name">{title}</h1><span id="round-label" class="round-label"></span>'
        '<span id="status" class="status"></span></header>\n'
        f"{mine}"
        '<main id="main" class="main"></main>\n'
        "</body>\n</html>\n"
    )


NOT_FOUND = "404: Not Found"  # what the API paths (``/data``, ``/events``, ``/static/…``) answer to a wrong path


def accepted_lang(asked: str | None, accept_language: str | None) -> str:
    """The language of a page that belongs to no tournament (a wrong or revoked link, whose server is unknown):
    ``?lang=`` when it names one of ours, else the browser's preference among Italian and English
    (``Accept-Language``: the first of ``it`` / ``en`` by weight), else English."""
    if asked in LOCALES:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "")[:512].split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LOCALES and weight > 0:
            ranked.append((-weight, i, primary))
    return min(ranked)[2] if ranked else "en"


@cache
def not_found_html(lang: str) -> str:
    """A wrong or revoked link's page: the venue page's look (its style sheet, no script), what happened and what to
    do, in ``lang``; small (the 404 of every wrong token a flood may ask)."""
    title = escape(t("venue.not_found.title", lang))
    return (
        _head(title, lang, script=False) + '<body class="missing">\n'
        f'<header class="top"><h1>{title}</h1></header>\n'
        f'<main class="main"><p class="missing-what">{escape(t("venue.not_found.text", lang))}</p>'
        f'<p class="missing-ask">{escape(t("venue.not_found.ask", lang))}</p></main>\n'
        "</body>\n</html>\n"
    )
