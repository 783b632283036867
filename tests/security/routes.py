"""For the security tests: what a refused request must leave untouched; every route as the URL
resolver knows it (API and pages), so an endpoint added tomorrow is tested the day it lands; and
what the right person would send."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver

from league.models import Deal, Dispute, Game, GameStatus, Match, Season
from league.services.deals import deal_record
from tests.factories import deal_game
from tests.factories import first_deal as deal_body

UNSAFE = ("post", "put", "patch", "delete")
# The one write open to visitors: asking for a token with a name and a password.
LOGIN_ROUTES = {"api:token"}


def database_state() -> dict[str, Any]:
    """Every league row count (audit trail included), and every game's, deal's, season's and
    dispute's state: what a refused write must leave exactly as it was."""
    models = apps.get_app_config("league").get_models()
    # A known device is sign-in bookkeeping, like a session: signing in (with the right
    # password, which these walks post to the log-in page) records one, and writes no league data.
    # The stored records are a cache of public results: any page that reads them may rebuild it.
    derived = {"KnownDevice", "RecordsSnapshot"}
    state: dict[str, Any] = {
        model.__name__: model.objects.count() for model in models if model.__name__ not in derived
    }
    state["games"] = list(
        Game.objects.order_by("pk").values_list(
            "pk",
            "status",
            "home_score",
            "away_score",
            "deal_count",
            "version",
            "winner_id",
            "confirmed_by_id",
        )
    )
    state["deals"] = list(Deal.objects.order_by("pk").values_list("pk", "is_current", "version"))
    state["seasons"] = list(Season.objects.order_by("pk").values_list("pk", "results_version"))
    state["disputes"] = list(Dispute.objects.order_by("pk").values_list("pk", "status"))
    return state


# --- The API's routes, from the URL resolver ------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str  # "api:game-deals"
    pattern: str
    methods: frozenset[str]  # lower-case HTTP methods the view answers
    model: type | None  # the model behind the route's {pk}, if it has one
    has_pk: bool


def _walk(patterns: list, prefix: str, namespace: str) -> Iterator[tuple[str, str, URLPattern]]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            ns = entry.namespace or namespace
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), ns)
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), namespace, entry


def _methods(callback: Any) -> frozenset[str]:
    actions = getattr(callback, "actions", None)
    if actions:  # a viewset: the router says which method runs which action
        return frozenset(actions)
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if cls is None:
        return frozenset({"get", "post"})  # a plain function view: assume the worst
    answered = (m for m in cls.http_method_names if hasattr(cls, m))
    return frozenset(m for m in answered if m not in ("options", "head", "trace"))


def api_routes() -> list[Route]:
    """Every named route under /api/, without DRF's ``.json`` format-suffix twins."""
    routes: dict[str, Route] = {}
    for pattern, namespace, entry in _walk(get_resolver().url_patterns, "", ""):
        if namespace != "api" or not entry.name or "format" in entry.pattern.regex.groupindex:
            continue
        cls = getattr(entry.callback, "cls", None)
        queryset = getattr(cls, "queryset", None)
        routes[f"api:{entry.name}"] = Route(
            name=f"api:{entry.name}",
            pattern=pattern,
            methods=_methods(entry.callback),
            model=queryset.model if queryset is not None else None,
            has_pk="pk" in entry.pattern.regex.groupindex,
        )
    return sorted(routes.values(), key=lambda r: r.name)


def write_routes() -> list[Route]:
    """Routes that answer at least one unsafe method."""
    return [r for r in api_routes() if r.methods & set(UNSAFE)]


# --- Games and bodies that would be accepted from the right person -------------------------------


def finish(game, user, *, seed: int = 1) -> None:
    """Play ``game`` to the end through the deal service."""
    for body in deal_game(seed=seed, first_dealer=game.first_dealer).deals:
        key, number = body.pop("key"), body.pop("number")
        deal_record(game=game, user=user, number=number, data=body, key=key)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


def good_body(route: Route, match: Match | None = None) -> dict[str, Any]:
    """What the right person would send to ``route`` and have accepted."""
    if route.name == "api:match-games":
        seats = ["Ann", "Cat", "Bob", "Dan"]
        if match is not None:
            home = list(match.home.players.order_by("pk").values_list("name", flat=True))
            away = list(match.away.players.order_by("pk").values_list("name", flat=True))
            seats = [home[0], away[0], home[1], away[1]]
        return {"seats": seats, "first_dealer": 0}
    if route.name == "api:game-deals":
        return deal_body()
    if route.name in ("api:game-disputes", "api:game-reject"):
        return {"claim": "Deal 1's crib was 4, not 5.", "deal_number": 1}
    if route.name == "api:game-corrections":
        deal = {k: v for k, v in deal_body().items() if k not in ("key", "number")}
        return {"number": 1, "deal": deal, "reason": "The crib was 4."}
    if route.name == "api:game-dealt":
        return {"number": 1, "seat": 0, "cards": "5H 5D 5S JC 4D"}
    if route.name == "api:match-forfeit":
        return {"team": match.away_id if match is not None else 1, "reason": "No show."}
    if route.name in ("api:match-forfeit-undo", "api:week-cancel"):
        return {"reason": "A mistake."}
    if route.name in ("api:match-postponements", "api:match-postpone", "api:week-move"):
        return {"date": "2026-09-05", "reason": "Snow."}
    if route.name == "api:season-subs":
        return {"players": [{"name": "Spare Sam"}]}
    if route.name == "api:season-subs-remove":  # a player who exists (ids differ by database)
        player = match.home.players.order_by("pk").first() if match is not None else None
        return {"player": player.pk if player is not None else 1}
    return {}


# --- The site's own pages (everything but the admin panel and the API) ---------------------------


@dataclass(frozen=True)
class Page:
    name: str  # "league:confirm"
    kwargs: tuple[str, ...]  # the URL's arguments, in order


def site_routes() -> list[Page]:
    """Every named route outside the admin panel and the API."""
    pages: dict[str, Page] = {}
    for _pattern, namespace, entry in _walk(get_resolver().url_patterns, "", ""):
        if namespace in ("admin", "api") or not entry.name:
            continue
        name = f"{namespace}:{entry.name}" if namespace else entry.name
        pages[name] = Page(name=name, kwargs=tuple(entry.pattern.regex.groupindex))
    return sorted(pages.values(), key=lambda p: p.name)
