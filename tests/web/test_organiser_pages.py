"""The organiser's workspace over HTTP: only league admins get in; each set-up step works from
the page; each refusal shows the service's sentence on the page and changes nothing. The score
sheets of a night, the league's page and a player's page across seasons."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core import mail

from league.models import Match, Player, Season, Team, Week
from league.services.playoffs import playoffs_create
from league.services.seasons import schedule_create, team_create
from league.views.sheets import qr_svg
from tests import factories

pytestmark = pytest.mark.django_db

ROSTER = "\n".join(
    f"{first} {last}, {first.lower()}@example.org"
    for first, last in [
        ("Ann", "Smith"),
        ("Bob", "Jones"),
        ("Cat", "Wu"),
        ("Dan", "Poe"),
    ]
)


@pytest.fixture
def lena(client, league_admin):
    client.force_login(league_admin)
    return client


@pytest.fixture
def new_season(league, league_admin):
    from league.services.rules import season_create

    return season_create(league=league, user=league_admin, name="Spring 2027")


def page_text(response) -> str:
    return response.content.decode()


def test_a_visitor_is_sent_to_log_in_and_a_player_is_told_who_organises(client, ann):
    response = client.get("/organise/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    client.force_login(ann)
    response = client.get("/organise/")
    assert response.status_code == 403
    assert "Only a league admin can organise the league." in page_text(response)


def test_the_home_page_offers_the_workspace_to_league_admins_only(client, ann, league_admin):
    client.force_login(ann)
    assert "/organise/" not in page_text(client.get("/"))
    client.force_login(league_admin)
    assert 'href="/organise/"' in page_text(client.get("/"))


def test_a_season_is_made_from_the_leagues_rules_shown_as_sentences(lena, league):
    response = lena.post("/organise/", {"league": league.pk, "name": "Spring 2027"}, follow=True)
    season = Season.objects.get(name="Spring 2027")
    assert season.skunk_margin == league.skunk_margin
    text = page_text(response)
    assert "A win by 30 or more is a skunk, worth 1 more point." in text
    assert "Teams level on league points are placed by weeks won, then head-to-head" in text


def test_a_season_name_taken_is_refused_on_the_page(lena, league, season):
    response = lena.post("/organise/", {"league": league.pk, "name": season.name})
    assert response.status_code == 400
    assert "Thursday Doubles already has a season called Fall 2026." in page_text(response)


def test_the_rules_change_until_the_first_game_then_need_a_reason(lena, season, game):
    url = f"/organise/seasons/{season.pk}/"
    form = {
        "variant": "partnership-121",
        "target": 121,
        "games_per_match": 3,
        "playoff_games_per_match": 3,
        "points_per_win": 1,
        "skunk_margin": 31,
        "skunk_bonus": 1,
        "double_skunk_margin": 61,
        "double_skunk_bonus": 0,
        "tiebreak_0": "weeks_won",
        "requires_confirmation": "on",
    }
    response = lena.post(url, form)
    assert response.status_code == 400
    season.refresh_from_db()
    assert season.skunk_margin == 30
    response = lena.post(url, {**form, "reason": "The league voted for the ACC's 31."})
    season.refresh_from_db()
    assert response.status_code == 302 and season.skunk_margin == 31


def test_target_and_game_are_checked_together_on_the_page(lena, new_season):
    response = lena.post(
        f"/organise/seasons/{new_season.pk}/",
        {
            "variant": "five-card-61",
            "target": 121,
            "games_per_match": 3,
            "playoff_games_per_match": 3,
            "points_per_win": 1,
            "skunk_margin": 30,
            "skunk_bonus": 1,
            "double_skunk_margin": 61,
            "double_skunk_bonus": 0,
            "tiebreak_0": "weeks_won",
        },
    )
    assert response.status_code == 400
    assert "Five-card cribbage to 61 is played to 61, not 121." in page_text(response)


def test_players_pasted_get_logins_and_invitations(lena, season):
    url = f"/organise/seasons/{season.pk}/players/"
    response = lena.post(
        url, {"action": "paste", "paste-names": "Name, Email\n" + ROSTER, "paste-invite": "on"}
    )
    assert response.status_code == 302
    assert Player.objects.filter(user__email__endswith="@example.org").count() == 4
    assert sorted(m.to[0] for m in mail.outbox) == [
        "ann@example.org",
        "bob@example.org",
        "cat@example.org",
        "dan@example.org",
    ]
    text = page_text(lena.get(url))
    assert "4 players added." in text and "4 invitations sent." in text
    assert text.count("invited ") == 4


def test_a_spreadsheet_of_players_is_read_csv_and_xlsx(lena, new_season):
    import tablib

    url = f"/organise/seasons/{new_season.pk}/players/"
    csv = io.BytesIO(b"email,name\nada@example.org,Ada Byron\n")
    csv.name = "roster.csv"
    lena.post(url, {"action": "upload", "upload-sheet": csv})
    book = tablib.Dataset(headers=["Name", "Email"])
    book.append(["Bea Arthur", "bea@example.org"])
    xlsx = io.BytesIO(book.export("xlsx"))
    xlsx.name = "roster.xlsx"
    lena.post(url, {"action": "upload", "upload-sheet": xlsx})
    assert set(Player.objects.values_list("name", "user__email")) >= {
        ("Ada Byron", "ada@example.org"),
        ("Bea Arthur", "bea@example.org"),
    }
    assert not mail.outbox  # invitations only when asked


def test_a_file_that_is_no_spreadsheet_is_refused_in_words(lena, new_season):
    upload = io.BytesIO(b"%PDF-1.4")
    upload.name = "roster.pdf"
    response = lena.post(
        f"/organise/seasons/{new_season.pk}/players/", {"action": "upload", "upload-sheet": upload}
    )
    assert response.status_code == 400
    assert "Upload a spreadsheet saved as CSV or Excel (.xlsx): “roster.pdf” is neither." in (
        page_text(response)
    )


def test_a_pasted_list_with_problems_names_each_line_and_adds_nobody(lena, new_season):
    response = lena.post(
        f"/organise/seasons/{new_season.pk}/players/",
        {"action": "paste", "paste-names": "Ann Smith, ann@\nAnn Smith, a2@example.org"},
    )
    text = page_text(response)
    assert response.status_code == 400
    assert "Nothing was added: 2 problems to fix first." in text
    assert "Line 1: “ann@” is not an email address." in text
    assert "Line 2: Ann Smith is listed twice (line 1 too)." in text
    assert "Ann Smith, ann@" in text  # what was pasted stays on the form
    assert not Player.objects.filter(name="Ann Smith").exists()


def test_teams_are_pasted_and_a_player_on_another_team_is_refused_on_the_page(lena, new_season):
    for name in ("Ann Smith", "Bob Jones", "Cat Wu", "Dan Poe"):
        Player.objects.create(name=name)
    url = f"/organise/seasons/{new_season.pk}/teams/"
    lena.post(url, {"action": "paste", "paste-teams": "Fifteen Two, Ann Smith, Bob Jones"})
    assert new_season.teams.get().captain.name == "Ann Smith"
    cat = Player.objects.get(name="Cat Wu")
    ann = Player.objects.get(name="Ann Smith")
    response = lena.post(
        url,
        {"action": "add", "team-name": "Nobs", "team-player_0": cat.pk, "team-player_1": ann.pk},
    )
    assert response.status_code == 400
    assert "Ann Smith already plays for Fifteen Two this season: a player is on one team." in (
        page_text(response)
    )
    assert new_season.teams.count() == 1


def test_the_schedule_is_made_with_dates_and_made_again_and_shows_byes(
    lena, new_season, league_admin
):
    players = [factories.PlayerFactory(name=f"P{i}") for i in range(6)]
    for i in range(3):
        team_create(
            season=new_season, user=league_admin, name=f"T{i}", players=players[2 * i : 2 * i + 2]
        )
    url = f"/organise/seasons/{new_season.pk}/schedule/"
    form = {
        "s-start": "2026-09-01",
        "s-weekday": "3",
        "s-skip": "2026-09-10",
        "s-new_venue": "The Peg",
    }
    response = lena.post(url, form)
    assert response.status_code == 302
    dates = list(new_season.weeks.order_by("number").values_list("date", flat=True))
    assert dates == [dt.date(2026, 9, 3), dt.date(2026, 9, 17), dt.date(2026, 9, 24)]
    text = page_text(lena.get(url))
    assert text.count("Bye: T") == 3 and "The Peg" in text
    lena.post(url, {**form, "s-skip": "", "s-weeks": "6"})
    assert new_season.weeks.count() == 6


def test_a_night_to_skip_on_the_wrong_day_is_refused_on_the_page(
    lena, season, home_team, away_team
):
    response = lena.post(
        f"/organise/seasons/{season.pk}/schedule/",
        {"s-start": "2026-09-03", "s-skip": "2026-09-04"},
    )
    assert response.status_code == 400
    assert "is not a league night of this schedule" in page_text(response)
    assert not season.weeks.exists()


def test_a_played_match_moves_to_a_new_night_with_a_reason(lena, match, game):
    url = f"/organise/matches/{match.pk}/move/"
    refused = lena.post(url, {f"m{match.pk}-date": "2026-12-03"}, follow=True)
    assert "Say why a match with games moves to another night." in page_text(refused)
    lena.post(url, {f"m{match.pk}-date": "2026-12-03", f"m{match.pk}-reason": "Snow"})
    match.refresh_from_db()
    assert match.week.date == dt.date(2026, 12, 3)


def test_undo_deletes_an_unplayed_season_but_never_a_played_one(lena, new_season, season, game):
    page = lena.get(f"/organise/seasons/{season.pk}/delete/")
    assert "stay on record" in page_text(page)
    refused = lena.post(f"/organise/seasons/{season.pk}/delete/", follow=True)
    assert "has games, so it stays on record" in page_text(refused)
    assert Season.objects.filter(pk=season.pk).exists()
    lena.post(f"/organise/seasons/{new_season.pk}/delete/")
    assert not Season.objects.filter(pk=new_season.pk).exists()


def test_a_team_that_has_played_is_not_deleted(lena, home_team, game):
    refused = lena.post(f"/organise/teams/{home_team.pk}/delete/", follow=True)
    assert "Fifteen Two has games, so it stays on record" in page_text(refused)
    assert Team.objects.filter(pk=home_team.pk).exists()


def test_the_schedule_page_costs_the_same_queries_for_a_long_season(
    lena, new_season, league_admin, django_assert_max_num_queries
):
    players = [factories.PlayerFactory(name=f"P{i:02}") for i in range(16)]
    for i in range(8):
        team_create(
            season=new_season, user=league_admin, name=f"T{i}", players=players[2 * i : 2 * i + 2]
        )
    schedule_create(season=new_season, user=league_admin, start_date=dt.date(2026, 9, 3))
    with django_assert_max_num_queries(20):
        assert lena.get(f"/organise/seasons/{new_season.pk}/schedule/").status_code == 200


# --- Paper ----------------------------------------------------------------------------------


def test_a_nights_sheets_have_a_page_per_table_and_game_with_seats_grid_and_qr(
    client, match, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        response = client.get(f"/weeks/{match.week_id}/sheets/")
    text = page_text(response)
    assert text.count('class="sheet"') == 3  # one table, three games
    assert "Table 1 · game 2 of 3" in text
    url = f"http://testserver/matches/{match.pk}/"
    assert text.count(qr_svg(url)) == 3  # the code of the match's page, on each sheet
    assert url in text
    for seat, name in ((1, "Ann"), (2, "Cat"), (3, "Bob"), (4, "Dan")):
        assert f'seat-{seat}"><span class="seat-no">Seat {seat}</span>' in text
        assert name in text
    for heading in ("1 · dealer&#x27;s left", "4 · dealer", "Crib", "Total after the deal"):
        assert heading in text


def test_a_sheet_in_french_says_capot_and_spaces_its_colons(client, match):
    text = page_text(client.get(f"/weeks/{match.week_id}/sheets/", HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Gagnant : ____" in text and "Score final : ______ – ______" in text
    assert "Capot ?" in text and "ou plus est un capot." in text
    assert "skunk" not in text.lower()


# --- History --------------------------------------------------------------------------------


def test_the_league_page_names_each_seasons_champion(client, played_season, league_admin):
    league = played_season.league
    response = client.get(f"/leagues/{league.pk}/")
    text = page_text(response)
    # Fifteen Two: 4 league points (a skunk among them), His Heels 2, Nobs 1.
    assert "Fall 2026" in text and ">Fifteen Two</a>" in text
    assert "first place so far" in text and "His Heels" not in text


def test_a_playoff_champion_is_the_seasons_champion(client, played_season, league_admin):
    played_season.playoff_teams = 2
    played_season.save()
    matches = playoffs_create(season=played_season, user=league_admin, reason="test")
    final = matches[0]
    winner = final.away
    for number in (1, 2):
        factories.confirmed_game(final, number, winner, 5)
    text = page_text(client.get(f"/leagues/{played_season.league_id}/"))
    assert f">{winner.name}</a>" in text and "won the playoffs" in text


def test_a_players_page_has_each_season_and_the_lifetime_record(
    client, played_season, league, league_admin
):
    ann = Player.objects.get(name="Ann")
    response = client.get(f"/players/{ann.pk}/")
    text = page_text(response)
    assert "Season by season" in text and "Fifteen Two" in text
    assert "Thursday Doubles" in text
    assert "1 season" in text


def test_league_admins_see_only_what_they_may_and_weeks_are_cleared_in_one_go(
    lena, new_season, league_admin
):
    players = [factories.PlayerFactory(name=f"P{i}") for i in range(4)]
    for i in range(2):
        team_create(
            season=new_season, user=league_admin, name=f"T{i}", players=players[2 * i : 2 * i + 2]
        )
    schedule_create(season=new_season, user=league_admin, start_date=dt.date(2026, 9, 3))
    lena.post(f"/organise/seasons/{new_season.pk}/schedule/delete/")
    assert not Week.objects.filter(season=new_season).exists()
    assert not Match.objects.filter(week__season=new_season).exists()


def test_a_current_season_under_way_says_each_once_in_french(lena, season, game):
    """'under way' (it has games) and 'running' are two facts; in French both were 'en cours'."""
    assert season.is_current_on(dt.date.today())
    text = page_text(lena.get("/organise/", HTTP_ACCEPT_LANGUAGE="fr"))
    assert "commencée" in text
    assert "en cours · en cours" not in text
