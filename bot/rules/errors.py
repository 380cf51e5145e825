"""The one base class of every rule error.

Every engine raises a subclass of :class:`RuleError`: a ``ValueError`` with a stable ``code`` (what went wrong,
for the i18n layer and the CLI) and ``value`` (the offending input, quoted). Services catch ``RuleError`` once and
turn it into a localised ``UserFacingError``; the ``steward`` CLI turns it into one line and exit code 2.
"""

from __future__ import annotations


class RuleError(ValueError):
    """Input that a rule cannot accept. ``code`` is stable; ``value`` quotes the bad input."""

    def __init__(self, code: str, value: object) -> None:
        super().__init__(f"{code}: {value!r}")
        self.code = code
        self.value = value

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled with its attributes, whatever the subclass's constructor takes: a refusal computed in a worker
        process reaches the caller as the same error."""
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


def _rebuild(cls: type[RuleError], args: tuple[object, ...], state: dict[str, object]) -> RuleError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


def plain(value: object) -> str:
    """A refusal's value as plain text, the same in every language: ``[4, 0]`` → ``4, 0``, ``("a", "b")`` → ``a, b``,
    ``{"seats": 8}`` → ``seats 8``."""
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(plain(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {plain(v)}" for k, v in value.items())
    return str(value)


def refusal_params(exc: RuleError, *, limit: int = 120) -> dict[str, object]:
    """A rule error as an error message's parameters: ``code`` (the presentation words it, never shows it: issue 44),
    ``value`` (a list stays a tuple of plain texts, for the presentation to join as a sentence lists names; anything
    else becomes plain text cut to ``limit`` characters) and, for a value that is a mapping, each of its keys too (a
    number stays a number)."""
    params: dict[str, object] = {}
    if isinstance(exc.value, dict):
        for key, item in exc.value.items():
            if isinstance(key, str) and key.isidentifier() and key not in ("code", "value"):
                number = isinstance(item, int | float) and not isinstance(item, bool)
                params[key] = item if number else _part(item, limit)
    params.update(code=exc.code, value=_part(exc.value, limit))
    return params


def _part(value: object, limit: int) -> object:
    if isinstance(value, list | tuple | set | frozenset) and not isinstance(value, str):
        return tuple(plain(v)[:limit] for v in list(value)[:LISTED_MAX])
    return plain(value)[:limit]


LISTED_MAX = 20  # the items of a refusal's list that a message names
