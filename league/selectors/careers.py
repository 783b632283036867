"""League history: a league's seasons with their champions, and a player's seasons and
lifetime record. Champions come from the playoff bracket, else first place in the standings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

from league.models import Game, League, Player, Season, Team
from league.selectors.playoffs import playoff_bracket
from league.selectors.standings import standings_for_season


@dataclass
class CareerRecord:
    won: int = 0
    lost: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played * 100 if self.played else None


def season_champion(season: Season) -> dict[str, Any] | None:
    """``{"team": name, "how": "playoffs" | "first_place"}``, or None before any result."""
    if season.playoff_seeding:
        champion = playoff_bracket(season).get("champion")
        if champion:
            return {"team": champion, "how": "playoffs"}
    rows = standings_for_season(season)["standings"]
    if rows and rows[0]["played"]:
        return {"team": rows[0]["team"], "how": "first_place"}
    return None


def league_history(league: League) -> list[dict[str, Any]]:
    """Every season of ``league``, newest first, with its teams, weeks and champion."""
    seasons = list(
        league.seasons.annotate(
            team_count=Count("teams", distinct=True),
            week_count=Count("weeks", distinct=True, filter=Q(weeks__is_playoff=False)),
        ).order_by("-id")
    )
    teams = {
        (t.season_id, t.name): t
        for t in Team.objects.filter(season__in=seasons).only("pk", "name", "season_id")
    }
    rows = []
    for season in seasons:
        champion = season_champion(season)
        rows.append(
            {
                "season": season,
                "champion": champion,
                "champion_team": teams.get((season.pk, champion["team"])) if champion else None,
            }
        )
    return rows


def player_career(player: Player, games: list[Game]) -> dict[str, Any]:
    """``player``'s seasons (team, partner, record in the games they sat in, their team's place,
    the title) and their lifetime record. ``games``: the confirmed games they sat in (as
    ``player_stats`` fetched them, with their matches), so the records cost no query."""
    teams = list(
        player.teams.select_related("season__league", "captain")
        .prefetch_related("players")
        .order_by("-season_id")
    )
    team_of_season = {t.season_id: t for t in teams}
    by_season: dict[int, CareerRecord] = {}
    lifetime = CareerRecord()
    for game in games:
        season_id = game.match.week.season_id
        team = team_of_season.get(season_id)
        if team is None or team.pk not in (game.match.home_id, game.match.away_id):
            continue
        record = by_season.setdefault(season_id, CareerRecord())
        if game.winner_id == team.pk:
            record.won += 1
            lifetime.won += 1
        else:
            record.lost += 1
            lifetime.lost += 1
    seasons = []
    titles = 0
    for team in teams:
        season = team.season
        record = by_season.get(season.pk, CareerRecord())
        place, of, won_title, how = None, None, False, None
        if record.played:  # a season not started has no place yet (and costs no query)
            table = standings_for_season(season)["standings"]
            of = len(table)
            place = next((r["rank"] for r in table if r["team_id"] == team.pk), None)
            champion = season_champion(season) if place == 1 or season.playoff_seeding else None
            won_title = bool(champion and champion["team"] == team.name)
            how = champion["how"] if won_title and champion else None
        titles += won_title
        seasons.append(
            {
                "team": team,
                "season": season,
                "partners": [p for p in team.players.all() if p.pk != player.pk],
                "record": record,
                "place": place,
                "of": of,
                "champion": won_title,
                "champion_how": how,
            }
        )
    return {"seasons": seasons, "lifetime": lifetime, "titles": titles}
