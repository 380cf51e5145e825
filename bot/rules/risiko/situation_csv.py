"""The final situation as a spreadsheet export (issue 42): one row per territory, read into the JSON document that
``bot.rules.risiko.scoring.parse_situation`` reads, so a CSV serves every preset.

Columns, in this order without a header row, in any order under a header naming them (Italian or English, any
case, accents optional):

``territory;owner;armies[;objective[;status[;achieved]]]``

* ``territory`` (territorio): any spelling ``Board.canonical`` accepts (checked when the document is parsed);
* ``owner`` (giocatore, proprietario, player): empty, ``neutral``, ``neutrale`` or ``-`` for a neutral territory;
* ``armies`` (armate): digits 0-9;
* ``objective`` (obiettivo): the name of a tournament objective card (``objectives-unverified.json``, any case,
  accents optional), on one of the owner's rows or on all of them;
* ``status`` (stato): empty / ``active`` / ``attivo``, ``withdrawn`` / ``ritirato`` / ``r``, ``disqualified`` /
  ``squalificato`` / ``sq``, ``frozen`` / ``congelato`` (FIRK §25);
* ``achieved`` (raggiunto): the objective achieved before time (NP-SCORE-3): ``yes`` / ``sì`` / ``si`` / ``x`` /
  ``1`` against empty / ``no`` / ``0``.

A seat that held nothing at the end is a row with the territory and armies cells empty (``;Anna;;;ritirato``), in
the layouts with more than three columns. ``,`` or ``;`` separate the cells. Errors name the row:
``csv_row_invalid`` (value ``"row N: …"``), ``csv_empty``, ``csv_too_long``. Pure: no board needed, the parser
that reads the document checks the territories.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.rules.data import load_json
from bot.rules.risiko.errors import RisikoError

SITUATION_CSV_MAX_ROWS = 200

COLUMNS: tuple[str, ...] = ("territory", "owner", "armies", "objective", "status", "achieved")
REQUIRED_COLUMNS: tuple[str, ...] = COLUMNS[:3]

# Header words (compared without case, accents or punctuation) -> column.
HEADER_WORDS: Mapping[str, str] = {
    "territorio": "territory", "territory": "territory",
    "giocatore": "owner", "proprietario": "owner", "owner": "owner", "player": "owner",
    "armate": "armies", "armies": "armies",
    "obiettivo": "objective", "objective": "objective",
    "stato": "status", "status": "status",
    "raggiunto": "achieved", "achieved": "achieved",
    "obiettivo raggiunto": "achieved", "achieved objective": "achieved",
}  # fmt: skip

NEUTRAL_OWNERS: tuple[str, ...] = ("neutral", "neutrale", "-")

# Status words -> the ``status`` value of the JSON document (``Status`` in scoring.py).
STATUS_WORDS: Mapping[str, str] = {
    "active": "active", "attivo": "active", "attiva": "active",
    "withdrawn": "withdrawn", "ritirato": "withdrawn", "ritirata": "withdrawn", "r": "withdrawn",
    "disqualified": "disqualified", "squalificato": "disqualified", "squalificata": "disqualified",
    "sq": "disqualified",
    "frozen": "frozen", "congelato": "frozen", "congelata": "frozen",
}  # fmt: skip

ACHIEVED_WORDS: Mapping[str, bool] = {
    "yes": True, "si": True, "x": True, "1": True, "true": True,
    "no": False, "0": False, "false": False,
}  # fmt: skip


def word_key(text: str) -> str:
    """Comparison key of a typed word: no accents, no case, punctuation as spaces, single spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    cleaned = "".join(c if c.isalnum() else " " for c in plain.casefold())
    return " ".join(cleaned.split())


def _card_key(text: str) -> str:
    return word_key(text).replace(" ", "")


@cache
def _objective_cards() -> Mapping[str, str]:
    return {_card_key(name): name for name in load_json("objectives-unverified.json")["objectives"]}


def objective_card_name(text: object) -> str | None:
    """The name of a tournament objective card as the transcription spells it (``"lupo siberiana"`` → ``"Lupo
    (Siberiana)"``, ``"formula 1"`` → ``"Formula1"``: case, accents, spaces and punctuation aside), or None when no
    card has that name."""
    return _objective_cards().get(_card_key(text)) if isinstance(text, str) else None


def _count(text: str) -> bool:
    """An army count as a file gives it: digits 0–9 only ("²" and other scripts' digits pass ``isdigit`` but are no
    number ``int`` reads), at most 6 of them (no territory holds a million armies)."""
    return text.isascii() and text.isdigit() and len(text) <= 6


def _refuse(number: int, what: str) -> RisikoError:
    return RisikoError("csv_row_invalid", f"row {number}: {what}"[:80])


def _seat_row(cells: Mapping[str, str], columns: int) -> bool:
    """A seat that held nothing: territory and armies empty, in a layout with more than three columns."""
    return columns > 3 and not cells["territory"] and not cells["armies"]


def _header(first: Sequence[str]) -> tuple[str, ...] | None:
    """The columns a header row names, or None when the first row is data.

    A row whose every cell is a column name, territory, owner and armies among them, is a header in that order
    (each column once). Otherwise, as ever, a first row whose armies cell (the third; the last of a shorter row) is no
    number is a header of the positional layout, and its known names must then stand in their places."""
    cells = list(first)
    while cells and not cells[-1]:
        cells.pop()
    names = [HEADER_WORDS.get(word_key(c)) for c in cells]
    if cells and all(names) and set(REQUIRED_COLUMNS) <= set(names):
        for i, name in enumerate(names):
            if name in names[:i]:
                raise _refuse(1, f"column {cells[i]} twice")
        return tuple(str(n) for n in names)
    armies = first[2] if len(first) >= 3 else first[-1]
    if armies.isdigit() or (len(first) > 3 and not first[0] and not first[2]):
        return None
    for i, name in enumerate(names):
        if name is not None and (i >= len(COLUMNS) or COLUMNS[i] != name):
            raise _refuse(1, f"column {cells[i]} out of place")
    return ()  # a header of the positional layout


@dataclass(slots=True)
class _Seat:
    territories: dict[str, int] = field(default_factory=dict)
    objective: str | None = None
    status: str | None = None
    achieved: bool | None = None

    def document(self, name: str) -> dict[str, Any]:
        out: dict[str, Any] = {"name": name, "territories": self.territories}
        if self.objective is not None:
            out["objective"] = self.objective
        if self.status not in (None, "active"):
            out["status"] = self.status
        if self.achieved:
            out["achieved_objective"] = True
        return out


def _agree(number: int, owner: str, what: str, held: object, new: object) -> None:
    if held is not None and held != new:
        raise _refuse(number, f"{owner[:20]} {what} {held} and {new}")


def _read_rows(text: str) -> list[list[str]]:
    reader = csv.reader(io.StringIO(text.replace(";", ",")))
    try:
        rows = [[c.strip() for c in r] for r in reader if any(cell.strip() for cell in r)]
    except csv.Error as exc:  # e.g. a field over the csv module's 128 KiB limit
        raise RisikoError("csv_row_invalid", f"row {reader.line_num}: {str(exc)[:60]}") from None
    if not rows:
        raise RisikoError("csv_empty", "")
    if len(rows) > SITUATION_CSV_MAX_ROWS:
        raise RisikoError("csv_too_long", len(rows))
    return rows


def situation_from_csv(text: str) -> dict[str, Any]:
    """A final situation from a ``territory;owner;armies[;objective[;status[;achieved]]]`` export (module
    docstring) as the JSON document :func:`bot.rules.risiko.scoring.parse_situation` reads: one player per owner,
    in the order they first appear, with ``objective``, ``status`` and ``achieved_objective`` when given."""
    rows = _read_rows(text)
    header = _header(rows[0])
    start = 0 if header is None else 1
    seats: dict[str, _Seat] = {}
    for number, cells in enumerate(rows[start:], start=start + 1):
        if header:
            if any(cells[len(header) :]):
                raise _refuse(number, ";".join(cells)[:60])
            layout = header
        elif 3 <= len(cells) <= len(COLUMNS):
            layout = COLUMNS[: len(cells)]
        else:
            raise _refuse(number, ";".join(cells)[:60])
        row = dict.fromkeys(COLUMNS, "") | dict(zip(layout, cells, strict=False))
        seat_row = _seat_row(row, len(layout))
        if not seat_row and not _count(row["armies"]):
            raise _refuse(number, ";".join(cells)[:60])
        owner = row["owner"]
        if not owner or owner.casefold() in NEUTRAL_OWNERS:
            if seat_row or row["objective"] or row["status"] or row["achieved"]:
                raise _refuse(number, f"{row['territory'][:30]} neutral, with nothing else to say")
            continue
        seat = seats.setdefault(owner, _Seat())
        if not seat_row:
            territory = row["territory"]
            if territory in seat.territories:
                raise _refuse(number, f"{territory} twice")
            seat.territories[territory] = int(row["armies"])
        if row["objective"]:
            card = objective_card_name(row["objective"])
            if card is None:
                raise _refuse(number, f"unknown objective {row['objective'][:40]}")
            _agree(number, owner, "objective", seat.objective, card)
            seat.objective = card
        if row["status"]:
            status = STATUS_WORDS.get(word_key(row["status"]))
            if status is None:
                raise _refuse(number, f"unknown status {row['status'][:40]}")
            _agree(number, owner, "status", seat.status, status)
            seat.status = status
        if row["achieved"]:
            achieved = ACHIEVED_WORDS.get(word_key(row["achieved"]))
            if achieved is None:
                raise _refuse(number, f"achieved {row['achieved'][:40]}: yes or no")
            _agree(number, owner, "achieved", seat.achieved, achieved)
            seat.achieved = achieved
    if not seats:
        raise RisikoError("csv_empty", "")
    return {"players": [seat.document(name) for name, seat in seats.items()]}


def situation_to_csv(doc: Mapping[str, Any], *, header: bool = True) -> str:
    """The inverse, for a document whose objectives are card names: one row per territory (a seat row for a
    player holding nothing), objective, status and achieved on every row of their player."""
    lines = ["territorio;giocatore;armate;obiettivo;stato;raggiunto"] if header else []
    for player in doc["players"]:
        tail = [
            str(player.get("objective") or ""),
            str(player.get("status", "active")),
            "sì" if player.get("achieved_objective") else "",
        ]
        held = player["territories"].items() or [("", "")]
        lines += [";".join([str(t), player["name"], str(a), *tail]) for t, a in held]
    return "\n".join(lines) + "\n"
