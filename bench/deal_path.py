"""The path of one deal from the API view to the stored deal: how many of our functions it enters
and how often it climbs back into a module it had left (issue 34).

    PYTHONPATH=. python bench/deal_path.py            # the counts
    PYTHONPATH=. python bench/deal_path.py --trace    # and every entry, in order

Not a test: it measures and prints. It builds a game in an in-memory SQLite database (the test
factories' league: Ann and Bob against Cat and Dan), enters deal 1, then profiles the POST of
deal 2 to ``/api/games/<id>/deals/`` through Django's test client with ``sys.setprofile``.

- **functions entered**: distinct functions of ``league/`` and ``tournaments/`` (not of
  ``scoring/``, Django or the standard library) called during the POST, counted once each;
- **re-entries**: how many times the call path comes back into one of our modules after it had
  entered, and then left, another of our modules in the same request (a call from
  services/games.py to permissions.py and back to services/games.py, then to permissions.py
  again counts the second visit to permissions.py as one). Calls into modules outside ours do
  not count as leaving.
- per module: how many calls into it came from another of our modules.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OURS = ("league", "tournaments")


def setup() -> None:
    os.environ["DATABASE_URL"] = "sqlite://:memory:"
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


def build() -> tuple[object, object]:
    """A started game with deal 1 entered; its home captain."""
    from league.services.games import deal_record, game_start
    from tests import factories

    league = factories.LeagueFactory(name="Thursday Doubles")
    season = factories.SeasonFactory(league=league, name="Fall 2026")
    ann = factories.PlayerFactory(name="Ann")
    bob = factories.PlayerFactory(name="Bob")
    cat = factories.PlayerFactory(name="Cat")
    dan = factories.PlayerFactory(name="Dan")
    home = factories.TeamFactory(season=season, name="Fifteen Two", captain=ann, players=[ann, bob])
    away = factories.TeamFactory(season=season, name="Nobs", captain=cat, players=[cat, dan])
    week = factories.WeekFactory(season=season, number=1)
    match = factories.MatchFactory(week=week, home=home, away=away)
    user = ann.user
    game = game_start(match=match, user=user, seats=["Ann", "Cat", "Bob", "Dan"], first_dealer=0)
    deal_record(game=game, user=user, number=1, data=factories.plain_deal(0))
    return game, user


def module_of(frame: object) -> str | None:
    """Our module a frame runs in (``league.services.games``), or None for any other code."""
    path = Path(frame.f_code.co_filename)  # type: ignore[attr-defined]
    try:
        rel = path.resolve().relative_to(ROOT)
    except ValueError:
        return None
    if rel.parts[0] not in OURS or "migrations" in rel.parts:
        return None
    return ".".join(rel.with_suffix("").parts).removesuffix(".__init__")


def measure(trace: bool) -> None:
    from rest_framework.test import APIClient

    from tests.factories import plain_deal

    game, user = build()
    api = APIClient()
    api.force_authenticate(user)
    body = {"key": "bench-deal-2", "number": 2, **plain_deal(1)}
    api.post(f"/api/games/{game.pk}/deals/", body, format="json")  # warm: imports, caches
    game.refresh_from_db()
    body = {"key": "bench-deal-3", "number": 3, **plain_deal(2)}
    user = type(user).objects.get(pk=user.pk)  # a fresh user: no cached groups or teams
    api.force_authenticate(user)

    entered: list[str] = []
    seen: set[str] = set()
    visited: set[str] = set()  # modules entered so far
    last: list[str | None] = [None]  # the last of our modules the path was in
    reentries = Counter[str]()
    calls_in = Counter[str]()
    started = [False]

    def profile(frame: object, event: str, arg: object) -> None:
        if event != "call":
            return
        module = module_of(frame)
        if module is None:
            return
        name = f"{module}.{frame.f_code.co_qualname}"  # type: ignore[attr-defined]
        if name.endswith(".GameViewSet.deals"):
            started[0] = True
        if not started[0]:
            return
        if trace:
            print(("  " if module == last[0] else "> ") + name)
        if name not in seen:
            seen.add(name)
            entered.append(name)
        if module != last[0]:
            if last[0] is not None:
                calls_in[module] += 1
            if module in visited:
                reentries[module] += 1
            visited.add(module)
            last[0] = module

    sys.setprofile(profile)
    try:
        response = api.post(f"/api/games/{game.pk}/deals/", body, format="json")
    finally:
        sys.setprofile(None)
    assert response.status_code == 201, response.content
    print(f"functions entered: {len(entered)}")
    print(f"re-entries into a module left before: {sum(reentries.values())}")
    functions = Counter(name.rsplit(".", 1)[0] for name in entered)
    for module in sorted(visited):
        own = sum(n for f, n in functions.items() if f == module or f.startswith(module + "."))
        print(
            f"  {module}: {own} functions, entered {calls_in[module]}x from another module,"
            f" re-entered {reentries[module]}x"
        )
    if trace:
        print("\n".join(entered))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", action="store_true", help="print every call")
    args = parser.parse_args()
    setup()
    measure(args.trace)


if __name__ == "__main__":
    main()
