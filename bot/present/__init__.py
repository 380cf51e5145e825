"""One home for presentation: numbers, dates and plural forms (Babel), the words of the message catalogues.

Cogs, the CSV exports, the ``steward`` CLI's text output and the renderer's labels format through this package, so a
number reads the same everywhere (``31,8`` in Italian, ``31.8`` in English, the same minus sign in embeds and images).
Services return data and never import it. Nothing here imports discord or the database.
"""
