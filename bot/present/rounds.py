"""How a round reads, without a Discord client: its label, the knockout's plan, the tables and the draw report as
text, the cut's tie. The cogs, the scheduler's announcements, the demo and the command line share it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import join_names, t
from bot.i18n.numbers import format_number
from bot.present.markup import safe
from bot.services.rounds import RoundView
from bot.services.rounds.views import CutView, DrawReportView, RepechageView

TEXT_BUDGET = 3600  # characters of a message's text we allow ourselves (Discord's embed description: 4096)


def cut_text(locale: str, cut: CutView, *, name: Callable[[str | None], str] = safe) -> str:
    """Players level where a line of the final phase cuts through them — the semifinals' cut, the direct seat, a
    band's edge, the halves, the final's replacement chain — and what decided their order (never the program's own
    order); ``name`` shows a name (escaped for Discord unless the reader is a terminal)."""
    tied, qualified = join_names(map(name, cut.tied), locale), join_names(map(name, cut.qualified), locale)
    if cut.boundary == "cut":
        return t(f"round.cut.{cut.method}", locale, count=cut.seats, rank=cut.rank, seed=cut.seed or "", tied=tied,
                 qualified=qualified)  # fmt: skip
    order = join_names(map(name, cut.order or cut.qualified), locale)
    line = t(f"round.tie.line.{cut.boundary}", locale)
    return t(f"round.tie.{cut.method}", locale, line=line, rank=cut.rank or "", seed=cut.seed or "", tied=tied,
             order=order)  # fmt: skip


def repechage_text(locale: str, rescued: RepechageView, *, name: Callable[[str | None], str] = safe) -> str:
    """Who took the repechage's semifinal seat, and why (issue 47: "miglior partita singola, 87 punti")."""
    if rescued.reason == "standings":
        return t("round.repechage.standings", locale, name=name(rescued.name), count=rescued.min_games)
    points = format_number(rescued.points, locale)
    return t("round.repechage.best_single_game", locale, name=name(rescued.name), points=points, count=rescued.games)


def seats_text(locale: str, view: RoundView) -> str:
    """The semifinals' seats outside the bands: the direct finalists and the repechage (issue 47), with why."""
    lines = []
    if view.direct_finalists:
        lines.append(t("round.direct_finalists", locale, names=join_names(map(safe, view.direct_finalists), locale)))
    if view.repechage is not None:
        lines.append(repechage_text(locale, view.repechage))
    return "\n".join(lines)


def ties_text(locale: str, view: RoundView, *, name: Callable[[str | None], str] = safe) -> list[str]:
    """Every tie of the round as lines (the cut's first, as decided), and how to choose while it is only drawn."""
    ties = view.ties or ((view.cut,) if view.cut is not None else ())
    lines = [cut_text(locale, tie, name=name) for tie in ties]
    if view.status == "drawn" and any(tie.method == "lot" for tie in ties):  # the organizer can still choose
        lines.append(t("round.cut.how_to_choose", locale))
    return lines


def round_label(locale: str, view: RoundView) -> str:
    if view.kind == "semifinal":
        return t("round.kind.semifinal", locale)
    if view.kind == "final" or (view.knockout is not None and view.knockout.final):
        return t("round.kind.final", locale)
    if view.knockout is not None:
        return t("round.kind.knockout", locale, number=view.number)
    return t("round.kind.qualifying", locale, number=view.number)


def knockout_text(locale: str, view: RoundView) -> str:
    """NP-FMT-1, said before the first draw and at each one: the rounds still to play, or why none can be planned."""
    ko = view.knockout
    if ko is None:
        return ""
    if not ko.plan:
        nearest = " / ".join(str(x) for x in (ko.below, ko.above) if x is not None) or "-"
        text = t("round.knockout.no_plan", locale, players=ko.players, final_size=ko.final_size, nearest=nearest)
        if ko.other_finals:
            finals = " / ".join(str(x) for x in ko.other_finals)
            text += " " + t("round.knockout.other_finals", locale, players=ko.players, finals=finals)
        return text
    steps = " → ".join(
        t("round.knockout.step", locale, tables=len(sizes), sizes="/".join(str(x) for x in sorted(set(sizes))))
        if len(sizes) > 1
        else t("round.knockout.final_step", locale, players=players)
        for players, sizes in ko.plan
    )
    return t("round.knockout.plan", locale, players=ko.players, steps=steps)


def seat_text(seat: Any, *, mention: bool) -> str:
    if mention and seat.user_id:
        return f"<@{seat.user_id}>"
    group = f" ({safe(seat.group)})" if seat.group else ""
    return f"{safe(seat.name)}{group}"


def tables_text(locale: str, view: RoundView, *, budget: int = TEXT_BUDGET) -> str:
    lines: list[str] = []
    used = 0
    for i, table in enumerate(view.tables):
        seats = ", ".join(seat_text(s, mention=False) for s in table.seats)
        group = f" · {t(f'round.group.{table.group}', locale)}" if table.group else ""
        special = f" · {t(f'round.special.{table.special}', locale)}" if table.special else ""
        line = f"**{t('round.table', locale, number=table.number)}**{group}{special} — {seats}"
        if table.note:
            line += "\n> " + t("round.table_note", locale, note=safe(table.note))
        if used + len(line) + 1 > budget:
            lines.append(t("round.more_tables", locale, count=len(view.tables) - i))
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines) or t("round.no_tables", locale)


def optimality_line(locale: str, report: DrawReportView) -> str:
    """What the draw proved, and no more (issue 30): at the bound, by search, for the drawn cinquisti, or the best
    found — with the search's steps when it ran."""
    if report.proof == "bound":
        return t("round.optimal", locale)
    if report.proof == "search":
        return t("round.optimal_search", locale)
    if report.proof == "cinquisti":
        return t("round.optimal_cinquisti", locale)
    if report.search_nodes > 0:
        return t("round.not_optimal_nodes", locale, count=report.search_nodes)
    return t("round.not_optimal", locale)


def report_text(locale: str, view: RoundView) -> str:
    report = view.report
    lines: list[str] = []
    if view.knockout is not None:
        lines.append(knockout_text(locale, view))
    if report is not None:
        for c in report.criteria:
            lines.append(
                t(
                    "round.criterion_line",
                    locale,
                    criterion=t(f"round.criterion.{c.name}", locale),
                    value=c.value,
                    bound=c.lower_bound,
                )
            )
        if report.from_standings:
            lines.append(t("round.by_standings", locale))
        else:
            lines.append(optimality_line(locale, report))
        seated = {s.registration_id: s.name for table in view.tables for s in table.seats}
        for rank, order in report.seat_ties:
            who = join_names((safe(seated.get(p, str(p))) for p in order), locale)
            if rank is None:
                lines.append(t("round.seat_tie_unranked", locale, order=who))
            else:
                lines.append(t("round.seat_tie", locale, rank=rank, order=who))
        if report.history:
            lines.append(t("round.history", locale, count=report.history.get("rounds", 0), **report.history))
        if report.adjustments:
            lines.append(t("round.adjusted", locale, count=report.adjustments))
    if view.seed is not None:
        lines.append(t("round.seed", locale, seed=view.seed))
    if view.club_pairs is not None:
        lines.append(t("round.semifinal_clubs", locale, after=view.club_pairs[0], before=view.club_pairs[1]))
    if seats := seats_text(locale, view):
        lines.append(seats)
    lines += ties_text(locale, view)
    for seat in view.final_seats:
        lines.append(
            t(
                f"round.source.{seat.source}",
                locale,
                name=safe(seat.name),
                table=seat.semifinal_table or "-",
                place=seat.semifinal_place or "-",
                replaces=seat.replaces_table or "-",
            )
        )
    if view.declined:
        lines.append(t("round.declined", locale, names=join_names(map(safe, view.declined), locale)))
    if view.unfilled:
        lines.append(t("round.unfilled", locale, count=view.unfilled))
    return "\n".join(lines)
