"""How ``/rr`` reads and answers in the reader's language: the robots, cells and moves as the board image shows
them (``bot.rules.ricochet.notation``), the line that says back which robot each letter was read as, and a
refusal that names the piece not understood and what is accepted."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TypeVar

from bot.errors import InvalidInput
from bot.i18n import t
from bot.present.images import image_words
from bot.rules.ricochet import notation as rr
from bot.rules.ricochet.board import ROBOT_COLOURS, SYMBOLS, TARGET_COLOURS, VORTEX_COLOUR
from bot.services.adjudicators import RRAnswer
from bot.workers import default_workers
from renderer import render_rr_board
from renderer.adapters import rr_board_data

T = TypeVar("T")

EXAMPLE_ROBOTS: Mapping[str, tuple[int, int]] = {"red": (15, 5), "green": (10, 7), "blue": (5, 15), "yellow": (10, 3)}
EXAMPLE_MOVES: tuple[tuple[str, str], ...] = (("red", "N"), ("green", "E"), ("blue", "S"), ("yellow", "W"))
EXAMPLE_TARGET = rr.TargetText((2, 9), "blue", "triangle")


def robots_legend(locale: str) -> str:
    """``R rosso, V verde, B blu, G giallo, N nero, A argento``: each robot's letter on the image and its name."""
    return ", ".join(f"{rr.robot_letter(c, locale)} {rr.colour_name(c, locale)}" for c in ROBOT_COLOURS)


def refusal(exc: rr.NotationError, locale: str) -> InvalidInput:
    """The notation's refusal as a message: what was not understood, and the forms and letters accepted."""
    params: dict[str, object] = {"value": str(exc.value)[:60], "robots": robots_legend(locale)}
    if exc.code == "robot_twice":
        first, second = exc.value if isinstance(exc.value, tuple) else (exc.value, "")  # the two entries
        robot = rr.colour_name(exc.colour, locale) if exc.colour else ""
        params |= {"first": str(first)[:30], "second": str(second)[:30], "robot": robot}
    elif exc.code == "robots_unreadable":
        params["example"] = rr.format_robots(EXAMPLE_ROBOTS, locale)
    elif exc.code == "moves_unreadable":
        params |= {"example": rr.format_moves(EXAMPLE_MOVES, locale),
                   "arrows": rr.format_moves(EXAMPLE_MOVES, locale, arrows=True),
                   "directions": " ".join(rr.direction_letter(d, locale) for d in "NESW") + " · "
                   + " ".join(rr.DIRECTION_NAMES[locale][d] for d in "NESW")}  # fmt: skip
    elif exc.code == "target_unreadable":
        params["example"] = rr.format_target(EXAMPLE_TARGET, locale)
    elif exc.code == "target_word_unknown":
        params |= {"colours": ", ".join(rr.colour_name(c, locale) for c in TARGET_COLOURS if c != VORTEX_COLOUR),
                   "symbols": ", ".join(rr.symbol_name(s, locale) for s in SYMBOLS)}  # fmt: skip
    return InvalidInput(f"error.adjudicator.rr_{exc.code}", **params)


def read(parse: Callable[[str, str], T], text: str, locale: str) -> T:
    """``parse(text, locale)`` (a ``parse_*`` of the notation), its refusal as a message in ``locale``."""
    try:
        return parse(text, locale)
    except rr.NotationError as exc:
        raise refusal(exc, locale) from None


def read_back(
    robots: Mapping[str, Sequence[int]], target: rr.TargetText, target_cell: Sequence[int], locale: str
) -> str:
    """``I read: R red F16, G green H11, …; target J3 blue triangle``: each robot as its letter, its colour's name
    and its cell, so a letter read as another robot than meant shows at once."""
    ordered = sorted(robots.items(), key=lambda item: ROBOT_COLOURS.index(item[0]))
    robots_text = ", ".join(f"{rr.robot_letter(c, locale)} {rr.colour_name(c, locale)} {rr.cell_name(cell)}"
                            for c, cell in ordered)  # fmt: skip
    goal = rr.format_target(target._replace(cell=(target_cell[0], target_cell[1])), locale)
    return t("rr.read", locale, robots=robots_text, target=goal)


def service_target(target: rr.TargetText) -> list[object]:
    """The target as the adjudicator takes it: ``[row, col, colour, symbol]``, or ``[colour, symbol]`` to find it."""
    if target.cell is None:
        return [target.colour, target.symbol]
    return [*target.cell, target.colour, target.symbol]


async def board_png(answer: RRAnswer, locale: str, title: str) -> bytes:
    """The board of a ruling with its robots and the replayed path, in ``locale``'s words (the robots' letters as the
    ``/rr`` notation reads them), rendered off the event loop."""
    data = rr_board_data(answer.board, answer.robots, answer.steps, active_target=answer.target,
                         diagonal_variant=answer.diagonal_variant, title=title)  # fmt: skip
    return await default_workers().thread(partial(render_rr_board, data, words=image_words(locale)))
