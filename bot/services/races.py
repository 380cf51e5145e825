"""Two people changing the same thing at the same moment, when the database rather than a use case's own check
said no: a unique constraint another transaction satisfied first, or PostgreSQL's serialization failure or
deadlock (issue 40, finding 7). Nothing of the loser was written — its transaction rolled back — so the person is
told so in one line and can look again; never "something went wrong"."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, IntegrityError

# PostgreSQL's SQLSTATE codes: unique_violation, serialization_failure, deadlock_detected
LOST_RACE_CODES = frozenset({"23505", "40001", "40P01"})


def _lost_race(error: DBAPIError) -> bool:
    code = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
    if code in LOST_RACE_CODES:
        return True
    return isinstance(error, IntegrityError) and "unique constraint failed" in str(error.orig).lower()


def is_concurrent_change(error: BaseException) -> bool:
    """``error`` (or what caused it) is a write that lost a race to another transaction on the same rows."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, DBAPIError) and _lost_race(current):
            return True
        following = getattr(current, "original", None) or current.__cause__
        if following is None and not current.__suppress_context__:
            following = current.__context__
        current = following
    return False
