"""``python -m bot.i18n extract|update|compile|check`` (see ``bot.i18n.tool``)."""

import sys

from bot.i18n.tool import main

sys.exit(main())
