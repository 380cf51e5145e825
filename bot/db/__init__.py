"""Persistence: SQLModel tables (models), every query (repo), async engine and sessions (session)."""
