"""Writes: one function per state change; every door (web, API, admin, import) calls these."""
