"""The demo club night: 30 entrants, 9 rounds played, the bracket drawn."""

from __future__ import annotations

from league.tournaments.demo import build_demo_night
from league.tournaments.models import Stage, TableStatus
from league.tournaments.selectors import standings_for_tournament


def test_the_demo_night_has_thirty_entrants_nine_rounds_and_its_bracket(db):
    night = build_demo_night()
    assert night.entrants.count() == 30
    assert night.rounds.count() == 9
    assert night.stage == Stage.PLAYOFFS
    games = [g for r in night.rounds.all() for g in r.games.all()]
    assert len(games) == 9 * 15 and {g.status for g in games} == {TableStatus.VERIFIED}
    pairs = [frozenset((g.first_id, g.second_id)) for g in games]
    assert len(set(pairs)) == len(pairs)  # nobody meets anyone twice
    data = standings_for_tournament(night)
    assert len(data["qualifiers"]) == 8  # ceil(30 / 4)
    assert night.playoff_matches.filter(round=1).count() == 4
