"""Win probability from the board: positions worked by hand, and the first dealer's edge."""

from __future__ import annotations

import pytest

from contest.winprob import (
    DEALER,
    PONE,
    DealDistributions,
    RecordedDeal,
    WinTable,
    distributions_from_deals,
    prior_distributions,
)


def fixed(
    dealer: dict[int, float], pone: dict[int, float], heels: float = 0.0
) -> DealDistributions:
    def dist(d: dict[int, float]) -> tuple[float, ...]:
        out = [0.0] * (max(d) + 1)
        for k, p in d.items():
            out[k] = p
        return tuple(out)

    return DealDistributions.totals(dist(dealer), dist(pone), heels=heels)


def test_a_side_at_120_with_the_deal_against_119_wins_only_on_his_heels():
    # The pone's side (at 120) always makes a point before the dealer's side counts: the
    # dealer's side (at 119) wins only when the starter is a jack (2 for his heels, first).
    table = WinTable.build(fixed({5: 1.0}, {3: 1.0}, heels=0.1), target=121)
    assert table.dealer_wins(119, 120) == pytest.approx(0.1)
    assert table.win_chances((119, 120), dealer_side=0) == pytest.approx((0.1, 0.9))


def test_a_side_at_120_with_the_deal_wins_when_the_other_cannot_reach_121_first():
    table = WinTable.build(prior_distributions("partnership-121"), target=121)
    assert table.dealer_wins(120, 0) == pytest.approx(1.0)
    # the other side at 120 without the deal: it goes out first unless it makes nothing
    assert table.dealer_wins(0, 120) == pytest.approx(0.0, abs=1e-9)
    # one point needed by the pone's side, two by the dealer's: his heels, or the pone's side
    # makes nothing in the play and the dealer's side pegs two or more
    d = table.distributions
    (_, pone_peg), (_, dealer_peg) = d.stages[:2]
    at_least = d.heels + (1 - d.heels) * pone_peg[0] * sum(dealer_peg[2:])
    assert table.dealer_wins(119, 120) >= at_least > d.heels


def test_a_tiny_game_worked_by_hand():
    # Game to 2; every deal the pone's side makes 1 and then the dealer's side 1. From 0-0 the
    # first dealer reaches 1-1 and passes the deal; the new pone (the first dealer) goes out.
    table = WinTable.build(fixed({1: 1.0}, {1: 1.0}), target=2)
    assert table.dealer_wins(1, 1) == 0.0
    assert table.dealer_wins(0, 0) == 1.0


def test_deals_where_nobody_scores_are_solved_not_looped():
    # Half the deals score nothing for anyone: the deal only passes. At 0-0 the first dealer's
    # chance p satisfies p = 1/2 * 1 + 1/2 * (1 - p) with the tiny game above: p = 2/3.
    table = WinTable.build(fixed({0: 0.5, 1: 0.5}, {0: 0.5, 1: 0.5}), target=1)
    # target 1: the pone wins with a point (1/2); else the dealer with a point (1/4); else
    # the deal passes: p = 1/4 + 1/4 * (1 - p), so p = 2/5
    assert table.dealer_wins(0, 0) == pytest.approx(2 / 5)


@pytest.mark.parametrize("variant", ["singles-121", "partnership-121", "five-card-61"])
def test_the_first_dealer_is_the_favourite_at_0_0(variant):
    target = 61 if variant == "five-card-61" else 121
    table = WinTable.build(prior_distributions(variant), target=target)
    assert 0.5 < table.dealer_wins(0, 0) < 0.62


def test_equal_deals_near_the_end_favour_the_pone_who_counts_first():
    same = {k: 1 / 11 for k in range(5, 16)}
    table = WinTable.build(fixed(same, same), target=121)
    assert table.dealer_wins(111, 111) < 0.5
    # the same position seen from either side adds up to one
    a, b = table.win_chances((111, 111), dealer_side=1)
    assert a > 0.5 and a + b == pytest.approx(1.0)


def test_chances_rise_with_a_side_s_own_score():
    table = WinTable.build(prior_distributions("partnership-121"), target=121)
    for pone in (0, 60, 110):
        row = [table.dealer_wins(d, pone) for d in range(0, 121, 10)]
        assert row == sorted(row)


def test_recorded_deals_outweigh_the_prior():
    deals = [RecordedDeal(4, 3, dealer_hands=(10, 10), pone_hands=(6, 6), crib=0)] * 2970
    d = distributions_from_deals("partnership-121", deals)
    assert d.samples == 2970
    # every part is 99% the recorded one: the dealer's side makes 4 + 10 + 10 + 0 = 24
    assert 0.99**4 <= d.side(DEALER)[24] < 1.0
    assert d.mean("dealer") == pytest.approx(24, abs=0.3)
    assert d.heels == pytest.approx(30 * 4 / 52 / 3000)
    assert sum(d.side(DEALER)) == pytest.approx(1.0) and sum(d.side(PONE)) == pytest.approx(1.0)


def test_the_deal_is_counted_in_the_partnership_order():
    d = prior_distributions("partnership-121")
    # the play (pone's side, dealer's), then the dealer's left, partner, right, dealer, crib
    assert [who for who, _ in d.stages] == [PONE, DEALER, PONE, DEALER, PONE, DEALER, DEALER]


def test_the_last_deal_s_parts_count_as_far_as_they_went():
    # a last deal that ended in the first show: no play sample missing, one show, no crib
    cut = RecordedDeal(5, 2, dealer_hands=(), pone_hands=(24,), crib=None)
    d = distributions_from_deals("partnership-121", [cut] * 1000, prior_deals=0)
    (_, pone_peg), (_, dealer_peg), (_, pone_hand) = d.stages[:3]
    assert pone_peg[2] == dealer_peg[5] == pone_hand[24] == 1.0


def test_three_sides_are_not_modelled():
    with pytest.raises(ValueError, match="two"):
        prior_distributions("three-player-121")
