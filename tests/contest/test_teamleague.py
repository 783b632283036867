"""The team leagues' pure maths: the fixture list, a board and a match from legs, the table's
tie-breaks as data, promotion and relegation with play-offs."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from contest import teamleague as tl

RULES = tl.MatchRules(
    legs=3, best_of=True, per_leg=1, per_board=0, win=2, draw=1, decided_by="legs"
)


@pytest.mark.parametrize("n", [2, 3, 4, 7, 8, 10])
def test_home_and_away_every_pair_twice_once_at_each_ground(n):
    teams = list(range(n))
    rounds = tl.double_round_robin(teams)
    games = [g for r in rounds for g in r]
    assert sorted(games) == sorted((a, b) for a in teams for b in teams if a != b)
    for r in rounds:  # nobody plays twice in a round
        playing = [t for g in r for t in g]
        assert len(playing) == len(set(playing))
    home = Counter(a for a, _b in games[: len(games) // 2])
    assert max(home.values()) - min(home[t] for t in teams) <= 1  # balanced in each half


def test_a_board_the_best_of_three_ends_at_two_and_all_legs_otherwise():
    assert tl.board_result(["home", "home"], rules=RULES).over
    all_three = tl.MatchRules(3, False, 1, 0, 2, 1)
    assert not tl.board_result(["home", "home"], rules=all_three).over
    assert tl.forfeited_board("home", rules=all_three).away_legs == 3


def test_points_for_legs_boards_and_the_match():
    rules = tl.MatchRules(
        legs=5, best_of=False, per_leg=1, per_board=2, win=2, draw=1, decided_by="points"
    )
    boards = [tl.BoardResult(3, 2, True, "home"), tl.BoardResult(1, 4, True, "away")]
    r = tl.match_result(boards, rules=rules)
    # home: 4 legs + 1 board (2) = 6; away: 6 legs + 2 = 8; away wins: 8 + 2
    assert (r.home_points, r.away_points, r.result) == (6, 10, "away")


def played(home, away, hl, al):
    res = tl.MatchResult(
        hl, al, 0, 0, hl, al, True, "home" if hl > al else "away" if al > hl else "draw"
    )
    return tl.PlayedMatch(home, away, res)


def test_tie_breaks_are_data_and_head_to_head_counts_only_the_level_teams():
    teams = [(1, "A"), (2, "B"), (3, "C")]
    # Points are legs only (no match points): A and B level on 20, C on 15.
    matches = [played(1, 2, 6, 4), played(2, 1, 8, 2), played(1, 3, 12, 5), played(2, 3, 8, 10)]
    rows = tl.table(teams, matches, chain=["head_to_head"])
    assert [(r.name, r.points, r.position, r.placed_by) for r in rows] == [
        ("B", 20, 1, "head_to_head"),  # 4 + 8 = 12 against A's 6 + 2 = 8
        ("A", 20, 2, "head_to_head"),
        ("C", 15, 3, ""),
    ]
    rows = tl.table(teams, matches, chain=["legs_difference"])
    # A: 20 for, 17 against = +3; B: 20 for, 18 against = +2
    assert [r.name for r in rows] == ["A", "B", "C"]
    rows = tl.table(teams, matches, chain=[])
    assert [r.position for r in rows] == [1, 1, 3]
    with pytest.raises(ValueError, match="Unknown tie-break 'luck'"):
        tl.table(teams, matches, chain=["luck"])


def test_two_up_two_down_and_a_play_off_winner_swapped():
    finals = [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18]]
    m = tl.promote_relegate(finals, up=2, down=2)
    assert m.divisions == [[1, 2, 3, 4, 7, 8], [5, 6, 9, 10, 13, 14], [11, 12, 15, 16, 17, 18]]
    assert sorted(m.promoted) == [7, 8, 13, 14] and sorted(m.relegated) == [5, 6, 11, 12]
    # A play-off: 9 (just below promotion) beat 4 (just above the drop).
    m = tl.promote_relegate(finals, up=2, down=2, swaps=[(9, 4)])
    assert m.divisions[0] == [1, 2, 3, 9, 7, 8] and 4 in m.divisions[1]
    assert 9 in m.promoted and 4 in m.relegated
    for a, b in combinations(m.divisions, 2):
        assert not set(a) & set(b)
