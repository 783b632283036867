"""A night's special hands come from the cards entered deal by deal and show on the
director's money page, beside the side pots they are paid from."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.conftest import TRUSTED, game_with_a_29, user_of
from tournaments import acc_reports, services


def test_a_29_entered_with_its_cards_is_named_for_the_pot(client, night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.order_by("table").first()
    game = services.scorecard_submit(user=user_of(game.first), game=game, deals=game_with_a_29())
    services.scorecard_enter(
        user=user_of(game.second),
        game=game,
        winner=game.winner or game.second,
        loser_score=game.scorecards.get().loser_score,
    )
    found = acc_reports.special_hands_of(night)
    assert [(h["entrant"].pk, h["round"], h["table"], h["deal"], h["points"]) for h in found] == [
        (game.second_id, 1, game.table, 1, 29)
    ]
    assert found[0]["kinds"] == ("29", "four_of_a_kind")
    services.purse_set(user=TRUSTED, tournament=night, entry_fee=500)
    client.force_login(director)
    html = client.get(reverse("tournaments:money", args=[night.pk])).content.decode()
    assert html.count("data-special-hand") == 1
    assert (
        f"{game.second.name}: a 29 hand, four of a kind (round 1, table {game.table}, deal 1)"
        in html
    )
    french = client.get(
        reverse("tournaments:money", args=[night.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "une main de 29, un carré" in french


def test_a_card_without_cards_names_nothing(night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.order_by("table").first()
    for side in (game.first, game.second):
        services.scorecard_enter(user=user_of(side), game=game, winner=game.first, loser_score=90)
    assert acc_reports.special_hands_of(night) == []


def _night_with_a_29(night, director):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.order_by("table").first()
    game = services.scorecard_submit(user=user_of(game.first), game=game, deals=game_with_a_29())
    card = game.scorecards.get()
    services.scorecard_enter(
        user=user_of(game.second), game=game, winner=card.winner, loser_score=card.loser_score
    )
    services.purse_set(user=TRUSTED, tournament=night, entry_fee=500)
    pot = services.side_pot_set(user=TRUSTED, tournament=night, kind="big_hand", fee=200)
    return game, pot


def test_the_big_hand_pot_is_paid_to_the_hand_on_the_cards(client, night, director, field):
    from league.kernel.errors import ValidationFailed
    from tournaments.models import LedgerKind

    game, pot = _night_with_a_29(night, director)
    holder, other = game.second, game.first
    services.side_pot_enter(user=TRUSTED, pot=pot, entrants=[other])
    with pytest.raises(ValidationFailed, match="did not buy into"):
        services.side_pot_award_from_cards(user=director, pot=pot)
    assert not pot.entries.filter(kind=LedgerKind.POT_PAYOUT).exists()
    services.side_pot_enter(user=TRUSTED, pot=pot, entrants=[holder])
    client.force_login(director)
    url = reverse("tournaments:money", args=[night.pk])
    assert "data-pot-from-cards" in client.get(url).content.decode()
    page = client.post(url, {"op": "pot_from_cards", "pot": pot.pk}, follow=True)
    assert "paid to the hand on the cards" in page.content.decode()
    paid = pot.entries.filter(kind=LedgerKind.POT_PAYOUT)
    assert [(e.entrant_id, e.amount) for e in paid] == [(holder.pk, 400)]  # both entries


def test_the_skunk_pot_is_not_won_by_a_hand(night, director, field):
    from league.kernel.errors import ValidationFailed

    _night_with_a_29(night, director)
    skunk = services.side_pot_set(user=TRUSTED, tournament=night, kind="skunk", fee=100)
    with pytest.raises(ValidationFailed, match="not won by a hand"):
        services.side_pot_award_from_cards(user=director, pot=skunk)
