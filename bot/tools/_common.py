"""Shared plumbing for the engine CLIs: JSON in (file or stdin), JSON or text out, exit 2 on bad input.

The contract (../shared/spec/CLI.md): read ``--input FILE`` or standard input; write JSON with ``--json``
(the default when stdout is not a terminal) or readable text; exit 0 on success and 2 on bad input with a
one-line error on standard error naming the bad value; extra input fields are rejected.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot.rules.jsondoc import DocumentError, describe, loads_bounded

INPUT_MAX_CHARS = 5_000_000  # a draw instance of 2,000 players is about 200 kB

EXIT_OK = 0
EXIT_BAD_INPUT = 2


class BadInput(ValueError):
    """Input that does not fit; the message is the one line the user sees."""


def add_io_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--input", "-i", metavar="FILE", help="JSON input file (default: standard input)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", dest="as_json", action="store_true", default=None, help="write JSON")
    out.add_argument("--text", dest="as_json", action="store_false", help="write readable text")


def wants_json(args: argparse.Namespace) -> bool:
    if args.as_json is not None:
        return bool(args.as_json)
    return not sys.stdout.isatty()


def read_input(args: argparse.Namespace) -> Any:
    path = getattr(args, "input", None)
    try:
        if path:
            with open(path, "rb") as fh:
                raw = fh.read()
        else:
            stream = sys.stdin  # bytes where there are: what the locale would do with bad UTF-8 varies
            buffer = getattr(stream, "buffer", None)
            raw = buffer.read() if buffer is not None else stream.read().encode("utf-8", "surrogateescape")
    except OSError as exc:
        raise BadInput(f"cannot read input file {path!r}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        where = "input file" if path else "standard input"
        raise BadInput(f"{where} is not UTF-8 text (byte {exc.start + 1} cannot be read)") from None
    if not text.strip():
        raise BadInput("empty input: expected a JSON document")
    try:
        return loads_bounded(text, max_chars=INPUT_MAX_CHARS)
    except DocumentError as exc:
        raise BadInput(describe(exc)) from None


def check_keys(obj: Any, *, required: Iterable[str] = (), optional: Iterable[str] = (), where: str = "input") -> None:
    """Reject a non-object, a missing required key or any unknown key (typos must not pass silently)."""
    if not isinstance(obj, Mapping):
        raise BadInput(f"{where} must be a JSON object, got {type(obj).__name__}")
    req = list(required)
    allowed = set(req) | set(optional)
    for key in req:
        if key not in obj:
            raise BadInput(f"{where}: missing field {key!r}")
    for key in obj:
        if key not in allowed:
            raise BadInput(f"{where}: unknown field {key!r} (allowed: {', '.join(sorted(allowed))})")


def words(code: object, *families: str) -> str:
    """A code of the output (``three_cannons``) as words for ``--text``: the English catalogue's words for it in the
    first of ``families`` (``adjudicator.set``) that has them without a parameter ("Three cannons"), else the code
    with its underscores as spaces ("may draw"). JSON keeps the codes."""
    from bot.i18n import catalogue  # only when text is written: the JSON path loads no catalogue

    text = str(code)
    english = catalogue("en")
    for family in families:
        found = english.get(f"{family}.{text}")
        if found and "{" not in found:
            return found
    return text.replace("_", " ")


def emit(args: argparse.Namespace, result: Any, text: Callable[[Any], str]) -> None:
    if wants_json(args):
        json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text(result).rstrip("\n") + "\n")


QUOTE_MAX = 80  # characters of a bad value an error line quotes
LINE_MAX = 300


def one_line(message: str) -> str:
    """The error as one line: whitespace collapsed, every quoted or long unbroken value cut to ``QUOTE_MAX``
    characters, the whole to ``LINE_MAX`` — a 5,000-character name must not flood the terminal."""
    text = " ".join(message.split())

    def cut(match: re.Match[str]) -> str:
        value = match.group(0)
        return value if len(value) <= QUOTE_MAX else value[: QUOTE_MAX - 1] + "…"

    text = re.sub(r"'[^']*'|\"[^\"]*\"|\S{" + str(QUOTE_MAX + 1) + ",}", cut, text)
    return text if len(text) <= LINE_MAX else text[: LINE_MAX - 1] + "…"


def error_text(exc: BaseException) -> str:
    """The one line of a refusal: a rules engine's refusal in the English catalogue's words ("Every table needs at
    least one player (tables of [4, 0])."), never its code (issue 44); a setting of a preset named with what it
    allows; anything else as it says itself."""
    from bot.rules.errors import RuleError
    from bot.rules.presets import PresetFieldError

    if isinstance(exc, PresetFieldError):
        return one_line(f"the preset setting {exc.field}={exc.bad_value!r} does not fit (allowed: {exc.allowed})")
    if isinstance(exc, RuleError) and isinstance(exc.code, str):
        from bot.i18n import engine_reason, join_names  # only when a refusal is written
        from bot.rules.errors import refusal_params

        params = {k: join_names(v, "en") if isinstance(v, tuple) else v for k, v in refusal_params(exc).items()}
        if not isinstance(exc.value, str):  # the value as the JSON input wrote it: [1, 2, 3, 4]
            params["value"] = json.dumps(exc.value, ensure_ascii=False, default=str)[: QUOTE_MAX * 2]
        said = engine_reason(exc.code, "en", **params)
        if said is not None:
            return one_line(said)
        text = str(exc)  # no sentence yet: the code as words ("bad document: …"), never as an identifier
        return one_line(exc.code.replace("_", " ") + text[len(exc.code) :] if text.startswith(exc.code) else text)
    return one_line(str(exc)) or type(exc).__name__


def run_tool(args: argparse.Namespace, compute: Callable[[Any], Any], text: Callable[[Any], str]) -> int:
    """Read input, compute, emit. ``BadInput`` and ``ValueError`` become exit 2 with one line on stderr."""
    try:
        data = read_input(args)
        result = compute(data)
    except (BadInput, ValueError) as exc:
        sys.stderr.write(f"error: {error_text(exc)}\n")
        return EXIT_BAD_INPUT
    emit(args, result, text)
    return EXIT_OK
