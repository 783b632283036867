"""Qualifying with two games against each opponent (who deals first alternating) and "keep
apart" pairs (family, the same club) honoured by the seating."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.tournaments.conftest import play_round
from tournaments import logic, services

pytestmark = pytest.mark.django_db


def _tables(rnd):
    return [(g.first.name, g.second.name) for g in rnd.games.order_by("table")]


def _setup(night, director, **changes):
    services.tournament_update(user=director, tournament=night, changes=changes)
    night.refresh_from_db()


def test_each_pairing_plays_two_games_in_a_row_first_deal_alternating(night, director, field):
    _setup(night, director, games_per_opponent=2, games_per_entrant=4)
    rounds = [play_round(night, director) for _ in range(4)]
    one, two, three, four = (_tables(r) for r in rounds)
    assert two == [(b, a) for a, b in one]  # the same tables, sides swapped
    assert four == [(b, a) for a, b in three]
    assert {frozenset(t) for t in one}.isdisjoint({frozenset(t) for t in three})
    assert rounds[1].byes.get().entrant == rounds[0].byes.get().entrant  # a two-game bye
    meetings = Counter(frozenset(t) for r in (one, two, three, four) for t in r)
    assert max(meetings.values()) == 2  # nobody plays another more than 2 games


def test_one_game_a_pairing_by_default_never_repeats_a_table(night, director, field):
    _setup(night, director, games_per_entrant=3)
    rounds = [_tables(play_round(night, director)) for _ in range(3)]
    meetings = Counter(frozenset(t) for r in rounds for t in r)
    assert max(meetings.values()) == 1


def test_a_keep_apart_pair_never_shares_a_table(night, director, field):
    """Every pairing of the seven over six rounds would seat each pair once; the two kept apart
    never meet, by the circle or by the search."""
    names = sorted(e.name for e in field)
    kept = [names[0], names[1]]
    _setup(night, director, keep_apart=[kept], games_per_entrant=6)
    for _ in range(6):
        rnd = play_round(night, director)
        assert set(kept) not in [set(t) for t in _tables(rnd)], _tables(rnd)


def test_keep_apart_with_two_games_a_pairing(night, director, field):
    names = sorted(e.name for e in field)
    pairs = [[names[0], names[1]], [names[2], names[3]]]
    _setup(night, director, keep_apart=pairs, games_per_opponent=2, games_per_entrant=6)
    for _ in range(6):
        tables = [set(t) for t in _tables(play_round(night, director))]
        assert all(set(p) not in tables for p in pairs)


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"games_per_opponent": 3}, "once or twice in a row"),
        ({"keep_apart": [["Ann"]]}, "two different entrants"),
        ({"keep_apart": [["Ann", "Ann"]]}, "two different entrants"),
        ({"keep_apart": "Ann, Bob"}, "two different entrants"),
    ],
)
def test_seating_settings_that_cannot_work_are_refused(night, director, changes, says):
    with pytest.raises(Exception, match=says):
        services.tournament_update(user=director, tournament=night, changes=changes)


def test_the_kept_apart_pair_is_seated_together_only_when_nothing_else_can_work():
    """Two entrants, kept apart: they still play (the only table there is)."""
    apart = logic.with_kept_apart({}, [("A", "B")])
    assert logic.seat_round(["A", "B"], index=0, met=apart).tables in ([("A", "B")], [("B", "A")])


@pytest.mark.parametrize("size", range(4, 15))
def test_keep_apart_holds_for_every_field_and_round(size):
    names = [f"P{i}" for i in range(size)]
    kept = [("P0", "P1"), ("P2", "P5")]
    met: dict[str, dict[str, int]] = {}
    for index in range(size - 2):
        seating = logic.seat_round(names, index=index, met=logic.with_kept_apart(met, kept))
        for a, b in seating.tables:
            assert {a, b} not in [set(p) for p in kept], (size, index, seating)
            met.setdefault(a, {})[b] = met.get(a, {}).get(b, 0) + 1
            met.setdefault(b, {})[a] = met.get(b, {}).get(a, 0) + 1


def test_the_rules_page_states_the_seating(client, night, director, field):
    _setup(night, director, games_per_opponent=2, keep_apart=[["Ann", "Bob"]])
    page = client.get(f"/tournaments/{night.pk}/rules/").content.decode()
    assert "two games in a row at the same table, who deals first alternating" in page
    assert "1 pair of entrants (family, the same club) is kept apart" in page
