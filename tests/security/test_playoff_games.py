"""A playoff game is stored once per idempotency key, whichever door sent it twice (the API, the
director's admin form), and a director can void a wrongly recorded one: it leaves the match's
result, and the audit trail says who voided what."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.kernel.audit import AuditAction
from league.models import AuditEntry
from tests.tournaments.conftest import director, field, night, play_round  # noqa: F401
from tournaments import selectors, services
from tournaments.models import PlayoffGame, TournamentStage


@pytest.fixture
def final(night, director, field):  # noqa: F811
    for _ in range(3):
        play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    return night.playoff_matches.select_related("top", "bottom").get()


def games_url(match) -> str:
    return f"/api/playoff-matches/{match.pk}/games/"


def test_the_same_key_sent_twice_stores_one_playoff_game(final, director):  # noqa: F811
    desk = APIClient()
    desk.force_authenticate(director)
    body = {"winner": final.top_id, "loser_score": 100, "key": str(uuid.uuid4())}
    first = desk.post(games_url(final), body, format="json")
    again = desk.post(games_url(final), body, format="json")
    assert first.status_code == 201, first.json()
    assert again.status_code == 200, again.json()
    assert final.games.count() == 1
    assert again.json()["games"] == first.json()["games"]
    assert final.winner_id is None  # one game of a best of 3 decides nothing


def test_a_key_reused_for_another_playoff_game_is_a_409(final, director):  # noqa: F811
    desk = APIClient()
    desk.force_authenticate(director)
    key = str(uuid.uuid4())
    body = {"winner": final.top_id, "loser_score": 100, "key": key}
    assert desk.post(games_url(final), body, format="json").status_code == 201
    other = {"winner": final.bottom_id, "loser_score": 90, "key": key}
    response = desk.post(games_url(final), other, format="json")
    assert response.status_code == 409 and response.json()["field"] == "key"
    assert final.games.count() == 1


def test_the_admin_form_sent_twice_stores_one_game(client, final, director):  # noqa: F811
    client.force_login(director)
    url = reverse("admin:tournaments_playoffmatch_change", args=[final.pk])
    form = client.get(url).context["adminform"].form
    key = form["game_key"].value()
    assert key
    post = {"game_winner": final.top_id, "game_loser_score": 100, "game_key": key}
    client.post(url, post)
    client.post(url, post)
    assert final.games.count() == 1


def test_a_voided_game_leaves_the_match_result_and_is_audited(final, director):  # noqa: F811
    services.playoff_game_record(
        user=director, match=final, winner=final.top, loser_score=100, key="k1"
    )
    services.playoff_game_record(
        user=director, match=final, winner=final.top, loser_score=90, key="k2"
    )
    final.refresh_from_db()
    assert final.winner_id == final.top_id
    assert selectors.champion(final.tournament) == final.top.name

    wrong = final.games.get(number=2)
    services.playoff_game_void(user=director, game=wrong)

    final.refresh_from_db()
    assert final.winner_id is None
    assert list(final.games.values_list("number", "loser_score")) == [(1, 100)]
    assert final.tournament.stage == TournamentStage.PLAYOFFS
    assert selectors.champion(final.tournament) is None
    entry = AuditEntry.objects.get(action=AuditAction.PLAYOFF_GAME_VOID)
    assert entry.actor == director
    assert entry.before["loser_score"] == 90 and entry.before["winner"] == final.top.name

    services.playoff_game_record(
        user=director, match=final, winner=final.bottom, loser_score=110, key="k3"
    )
    assert final.games.count() == 2


def test_a_player_cannot_void_a_playoff_game(final, director, field):  # noqa: F811
    from league.kernel.errors import DomainError
    from tests.tournaments.conftest import user_of

    services.playoff_game_record(user=director, match=final, winner=final.top, loser_score=100)
    with pytest.raises(DomainError):
        services.playoff_game_void(user=user_of(final.top), game=final.games.get())
    assert PlayoffGame.objects.count() == 1


def test_the_director_voids_the_last_game_with_an_admin_action(
    client,
    final,
    director,  # noqa: F811
):
    services.playoff_game_record(user=director, match=final, winner=final.top, loser_score=100)
    client.force_login(director)
    url = reverse("admin:tournaments_playoffmatch_changelist")
    client.post(url, {"action": "void_last_game", "_selected_action": [final.pk]})
    assert not final.games.exists()
    assert AuditEntry.objects.filter(action=AuditAction.PLAYOFF_GAME_VOID).count() == 1
