"""The team league's pages through the browser's door (the test client): the tables, a captain
naming boards and entering a leg, a disagreement shown, the organiser's close-season press, in
English and French."""

from __future__ import annotations

import pytest
from django.urls import reverse

from teamleagues.models import Leg, TeamSeason
from tests.teamleagues.conftest import small_season

pytestmark = pytest.mark.django_db


def names_form(t):
    return {"b1_1": t.players[0].pk, "b1_2": t.players[1].pk, "b2_1": t.players[2].pk}


def test_captains_name_enter_and_the_organiser_closes_the_season(client, organiser):
    s = small_season(organiser)
    url = reverse("teamleagues:fixture", args=[s.left.pk])
    u1, u2 = s.teams["U1"], s.teams["U2"]
    client.force_login(u1.captain)
    page = client.get(url).content.decode()
    assert "data-names-form" in page and "data-leg-form" not in page
    response = client.post(reverse("teamleagues:fixture_names", args=[s.left.pk]), names_form(u1))
    assert response.status_code == 302
    # The other side has not named yet: no leg form.
    assert "data-leg-form" not in client.get(url).content.decode()
    client.force_login(u2.captain)
    client.post(reverse("teamleagues:fixture_names", args=[s.left.pk]), names_form(u2))
    leg_url = reverse("teamleagues:fixture_leg", args=[s.left.pk])
    for board in (1, 2):
        for leg in (1, 2):
            for captain, score in (
                (u1.captain, 90),
                (u2.captain, 90 if board == 2 or leg == 2 else 91),
            ):
                client.force_login(captain)
                client.post(
                    leg_url, {"board": board, "leg": leg, "winner": "home", "loser_score": score}
                )
            if (board, leg) == (1, 1):
                page = client.get(url).content.decode()
                assert 'data-state="disagree"' in page and "The captains disagree" in page
                client.post(leg_url, {"board": 1, "leg": 1, "winner": "home", "loser_score": 90})
    assert Leg.objects.filter(board__fixture=s.left, state="agreed").count() == 4
    page = client.get(url).content.decode()
    assert 'data-result="home"' in page and "U1 won" in page
    # A refusal is said in plain words and changes nothing.
    response = client.post(
        leg_url, {"board": 1, "leg": 3, "winner": "away", "loser_score": 5}, follow=True
    )
    assert "already decided" in response.content.decode()

    season_url = reverse("teamleagues:season", args=[s.season.pk])
    client.force_login(organiser)
    page = client.get(season_url).content.decode()
    assert "data-close-season" in page
    response = client.post(
        reverse("teamleagues:season_close", args=[s.season.pk]), {"next_name": "2027"}, follow=True
    )
    nxt = TeamSeason.objects.get(name="2027")
    assert response.redirect_chain[-1][0] == reverse("teamleagues:season", args=[nxt.pk])
    page = response.content.decode()
    # T3 down, U1 up: next season's tables list them where they now play.
    top = page.split('data-division="Top"')[1].split("</section>")[0]
    bottom = page.split('data-division="Bottom"')[1].split("</section>")[0]
    assert all(f'data-team="{n}"' in top for n in ("T1", "T2", "U1"))
    assert all(f'data-team="{n}"' in bottom for n in ("T3", "U2", "U3"))

    client.cookies["django_language"] = "fr"
    page = client.get(reverse("teamleagues:season", args=[s.season.pk])).content.decode()
    assert "Cette saison est close." in page and "Saison 2026" in page
    page = client.get(url).content.decode()
    assert "Table 1 : Paires" in page and "Nommez vos tables" not in page


def test_a_stranger_names_nothing(client, organiser, django_user_model):
    s = small_season(organiser)
    client.force_login(
        django_user_model.objects.create_user(username="nosy", password="x-y-z-123456")
    )
    response = client.post(
        reverse("teamleagues:fixture_names", args=[s.left.pk]),
        names_form(s.teams["U1"]),
        follow=True,
    )
    assert "Only the two captains and the organisers" in response.content.decode()
    assert "data-names-form" not in response.content.decode()


def test_a_players_calendar_has_their_teams_dated_fixtures(organiser):
    from league.kernel.notify import CALENDAR_SOURCES

    s = small_season(organiser)
    player = s.teams["U1"].players[4]
    items = CALENDAR_SOURCES["team_league_fixtures"]({player.pk})
    # U1 plays U2 and U3 at home and away: four dated fixtures, at the home team's pub.
    assert len(items) == 4
    assert {i["data"]["summary"] for i in items} == {"U1 v U2", "U2 v U1", "U1 v U3", "U3 v U1"}
    home = next(i for i in items if i["data"]["summary"] == "U1 v U2")
    assert home["data"]["venue"] == "The U1 Arms" and home["data"]["path"].endswith(
        f"/{s.left.pk}/"
    )


def test_a_captain_forfeits_a_board_from_the_match_page(client, organiser):
    s = small_season(organiser)
    u2 = s.teams["U2"]
    client.force_login(u2.captain)
    url = reverse("teamleagues:fixture", args=[s.left.pk])
    assert "data-forfeit-form" in client.get(url).content.decode()
    response = client.post(
        reverse("teamleagues:fixture_forfeit", args=[s.left.pk]), {"board": 2}, follow=True
    )
    html = response.content.decode()
    assert "Board 2 is forfeited." in html and "Forfeited by U2" in html
    response = client.post(
        reverse("teamleagues:fixture_forfeit", args=[s.left.pk]), {"board": 2}, follow=True
    )
    assert "Board 2 is already forfeited." in response.content.decode()


def test_every_team_league_page_reads_in_french(client, organiser):
    from teamleagues import cups

    s = small_season(organiser)
    cup = cups.cup_create(
        user=organiser, season=s.season, name="Coupe", teams=[t.team for t in s.teams.values()]
    )
    client.force_login(s.teams["U1"].captain)
    client.cookies["django_language"] = "fr"
    pages = {
        reverse("teamleagues:leagues"): "Ligues par équipes",
        reverse("teamleagues:league", args=[s.league.pk]): "La rencontre",
        reverse("teamleagues:season", args=[s.season.pk]): "Moyennes",
        reverse("teamleagues:fixture", args=[s.left.pk]): "Nommez vos tables",
        reverse("teamleagues:team", args=[s.teams["U1"].team.pk]): "Capitaine",
        reverse("teamleagues:cup", args=[cup.pk]): "Tour 1",
    }
    for url, french in pages.items():
        html = client.get(url).content.decode()
        assert french in html, url
    league_page = client.get(reverse("teamleagues:league", args=[s.league.pk])).content.decode()
    assert "chacune au meilleur de 3 manches en 121" in league_page
