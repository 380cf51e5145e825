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
