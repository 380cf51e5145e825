"""How a table's clock and the end-of-game tracker read: codes and numbers from the services, words from i18n."""

from __future__ import annotations

from bot.i18n import t
from bot.present.markup import discord_timestamp, safe
from bot.services.clocks import ClockView, TrackerStep


def duration(seconds: int) -> str:
    hours, rest = divmod(max(0, seconds), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


def clock_line(v: ClockView, locale: str) -> str:
    """One table: running or paused, time played, recovery, and when the timed ending begins (or RR's verdict)."""
    state = t("clock.state.running" if v.running else "clock.state.paused", locale)
    parts = [
        t("clock.line.head", locale, table=v.table_number, round=v.round_number, state=state),
        t("clock.line.played", locale, played=duration(v.played_seconds)),
        t("clock.line.recovery", locale, minutes=v.recovery_seconds // 60, count=v.pauses),
    ]
    if v.called_at is not None:
        parts.append(t(f"clock.line.called.{v.ending}", locale, when=discord_timestamp(v.called_at, "t")))
    elif v.time_up_at is not None:
        parts.append(t(f"clock.line.ending.{v.ending}", locale, when=discord_timestamp(v.time_up_at, "t"),
                       relative=discord_timestamp(v.time_up_at, "R")))  # fmt: skip
    elif v.time_limit_minutes is not None:
        parts.append(t("clock.line.ending_waits", locale, minutes=v.time_limit_minutes))
    if v.allowance_minutes is not None:
        parts.append(t(f"clock.line.rr.{v.interruption_verdict}", locale, minutes=v.recovery_seconds // 60,
                       allowance=v.allowance_minutes))  # fmt: skip
        if v.replay_due_at is not None and v.interruption_verdict == "resume":
            parts.append(t("clock.line.rr.deadline", locale, when=discord_timestamp(v.replay_due_at, "R")))
    if v.expecting:
        parts.append(expect_text(v.expecting, locale))
    return " · ".join(parts)


def expect_text(expecting: dict[str, object], locale: str) -> str:
    kind = str(expecting.get("kind"))
    player = safe(str(expecting.get("player", "")))
    if kind == "roll" and expecting.get("for"):
        return t("endgame.expect.roll_for", locale, player=player, seat=safe(str(expecting["for"])),
                 threshold=expecting.get("threshold"))  # fmt: skip
    return t(f"endgame.expect.{kind}", locale, player=player, threshold=expecting.get("threshold"),
             reason=t(f"endgame.reason.{expecting.get('end_reason')}", locale))  # fmt: skip


def step_text(step: TrackerStep, locale: str) -> str:
    lines = []
    v = step.view
    lines.append(t("endgame.table", locale, table=v.table_number, round=v.round_number))
    if step.time_up_recorded:
        lines.append(t(f"endgame.time_up.{v.ending}", locale))
    params = {k: (safe(x) if isinstance(x, str) else x) for k, x in step.details.items()}
    params.setdefault("player", "")
    lines.append(t(f"endgame.outcome.{step.outcome}", locale, **params))
    if "forgotten_by" in step.details:
        late = safe(str(step.details["forgotten_by"]))
        code = step.details.get("forgotten_outcome")
        lines.append(t(f"endgame.{code}", locale, player=late, count=step.details.get("forgotten_count")))
    if step.details.get("supplementary_starts"):
        lines.append(t("endgame.supplementary_starts", locale))
    if v.expecting:
        lines.append(expect_text(v.expecting, locale))
    return "\n".join(lines)
