"""Who won, by how much, and whether it was a skunk: the numbers standings are built on."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.outcome import (
    InvalidScoresError,
    Outcome,
    SkunkLevel,
    outcome_for,
    skunk_level,
)

# --- skunks at the boundaries ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser", "level"),
    [
        (91, SkunkLevel.NONE),  # a win by 30
        (90, SkunkLevel.SKUNK),  # a win by 31
        (61, SkunkLevel.SKUNK),  # a win by 60
        (60, SkunkLevel.DOUBLE),  # a win by 61
        (0, SkunkLevel.DOUBLE),
        (120, SkunkLevel.NONE),
    ],
)
def test_acc_skunk_is_a_win_by_31_and_double_skunk_by_61(loser: int, level: SkunkLevel) -> None:
    assert outcome_for((121, loser), target=121).skunk_level is level


@pytest.mark.parametrize(
    ("loser", "level"),
    [(92, SkunkLevel.NONE), (91, SkunkLevel.SKUNK), (90, SkunkLevel.SKUNK)],
)
def test_league_sheet_win_by_30_plus_skunks_a_loser_at_91(loser: int, level: SkunkLevel) -> None:
    assert outcome_for((121, loser), target=121, skunk_margin=30).skunk_level is level


def test_double_skunk_margin_is_a_setting() -> None:
    assert outcome_for((121, 70), target=121).skunk_level is SkunkLevel.SKUNK
    assert (
        outcome_for((121, 70), target=121, double_skunk_margin=51).skunk_level is SkunkLevel.DOUBLE
    )


def test_skunk_levels_add_up_as_league_bonus_points() -> None:
    assert int(SkunkLevel.NONE) == 0
    assert int(SkunkLevel.SKUNK) == 1
    assert int(SkunkLevel.DOUBLE) == 2


# --- margins --------------------------------------------------------------------------------------


def test_winner_counts_as_the_target_even_after_pegging_past_it() -> None:
    outcome = outcome_for((127, 95), target=121)
    assert outcome.winner == 0
    assert outcome.margin == 26
    assert outcome.scores == (127, 95)
    assert outcome.margin_over(1) == 26
    assert outcome.margin_over(0) == 0


def test_second_side_can_win() -> None:
    outcome = outcome_for([80, 121], target=121)
    assert (outcome.winner, outcome.runner_up, outcome.margin) == (1, 0, 41)
    assert outcome.losers == (0,)


def test_three_players_margin_and_skunk_are_against_the_runner_up() -> None:
    outcome = outcome_for((50, 121, 89), target=121)
    assert outcome.winner == 1
    assert outcome.runner_up == 2
    assert outcome.margin == 32
    assert outcome.skunk_level is SkunkLevel.SKUNK
    # The third-placed player's own skunk is a question a league can still ask.
    assert outcome.margin_over(0) == 71
    assert skunk_level(outcome.margin_over(0)) is SkunkLevel.DOUBLE


def test_five_card_game_to_61_takes_its_own_margins() -> None:
    outcome = outcome_for((61, 30), target=61, skunk_margin=31, double_skunk_margin=61)
    assert outcome.margin == 31
    assert outcome.skunk_level is SkunkLevel.SKUNK


# --- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "words"),
    [
        ((120, 119), "Nobody has reached 121"),
        ((121, 121), "Only one side can reach 121"),
        ((125, 0, 130), "Only one side can reach 121"),
        ((121,), "at least two sides"),
        ((121, -1), "can't be negative"),
        ((121, True), "whole number"),
        ((121, 90.0), "whole number"),
    ],
)
def test_scores_that_are_not_the_end_of_a_game_are_refused(
    scores: tuple[int, ...], words: str
) -> None:
    with pytest.raises(InvalidScoresError, match=words):
        outcome_for(scores, target=121)


@pytest.mark.parametrize(
    "options",
    [
        {"skunk_margin": 0},
        {"skunk_margin": True},
        {"skunk_margin": 40, "double_skunk_margin": 30},
    ],
)
def test_nonsense_skunk_settings_are_refused(options: dict[str, int]) -> None:
    with pytest.raises(ScoringError):
        outcome_for((121, 10), target=121, **options)


def test_a_target_must_be_a_positive_number() -> None:
    with pytest.raises(InvalidScoresError):
        outcome_for((1, 0), target=0)


# --- the value type -------------------------------------------------------------------------------


def test_repr_is_the_constructor_call() -> None:
    outcome = outcome_for((121, 60), target=121)
    assert repr(outcome) == (
        "Outcome(winner=0, scores=(121, 60), target=121, margin=61, skunk_level=SkunkLevel.DOUBLE)"
    )
    assert eval(repr(outcome), {"Outcome": Outcome, "SkunkLevel": SkunkLevel}) == outcome


def test_outcome_reads_as_a_sentence() -> None:
    assert str(outcome_for((121, 90), target=121)) == "Side 0 won 121-90 (a margin of 31, a skunk)."


def test_outcome_is_immutable_and_hashable() -> None:
    outcome = outcome_for((121, 90), target=121)
    with pytest.raises(AttributeError):
        outcome.margin = 5  # type: ignore[misc]
    assert hash(outcome) == hash(outcome_for((121, 90), target=121))


def test_as_dict_is_json_ready() -> None:
    assert outcome_for((100, 121), target=121).as_dict() == {
        "winner": 1,
        "runner_up": 0,
        "scores": [100, 121],
        "target": 121,
        "margin": 21,
        "skunk_level": "none",
    }


# --- properties -----------------------------------------------------------------------------------


@st.composite
def finished_scores(draw: st.DrawFn) -> tuple[tuple[int, ...], int]:
    target = draw(st.sampled_from([61, 121, 181]))
    sides = draw(st.integers(2, 3))
    losers = draw(st.lists(st.integers(0, target - 1), min_size=sides - 1, max_size=sides - 1))
    winner_score = draw(st.integers(target, target + 28))
    at = draw(st.integers(0, sides - 1))
    losers.insert(at, winner_score)
    return tuple(losers), target


@given(finished_scores(), st.integers(1, 80), st.integers(0, 80))
def test_margin_is_target_minus_runner_up_and_skunk_follows_margin(
    game: tuple[tuple[int, ...], int], skunk: int, extra: int
) -> None:
    scores, target = game
    double = skunk + extra
    outcome = outcome_for(scores, target=target, skunk_margin=skunk, double_skunk_margin=double)
    best_loser = max(s for s in scores if s < target)
    assert scores[outcome.winner] >= target
    assert outcome.margin == target - best_loser
    assert 1 <= outcome.margin <= target
    assert outcome.scores[outcome.runner_up] == best_loser
    if outcome.margin >= double:
        assert outcome.skunk_level is SkunkLevel.DOUBLE
    elif outcome.margin >= skunk:
        assert outcome.skunk_level is SkunkLevel.SKUNK
    else:
        assert outcome.skunk_level is SkunkLevel.NONE


@given(st.integers(0, 200), st.integers(0, 200))
def test_a_bigger_win_is_never_a_smaller_skunk(a: int, b: int) -> None:
    small, big = sorted((a, b))
    assert skunk_level(small) <= skunk_level(big)
