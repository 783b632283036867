"""The skunk ladder: one rung per margin (the scorer's), the points per rung a setting."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from contest.points import GamePoints, Ladder
from scoring.outcome import SkunkLevel, skunk_level

margins = st.integers(min_value=1, max_value=180)
small = st.integers(min_value=0, max_value=5)


@st.composite
def skunk_margins(draw):
    skunk = draw(st.integers(min_value=1, max_value=90))
    return skunk, draw(st.integers(min_value=skunk, max_value=150))


@given(margins, skunk_margins(), small, small, small, small)
def test_a_rung_is_the_scorers_skunk_level_and_pays_its_setting(m, lines, win, sk, dbl, loss):
    points = GamePoints(win=win, skunk=sk, double_skunk=dbl, loss=loss)
    ladder = Ladder(points, skunk_margin=lines[0], double_skunk_margin=lines[1])
    level = skunk_level(m, skunk_margin=lines[0], double_skunk_margin=lines[1])
    assert ladder.level(m) == level
    assert ladder.earned(won=True, margin=m) == {0: win, 1: sk, 2: dbl}[level]
    assert ladder.earned(won=False, margin=m) == loss


@given(small, small, small, st.sampled_from(list(SkunkLevel)))
def test_the_leagues_bonuses_add_up_as_its_sheet_says(win, bonus, double_bonus, level):
    points = GamePoints.with_bonuses(win=win, skunk_bonus=bonus, double_skunk_bonus=double_bonus)
    expected = win + (bonus if level >= 1 else 0) + (double_bonus if level >= 2 else 0)
    assert points.earned(won=True, level=level) == expected
    assert points.earned(won=False, level=level) == 0


@given(margins)
def test_with_the_acc_table_a_bigger_win_never_pays_less(m):
    ladder = Ladder(GamePoints(win=2, skunk=3, double_skunk=3))
    assert ladder.earned(won=True, margin=m) <= ladder.earned(won=True, margin=m + 1)
