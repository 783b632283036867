"""The demo club night: 30 entrants, 9 rounds played, the bracket drawn."""

from __future__ import annotations

from tournaments.demo import build_demo_night
from tournaments.models import TableState, TournamentStage
from tournaments.selectors import standings_for_tournament


def test_the_demo_night_has_thirty_entrants_nine_rounds_and_its_bracket(db):
    night = build_demo_night()
    assert night.entrants.count() == 30
    assert night.rounds.count() == 9
    assert night.stage == TournamentStage.PLAYOFFS
    games = [g for r in night.rounds.all() for g in r.games.all()]
    assert len(games) == 9 * 15 and {g.status for g in games} == {TableState.VERIFIED}
    pairs = [frozenset((g.first_id, g.second_id)) for g in games]
    assert len(set(pairs)) == len(pairs)  # nobody meets anyone twice
    data = standings_for_tournament(night)
    assert len(data["qualifiers"]) == 8  # ceil(30 / 4)
    assert night.playoff_matches.filter(round=1).count() == 4


def test_the_demo_club_season_has_three_finished_nights_and_one_closed_books(db):
    from tournaments.demo import CLUB_NIGHTS, build_demo_club_season
    from tournaments.selectors import books_for, club_season_standings

    night = build_demo_night()
    season = build_demo_club_season()
    data = club_season_standings(season)
    assert len(data["nights"]) == len(CLUB_NIGHTS) == 3
    assert data["pending"] == [night]  # the demo club night, its bracket still to play
    rows = data["rows"]
    assert len(rows) <= 16 and sum(r.attended for r in rows) == 3 * 12
    last = data["nights"][-1]
    books = books_for(last)
    assert books.purse is not None and books.purse.is_closed and books.balance == 0
    assert books.money_in == 12 * 500 + 8 * 100
