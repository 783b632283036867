"""A player's career page lists the seasons they played only as a sub: marked "sub", with the
nights and games they sat in and their record, beside the seasons they were on a team."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.models import Player, SeasonState
from league.selectors.subs import subs_of
from league.services.games import game_confirm, game_start, game_void
from league.services.people import PlayerLine
from league.services.subs import subs_add
from tests import factories
from tests.factories import play_until_over

pytestmark = pytest.mark.django_db


@pytest.fixture
def gus(season, league_admin):
    subs_add(user=league_admin, season=season, lines=[PlayerLine(name="Gus")])
    return subs_of(season)[0]


def _sub_rows(html: str) -> list[list[str]]:
    """The cells of the "Seasons as a sub" table, tags stripped."""
    table = html.split('class="history sub-seasons"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], flags=re.S)
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", c).split())
            for c in re.findall(r"<td[^>]*>(.*?)</td>", r, flags=re.S)
        ]
        for r in rows
    ]


def test_a_season_played_only_as_a_sub_is_on_the_career_page(
    client, season, match, ann, cat, league_admin, gus
):
    # One night: Gus sits for Bob in two games (both confirmed) and in a third that is voided.
    won = 0
    for _n in range(2):
        game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Gus", "Dan"])
        play_until_over(game, ann)
        game_confirm(game=game, user=cat)
        game.refresh_from_db()
        won += game.winner_id == match.home_id
    season.games_per_match = 3
    season.save(update_fields=["games_per_match"])
    void = game_start(match=match, user=ann, seats=["Ann", "Cat", "Gus", "Dan"])
    game_void(game=void, user=league_admin, reason="wrong table")
    html = client.get(reverse("league:player", args=[gus.pk])).content.decode()
    assert "Seasons as a sub" in html
    assert _sub_rows(html) == [
        [f"{season.league.name} · {season.name} sub", "Fifteen Two", "1", "2", f"{won}–{2 - won}"]
    ]
    assert "1 season ·" in html and f"lifetime record {won}–{2 - won}" in html
    # Bob, on the team, has no sub season; Ann's page is as before.
    ann_page = client.get(reverse("league:player", args=[Player.objects.get(name="Ann").pk]))
    assert "Seasons as a sub" not in ann_page.content.decode()


def test_a_draft_season_subbed_in_is_not_on_the_career_page(client, league, league_admin):
    draft = factories.SeasonFactory(league=league, name="Secret Spring", state=SeasonState.DRAFT)
    subs_add(user=league_admin, season=draft, lines=[PlayerLine(name="Gus")])
    gus = subs_of(draft)[0]
    ida, joe = factories.PlayerFactory(name="Ida"), factories.PlayerFactory(name="Joe")
    kim, lou = factories.PlayerFactory(name="Kim"), factories.PlayerFactory(name="Lou")
    home = factories.TeamFactory(season=draft, name="Home", captain=ida, players=[ida, joe])
    away = factories.TeamFactory(season=draft, name="Away", captain=kim, players=[kim, lou])
    match = factories.MatchFactory(week=factories.WeekFactory(season=draft), home=home, away=away)
    game_start(match=match, user=league_admin, seats=["Ida", "Kim", "Gus", "Lou"])
    html = client.get(reverse("league:player", args=[gus.pk])).content.decode()
    assert "Secret Spring" not in html and "Seasons as a sub" not in html
