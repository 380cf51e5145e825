"""How a sanction reads: the ladder's proposal, a logged case, a record line (it/en) — the desk's cogs and the
announcements share it."""

from __future__ import annotations

from bot.files.sheets import DataTable, csv_bytes, file_stem
from bot.i18n import format_number, t
from bot.present.markup import safe
from bot.rules.sanctions import Proposal
from bot.services.sanction_views import SanctionList, SanctionView


def kind_name(kind: str, locale: str) -> str:
    return t(f"sanction.kind.{kind}", locale)


def infraction_name(code: str | None, locale: str) -> str:
    return t(f"sanction.infraction.{code}", locale) if code else "—"


def proposal_text(p: Proposal, player: str, locale: str) -> str:
    lines = [
        t(
            "sanction.proposal.line",
            locale,
            player=safe(player),
            offence=p.offence,
            infraction=infraction_name(p.infraction, locale),
            kind=kind_name(p.kind, locale),
            article=p.article,
        )
    ]
    if p.cards or p.armies:
        lines.append(t("sanction.proposal.cards_armies", locale, cards=p.cards, armies=p.armies))
    if p.cards_not_drawn:
        lines.append(t("sanction.proposal.cards_not_drawn", locale, count=p.cards_not_drawn))
    if p.at_least:
        lines.append(t("sanction.proposal.at_least", locale))
    if p.army_cap:
        lines.append(t("sanction.proposal.army_cap", locale, cap=p.army_cap))
    if p.standing_points:
        lines.append(t("sanction.proposal.standing_points", locale, points=format_number(p.standing_points, locale)))
    lines.append(t(f"sanction.consequence.{p.consequence.value}", locale))
    return "\n".join(lines)


def case_line(v: SanctionView, locale: str) -> str:
    where = ""
    if v.round_number is not None:
        where = t("sanction.where", locale, round=v.round_number, table=v.table_number or "—")
    status = ""
    if v.revoked:
        status = " · " + t("sanction.status.revoked", locale)
    elif v.appeal_state != "none":
        status = " · " + t(f"sanction.appeal.{v.appeal_state}", locale)
    points = f" ({format_number(v.points, locale)})" if v.points else ""
    return t(
        "sanction.case_line",
        locale,
        case=v.case_number,
        player=safe(v.player_name),
        kind=kind_name(v.kind, locale) + points,
        infraction=infraction_name(v.infraction, locale),
        article=v.article or "—",
        where=where,
        status=status,
    )


# The sanctions as a spreadsheet file (``/sanctions export``): codes, not sentences (a data file).
CSV_COLUMNS = (
    "case", "player", "infraction", "article", "kind", "proposed_kind", "offence", "consequence", "points", "round",
    "table", "referee_id", "created_at", "revoked", "revoke_reason", "appeal_state", "details",
)  # fmt: skip


def sanctions_table(export: SanctionList) -> DataTable:
    """The sanctions as a spreadsheet table — codes, not sentences (a data file): the CSV and the XLSX exports
    both write these rows. Discord ids are text (a spreadsheet keeps 15 digits of a number)."""
    rows = tuple(
        (
            v.case_number,
            v.player_name,
            v.infraction,
            v.article,
            v.kind,
            v.proposed_kind,
            v.offence,
            v.consequence,
            None if v.points is None else float(v.points),
            v.round_number or None,
            v.table_number or None,
            str(v.referee_id),
            v.created_at,
            "yes" if v.revoked else None,
            v.revoke_reason,
            v.appeal_state,
            v.details,
        )
        for v in export.sanctions
    )
    return DataTable("sanzioni", CSV_COLUMNS, rows)


def sanctions_stem(export: SanctionList) -> str:
    """``Coppa Italia`` → ``coppa-italia-sanzioni``: the file's name without its extension."""
    return file_stem(export.tournament_name, "sanzioni")


def sanctions_csv(export: SanctionList) -> tuple[str, bytes]:
    """``(filename, bytes)``: ``;``-separated UTF-8 with BOM, text cells defused against formulas."""
    return f"{sanctions_stem(export)}.csv", csv_bytes(sanctions_table(export))
