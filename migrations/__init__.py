"""Alembic migrations (env.py + versions/). Shipped as a package so an installed steward can upgrade."""
