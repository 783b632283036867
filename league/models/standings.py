"""A stored copy of computed standings: only a cache; the games are the source of truth."""

from __future__ import annotations

from typing import Any

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


def _copied(to: str, *, index: bool = False) -> models.ForeignKey[Any]:
    """A key copied into a tally from its match: no constraint, no reverse accessor."""
    return models.ForeignKey(
        to, on_delete=models.DO_NOTHING, db_constraint=False, db_index=index, related_name="+"
    )


class MatchTally(models.Model):
    """What one match's games add up to, for the standings: only a cache, like the above, but
    kept in the transaction that changes a game (``league.services.tallies``), so it is never
    behind the games it sums. Rebuilt from them at will (``manage.py retally``); the recompute
    checks it against them and mends it. Counted games only: confirmed ones as results,
    finished-but-waiting and disputed ones as counts. Home's point of view: ``spread`` is home's
    net margin, the away side's is its negative."""

    # Deleted with its match; no constraint in the database, so a bulk import may write the
    # tallies of matches it creates in the same statement batch, in any order.
    match = models.OneToOneField(
        "league.Match",
        on_delete=models.CASCADE,
        db_constraint=False,
        primary_key=True,
        related_name="tally",
    )
    # Copied from the match and its week when the tally is rebuilt (a change of the match or
    # the week rebuilds it), so a season's standings read this one table, by its season:
    # on PostgreSQL, planning the join of three tables cost more than reading the tallies.
    season = _copied("league.Season", index=True)
    week = _copied("league.Week")
    home = _copied("league.Team")
    away = _copied("league.Team")
    is_playoff = models.BooleanField(default=False)
    home_won = models.PositiveSmallIntegerField(default=0)
    away_won = models.PositiveSmallIntegerField(default=0)
    home_points = models.PositiveIntegerField(default=0)
    away_points = models.PositiveIntegerField(default=0)
    spread = models.IntegerField(default=0)
    home_skunks = models.PositiveSmallIntegerField(default=0)
    away_skunks = models.PositiveSmallIntegerField(default=0)
    home_double_skunks = models.PositiveSmallIntegerField(default=0)
    away_double_skunks = models.PositiveSmallIntegerField(default=0)
    waiting = models.PositiveSmallIntegerField(default=0)
    disputed = models.PositiveSmallIntegerField(default=0)
    # Confirmed games won by forfeit: the match is over with them, whatever was played.
    forfeits = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"tally of match {self.match_id}"


class RecordsSnapshot(models.Model):
    """The records pages' figures (skunks, streaks, milestones, special hands, who the
    head-to-head picker offers) of one scope, all seasons or one, as plain data: only a cache,
    like the above, rebuilt from the games whenever its ``fingerprint`` (the public seasons and
    their results versions) is no longer theirs (``league.services.records``)."""

    scope = models.CharField(max_length=32, unique=True)  # "all", or "season:<id>"
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="records"
    )
    fingerprint = models.CharField(max_length=64)
    skunks = models.JSONField(default=dict)
    streaks = models.JSONField(default=dict)
    milestones = models.JSONField(default=list)
    hands = models.JSONField(default=list)
    picker = models.JSONField(default=list)
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"records of {self.scope}"
