"""What the rounds return (bot/services/rounds/views.py): the draw report as the user reads it
(TOUR-R2-1)."""

from __future__ import annotations

from bot.services import Services
from tests.support.rounds import (
    ORGANIZER,
    setup_tournament,
)


async def test_tour_r2_1_the_engine_s_bound_makes_the_report_say_provably_optimal(services: Services):
    await setup_tournament(services, 40)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert view.report.provably_optimal and view.report.optimality == "bound_met"
