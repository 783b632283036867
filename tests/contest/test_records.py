"""Records' maths against brute force: the longest run of wins, the milestones a career passes,
and a head-to-head seen from both sides."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from contest.records import HeadToHead, longest_run, milestones


@given(st.lists(st.booleans(), max_size=40))
def test_the_longest_run_is_the_longest_all_true_slice(flags):
    run = longest_run(flags)
    best = max(
        (j - i for i in range(len(flags)) for j in range(i + 1, len(flags) + 1) if all(flags[i:j])),
        default=0,
    )
    assert run.length == best
    if best:
        assert all(flags[run.first : run.last + 1]) and run.last - run.first + 1 == best
        assert not any(all(flags[i : i + best]) for i in range(run.first))  # the earliest


@given(st.lists(st.tuples(st.integers(0, 121), st.booleans()), max_size=60))
def test_each_milestone_is_reached_by_the_game_whose_total_first_passes_it(career):
    table = {"games": (5, 10, 50), "wins": (3, 7), "points": (200, 1000, 4000)}
    points, wins = [p for p, _w in career], [w for _p, w in career]
    found = milestones(points, table, wins=wins)
    for m in found:
        series = {"games": [1] * len(career), "wins": [int(w) for w in wins], "points": points}
        totals = [sum(series[m.kind][: i + 1]) for i in range(len(career))]
        assert totals[m.index] >= m.at and (m.index == 0 or totals[m.index - 1] < m.at)
    reached = {(m.kind, m.at) for m in found}
    assert ("games", 5) in reached if len(career) >= 5 else ("games", 5) not in reached
    assert (("points", 1000) in reached) == (sum(points) >= 1000)


@given(st.lists(st.tuples(st.integers(0, 121), st.integers(0, 121), st.integers(0, 2))))
def test_a_head_to_head_from_the_other_side_mirrors_it(games):
    ours, theirs = HeadToHead(), HeadToHead()
    for a, b, skunk in games:
        if a == b:
            continue
        ours.add(scored=a, conceded=b, skunk_level=skunk)
        theirs.add(scored=b, conceded=a, skunk_level=skunk)
    assert (ours.wins, ours.losses, ours.spread) == (theirs.losses, theirs.wins, -theirs.spread)
    assert (ours.skunks_given, ours.skunks_taken) == (theirs.skunks_taken, theirs.skunks_given)
