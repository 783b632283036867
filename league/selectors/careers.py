"""League history: a league's seasons with their champions, and a player's seasons and
lifetime record. Champions come from the playoff bracket, else first place in the standings."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from league.kernel.permissions import Actor
from league.models import Game, GameSeat, GameStatus, League, Player, Season, SeasonState, Team
from league.selectors.playoffs import playoff_bracket
from league.selectors.seasons import seasons_visible_to
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


def league_history(
    league: League, *, user: Actor | None = None, today: dt.date | None = None
) -> list[dict[str, Any]]:
    """Every season of ``league`` that ``user`` may see (drafts for league admins only),
    newest first, with its state on ``today``, its teams, weeks and champion (a season not
    finished has a first place so far; a season still to start has none)."""
    today = today or timezone.localdate()
    seasons = list(
        seasons_visible_to(user)
        .filter(league=league, importing=False)
        .with_first_night()
        .annotate(
            team_count=Count("teams", distinct=True),
            week_count=Count("weeks", distinct=True, filter=Q(weeks__is_playoff=False)),
        )
        .order_by("-id")
    )
    teams = {
        (t.season_id, t.name): t
        for t in Team.objects.filter(season__in=seasons).only("pk", "name", "season_id")
    }
    rows = []
    for season in seasons:
        state = season.state_on(today)
        playing = state in (SeasonState.RUNNING, SeasonState.FINISHED)
        champion = season_champion(season) if playing else None
        rows.append(
            {
                "season": season,
                "state": state,
                "champion": champion,
                "champion_team": teams.get((season.pk, champion["team"])) if champion else None,
            }
        )
    return rows


@dataclass
class SubSeason:
    """A season ``player`` played in only from its sub list: the nights and games they sat in
    (void games left out), the teams they sat for, and their record in the confirmed games."""

    season: Season
    nights: set[int] = field(default_factory=set)  # week ids
    games: int = 0
    teams: dict[int, Team] = field(default_factory=dict)
    record: CareerRecord = field(default_factory=CareerRecord)


def _sub_seasons(player: Player, rostered: set[int]) -> list[SubSeason]:
    """The seasons (not drafts, not being imported, not one of ``rostered``) where ``player``
    sat as a sub, newest first. One query."""
    seats = (
        GameSeat.objects.filter(player=player, is_sub=True)
        .exclude(game__status=GameStatus.VOID)
        .exclude(game__match__week__season__state=SeasonState.DRAFT)
        .exclude(game__match__week__season__importing=True)
        .exclude(game__match__week__season_id__in=rostered)
        .select_related(
            "game__match__week__season__league", "game__match__home", "game__match__away"
        )
    )
    by_season: dict[int, SubSeason] = {}
    for seat in seats:
        game = seat.game
        season = game.match.week.season
        row = by_season.setdefault(season.pk, SubSeason(season=season))
        team = game.team_for_side(season.game_variant.side_of(seat.seat))
        row.nights.add(game.match.week_id)
        row.games += 1
        row.teams[team.pk] = team
        if game.status == GameStatus.CONFIRMED:
            if game.winner_id == team.pk:
                row.record.won += 1
            else:
                row.record.lost += 1
    return [by_season[pk] for pk in sorted(by_season, reverse=True)]


def player_career(player: Player, games: list[Game]) -> dict[str, Any]:
    """``player``'s seasons (team, partner, record in the games they sat in, their team's place,
    the title) and their lifetime record (``only_in_hidden_seasons``: every team of theirs is
    in a season an import is still writing). ``games``: the confirmed games they sat in (as
    ``player_stats`` fetched them, with their matches), so the records cost no query.

    ``sub_seasons`` are the seasons they played only as a sub (on no team of it): the nights
    and games they sat in and the teams they sat for (one more query); their wins and losses
    count in the lifetime record too."""
    every_team = list(
        player.teams.exclude(season__state=SeasonState.DRAFT)  # a public page: no draft
        .select_related("season__league", "captain")
        .prefetch_related("players")
        .order_by("-season_id")
    )
    # A season an import is still writing is not there yet (its pages are a 404).
    teams = [t for t in every_team if not t.season.importing]
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
    subbed = _sub_seasons(player, set(team_of_season))
    for row in subbed:
        lifetime.won += row.record.won
        lifetime.lost += row.record.lost
    return {
        "seasons": seasons,
        "sub_seasons": subbed,
        "sub_seasons_count": len(subbed),
        "lifetime": lifetime,
        "titles": titles,
        "only_in_hidden_seasons": bool(every_team) and not teams and not subbed,
    }
