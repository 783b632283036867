"""The playoff rule on nights played: with ``Season.playoff_min_nights`` set, a team with a
player who sat at fewer regular-season nights is left out of the draw, named with who is short,
and the next team in the standings takes its place. Off by default."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.kernel.errors import ValidationFailed
from league.models import AuditEntry, GameSeat, GameStatus, Match, Player, Week
from league.selectors.playoffs import nights_played, playoff_shortfalls
from league.services.playoffs import playoff_exclusions, playoffs_create
from league.services.season_ops import season_ops_update
from tests import factories

REASON = "hand-made season"


def _seated(match, number, winner, seats, *, subs=(), status=None):
    """A confirmed game of ``match`` won by ``winner`` by 10, with ``seats`` (names, clockwise:
    home, away, home, away)."""
    game = factories.confirmed_game(match, number, winner, 10)
    if status is not None:
        game.status = status
        game.save(update_fields=["status"])
    for seat, name in enumerate(seats):
        player = Player.objects.get(name=name)
        GameSeat.objects.create(game=game, seat=seat, player=player, is_sub=name in subs)
    return game


@pytest.fixture
def four_weeks(season, home_team, away_team, other_team):
    """Four teams, three nights, one game a match (hand-worked):

    - Night 1: Fifteen Two beat Nobs (Ann, Cat, Bob, Dan); His Heels beat Peg Out.
    - Night 2: Fifteen Two beat His Heels; Nobs beat Peg Out with Gus sitting for Dan (and a
      game with Dan voided: no night for him).
    - Night 3: Fifteen Two beat Peg Out with Hal sitting for Bob; Nobs beat His Heels, Gus for
      Dan again.

    Points (one a win): Fifteen Two 3, Nobs 2, His Heels 1, Peg Out 0. Nights: Dan 1, Bob 2,
    every other player of a team 3."""
    season.games_per_match = 1
    season.playoff_teams = 2
    season.save()
    ida, joe = factories.PlayerFactory(name="Ida"), factories.PlayerFactory(name="Joe")
    peg_out = factories.TeamFactory(season=season, name="Peg Out", captain=ida, players=[ida, joe])
    factories.PlayerFactory(name="Gus")
    factories.PlayerFactory(name="Hal")
    ft, nobs, hh = home_team, away_team, other_team
    w1, w2, w3 = (Week.objects.create(season=season, number=n) for n in (1, 2, 3))
    _seated(Match.objects.create(week=w1, home=ft, away=nobs), 1, ft, ["Ann", "Cat", "Bob", "Dan"])
    _seated(
        Match.objects.create(week=w1, home=hh, away=peg_out), 1, hh, ["Eve", "Ida", "Fay", "Joe"]
    )
    _seated(Match.objects.create(week=w2, home=ft, away=hh), 1, ft, ["Ann", "Eve", "Bob", "Fay"])
    m = Match.objects.create(week=w2, home=nobs, away=peg_out)
    _seated(m, 2, nobs, ["Cat", "Ida", "Dan", "Joe"], status=GameStatus.VOID)
    _seated(m, 1, nobs, ["Cat", "Ida", "Gus", "Joe"], subs={"Gus"})
    m = Match.objects.create(week=w3, home=ft, away=peg_out)
    _seated(m, 1, ft, ["Ann", "Ida", "Hal", "Joe"], subs={"Hal"})
    m = Match.objects.create(week=w3, home=nobs, away=hh)
    _seated(m, 1, nobs, ["Cat", "Eve", "Gus", "Fay"], subs={"Gus"})
    return season


def test_nights_count_each_night_once_and_no_void_game(four_weeks):
    names = dict(Player.objects.values_list("pk", "name"))
    by_name = {names[pk]: n for pk, n in nights_played(four_weeks).items()}
    assert by_name == {
        "Ann": 3, "Bob": 2, "Cat": 3, "Dan": 1, "Eve": 3, "Fay": 3, "Ida": 3, "Joe": 3,
        "Gus": 2, "Hal": 1,
    }  # fmt: skip


def test_the_rule_is_off_by_default_and_the_top_two_are_drawn(four_weeks, league_admin):
    assert four_weeks.playoff_min_nights is None
    playoffs_create(season=four_weeks, user=league_admin, reason=REASON)
    four_weeks.refresh_from_db()
    assert four_weeks.playoff_seeding == ["Fifteen Two", "Nobs"]
    assert playoff_exclusions(four_weeks) == []


def test_a_team_with_a_player_short_is_left_out_and_the_next_team_drawn(four_weeks, league_admin):
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 2})
    four_weeks.refresh_from_db()
    assert playoff_shortfalls(four_weeks) == {"Nobs": [("Dan", 1)]}  # Bob's 2 are enough
    matches = playoffs_create(season=four_weeks, user=league_admin, reason=REASON)
    four_weeks.refresh_from_db()
    assert four_weeks.playoff_seeding == ["Fifteen Two", "His Heels"]
    assert [(m.home.name, m.away.name) for m in matches] == [("Fifteen Two", "His Heels")]
    assert playoff_exclusions(four_weeks) == [
        "Nobs is not in the playoffs: each player must play 2 nights, and Dan played 1 night."
    ]
    drawn = AuditEntry.objects.get(action="playoffs_create")
    assert drawn.after["excluded"] == {"Nobs": [["Dan", 1]]}


def test_at_three_nights_bob_is_short_too(four_weeks, league_admin):
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 3})
    four_weeks.refresh_from_db()
    assert playoff_shortfalls(four_weeks) == {
        "Fifteen Two": [("Bob", 2)],
        "Nobs": [("Dan", 1)],
    }
    playoffs_create(season=four_weeks, user=league_admin, reason=REASON)
    four_weeks.refresh_from_db()
    assert four_weeks.playoff_seeding == ["His Heels", "Peg Out"]


def test_too_few_teams_left_is_refused_naming_who_is_short(four_weeks, league_admin):
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 4})
    four_weeks.refresh_from_db()
    with pytest.raises(ValidationFailed, match="Dan played 1 night") as refused:
        playoffs_create(season=four_weeks, user=league_admin, reason=REASON)
    assert "at least two teams" in refused.value.message
    assert not four_weeks.weeks.filter(is_playoff=True).exists()


def test_zero_nights_means_no_rule(four_weeks, league_admin):
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 0})
    four_weeks.refresh_from_db()
    assert four_weeks.playoff_min_nights is None
    assert playoff_shortfalls(four_weeks) == {}


# --- Who is not eligible, on the pages ------------------------------------------------------


def _seeds(html: str) -> list[str]:
    seeding = html.split('<ol class="seeding">', 1)[1].split("</ol>", 1)[0]
    return re.findall(r"<strong>([^<]+)</strong>", seeding)


def _ineligible(html: str) -> str:
    part = html.split('class="playoff-ineligible"', 1)[1].split("</section>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", part).split())


def test_the_seeding_page_names_who_is_not_eligible_and_why_before_the_draw(
    client, four_weeks, league_admin
):
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 3})
    html = client.get(reverse("league:seeding", args=[four_weeks.pk])).content.decode()
    said = _ineligible(html)
    assert "Each player of a team must play 3 regular-season nights" in said
    assert "So far" in said
    assert "Fifteen Two : Bob played 2 of the 3 nights required." in said
    assert "Nobs : Dan played 1 of the 3 nights required." in said
    assert "His Heels" not in said and "Peg Out" not in said
    # The seeds close up as the draw will: the two eligible teams take the two places.
    assert _seeds(html) == ["His Heels", "Peg Out"]


def test_the_seeding_page_keeps_the_draws_exclusions_once_drawn(client, four_weeks, league_admin):
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 2})
    four_weeks.refresh_from_db()
    playoffs_create(season=four_weeks, user=league_admin, reason=REASON)
    # A later change of the rule does not rewrite why the draw left Nobs out.
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 3})
    html = client.get(reverse("league:seeding", args=[four_weeks.pk])).content.decode()
    said = _ineligible(html)
    assert "As it stood when the playoffs were drawn" in said
    assert "Nobs : Dan played 1 of the 2 nights required." in said
    assert "Bob" not in said
    assert "(1) Fifteen Two" in html and "(2) His Heels" in html  # the bracket


def test_no_rule_no_list(client, four_weeks):
    html = client.get(reverse("league:seeding", args=[four_weeks.pk])).content.decode()
    assert "playoff-ineligible" not in html
    assert _seeds(html) == ["Fifteen Two", "Nobs"]


def test_the_organisers_season_page_names_who_is_not_eligible(client, four_weeks, league_admin):
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 2})
    client.force_login(league_admin)
    url = reverse("league:organise_season", args=[four_weeks.pk])
    said = _ineligible(client.get(url).content.decode())
    assert "So far" in said and "Nobs : Dan played 1 of the 2 nights required." in said
    four_weeks.refresh_from_db()
    playoffs_create(season=four_weeks, user=league_admin, reason=REASON)
    said = _ineligible(client.get(url).content.decode())
    assert "As it stood when the playoffs were drawn" in said and "Dan played 1 of the 2" in said


def test_the_french_page_says_it_in_french(client, four_weeks, league_admin):
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 2})
    client.cookies["django_language"] = "fr"
    html = client.get(reverse("league:seeding", args=[four_weeks.pk])).content.decode()
    said = _ineligible(html)
    assert "Dan a joué 1 des 2 soirées requises" in said
    assert "Non admissibles aux séries éliminatoires" in said


def test_the_api_and_the_admin_name_who_is_not_eligible(client, four_weeks, league_admin):
    season_ops_update(season=four_weeks, user=league_admin, changes={"playoff_min_nights": 2})
    client.force_login(league_admin)
    body = client.get(f"/api/seasons/{four_weeks.pk}/seeding/").json()
    assert body["min_nights"] == 2 and body["drawn"] is False
    assert body["not_eligible"] == [
        {
            "team": "Nobs",
            "players": [{"name": "Dan", "nights": 1}],
            "reasons": ["Dan played 1 of the 2 nights required"],
        }
    ]
    league_admin.is_staff = True
    league_admin.save(update_fields=["is_staff"])
    admin = client.get(f"/admin/league/season/{four_weeks.pk}/change/")
    assert admin.status_code == 200
    admin = admin.content.decode()
    assert "Nobs: Dan played 1 of the 2 nights required." in admin
