"""Fixture chains: league -> season -> teams -> match -> game, with the people at the table."""

from __future__ import annotations

import contextlib
import weakref

import pytest

from league import models
from tests import factories

# What post_migrate's receivers are when only contenttypes and auth listen (see below).
_REBUILDERS = {"django.contrib.contenttypes.management", "django.contrib.auth.management"}


@pytest.fixture(scope="session", autouse=True)
def _quick_refill_after_flush():
    """After each transactional test (the browser tests, the concurrency tests) Django empties
    every table and sends post_migrate, whose receivers rebuild the content types and the
    permissions model by model: ten times the cost of the emptying itself. The rows they make
    are the same every time, so the first rebuild is kept and later ones put back that copy in
    two inserts (same rows, same ids). Any other post_migrate receiver: the real signal."""
    from django.core.management.commands import flush

    real = flush.emit_post_migrate_signal
    kept: dict[str, tuple[list, list]] = {}

    def refill(verbosity, interactive, db, **kwargs):
        from django.contrib.auth.models import Permission
        from django.contrib.contenttypes.models import ContentType
        from django.db.models.signals import post_migrate

        receivers = {
            getattr(ref() if isinstance(ref, weakref.ReferenceType) else ref, "__module__", "")
            for _, ref, *_ in post_migrate.receivers
        }
        if not receivers <= _REBUILDERS:
            return real(verbosity, interactive, db, **kwargs)
        if db not in kept:
            real(verbosity, interactive, db, **kwargs)
            kept[db] = (
                list(ContentType.objects.using(db).order_by("pk")),
                list(Permission.objects.using(db).order_by("pk")),
            )
            return None
        content_types, permissions = kept[db]
        ContentType.objects.using(db).bulk_create(content_types)
        Permission.objects.using(db).bulk_create(permissions)
        ContentType.objects.clear_cache()
        return None

    flush.emit_post_migrate_signal = refill
    yield
    flush.emit_post_migrate_signal = real


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Every fixture team makes accounts; the real hasher would spend seconds on them.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _winprob_from_the_prior(settings):
    """Win probability from the prior's table: no page's query count depends on whether this
    process built the recorded deals' table yet (tests/league/test_winprob.py turns it on)."""
    settings.PEGBOARD_WINPROB_FROM_DEALS = False


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A test that switches to French leaves the next test (in the same process) in English."""
    yield
    from django.utils import translation

    translation.activate("en")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache (standings keys repeat after a rollback)."""
    from django.core.cache import cache

    from league.kernel.cache import cache_resume

    cache_resume()
    cache.clear()
    yield
    with contextlib.suppress(Exception):  # a test that points the cache at a dead Redis
        cache.clear()
    cache_resume()


@pytest.fixture(autouse=True)
def _tasks_in_process(request):
    """Celery tasks run in the test's own process, even when REDIS_URL names a worker: a worker
    recomputing standings while a transactional test truncates its tables deadlocks them, and
    it cannot see a non-transactional test's data at all. Tests marked ``redis`` use the real
    worker (and wait for it); .ci/run's end-to-end stage drives it through gunicorn."""
    if request.node.get_closest_marker("redis"):
        yield
        return
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def league(db):
    return factories.LeagueFactory(name="Thursday Doubles")


@pytest.fixture
def season(league):
    return factories.SeasonFactory(league=league, name="Fall 2026")


@pytest.fixture
def home_team(season):
    ann = factories.PlayerFactory(name="Ann")
    bob = factories.PlayerFactory(name="Bob")
    return factories.TeamFactory(season=season, name="Fifteen Two", captain=ann, players=[ann, bob])


@pytest.fixture
def away_team(season):
    cat = factories.PlayerFactory(name="Cat")
    dan = factories.PlayerFactory(name="Dan")
    return factories.TeamFactory(season=season, name="Nobs", captain=cat, players=[cat, dan])


@pytest.fixture
def other_team(season):
    eve = factories.PlayerFactory(name="Eve")
    fay = factories.PlayerFactory(name="Fay")
    return factories.TeamFactory(season=season, name="His Heels", captain=eve, players=[eve, fay])


@pytest.fixture
def week(season):
    return factories.WeekFactory(season=season, number=1)


@pytest.fixture
def match(week, home_team, away_team):
    return factories.MatchFactory(week=week, home=home_team, away=away_team)


@pytest.fixture
def ann(home_team):
    return home_team.captain.user


@pytest.fixture
def cat(away_team):
    return away_team.captain.user


@pytest.fixture
def eve(other_team):
    return other_team.captain.user


@pytest.fixture
def game(match, ann):
    """Game 1: Ann, Cat, Bob, Dan clockwise (partners opposite); Ann deals first."""
    from league.services.games import game_start

    return game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"], first_dealer=0)


@pytest.fixture
def judge(db):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import JUDGES

    user = factories.UserFactory(username="judy")
    user.groups.add(Group.objects.get_or_create(name=JUDGES)[0])
    return user


@pytest.fixture
def league_admin(db):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import LEAGUE_ADMINS

    user = factories.UserFactory(username="lena")
    user.groups.add(Group.objects.get_or_create(name=LEAGUE_ADMINS)[0])
    return user


@pytest.fixture
def played_season(season, home_team, away_team, other_team):
    """Week 1: Fifteen Two beat Nobs 2-1 (one skunk). Week 2: His Heels beat Fifteen Two 2-1."""
    w1 = models.Week.objects.create(season=season, number=1)
    w2 = models.Week.objects.create(season=season, number=2)
    m1 = models.Match.objects.create(week=w1, home=home_team, away=away_team)
    factories.confirmed_game(m1, 1, home_team, 35, skunk=1)
    factories.confirmed_game(m1, 2, away_team, 10)
    factories.confirmed_game(m1, 3, home_team, 5)
    m2 = models.Match.objects.create(week=w2, home=other_team, away=home_team)
    factories.confirmed_game(m2, 1, other_team, 20)
    factories.confirmed_game(m2, 2, other_team, 3)
    factories.confirmed_game(m2, 3, home_team, 12)
    return season


@pytest.fixture
def venue(db):
    return models.Venue.objects.create(name="The Crooked Peg")


@pytest.fixture
def venue_week(week, venue):
    week.venue = venue
    week.save()
    return week


@pytest.fixture
def tables_33(venue_week, season, match):
    """33 tables in the venue's week, one more than a TV screen holds: the match at table 1 and
    32 more, created out of table order (the screens go by table number)."""
    matches = [match]
    for table in [*range(33, 17, -1), *range(2, 18)]:
        home = factories.TeamFactory(season=season, name=f"Home {table}")
        away = factories.TeamFactory(season=season, name=f"Away {table}")
        matches.append(
            models.Match.objects.create(week=venue_week, home=home, away=away, table=table)
        )
    return sorted(matches, key=lambda m: m.table)
