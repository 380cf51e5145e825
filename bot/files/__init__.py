"""Spreadsheet files, read and written without the database or Discord: CSV and XLSX tables (``sheets``), and the
players' file an organizer imports and exports (``players``). The services read imported files through it; ``present``
writes every exported file (its bytes and its name) through it."""
