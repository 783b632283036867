"""Finishing a season while a dispute is open or a game unconfirmed: refused with what is left
and the organiser's name, or done when the organiser confirms it in their name (the record says
what was left open); the roll of honour says "provisional" until they are settled."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.kernel.errors import Conflict
from league.models import Dispute, DisputeStatus, Game, GameStatus, Season, SeasonState
from league.services.disputes import dispute_raise
from league.services.season_life import season_finish
from tests.factories import confirmed_game, play_until_over


@pytest.fixture
def disputed(game, ann, cat):
    """Game 1 played out, and Nobs dispute it."""
    play_until_over(game, ann)
    game.refresh_from_db()
    return dispute_raise(game=game, user=cat, claim="Deal 1 crib was 2, not 4", deal_number=1)


def test_finishing_with_an_open_dispute_is_refused_naming_what_is_left_and_who(
    disputed, season, league_admin
):
    league_admin.first_name, league_admin.last_name = "Olga", "Organiser"
    league_admin.save()
    with pytest.raises(Conflict) as refused:
        season_finish(season=season, user=league_admin, reason="The bar closes")
    said = refused.value.message
    assert "1 open dispute and 1 game not yet confirmed" in said
    assert "confirm that you, Olga Organiser, finish it as it stands" in said
    assert Season.objects.get(pk=season.pk).state == SeasonState.PUBLISHED


def test_the_organiser_confirms_and_the_record_says_what_was_left_open(
    disputed, season, league_admin
):
    season_finish(season=season, user=league_admin, reason="The bar closes", confirm=True)
    season.refresh_from_db()
    assert season.state == SeasonState.FINISHED
    assert "1 open dispute" in season.finished_reason


def test_a_season_with_every_game_confirmed_finishes_without_asking(
    match, season, league_admin, home_team
):
    confirmed_game(match, 1, home_team, 10)
    season_finish(season=season, user=league_admin, reason="The bar closes")
    assert Season.objects.get(pk=season.pk).state == SeasonState.FINISHED


def test_the_roll_of_honour_says_provisional_until_the_dispute_is_settled(
    client, disputed, season, league_admin, home_team
):
    confirmed_game(disputed.game.match, 2, home_team, 10)
    season_finish(season=season, user=league_admin, reason="The bar closes", confirm=True)
    page = client.get(reverse("league:records_honours")).content.decode()
    assert "Fifteen Two" in page and "provisional" in page
    Dispute.objects.update(status=DisputeStatus.DISMISSED)
    Game.objects.filter(status=GameStatus.DISPUTED).update(status=GameStatus.VOID)
    assert "provisional" not in client.get(reverse("league:records_honours")).content.decode()


def test_the_organisers_page_asks_for_the_confirmation_in_their_name(
    client, disputed, season, league_admin
):
    client.force_login(league_admin)
    page = client.get(reverse("league:organise_season", args=[season.pk])).content.decode()
    assert "1 dispute is still open." in page and 'name="confirm"' in page
    client.post(
        reverse("league:organise_season_state", args=[season.pk]),
        {"move": "finish", "reason": "The bar closes"},
    )
    assert Season.objects.get(pk=season.pk).state == SeasonState.PUBLISHED
    client.post(
        reverse("league:organise_season_state", args=[season.pk]),
        {"move": "finish", "reason": "The bar closes", "confirm": "yes"},
    )
    assert Season.objects.get(pk=season.pk).state == SeasonState.FINISHED


def test_the_refusal_reads_in_french(client, disputed, season, league_admin):
    client.force_login(league_admin)
    page = client.post(
        reverse("league:organise_season_state", args=[season.pk]),
        {"move": "finish", "reason": "Fermeture"},
        headers={"accept-language": "fr"},
        follow=True,
    ).content.decode()
    assert "1 litige ouvert" in page and "résultat provisoire" not in page
