"""A stored copy of computed standings: only a cache; the games are the source of truth."""

from __future__ import annotations

from django.db import models

from league.models.leagues import Season


class StandingsSnapshot(models.Model):
    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="snapshot")
    results_version = models.PositiveIntegerField()
    data = models.JSONField()
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"standings of {self.season} (v{self.results_version})"
