"""The venue pages: a small aiohttp server, inside the bot's process or alone (``steward web``), that shows
each tournament's live, read-only page at an unguessable URL — the projector view and the phone view.

``hub.py`` keeps one snapshot per tournament (built by ``bot.services.venue`` once per change, never per viewer) and
tells the open pages when it changes; ``app.py`` is the aiohttp application (pages, JSON, server-sent events, the
Content-Security-Policy); ``pages.py`` the HTML skeletons and the words the script draws with; ``static/`` the
script and the style sheet (no CDN, no inline script or style: every text is inserted with ``textContent``)."""
