"""A draft season is its organisers' alone: every page the URL resolver knows, walked as a
visitor and as a player of the draft with the draft's ids (its season, weeks, matches and
teams), answers without the draft's name; so do the links made while it was published (a
reminder's one-tap answer, calendar feeds) once it is back to draft, and the one-tap answer's
refusals. A new page is walked the day it lands."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from league.models import Season, SeasonState, Week
from league.services.availability import availability_token
from league.services.calendars import calendar_feed_of
from league.services.season_life import season_unpublish
from tests import factories
from tests.security.routes import site_routes

# Every URL the resolver knows, walked twice: with the other walks in make test-slow and CI.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

MARKER = "Zorbliq"  # in the draft season's and its teams' names, and nowhere else

#: The word before a URL argument -> the draft's object of that kind.
KINDS = {
    "seasons": "season",
    "weeks": "week",
    "nights": "week",
    "matches": "match",
    "teams": "team",
    "team": "team",
    "leagues": "league",
    "venues": "venue",
}


@pytest.fixture
def draft(league, season, home_team, away_team, venue_week, match, game, ann, cat, league_admin):
    """Next season in the same league, named with the marker, with teams of this season's
    players, a night at the venue and a match; links made while it was published; then taken
    back to draft by its organiser."""
    ann, cat = home_team.captain, away_team.captain  # the players (the fixtures are accounts)
    bob = home_team.players.exclude(pk=ann.pk).get()
    dan = away_team.players.exclude(pk=cat.pk).get()
    nxt = factories.SeasonFactory(league=league, name=f"{MARKER} Spring 2027")
    pegs = factories.TeamFactory(season=nxt, name=f"{MARKER} Pegs", captain=ann, players=[ann, bob])
    heels = factories.TeamFactory(
        season=nxt, name=f"{MARKER} Heels", captain=cat, players=[cat, dan]
    )
    week = factories.WeekFactory(season=nxt, number=1, venue=venue_week.venue)
    week.date = week.date.replace(year=2099)  # a night still to come: it takes answers
    week.save()
    the_match = factories.MatchFactory(week=week, home=pegs, away=heels)
    feeds = [
        calendar_feed_of(user=ann.user, player=ann).token,
        calendar_feed_of(user=ann.user, team=pegs).token,
        calendar_feed_of(user=league_admin, season=nxt).token,
    ]
    answer_link = availability_token(player=ann, week=week)
    season_unpublish(season=nxt, user=league_admin)
    nxt.refresh_from_db()
    assert nxt.state == SeasonState.DRAFT
    return {
        "season": nxt,
        "week": week,
        "match": the_match,
        "team": pegs,
        "teams": [pegs, heels],
        "league": league,
        "venue": venue_week.venue,
        "feeds": feeds,
        "answer_link": answer_link,
    }


def _value(pattern: str, arg: str, draft: dict[str, Any]) -> list[Any]:
    """The draft's ids (or tokens) for URL argument ``arg`` of ``pattern``."""
    if arg == "token":
        return [draft["answer_link"], *draft["feeds"]]
    before = pattern.split(f"<{arg}>")[0] if f"<{arg}>" in pattern else pattern
    words = re.findall(r"([a-z_]+)/(?:<[^>]+>/)*$", before) or re.findall(r"([a-z_]+)/", before)
    kind = KINDS.get(words[-1] if words else "")
    if arg in ("venue",):
        kind = "venue"
    if arg in ("week",):
        kind = "week"
    if arg in ("a", "b"):
        kind = "team" if "/team/" in pattern else None
    if kind is None:
        return [draft[k].pk for k in ("season", "week", "match", "team")]
    if kind == "team" and arg == "b":
        return [draft["teams"][1].pk]
    return [draft[kind].pk]


def _urls(draft: dict[str, Any]) -> list[str]:
    """Every page the resolver knows, with the draft's ids; and the pages that take the draft
    in their query."""
    from django.urls import get_resolver

    from tests.security.routes import _walk

    patterns = {
        (f"{ns}:{e.name}" if ns else e.name): p
        for p, ns, e in _walk(get_resolver().url_patterns, "", "")
        if e.name and ns not in ("admin", "api")
    }
    urls: list[str] = []
    for page in site_routes():
        pattern = patterns[page.name]
        if not page.kwargs:
            urls.append(reverse(page.name))
            continue
        choices: list[dict[str, Any]] = [{}]
        for arg in page.kwargs:
            choices = [{**c, arg: v} for c in choices for v in _value(pattern, arg, draft)]
        for kwargs in choices:
            try:
                urls.append(reverse(page.name, kwargs=kwargs))
            except NoReverseMatch:
                continue
    season, team = draft["season"].pk, draft["team"].pk
    for name in ("records", "records_hands", "records_skunks", "records_streaks"):
        urls.append(reverse(f"league:{name}") + f"?season={season}")
    urls.append(reverse("league:records_h2h") + f"?team={team}")
    urls.append(reverse("league:home") + f"?season={season}")
    return urls


def _walk_as(client: Client, draft: dict[str, Any]) -> list[tuple[str, str, int]]:
    """GET and POST every URL (following redirects, so a refusal's message is read where it
    is shown): where the marker appears."""
    leaks = []
    skip = {reverse("logout"), reverse("league:sign_out_everywhere"), reverse("league:language")}
    for url in _urls(draft):
        for method in ("get", "post"):
            if method == "post" and (url in skip or url.startswith(reverse("set_language"))):
                continue
            data = {"answer": "in", "next": "/"} if method == "post" else None
            answer = getattr(client, method)(url, data, follow=True)
            if MARKER.encode() in answer.content:
                leaks.append((method, url, answer.status_code))
    return leaks


def test_a_visitor_finds_no_trace_of_a_draft_season_on_any_page(draft):
    leaks = _walk_as(Client(), draft)
    assert leaks == [], "\n".join(map(str, leaks))


def test_a_player_of_the_draft_finds_no_trace_of_it_on_any_page(draft, ann):
    client = Client()
    client.force_login(ann)
    leaks = _walk_as(client, draft)
    assert leaks == [], "\n".join(map(str, leaks))


def test_the_one_tap_answer_for_a_draft_night_names_nothing(draft, ann):
    client = Client()
    client.force_login(ann)
    url = reverse("league:availability_answer", args=[draft["week"].pk])
    answer = client.post(url, {"answer": "in", "next": "/"}, follow=True)
    assert MARKER not in answer.content.decode()
    assert "no longer on the schedule" in answer.content.decode()
    link = client.get(reverse("league:availability_link", args=[draft["answer_link"]]))
    assert link.status_code == 400 and MARKER not in link.content.decode()


def test_a_draft_nights_score_sheets_are_its_organisers_alone_and_never_cached(draft, league_admin):
    url = reverse("league:week_sheets", args=[draft["week"].pk])
    assert Client().get(url).status_code == 404
    organiser = Client()
    organiser.force_login(league_admin)
    page = organiser.get(url)
    assert page.status_code == 200 and MARKER in page.content.decode()
    cache = page["Cache-Control"]
    assert "private" in cache and "no-store" in cache


def test_the_walk_reaches_the_drafts_doors(draft):
    urls = _urls(draft)
    week, match, team = draft["week"].pk, draft["match"].pk, draft["team"].pk
    for expected in (
        f"/weeks/{week}/sheets/",
        f"/nights/{week}/answer/",
        f"/matches/{match}/",
        f"/teams/{team}/",
        f"/seasons/{draft['season'].pk}/standings/",
    ):
        assert expected in urls
    assert Season.objects.filter(name__contains=MARKER, state=SeasonState.DRAFT).exists()
    assert Week.objects.filter(season=draft["season"]).exists()
