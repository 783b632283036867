"""Double elimination, against paths worked by hand on 4, 6, 8 and 16 entrants: who meets whom
in each bracket, where a loser drops, byes behind the top seeds, the grand final and its reset
game, and the places; then every random path on fields of 2 to 40."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contest import brackets
from contest.double_elimination import (
    BYE,
    DECIDED,
    EMPTY,
    FINAL,
    LOSERS,
    NOBODY,
    READY,
    UNNEEDED,
    WAITING,
    WINNERS,
    Key,
    best_of,
    layout,
    play,
)


def key(label: str) -> Key:
    """``W2-1`` -> the winners' round 2, first match; ``F2`` -> the reset game."""
    side = {"W": WINNERS, "L": LOSERS, "F": FINAL}[label[0]]
    if side == FINAL:
        return Key(FINAL, int(label[1:]), 0)
    rnd, pos = label[1:].split("-")
    return Key(side, int(rnd), int(pos) - 1)


def run(entrants: int, path: list[tuple[str, int, int, int]], *, reset: bool = True):
    """Play ``path`` in order, each step (match, top, bottom, winner): before each result
    the match must be ready with exactly those two entrants, top and bottom."""
    results: dict[Key, int] = {}
    for label, top, bottom, winner in path:
        state = play(entrants, results, reset=reset)
        m = state.match(key(label))
        assert (m.status, m.top, m.bottom) == (READY, top, bottom), label
        results[key(label)] = winner
    return play(entrants, results, reset=reset)


def test_four_entrants_the_better_seed_winning_every_match():
    state = run(
        4,
        [
            ("W1-1", 1, 4, 1),
            ("W1-2", 2, 3, 2),
            ("L1-1", 4, 3, 3),  # the two first-round losers
            ("W2-1", 1, 2, 1),
            ("L2-1", 3, 2, 2),  # the winners' final loser drops into the losers' final
            ("F1", 1, 2, 1),
        ],
    )
    assert state.champion == 1
    assert state.match(key("F2")).status == UNNEEDED  # the winners' champion won: no reset
    assert state.placings == {1: 1, 2: 2, 3: 3, 4: 4}
    assert state.ready() == []


def test_four_entrants_the_losers_champion_forces_the_reset_game():
    state = run(
        4,
        [
            ("W1-1", 1, 4, 1),
            ("W1-2", 2, 3, 3),
            ("L1-1", 4, 2, 2),
            ("W2-1", 1, 3, 3),
            ("L2-1", 2, 1, 1),
            ("F1", 3, 1, 1),  # seed 3's first loss: both have lost once
        ],
    )
    assert state.champion is None and state.ready() == [key("F2")]
    state = run(
        4,
        [
            ("W1-1", 1, 4, 1),
            ("W1-2", 2, 3, 3),
            ("L1-1", 4, 2, 2),
            ("W2-1", 1, 3, 3),
            ("L2-1", 2, 1, 1),
            ("F1", 3, 1, 1),
            ("F2", 3, 1, 1),
        ],
    )
    assert state.champion == 1
    assert state.placings == {1: 1, 3: 2, 2: 3, 4: 4}


def test_without_the_reset_game_the_first_final_decides():
    state = run(
        4,
        [
            ("W1-1", 1, 4, 1),
            ("W1-2", 2, 3, 2),
            ("L1-1", 4, 3, 3),
            ("W2-1", 1, 2, 1),
            ("L2-1", 3, 2, 2),
            ("F1", 1, 2, 2),
        ],
        reset=False,
    )
    assert state.champion == 2 and state.placings[1] == 2
    assert [m.key.label() for m in layout(4, reset=False)][-1] == "F1"


def test_six_entrants_byes_to_the_top_two_and_byes_behind_them_in_the_losers_bracket():
    six = play(6, {})
    assert [(m.key.label(), m.top, m.bottom, m.status) for m in six.matches[:4]] == [
        ("W1-1", 1, NOBODY, BYE),
        ("W1-2", 4, 5, READY),
        ("W1-3", 3, 6, READY),
        ("W1-4", 2, NOBODY, BYE),
    ]
    state = run(
        6,
        [
            ("W1-2", 4, 5, 5),
            ("W1-3", 3, 6, 3),
            ("W2-1", 1, 5, 1),  # seed 1 came through its bye
            ("W2-2", 3, 2, 3),
            ("L2-1", 4, 2, 2),  # 4 had a bye in the losers' round 1 (no loser from seed 1)
            ("L2-2", 6, 5, 5),  # the winners' round 2 losers dropped in turned round
            ("L3-1", 2, 5, 2),
            ("W3-1", 1, 3, 1),
            ("L4-1", 2, 3, 3),
            ("F1", 1, 3, 3),
            ("F2", 1, 3, 1),
        ],
    )
    assert [state.match(key(k)).status for k in ("L1-1", "L1-2")] == [BYE, BYE]
    assert state.champion == 1
    assert state.placings == {1: 1, 3: 2, 2: 3, 5: 4, 4: 5, 6: 5}


def test_five_entrants_a_losers_match_of_nobody_against_nobody_is_empty():
    state = play(5, {key("W1-2"): 4})
    assert state.match(key("L1-1")).status == BYE
    assert state.match(key("L1-2")).status == EMPTY  # seeds 3 and 2 both had byes
    assert state.match(key("L2-1")).top == 5 and state.match(key("L2-2")).top == NOBODY


EIGHT = [
    ("W1-1", 1, 8, 1),
    ("W1-2", 4, 5, 4),
    ("W1-3", 3, 6, 3),
    ("W1-4", 2, 7, 2),
    ("L1-1", 8, 5, 5),
    ("L1-2", 6, 7, 6),
    ("W2-1", 1, 4, 1),
    ("W2-2", 3, 2, 2),
    ("L2-1", 5, 3, 3),  # 3 lost to 2 in the top half... and meets 5, not 6 or 7 again
    ("L2-2", 6, 4, 4),
    ("L3-1", 3, 4, 3),
    ("W3-1", 1, 2, 1),
    ("L4-1", 3, 2, 2),
    ("F1", 1, 2, 1),
]


def test_eight_entrants_the_better_seed_winning_every_match():
    state = run(8, EIGHT)
    assert state.champion == 1
    assert state.placings == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 7, 8: 7}


def test_eight_entrants_a_result_out_of_turn_or_for_someone_else_is_refused():
    with pytest.raises(ValueError, match="waits"):
        play(8, {key("W2-1"): 1})
    with pytest.raises(ValueError, match="not 5"):
        play(8, {key("W1-1"): 5})
    done = {key(label): winner for label, *_pair, winner in EIGHT}
    with pytest.raises(ValueError, match="F2 is not played"):
        play(8, {**done, key("F2"): 2})


def test_sixteen_entrants_the_better_seed_winning_every_match():
    state = run(
        16,
        [
            ("W1-1", 1, 16, 1),
            ("W1-2", 8, 9, 8),
            ("W1-3", 5, 12, 5),
            ("W1-4", 4, 13, 4),
            ("W1-5", 3, 14, 3),
            ("W1-6", 6, 11, 6),
            ("W1-7", 7, 10, 7),
            ("W1-8", 2, 15, 2),
            ("L1-1", 16, 9, 9),
            ("L1-2", 12, 13, 12),
            ("L1-3", 14, 11, 11),
            ("L1-4", 10, 15, 10),
            ("W2-1", 1, 8, 1),
            ("W2-2", 5, 4, 4),
            ("W2-3", 3, 6, 3),
            ("W2-4", 7, 2, 2),
            # the winners' round 2 losers drop in turned round: 7, 6, 5, 8
            ("L2-1", 9, 7, 7),
            ("L2-2", 12, 6, 6),
            ("L2-3", 11, 5, 5),
            ("L2-4", 10, 8, 8),
            ("L3-1", 7, 6, 6),
            ("L3-2", 5, 8, 5),
            ("W3-1", 1, 4, 1),
            ("W3-2", 3, 2, 2),
            # the winners' round 3 losers drop in with the halves swapped: 3 up, 4 down
            ("L4-1", 6, 3, 3),
            ("L4-2", 5, 4, 4),
            ("L5-1", 3, 4, 3),
            ("W4-1", 1, 2, 1),
            ("L6-1", 3, 2, 2),
            ("F1", 1, 2, 1),
        ],
    )
    assert state.champion == 1
    places = state.placings
    assert [places[s] for s in range(1, 17)] == [1, 2, 3, 4, 5, 5, 7, 7, *[9] * 4, *[13] * 4]


def test_the_layouts_size_for_every_field_of_the_tests():
    for entrants, winners, losers in ((4, 3, 2), (6, 7, 6), (8, 7, 6), (16, 15, 14)):
        sides = [m.key.side for m in layout(entrants)]
        assert (sides.count(WINNERS), sides.count(LOSERS), sides.count(FINAL)) == (
            winners,
            losers,
            2,
        )


def test_fewer_than_two_entrants_is_no_bracket():
    with pytest.raises(ValueError):
        layout(1)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.booleans(), st.data())
def test_every_path_ends_with_one_champion_and_everyone_else_out_after_two_losses(
    entrants, reset, data
):
    results: dict[Key, int] = {}
    losses = dict.fromkeys(range(1, entrants + 1), 0)
    state = play(entrants, results, reset=reset)
    while state.ready():
        k = state.ready()[0]
        m = state.match(k)
        winner = data.draw(st.sampled_from([m.top, m.bottom]))
        assert NOBODY not in (m.top, m.bottom)
        losses[m.bottom if winner == m.top else m.top] += 1
        results[k] = winner
        state = play(entrants, results, reset=reset)
    assert state.champion is not None
    assert all(m.status in (DECIDED, BYE, EMPTY, UNNEEDED) for m in state.matches)
    champion_losses = losses.pop(state.champion)
    assert champion_losses <= 1
    if reset:  # nobody is out before a second loss
        assert all(n == 2 for n in losses.values())
    else:  # only the grand final's loser may go out after one
        assert sorted(losses.values())[1:] == [2] * (entrants - 2)
    assert sorted(state.placings) == list(range(1, entrants + 1))
    assert state.placings[state.champion] == 1
    played = sum(m.status == DECIDED for m in state.matches)
    assert played == sum(losses.values()) + champion_losses


def test_a_best_of_schedule_counts_back_from_the_grand_final():
    assert brackets.parse_best_of("1,3,3,5") == (1, 3, 3, 5)
    for bad in ("2", "1,,3", "three", "9"):
        with pytest.raises(ValueError):
            brackets.parse_best_of(bad)
    schedule = (1, 3, 3, 5)
    # 16 entrants: four winners' rounds and the grand final, the first entry for the first two
    labels = ("W1-1", "W2-3", "W3-1", "W4-1", "F1", "F2")
    assert [best_of(schedule, key(k), 16) for k in labels] == [1, 1, 3, 3, 5, 5]
    assert [best_of(schedule, key(k), 16) for k in ("L1-1", "L2-1", "L5-1", "L6-1")] == [
        1,
        1,
        3,
        3,
    ]
    assert best_of((), key("W1-1"), 8, default=5) == 5


def test_a_result_taken_back_leaves_the_matches_after_it_waiting():
    done = {key(label): winner for label, *_pair, winner in EIGHT}
    del done[key("W1-2")]  # 4 beat 5: taken back
    with pytest.raises(ValueError):
        play(8, done)
    state = play(8, done, strict=False)
    assert state.match(key("W1-2")).status == READY
    assert state.match(key("L1-1")).status == WAITING and state.match(key("L1-1")).top == 8
    assert state.match(key("W2-1")).bottom is None and state.champion is None
