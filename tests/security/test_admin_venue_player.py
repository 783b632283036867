"""Security review: a venue's details and a player's name could not be corrected anywhere (read-only
in the admin, no service behind them). Now ``venue_update`` and ``player_rename`` change them,
checked and audited, and the admin goes through them."""

from __future__ import annotations

import pytest
from django.test import Client

from league.kernel.audit import AuditAction
from league.models import AuditEntry, Player, Venue
from tests import factories


@pytest.fixture
def lena(league_admin):
    league_admin.is_staff = True
    league_admin.save()
    client = Client()
    client.force_login(league_admin)
    return client


@pytest.mark.django_db
def test_a_venue_is_corrected_in_the_admin_audited(lena, league_admin):
    venue = Venue.objects.create(name="The Crooked Peg", address="1 Mian St")
    Venue.objects.create(name="The Nobs")
    url = f"/admin/league/venue/{venue.pk}/change/"
    response = lena.post(url, {"name": "The Crooked Peg", "address": "1 Main St"})
    assert response.status_code == 302, response.content.decode()[:2000]
    venue.refresh_from_db()
    assert venue.address == "1 Main St"
    entry = AuditEntry.objects.get(action=AuditAction.VENUE_UPDATE)
    assert entry.actor == league_admin and entry.before["address"] == "1 Mian St"

    taken = lena.post(url, {"name": "the nobs", "address": ""})
    assert taken.status_code == 200
    assert "Another venue is already called the nobs." in taken.content.decode()
    venue.refresh_from_db()
    assert venue.name == "The Crooked Peg"


@pytest.mark.django_db
def test_a_players_name_is_corrected_in_the_admin_audited(lena, league_admin, home_team):
    ann = Player.objects.get(name="Ann")
    url = f"/admin/league/player/{ann.pk}/change/"
    response = lena.post(url, {"name": "Anne", "user": str(ann.user_id)})
    assert response.status_code == 302, response.content.decode()[:2000]
    ann.refresh_from_db()
    assert ann.name == "Anne"
    entry = AuditEntry.objects.get(action=AuditAction.PLAYER_RENAME)
    assert entry.before == {"name": "Ann"} and entry.after == {"name": "Anne"}

    factories.PlayerFactory(name="Bea")
    taken = lena.post(url, {"name": "BEA", "user": str(ann.user_id)})
    assert taken.status_code == 200
    assert "Another player is already called BEA." in taken.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Anne"


@pytest.mark.django_db
def test_a_judge_renames_nobody(judge, home_team):
    from league.kernel.errors import NotAllowed
    from league.services.people import player_rename

    ann = Player.objects.get(name="Ann")
    with pytest.raises(NotAllowed):
        player_rename(player=ann, name="Mallory", user=judge)
    ann.refresh_from_db()
    assert ann.name == "Ann"
