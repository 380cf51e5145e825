"""BOT-STD-1 presentation: the standings CSV is built outside the services and cannot run formulas."""

from __future__ import annotations

from bot.present.standings import standings_csv
from bot.services.standings import StandingLine, StandingsView


def _line(rank: int, name: str, club: str | None, points: float) -> StandingLine:
    return StandingLine(rank, rank, None, name, club, None, points, 2, 10.0, 0.0, "active")


def test_bot_std_1_standings_csv_neutralises_formula_cells_and_keeps_numbers_plain():
    lines = (_line(1, '=HYPERLINK("x")', "+Club", 31.8), _line(2, "Anna", "@Roma", -7.0))
    view = StandingsView(1, "Coppa", "risiko-firk-1", "risiko", 2, lines, (), (), 0)
    rows = standings_csv(view, "it").decode("utf-8-sig").splitlines()
    cells = [r.split(";") for r in rows[1:]]
    assert cells[0][2] == "'+Club" and cells[1][2] == "'@Roma"
    assert cells[0][1].startswith("\"'=HYPERLINK") and cells[1][4] == "-7"
    # a name or team starting with "-" (or a tab or a carriage return) is text too; a number stays a number
    lines = (_line(1, "-2+3", "-Team", 5.0), _line(2, "\tAnna", "\rRoma", 4.0))
    view = StandingsView(1, "Coppa", "risiko-firk-1", "risiko", 2, lines, (), (), 0)
    data = standings_csv(view, "it").decode("utf-8-sig")
    assert "'-2+3" in data and "'-Team" in data and "'\tAnna" in data and "'\rRoma" in data
