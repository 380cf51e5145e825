"""``steward rule`` — the rules desk on the command line (BOT-RUL-1): the best-matching articles of a preset for a
question in Italian or English, in our own words, with the rulebook's reference. The bot's ``/rule`` calls the same
:func:`bot.rules.rulebook.search.search`.

``steward rule "question" --preset NAME`` for people; without a question it reads the JSON document
``{"preset", "query", "limit"?, "locale"?}`` like every engine command.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.rules.presets import PRESET_NAMES
from bot.rules.rulebook.search import QUERY_MAX, SearchError, search
from bot.tools._common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    BadInput,
    add_io_arguments,
    check_keys,
    emit,
    one_line,
    read_input,
)
from bot.tools._help import command_help

LIMIT_MAX = 10


def answer(data: Any) -> dict[str, Any]:
    """The contract of ../shared/spec/CLI.md: ``matches`` best first, title and summary in the query's language."""
    check_keys(data, required=("preset", "query"), optional=("limit", "locale"))
    preset, query = data["preset"], data["query"]
    if preset not in PRESET_NAMES:
        raise BadInput(f"preset: unknown {str(preset)[:60]!r} (known: {', '.join(PRESET_NAMES)})")
    if not isinstance(query, str):
        raise BadInput("query: a question in Italian or English expected")
    limit = data.get("limit", 3)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= LIMIT_MAX:
        raise BadInput(f"limit: a whole number from 1 to {LIMIT_MAX} expected, got {limit!r}")
    locale = data.get("locale")
    if locale not in (None, "it", "en"):
        raise BadInput(f"locale: 'it' or 'en' expected, got {str(locale)[:20]!r}")
    try:
        lang, matches = search(query, preset, limit=limit, lang=locale)
    except SearchError as exc:
        reason = {"query_empty": "an empty question", "query_too_long": f"longer than {QUERY_MAX} characters"}
        raise BadInput(f"query: {reason.get(exc.code, exc.code)}") from None
    return {
        "preset": preset,
        "query": " ".join(query.split()),
        "locale": lang,
        "matches": [
            {
                "article": m.article.id,
                "rulebook": m.article.rulebook,
                "reference": m.article.reference,
                "title": m.article.title[lang],
                "summary": m.article.summary[lang],
                "score": m.score,
                "fields": list(m.article.fields),
            }
            for m in matches
        ],
    }


def _text(result: dict[str, Any]) -> str:
    if not result["matches"]:
        return "no article matches that question"
    lines = []
    for i, m in enumerate(result["matches"], 1):
        lines.append(f"{i}. {m['reference']} — {m['title']} (score {m['score']})")
        lines.append(f"   {m['summary']}")
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    try:
        if args.question:
            if not args.preset:
                raise BadInput("--preset NAME is needed with a question")
            data: Any = {"preset": args.preset, "query": " ".join(args.question), "limit": args.limit}
            if args.locale:
                data["locale"] = args.locale
        else:
            data = read_input(args)
        result = answer(data)
    except BadInput as exc:
        sys.stderr.write(f"error: {one_line(str(exc))}\n")
        return EXIT_BAD_INPUT
    emit(args, result, _text)
    return EXIT_OK


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("rule", help="the rules desk: best-matching articles of a preset, it or en",
                                   **command_help("rule"))  # fmt: skip
    parser.add_argument("question", nargs="*", help="the question (else the JSON document is read)")
    parser.add_argument("--preset", choices=PRESET_NAMES, help="the ruleset preset")
    parser.add_argument("--limit", type=int, default=3, help="how many articles (1-10, default 3)")
    parser.add_argument("--locale", choices=["it", "en"], help="answer language (default: the question's)")
    add_io_arguments(parser)
    parser.set_defaults(func=_run)
