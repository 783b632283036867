"""Who is coming to a night: each player's answer (in, out, maybe, or none yet), for a player's
own next nights (the home page), one match (its page) and a season's next night (the
organiser's page). Captains, the players of a match and organisers read it; visitors do not."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Prefetch, Q

from league.kernel.permissions import Action, Actor, Trusted, can
from league.models import Availability, Match, Player, Season, SeasonState, Team, Week

NIGHTS_AHEAD = 2  # the home page asks about this many nights of each season


def player_of(user: Actor | None) -> Player | None:
    """The player a signed-in login is linked to, or None."""
    uid = getattr(user, "pk", None)
    if not isinstance(uid, int) or isinstance(user, Trusted):
        return None
    return Player.objects.filter(user_id=uid).first()


def may_see_availability(user: Actor, match: Match) -> bool:
    """League admins and the players of either team see who is coming to a match."""
    if can(user, Action.MANAGE_LEAGUE):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    uid = getattr(user, "pk", None)
    if not isinstance(uid, int):
        return False
    return Player.objects.filter(user_id=uid, teams__in=[match.home_id, match.away_id]).exists()


def _answers(weeks: list[Week], players: list[Player]) -> dict[tuple[int, int], str]:
    rows = Availability.objects.filter(week__in=weeks, player__in=players).values_list(
        "week_id", "player_id", "answer"
    )
    return {(w, p): a for w, p, a in rows}


def _side(team: Team, week: Week, answers: dict[tuple[int, int], str]) -> dict[str, Any]:
    players = sorted(team.players.all(), key=lambda p: p.name)
    rows = [{"player": p, "answer": answers.get((week.pk, p.pk), "")} for p in players]
    return {
        "team": team,
        "players": rows,
        "coming": sum(r["answer"] == "in" for r in rows),
        "out": sum(r["answer"] == "out" for r in rows),
    }


def match_availability(match: Match) -> list[dict[str, Any]]:
    """Both sides of ``match`` (home first), each with its players and their answers."""
    teams = [match.home, match.away]
    players = [p for t in teams for p in t.players.all()]
    answers = _answers([match.week], players)
    return [_side(t, match.week, answers) for t in teams]


def next_night(season: Season, *, today: dt.date) -> Week | None:
    """The season's next regular night: the first dated today or later (else the first
    undated one)."""
    weeks = season.weeks.filter(is_playoff=False)
    return (
        weeks.filter(date__gte=today).order_by("date", "number").first()
        or weeks.filter(date__isnull=True).order_by("number").first()
    )


def who_is_coming(*, season: Season, today: dt.date) -> dict[str, Any] | None:
    """The season's next night with, for each match, who is coming from each side (the
    organiser's view). None for a season that takes no answers (a draft, a finished one)."""
    if season.state != SeasonState.PUBLISHED:
        return None
    week = next_night(season, today=today)
    if week is None:
        return None
    matches = list(
        week.matches.select_related("home", "away")
        .prefetch_related("home__players", "away__players")
        .order_by("table")
    )
    players = [p for m in matches for t in (m.home, m.away) for p in t.players.all()]
    answers = _answers([week], players)
    rows = [
        {"match": m, "sides": [_side(t, week, answers) for t in (m.home, m.away)]} for m in matches
    ]
    return {"week": week, "matches": rows}


def my_nights(user: Actor, *, today: dt.date) -> list[dict[str, Any]]:
    """The signed-in player's next nights in every open season they play in, each with their
    match that night (None for a bye), their answer and their team's (so a captain sees who
    of the team is coming). Six queries; none for a visitor."""
    if not getattr(user, "is_authenticated", False):
        return []
    player = player_of(user)
    if player is None:
        return []
    teams = list(
        player.teams.filter(season__state=SeasonState.PUBLISHED, season__importing=False)
        .select_related("season__league")
        .prefetch_related("players")
        .order_by("season__league__name", "season_id")
    )
    if not teams:
        return []
    weeks = list(
        Week.objects.filter(season__in=[t.season_id for t in teams], is_playoff=False)
        .filter(Q(date__gte=today) | Q(date__isnull=True))
        .select_related("venue")
        .prefetch_related(
            Prefetch("matches", queryset=Match.objects.select_related("home", "away"))
        )
        .order_by("season_id", "date", "number")
    )
    teammates = {p.pk: p for t in teams for p in t.players.all()}
    answers = _answers(weeks, list(teammates.values()))
    out = []
    for team in teams:
        nights = [w for w in weeks if w.season_id == team.season_id][:NIGHTS_AHEAD]
        for week in nights:
            match = next((m for m in week.matches.all() if team.pk in (m.home_id, m.away_id)), None)
            out.append(
                {
                    "season": team.season,
                    "team": team,
                    "player": player,
                    "week": week,
                    "match": match,
                    "answer": answers.get((week.pk, player.pk), ""),
                    "team_answers": [
                        {"player": p, "answer": answers.get((week.pk, p.pk), "")}
                        for p in sorted(team.players.all(), key=lambda p: p.name)
                    ],
                }
            )
    return out


def answerable_players(user: Actor, match: Match, *, today: dt.date) -> set[int]:
    """The players of ``match`` whose answer ``user`` may give on its page: their own, every
    player of a team they captain, everyone for a league admin; none once the night has
    passed or when the season takes no answers (the service says the same)."""
    season = match.week.season
    if (
        season.state != SeasonState.PUBLISHED
        or (match.week.date is not None and match.week.date < today)
        or match.week.cancelled_reason
    ):
        return set()
    teams = [match.home, match.away]
    if can(user, Action.MANAGE_LEAGUE):
        return {p.pk for t in teams for p in t.players.all()}
    uid = getattr(user, "pk", None)
    if uid is None:
        return set()
    out: set[int] = set()
    for team in teams:
        players = list(team.players.all())
        captain = next((p for p in players if p.pk == team.captain_id), None)
        if captain is not None and captain.user_id == uid:
            out |= {p.pk for p in players}
        out |= {p.pk for p in players if p.user_id == uid}
    return out
