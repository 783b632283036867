"""Writes: one function per state change. Every door (web, API, admin, import) comes through here."""
