"""``steward render standings|tables|bracket|rr-board|risiko-map INPUT.json -o out.png`` (BOT-IMG-1).

Input shapes are the renderer's own (``renderer.models``, documented in ``docs/renderer.md`` with examples in
``docs/examples/render/``). ``rr-board`` also accepts the engine shape of ``steward rr verify``
(``{"board": {"quadrants": [...]}, "robots": {...}, "target": [...], "moves": [["blue", "N"], ...]}``) and
replays the moves with the Ricochet Robots engine to draw the path. Standings with more than one page are
written as ``out-1.png``, ``out-2.png`` … next to ``out.png``'s name. The command prints what it wrote (JSON
with ``--json``, the default when output is not a terminal). Exit 2 with one line on bad input.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.present.images import image_words
from bot.tools._common import EXIT_BAD_INPUT, BadInput, add_io_arguments, check_keys, run_tool
from bot.tools._help import command_help

KINDS = ("standings", "tables", "bracket", "rr-board", "risiko-map")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "render",
        help="images: standings, tables, bracket, rr-board, risiko-map",
        **command_help("render"),
    )
    parser.add_argument("kind", choices=KINDS, help="which image")
    parser.add_argument("input_file", nargs="?", metavar="INPUT.json", help="JSON input (default: standard input)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.png", help="PNG file to write")
    parser.add_argument("--locale", choices=("it", "en"), default="it", help="labels and number format (default it)")
    parser.add_argument(
        "--rows-per-page",
        type=int,
        default=None,
        help="standings rows per page (default: the phone rule of renderer.pages, as the bot)",
    )
    add_io_arguments(parser)
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    if args.input_file:
        if args.input:
            sys.stderr.write("error: give the input either as INPUT.json or with --input, not both\n")
            return EXIT_BAD_INPUT
        args.input = args.input_file
    return run_tool(args, lambda data: _render(args, data), _text)


def _text(result: Any) -> str:
    return "\n".join(f"wrote {f['path']} ({f['width']}×{f['height']}, {f['bytes']} bytes)" for f in result["files"])


def _render(args: argparse.Namespace, data: Any) -> dict[str, Any]:
    import renderer
    from renderer.models import RenderInputError

    kind: str = args.kind
    try:
        pages: list[bytes]
        if kind == "standings":
            if args.rows_per_page is not None and args.rows_per_page < 1:
                raise BadInput(f"--rows-per-page must be at least 1, got {args.rows_per_page}")
            pages = renderer.render_standings(
                renderer.StandingsData.from_json(data), words=image_words(args.locale), rows_per_page=args.rows_per_page
            )
        else:  # the same page functions as the bot: one pagination rule (renderer.pages)
            build: Callable[[Any], list[bytes]] = {
                "tables": lambda d: renderer.render_tables_pages(
                    renderer.TablesData.from_json(d), words=image_words(args.locale)
                ),
                "bracket": lambda d: renderer.render_bracket_pages(
                    renderer.BracketData.from_json(d), words=image_words(args.locale)
                ),
                "rr-board": lambda d: [renderer.render_rr_board(_rr_board_input(d), words=image_words(args.locale))],
                "risiko-map": lambda d: renderer.render_risiko_map_pages(
                    renderer.RiskMapData.from_json(d), words=image_words(args.locale)
                ),
            }[kind]
            pages = build(data)
    except RenderInputError as exc:
        raise BadInput(str(exc)) from None
    return {"kind": kind, "files": _write(args.output, pages)}


def _write(output: str, pages: Sequence[bytes]) -> list[dict[str, Any]]:
    import io

    from PIL import Image

    stem, ext = os.path.splitext(output)
    ext = ext or ".png"
    paths = [f"{stem}{ext}"] if len(pages) == 1 else [f"{stem}-{i}{ext}" for i in range(1, len(pages) + 1)]
    files = []
    for path, png in zip(paths, pages, strict=True):
        try:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)  # `-o render-output/x.png` on a fresh clone
            with open(path, "wb") as fh:
                fh.write(png)
        except OSError as exc:
            raise BadInput(f"cannot write {path!r}: {exc.strerror}") from None
        with Image.open(io.BytesIO(png)) as im:
            files.append({"path": path, "width": im.width, "height": im.height, "bytes": len(png)})
    return files


def _rr_board_input(data: Any) -> Any:
    """The renderer's own shape (``cell_walls`` at the top), or the engine shape replayed with the RR engine."""
    from renderer.adapters import rr_board_data
    from renderer.models import RRBoardData

    if isinstance(data, Mapping) and "cell_walls" in data:
        return RRBoardData.from_json(data)
    check_keys(data, required=("board", "robots"), optional=("target", "moves", "diagonal_variant", "title"))
    try:
        from bot.rules.ricochet.board import Board
        from bot.rules.ricochet.moves import replay
        from bot.tools.rr import parse_target, robot_cells
    except ImportError:  # pragma: no cover - the engine ships with the package
        raise BadInput("the Ricochet Robots engine is not available: give cell_walls and targets instead") from None
    if not isinstance(data["board"], Mapping):
        raise BadInput(f"board must be a JSON object, got {data['board']!r:.60}")
    variant = data.get("diagonal_variant", False)
    if not isinstance(variant, bool):
        raise BadInput(f"diagonal_variant must be true or false, got {variant!r}")
    board = Board.from_json(data["board"])
    target = None
    if data.get("target") is not None:  # the same target parser as `steward rr solve` (either form it accepts)
        target = parse_target(board, data["target"])
    robots = robot_cells(board, data["robots"], target)
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise BadInput(f"moves must be a list of [colour, direction], got {moves!r:.60}")
    steps = replay(board, robots, moves, diagonal_variant=variant)
    active = None if target is None else (target.row, target.col)
    return rr_board_data(board, robots, steps, active_target=active, diagonal_variant=variant, title=data.get("title"))
