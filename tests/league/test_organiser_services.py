"""The set-up services an organiser uses: players with logins and invitations, teams from a
pasted list, a schedule with dates, skips, a venue and tables, regenerated or cleared while
nothing is played, a match moved afterwards; every refusal names the problem and changes
nothing. And a season's rules are its own: the league's defaults changing later re-scores none
of it."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from league.kernel.errors import NotAllowed, ValidationFailed
from league.models import AuditEntry, Match, Player, Season, Team, Venue, Week
from league.selectors.standings import standings_for_season
from league.services.people import (
    PlayerLine,
    invitation_tokens,
    invitations_send,
    players_add,
)
from league.services.rules import season_create
from league.services.seasons import (
    league_nights,
    match_move,
    schedule_clear,
    schedule_create,
    team_create,
    teams_add,
)
from tests import factories

pytestmark = pytest.mark.django_db

THURSDAY = 3


def lines(*rows: tuple[str, str]) -> list[PlayerLine]:
    return [PlayerLine(name=n, email=e, line=i) for i, (n, e) in enumerate(rows, start=1)]


def eight_teams(season: Season, user) -> list[Team]:
    players = [factories.PlayerFactory(name=f"Player {i:02}") for i in range(16)]
    return [
        team_create(
            season=season, user=user, name=f"Team {i + 1}", players=players[2 * i : 2 * i + 2]
        )
        for i in range(8)
    ]


# --- Players and logins ---------------------------------------------------------------------


def test_a_league_admin_adds_players_with_logins_and_no_superuser(league_admin):
    added = players_add(
        user=league_admin,
        lines=lines(("Ann Smith", "ann@example.org"), ("Bob Jones", ""), ("Ann Lee", "al@x.org")),
    )
    assert [p.name for p in added.created] == ["Ann Smith", "Bob Jones", "Ann Lee"]
    ann, bob, lee = added.created
    assert ann.user.username == "ann" and ann.user.email == "ann@example.org"
    assert lee.user.username == "ann.lee"  # "ann" was taken a line earlier
    assert not ann.user.has_usable_password()  # they choose it from the invitation
    assert bob.user is None  # no email, no login
    assert ann.user.groups.filter(name="Players").exists()
    assert not league_admin.is_superuser


def test_a_player_cannot_add_players(ann):
    with pytest.raises(NotAllowed):
        players_add(user=ann, lines=lines(("Zed", "zed@example.org")))
    assert not Player.objects.filter(name="Zed").exists()


def test_every_problem_of_a_pasted_list_is_named_with_its_line_and_nothing_is_added(league_admin):
    factories.PlayerFactory(
        name="Cat", user=factories.UserFactory(username="cat", email="cat@x.org")
    )
    before = Player.objects.count()
    with pytest.raises(ValidationFailed) as refused:
        players_add(
            user=league_admin,
            lines=lines(
                ("Ann Smith", "ann@example.org"),
                ("", "nobody@example.org"),
                ("Bob", "bob@"),
                ("ann smith", "other@example.org"),
                ("Dan", "cat@x.org"),
            ),
        )
    problems = refused.value.extra["problems"]
    assert problems == [
        "Line 2 has no name.",
        "Line 3: “bob@” is not an email address.",
        "Line 4: ann smith is listed twice (line 1 too).",
        "Line 5: cat@x.org is already the email of Cat's login.",
    ]
    assert refused.value.message.startswith("Nothing was added: 4 problems to fix first.")
    assert Player.objects.count() == before
    assert not get_user_model().objects.filter(email="ann@example.org").exists()


def test_pasting_last_seasons_roster_again_keeps_the_players_and_gives_logins(league_admin):
    old = Player.objects.create(name="Eve")
    added = players_add(user=league_admin, lines=lines(("eve", "eve@example.org"), ("Fay", "")))
    assert added.logins == [old] and [p.name for p in added.created] == ["Fay"]
    old.refresh_from_db()
    assert old.user.email == "eve@example.org"
    again = players_add(user=league_admin, lines=lines(("Eve", "eve@example.org")))
    assert again.known == [old] and not again.created and not again.logins


def test_an_invitation_carries_a_link_that_sets_the_password_once(league_admin, client):
    added = players_add(user=league_admin, lines=lines(("Gus Grey", "gus@example.org")))
    sent = invitations_send(
        user=league_admin, players=added.to_invite, base_url="http://testserver/"
    )
    assert sent == 1 and len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["gus@example.org"]
    assert "Your user name: gus" in message.body
    link = re.search(r"http://testserver(/welcome/\S+)", message.body).group(1)
    page = client.get(link, follow=True)
    assert "Choose a password" in page.content.decode()
    done = client.post(
        page.redirect_chain[-1][0],
        {"new_password1": "peg-out-121", "new_password2": "peg-out-121"},
        follow=True,
    )
    # Signed in, on the home page: not sent to an empty log-in form.
    assert done.redirect_chain[-1][0] == "/"
    assert done.context["user"].get_username() == "gus"
    body = done.content.decode()
    assert "Your password is saved and you are signed in. Next time, your user name is gus." in body
    assert "Log out (gus)" in body
    client.logout()
    logged_in = client.post("/accounts/login/", {"username": "gus", "password": "peg-out-121"})
    assert logged_in.status_code == 302 and logged_in.url == "/"
    client.logout()
    again = client.get(link, follow=True)
    assert "This link no longer works" in again.content.decode()
    assert AuditEntry.objects.filter(action="invitation_send", object_id=str(added.created[0].pk))
    # Once the password is chosen there is nothing to invite to.
    assert invitations_send(user=league_admin, players=added.created, base_url="http://t/") == 0


def test_an_invitation_link_expires_after_two_weeks(league_admin, monkeypatch):
    player = players_add(user=league_admin, lines=lines(("Hal", "hal@example.org"))).created[0]
    token = invitation_tokens.make_token(player.user)
    assert invitation_tokens.check_token(player.user, token)
    later = invitation_tokens._now() + dt.timedelta(days=15)
    monkeypatch.setattr(invitation_tokens, "_now", lambda: later)
    assert not invitation_tokens.check_token(player.user, token)


def test_a_mail_server_that_is_down_is_said_in_words_and_the_players_stay(league_admin, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 1
    added = players_add(user=league_admin, lines=lines(("Ivy", "ivy@example.org")))
    with pytest.raises(ValidationFailed, match="The invitations could not be sent"):
        invitations_send(user=league_admin, players=added.to_invite, base_url="http://t/")
    assert Player.objects.filter(name="Ivy").exists()
    assert not AuditEntry.objects.filter(action="invitation_send").exists()


# --- Teams ----------------------------------------------------------------------------------


def test_teams_pasted_by_name_captain_first(season, league_admin):
    for name in ("Ann Smith", "Bob Jones", "Cat Wu", "Dan Poe"):
        Player.objects.create(name=name)
    made = teams_add(
        season=season,
        user=league_admin,
        rows=[(1, "Fifteen Two", ["ann smith", "Bob Jones"]), (2, "Nobs", ["Cat Wu", "Dan Poe"])],
    )
    assert [(t.name, t.captain.name) for t in made] == [
        ("Fifteen Two", "Ann Smith"),
        ("Nobs", "Cat Wu"),
    ]


def test_every_problem_of_a_pasted_team_list_is_named_and_no_team_is_added(
    season, league_admin, home_team
):
    for name in ("Cat Wu", "Dan Poe", "Eve Ash"):
        Player.objects.create(name=name)
    with pytest.raises(ValidationFailed) as refused:
        teams_add(
            season=season,
            user=league_admin,
            rows=[
                (1, "Nobs", ["Cat Wu", "Dan Poe"]),
                (2, "Heels", ["Eve Ash", "Cat Wu"]),
                (3, "Muggins", ["Ann", "Zed Zee"]),
                (4, "Fifteen Two", ["Eve Ash", "Dan Poe"]),
                (5, "Solo", ["Eve Ash"]),
            ],
        )
    assert refused.value.extra["problems"] == [
        "Line 2: Cat Wu already plays for Nobs this season: a player is on one team.",
        "Line 3: there is no player called “Zed Zee”. Add them on the players page first, "
        "or check the spelling.",
        "Line 4: There is already a team called Fifteen Two this season.",
        "Line 5: A team in this league has 2 different players.",
    ]
    assert list(season.teams.values_list("name", flat=True)) == ["Fifteen Two"]


def test_a_captain_must_play_for_the_team(season, league_admin, home_team):
    cat, dan = Player.objects.create(name="Cat"), Player.objects.create(name="Dan")
    with pytest.raises(ValidationFailed, match="The captain must play for the team"):
        team_create(
            season=season,
            user=league_admin,
            name="Nobs",
            players=[cat, dan],
            captain=home_team.captain,
        )


def test_a_player_on_a_team_is_refused_naming_the_team(season, league_admin, home_team):
    cat = Player.objects.create(name="Cat")
    with pytest.raises(ValidationFailed) as refused:
        team_create(season=season, user=league_admin, name="Nobs", players=[cat, home_team.captain])
    assert refused.value.message == (
        "Ann already plays for Fifteen Two this season: a player is on one team."
    )


# --- The schedule ---------------------------------------------------------------------------


def test_league_nights_fall_on_the_weekday_and_pass_over_a_holiday():
    nights = league_nights(
        first=dt.date(2026, 9, 1), count=7, weekday=THURSDAY, skip=[dt.date(2026, 10, 1)]
    )
    assert nights[0] == dt.date(2026, 9, 3) and all(d.weekday() == THURSDAY for d in nights)
    assert dt.date(2026, 10, 1) not in nights
    assert nights[-1] == dt.date(2026, 10, 22)  # seven nights over eight Thursdays


def test_a_night_to_skip_that_is_no_league_night_is_refused_as_a_likely_typo():
    with pytest.raises(ValidationFailed) as refused:
        league_nights(
            first=dt.date(2026, 9, 3), count=7, weekday=THURSDAY, skip=[dt.date(2026, 9, 25)]
        )
    assert "is not a league night of this schedule" in refused.value.message
    assert refused.value.field == "skip"


def test_a_schedule_of_eight_teams_with_dates_venue_tables_and_a_holiday(season, league_admin):
    eight_teams(season, league_admin)
    venue = Venue.objects.create(name="The Crooked Peg")
    weeks = schedule_create(
        season=season,
        user=league_admin,
        start_date=dt.date(2026, 9, 1),
        weekday=THURSDAY,
        skip=[dt.date(2026, 10, 1)],
        venue=venue,
        tables=4,
    )
    assert len(weeks) == 7
    assert [w.date for w in weeks][:5] == [
        dt.date(2026, 9, 3),
        dt.date(2026, 9, 10),
        dt.date(2026, 9, 17),
        dt.date(2026, 9, 24),
        dt.date(2026, 10, 8),
    ]
    assert {w.venue for w in weeks} == {venue}
    for week in weeks:
        matches = list(week.matches.all())
        assert sorted(m.table for m in matches) == [1, 2, 3, 4]
        playing = [t for m in matches for t in (m.home_id, m.away_id)]
        assert len(set(playing)) == 8


def test_too_few_tables_is_refused_with_the_numbers(season, league_admin):
    eight_teams(season, league_admin)
    with pytest.raises(ValidationFailed) as refused:
        schedule_create(season=season, user=league_admin, start_date=dt.date(2026, 9, 3), tables=3)
    assert refused.value.message == (
        "8 teams play 4 matches a night, but the venue has only 3 tables. Add tables or play "
        "at two venues."
    )
    assert not season.weeks.exists()


def test_a_new_venue_by_name_is_not_kept_when_the_schedule_is_refused(season, league_admin):
    eight_teams(season, league_admin)
    with pytest.raises(ValidationFailed):
        schedule_create(
            season=season,
            user=league_admin,
            start_date=dt.date(2026, 9, 3),
            venue="Nobs Inn",
            tables=2,
        )
    assert not Venue.objects.filter(name="Nobs Inn").exists()


def test_a_schedule_is_made_again_freely_until_the_first_game(season, league_admin):
    eight_teams(season, league_admin)
    schedule_create(season=season, user=league_admin, start_date=dt.date(2026, 9, 3))
    with pytest.raises(ValidationFailed, match="already has a schedule"):
        schedule_create(season=season, user=league_admin, start_date=dt.date(2026, 9, 10))
    weeks = schedule_create(
        season=season, user=league_admin, start_date=dt.date(2026, 9, 10), regenerate=True
    )
    assert season.weeks.count() == 7 and weeks[0].date == dt.date(2026, 9, 10)
    assert Match.objects.filter(week__season=season).count() == 28


def test_an_odd_number_of_teams_gives_one_bye_a_week(season, league_admin):
    players = [factories.PlayerFactory(name=f"P{i}") for i in range(10)]
    for i in range(5):
        team_create(
            season=season, user=league_admin, name=f"T{i}", players=players[2 * i : 2 * i + 2]
        )
    weeks = schedule_create(season=season, user=league_admin, start_date=dt.date(2026, 9, 3))
    assert len(weeks) == 5
    assert all(w.matches.count() == 2 for w in weeks)


def test_a_played_schedule_stands_and_cannot_be_cleared(season, league_admin, game):
    with pytest.raises(ValidationFailed) as refused:
        schedule_create(season=season, user=league_admin, regenerate=True)
    assert refused.value.message.startswith("Week 1 has been played, so the schedule stands")
    with pytest.raises(ValidationFailed, match="Week 1 has been played"):
        schedule_clear(season=season, user=league_admin)
    assert season.weeks.count() == 1


def test_an_unplayed_schedule_is_cleared_on_record(season, league_admin):
    eight_teams(season, league_admin)
    schedule_create(season=season, user=league_admin, start_date=dt.date(2026, 9, 3))
    assert schedule_clear(season=season, user=league_admin) == 7
    assert not season.weeks.exists() and season.teams.count() == 8
    assert AuditEntry.objects.filter(action="schedule_clear", season=season).exists()


def test_a_played_match_moves_to_a_new_night_only_with_a_reason(league_admin, match, game):
    with pytest.raises(ValidationFailed, match="Say why a match with games moves"):
        match_move(match=match, user=league_admin, date=dt.date(2026, 12, 3))
    assert not Week.objects.filter(date=dt.date(2026, 12, 3)).exists()  # nothing kept
    moved = match_move(
        match=match, user=league_admin, date=dt.date(2026, 12, 3), reason="Snowed in"
    )
    assert moved.week.date == dt.date(2026, 12, 3) and moved.week.number == 2
    entry = AuditEntry.objects.get(action="match_update")
    assert entry.reason == "Snowed in"


# --- Rules belong to the season -----------------------------------------------------------------


def test_changing_the_leagues_defaults_after_a_season_is_played_changes_none_of_its_standings(
    played_season,
):
    league = played_season.league
    before = standings_for_season(played_season)
    league.skunk_margin, league.skunk_bonus, league.points_per_win = 10, 5, 3
    league.tiebreaks = ["spread", "draw"]
    league.double_skunk_bonus = 4
    league.save()
    played_season.refresh_from_db()
    played_season.results_version += 1  # read past any cache: computed again from the games
    after = standings_for_season(played_season)
    assert [r | {"decided_by": None} for r in after["standings"]] == [
        r | {"decided_by": None} for r in before["standings"]
    ]
    assert after["seeding"] == before["seeding"] and after["tiebreaks"] == before["tiebreaks"]
    # A season made now starts from the new defaults; the played one kept its own.
    new = season_create(league=league, user=factories.UserFactory(is_superuser=True), name="Next")
    assert (new.skunk_margin, played_season.skunk_margin) == (10, 30)
