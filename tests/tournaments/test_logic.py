"""The pure rules of a tournament: the cut, the bracket, seating and standings."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contest import brackets
from contest.draw import draw_ticket
from tournaments import logic
from tournaments.logic import Result, TournamentRules

# -- the cut and the bracket, every field from 4 to 300 ----------------------------------------


def _winner_of_slot(pair):
    return pair[0]  # the better seed wins every match: who meets whom follows from the order


@pytest.mark.parametrize("field", range(4, 301))
def test_the_cut_and_the_bracket_hold_for_every_field_size(field):
    q = logic.qualifier_count(field, one_in=4)
    assert q == math.ceil(field / 4)
    assert q * 4 >= field > (q - 1) * 4  # one in four, fraction rounded up, never more
    size = brackets.bracket_size(q)
    assert (size >= q and size < 2 * q) or size == 1
    slots = brackets.bracket(q)
    if q == 1:  # four entrants or fewer: the one qualifier is the champion, alone in its slot
        assert slots == [(1, None)]
        return
    assert len(slots) == size // 2
    seeds = [s for pair in slots for s in pair if s is not None]
    assert sorted(seeds) == list(range(1, q + 1))  # every qualifier once
    byes = [a for a, b in slots if b is None]
    assert sorted(byes) == list(range(1, size - q + 1))  # the top seeds get the byes
    for a, b in slots:
        if b is not None:
            assert a + b == size + 1  # seed i meets seed S+1-i
    # the second round is full: every slot sends one entrant on
    second = [_winner_of_slot(p) for p in slots]
    assert len(second) == size // 2 and None not in second
    # seeds 1 and 2 in opposite halves; 1..4 in different quarters
    if size == 2:
        assert slots == [(1, 2)]  # two qualifiers: the final itself
    if size >= 4:
        half = len(slots) // 2
        top = {s for p in slots[:half] for s in p}
        assert 1 in top and 2 not in top
    if size >= 8:
        quarter = len(slots) // 4
        quarters = [
            {s for p in slots[i : i + quarter] for s in p} for i in range(0, len(slots), quarter)
        ]
        for seed in range(1, min(q, 4) + 1):
            assert sum(seed in part for part in quarters) == 1
        assert all(sum(s in part for s in range(1, 5)) <= 1 for part in quarters)


def test_the_formats_examples():
    assert logic.qualifier_count(17, one_in=4) == 5
    assert {logic.qualifier_count(n, one_in=4) for n in range(121, 125)} == {31}
    assert brackets.bracket(5) == [(1, None), (4, 5), (3, None), (2, None)]
    assert brackets.bracket(16)[:2] == [(1, 16), (8, 9)]


def test_the_best_seeds_meet_only_as_late_as_the_bracket_allows():
    size = 32
    slots = brackets.bracket(size)
    field = [s for p in slots for s in p]
    while len(field) > 2:
        field = [min(field[i], field[i + 1]) for i in range(0, len(field), 2)]
    assert field == [1, 2]


# -- seating --------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=61))
def test_the_circle_method_never_repeats_an_opponent_within_n_minus_1_rounds(n):
    field = list(range(n))
    m = n + (n % 2)
    pairs = Counter()
    bye_count = Counter()
    met: dict = {}
    for index in range(m - 1):
        seating = logic.seat_round(field, index=index, met=met, byes=bye_count)
        seated = [e for t in seating.tables for e in t]
        if seating.bye is not None:
            seated.append(seating.bye)
            # nobody gets a second bye before everyone has had one
            assert bye_count[seating.bye] == min(bye_count[e] for e in field)
            bye_count[seating.bye] += 1
        assert sorted(seated) == field  # everyone plays or sits out, once
        assert len(seating.tables) == n // 2
        for a, b in seating.tables:
            pairs[frozenset((a, b))] += 1
            met.setdefault(a, Counter())[b] += 1
            met.setdefault(b, Counter())[a] += 1
    assert max(pairs.values()) == 1
    if n % 2:  # an odd field plays n rounds without a repeat, and everyone sits out once
        assert sorted(bye_count.values()) == [1] * n


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=5, max_value=40),
    st.integers(min_value=1, max_value=6),
    st.data(),
)
def test_a_field_that_changes_between_rounds_still_spreads_byes_and_avoids_repeats(n, rounds, data):
    field = list(range(n))
    met: dict = {}
    byes = Counter()
    nxt = n
    for index in range(rounds):
        change = data.draw(st.sampled_from(["none", "add", "withdraw"]))
        if change == "add":
            field.append(nxt)
            nxt += 1
        elif change == "withdraw" and len(field) > 4:
            field.pop(data.draw(st.integers(0, len(field) - 1)))
        seating = logic.seat_round(field, index=index, met=met, byes=byes)
        seated = sorted(
            [e for t in seating.tables for e in t]
            + ([seating.bye] if seating.bye is not None else [])
        )
        assert seated == sorted(field)
        if seating.bye is not None:
            assert byes[seating.bye] == min(byes[e] for e in field)
            byes[seating.bye] += 1
        # While everyone still has unmet opponents in at least half the field, a pairing
        # without a repeat exists (Dirac), and the seating finds it.
        pool = len(field) - (seating.bye is not None)
        for a, b in seating.tables:
            if index <= pool // 2 - 1:
                assert not met.get(a, {}).get(b), (a, b, index)
            met.setdefault(a, Counter())[b] += 1
            met.setdefault(b, Counter())[a] += 1


def test_tables_are_numbered_in_order_and_the_odd_one_out_has_the_bye():
    seating = logic.seat_round(["A", "B", "C", "D", "E"], index=0)
    assert len(seating.tables) == 2 and seating.bye is not None


# -- points and standings -------------------------------------------------------------------


def test_game_points_follow_the_acc_table():
    r = TournamentRules()
    assert logic.game_points(r, winner=True, loser_score=91) == 2  # margin 30
    assert logic.game_points(r, winner=True, loser_score=90) == 3  # margin 31: skunk
    assert logic.game_points(r, winner=True, loser_score=10) == 3  # double skunk, same
    assert logic.game_points(r, winner=False, loser_score=10) == 0


def test_loser_score_must_be_below_the_target():
    r = TournamentRules()
    with pytest.raises(ValueError, match="0 to 120"):
        logic.check_loser_score(r, 121)
    with pytest.raises(ValueError):
        logic.check_loser_score(r, -1)
    with pytest.raises(ValueError):
        logic.check_loser_score(r, "90")
    assert logic.check_loser_score(r, 0) == 0


def test_unknown_tiebreak_is_refused():
    with pytest.raises(logic.RulesError, match="Unknown tie-break"):
        TournamentRules(tiebreaks=("coin",))


def test_standings_count_spread_skunks_and_byes():
    r = TournamentRules()
    recs = logic.records(
        r,
        ["Ann", "Bob", "Cy"],
        [Result("Ann", "Bob", "Ann", 95), Result("Bob", "Cy", "Bob", 80)],
        ["Cy"],
    )
    assert recs["Ann"].game_points == 2 and recs["Ann"].spread == 26
    assert (
        recs["Bob"].game_points == 3 and recs["Bob"].skunks == 1 and recs["Bob"].spread == 41 - 26
    )
    assert recs["Cy"].played == 2 and recs["Cy"].won == 1 and recs["Cy"].game_points == 2
    assert recs["Cy"].spread == -41


def test_entrants_level_before_the_draw_share_a_rank_and_the_draw_orders_them():
    r = TournamentRules()
    recs = logic.records(
        r, ["A", "B", "C", "D"], [Result("A", "B", "A", 100), Result("C", "D", "C", 100)]
    )
    ranked = logic.rank(r, recs.values(), draw_seed=7)
    assert [s.rank for s in ranked] == [1, 1, 3, 3]
    winners = [s.record.entrant for s in ranked[:2]]
    assert sorted(winners) == ["A", "C"]
    tickets = [draw_ticket(7, w) for w in winners]
    assert tickets == sorted(tickets, reverse=True)
    again = logic.rank(r, list(recs.values())[::-1], draw_seed=7)
    assert [s.record.entrant for s in again] == [s.record.entrant for s in ranked]


def test_tiebreaks_apply_in_the_configured_order():
    r = TournamentRules(tiebreaks=("spread", "games_won", "draw"))
    recs = {
        "A": logic.EntrantRecord("A", played=2, won=1, lost=1, game_points=3, skunks=1, spread=10),
        "B": logic.EntrantRecord("B", played=2, won=2, lost=0, game_points=3, skunks=0, spread=5),
    }
    assert [s.record.entrant for s in logic.rank(r, recs.values(), draw_seed=1)] == ["A", "B"]
    r2 = TournamentRules(tiebreaks=("games_won", "spread"))
    assert [s.record.entrant for s in logic.rank(r2, recs.values(), draw_seed=1)] == ["B", "A"]


def test_a_match_ends_at_a_majority():
    assert brackets.match_winner(["A", "B"], best_of=3) is None
    assert brackets.match_winner(["A", "B", "A"], best_of=3) == "A"
    assert brackets.match_winner(["A", "A", "A"], best_of=5) == "A"
    assert brackets.wins_needed(5) == 3


# --------------------------------------------------------------------------------------------
# After the night: payouts and club-season points
# --------------------------------------------------------------------------------------------


@given(fund=st.integers(0, 10_000_000), entrants=st.integers(1, 300))
def test_the_default_payout_pays_the_whole_fund_to_about_the_top_quarter(fund, entrants):
    amounts = logic.payout_amounts(fund, mode="percent", table=[], entrants=entrants)
    assert len(amounts) == logic.qualifier_count(entrants, one_in=4)
    assert sum(amounts) == fund
    assert amounts == sorted(amounts, reverse=True)  # a better place is never paid less


@given(
    fund=st.integers(0, 10_000_000),
    cuts=st.lists(st.integers(1, 99), min_size=0, max_size=6, unique=True),
)
def test_a_percent_table_making_100_pays_the_whole_fund_to_the_cent(fund, cuts):
    points = sorted({0, 100, *cuts})
    table = [b - a for a, b in itertools.pairwise(points)]
    amounts = logic.payout_amounts(fund, mode="percent", table=table)
    assert sum(amounts) == fund and len(amounts) == len(table)


@given(
    places=st.lists(st.integers(1, 12), min_size=1, max_size=12),
    amounts=st.lists(st.integers(0, 100_000), min_size=1, max_size=12),
)
def test_shared_places_split_exactly_what_their_places_pay(places, amounts):
    names = {f"e{i}": p for i, p in enumerate(places)}
    paid = logic.payouts_by_entrant(names, amounts)
    for place in set(places):
        group = [n for n, p in names.items() if p == place]
        pool = sum(amounts[place - 1 : place - 1 + len(group)])
        shares = [paid.get(n, 0) for n in group]
        assert sum(shares) == pool and max(shares) - min(shares) <= 1


@given(
    nights=st.lists(st.dictionaries(st.integers(1, 8), st.integers(0, 30), max_size=8), max_size=5)
)
def test_a_season_table_totals_its_nights_and_ties_share_a_rank(nights):
    names = {k: f"P{k}" for k in range(1, 9)}
    rows = logic.season_table(nights, names)
    assert {r.key for r in rows} == {k for n in nights for k in n}
    for r in rows:
        assert r.total == sum(n[r.key] for n in nights if r.key in n)
        assert r.attended == sum(1 for n in nights if r.key in n)
        level = [o for o in rows if o.total == r.total]
        assert {o.rank for o in level} == {r.rank}
        assert sorted(r.tied_with) == sorted(o.name for o in level if o is not r)
        assert r.rank == 1 + sum(1 for o in rows if o.total > r.total)
