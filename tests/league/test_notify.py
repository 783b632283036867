"""Players hear about their nights: each event reaches exactly its audience, once, in each
player's language, as each chose; a retried send sends nothing twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.kernel.errors import NotAllowed
from league.kernel.notify import unsubscribe_token
from league.models import (
    AuditEntry,
    Category,
    Channel,
    Delivery,
    DeliveryStatus,
    GameStatus,
    NotifyChoice,
    NotifyProfile,
    Player,
)
from league.services.disputes import dispute_raise
from league.services.notify import (
    announcement_post,
    notify_choices_set,
    notify_match_moved,
    notify_match_postponed,
    notify_night_cancelled,
    notify_scheduled,
    notify_sub_asked,
)
from league.services.playoffs import playoffs_create
from league.tasks import notify_retry_failed, notify_send
from tests import factories
from tests.factories import play_until_over


def _with_emails(*teams):
    for team in teams:
        for player in team.players.all():
            player.user.email = f"{player.user.username}@example.com"
            player.user.save()


def _french(player_name: str) -> None:
    NotifyProfile.objects.create(player=Player.objects.get(name=player_name), language="fr")


def _to(messages) -> list[str]:
    return sorted(m.to[0] for m in messages)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a call as beat would, outside any transaction: what it sends after commit goes."""

    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


@pytest.fixture
def everyone(home_team, away_team, other_team):
    _with_emails(home_team, away_team, other_team)


@pytest.fixture
def finished_game(game, ann, everyone, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play_until_over(game, ann)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


# --- Results to confirm -------------------------------------------------------------------------


def test_a_finished_game_asks_only_the_other_team_to_confirm_it(finished_game):
    confirm = [m for m in mail.outbox if "waits for your confirmation" in m.subject]
    assert _to(confirm) == ["cat@example.com", "dan@example.com"]
    message = confirm[0]
    assert message.subject.startswith("[Thursday Doubles] ")
    assert f"/games/{finished_game.pk}/" in message.body
    html = message.alternatives[0]
    assert html[1] == "text/html" and f"/games/{finished_game.pk}/" in html[0]


def test_a_game_confirmed_before_its_mail_went_needs_no_mail(
    game, ann, cat, everyone, django_capture_on_commit_callbacks
):
    from django.db import transaction

    from league.services.games import game_confirm

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        play_until_over(game, ann)
        game.refresh_from_db()
        game_confirm(game=game, user=cat)  # in the same transaction: confirmed at commit
    assert not [m for m in mail.outbox if "waits for your confirmation" in m.subject]
    skipped = Delivery.objects.filter(event="result_to_confirm")
    assert {d.reason for d in skipped} == {"no longer needed"}


def test_the_last_reminder_goes_once_to_the_team_that_still_has_not_confirmed(
    finished_game, committed
):
    season = finished_game.match.week.season
    season.close_after_hours = None  # a season that never closes results (see test_closing)
    season.save()
    mail.outbox.clear()
    later = timezone.now() + timedelta(hours=25)
    assert committed(notify_scheduled, now=timezone.now())["confirm_reminders"] == 0
    assert committed(notify_scheduled, now=later)["confirm_reminders"] == 1
    committed(notify_scheduled, now=later + timedelta(hours=1))
    assert _to(mail.outbox) == ["cat@example.com", "dan@example.com"]
    assert all(m.subject.startswith("[Thursday Doubles] Last reminder") for m in mail.outbox)


# --- Disputes -----------------------------------------------------------------------------------


def test_a_dispute_reaches_both_teams_once_each_in_their_own_language(
    finished_game, cat, django_capture_on_commit_callbacks
):
    _french("Bob")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        dispute = dispute_raise(game=finished_game, user=cat, claim="Deal 1 crib was 2")
    assert _to(mail.outbox) == [
        "ann@example.com",
        "bob@example.com",
        "cat@example.com",
        "dan@example.com",
    ]
    by_address = {m.to[0]: m for m in mail.outbox}
    assert by_address["bob@example.com"].subject.startswith("[Thursday Doubles] Contestation")
    assert "Contestation" not in by_address["ann@example.com"].subject
    assert "Deal 1 crib was 2" in by_address["bob@example.com"].body
    assert '<html lang="fr">' in by_address["bob@example.com"].alternatives[0][0]
    # The same event sent again (a retried task) sends nothing more.
    mail.outbox.clear()
    players = [p.pk for t in finished_game.match.teams() for p in t.players.all()]
    context = {"league": "Thursday Doubles", "game": "x", "claim": "x", "game_id": 1}
    assert notify_send("dispute_raised", players, context, f"dispute:{dispute.pk}") == 0
    assert mail.outbox == []


def test_a_retried_send_sends_nothing_twice(finished_game, monkeypatch, committed):
    """A send that fails for one player is retried for that player alone."""
    from django.core.mail.backends.locmem import EmailBackend

    mail.outbox.clear()
    real = EmailBackend.send_messages
    broken = {"dan@example.com"}

    def flaky(self, messages):
        if any(m.to[0] in broken for m in messages):
            raise OSError("the mail server hung up")
        return real(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", flaky)
    args = ("dispute_raised", [p.pk for p in Player.objects.all()], {"league": "L", "game": "g",
            "claim": "c", "game_id": finished_game.pk}, "dispute:retry")  # fmt: skip
    notify_send(*args)
    assert "dan@example.com" not in _to(mail.outbox) and len(mail.outbox) == 5
    failed = Delivery.objects.get(key__startswith="dispute_raised:dispute:retry", status="failed")
    assert "hung up" in failed.reason
    notify_send(*args)  # the task runs again: nothing new, Dan still failing
    assert len(mail.outbox) == 5
    broken.clear()
    assert committed(notify_retry_failed) == 1
    assert committed(notify_retry_failed) == 0
    notify_send(*args)
    assert len(mail.outbox) == 6 and _to(mail.outbox).count("dan@example.com") == 1


# --- Choices and unsubscribe --------------------------------------------------------------------


def test_a_player_who_turned_disputes_off_is_not_mailed_and_the_log_says_why(
    finished_game, cat, django_capture_on_commit_callbacks
):
    dan = Player.objects.get(name="Dan")
    notify_choices_set(user=dan.user, player=dan, off=[("disputes", "email")], language="en")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        dispute_raise(game=finished_game, user=cat, claim="Deal 1 crib was 2")
    assert "dan@example.com" not in _to(mail.outbox) and len(mail.outbox) == 3
    skipped = Delivery.objects.get(event="dispute_raised", player=dan)
    assert skipped.status == DeliveryStatus.SKIPPED and skipped.reason == "turned off by the player"


def test_an_organiser_cannot_turn_a_players_choices_back_on(home_team, league_admin, client):
    bob = Player.objects.get(name="Bob")
    notify_choices_set(user=bob.user, player=bob, off=[("reminders", "email")], language="fr")
    with pytest.raises(NotAllowed):
        notify_choices_set(user=league_admin, player=bob, off=[], language="en")
    client.force_login(league_admin)  # the page only ever shows the signed-in player's own
    response = client.post(reverse("league:notify_choices"), {"language": "en"})
    assert response.status_code == 200 and b"not one of the league" in response.content
    assert NotifyChoice.objects.filter(player=bob, category="reminders").exists()
    assert bob.notify_profile.language == "fr"


def test_a_player_sets_their_choices_on_their_own_page(home_team, client):
    bob = Player.objects.get(name="Bob")
    client.force_login(bob.user)
    page = client.get(reverse("league:notify_choices"), HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200 and b'name="reminders:email"' in page.content
    assert b'<option value="fr" selected>' in page.content  # the language they read the site in
    ticked = {
        f"{c}:{ch}": "on"
        for c in Category.values
        for ch in Channel.values
        if (c, ch) != ("announcements", "email")
    }
    response = client.post(reverse("league:notify_choices"), {**ticked, "language": "fr"})
    assert response.status_code == 302
    assert list(NotifyChoice.objects.filter(player=bob).values_list("category", flat=True)) == [
        "announcements"
    ]
    assert NotifyProfile.objects.get(player=bob).language == "fr"
    assert AuditEntry.objects.filter(action="notify_choices", object_id=str(bob.pk)).exists()


def test_one_click_unsubscribe_from_the_mails_header_stops_that_category(
    finished_game, cat, client, django_capture_on_commit_callbacks
):
    message = next(m for m in mail.outbox if m.to == ["dan@example.com"])
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    path = url.removeprefix("http://127.0.0.1:8000")
    from django.test import Client

    mail_client = Client(enforce_csrf_checks=True)  # a mail provider posts with no cookie
    response = mail_client.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    dan = Player.objects.get(name="Dan")
    assert NotifyChoice.objects.filter(player=dan, category="results", channel="email").exists()
    # Results are off for Dan, disputes still on.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        dispute_raise(game=finished_game, user=cat, claim="Deal 1 crib was 2")
    assert "dan@example.com" in _to(mail.outbox)
    assert path == f"/unsubscribe/{unsubscribe_token(dan.pk, 'results')}/"
    assert client.get("/unsubscribe/not-a-token/").status_code == 404


# --- The night reminder -------------------------------------------------------------------------


@pytest.fixture
def next_night(week, match, venue, everyone):
    week.date = timezone.localdate() + timedelta(days=2)
    week.venue = venue
    week.save()
    match.table = 3
    match.save()
    return week


def test_the_night_reminder_reaches_both_teams_once_with_where_and_whom(
    next_night, match, committed
):
    _french("Cat")
    assert committed(notify_scheduled)["night_reminders"] == 1
    committed(notify_scheduled)  # beat runs again a quarter hour later: nothing new
    assert _to(mail.outbox) == [
        "ann@example.com",
        "bob@example.com",
        "cat@example.com",
        "dan@example.com",
    ]
    ann = next(m for m in mail.outbox if m.to == ["ann@example.com"])
    assert "Fifteen Two v Nobs" in ann.subject
    assert "table 3" in ann.body and next_night.venue.name in ann.body
    assert "starting at 19:00" in ann.body  # the night's start time
    assert f"/matches/{match.pk}/" in ann.body
    cat = next(m for m in mail.outbox if m.to == ["cat@example.com"])
    assert "Vous jouez" in cat.subject and "Nobs contre Fifteen Two" in cat.subject
    assert "table 3" in cat.body and "à partir de 19:00" in cat.body


def test_a_night_too_far_ahead_is_not_reminded_yet_and_a_moved_one_is_reminded_again(
    next_night, committed
):
    next_night.date = timezone.localdate() + timedelta(days=5)
    next_night.save()
    assert committed(notify_scheduled)["night_reminders"] == 0
    in_3_days = timezone.now() + timedelta(days=3)
    assert committed(notify_scheduled, now=in_3_days)["night_reminders"] == 1
    assert len(mail.outbox) == 4
    next_night.date = timezone.localdate() + timedelta(days=4)  # moved a night earlier
    next_night.save()
    committed(notify_scheduled, now=in_3_days)
    assert len(mail.outbox) == 8


def test_building_the_night_reminders_takes_the_same_queries_for_any_number_of_matches(
    season, venue
):
    def night(n_matches: int, number: int) -> None:
        week = factories.WeekFactory(
            season=season, number=number, date=timezone.localdate() + timedelta(days=1), venue=venue
        )
        for i in range(n_matches):
            factories.MatchFactory(
                week=week,
                home=factories.TeamFactory(season=season, name=f"H{number}-{i}"),
                away=factories.TeamFactory(season=season, name=f"A{number}-{i}"),
            )

    from league.services.notify import night_reminder_matches

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            for match in night_reminder_matches(now=timezone.now()):
                [p.pk for p in match.home.players.all()]
                [p.pk for p in match.away.players.all()]
                str(match.week.venue), str(match.week.season.league)
        return len(seen)

    night(2, 1)
    few = queries()
    night(10, 2)
    assert queries() == few == 3


# --- Playoffs and announcements -----------------------------------------------------------------


def test_the_playoff_draw_reaches_every_player_and_each_match_its_teams(
    played_season, league_admin, everyone, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        matches = playoffs_create(season=played_season, user=league_admin, reason="test")
    drawn = [m for m in mail.outbox if "playoffs are drawn" in m.subject]
    assert _to(drawn) == sorted(
        f"{n}@example.com" for n in ("ann", "bob", "cat", "dan", "eve", "fay")
    )
    yours = [m for m in mail.outbox if "Your playoff match" in m.subject]
    in_matches = {p.user.email for m in matches for t in m.teams() for p in t.players.all()}
    assert sorted(in_matches) == _to(yours)


def test_an_announcement_reaches_the_season_and_shows_on_the_home_page_until_it_expires(
    season, everyone, league_admin, client, django_capture_on_commit_callbacks
):
    client.force_login(league_admin)
    url = reverse("league:organise_messages", args=[season.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"text": "No games on the 24th: the bar is closed.", "days": 3})
    assert response.status_code == 302
    assert len(mail.outbox) == 6
    assert all("the bar is closed" in m.body for m in mail.outbox)
    assert b"the bar is closed" in client.get("/").content
    page = client.get(url)
    assert page.content.count(b"A word from the organiser") == 6
    with pytest.raises(NotAllowed):
        announcement_post(user=Player.objects.get(name="Ann").user, season=season, text="x", days=1)
    from league.models import Announcement

    Announcement.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    assert b"the bar is closed" not in client.get("/").content


def test_the_organisers_log_is_for_organisers_only(season, client, home_team):
    client.force_login(Player.objects.get(name="Ann").user)
    url = reverse("league:organise_messages", args=[season.pk])
    assert client.get(url).status_code == 403


# --- The events other features trigger ----------------------------------------------------------


def test_every_declared_change_reaches_the_match_players_in_both_languages(
    match, everyone, season, django_capture_on_commit_callbacks
):
    _french("Dan")
    was = timezone.localdate()
    with django_capture_on_commit_callbacks(execute=True):
        notify_match_moved(match, was=was)
        notify_match_postponed(match, was=was)
        notify_night_cancelled(match.week)
        notify_sub_asked(match, match.home, [Player.objects.get(name="Eve")])
    subjects = {}
    for m in mail.outbox:
        subjects.setdefault(m.to[0], []).append(m.subject)
    assert len(subjects["ann@example.com"]) == 3
    assert len(subjects["dan@example.com"]) == 3
    assert any("Reporté" in s for s in subjects["dan@example.com"])
    assert len(subjects["eve@example.com"]) == 1 and "sub" in subjects["eve@example.com"][0]


def test_the_organisers_log_takes_the_same_queries_however_many_were_told(
    season, everyone, league_admin, client, committed
):
    client.force_login(league_admin)
    url = reverse("league:organise_messages", args=[season.pk])

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(url).status_code == 200
        return len(seen)

    committed(announcement_post, user=league_admin, season=season, text="One", days=1)
    queries()  # the season's calendar feed is made on the first visit
    few = queries()
    committed(announcement_post, user=league_admin, season=season, text="Two", days=1)
    committed(announcement_post, user=league_admin, season=season, text="Three", days=1)
    assert Delivery.objects.filter(season=season).count() == 18
    assert queries() == few


def test_a_players_page_of_choices_takes_the_same_queries_with_more_teams(
    home_team, client, season
):
    ann = Player.objects.get(name="Ann")
    client.force_login(ann.user)
    url = reverse("league:notify_choices")
    client.get(url)  # the feeds are made on the first visit

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(url).status_code == 200
        return len(seen)

    one_team = queries()
    factories.TeamFactory(season=season, name="Second", captain=ann, players=[ann])
    client.get(url)
    assert queries() == one_team


def test_an_announcement_shows_only_to_the_players_of_its_season(
    season, everyone, league_admin, client
):
    """Ann plays in Fall 2026; Zed plays only in another league's season."""
    from league.services.notify import announcement_post

    announcement_post(user=league_admin, season=season, text="No games on the 24th.", days=3)
    other = factories.SeasonFactory(league=factories.LeagueFactory(name="Monday Fours"))
    zed = factories.PlayerFactory(name="Zed")
    factories.TeamFactory(season=other, name="Zeds", captain=zed, players=[zed])
    client.force_login(zed.user)
    assert b"No games on the 24th." not in client.get("/").content
    client.force_login(Player.objects.get(name="Ann").user)
    assert b"No games on the 24th." in client.get("/").content
