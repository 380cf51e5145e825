"""How schedules, reminders and clock calls read (the server's language; times as Discord timestamps): the cogs and
the scheduler share it."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.i18n import join_names, t
from bot.present.markup import discord_timestamp, no_pings, safe, when
from bot.rules.schedule import CHECK_IN_LIST_OFFSET
from bot.services import ReminderKind
from bot.services.deliveries import MAX_ATTEMPTS, Delivery
from bot.services.schedules import ReminderLine

MISSING_BUDGET = 1200  # characters of "not checked in yet" names before "… and N more"


def offset_label(minutes: int) -> str:
    """1440 → "24 h", 90 → "1 h 30 min", 10 → "10 min" (the same in Italian and English)."""
    hours, rest = divmod(minutes, 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} h" + (f" {rest} min" if rest else "")


def _names(names: tuple[str, ...], locale: str) -> str:
    shown: list[str] = []
    used = 0
    for name in names:
        if used + len(name) > MISSING_BUDGET:
            return ", ".join(shown) + " " + t("schedule.and_more", locale, count=len(names) - len(shown))
        shown.append(safe(name))
        used += len(name) + 2
    return join_names(shown, locale)


def delivery_text(d: Delivery) -> str:
    loc = d.locale
    name = safe(d.tournament_name or "")
    if d.kind == ReminderKind.ROUND:
        assert d.round_start is not None
        text = t("schedule.reminder.round", loc, tournament=name, round=d.round_number, when=when(d.round_start))
        if d.missing_check_ins:
            text += "\n" + t("schedule.reminder.missing", loc, count=len(d.missing_check_ins),
                             names=_names(d.missing_check_ins, loc))  # fmt: skip
        elif d.offset_minutes is not None and d.offset_minutes <= CHECK_IN_LIST_OFFSET:  # nobody missing: say so
            text += "\n" + t("schedule.reminder.all_checked_in", loc)
    elif d.kind == ReminderKind.ANNOUNCEMENT:
        text = t("schedule.announcement.head", loc, tournament=name) + "\n" + no_pings(d.message or "")
    elif d.kind == ReminderKind.REGISTRATION_CLOSE:
        text = t("schedule.registration_closed", loc, tournament=name, when=discord_timestamp(d.due_at, "F"))
    else:
        details = dict(d.details or {})
        text = t(f"clock.call.{d.call}", loc, table=d.table_number, round=d.round_number, **details)
    if d.late:
        text += "\n" + t("schedule.sent_late", loc, when=discord_timestamp(d.due_at, "F"))
    return text


def line_text(line: ReminderLine, locale: str, *, now: datetime, lease: timedelta) -> str:
    """One row of ``/schedule list``: id, what, when, and its state. A claim within its ``lease`` is being sent; one
    past it belongs to a runner that stopped, and is sent again (up to MAX_ATTEMPTS claims)."""
    what = t(f"schedule.kind.{line.kind}", locale)
    where = []
    if line.tournament_name:
        where.append(safe(line.tournament_name))
    if line.round_number is not None:
        where.append(t("schedule.where.round", locale, round=line.round_number))
    if line.table_number is not None:
        where.append(t("schedule.where.table", locale, table=line.table_number))
    if line.offset_minutes is not None:
        where.append(t("schedule.where.offset", locale, offset=offset_label(line.offset_minutes)))
    if line.call:
        where.append(t(f"clock.call_name.{line.call}", locale))
    head = f"`#{line.reminder_id}` {what} — {' · '.join(where)}"
    state = t(f"schedule.status.{line.status}", locale)
    resent = line.attempts > 1  # a runner died holding it, and another took it again
    if line.status == "claimed" and line.claimed_at is not None:
        taken = {"when": discord_timestamp(line.claimed_at, "R"), "worker": safe(line.claimed_by or "?")}
        if now - line.claimed_at <= lease:
            state = t("schedule.status.claimed_at", locale, **taken)
        elif line.attempts >= MAX_ATTEMPTS:
            state, resent = t("schedule.status.claimed_abandoned", locale, attempts=line.attempts, **taken), False
        else:
            state = t("schedule.status.claimed_expired", locale, **taken)
    stamp = line.delivered_at if line.delivered_at is not None else line.due_at
    extra = " · " + t("schedule.late", locale) if line.late else ""
    if resent:
        extra += " · " + t("schedule.resent", locale, attempt=line.attempts)
    outcome = f" · {safe(line.outcome)}" if line.outcome else ""
    stamps = f"{discord_timestamp(stamp, 'f')} ({discord_timestamp(stamp, 'R')})"
    return f"{head}\n  {stamps} · {state}{extra}{outcome}"
