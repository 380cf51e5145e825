"""``steward verify EXPORT`` and ``steward modulo`` on the whole-tournament export (``steward-export/1``,
docs/export.md; contracts in ../shared/spec/CLI.md).

``verify`` re-checks a tournament offline with the bot's own functions: every draw replayed from its published
request and seed (``plan_draw``, ``plan_semifinals``, ``plan_final``), every typed report's places and tournament
points from its table points (``game_results``, the ``steward standings`` scoring), the standings and the final
classification from those points. Exit 0 with a last line beginning ``verified``; exit 1 and one line naming the first
thing that does not hold (round, table, player, field); exit 2 on an unreadable document.

``modulo`` writes the ModuloTorneo workbook of the national RisiKo! ranking (``bot.present.modulo``), or refuses —
exit 2 and one line naming the players or fields — rather than write one its validator rejects.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.tools._common import EXIT_BAD_INPUT, EXIT_OK, BadInput, emit, one_line, read_input
from bot.tools._help import command_help

EXIT_FAILED = 1
FIXED_POINTS = ("sit_out", "head_to_head")  # FIRK's last-round tables: fixed points, not the table's scoring


class Mismatch(Exception):
    """The first thing of the export that does not hold, as one line."""


def _replay(export: Any) -> int:
    """Every drawn round's tables from its request and seed; the number of rounds replayed."""
    from bot.rules.tournament.planner import DrawRequest, FinalsRequest, plan_draw, plan_final, plan_semifinals

    replayed = 0
    for r in export.rounds:
        request = (r.draw or {}).get("request")
        if not request:
            continue
        kind = request.get("kind")
        if kind == "semifinal":
            if r.seed is None:
                raise Mismatch(f"round {r.number}: the semifinals' seed is missing")
            tables = [list(t) for t in plan_semifinals(FinalsRequest.from_json(request), r.seed)[0]]
            drawn = [list(t.seats) for t in sorted(r.tables, key=lambda t: t.number)]
        elif kind == "final":
            tables = [list(t) for t in plan_final(FinalsRequest.from_json(request))[0]]
            drawn = [list(t.seats) for t in sorted(r.tables, key=lambda t: t.number)]
        else:
            if r.seed is None:
                raise Mismatch(f"round {r.number}: the draw's seed is missing")
            tables = [list(t) for t in plan_draw(DrawRequest.from_json(request), r.seed).tables]
            drawn = [list(t) for t in (r.draw or {}).get("tables_drawn") or ()] or [
                list(t.seats) for t in sorted(r.tables, key=lambda t: t.number)
            ]
        if tables != drawn:
            first = next((i for i, (a, b) in enumerate(zip(tables, drawn, strict=False)) if a != b), len(tables))
            replayed_at = tables[first] if first < len(tables) else []
            exported_at = drawn[first] if first < len(drawn) else []
            raise Mismatch(
                f"round {r.number}, table {first + 1}: the draw replayed from its seed {r.seed} seats {replayed_at}, "
                f"the export {exported_at}"
            )
        replayed += 1
    return replayed


def _rescore(export: Any, ruleset: Any) -> int:
    """Every reported table's places and tournament points recomputed from its table points and statuses with the
    ``steward standings`` scoring; the number of tables re-scored (FIRK's fixed-point tables are skipped)."""
    from bot.tools.tournament import StandingsDocument, game_results, validated

    status = {"played": "played", "disqualified": "disqualified"}
    scored = 0
    for r in export.rounds:
        for t in r.tables:
            results = t.report.results
            scorable = t.report.kind in ("points", "situation", "ricochet") and t.special not in FIXED_POINTS
            if not results or not scorable:
                continue
            if any(res.rank is None or res.tournament_points is None or res.table_points is None for res in results):
                continue
            key = "game_points" if export.tournament.game == "ricochet" else "table_points"
            rows = [
                {"player": x.player, key: float(x.table_points or 0.0), "status": status.get(x.outcome, "forfeit")}
                for x in sorted(results, key=lambda x: x.rank or 0)
            ]
            game_doc = {"round": r.number, "table": t.number, "players": rows}
            doc = validated(
                StandingsDocument,
                {
                    "preset": export.tournament.preset,
                    "overrides": dict(export.tournament.overrides),
                    "games": [game_doc],
                },
            )
            (game,) = game_results(doc.games, ruleset)
            stored = {res.player: res for res in results}
            for entry in game.entries:
                res = stored[int(entry.player)]
                if entry.order != res.rank or abs(entry.tournament_points - float(res.tournament_points or 0)) > 1e-6:
                    raise Mismatch(
                        f"round {r.number}, table {t.number}, player {entry.player}: place {res.rank} and "
                        f"{res.tournament_points} tournament points in the export; its table points give place "
                        f"{entry.order} and {entry.tournament_points}"
                    )
            scored += 1
    return scored


def _standings(export: Any, ruleset: Any) -> tuple[int, bool]:
    """The standings and the final classification recomputed from the points; (players ranked, final checked)."""
    from bot.rules.tournament.export import standings_document
    from bot.tools.tournament import StandingsDocument, classification_of, standings_of, validated

    doc = validated(StandingsDocument, standings_document(export))
    results, st = standings_of(doc, ruleset)
    mine = {row.player: (row.rank, round(row.points, 6)) for row in st.rows}
    for row in export.standings:
        got = mine.get(row.player)
        if got is None or got[0] != row.rank or abs(got[1] - float(row.points)) > 1e-6:
            raise Mismatch(
                f"standings, player {row.player}: rank {row.rank} with {row.points} points in the export; "
                f"the reports give {got}"
            )
    if export.final_classification is None:
        return len(export.standings), False
    final = classification_of(doc, ruleset, results, st)
    places = {r.player: r.place for r in final.rows} if final is not None else {}
    for row in export.final_classification:
        if row.place is not None and places.get(row.player) != row.place:
            raise Mismatch(
                f"final classification, player {row.player}: place {row.place} in the export; the "
                f"results give {places.get(row.player)}"
            )
    return len(export.standings), True


def verify_document(data: Any) -> list[str]:
    """The checks' lines (the last one begins ``verified``), or ``Mismatch`` / ``BadInput``."""
    from bot.rules.presets import PresetFieldError
    from bot.rules.ruleset import load_ruleset
    from bot.rules.tournament.documents import BadDocument
    from bot.rules.tournament.export import read_export

    try:
        export = read_export(data)
        ruleset = load_ruleset(export.tournament.preset, export.tournament.overrides or None)
    except (BadDocument, PresetFieldError, KeyError) as exc:
        raise BadInput(str(exc)) from None
    replayed = _replay(export)
    scored = _rescore(export, ruleset)
    ranked, final = _standings(export, ruleset)
    lines = [
        f"draws: {replayed} round(s) replayed from their seeds",
        f"reports: {scored} table(s) re-scored from their table points",
        f"standings: {ranked} player(s) ranked as the export says",
        "final classification: " + ("as the export says" if final else "none in the export"),
    ]
    extra = (
        "no commitments or signature in this export"
        if not (export.audit or export.signature)
        else ("its commitments and signature are not checked by this version")
    )
    lines.append(f"verified: {export.tournament.name} ({extra})")
    return lines


def _run_verify(args: argparse.Namespace) -> int:
    try:
        data = read_input(args)
        lines = verify_document(data)
    except BadInput as exc:
        sys.stderr.write(f"error: {one_line(str(exc))}\n")
        return EXIT_BAD_INPUT
    except Mismatch as exc:
        sys.stdout.write(f"not verified: {one_line(str(exc))}\n")
        return EXIT_FAILED
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def _run_modulo(args: argparse.Namespace) -> int:
    from bot.present.modulo import ModuloRefused, modulo_workbook
    from bot.rules.tournament.documents import BadDocument
    from bot.rules.tournament.export import read_export
    from bot.rules.tournament.modulo import ModuloOptions

    try:
        export = read_export(read_input(args))
    except BadInput as exc:
        sys.stderr.write(f"error: {one_line(str(exc))}\n")
        return EXIT_BAD_INPUT
    except BadDocument as exc:
        sys.stderr.write(f"error: {one_line(str(exc))}\n")
        return EXIT_BAD_INPUT
    options = ModuloOptions(type=args.type or "", organiser=args.organiser, venue=args.venue)
    try:
        data = modulo_workbook(export, options)
    except ModuloRefused as exc:
        sys.stderr.write(f"error: the workbook would not pass the national ranking's check: {refusal_text(exc)}\n")
        return EXIT_BAD_INPUT
    try:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as exc:
        sys.stderr.write(f"error: cannot write {args.out!r}: {exc.strerror}\n")
        return EXIT_BAD_INPUT
    played = {p for r in export.rounds for t in r.tables if t.report.results for p in t.seats}
    emit(
        args,
        {"out": args.out, "players": len(played), "bytes": len(data)},
        lambda r: f"wrote {r['out']} ({r['players']} players)",
    )
    return EXIT_OK


PROBLEM_WORDS: Mapping[str, str] = {
    "no_organiser": 'no organiser (--organiser "CITY [Club]")',
    "bad_type": "not a tournament type of the national ranking",
    "not_risiko": "only RisiKo! tournaments reach the national ranking",
    "no_first_name": "players without a first name",
    "no_surname": "players without a surname",
    "no_birth_or_national_id": "players with neither a birth date nor a national id",
    "same_person": "two players with the same name and birth date",
    "round_without_date": "rounds without a date",
    "dates_go_back": "rounds dated before the previous one",
    "nobody_played": "nobody played a game",
    "too_many_players": "more players than the workbook holds",
}


def refusal_text(exc: Any) -> str:
    def names(listed: tuple[str, ...]) -> str:
        more = f" and {len(listed) - 12} more" if len(listed) > 12 else ""
        return ": " + ", ".join(listed[:12]) + more if listed else ""

    return "; ".join(PROBLEM_WORDS.get(p.code, p.code) + names(p.names) for p in exc.problems)


def register(subparsers: Any) -> None:
    p_verify = subparsers.add_parser(
        "verify", help="re-check a whole-tournament export offline", **command_help("verify")
    )
    p_verify.add_argument("input", metavar="EXPORT", nargs="?", help="the export (default: standard input)")
    p_verify.set_defaults(func=_run_verify)

    p_modulo = subparsers.add_parser(
        "modulo", help="the ModuloTorneo workbook of the national RisiKo! ranking", **command_help("modulo")
    )
    p_modulo.add_argument("--input", "-i", metavar="EXPORT", help="the whole-tournament export (default: stdin)")
    p_modulo.add_argument("--out", "-o", required=True, metavar="FILE.xlsx", help="the workbook to write")
    p_modulo.add_argument("--type", default=None, help="the tournament type (default: Torneo Open)")
    p_modulo.add_argument("--organiser", default=None, help='the organising club, "CITY [Club]"')
    p_modulo.add_argument("--venue", default=None, help="the venue (Sede Torneo)")
    out = p_modulo.add_mutually_exclusive_group()
    out.add_argument("--json", dest="as_json", action="store_true", default=None, help="write JSON")
    out.add_argument("--text", dest="as_json", action="store_false", help="write readable text")
    p_modulo.set_defaults(func=_run_modulo)
