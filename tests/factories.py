"""The one factory module: model rows with sensible defaults. Results go through services."""

from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth import get_user_model

from league import models


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-word-123")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.League

    name = factory.Sequence(lambda n: f"League {n}")
    variant = "partnership-121"
    target = 121
    games_per_match = 3
    skunk_margin = 30
    requires_confirmation = True


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Season

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    playoff_teams = 4
    draw_seed = 2026


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player

    name = factory.Sequence(lambda n: f"Player {n}")
    user = factory.SubFactory(
        UserFactory,
        username=factory.LazyAttribute(lambda o: o.factory_parent.name.lower().replace(" ", "")),
    )


class TeamFactory(factory.django.DjangoModelFactory):
    """A team of two players with accounts; the first is captain."""

    class Meta:
        model = models.Team
        skip_postgeneration_save = True

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Team {n}")
    captain = factory.SubFactory(PlayerFactory)

    @factory.post_generation
    def players(
        self, create: bool, extracted: list[models.Player] | None, **kwargs: object
    ) -> None:
        if not create:
            return
        if extracted:
            self.players.set(extracted)
        else:
            self.players.set([self.captain, PlayerFactory()])


class WeekFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Week

    season = factory.SubFactory(SeasonFactory)
    number = factory.Sequence(lambda n: n + 1)
    date = factory.LazyFunction(lambda: dt.date(2026, 9, 3))


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Match

    week = factory.SubFactory(WeekFactory)
    home = factory.SubFactory(TeamFactory, season=factory.SelfAttribute("..week.season"))
    away = factory.SubFactory(TeamFactory, season=factory.SelfAttribute("..week.season"))
    table = 1


def confirmed_game(match, number, winner, margin, skunk=0):
    """A confirmed game with its outcome stored, for standings tests that need no deals."""
    league = match.week.season.league
    home_won = winner == match.home
    return models.Game.objects.create(
        match=match,
        number=number,
        status=models.GameStatus.CONFIRMED,
        winner=winner,
        margin=margin,
        skunk_level=skunk,
        home_score=121 if home_won else 121 - margin,
        away_score=121 - margin if home_won else 121,
        home_points=league.league_points(won=home_won, skunk_level=skunk),
        away_points=league.league_points(won=not home_won, skunk_level=skunk),
        confirmed_at="2026-09-03T20:00:00Z",
    )
