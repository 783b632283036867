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


class StandingsPage(models.Model):
    """The standings page as a visitor sees it, rendered by the recompute for each language:
    with the cache cold, a visitor's page is one indexed read. Only a cache, like the above."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="pages")
    language = models.CharField(max_length=8)
    results_version = models.PositiveIntegerField()
    render_tag = models.CharField(max_length=16, default="")  # which templates drew it
    html = models.TextField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "language"], name="one_page_per_language")
        ]

    def __str__(self) -> str:
        return f"standings page of {self.season_id} ({self.language}, v{self.results_version})"
