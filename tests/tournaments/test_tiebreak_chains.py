"""The tie-break chain an event picks, the ACC's order among them, on fields built by hand to
tie: each expected order worked out here from the games, not by the code under test."""

from __future__ import annotations

import pytest

from contest.tiebreaks import TOURNAMENT_CHAINS
from tests.tournaments.conftest import play_round
from tournaments import logic, selectors, services
from tournaments.logic import EntrantRecord, Result, TournamentRules

ACC = TournamentRules(tiebreaks=TOURNAMENT_CHAINS["acc"])
HOUSE = TournamentRules(tiebreaks=TOURNAMENT_CHAINS["house"])


def order(rules, recs, seed=7):
    return [
        (s.record.entrant, s.rank, s.decided_by) for s in logic.rank(rules, recs, draw_seed=seed)
    ]


def test_games_won_comes_before_spread():
    """9 game points each: three skunks against four wins with one skunk; B won more games."""
    a = EntrantRecord("A", won=3, game_points=9, spread=110, plus_spread=110)
    b = EntrantRecord("B", won=4, game_points=9, spread=20, plus_spread=60)
    assert order(ACC, [a, b]) == [("B", 1, "games_won"), ("A", 2, "games_won")]


def test_net_spread_comes_before_plus_points():
    a = EntrantRecord("A", won=4, game_points=8, spread=40, plus_spread=50)
    b = EntrantRecord("B", won=4, game_points=8, spread=30, plus_spread=90)
    assert order(ACC, [b, a]) == [("A", 1, "spread"), ("B", 2, "spread")]


def test_plus_points_separate_entrants_level_on_net_spread():
    """The same net 20: A won by 80 in all and lost by 60, B won by 60 and lost by 40."""
    a = EntrantRecord("A", won=4, game_points=8, spread=20, plus_spread=80)
    b = EntrantRecord("B", won=4, game_points=8, spread=20, plus_spread=60)
    assert order(ACC, [b, a]) == [("A", 1, "plus_points"), ("B", 2, "plus_points")]
    # The house chain has no plus points: the two share second... first place.
    assert [rank for _n, rank, _d in order(HOUSE, [a, b])] == [1, 1]


# A field of four, two games each, every game by 10 (loser on 111):
#   A beat B, C beat A, B beat D, D beat C by 20 (loser on 101).
# Game points: 2 each. Games won: 1 each. Net spread: A 0, B 0, C -10, D +10.
# Plus points: A 10, B 10. Head to head between A and B (the two still level): A 2, B 0.
# So: D first on spread, A above B on head to head, C last.
FIELD = ["A", "B", "C", "D"]
GAMES = [
    Result("A", "B", "A", 111),
    Result("C", "A", "C", 111),
    Result("B", "D", "B", 111),
    Result("D", "C", "D", 101),
]


def test_the_records_of_the_hand_built_field():
    recs = logic.records(ACC, FIELD, GAMES)
    got = {n: (r.game_points, r.won, r.spread, r.plus_spread) for n, r in recs.items()}
    assert got == {
        "A": (2, 1, 0, 10),
        "B": (2, 1, 0, 10),
        "C": (2, 1, -10, 10),
        "D": (2, 1, 10, 20),
    }


def test_head_to_head_reads_only_the_games_among_those_still_level():
    ranked = order(ACC, logic.records(ACC, FIELD, GAMES).values())
    assert ranked == [
        ("D", 1, "spread"),
        ("A", 2, "head_to_head"),
        ("B", 3, "head_to_head"),
        ("C", 4, "spread"),
    ]
    # A lost to C, but C is not level with A: that game does not count for head to head.
    house = order(HOUSE, logic.records(HOUSE, FIELD, GAMES).values())
    assert [(n, r) for n, r, _d in house if n in "AB"] in (
        [("A", 2), ("B", 2)],
        [("B", 2), ("A", 2)],
    )


# Two winners who never met: A beat C by 10, B beat D by 10. Level on everything, one
# qualifier (one in four): the ACC chain names a playoff between them; the draw does not.
EVEN = [Result("A", "C", "A", 111), Result("B", "D", "B", 111)]
CUT_OF_ONE = TournamentRules(tiebreaks=TOURNAMENT_CHAINS["acc"], qualify_one_in=4)


def _cut(rules, playoffs=()):
    recs = logic.records(rules, FIELD, EVEN, playoffs=playoffs)
    ranked = logic.rank(rules, recs.values(), draw_seed=3)
    qualifiers = [s.record.entrant for s in ranked][:1]
    return ranked, qualifiers, logic.playoff_due(rules, ranked, qualifiers)


def test_a_tie_at_the_cut_is_a_playoff_due_not_a_draw():
    ranked, _q, due = _cut(CUT_OF_ONE)
    assert due == ["A", "B"]
    assert [s.rank for s in ranked[:2]] == [1, 1]  # shared: nothing has separated them


def test_the_playoffs_winner_ranks_above_and_nothing_more_is_due():
    ranked, qualifiers, due = _cut(CUT_OF_ONE, playoffs=[("B", "A")])
    assert (qualifiers, due) == (["B"], [])
    assert [(s.record.entrant, s.rank, s.decided_by) for s in ranked[:2]] == [
        ("B", 1, "playoff"),
        ("A", 2, "playoff"),
    ]


def test_a_tie_inside_the_cut_needs_no_playoff():
    rules = TournamentRules(tiebreaks=TOURNAMENT_CHAINS["acc"], qualify_one_in=2)
    recs = logic.records(rules, FIELD, EVEN)
    ranked = logic.rank(rules, recs.values(), draw_seed=3)
    assert logic.playoff_due(rules, ranked, [s.record.entrant for s in ranked][:2]) == []


def test_without_a_playoff_in_the_chain_the_draw_decides_the_cut():
    rules = TournamentRules(tiebreaks=TOURNAMENT_CHAINS["house"], qualify_one_in=4)
    ranked, _q, due = _cut(rules)
    assert due == [] and ranked[0].record.entrant in ("A", "B")


def test_an_unknown_tie_break_is_refused_and_the_acc_chain_is_known():
    with pytest.raises(logic.RulesError):
        TournamentRules(tiebreaks=("games_won", "luck"))
    assert TournamentRules(tiebreaks=TOURNAMENT_CHAINS["acc"]).tiebreaks[-1] == "playoff"


# --- the event's setting, the cut and the director's playoff ---------------------------------


def _level_at_the_cut(night, director):
    """One qualifying round of seven: three winners by 21 and a bye; the chain games won,
    spread, then a playoff, two qualifiers: the three winners are level at the cut."""
    services.tournament_update(
        user=director,
        tournament=night,
        changes={
            "tiebreaks": ["games_won", "spread", "playoff"],
            "qualify_one_in": 4,
            "games_per_entrant": 1,
        },
    )
    night.refresh_from_db()
    play_round(night, director, winner_first=True, score=100)
    rnd = night.rounds.get(number=1)
    return sorted(g.first.name for g in rnd.games.all())


def test_the_draw_is_refused_while_a_playoff_is_due_then_made(night, director, field):
    winners = _level_at_the_cut(night, director)
    assert selectors.standings_for_tournament(night)["playoff_due"] == winners
    with pytest.raises(Exception, match="play a one-game playoff first"):
        services.bracket_draw(user=director, tournament=night)
    a, b, c = winners
    services.tiebreak_playoff_record(user=director, tournament=night, winner=a, loser=b)
    night.refresh_from_db()
    data = selectors.standings_for_tournament(night)
    assert data["playoff_due"] == [b, c]  # a is through; b and c are still level at the cut
    services.tiebreak_playoff_record(user=director, tournament=night, winner=c, loser=b)
    night.refresh_from_db()
    data = selectors.standings_for_tournament(night)
    # a and c each won a playoff: level with each other, both inside the cut (the draw only
    # orders them), so nothing more is due.
    assert (sorted(data["qualifiers"]), data["playoff_due"]) == ([a, c], [])
    services.bracket_draw(user=director, tournament=night)


def test_only_entrants_due_a_playoff_may_play_one(night, director, field):
    winners = _level_at_the_cut(night, director)
    loser = next(n for n in (e.name for e in field) if n not in winners)
    with pytest.raises(Exception, match="No playoff is due between"):
        services.tiebreak_playoff_record(
            user=director, tournament=night, winner=winners[0], loser=loser
        )


def test_the_rules_page_states_the_acc_chain_and_its_source(client, night, director):
    services.tournament_update(
        user=director, tournament=night, changes={"tiebreaks": list(TOURNAMENT_CHAINS["acc"])}
    )
    page = client.get(f"/tournaments/{night.pk}/rules/").content.decode()
    assert "plus points (the spreads of the games won, added up)" in page
    assert "one-game playoff, scheduled by the director and never drawn" in page
    assert "the ACC&#x27;s order as secondary sources read its current rulebook" in page


def test_the_director_records_the_playoff_on_the_nights_screen(client, night, director, field):
    winners = _level_at_the_cut(night, director)
    client.force_login(director)
    url = f"/direct/nights/{night.pk}/"
    page = client.get(url).content.decode()
    assert "data-playoff-due" in page and ", ".join(winners) in page
    a, b, c = winners
    for winner, loser in ((a, b), (c, b)):
        client.post(url, {"op": "tiebreak_playoff", "winner": winner, "loser": loser})
    page = client.get(url).content.decode()
    assert "data-playoff-due" not in page
    client.post(url, {"op": "draw"})
    night.refresh_from_db()
    assert night.stage == "playoffs"
