"""The one reader of a preset's tables: typed values, each refused with the field's dotted path and what is allowed
(:class:`~bot.rules.presets.PresetFieldError`), and the keys it read remembered (a key no engine reads is a test
failure, ``tests/rules/test_preset_keys_read.py``). The tournament, RisiKo!, Ricochet Robots and lateness rules all
read their tables through it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from bot.rules.presets import PresetFieldError

REQUIRED: Any = object()  # a key the table must hold (the shipped presets all do; an override may not drop it)


class TableReader:
    """Typed reads from the preset table ``where`` (``"tournament"``, ``"risiko.cards"``…). A read without a default
    requires the key."""

    def __init__(self, table: Mapping[str, Any], where: str) -> None:
        self.table = table
        self.where = where
        self.consumed: set[str] = set()

    def get(self, key: str, default: Any = REQUIRED) -> Any:
        self.consumed.add(key)
        if key in self.table:
            return self.table[key]
        if default is REQUIRED:
            raise PresetFieldError(f"{self.where}.{key}", None, "a value (the preset has none)")
        return default

    def bad(self, key: str, value: object, allowed: str) -> PresetFieldError:
        return PresetFieldError(f"{self.where}.{key}", value, allowed)

    def integer(self, key: str, default: Any = REQUIRED, minimum: int = 0) -> int:
        v = self.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
            raise self.bad(key, v, f"{minimum}, {minimum + 1}, {minimum + 2}, …")
        return v

    def number(self, key: str, default: Any = REQUIRED) -> float:
        v = self.get(key, default)
        if not isinstance(v, int | float) or isinstance(v, bool) or math.isnan(v) or v < 0:
            raise self.bad(key, v, "≥ 0")
        return float(v)

    def flag(self, key: str, default: Any = REQUIRED) -> bool:
        v = self.get(key, default)
        if not isinstance(v, bool):
            raise self.bad(key, v, "true, false")
        return v

    def choice(self, key: str, default: Any, choices: tuple[str, ...]) -> str:
        v = self.get(key, default)
        if v not in choices:
            raise self.bad(key, v, ", ".join(choices))
        return str(v)

    def choices(self, key: str, default: Any, choices: tuple[str, ...]) -> tuple[str, ...]:
        v = self.get(key, default)
        if not isinstance(v, list) or not all(isinstance(x, str) and x in choices for x in v):
            raise self.bad(key, v, "[" + ", ".join(choices) + "]")
        return tuple(v)

    def strs(self, key: str, default: Any = REQUIRED) -> tuple[str, ...]:
        v = self.get(key, default)
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self.bad(key, v, "[…]")
        return tuple(v)

    def ints(self, key: str, default: Any = REQUIRED, minimum: int = 0) -> tuple[int, ...]:
        v = self.get(key, default)
        if not isinstance(v, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) and x >= minimum for x in v
        ):
            raise self.bad(key, v, f"[{minimum}, {minimum + 1}, …]")
        return tuple(v)

    def numbers(self, key: str, default: Any = REQUIRED) -> tuple[float, ...]:
        v = self.get(key, default)
        if not isinstance(v, list) or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in v):
            raise self.bad(key, v, "[≥ 0, …]")
        return tuple(float(x) for x in v)

    def sub(self, key: str) -> TableReader:
        v = self.get(key)
        if not isinstance(v, Mapping):
            raise self.bad(key, v, "{…}")
        return TableReader(v, f"{self.where}.{key}")

    def fields_of(self, cls: type, *, strings: tuple[str, ...] = ()) -> dict[str, Any]:
        """Every key of the table as a field of the dataclass ``cls`` (whose defaults are the values' types): a key
        ``cls`` lacks is refused naming the fields it has; booleans, whole numbers ≥ 0, lists of text and text
        (``strings``: the texts allowed, for the message)."""
        defaults = {f.name: getattr(cls(), f.name) for f in fields(cls)}
        allowed_text = ", ".join(strings)
        values: dict[str, Any] = {}
        for key in self.table:
            if key not in defaults:
                raise self.bad(key, self.table[key], ", ".join(defaults))
            default = defaults[key]
            if isinstance(default, bool):
                values[key] = self.flag(key)
            elif isinstance(default, int):
                values[key] = self.integer(key)
            elif isinstance(default, tuple):
                value = self.get(key)
                if not isinstance(value, list | tuple) or not all(isinstance(x, str) for x in value):
                    raise self.bad(key, value, f"[{allowed_text}]")
                values[key] = tuple(value)
            else:
                value = self.get(key)
                if not isinstance(value, str):
                    raise self.bad(key, value, allowed_text or "text")
                values[key] = value
        return values
