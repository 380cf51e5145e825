"""Thin Discord adapters, one extension per feature area (auto-discovered; ``_x.py`` are helpers)."""
