"""Luck that means luck on a player's page: the luck of the cut, and, where the player recorded
the cards they were dealt, their discard skill, with a sentence saying that points above
expectation mostly measured discarding. The figures of the hand-built hand are worked by hand."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.urls import reverse

from league.models import DealtCards
from league.selectors.discards import discards_of
from league.selectors.luck import luck_by_season
from league.services.discards import dealt_hand_record, discards_share_set
from league.services.games import game_confirm
from scoring.cards import Card
from scoring.discard import analyse_discards
from scoring.variants import get_variant
from tests.factories import play

# Cat deals (seat 1), so the crib is the other side's. Ann (seat 0) is dealt AC 3D 9H KS 5C and
# lays the 5C away to Cat's crib, keeping AC 3D 9H KS (values 1, 3, 9, 10: no fifteen, pair, run
# or flush of its own). The starter is the 2H: 2+3+10 and 2+1+3+9 are fifteens (4) and A-2-3 a
# run (3): a show of 7.
#
# Her show over every starter, by rank:
#   A: pair, 1+1+3+10 -> 4         2: two fifteens, run A-2-3 -> 7    3: 3+3+9, pair -> 4
#   4: 4+1+10 -> 2                 5: 5+10, 5+1+9 -> 4                6: 6+9 -> 2
#   7, 8: nothing -> 0             9: pair -> 2                       10, J, Q: 0
#   K: pair -> 2
# Cards of each rank among the starters she could not see (A, 3, 9, K: 3 each; 5: 3, the 5C laid
# away; the rest 4): 12 + 28 + 12 + 8 + 12 + 8 + 6 + 6 = 92 over 47 starters. Without the cards
# dealt, the 5C is among the 48 starters: 96 over 48, an average of 2.
SEEN_TOTAL, UNSEEN_TOTAL = 92, 96
KEPT = ["AC", "3D", "9H", "KS"]
DEALT = [*KEPT, "5C"]


def _row(**changes):
    season = SimpleNamespace(pk=1, game_variant=get_variant("partnership-121"))
    row = {
        "points": 7,
        "player": "Ann",
        "player_id": 1,
        "crib": False,
        "cards": KEPT,
        "starter": "2H",
        "game_id": 10,
        "deal": 1,
        "seat": 0,
        "dealer": 1,
        "match": SimpleNamespace(week=SimpleNamespace(season=season)),
    }
    return {**row, **changes}


def test_without_the_cards_dealt_the_cut_is_over_the_48_unseen_cards_and_no_discard_skill():
    [season] = luck_by_season([_row()])
    assert season.luck.cut == pytest.approx(7 - UNSEEN_TOTAL / 48)  # 5.0
    assert season.luck.discard_shows == 0 and season.luck.discard == 0.0


def test_with_the_cards_dealt_the_cut_leaves_out_the_card_laid_away():
    [season] = luck_by_season([_row()], dealt={(10, 1, 0): DEALT})
    assert season.luck.cut == pytest.approx(7 - SEEN_TOTAL / 47)  # 5.042...
    assert season.luck.discard_shows == 1
    # the discard skill is minus the discard's cost against the best discard of the same cards
    # (the exact expectations, checked exhaustively in tests/scoring/test_discard.py)
    rows = analyse_discards([Card.from_str(c) for c in DEALT], variant="partnership-121",
                            own_crib=False)  # fmt: skip
    chosen = next(r for r in rows if [str(c) for c in r.discard] == ["5C"])
    assert season.luck.discard == pytest.approx(chosen.total - rows[0].total)
    assert season.luck.discard < 0  # a five in the other side's crib is not the best


def test_a_crib_and_a_show_of_another_deal_are_not_split():
    crib = _row(crib=True, cards=["AC", "3D", "9H", "KS"], seat=0)
    other = _row(deal=2)
    [season] = luck_by_season([crib, other], dealt={(10, 1, 0): DEALT})
    assert season.luck.discard_shows == 0
    assert season.luck.cut_shows == 2


@pytest.fixture
def recorded(game, ann, match):
    league = game.match.week.season.league
    league.dealt_cards = DealtCards.ALLOWED
    league.save()
    played = play(game, ann, cards=True)
    game_confirm(game=played, user=match.away.captain.user)
    deal = played.deals.get(number=1, is_current=True)
    dealt_hand_record(
        user=ann, game=played, number=1, cards=" ".join([*deal.cards["0"], deal.cards["crib"][0]])
    )
    return played


def test_the_player_page_shows_the_split_to_the_player_and_to_all_once_shared(
    client, recorded, ann, home_team
):
    url = reverse("league:player", args=[home_team.captain.pk])
    [row] = discards_of(ann.player).rows
    figure = f"{-row.cost:.1f}" if row.cost >= 0.05 else "0.0"
    visitor = client.get(url).content.decode()
    assert "mostly measured how well the cards were discarded" in visitor
    assert "(1 deal with the cards dealt)" not in visitor  # private until she shares
    client.force_login(ann)
    own = client.get(url).content.decode()
    assert "Discard skill" in own and "(1 deal with the cards dealt)" in own
    assert f"{figure} <small" in own
    discards_share_set(user=ann, player=ann.player, share=True)
    client.logout()
    shared = client.get(url).content.decode()
    assert "(1 deal with the cards dealt)" in shared
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Habileté aux écarts" in french and "mesuraient surtout" in french
