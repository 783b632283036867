"""The draw and the tie-break metrics both competitions chain."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from contest import tiebreaks
from contest.draw import draw_ticket


@given(st.integers(), st.text())
def test_a_ticket_is_a_sha256_anyone_can_recompute(seed, name):
    ticket = draw_ticket(seed, name)
    assert ticket == draw_ticket(seed, name) and len(ticket) == 64
    assert int(ticket, 16) >= 0


@dataclass
class Row:
    team_id: int
    name: str
    won: int = 0
    spread: int = 0
    skunks: int = 0
    weeks_won: int = 0
    points: int = 0
    h2h_points: dict[int, int] = field(default_factory=dict)


def test_every_metric_is_registered_under_its_key_and_both_competitions_chain_known_ones():
    assert all(m.key == key for key, m in tiebreaks.METRICS.items())
    assert set(tiebreaks.LEAGUE_TIEBREAKS) <= set(tiebreaks.METRICS)
    assert set(tiebreaks.TOURNAMENT_TIEBREAKS) <= set(tiebreaks.METRICS)
    assert tiebreaks.METRICS["games_won"].field == tiebreaks.METRICS["wins"].field == "won"


def test_a_competition_refuses_a_tie_break_it_does_not_offer():
    with pytest.raises(ValueError, match="Unknown tie-break 'weeks_won'"):
        tiebreaks.chain_of(["weeks_won"], known=tiebreaks.TOURNAMENT_TIEBREAKS)


@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(0, 9)), min_size=1, max_size=8))
def test_a_field_metric_reads_its_field_in_the_groups_order(values):
    group = [Row(i, f"T{i}", spread=s, won=w) for i, (s, w) in enumerate(values)]
    assert tiebreaks.METRICS["spread"].values(group, draw_seed=0) == [s for s, _ in values]
    assert tiebreaks.METRICS["games_won"].values(group, draw_seed=0) == [w for _, w in values]


def test_head_to_head_counts_only_the_games_among_the_group():
    a = Row(1, "A", h2h_points={2: 1, 3: 5})
    b = Row(2, "B", h2h_points={1: 2, 3: 0})
    assert tiebreaks.METRICS["head_to_head"].values([a, b], draw_seed=0) == [1, 2]


@given(st.integers(), st.lists(st.text(min_size=1), min_size=1, max_size=6, unique=True))
def test_the_draw_gives_each_name_its_ticket(seed, names):
    group = [Row(i, n) for i, n in enumerate(names)]
    values = tiebreaks.METRICS["draw"].values(group, draw_seed=seed)
    assert values == [draw_ticket(seed, n) for n in names]


def test_every_tie_break_a_competition_offers_carries_its_own_words():
    """A tie-break is named once, on its metric: the league's standings column and the
    tournaments' rules sheet and cut marks all read the metric's words (a new metric without
    them would be shown nameless)."""
    from contest.tiebreaks import LEAGUE_TIEBREAKS, METRICS, POINTS, TOURNAMENT_TIEBREAKS

    for key in (POINTS.key, *LEAGUE_TIEBREAKS, *TOURNAMENT_TIEBREAKS):
        assert METRICS[key].name and METRICS[key].abbr, key
    for key in TOURNAMENT_TIEBREAKS:
        assert METRICS[key].placed, key  # the mark beside an entrant around the cut
        if key != "draw":  # the rules sheet says the draw on its own
            assert METRICS[key].described, key
