"""What the ModuloTorneo workbook of the national RisiKo! ranking holds and what would make it fail (GestioneTorneo's
``ExcelValidator``; the contract is ``../shared/spec/modulo-torneo.md``, §7 its checklist): pure decisions on the
whole-tournament export. :func:`modulo_problems` lists what the validator would refuse or warn about — players without
a first name or surname, without a birth date or national id, two people with the same name and birth date, a round
without a date, no organiser — and the writer (``bot.present.modulo``) refuses rather than write a workbook that
fails; ``/publishing check`` shows the same list before the evening ends.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from bot.rules.tournament.export import ExportDocument, ExportPlayer

TYPES = (
    "Campionato Nazionale",
    "Raduno Nazionale",
    "Torneo Master",
    "Torneo Open",
    "Torneo Interclub",
    "Campionato Periodico",
    "Torneo a Squadre",
    "Torneo 2VS2",
    "Torneo a Inviti",
    "Amichevoli",
)
TYPE_CODES = ("cni", "rdn", "mst", "opn", "itc", "cpp", "sqd", "2v2", "ivt", "amc")  # GestioneTorneo's, in TYPES' order
NO_STANDINGS = ("Torneo a Squadre", "Torneo 2VS2", "Amichevoli")  # types whose reduced standings are not required
DEFAULT_TYPE = "Torneo Open"
DEG = "\u00b0"  # the degree sign GestioneTorneo's round sheets need ("1° Turno")
MAX_LOCAL_ID = 32_767  # the Iscritti ID is read as a Java short


@dataclass(frozen=True, slots=True)
class ModuloProblem:
    """Why the workbook cannot be written: ``code`` and the players (names) or rounds it concerns."""

    code: str  # no_organiser, bad_type, not_risiko, no_first_name, no_surname, no_birth_or_national_id,
    # same_person, round_without_date, dates_go_back, nobody_played, too_many_players
    names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ModuloOptions:
    """What the organiser adds to the workbook for one tournament: its type (one of :data:`TYPES`), organiser ("CITY
    [Club]") and venue, notes and extra fields; what is not given comes from the tournament's publishing settings."""

    type: str = DEFAULT_TYPE
    organiser: str | None = None  # "CITY [Club]"; default: the tournament's publishing settings
    venue: str | None = None
    notes: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def played_players(export: ExportDocument) -> list[ExportPlayer]:
    """The players who sat at a table of a round with a result, in the document's order (only they are listed)."""
    seated = {p for r in export.rounds for t in r.tables if t.report.results for p in t.seats}
    return [p for p in export.players if p.id in seated]


def played_rounds(export: ExportDocument) -> list[Any]:
    """The rounds with at least one reported result, by number: the rounds the workbook lists."""
    return [r for r in sorted(export.rounds, key=lambda x: x.number) if any(t.report.results for t in r.tables)]


def person_name(p: ExportPlayer) -> str:
    """A player's name as the workbook writes it: first name and surname, or the registration's name without them."""
    return f"{p.first_name or ''} {p.surname or ''}".strip() or p.name


def rounds_foreseen(export: ExportDocument) -> int:
    """The rounds the workbook announces: the knockout plan's, an imported workbook's own number, or the
    tournament's, and never fewer than the rounds played."""
    played = len(played_rounds(export))
    first = next((r for r in sorted(export.rounds, key=lambda x: x.number) if r.draw), None)
    plan = ((first.draw or {}).get("knockout") or {}).get("plan") if first is not None else None
    stored = (export.tournament.publishing or {}).get("rounds_foreseen")  # an imported workbook's own D6
    foreseen = len(plan) if plan else int(stored) if isinstance(stored, int) and stored > 0 else (
        export.tournament.rounds_foreseen)  # fmt: skip
    return max(foreseen, played)


def local_ids(export: ExportDocument, played: list[ExportPlayer]) -> dict[int, int]:
    """Each listed player's ID in the workbook: their id in the export when every one fits GestioneTorneo's ID (a
    Java short: 1…32767 — a workbook read back keeps its IDs), else 1, 2, 3… in the export's order."""
    if all(1 <= p.id <= MAX_LOCAL_ID for p in played):
        return {p.id: p.id for p in played}
    return {p.id: i for i, p in enumerate(played, start=1)}


def organiser_of(export: ExportDocument, options: ModuloOptions) -> str:
    """The organiser the workbook names: the option, else the tournament's publishing settings (blank when neither
    says)."""
    return (options.organiser or str((export.tournament.publishing or {}).get("organiser") or "")).strip()


def type_of(export: ExportDocument, options: ModuloOptions) -> str:
    """The tournament's type as the workbook writes it: spelled as in :data:`TYPES` when it is one of them (any
    case), else as given."""
    given = options.type or str((export.tournament.publishing or {}).get("type") or DEFAULT_TYPE)
    return next((t for t in TYPES if t.casefold() == given.strip().casefold()), given.strip())


def modulo_problems(export: ExportDocument, options: ModuloOptions) -> list[ModuloProblem]:
    """Everything that would make GestioneTorneo's validator give an error or a warning, as codes and names."""
    problems: list[ModuloProblem] = []
    if export.tournament.game != "risiko":
        return [ModuloProblem("not_risiko", (export.tournament.game,))]
    if not organiser_of(export, options):
        problems.append(ModuloProblem("no_organiser"))
    if type_of(export, options) not in TYPES:
        problems.append(ModuloProblem("bad_type", (options.type,)))
    played = played_players(export)
    if not played:
        problems.append(ModuloProblem("nobody_played"))
    if len(played) > MAX_LOCAL_ID:
        problems.append(ModuloProblem("too_many_players", (str(len(played)),)))
    for code, missing in (
        ("no_first_name", [p.name for p in played if not (p.first_name or "").strip()]),
        ("no_surname", [p.name for p in played if not (p.surname or "").strip()]),
        ("no_birth_or_national_id", [p.name for p in played if not p.birth_date and not p.national_id]),
    ):
        if missing:
            problems.append(ModuloProblem(code, tuple(missing)))
    people = Counter(
        (person_name(p).casefold(), p.birth_date or "") for p in played if p.first_name and p.surname
    )  # the validator: one row per person (name + birth date)
    twice = [
        p.name
        for p in played
        if p.first_name and p.surname and people[(person_name(p).casefold(), p.birth_date or "")] > 1
    ]
    if twice:
        problems.append(ModuloProblem("same_person", tuple(twice)))
    dates = []
    for r in played_rounds(export):
        if r.date is None:
            problems.append(ModuloProblem("round_without_date", (str(r.number),)))
        else:
            dates.append((r.number, date.fromisoformat(r.date)))
    back = [str(n) for (_, a), (n, b) in itertools.pairwise(dates) if b < a]
    if back:
        problems.append(ModuloProblem("dates_go_back", tuple(back)))
    return problems
