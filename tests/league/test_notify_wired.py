"""The season's operations tell the players: a postponed match, a moved or cancelled night,
a forfeit and a result the league closes reach both teams once, after commit (a refused change
sends nothing); the night reminder and the calendar feeds go by the match's own date, skip what
is not played, and never speak of a draft season; the reminder carries a one-tap answer link
that works without signing in."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from django.utils.formats import date_format
from icalendar import Calendar

from league.kernel.errors import ValidationFailed
from league.models import Availability, Match, NotifyProfile, Player, Week
from league.services.calendars import calendar_document, calendar_feed_of
from league.services.notify import notify_scheduled
from league.services.postponements import (
    match_postpone,
    postponement_answer,
    postponement_ask,
    week_cancel,
    week_move,
)
from tests import factories


def _with_emails(*teams):
    for team in teams:
        for player in team.players.all():
            player.user.email = f"{player.user.username}@example.com"
            player.user.save()


def _french(name: str) -> None:
    NotifyProfile.objects.create(player=Player.objects.get(name=name), language="fr")


def _to(messages) -> list[str]:
    return sorted(m.to[0] for m in messages)


BOTH_TEAMS = ["ann@example.com", "bob@example.com", "cat@example.com", "dan@example.com"]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


@pytest.fixture
def weeks(season, venue, home_team, away_team, other_team):
    """Six weekly nights from the day after tomorrow; Fifteen Two v Nobs at table 3 in
    week 1."""
    _with_emails(home_team, away_team, other_team)
    first = timezone.localdate() + timedelta(days=2)
    return [
        Week.objects.create(
            season=season, number=n, date=first + timedelta(weeks=n - 1), venue=venue
        )
        for n in range(1, 7)
    ]


@pytest.fixture
def night(weeks, home_team, away_team):
    return Match.objects.create(week=weeks[0], home=home_team, away=away_team, table=3)


# --- Postponements and nights tell the players ---------------------------------------------------


def test_a_postponement_accepted_tells_both_teams_the_new_date_once(night, ann, cat, committed):
    _french("Dan")
    new = night.week.date + timedelta(days=5)
    asked = committed(postponement_ask, match=night, user=ann, date=new, reason="Bob is away")
    assert _to(mail.outbox) == ["cat@example.com", "dan@example.com"]  # the team asked, at once
    mail.outbox.clear()
    committed(postponement_answer, postponement=asked, user=cat, accept=True)
    assert _to(mail.outbox) == BOTH_TEAMS
    ann_mail = next(m for m in mail.outbox if m.to == ["ann@example.com"])
    assert "Postponed: Fifteen Two v Nobs" in ann_mail.subject
    assert date_format(new, "DATE_FORMAT") in ann_mail.body  # the new date, said
    dan_mail = next(m for m in mail.outbox if m.to == ["dan@example.com"])
    assert "Reporté" in dan_mail.subject and "désormais" in dan_mail.body


def test_a_postponement_declined_or_refused_sends_nothing(night, ann, cat, committed):
    asked = committed(
        postponement_ask,
        match=night,
        user=ann,
        date=night.week.date + timedelta(days=5),
        reason="Bob is away",
    )
    mail.outbox.clear()  # the request itself was told to the other team
    committed(postponement_answer, postponement=asked, user=cat, accept=False)
    with pytest.raises(ValidationFailed):
        committed(
            match_postpone,
            match=night,
            user=factories.UserFactory(is_staff=True, is_superuser=True),
            date=night.week.date + timedelta(days=60),  # past the make-up deadline
            reason="The bar closes",
        )
    assert mail.outbox == []


def test_the_organiser_postponing_a_match_tells_its_two_teams(night, league_admin, committed):
    committed(
        match_postpone,
        match=night,
        user=league_admin,
        date=night.week.date + timedelta(days=3),
        reason="Nobs at a wedding",
    )
    assert _to(mail.outbox) == BOTH_TEAMS
    assert all("Postponed" in m.subject for m in mail.outbox)


def test_a_night_moved_tells_each_team_whose_match_moves(
    weeks, night, home_team, other_team, league_admin, committed
):
    kept = Match.objects.create(
        week=weeks[0], home=other_team, away=factories.TeamFactory(season=weeks[0].season)
    )
    kept.date = weeks[0].date + timedelta(days=4)  # postponed on its own: it keeps its date
    kept.save()
    new = weeks[0].date + timedelta(days=1)
    committed(week_move, week=weeks[0], user=league_admin, date=new, reason="Bar closed")
    assert _to(mail.outbox) == BOTH_TEAMS  # His Heels's match does not move
    assert all("is now on" in m.subject for m in mail.outbox)


def test_a_night_cancelled_tells_everyone_playing_that_night_once(night, league_admin, committed):
    _french("Cat")
    committed(week_cancel, week=night.week, user=league_admin, reason="Snow")
    assert _to(mail.outbox) == BOTH_TEAMS
    cat = next(m for m in mail.outbox if m.to == ["cat@example.com"])
    assert "Pas de cribbage" in cat.subject
    with pytest.raises(Exception, match="already cancelled"):
        committed(week_cancel, week=night.week, user=league_admin, reason="Snow")
    assert len(mail.outbox) == 4


def test_nothing_is_said_to_a_draft_seasons_players(night, season, league_admin, committed):
    season.state = "draft"
    season.save()
    committed(week_cancel, week=night.week, user=league_admin, reason="Snow")
    committed(week_move, week=night.week, user=league_admin, date=night.week.date, reason="On")
    assert committed(notify_scheduled)["night_reminders"] == 0
    assert mail.outbox == []


# --- The night reminder ---------------------------------------------------------------------------


def test_a_postponed_match_is_reminded_on_its_own_date_not_its_nights(
    night, league_admin, committed
):
    far = timezone.now() + timedelta(days=3)
    night.date = night.week.date + timedelta(days=3)
    night.save()
    assert committed(notify_scheduled)["night_reminders"] == 0  # its night is near, not it
    assert committed(notify_scheduled, now=far)["night_reminders"] == 1
    assert _to(mail.outbox) == BOTH_TEAMS


def test_a_cancelled_night_and_a_forfeited_match_are_not_reminded(
    weeks, night, other_team, league_admin, judge, committed
):
    from league.services.forfeits import match_forfeit

    committed(week_cancel, week=weeks[0], user=league_admin, reason="Snow")
    mail.outbox.clear()
    assert committed(notify_scheduled)["night_reminders"] == 0
    second = Match.objects.create(week=weeks[1], home=night.home, away=other_team)
    committed(match_forfeit, match=second, team=other_team, reason="No show", user=judge)
    mail.outbox.clear()
    assert (
        committed(notify_scheduled, now=timezone.now() + timedelta(days=7))["night_reminders"] == 0
    )
    assert mail.outbox == []


def test_the_reminder_carries_a_signed_answer_link_that_works_without_signing_in(
    night, client, committed
):
    _french("Cat")
    committed(notify_scheduled)
    ann = next(m for m in mail.outbox if m.to == ["ann@example.com"])
    html = ann.alternatives[0][0]
    link = re.search(r"(http://\S+/nights/answer/[^/\s]+/)", ann.body).group(1)
    assert "one tap" in ann.body
    assert link in html and "I'm in · I'm out · Maybe" in html
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)  # nobody signed in
    assert page.status_code == 200 and b"Ann, are you coming?" in page.content
    client.post("/" + path, {"answer": "out"})
    assert Availability.objects.get(player__name="Ann", week=night.week).answer == "out"
    bob = next(m for m in mail.outbox if m.to == ["bob@example.com"])
    assert link not in bob.body  # each player gets their own
    cat = next(m for m in mail.outbox if m.to == ["cat@example.com"])
    assert "Répondez d'un geste" in cat.body and "/nights/answer/" in cat.body


def test_other_mails_carry_no_answer_link(night, league_admin, committed):
    committed(week_cancel, week=night.week, user=league_admin, reason="Snow")
    assert mail.outbox and all("/nights/answer/" not in m.body for m in mail.outbox)


# --- Calendar feeds -------------------------------------------------------------------------------


def _events(season, league_admin) -> dict[str, dict]:
    feed = calendar_feed_of(user=league_admin, season=season)
    cal = Calendar.from_ical(calendar_document(feed.token))
    return {
        str(e["uid"]): {
            "date": e.decoded("dtstart").date(),
            "status": str(e["status"]),
            "sequence": int(e["sequence"]),
        }
        for e in cal.walk("VEVENT")
    }


def test_the_season_feed_follows_a_postponement_and_keeps_a_cancelled_night(
    weeks, night, season, league_admin, committed
):
    before = _events(season, league_admin)
    (uid,) = before
    assert before[uid]["date"] == weeks[0].date and before[uid]["status"] == "CONFIRMED"
    new = weeks[0].date + timedelta(days=3)
    committed(match_postpone, match=night, user=league_admin, date=new, reason="Wedding")
    moved = _events(season, league_admin)[uid]
    assert moved["date"] == new and moved["sequence"] > before[uid]["sequence"]
    committed(week_cancel, week=weeks[0], user=league_admin, reason="Snow")
    cancelled = _events(season, league_admin)[uid]
    assert cancelled["status"] == "CANCELLED" and cancelled["sequence"] > moved["sequence"]
    committed(week_move, week=weeks[0], user=league_admin, date=new, reason="On again")
    again = _events(season, league_admin)[uid]
    assert again["status"] == "CONFIRMED" and again["sequence"] > cancelled["sequence"]


def test_a_forfeited_match_is_cancelled_in_the_feed(
    night, season, home_team, league_admin, judge, committed
):
    from league.services.forfeits import match_forfeit

    committed(match_forfeit, match=night, team=home_team, reason="No show", user=judge)
    (event,) = _events(season, league_admin).values()
    assert event["status"] == "CANCELLED"


def test_a_draft_season_is_in_no_feed(night, season, ann):
    feed = calendar_feed_of(user=ann, player=Player.objects.get(user=ann))
    assert len(Calendar.from_ical(calendar_document(feed.token)).walk("VEVENT")) == 1
    season.state = "draft"
    season.save()
    assert Calendar.from_ical(calendar_document(feed.token)).walk("VEVENT") == []


# --- Results that close ---------------------------------------------------------------------------

HOUR = timedelta(hours=1)


@pytest.fixture
def waiting(game, ann, home_team, away_team, django_capture_on_commit_callbacks):
    """Game 1 finished by Fifteen Two's entries, waiting for Nobs (the season closes results
    after 72 h); the "waits for you" mail is out of the way."""
    from tests.factories import play_until_over

    _with_emails(home_team, away_team)
    with django_capture_on_commit_callbacks(execute=True):
        play_until_over(game, ann)
    game.refresh_from_db()
    mail.outbox.clear()
    return game


def test_the_last_call_goes_a_day_before_the_close_and_says_when(waiting, committed):
    _french("Dan")
    closes = waiting.finished_at + 72 * HOUR
    assert committed(notify_scheduled, now=closes - 25 * HOUR)["confirm_reminders"] == 0
    assert mail.outbox == []
    committed(notify_scheduled, now=closes - 23 * HOUR)
    committed(notify_scheduled, now=closes - 22 * HOUR)  # beat again: nothing new
    assert _to(mail.outbox) == ["cat@example.com", "dan@example.com"]  # only who must confirm
    cat = next(m for m in mail.outbox if m.to == ["cat@example.com"])
    local = timezone.localtime(closes)
    assert cat.subject.startswith("[Thursday Doubles] Last call")
    assert date_format(local, "DATETIME_FORMAT") in cat.body
    dan = next(m for m in mail.outbox if m.to == ["dan@example.com"])
    assert "Dernier appel" in dan.subject


def test_a_short_grace_period_calls_at_half_of_it(waiting, season, committed):
    season.close_after_hours = 10
    season.save()
    assert committed(notify_scheduled, now=waiting.finished_at + 4 * HOUR)["confirm_reminders"] == 0
    committed(notify_scheduled, now=waiting.finished_at + 5 * HOUR)
    assert _to(mail.outbox) == ["cat@example.com", "dan@example.com"]


def test_a_disputed_game_gets_no_last_call(waiting, cat, committed):
    from league.services.disputes import dispute_raise

    committed(dispute_raise, game=waiting, user=cat, claim="Deal 2: our crib was 8")
    mail.outbox.clear()
    committed(notify_scheduled, now=waiting.finished_at + 60 * HOUR)
    assert mail.outbox == []


def test_a_game_the_league_closes_is_told_to_both_teams(waiting, committed):
    from league.services.closing import results_close

    _french("Ann")
    assert committed(results_close, now=waiting.finished_at + 72 * HOUR) == [waiting.pk]
    assert _to(mail.outbox) == BOTH_TEAMS
    cat = next(m for m in mail.outbox if m.to == ["cat@example.com"])
    assert "Closed by the league" in cat.subject and "72 hours" in cat.body
    ann = next(m for m in mail.outbox if m.to == ["ann@example.com"])
    assert "Clos par la ligue" in ann.subject
    committed(results_close, now=waiting.finished_at + 73 * HOUR)
    assert len(mail.outbox) == 4


# --- Forfeits -------------------------------------------------------------------------------------


def test_a_forfeit_recorded_and_undone_tells_both_teams(night, home_team, judge, committed):
    from league.services.forfeits import forfeit_undo, match_forfeit

    _french("Cat")
    committed(match_forfeit, match=night, team=home_team, reason="Nobody came", user=judge)
    assert _to(mail.outbox) == BOTH_TEAMS
    ann = next(m for m in mail.outbox if m.to == ["ann@example.com"])
    assert "Fifteen Two forfeits" in ann.subject and "Nobody came" in ann.body
    cat = next(m for m in mail.outbox if m.to == ["cat@example.com"])
    assert "Forfait" in cat.subject
    mail.outbox.clear()
    committed(forfeit_undo, match=night, reason="They were at the other bar", user=judge)
    assert _to(mail.outbox) == BOTH_TEAMS
    assert all("Forfeit undone" in m.subject or "annulé" in m.subject for m in mail.outbox)
    assert any("other bar" in m.body for m in mail.outbox)


def test_a_refused_forfeit_tells_nobody(night, home_team, ann, committed):
    from league.kernel.errors import DomainError
    from league.services.forfeits import match_forfeit

    with pytest.raises(DomainError):
        committed(match_forfeit, match=night, team=home_team, reason="x", user=ann)
    assert mail.outbox == []


# --- Announcements --------------------------------------------------------------------------------


def test_a_draft_season_gets_no_announcement_and_shows_no_banner(
    night, season, league_admin, client, committed
):
    from league.models import Announcement
    from league.services.notify import announcement_post

    season.state = "draft"
    season.save()
    with pytest.raises(ValidationFailed, match="draft"):
        committed(announcement_post, user=league_admin, season=season, text="Hi", days=3)
    assert mail.outbox == [] and not Announcement.objects.exists()
    # one posted while it was published, then put back to draft: no longer on the home page
    Announcement.objects.create(
        season=season, text="Bring a pen", expires_at=timezone.now() + timedelta(days=2)
    )
    assert b"Bring a pen" not in client.get("/").content
    season.state = "published"
    season.save()
    assert b"Bring a pen" in client.get("/").content


def test_a_game_the_league_closes_is_told_to_the_sub_who_played_not_the_player_who_sat_out(
    waiting, committed
):
    from league.models import GameSeat
    from league.services.closing import results_close

    sid = factories.PlayerFactory(name="Sid")
    sid.user.email = "sid@example.com"
    sid.user.save()
    GameSeat.objects.filter(game=waiting, player__name="Dan").update(player=sid)  # Sid sat in
    committed(results_close, now=waiting.finished_at + 72 * HOUR)
    assert _to(mail.outbox) == [
        "ann@example.com",
        "bob@example.com",
        "cat@example.com",
        "sid@example.com",
    ]
