"""RisiKo! rules engine (pure): board, battles and odds, cards and reinforcements, limits, end of game,
table scoring, tournament points and sanction ladders. See docs/risiko.md.

Modules: ``board`` (map, aliases, border toggle), ``config`` (preset tables -> ``RisikoRules``), ``dice``,
``cards``, ``limits``, ``endgame`` (sdadata / FIRK state machines), ``scoring``, ``points``, ``sanctions``.
"""
