"""Reads: query functions whose query counts are pinned by tests."""
