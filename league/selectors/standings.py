"""Standings and seeding computed from the confirmed games of a season (two queries)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from league.models import Game, GameStatus, Season
from league.ranking import TeamRecord, rank_teams


def season_records(season: Season) -> list[TeamRecord]:
    """Every team's record from confirmed, non-playoff games."""
    records = {
        pk: TeamRecord(team_id=pk, name=name) for pk, name in season.teams.values_list("pk", "name")
    }
    rows = Game.objects.filter(
        match__week__season=season,
        match__week__is_playoff=False,
        status=GameStatus.CONFIRMED,
    ).values_list(
        "match__home_id",
        "match__away_id",
        "match__week_id",
        "home_points",
        "away_points",
        "winner_id",
        "margin",
        "skunk_level",
    )
    week_tally: dict[tuple[int, int], int] = {}  # (team, week) -> games won minus games lost
    for home, away, week, home_pts, away_pts, winner, margin, skunk in rows.iterator():
        loser = away if winner == home else home
        win_rec, lose_rec = records[winner], records[loser]
        margin = margin or 0
        for rec in (win_rec, lose_rec):
            rec.played += 1
        win_rec.won += 1
        lose_rec.lost += 1
        win_rec.spread += margin
        lose_rec.spread -= margin
        if skunk >= 1:
            win_rec.skunks += 1
            lose_rec.skunks_against += 1
        if skunk >= 2:
            win_rec.double_skunks += 1
        records[home].points += home_pts
        records[away].points += away_pts
        records[home].h2h_points[away] = records[home].h2h_points.get(away, 0) + home_pts
        records[away].h2h_points[home] = records[away].h2h_points.get(home, 0) + away_pts
        week_tally[(winner, week)] = week_tally.get((winner, week), 0) + 1
        week_tally[(loser, week)] = week_tally.get((loser, week), 0) - 1
    for (team, _week), balance in week_tally.items():
        if balance > 0:
            records[team].weeks_won += 1
    return list(records.values())


def compute_standings(season: Season) -> dict[str, Any]:
    """The standings and seeding of ``season`` as a JSON-ready dict, computed from the games."""
    # The season's own tie-breaks: changing the league's defaults never re-ranks a season.
    standings, seeding = rank_teams(
        season_records(season), tiebreaks=season.tiebreaks, draw_seed=season.draw_seed
    )
    return {
        "season": season.name,
        "season_id": season.pk,
        "results_version": season.results_version,
        "computed_at": timezone.now().isoformat(),
        "tiebreaks": list(season.tiebreaks),
        "draw_seed": season.draw_seed,
        "playoff_teams": season.playoff_teams,
        "standings": [
            {
                "rank": row.rank,
                "team_id": row.record.team_id,
                "team": row.record.name,
                "played": row.record.played,
                "won": row.record.won,
                "lost": row.record.lost,
                "points": row.record.points,
                "weeks_won": row.record.weeks_won,
                "skunks": row.record.skunks,
                "skunks_against": row.record.skunks_against,
                "double_skunks": row.record.double_skunks,
                "spread": row.record.spread,
                "decided_by": row.decided_by,
            }
            for row in standings
        ],
        "seeding": [row.record.name for row in seeding],
        "seeding_decided_by": [row.decided_by for row in seeding],
    }
