"""``steward print --input EXPORT --out FILE.pdf [--round N | --standings | --pairings N] [--venue-url URL]``: the A4
paper kit from a whole-tournament export (``steward-export/1``), offline.

``--round N`` (the default: the latest round with tables) writes one sheet per table of round N, ``--pairings N``
the round's pairings sorted by name for the door, ``--standings`` the standings (the final classification when the
export has one). With ``--venue-url`` (the venue page's address, as ``/venue link`` or ``steward web`` prints it)
each table's sheet carries a QR code to ``<URL>#table-<n>``; without it there is none and the footer says so. The
words are Italian or English (``--locale``, default ``it``). The same pages as ``/print`` (``bot.present.paper``).
The command prints what it wrote (JSON with ``--json``, the default when output is not a terminal); bad input or an
export without that round exits 2 with one line.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bot.tools._common import BadInput, add_io_arguments, run_tool
from bot.tools._help import command_help

if TYPE_CHECKING:
    from bot.present.paper import PaperError

URL_MAX = 1_000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "print", help="the A4 paper kit: table sheets, pairings, standings (PDF)", **command_help("print")
    )
    parser.add_argument("--out", "-o", required=True, metavar="FILE.pdf", help="the PDF file to write")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--round", type=int, metavar="N", help="one sheet per table of round N (default: the latest)")
    what.add_argument("--pairings", type=int, metavar="N", help="round N's pairings sorted by name, for the door")
    what.add_argument("--standings", action="store_true", help="the standings (the final classification if any)")
    parser.add_argument("--venue-url", metavar="URL", help="the venue page: each table's QR code links to URL#table-N")
    parser.add_argument("--locale", choices=("it", "en"), default="it", help="the paper's language (default it)")
    add_io_arguments(parser)

    def run(args: argparse.Namespace) -> int:
        return run_tool(args, lambda data: write_paper(args, data), _text)

    parser.set_defaults(func=run)


def _venue_url(value: str | None) -> str | None:
    if value is None:
        return None
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or len(value) > URL_MAX:
        raise BadInput(f"--venue-url must be an http(s) address of the venue page, got {value!r}")
    return value.strip()


def write_paper(args: argparse.Namespace, data: Any) -> dict[str, Any]:
    from bot.present import paper
    from bot.rules.tournament.documents import BadDocument
    from bot.rules.tournament.export import is_export, read_export

    if not is_export(data):
        raise BadInput('input: expected a whole-tournament export ("schema": "steward-export/1")')
    try:
        doc = read_export(data)
    except BadDocument as exc:
        raise BadInput(str(exc)) from None
    venue_url = _venue_url(args.venue_url)
    result: dict[str, Any]
    try:
        if args.standings:
            pdf = paper.standings(doc, locale=args.locale)
            final = bool(doc.final_classification)
            rows = len(doc.final_classification or doc.standings)
            result = {"kind": "final_classification" if final else "standings", "players": rows}
        elif args.pairings is not None:
            pdf = paper.pairings(doc, args.pairings, locale=args.locale)
            result = {"kind": "pairings", "round": args.pairings, "players": len(paper.pairings_of(doc, args.pairings))}
        else:
            number = args.round if args.round is not None else paper.latest_round(doc)
            pdf = paper.table_sheets(doc, number, locale=args.locale, venue_url=venue_url)
            tables = paper.round_of(doc, number).tables
            result = {"kind": "tables", "round": number, "tables": len(tables), "qr": venue_url is not None}
    except paper.PaperError as exc:
        raise BadInput(_refusal(exc)) from None
    try:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "wb") as fh:
            fh.write(pdf)
    except OSError as exc:
        raise BadInput(f"cannot write {args.out!r}: {exc.strerror}") from None
    return {**result, "path": args.out, "bytes": len(pdf)}


def _refusal(exc: PaperError) -> str:
    if exc.code == "no_round":
        number = exc.params.get("round")
        return f"round {number}: the export has no round {number} with tables"
    if exc.code == "no_standings":
        return "standings: the export has no standings and no final classification"
    return "rounds: the export has no round with tables yet"


def _text(result: dict[str, Any]) -> str:
    kind = result["kind"]
    if kind == "tables":
        sheets = "table sheet" if result["tables"] == 1 else "table sheets"
        what = f"{result['tables']} {sheets} of round {result['round']}"
        if not result["qr"]:
            what += " (no QR code: no --venue-url)"
    elif kind == "pairings":
        what = f"the pairings of round {result['round']} ({result['players']} players)"
    else:
        what = f"the {kind.replace('_', ' ')} ({result['players']} players)"
    return f"wrote {result['path']}: {what}, {result['bytes']} bytes"
