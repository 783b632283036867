"""A double-elimination playoff played through the services and shown on its pages: matches
know their bracket side, a winner goes on and a loser drops into the right losers' round, the
grand final goes to its deciding match when the losers' bracket winner takes the first, best-of
per round, voids refused once the bracket has played on; the pages in English and French."""

from __future__ import annotations

import pytest
from django.utils import translation

from league.kernel.errors import Locked, ValidationFailed
from tests.tournaments.conftest import TRUSTED, playoff_match, weekend_playoff, win
from tournaments import selectors, services
from tournaments.models import PlayoffMatch, TournamentStage
from tournaments.selectors.nights import nights_of

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
    assert playoff_match(t, "W1-1").is_bye and playoff_match(t, "W1-1").winner == seed[1]
    for label, top, bottom, winner in SIX:
        win(t, seed, label, top, bottom, winner)
        if label == "W2-2":  # seed 2 lost once: down into the losers' round 2, bottom slot
            assert playoff_match(t, "L2-1").bottom == seed[2]
    assert playoff_match(t, "L1-1").is_bye and playoff_match(t, "L1-2").is_bye
    final = playoff_match(t, "F1")
    assert final.plays_best_of == 3  # the schedule's last entry: the grand final
    assert playoff_match(t, "W3-1").plays_best_of == 1
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
    assert playoff_match(t, "F2").is_bye  # not needed
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
    assert playoff_match(t, "L1-1").bottom == seed[2]
    game = playoff_match(t, "W1-2").games.get()
    services.playoff_game_void(user=TRUSTED, game=game, reason="wrong winner")
    assert playoff_match(t, "L1-1").bottom is None and playoff_match(t, "W2-1").bottom is None
    win(t, seed, "W1-2", 2, 3, 2)
    win(t, seed, "L1-1", 4, 3, 3)
    with pytest.raises(Locked, match="void the games of that match first"):
        services.playoff_game_void(user=TRUSTED, game=playoff_match(t, "W1-2").games.get())
    assert playoff_match(t, "L1-1").winner == seed[3]  # nothing changed


def test_a_match_waiting_for_its_loser_from_the_winners_bracket_takes_no_game(db):
    t, seed = weekend_playoff(4)
    with pytest.raises(Locked, match="waits for its two entrants"):
        services.playoff_game_record(
            user=TRUSTED, match=playoff_match(t, "L1-1"), winner=seed[4], loser_score=90
        )
    win(t, seed, "W1-1", 1, 4, 1)
    with pytest.raises(Locked, match="losers' bracket, round 1, match 1"):
        services.playoff_game_record(
            user=TRUSTED, match=playoff_match(t, "L1-1"), winner=seed[4], loser_score=90
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


def test_the_api_gives_each_bracket_its_side_and_each_match_its_best_of(db):
    from rest_framework.test import APIClient

    t, seed = weekend_playoff(4, best_of="1,3")
    win(t, seed, "W1-1", 1, 4, 1)
    doc = APIClient().get(f"/api/tournaments/{t.pk}/bracket/").json()
    assert doc["format"] == "double" and doc["champion"] is None
    assert [len(r) for r in doc["rounds"]] == [2, 1]
    assert [len(r) for r in doc["losers"]] == [1, 1] and [len(r) for r in doc["final"]] == [1, 1]
    loser_first = doc["losers"][0][0]
    assert loser_first["side"] == "losers" and loser_first["top"]["name"] == seed[4].name
    assert doc["final"][0][0]["best_of"] == 3 and doc["rounds"][0][0]["best_of"] == 1


def test_the_directors_night_page_says_where_each_match_sits_and_its_best_of(client, director):
    t, seed = weekend_playoff(4, best_of="1,3,5")
    win(t, seed, "W1-1", 1, 4, 1)
    win(t, seed, "W1-2", 2, 3, 2)
    client.force_login(director)
    page = client.get(f"/direct/nights/{t.pk}/").content.decode()
    assert "losers&#x27; bracket, round 1, match 1 · best of 3" in page
    assert "winners&#x27; bracket, round 2, match 1 · best of 3" in page
    assert "Each match is best of the games its round plays" in page
    fr = client.get(f"/direct/nights/{t.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "tableau des perdants, tour 1, match 1 · au meilleur de 3" in fr


def test_eight_entrants_played_through_the_services_follow_the_hand_worked_path(db):
    t, seed = weekend_playoff(8)
    for label, top, bottom, winner in [
        ("W1-1", 1, 8, 1),
        ("W1-2", 4, 5, 4),
        ("W1-3", 3, 6, 3),
        ("W1-4", 2, 7, 2),
        ("L1-1", 8, 5, 5),
        ("L1-2", 6, 7, 6),
        ("W2-1", 1, 4, 1),
        ("W2-2", 3, 2, 2),
        ("L2-1", 5, 3, 3),  # the winners' round 2 losers dropped in turned round
        ("L2-2", 6, 4, 4),
        ("L3-1", 3, 4, 3),
        ("W3-1", 1, 2, 1),
        ("L4-1", 3, 2, 2),
        ("F1", 1, 2, 1),
    ]:
        win(t, seed, label, top, bottom, winner)
    t.refresh_from_db()
    assert t.stage == TournamentStage.FINISHED and selectors.champion(t) == seed[1].name
    places = nights_of([t])[0].places
    assert places is not None
    assert [places[seed[s].name] for s in range(1, 9)] == [1, 2, 3, 4, 5, 5, 7, 7]
