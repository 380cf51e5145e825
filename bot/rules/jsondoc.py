"""Reading a JSON document a user typed, within bounds: a depth, a size and a number length are
checked before and while parsing, so ``[`` × 1000 or a 4,500-digit number is a clear refusal instead of a
``RecursionError`` or a ``ValueError`` deep in the engine. The bot and ``steward`` read every document here.
"""

from __future__ import annotations

import json
import math
from typing import Any

from bot.rules.errors import RuleError

MAX_DEPTH = 32  # nesting of arrays and objects; the deepest document we read (a board, a draw) needs 5
MAX_NUMBER_CHARS = 24  # digits of one number: more than any count, cell or point total the games allow


class DocumentError(RuleError):
    """``code``: ``too_large``, ``too_deep``, ``number_too_long``, ``not_a_number`` or ``not_json``."""


class NotJson(DocumentError):
    """The text is not JSON: the parser's message and where it stopped."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__("not_json", f"line {line}, column {column}: {message}")
        self.message, self.line, self.column = message, line, column


def _depth(text: str, limit: int) -> None:
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                raise DocumentError("too_deep", limit)
        elif ch in "]}":
            depth -= 1


def _number(kind: type) -> Any:
    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            raise DocumentError("number_too_long", text[:12] + "…")
        value = kind(text)
        if value in (math.inf, -math.inf):  # 1e999 is short but no finite float: never let it into a document
            raise DocumentError("number_too_long", text)
        return value

    return parse


def _constant(name: str) -> Any:
    raise DocumentError("not_a_number", name)


def loads_bounded(text: str, *, max_chars: int, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` for user input: refuses a document over ``max_chars`` characters or ``max_depth`` levels, a
    number longer than ``MAX_NUMBER_CHARS`` and ``NaN``/``Infinity`` (not JSON) — each as a ``DocumentError``."""
    if len(text) > max_chars:
        raise DocumentError("too_large", len(text))
    _depth(text, max_depth)
    try:
        return json.loads(text, parse_int=_number(int), parse_float=_number(float), parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise NotJson(exc.msg, exc.lineno, exc.colno) from None


def describe(exc: DocumentError) -> str:
    """One English line for the command line (the bot words the code through its catalogue)."""
    return {
        "too_large": f"the document is too large ({exc.value} characters)",
        "too_deep": f"the document nests deeper than {exc.value} levels",
        "number_too_long": f"a number is too long or too large: {exc.value}",
        "not_a_number": f"{exc.value} is not a JSON number",
        "not_json": f"input is not valid JSON ({exc.value})",
    }.get(exc.code, exc.code)
