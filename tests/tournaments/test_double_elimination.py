"""A double-elimination playoff played through the services and shown on its pages: matches
know their bracket side, a winner goes on and a loser drops into the right losers' round, the
grand final goes to its deciding match when the losers' bracket winner takes the first, best-of
per round, voids refused once the bracket has played on; the pages in English and French."""

from __future__ import annotations

import pytest
from django.utils import translation

from league.kernel.errors import Locked, ValidationFailed
from tests.tournaments.conftest import TRUSTED
from tournaments import selectors, services
from tournaments.models import PlayoffMatch, TournamentStage
from tournaments.selectors.nights import nights_of


def weekend_playoff(entrants: int, *, best_of: str = "1", reset: bool = True, name="Main"):
    """An event of ``entrants`` (all qualifying: one in one), one qualifying round, then the
    double-elimination bracket drawn. Returns the event and its entrants by seed."""
    t = services.tournament_create(user=TRUSTED, name=name, games_per_entrant=1)
    services.tournament_update(
        user=TRUSTED,
        tournament=t,
        changes={
            "qualify_one_in": 1,
            "bracket_format": "double",
            "grand_final_reset": reset,
            "playoff_best_of_rounds": best_of,
        },
    )
    for i in range(entrants):
        services.entrant_register(user=TRUSTED, tournament=t, name=f"P{i + 1}", check_in=True)
    rnd = services.round_seat_next(user=TRUSTED, tournament=t)
    for g in rnd.games.select_related("first", "second"):
        services.scorecard_settle(user=TRUSTED, game=g, winner=g.first, loser_score=100)
    services.bracket_draw(user=TRUSTED, tournament=t)
    t.refresh_from_db()
    by_seed = {e.seed: e for e in t.entrants.exclude(seed=None)}
    assert sorted(by_seed) == list(range(1, entrants + 1))
    return t, by_seed


def match(t, label: str) -> PlayoffMatch:
    side = {"W": "winners", "L": "losers", "F": "final"}[label[0]]
    if side == "final":
        rnd, pos = int(label[1:]), 0
    else:
        rnd, pos = (int(x) for x in label[1:].split("-"))
        pos -= 1
    return PlayoffMatch.objects.select_related("top", "bottom", "winner", "tournament").get(
        tournament=t, side=side, round=rnd, position=pos
    )


def win(t, by_seed, label: str, top: int, bottom: int, winner: int, games: int = 1):
    """Check ``label`` is ready between seeds ``top`` and ``bottom``, then ``winner`` takes
    it in ``games`` straight games."""
    m = match(t, label)
    assert (m.top, m.bottom, m.winner) == (by_seed[top], by_seed[bottom], None), label
    for _ in range(games):
        m, created = services.playoff_game_record(
            user=TRUSTED, match=m, winner=by_seed[winner], loser_score=100
        )
        assert created
    m = match(t, label)
    assert m.winner == by_seed[winner], label


SIX = [
    ("W1-2", 4, 5, 5),
    ("W1-3", 3, 6, 3),
    ("W2-1", 1, 5, 1),
    ("W2-2", 3, 2, 3),
    ("L2-1", 4, 2, 2),
    ("L2-2", 6, 5, 5),
    ("L3-1", 2, 5, 2),
    ("W3-1", 1, 3, 1),
    ("L4-1", 2, 3, 3),
]


def test_six_entrants_losers_drop_into_the_right_round_and_the_grand_final_resets(db):
    t, seed = weekend_playoff(6, best_of="1,3")
    # the top two seeds' byes are played through at the draw, and the byes behind them in
    # the losers' bracket once their losers are known
    assert match(t, "W1-1").is_bye and match(t, "W1-1").winner == seed[1]
    for label, top, bottom, winner in SIX:
        win(t, seed, label, top, bottom, winner)
        if label == "W2-2":  # seed 2 lost once: down into the losers' round 2, bottom slot
            assert match(t, "L2-1").bottom == seed[2]
    assert match(t, "L1-1").is_bye and match(t, "L1-2").is_bye
    final = match(t, "F1")
    assert final.plays_best_of == 3  # the schedule's last entry: the grand final
    assert match(t, "W3-1").plays_best_of == 1
    win(t, seed, "F1", 1, 3, 3, games=2)  # the losers' bracket winner takes the first final
    t.refresh_from_db()
    assert t.stage == TournamentStage.PLAYOFFS and selectors.champion(t) is None
    win(t, seed, "F2", 1, 3, 1, games=2)
    t.refresh_from_db()
    assert t.stage == TournamentStage.FINISHED
    assert selectors.champion(t) == seed[1].name
    places = nights_of([t])[0].places
    assert places is not None
    assert [places[seed[s].name] for s in (1, 3, 2, 5, 4, 6)] == [1, 2, 3, 4, 5, 5]


def test_four_entrants_the_winners_champion_takes_the_first_final_and_no_reset_is_played(db):
    t, seed = weekend_playoff(4)
    for label, top, bottom, winner in [
        ("W1-1", 1, 4, 1),
        ("W1-2", 2, 3, 2),
        ("L1-1", 4, 3, 3),
        ("W2-1", 1, 2, 1),
        ("L2-1", 3, 2, 2),
        ("F1", 1, 2, 1),
    ]:
        win(t, seed, label, top, bottom, winner)
    t.refresh_from_db()
    assert t.stage == TournamentStage.FINISHED and selectors.champion(t) == seed[1].name
    assert match(t, "F2").is_bye  # not needed
    titles = [s.title for s in selectors.bracket_sections(t)]
    assert titles == ["Winners' bracket", "Losers' bracket", "Grand final"]
    final = selectors.bracket_sections(t)[2]
    assert [r.title for r in final.rounds] == ["Grand final"]  # the unneeded reset not shown


def test_without_the_reset_game_the_first_final_decides(db):
    t, seed = weekend_playoff(4, reset=False)
    for label, top, bottom, winner in [
        ("W1-1", 1, 4, 1),
        ("W1-2", 2, 3, 2),
        ("L1-1", 4, 3, 3),
        ("W2-1", 1, 2, 1),
        ("L2-1", 3, 2, 2),
        ("F1", 1, 2, 2),
    ]:
        win(t, seed, label, top, bottom, winner)
    t.refresh_from_db()
    assert t.stage == TournamentStage.FINISHED and selectors.champion(t) == seed[2].name
    assert not PlayoffMatch.objects.filter(tournament=t, side="final", round=2).exists()


def test_a_void_comes_back_out_of_the_losers_bracket_unless_it_has_played_on(db):
    t, seed = weekend_playoff(4)
    win(t, seed, "W1-1", 1, 4, 1)
    win(t, seed, "W1-2", 2, 3, 3)
    assert match(t, "L1-1").bottom == seed[2]
    game = match(t, "W1-2").games.get()
    services.playoff_game_void(user=TRUSTED, game=game, reason="wrong winner")
    assert match(t, "L1-1").bottom is None and match(t, "W2-1").bottom is None
    win(t, seed, "W1-2", 2, 3, 2)
    win(t, seed, "L1-1", 4, 3, 3)
    with pytest.raises(Locked, match="void the games of that match first"):
        services.playoff_game_void(user=TRUSTED, game=match(t, "W1-2").games.get())
    assert match(t, "L1-1").winner == seed[3]  # nothing changed


def test_a_match_waiting_for_its_loser_from_the_winners_bracket_takes_no_game(db):
    t, seed = weekend_playoff(4)
    with pytest.raises(Locked, match="waits for its two entrants"):
        services.playoff_game_record(
            user=TRUSTED, match=match(t, "L1-1"), winner=seed[4], loser_score=90
        )
    win(t, seed, "W1-1", 1, 4, 1)
    with pytest.raises(Locked, match="losers' bracket, round 1, match 1"):
        services.playoff_game_record(
            user=TRUSTED, match=match(t, "L1-1"), winner=seed[4], loser_score=90
        )


@pytest.mark.parametrize(("text", "stored"), [("1, 3,3 ,5", "1,3,3,5"), ("", ""), ("5", "5")])
def test_the_best_of_schedule_is_stored_tidied(db, text, stored):
    t = services.tournament_create(user=TRUSTED, name="Sched", games_per_entrant=1)
    services.tournament_update(user=TRUSTED, tournament=t, changes={"playoff_best_of_rounds": text})
    t.refresh_from_db()
    assert t.playoff_best_of_rounds == stored


def test_a_bad_best_of_schedule_is_refused_in_words_and_changes_nothing(db):
    t = services.tournament_create(user=TRUSTED, name="Sched", games_per_entrant=1)
    for bad in ("1,2,3", "best of three", "1,,3"):
        with pytest.raises(ValidationFailed, match="1, 3, 5 or 7") as caught:
            services.tournament_update(
                user=TRUSTED, tournament=t, changes={"playoff_best_of_rounds": bad}
            )
        assert caught.value.field == "playoff_best_of_rounds"
    with translation.override("fr"), pytest.raises(ValidationFailed, match="1, 3, 5 ou 7"):
        services.tournament_update(
            user=TRUSTED, tournament=t, changes={"playoff_best_of_rounds": "2"}
        )
    t.refresh_from_db()
    assert t.playoff_best_of_rounds == ""
    with pytest.raises(ValidationFailed, match="Unknown bracket"):
        services.tournament_update(user=TRUSTED, tournament=t, changes={"bracket_format": "x"})


def test_a_single_elimination_plays_each_round_at_its_own_best_of(db):
    t = services.tournament_create(user=TRUSTED, name="Single", games_per_entrant=1)
    services.tournament_update(
        user=TRUSTED,
        tournament=t,
        changes={"qualify_one_in": 1, "playoff_best_of_rounds": "1,3"},
    )
    for i in range(4):
        services.entrant_register(user=TRUSTED, tournament=t, name=f"S{i}", check_in=True)
    rnd = services.round_seat_next(user=TRUSTED, tournament=t)
    for g in rnd.games.select_related("first", "second"):
        services.scorecard_settle(user=TRUSTED, game=g, winner=g.first, loser_score=100)
    services.bracket_draw(user=TRUSTED, tournament=t)
    semi = t.playoff_matches.select_related("top", "bottom").get(round=1, position=0)
    assert [m.best_of for m in t.playoff_matches.order_by("round", "position")] == [1, 1, 3]
    services.playoff_game_record(user=TRUSTED, match=semi, winner=semi.top, loser_score=80)
    semi.refresh_from_db()
    assert semi.winner is not None  # decided in one game
    final = t.playoff_matches.get(round=2)
    assert final.top == semi.winner


def test_the_bracket_page_and_the_tv_show_both_brackets_in_english_and_french(client, db):
    t, seed = weekend_playoff(4, best_of="1,3")
    win(t, seed, "W1-1", 1, 4, 1)
    page = client.get(f"/tournaments/{t.pk}/bracket/").content.decode()
    for text in ("Winners&#x27;", "Losers&#x27; bracket", "Grand final", "best of 3", "best of 1"):
        assert text in page, text
    tv = client.get(f"/tournaments/{t.pk}/tv/").content.decode()
    assert "Losers&#x27; bracket" in tv and seed[4].name in tv
    fr = client.get(f"/tournaments/{t.pk}/bracket/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    for text in (
        "Tableau des gagnants",
        "Tableau des perdants",
        "Grande finale",
        "au meilleur de 3",
    ):
        assert text in fr, text


def test_the_rules_page_words_the_bracket_and_its_best_of_per_round(client, db):
    t = services.tournament_create(user=TRUSTED, name="Rules", games_per_entrant=1)
    services.tournament_update(
        user=TRUSTED,
        tournament=t,
        changes={"bracket_format": "double", "playoff_best_of_rounds": "1,3,5"},
    )
    page = client.get(f"/tournaments/{t.pk}/rules/").content.decode()
    assert "counted back from the final: 1, 3, 5" in page
    assert "into the losers&#x27; bracket, a second puts them out" in page
    assert "the two play one deciding match" in page
    services.tournament_update(user=TRUSTED, tournament=t, changes={"grand_final_reset": False})
    fr = client.get(f"/tournaments/{t.pk}/rules/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "tableau des perdants" in fr and "La grande finale décide" in fr
