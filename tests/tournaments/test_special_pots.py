"""A club's special-hand pot: the hands that win it, its entry and whether an unclaimed pot
rolls over are the club's night settings; "Tonight" opens it (with what the club's last
night carried over); a hand on an entered card, or the director, fills it on the /direct/
payouts screen, and the ledger keeps every cent."""

from __future__ import annotations

import datetime as dt
import html

import pytest

from league.kernel.errors import ValidationFailed
from tests.tournaments.conftest import TRUSTED, game_with_a_29
from tournaments import selectors, services
from tournaments.models import LedgerKind, SidePotKind, TournamentStage

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]  # two qualify: a final


@pytest.fixture
def club(director):
    club = services.club_create(user=director, name="Crooked Peg")
    club.directors.add(director)
    return club


def _settings(client, club, **extra):
    """The club's night settings saved from its /direct/ page, a 29 or four of a kind pot at
    $2 that rolls over, unless ``extra`` says otherwise."""
    form = {
        "op": "defaults",
        "night_games": "1",
        "round_minutes": "20",
        "entry_fee": "5.00",
        "house_percent": "10",
        "pot_hands": ["29", "four_of_a_kind"],
        "pot_fee": "2.00",
        "pot_rolls_over": "on",
        **extra,
    }
    client.post(f"/direct/clubs/{club.pk}/", form)
    club.refresh_from_db()


def _tonight(director, club, day):
    night = services.night_tonight(user=director, club=club, date=dt.date(2026, 11, day))
    services.entrants_add(user=director, tournament=night, names=NAMES, check_in=True)
    return night


def _play_out(night):
    """One round (the first listed wins, loser on 100) and the playoffs, the top seed winning."""
    rnd = services.round_seat_next(user=TRUSTED, tournament=night)
    for g in rnd.games.select_related("first", "second"):
        services.scorecard_settle(user=TRUSTED, game=g, winner=g.first, loser_score=100)
    services.bracket_draw(user=TRUSTED, tournament=night)
    while m := night.playoff_matches.filter(
        winner__isnull=True, top__isnull=False, bottom__isnull=False
    ).first():
        services.playoff_game_record(user=TRUSTED, match=m, winner=m.top, loser_score=90)
    night.refresh_from_db()
    assert night.stage == TournamentStage.FINISHED


def _pay_and_close(night, director):
    services.fees_collect(user=director, tournament=night)
    services.payouts_record(user=director, tournament=night)
    services.night_close(user=director, tournament=night)


def _page(client, night):
    return html.unescape(client.get(f"/direct/nights/{night.pk}/").content.decode())


def test_the_clubs_settings_open_tonights_pot(client, club, director):
    client.force_login(director)
    _settings(client, club)
    assert (club.pot_hands, club.pot_fee, club.pot_rolls_over) == (
        ["29", "four_of_a_kind"],
        200,
        True,
    )
    night = _tonight(director, club, 20)
    pot = night.side_pots.get()
    assert (pot.kind, pot.hands, pot.fee, pot.rolls_over) == (
        SidePotKind.BIG_HAND,
        ["29", "four_of_a_kind"],
        200,
        True,
    )
    page = _page(client, night)
    assert "Won by a 29 hand, four of a kind" in page
    assert "rolls over to the club's next night if nobody wins it" in page
    # A hand that is not special is refused, naming it, and the settings stay as they were.
    _settings(client, club, pot_hands=["31"])
    assert club.pot_hands == ["29", "four_of_a_kind"]
    with pytest.raises(ValidationFailed, match="Not a special hand: 31"):
        services.club_defaults_set(user=director, club=club, changes={"pot_hands": ["31"]})


def test_a_29_on_a_card_fills_the_pot(client, club, director):
    client.force_login(director)
    _settings(client, club)
    night = _tonight(director, club, 20)
    pot = night.side_pots.get()
    services.side_pot_enter(user=director, pot=pot, entrants=list(night.entrants.all()))
    game = services.round_seat_next(user=TRUSTED, tournament=night).games.first()
    game = services.scorecard_enter(
        user=TRUSTED, game=game, side=game.first, deals=game_with_a_29()
    )[0]
    card = game.scorecards.get()
    services.scorecard_enter(
        user=TRUSTED, game=game, side=game.second, winner=card.winner, loser_score=card.loser_score
    )
    page = _page(client, night)
    assert "data-pot-from-cards" in page
    answer = client.post(
        f"/direct/nights/{night.pk}/", {"op": "pot_from_cards", "pot": pot.pk}, follow=True
    )
    assert "paid to the hand on the cards" in answer.content.decode()
    paid = [(e.entrant, e.amount) for e in pot.entries.filter(kind=LedgerKind.POT_PAYOUT)]
    assert paid == [(game.second, 1600)]  # seat 1 held the 29; eight entries of $2
    assert f"won by {game.second.name} ($16.00)" in _page(client, night)


def test_a_pot_the_cards_do_not_fill_is_refused_and_changes_nothing(club, director):
    services.club_defaults_set(
        user=director, club=club, changes={"entry_fee": 500, "pot_hands": ["24"], "pot_fee": 100}
    )
    night = _tonight(director, club, 20)
    pot = night.side_pots.get()
    services.side_pot_enter(user=director, pot=pot, entrants=list(night.entrants.all()))
    with pytest.raises(ValidationFailed, match="No card entered tonight holds a hand"):
        services.side_pot_award_from_cards(user=director, pot=pot)
    assert not pot.entries.filter(kind=LedgerKind.POT_PAYOUT).exists()


def test_the_director_awards_the_pot_by_hand(client, club, director):
    """A 24 nobody entered card by card: the director taps who held it, "They won it"."""
    client.force_login(director)
    _settings(client, club, pot_hands=["24"])
    night = _tonight(director, club, 20)
    pot = night.side_pots.get()
    ann, bob, cy, dee = (night.entrants.get(name=n) for n in NAMES[:4])
    url = f"/direct/nights/{night.pk}/"
    client.post(url, {"op": "pot_enter", "pot": pot.pk, "entrants": [ann.pk, bob.pk, cy.pk]})
    answer = client.post(url, {"op": "pot_award", "pot": pot.pk, "entrants": [dee.pk]})
    assert "Dee did not buy into" in html.unescape(
        client.get(answer.url).content.decode()
    )  # refused in words, nothing paid
    assert not pot.entries.filter(kind=LedgerKind.POT_PAYOUT).exists()
    client.post(url, {"op": "pot_award", "pot": pot.pk, "entrants": [bob.pk]})
    paid = [(e.entrant, e.amount) for e in pot.entries.filter(kind=LedgerKind.POT_PAYOUT)]
    assert paid == [(bob, 600)]
    assert "won by Bob ($6.00)" in _page(client, night)


def test_an_unclaimed_pot_rolls_over_to_the_clubs_next_night(client, club, director):
    client.force_login(director)
    _settings(client, club)
    first = _tonight(director, club, 20)
    pot = first.side_pots.get()
    services.side_pot_enter(user=director, pot=pot, entrants=list(first.entrants.all()))
    _play_out(first)
    _pay_and_close(first, director)  # nobody held a 29: the $16 leaves these books
    (out,) = pot.entries.filter(kind=LedgerKind.POT_CARRIED_OUT)
    assert out.amount == 1600 and selectors.books_for(first).balance == 0
    assert "Nobody won it: $16.00 rolls over to the club's next night" in _page(client, first)

    second = _tonight(director, club, 27)
    again = second.side_pots.get()
    (carried,) = again.entries.filter(kind=LedgerKind.POT_CARRIED_IN)
    assert (carried.amount, carried.carried_from) == (1600, out)
    assert "$16.00 carried over from the club's last night" in _page(client, second)
    ann, bob = (second.entrants.get(name=n) for n in ("Ann", "Bob"))
    services.side_pot_enter(user=director, pot=again, entrants=[ann, bob])
    services.side_pot_award(user=director, pot=again, winners=[ann])
    won = again.entries.get(kind=LedgerKind.POT_PAYOUT)
    assert (won.entrant, won.amount) == (ann, 1600 + 400)  # last week's $16, tonight's $4
    _play_out(second)
    _pay_and_close(second, director)  # the carried money came in and went out: it balances
    # A third night finds nothing more to carry: each rollover is taken up once.
    third = _tonight(director, club, 30)
    assert not third.ledger.filter(kind=LedgerKind.POT_CARRIED_IN).exists()


def test_a_pot_that_does_not_roll_over_must_be_paid_before_closing(club, director):
    services.club_defaults_set(
        user=director,
        club=club,
        changes={
            "entry_fee": 500,
            "pot_hands": ["28", "29"],
            "pot_fee": 100,
            "pot_rolls_over": False,
        },
    )
    night = _tonight(director, club, 20)
    services.side_pot_enter(
        user=director, pot=night.side_pots.get(), entrants=list(night.entrants.all())
    )
    _play_out(night)
    with pytest.raises(ValidationFailed, match=r"\$8\.00 more came in"):
        _pay_and_close(night, director)
    assert not night.ledger.filter(kind=LedgerKind.POT_CARRIED_OUT).exists()
