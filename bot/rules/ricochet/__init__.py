"""Ricochet Robots rules engine (rulebook RR v3.3): board, moves, solver, verifier, round and game adjudication.

Pure: stdlib only, no clock, no global random. Modules: ``board`` (Board value type, notation), ``moves``
(slide, replay), ``solver`` (optimal solver and void check), ``verify`` (declared move lists), ``round``
(declarations, demonstrations, token pile), ``game`` (game points, end, final ranking), ``config`` (preset).
"""

from bot.rules.ricochet.board import Board, BoardError, Diagonal, Position, Target
from bot.rules.ricochet.moves import Step, replay, slide, slide_path

__all__ = ["Board", "BoardError", "Diagonal", "Position", "Step", "Target", "replay", "slide", "slide_path"]
