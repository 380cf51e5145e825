"""Every query of the project (``from bot.db import repo``; ``repo.get_tournament_by_name(session=…, …)``).

One module per feature area so areas developed in parallel never edit the same file; this package
re-exports them all. Every function takes a keyword-only ``session`` and filters on ``guild_id``.
"""

from bot.db.repo.calls import *  # noqa: F403
from bot.db.repo.clocks import *  # noqa: F403
from bot.db.repo.core import *  # noqa: F403
from bot.db.repo.members import *  # noqa: F403
from bot.db.repo.registrations import *  # noqa: F403
from bot.db.repo.reports import *  # noqa: F403
from bot.db.repo.rounds import *  # noqa: F403
from bot.db.repo.rulebook import *  # noqa: F403
from bot.db.repo.sanctions import *  # noqa: F403
from bot.db.repo.schedules import *  # noqa: F403
from bot.db.repo.seasons import *  # noqa: F403
from bot.db.repo.tournaments import *  # noqa: F403
from bot.db.repo.venue import *  # noqa: F403
