"""A club night's story by mail: where the club sends it (off by default, set on the director's
club page and in the admin, audited), closing the night tells the club's members who have an
account, once, each in their language."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from league.kernel.errors import ValidationFailed
from league.kernel.recap import recap_text
from league.models import AuditEntry, Delivery, NotifyProfile, Player
from league.services.notify import notify_choices_set
from tests import factories
from tests.tournaments.conftest import TRUSTED, finished_night
from tournaments import services
from tournaments.models import Club, Tournament
from tournaments.notify_events import CLUB_NIGHT_STORY
from tournaments.recap import night_recap
from tournaments.services.notify import notify_night_story

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


@pytest.fixture
def club(director):
    """Crooked Peg: Ann (English), Bob (French) and Cy with accounts and mail; Dee, a member
    with no account; Zoe, with an account but not a member."""
    club = services.club_create(user=TRUSTED, name="Crooked Peg")
    club.directors.add(director)
    services.club_members_add(user=director, club=club, names=["Ann", "Bob", "Cy", "Dee"])
    for name in ("Ann", "Bob", "Cy", "Zoe"):
        player, _new = Player.objects.get_or_create(name=name)
        player.user = factories.UserFactory(
            username=name.lower(), email=f"{name.lower()}@example.com"
        )
        player.save()
    NotifyProfile.objects.create(player=Player.objects.get(name="Bob"), language="fr")
    return club


@pytest.fixture
def played(club):
    """The club's night, played to its final, free to enter (its books balance at nothing)."""
    night = finished_night("Crooked Peg, 5 Dec", NAMES)
    Tournament.objects.filter(pk=night.pk).update(club=club)
    night.refresh_from_db()
    services.purse_set(user=TRUSTED, tournament=night, entry_fee=0, house_percent=0)
    return night


def _stories():
    return Delivery.objects.filter(event=CLUB_NIGHT_STORY.code)


def test_closing_the_night_mails_its_story_to_the_members_once_in_their_language(
    club, played, director, committed
):
    services.club_update(user=TRUSTED, club=club, changes={"send_night_story": True})
    mail.outbox.clear()
    committed(services.night_close, user=director, tournament=played)
    told = {m.to[0]: m for m in mail.outbox if played.name in m.subject}
    # the members with an account: not Dee (no account), not Zoe (not a member)
    assert sorted(told) == ["ann@example.com", "bob@example.com", "cy@example.com"]
    recap = night_recap(played)
    assert recap_text(recap) in told["ann@example.com"].body
    assert "The night's story" in told["ann@example.com"].subject
    with translation.override("fr"):
        french = recap_text(recap)
    assert french in told["bob@example.com"].body and french != recap_text(recap)
    sent = _stories().count()
    assert sent >= 3
    committed(notify_night_story, played)  # sent again: nobody hears it twice
    assert _stories().count() == sent
    assert len([m for m in mail.outbox if played.name in m.subject]) == 3


def test_no_story_is_mailed_unless_the_club_wants_it(club, played, director, committed):
    assert club.send_night_story is False  # off by default
    committed(services.night_close, user=director, tournament=played)
    assert not _stories().exists()
    assert not [m for m in mail.outbox if "story" in m.subject]


def test_a_member_who_turned_the_stories_off_is_not_mailed(club, played, director, committed):
    services.club_update(user=TRUSTED, club=club, changes={"send_night_story": True})
    cy = Player.objects.get(name="Cy")
    notify_choices_set(user=cy.user, player=cy, off={("stories", "email")}, language="en")
    mail.outbox.clear()
    committed(services.night_close, user=director, tournament=played)
    assert sorted(m.to[0] for m in mail.outbox if played.name in m.subject) == [
        "ann@example.com",
        "bob@example.com",
    ]


def test_the_director_turns_it_on_from_the_club_page_and_it_is_audited(client, club, director):
    client.force_login(director)
    page = client.get(f"/direct/clubs/{club.pk}/").content.decode()
    assert 'name="send_night_story"' in page and "checked" not in page.split("night-story")[1][:80]
    defaults = {"night_games": "9", "round_minutes": "20", "entry_fee": "0", "house_percent": "10"}
    client.post(
        f"/direct/clubs/{club.pk}/", {"op": "defaults", **defaults, "send_night_story": "on"}
    )
    club.refresh_from_db()
    assert club.send_night_story is True
    entry = AuditEntry.objects.filter(action="club_update").latest("pk")
    assert entry.before["send_night_story"] is False and entry.after["send_night_story"] is True
    client.post(f"/direct/clubs/{club.pk}/", {"op": "defaults", **defaults})
    club.refresh_from_db()
    assert club.send_night_story is False


def test_the_admin_sets_it_through_the_audited_club_service(client, club, director):
    client.force_login(director)
    assert (
        'name="send_night_story"' not in client.get("/admin/tournaments/club/add/").content.decode()
    )
    url = f"/admin/tournaments/club/{club.pk}/change/"
    assert 'name="send_night_story"' in client.get(url).content.decode()
    client.post(
        url, {"name": club.name, "venue": "", "guest_nights": "3", "send_night_story": "on"}
    )
    assert Club.objects.get(pk=club.pk).send_night_story is True
    entry = AuditEntry.objects.filter(action="club_update").latest("pk")
    assert entry.after["send_night_story"] is True
    with pytest.raises(ValidationFailed, match="yes or no"):
        services.club_update(user=TRUSTED, club=club, changes={"send_night_story": "yes"})
