"""Pure Pillow renderer: data in, PNG bytes out. No discord, no database."""
