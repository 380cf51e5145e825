"""What a reader sees of a name, the key two names collide on, and how many decimals a column of numbers needs.

``visible_text``: NFC, without invisible characters (zero-width, bidi overrides, controls, private use), white
space squashed. ``name_key``: that in compatibility form, case-folded — "Anna", "ANNA", "Ａｎｎａ" and "Anna\u200b"
share one key, which the database
makes unique per tournament (registrations) and per server (tournaments)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs"})  # format (zero-width, bidi overrides), control, private


def visible_text(value: str) -> str:
    """NFC, without invisible characters, white space squashed: what a reader sees of ``value``."""
    normal = unicodedata.normalize("NFC", value)
    return " ".join("".join(ch for ch in normal if unicodedata.category(ch) not in INVISIBLE_CATEGORIES).split())


def name_key(value: str) -> str:
    """The key names collide on: the visible text in compatibility form (NFKC: fullwidth "Ａｎｎａ", the "ﬁ"
    ligature and superscripts read as the letters they look like), case-folded (ß → ss, I → i), NFKC again after
    folding. Only the key: the name is stored and shown as typed (``visible_text``)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", visible_text(value)).casefold())


def decimals_needed(values: Iterable[float], most: int = 2) -> int:
    """Fewest decimals (≤ ``most``) that print every value exactly once rounded to ``most`` places (a column of
    points shows ``31,8`` and ``15,0`` alike): the images and the messages share it."""
    need = 0
    for v in values:
        text = f"{float(v):.{most}f}".rstrip("0")
        if "." in text:
            need = max(need, len(text.split(".")[1]))
    return need
