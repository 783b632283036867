"""Your discards, deal by deal: a player records the cards they were dealt, where the league
allows it, and sees what their discard cost against the best; nobody else sees it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.kernel.errors import NotAllowed, ValidationFailed
from league.models import DealtCards, DealtHand
from league.selectors.discards import discards_of
from league.services.discards import dealt_hand_record
from scoring.discard import analyse_discards
from tests.factories import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def allowed(game):
    league = game.match.week.season.league
    league.dealt_cards = DealtCards.ALLOWED
    league.save()
    return game


@pytest.fixture
def dealt(allowed, ann):
    """Deal 1 entered with its cards; Ann (seat 0, dealing) was dealt her show and a crib card."""
    play(allowed, ann, deals=1, cards=True)
    deal = allowed.deals.get(number=1, is_current=True)
    return [*deal.cards["0"], deal.cards["crib"][0]]


def test_a_player_records_her_dealt_cards_and_sees_the_discards_cost(allowed, ann, dealt):
    dealt_hand_record(user=ann, game=allowed, number=1, cards=" ".join(dealt))
    summary = discards_of(ann.player, season=allowed.match.week.season)
    (row,) = summary.rows
    rows = analyse_discards(dealt, variant="partnership-121", own_crib=True)  # Ann deals
    chosen = next(r for r in rows if sorted(map(str, r.keep)) == sorted(row.kept))
    assert row.cost == pytest.approx(rows[0].total - chosen.total)
    assert summary.cost_per_deal == pytest.approx(row.cost)


def test_a_league_that_keeps_it_off_refuses(game, ann):
    play(game, ann, deals=1, cards=True)
    with pytest.raises(NotAllowed, match="does not record the cards dealt"):
        dealt_hand_record(user=ann, game=game, number=1, cards="5H 5D 5S JC 2D")
    assert not DealtHand.objects.exists()


def test_only_a_player_of_the_game_records(allowed, eve, dealt):
    with pytest.raises(NotAllowed, match="Only a player of this game"):
        dealt_hand_record(user=eve, game=allowed, number=1, cards=" ".join(dealt))


def test_cards_that_disagree_with_the_deal_are_refused(allowed, ann, dealt):
    deal = allowed.deals.get(number=1, is_current=True)
    someone_elses = deal.cards["1"][0]
    with pytest.raises(ValidationFailed, match="not dealt to you"):
        dealt_hand_record(
            user=ann, game=allowed, number=1, cards=" ".join([*dealt[:4], someone_elses])
        )
    seen = {c for hand in deal.cards.values() for c in hand} | {deal.starter}
    unseen = next(c for c in ("AS", "2S", "3S", "4S", "5S", "6S", "7S") if c not in seen)
    with pytest.raises(ValidationFailed, match="not all among the cards dealt"):
        dealt_hand_record(user=ann, game=allowed, number=1, cards=" ".join([*dealt[1:], unseen]))
    with pytest.raises(ValidationFailed, match="Deal 2 is not entered yet"):
        dealt_hand_record(user=ann, game=allowed, number=2, cards=" ".join(dealt))


def test_the_summary_is_private_to_the_player(client, allowed, ann, cat, dealt):
    dealt_hand_record(user=ann, game=allowed, number=1, cards=" ".join(dealt))
    client.force_login(ann)
    mine = client.get(reverse("league:my_discards")).content.decode()
    assert "Your discards cost you" in mine and dealt[0] in mine
    assert reverse("league:game_dealt", args=[allowed.pk]) in mine  # where to record next
    client.force_login(cat)
    theirs = client.get(reverse("league:my_discards")).content.decode()
    assert "Your discards cost you" not in theirs and "You have not recorded" in theirs


def test_the_game_page_form_records_with_the_picker(client, allowed, ann, dealt):
    client.force_login(ann)
    url = reverse("league:game_dealt", args=[allowed.pk])
    page = client.get(url).content.decode()
    assert "data-card-picker" in page and 'data-card-count="5"' in page
    response = client.post(url, {"number": 1, "cards": " ".join(dealt)})
    assert response.status_code == 302
    assert DealtHand.objects.get().cards == dealt
    refused = client.post(url, {"number": 1, "cards": "5H"}).content.decode()
    assert "This game deals 5 cards, not 1." in refused


def test_a_league_admin_turns_it_on_and_it_is_audited(game, admin_user):
    from league.models import AuditEntry
    from league.services.rules import league_update

    league = game.match.week.season.league
    league_update(league=league, user=admin_user, changes={}, dealt_cards="asked")
    league.refresh_from_db()
    assert league.dealt_cards == DealtCards.ASKED
    assert AuditEntry.objects.filter(after__dealt_cards="asked").exists()
    with pytest.raises(ValidationFailed, match="off, allowed or asked"):
        league_update(league=league, user=admin_user, changes={}, dealt_cards="always")


def test_the_summary_reads_in_french(client, allowed, ann, dealt):
    dealt_hand_record(user=ann, game=allowed, number=1, cards=" ".join(dealt))
    client.force_login(ann)
    page = client.get(reverse("league:my_discards"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Vos écarts vous ont coûté" in page and "Vos écarts, donne par donne" in page


# --- Sharing, and the season's table of the best discarders ------------------------------------


def test_sharing_is_the_players_own_choice_and_is_audited(allowed, ann, cat):
    from league.models import AuditEntry
    from league.services.discards import discards_share_set

    player = ann.player
    with pytest.raises(NotAllowed, match="Only the player chooses"):
        discards_share_set(user=cat, player=player, share=True)
    discards_share_set(user=ann, player=player, share=True)
    player.refresh_from_db()
    assert player.shares_discards
    entry = AuditEntry.objects.get(action="discards_share")
    assert (entry.before, entry.after) == ({"shares_discards": False}, {"shares_discards": True})
    discards_share_set(user=ann, player=player, share=True)  # no change: no second entry
    assert AuditEntry.objects.filter(action="discards_share").count() == 1


def test_the_toggle_on_the_players_page_shares_and_stops(client, allowed, ann, dealt):
    dealt_hand_record(user=ann, game=allowed, number=1, cards=" ".join(dealt))
    client.force_login(ann)
    url = reverse("league:my_discards")
    assert "Share my discards" in client.get(url).content.decode()
    assert client.post(url, {"share": "1"}).status_code == 302
    ann.player.refresh_from_db()
    assert ann.player.shares_discards
    page = client.get(url).content.decode()
    assert "Stop sharing" in page
    assert reverse("league:discarders", args=[allowed.match.week.season_id]) in page
    client.post(url, {"share": "0"})
    ann.player.refresh_from_db()
    assert not ann.player.shares_discards


@pytest.fixture
def whole_game(allowed, ann, match):
    """A whole game entered with its cards; Ann and Bob each recorded what they were dealt in
    every deal (Bob through Ann, his captain, entering the deals)."""
    from league.services.games import game_confirm

    play(allowed, ann, cards=True)
    game_confirm(game=allowed, user=match.away.captain.user)
    crib_index = {0: 0, 2: 2}  # each seat's crib card: any card of the crib passes the check
    for deal in allowed.deals.filter(is_current=True, is_rival=False):
        if not deal.cards or "crib" not in deal.cards:
            continue
        for seat in (0, 2):
            if str(seat) not in deal.cards:
                continue
            cards = [*deal.cards[str(seat)], deal.cards["crib"][crib_index[seat]]]
            dealt_hand_record(
                user=ann, game=allowed, number=deal.number, cards=" ".join(cards), seat=seat
            )
    return allowed


def test_the_table_lists_only_those_who_share_with_enough_deals(client, whole_game, ann):
    from league.models import Player
    from league.selectors.discards import best_discarders
    from league.services.discards import discards_share_set

    season = whole_game.match.week.season
    bob = Player.objects.get(name="Bob")
    ann_cost = discards_of(ann.player, season=season)
    bob_cost = discards_of(bob, season=season)
    assert len(ann_cost.counted) >= 3 and len(bob_cost.counted) >= 3
    url = reverse("league:discarders", args=[season.pk])
    assert best_discarders(season, minimum=1) == []  # nobody shares yet
    assert "Nobody is listed yet" in client.get(url).content.decode()
    discards_share_set(user=ann, player=ann.player, share=True)
    [row] = best_discarders(season, minimum=1)
    assert row.player == ann.player and row.deals == len(ann_cost.counted)
    assert row.cost_per_deal == pytest.approx(ann_cost.cost_per_deal)
    # the minimum number of deals is said on the page and keeps a short record out
    assert best_discarders(season, minimum=len(ann_cost.counted) + 1) == []
    page = client.get(url).content.decode()
    assert "at least 10 deals" in page and "never counts in the standings" in page
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Les meilleurs écarteurs" in french and "au moins 10" in french


def test_bob_s_cards_recorded_by_his_captain_are_his_and_nobody_else_s(whole_game, ann):
    from league.models import Player

    bob = Player.objects.get(name="Bob")
    assert DealtHand.objects.filter(seat=2).exclude(player=bob).count() == 0
    assert all(r.hand.seat == 0 for r in discards_of(ann.player).rows)


def test_the_table_never_reaches_the_standings(client, whole_game, ann):
    from league.services.discards import discards_share_set

    discards_share_set(user=ann, player=ann.player, share=True)
    season = whole_game.match.week.season
    standings = client.get(reverse("league:standings", args=[season.pk])).content.decode()
    assert "discarders" not in standings.lower()


def test_the_table_page_s_queries_do_not_grow_with_its_players(
    client, whole_game, ann, django_assert_max_num_queries
):
    from django.contrib.auth import get_user_model

    from league.models import Player
    from league.selectors.discards import best_discarders
    from league.services.discards import discards_share_set

    season = whole_game.match.week.season
    discards_share_set(user=ann, player=ann.player, share=True)
    url = reverse("league:discarders", args=[season.pk])
    client.get(url)
    with django_assert_max_num_queries(8) as one:
        client.get(url)
    bob = Player.objects.get(name="Bob")
    if bob.user is None:
        bob.user = get_user_model().objects.create_user("bob-d", password="x")
        bob.save()
    discards_share_set(user=bob.user, player=bob, share=True)
    assert {r.player.name for r in best_discarders(season, minimum=1)} == {"Ann", "Bob"}
    with django_assert_max_num_queries(len(one.captured_queries)):
        client.get(url)
