"""Brackets: the one seed order, byes to the top seeds, and a best-of-N match's end."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from contest import brackets


@given(st.integers(min_value=1, max_value=5000))
def test_the_bracket_is_the_smallest_power_of_two_that_holds_the_field(n):
    size = brackets.bracket_size(n)
    assert size & (size - 1) == 0 and size >= n and (size == 1 or size // 2 < n)


@given(st.integers(min_value=0, max_value=9))
def test_the_slot_order_places_every_seed_once_and_each_meets_its_mirror(power):
    size = 2**power
    order = brackets.slot_order(size)
    assert sorted(order) == list(range(1, size + 1))
    for i in range(0, size - 1, 2):
        assert order[i] + order[i + 1] == size + 1


@given(st.integers(min_value=1, max_value=9))
def test_the_better_seed_always_winning_the_top_seeds_meet_as_late_as_can_be(power):
    """Round after round the survivors are seeds 1..k, each meeting its mirror k+1-s, so 1 and
    2 meet only in the final and 1 to 4 only in the semi-finals."""
    field = brackets.slot_order(2**power)
    while len(field) > 1:
        k = len(field)
        assert all(field[i] + field[i + 1] == k + 1 for i in range(0, k, 2))
        field = [min(field[i], field[i + 1]) for i in range(0, k, 2)]
    assert field == [1]


@given(st.integers(min_value=2, max_value=600))
def test_byes_go_to_the_top_seeds_and_fill_the_second_round(n):
    pairs = brackets.bracket(n)
    size = brackets.bracket_size(n)
    assert len(pairs) == size // 2
    assert all(a is not None and (b is None or a < b) for a, b in pairs)
    assert sorted(s for p in pairs for s in p if s is not None) == list(range(1, n + 1))
    assert sorted(a for a, b in pairs if b is None) == list(range(1, size - n + 1))


def test_the_tournament_archive_formats_example():
    assert brackets.bracket(5) == [(1, None), (4, 5), (3, None), (2, None)]


@given(st.permutations(range(1, 9)), st.integers(min_value=5, max_value=8))
def test_a_stored_layout_in_any_order_keeps_its_pairs_in_its_slots(order, teams):
    """A bracket drawn in another order reads through ``pairings`` exactly as it was drawn."""
    pairs = brackets.pairings(order, teams)
    for slot, (a, b) in enumerate(pairs):
        drawn = sorted(order[2 * slot : 2 * slot + 2])
        assert a == drawn[0] and b == (drawn[1] if drawn[1] <= teams else None)


@given(
    st.sampled_from([1, 3, 5, 7]),
    st.lists(st.sampled_from("AB"), max_size=9),
)
def test_a_match_ends_the_moment_one_side_has_a_majority(best_of, games):
    need = brackets.wins_needed(best_of)
    assert need * 2 > best_of >= (need - 1) * 2
    winner = brackets.match_winner(games, best_of=best_of)
    for played in range(len(games) + 1):
        so_far = games[:played]
        leader = max("AB", key=so_far.count)
        if so_far.count(leader) >= need:
            assert winner == so_far[-1] == leader
            assert brackets.match_winner(games[: played - 1], best_of=best_of) is None
            break
    else:
        assert winner is None
