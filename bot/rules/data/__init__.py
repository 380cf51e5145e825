"""Reference data shipped with the package (copies of ../shared/data: RisiKo! map, objectives, RR boards)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_json(name: str) -> Any:
    """Load a bundled data file by file name, e.g. ``load_json("map.json")``. Cached; treat as read-only."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)
