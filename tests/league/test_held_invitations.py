"""Invitations to a draft season are held: adding players or subs to a draft sends nothing
(a draft is the organiser's alone); publishing it sends each held invitation, once, whichever
door publishes it. A published season's invitations go at once, as before."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from rest_framework.test import APIClient

from league.models import AuditEntry, Delivery, HeldInvitation, Player
from league.services.people import PlayerLine, invitations_release, season_invite
from league.services.rules import season_create
from league.services.season_life import season_publish, season_unpublish
from league.services.seasons import schedule_create, team_create
from league.services.subs import subs_add
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(league, league_admin):
    """A draft ready to publish: two teams and a schedule."""
    season = season_create(league=league, user=league_admin, name="Spring 2027")
    for i in range(2):
        players = [factories.PlayerFactory(name=f"P{i}{j}") for j in range(2)]
        team_create(season=season, user=league_admin, name=f"T{i}", players=players)
    schedule_create(season=season, user=league_admin, start_date=dt.date(2027, 3, 4))
    season.refresh_from_db()
    return season


@pytest.fixture
def lena(client, league_admin):
    client.force_login(league_admin)
    return client


def _page_text(response) -> str:
    return response.content.decode()


def test_players_pasted_into_a_draft_are_invited_only_when_it_is_published(
    lena, draft, league_admin
):
    url = f"/organise/seasons/{draft.pk}/players/"
    roster = "Ann Smith, ann@example.org\nBob Jones, bob@example.org\nCy Nomail"
    lena.post(url, {"action": "paste", "paste-names": roster, "paste-invite": "on"})
    assert mail.outbox == []
    assert not Delivery.objects.exists()  # nor anything in the notification outbox
    text = _page_text(lena.get(url))
    assert "2 invitations held: they go out when the season is published." in text
    assert text.count("invitation held until the season is published") == 2
    held = AuditEntry.objects.filter(action="invitation_hold", season_id=draft.pk)
    assert sorted(e.after["player"] for e in held) == ["Ann Smith", "Bob Jones"]

    lena.post(f"/organise/seasons/{draft.pk}/state/", {"move": "publish"})
    draft.refresh_from_db()
    assert draft.state == "published"
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "bob@example.org"]
    assert "/welcome/" in mail.outbox[0].body
    # The subject names the league they were added to.
    assert mail.outbox[0].subject == "Your Pegboard login for Thursday Doubles"
    assert not HeldInvitation.objects.filter(sent_at__isnull=True).exists()
    assert "invitation held" not in _page_text(lena.get(url))

    # Once: back to draft and published again, nobody hears twice.
    season_unpublish(season=draft, user=league_admin)
    season_publish(season=draft, user=league_admin)
    assert len(mail.outbox) == 2


def test_subs_added_to_a_draft_are_invited_when_the_api_publishes_it(lena, draft, league_admin):
    lena.post(
        f"/organise/seasons/{draft.pk}/players/",
        {"action": "subs", "subs-names": "Gus Grey, gus@example.org", "subs-invite": "on"},
    )
    assert mail.outbox == []
    assert HeldInvitation.objects.get().player.name == "Gus Grey"
    api = APIClient()
    api.force_authenticate(league_admin)
    assert api.post(f"/api/seasons/{draft.pk}/publish/").status_code == 200
    assert [m.to for m in mail.outbox] == [["gus@example.org"]]
    assert invitations_release(user=league_admin, season=draft) == 0  # sent once
    assert len(mail.outbox) == 1


def test_the_admin_publishing_sends_the_held_invitations(client, draft, league_admin):
    added = subs_add(
        user=league_admin, season=draft, lines=[PlayerLine(name="Hal", email="hal@example.org")]
    )
    invited = season_invite(
        user=league_admin, season=draft, players=added.to_invite, base_url="http://t/"
    )
    assert (invited.sent, invited.held) == (0, 1) and mail.outbox == []
    league_admin.is_staff = True
    league_admin.save(update_fields=["is_staff"])
    client.force_login(league_admin)
    client.post("/admin/league/season/", {"action": "publish", "_selected_action": [draft.pk]})
    draft.refresh_from_db()
    assert draft.state == "published"
    assert [m.to for m in mail.outbox] == [["hal@example.org"]]
    assert "http://t/welcome/" in mail.outbox[0].body


def test_a_player_who_chose_a_password_meanwhile_is_not_invited(draft, league_admin):
    added = subs_add(
        user=league_admin, season=draft, lines=[PlayerLine(name="Ivy", email="ivy@example.org")]
    )
    season_invite(user=league_admin, season=draft, players=added.to_invite, base_url="http://t/")
    ivy = Player.objects.get(name="Ivy")
    ivy.user.set_password("fifteen-two-4")
    ivy.user.save()
    season_publish(season=draft, user=league_admin)
    assert mail.outbox == []


def test_a_published_seasons_invitations_go_at_once(season, league_admin):
    added = subs_add(
        user=league_admin, season=season, lines=[PlayerLine(name="Joe", email="joe@example.org")]
    )
    invited = season_invite(
        user=league_admin, season=season, players=added.to_invite, base_url="http://t/"
    )
    assert (invited.sent, invited.held) == (1, 0)
    assert [m.to for m in mail.outbox] == [["joe@example.org"]]
    assert not HeldInvitation.objects.exists()


def test_a_mail_server_down_at_publishing_keeps_them_held_and_the_season_published(
    draft, league_admin, settings
):
    added = subs_add(
        user=league_admin, season=draft, lines=[PlayerLine(name="Kim", email="kim@example.org")]
    )
    season_invite(user=league_admin, season=draft, players=added.to_invite, base_url="http://t/")
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 1
    assert season_publish(season=draft, user=league_admin).state == "published"
    assert HeldInvitation.objects.filter(sent_at__isnull=True).count() == 1
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # Sent again from the players page: the season is published now, so it goes.
    kim = Player.objects.get(name="Kim")
    assert (
        season_invite(user=league_admin, season=draft, players=[kim], base_url="http://t/").sent
        == 1
    )
    assert not HeldInvitation.objects.filter(sent_at__isnull=True).exists()
