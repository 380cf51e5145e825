"""Pure tournament engine: table sizes, draws, semifinal/final seeding, standings (ARB art. 5, FIRK, NP, RR).

Public entry points (see docs/tournament.md):

- ``draw``: ``draw_round1``, ``draw_round2``, ``draw_tables``,
  ``evaluate``, ``lower_bound``, ``swap_players``, ``move_player``, ``random_tables``
- ``sizes``: ``standard_sizes``, ``firk_sizes``, ``rr_sizes``, ``short_sizes``, ``knockout_plan``
- ``seeding``: ``semifinals``, ``split_odd_even``, ``compose_final``, ``firk_round1``
- ``standings``: ``compute_standings``, ``points_by_place``, ``ricochet_tournament_points``
  (the places themselves: ``ricochet.game.final_ranking``)
- ``model``: ``Player``, ``DrawContext``, ``Draw``, ``DrawReport``, ``DrawBudget``, ``Criterion``, ``Optimality``
- ``config``: ``TournamentRules.from_preset``; ``instance``: ``parse_instance`` (risiko-draw-instance/1)
"""
