"""The path of one deal from the API view to the stored deal (issues 34 and 42): how many of our
functions it enters, how often it climbs back into a module it had left, how many SQL statements
it sends, and the worker's CPU per deal.

    PYTHONPATH=. python bench/deal_path.py            # the figures
    PYTHONPATH=. python bench/deal_path.py --trace    # and every call, in order
    PYTHONPATH=. python bench/deal_path.py --postgres # on PostgreSQL (a scratch database)

Not a test: it measures and prints (tests/api/test_deal_path.py pins the same figures). It
builds a game in an in-memory SQLite database (the test factories' league: Ann and Bob against
Cat and Dan), enters deal 1, then profiles the POST of the next deal to
``/api/games/<id>/deals/`` through Django's test client, signed in with an API token, with
``sys.setprofile`` (``tests/pathprobe.py`` says what is counted). The statements are counted
with ``CaptureQueriesContext`` (on SQLite, ``BEGIN IMMEDIATE`` and ``COMMIT`` are statements
too); the CPU is ``time.process_time()`` over ``--deals`` deals of as many games, each phone's
second deal (as at a table, where a phone sends deal after deal), each POST a whole request
(token, parse, service, response) with no profiler attached.

With --postgres the same runs on PostgreSQL instead (its CPU figure): a scratch database,
pegboard_deal_path or --database, on the server of LOAD_PG_ADMIN, created by the run and dropped
at its end (it refuses to start if that database exists, as bench/load.py does, whose helpers
it uses). The CPU is then the worker's alone (psycopg included); PostgreSQL's own backend is
another process, so its CPU is not counted, and the wall time per deal is printed beside it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup(database_url: str = "sqlite://:memory:") -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CELERY_TASK_ALWAYS_EAGER = True
    call_command("migrate", verbosity=0, interactive=False)


def build(name: str = "Fall 2026") -> tuple[object, object]:
    """A started game with deal 1 entered; its home captain."""
    from league.services.deals import deal_record
    from league.services.games import game_start
    from tests import factories

    league = factories.LeagueFactory()
    season = factories.SeasonFactory(league=league, name=name)
    ann, bob, cat, dan = (factories.PlayerFactory() for _ in range(4))
    home = factories.TeamFactory(season=season, captain=ann, players=[ann, bob])
    away = factories.TeamFactory(season=season, captain=cat, players=[cat, dan])
    week = factories.WeekFactory(season=season, number=1)
    match = factories.MatchFactory(week=week, home=home, away=away)
    user = ann.user
    seats = [ann.name, cat.name, bob.name, dan.name]
    game = game_start(match=match, user=user, seats=seats, first_dealer=0)
    deal_record(game=game, user=user, number=1, data=factories.plain_deal(0))
    return game, user


def client_for(user: object) -> object:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    token, _ = Token.objects.get_or_create(user=user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return api


def measure(trace: bool, deals: int, engine: str = "SQLite") -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import plain_deal
    from tests.pathprobe import probe

    game, user = build()
    api = client_for(user)
    url = f"/api/games/{game.pk}/deals/"
    api.post(url, {"key": "bench-2", "number": 2, **plain_deal(1)}, format="json")  # warm
    body = {"key": "bench-3", "number": 3, **plain_deal(2)}
    response, path = probe(lambda: api.post(url, body, format="json"), start="GameViewSet.deals")
    assert response.status_code == 201, response.content
    with CaptureQueriesContext(connection) as queries:
        response = api.post(url, {"key": "bench-4", "number": 4, **plain_deal(3)}, format="json")
    assert response.status_code == 201, response.content
    if trace:
        print("\n".join(path.calls))
    print(path.report())
    print(f"SQL statements per deal: {len(queries.captured_queries)}")
    if trace:
        print("\n".join("  " + q["sql"][:120] for q in queries.captured_queries))

    # The other team's phone sends deal 3 again with the same numbers: an agreement.
    other = client_for(game.match.away.captain.user)
    other.get("/api/games/")  # its token read once, as a phone's first request does
    body = {"key": "other-3", "number": 3, **plain_deal(2)}
    response, agreed = probe(
        lambda: other.post(url, body, format="json"), start="GameViewSet.deals"
    )
    assert response.status_code == 200, response.content
    with CaptureQueriesContext(connection) as queries:
        body = {"key": "other-4", "number": 4, **plain_deal(3)}
        assert other.post(url, body, format="json").status_code == 200
    print("\nThe other team's phone agreeing with a stored deal:")
    if trace:
        print("\n".join(agreed.calls))
    print(agreed.report())
    print(f"SQL statements per agreement: {len(queries.captured_queries)}")
    if trace:
        print("\n".join("  " + q["sql"][:120] for q in queries.captured_queries))

    games = [build(f"CPU {n}") for n in range(deals)]
    clients = [(client_for(u), f"/api/games/{g.pk}/deals/") for g, u in games]
    for n, (api, url) in enumerate(clients):  # each phone's first deal: its token read once
        body = {"key": f"warm-{n}", "number": 2, **plain_deal(1)}
        assert api.post(url, body, format="json").status_code == 201
    started, wall = time.process_time(), time.perf_counter()
    stored = 0
    for n, (api, url) in enumerate(clients):
        body = {"key": f"cpu-{n}", "number": 3, **plain_deal(2)}
        assert api.post(url, body, format="json").status_code == 201
        stored += 1
    spent, wall = time.process_time() - started, time.perf_counter() - wall
    print(
        f"worker CPU per deal: {spent / deals * 1000:.1f} ms (mean of {deals}, {engine}); "
        f"wall time {wall / deals * 1000:.1f} ms"
    )
    sys.path.insert(0, str(ROOT / "bench"))
    from measured import measured

    measured("deals timed", stored, deals)
    measured("calls on the deal's path", len(path.calls), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", action="store_true", help="print every call and statement")
    parser.add_argument("--deals", type=int, default=200, help="deals timed for the CPU figure")
    parser.add_argument(
        "--postgres", action="store_true", help="on PostgreSQL: a scratch database, then dropped"
    )
    parser.add_argument(
        "--database",
        default="pegboard_deal_path",
        help="--postgres's scratch database; the run refuses to start if it exists "
        "(pegboard_deal_path)",
    )
    args = parser.parse_args()
    if not args.postgres:
        setup()
        measure(args.trace, args.deals)
        return
    sys.path.insert(0, str(ROOT / "bench"))
    import load  # bench/load.py: the scratch database made and dropped

    load.DB_NAME = args.database
    load.create_database()
    try:
        setup(load.database_url())
        measure(args.trace, args.deals, "PostgreSQL")
    finally:
        load.drop_database()


if __name__ == "__main__":
    main()
