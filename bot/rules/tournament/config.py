"""The preset's ``[tournament]`` table, validated into a frozen value (presets, not ifs).

Every key is parsed into a typed field here, once; nothing downstream reads the raw table. A bad value raises
:class:`bot.rules.presets.PresetFieldError` naming the field (``tournament.table_size``) and what is allowed, so
``/tournament create`` refuses a bad override at once instead of failing at the first draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.outcomes import DISQUALIFIED_RANKS
from bot.rules.presets import Preset, PresetFieldError
from bot.rules.presets.reader import TableReader
from bot.rules.schedule import DEFAULT_REMINDER_OFFSETS, MAX_OFFSET_MINUTES, MAX_OFFSETS, ScheduleError, check_offsets
from bot.rules.tournament.classification import KNOCKOUT_PLACES, SEMIFINAL_PLACES
from bot.rules.tournament.cut import CUT_TIE_READINGS
from bot.rules.tournament.model import Criterion
from bot.rules.tournament.sizes import FirkTables, KnockoutRound, knockout_plan
from bot.rules.tournament.standings import TieBreaker

FORMATS = ("italian", "knockout")


CRITERIA = tuple(c.value for c in Criterion)


def _offsets(r: TableReader) -> tuple[int, ...]:
    values = r.ints("reminder_offsets_minutes", list(DEFAULT_REMINDER_OFFSETS), minimum=1)
    try:
        return check_offsets(values)
    except ScheduleError:
        raise PresetFieldError(
            "tournament.reminder_offsets_minutes",
            list(values),
            f"1 … {MAX_OFFSET_MINUTES} minutes, at most {MAX_OFFSETS}",
        ) from None


TIE_BREAKERS = tuple(t.value for t in TieBreaker)
# How the tables of round 2 and later are formed: by the draw's criteria (clubs, repeats… optimised) or straight
# from the standings before the round (table 1 = the best, FIRK §6/§8/§9 — docs/readings.md).
LATER_ROUND_TABLES = ("criteria", "standings")
# Club championships (issue 47; our defaults, documented in docs/readings.md, no rulebook fixes them): late entries
# through the qualification ("open"), never ("closed") or up to a round ("until": ``late_entry_round``); one extra
# semifinal seat by the best single game of those not qualified ("best_single_game") or none.
LATE_ENTRY = ("open", "closed", "until")
REPECHAGE = ("none", "best_single_game")
MAX_DIRECT_FINALISTS = 2


def _late_entry(r: TableReader) -> tuple[str, int]:
    """``tournament.late_entry``: "open", "closed" or a round number K (entries up to round K)."""
    value = r.get("late_entry", "closed")
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return "until", value
    if value in ("open", "closed"):
        return str(value), 0
    raise r.bad("late_entry", value, "open, closed, 1, 2, 3, …")


@dataclass(frozen=True, slots=True)
class TournamentRules:
    """The preset's ``[tournament]`` table as typed fields: the format and table sizes, the draws' criteria round by
    round, the finals, the standings' tie-breakers and deductions, the reminders and the club championship's options."""

    preset: str
    game: str
    format: str
    formats: tuple[str, ...]
    table_size: int
    large_table_size: int
    min_table_size: int
    large_tables_first: bool
    cinquisti: bool
    cinquisti_clubs_in_step_c: bool  # ARB 5 c): False = the rulebook (their clubs are ignored), True = counted
    teams: bool
    short_tables: bool  # a field not a multiple of table_size: tables one short (NP teams) instead of larger ones
    seeded_round1: bool
    family_separation: bool
    round1_criteria: tuple[Criterion, ...]
    round2_criteria: tuple[Criterion, ...]
    later_criteria: tuple[Criterion, ...]  # rounds 3+; empty = the round-2 criteria
    qualifying_rounds: int
    semifinal_tables: int
    odd_even_threshold: int
    final_size: int
    knockout_table_sizes: tuple[int, ...]
    tie_breakers: tuple[str, ...]
    withdrawal_deduction: float
    disturbance_deduction: float
    disqualified_ranks: str
    points_by_place: tuple[float, ...]
    cut_tie: str  # players level across a qualification cut: "lot" (seeded, published) or "organizer" (their order)
    later_round_tables: str  # rounds 2+: "criteria" (the draw's criteria) or "standings" (FIRK: seated by rank)
    firk: FirkTables
    # the final classification (docs/readings.md): semifinalists of one semifinal place by the qualifying standings
    # (ARB 5's measure for recoveries) or their semifinal table points; knockout players out in one round at one place
    # by their table points there, or sharing the place
    semifinal_places: str = "standings"
    knockout_places: str = "table_points"
    reminder_offsets_minutes: tuple[int, ...] = DEFAULT_REMINDER_OFFSETS  # BOT-SCH-1: before each round's start
    # club championships (issue 47): the worst N round results not counted (an absence first), late entries, the
    # repechage's extra semifinal seat, players straight to the final (the semifinal tables are the final's other seats)
    discards: int = 0
    late_entry: str = "closed"
    late_entry_round: int = 0  # late_entry "until": the last round a late entry can play
    repechage: str = "none"
    repechage_min_games: int = 1
    direct_finalists: int = 0

    def standings_fields(self) -> dict[str, Any]:
        """The preset's fields :func:`bot.rules.tournament.standings.compute_standings` takes, by name: the bot's
        standings and ``steward standings`` pass the same ones."""
        return {
            "tie_breakers": self.tie_breakers,
            "withdrawal_deduction": self.withdrawal_deduction,
            "disqualified_below_withdrawn": self.disqualified_below_withdrawn,
            "knockout": self.knockout,
            "discards": self.discards,
            "rounds_foreseen": self.qualifying_rounds,
        }

    def late_entry_allowed(self, rounds_drawn: int) -> bool:
        """Whether a player may still enter once ``rounds_drawn`` qualifying rounds are drawn: "open" while a
        qualifying round is still to be drawn (``qualifying_rounds``; no limit when 0), "until" K while round K is not
        drawn yet, "closed" never."""
        if self.late_entry == "open":
            return not self.qualifying_rounds or rounds_drawn < self.qualifying_rounds
        if self.late_entry == "until":
            return rounds_drawn < self.late_entry_round
        return False

    def direct_for(self, semifinal_tables: int) -> int:
        """Players straight to the final beside ``semifinal_tables`` semifinals (each sends its winner): the
        final's other seats (ARB 5: three semifinals and the 1st of the standings for a final of four)."""
        return max(0, self.final_size - semifinal_tables) if self.final_size else (1 if semifinal_tables == 3 else 0)

    @property
    def disqualified_below_withdrawn(self) -> bool:
        """RR 13.4: a disqualified player ranks below every withdrawal; RisiKo! (ARB 23, 25): the same tier."""
        return self.disqualified_ranks == "below_withdrawn"

    def standing_deduction(self, code: str) -> float:
        """Points taken from the general standings for ``code`` (FIRK §21 withdrawal −25, FIRK penalità 4
        disturbing a table −7); 0 when the preset fixes none. The sanctions desk and the standings call this."""
        return {"withdrawal": self.withdrawal_deduction, "disturbance": self.disturbance_deduction}.get(code, 0.0)

    @property
    def final_phase(self) -> bool:
        """Whether the tournament ends with a final phase (semifinals and a final, ARB 5; a knockout, NP-FMT-1) whose
        result the final classification follows, rather than with the standings."""
        return self.semifinal_tables > 0 or self.knockout

    @property
    def knockout(self) -> bool:
        """NP-FMT-1 "ad eliminazione diretta": each table's winner goes on, to a final of ``final_size``."""
        return self.format == "knockout"

    @property
    def team_tables(self) -> bool:
        """NP-TAB-1 one player per team at each table: the team event, all'italiana (a knockout's tables come from
        its plan, not from the teams — our reading)."""
        return self.teams and not self.knockout

    def knockout_plan(self, players: int) -> tuple[KnockoutRound, ...]:
        """NP-FMT-1: the knockout's rounds for ``players`` with the preset's final size and allowed table sizes."""
        return knockout_plan(players, final_size=self.final_size, allowed_sizes=self.knockout_table_sizes)

    def criteria_for_round(self, round_no: int) -> tuple[Criterion, ...]:
        if round_no <= 1:
            return self.round1_criteria
        if round_no == 2 or not self.later_criteria:
            return self.round2_criteria
        return self.later_criteria

    @staticmethod
    def from_preset(preset: Preset) -> TournamentRules:
        rules, _ = TournamentRules.parse(preset)
        return rules

    @staticmethod
    def parse(preset: Preset) -> tuple[TournamentRules, frozenset[str]]:
        """The typed rules and the ``[tournament]`` keys they consumed (for the "every key is read" test)."""
        r = TableReader(preset.section("tournament"), "tournament")
        table = r.integer("table_size", 4, minimum=2)
        large = r.integer("large_table_size", table + 1, minimum=2)
        if large != table + 1:
            raise PresetFieldError("tournament.large_table_size", large, f"{table + 1} (tournament.table_size + 1)")
        min_table = r.integer("min_table_size", table, minimum=2)
        if min_table > table:
            raise PresetFieldError("tournament.min_table_size", min_table, f"2 … {table} (tournament.table_size)")
        semis = r.integer("semifinal_tables", 0)
        final_size = r.integer("final_size", 0)
        direct = r.integer("direct_finalists", max(0, final_size - semis) if semis else 0)
        if direct > MAX_DIRECT_FINALISTS:
            raise PresetFieldError("tournament.direct_finalists", direct, "0, 1, 2")
        # The final's seats are the semifinals' winners and the direct finalists: an override of one fixes the other.
        overridden = preset.overrides.get("tournament") or {}
        if semis and final_size and "direct_finalists" in overridden and "semifinal_tables" not in overridden:
            semis = final_size - direct
        elif semis and final_size and "semifinal_tables" in overridden and "direct_finalists" not in overridden:
            direct = max(0, final_size - semis)
        if semis not in (0, 2, 3, 4) or (semis and final_size and semis + direct != final_size):
            allowed = f"{final_size - direct} (tournament.final_size − tournament.direct_finalists)" if (
                final_size and 2 <= final_size - direct <= 4) else "0, 3, 4"  # fmt: skip
            raise PresetFieldError("tournament.semifinal_tables", semis, allowed)
        late_entry, late_round = _late_entry(r)
        rules = TournamentRules(
            preset=preset.name,
            game=preset.game,
            format=r.choice("format", "italian", FORMATS),
            formats=r.choices("formats", ["italian"], FORMATS),
            table_size=table,
            large_table_size=large,
            min_table_size=min_table,
            large_tables_first=r.flag("large_tables_first", False),
            cinquisti=r.flag("cinquisti", False),
            cinquisti_clubs_in_step_c=r.flag("cinquisti_clubs_in_step_c", False),
            teams=r.flag("teams", False),
            short_tables=r.flag("short_tables", False),
            seeded_round1=r.flag("seeded_round1", False),
            family_separation=r.flag("family_separation", False),
            round1_criteria=tuple(Criterion(c) for c in r.choices("round1_criteria", ["club_pairs"], CRITERIA)),
            round2_criteria=tuple(Criterion(c) for c in r.choices("round2_criteria", ["repeat_pairs"], CRITERIA)),
            later_criteria=tuple(Criterion(c) for c in r.choices("later_criteria", [], CRITERIA)),
            qualifying_rounds=r.integer("qualifying_rounds", 0),
            semifinal_tables=semis,
            odd_even_threshold=r.integer("odd_even_threshold", 0),
            final_size=final_size,
            knockout_table_sizes=r.ints("knockout_table_sizes", [table, table + 1], minimum=2),
            tie_breakers=r.choices("tie_breakers", [], TIE_BREAKERS),
            withdrawal_deduction=r.number("withdrawal_deduction", 0.0),
            disturbance_deduction=r.number("disturbance_deduction", 0.0),
            disqualified_ranks=r.choice("disqualified_ranks", "with_withdrawn", DISQUALIFIED_RANKS),
            points_by_place=r.numbers("points_by_place", []),
            cut_tie=r.choice("cut_tie", "lot", CUT_TIE_READINGS),
            later_round_tables=r.choice("later_round_tables", "criteria", LATER_ROUND_TABLES),
            reminder_offsets_minutes=_offsets(r),
            semifinal_places=r.choice("semifinal_places", "standings", SEMIFINAL_PLACES),
            knockout_places=r.choice("knockout_places", "table_points", KNOCKOUT_PLACES),
            discards=r.integer("discards", 0),
            late_entry=late_entry,
            late_entry_round=late_round,
            repechage=r.choice("repechage", "none", REPECHAGE),
            repechage_min_games=r.integer("repechage_min_games", 1, minimum=1),
            direct_finalists=direct if semis else 0,
            firk=FirkTables(
                table_size=table,
                large_table_size=large,
                dummy_totals=r.ints("dummy_totals", []),
                sit_out_total=r.integer("last_round_sit_out_total", 0),
                sit_out_points_if_fifth=r.number("last_round_sit_out_points_if_fifth", 0.0),
                sit_out_points_else=r.number("last_round_sit_out_points_else", 0.0),
                head_to_head_total=r.integer("last_round_head_to_head_total", 0),
                head_to_head_winner_points=r.number("head_to_head_winner_points", 0.0),
                head_to_head_loser_points=r.number("head_to_head_loser_points", 0.0),
            ),
        )
        if rules.later_round_tables == "standings" and rules.teams:
            raise PresetFieldError("tournament.later_round_tables", "standings", "criteria (tournament.teams = true)")
        if rules.qualifying_rounds and rules.discards >= rules.qualifying_rounds:
            most = rules.qualifying_rounds - 1
            raise PresetFieldError("tournament.discards", rules.discards, f"0 … {most} (tournament.qualifying_rounds)")
        if rules.format not in rules.formats:
            raise PresetFieldError("tournament.format", rules.format, ", ".join(rules.formats))
        return rules, frozenset(r.consumed)
