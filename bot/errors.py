"""Errors that are safe to show to users: a stable message key plus parameters, localised at the edge."""

from __future__ import annotations

from typing import Any


class UserFacingError(Exception):
    """A domain refusal the user can act on. ``key`` names an i18n message; ``params`` fill it in."""

    key: str = "error.generic"

    def __init__(self, key: str | None = None, /, **params: Any) -> None:
        if key is not None:
            self.key = key
        self.params = params
        super().__init__(f"{self.key} {params}" if params else self.key)


class NotFound(UserFacingError):
    key = "error.not_found"


class PermissionDenied(UserFacingError):
    """The actor lacks a role; ``params['role']`` names the role needed."""

    key = "error.permission"


class InvalidInput(UserFacingError):
    key = "error.invalid_input"


class Conflict(UserFacingError):
    key = "error.conflict"
