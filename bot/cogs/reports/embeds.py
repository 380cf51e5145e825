"""The report (referto, ARB 6) and /my-games as embeds, in the language asked for."""

from __future__ import annotations

import discord

from bot.cogs._common import embed
from bot.i18n import format_number, join_names, preset_name, t
from bot.present.markup import safe
from bot.services.reports import MyGamesView, ReportView


def _num(value: float | None, locale: str) -> str:
    return "—" if value is None else format_number(value, locale)


def report_embed(view: ReportView, locale: str) -> discord.Embed:
    """The referto (ARB 6): round, table, players, table points, ranking, tournament points, signatures."""
    title = t("report.title", locale, tournament=view.tournament_name, round=view.round_number, table=view.table_number)
    lines = []
    for seat in view.ranking:
        outcome = "" if seat.outcome == "played" else f" ({t(f'report.outcome.{seat.outcome}', locale)})"
        mark = "✅" if seat.signed else ("—" if seat.outcome != "played" else "✍️")
        lines.append(
            t(
                "report.line",
                locale,
                rank=seat.rank if seat.rank is not None else "-",
                name=safe(seat.name),
                table_points=_num(seat.table_points, locale),
                points=_num(seat.tournament_points, locale),
                outcome=outcome,
                mark=mark,
            )
        )
    if not view.reported:
        lines = [t("report.empty", locale)]
    out = embed(title, "\n".join(lines))
    if view.locked:
        status = t("report.status.locked", locale)
    elif view.all_signed:
        status = t("report.status.await_countersign", locale)
    elif view.reported:
        status = t(
            "report.status.await_signatures", locale, names=join_names((safe(s.name) for s in view.pending), locale)
        )
    else:
        status = t("report.status.empty", locale)
    out.add_field(name=t("report.status", locale), value=status[:1024], inline=False)
    kind = view.kind or "none"
    out.set_footer(
        text=t("report.footer", locale, kind=t(f"report.kind.{kind}", locale), preset=preset_name(view.preset, locale))
    )
    return out


def my_games_embed(games: MyGamesView, locale: str) -> discord.Embed:
    lines = []
    for g in games.games:
        if not g.reported:
            state = t("mygames.state.open", locale)
        elif g.locked:
            state = t("mygames.state.locked", locale)
        elif not g.signed:
            state = t("mygames.state.sign_me", locale)
        else:
            state = t("mygames.state.waiting", locale, names=join_names(map(safe, g.pending_names), locale) or "—")
        lines.append(
            t(
                "mygames.line",
                locale,
                round=g.round_number,
                table=g.table_number,
                rank=g.rank if g.rank is not None else "-",
                table_points=_num(g.table_points, locale),
                points=_num(g.tournament_points, locale),
                opponents=join_names(map(safe, g.opponents), locale),
                state=state,
            )
        )
    if not lines:
        lines = [t("mygames.none", locale)]
    title = t("mygames.title", locale, name=safe(games.player_name), tournament=safe(games.tournament_name))
    out = embed(title, "\n".join(lines)[:4000])
    if games.to_sign:
        out.set_footer(text=t("mygames.footer", locale, count=len(games.to_sign)))
    return out
