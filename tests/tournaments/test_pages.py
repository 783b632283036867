"""Tournament pages: standings with the cut, seating, bracket, TV, the phone scorecard, admin."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.conftest import play_round, user_of
from tournaments import services
from tournaments.models import TableState


@pytest.fixture
def drawn(night, director, field):
    for _ in range(3):
        play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    return night


def test_the_tournament_page_shows_the_qualifying_line_and_the_first_non_qualifier(
    client, night, director, field
):
    play_round(night, director)
    page = client.get(reverse("tournaments:tournament", args=[night.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert html.count("data-qualifier") == 2  # ceil(7 / 4)
    assert html.count("data-first-out") == 1
    assert "The cut" in html


def test_the_seating_list_is_printable_and_lists_tables_and_the_bye(client, night, director, field):
    services.round_seat_next(user=director, tournament=night)
    html = client.get(reverse("tournaments:round", args=[night.pk, 1])).content.decode()
    assert html.count("data-table=") == 3 and "data-bye" in html and "window.print()" in html
    assert "Swap two entrants" not in html  # visitors see no director form


def test_the_director_swaps_from_the_seating_page(client, night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    t1, t2 = rnd.games.order_by("table")[:2]
    a, b = t1.first_id, t2.first_id
    client.force_login(director)
    page = client.post(reverse("tournaments:round", args=[night.pk, 1]), {"a": a, "b": b})
    assert page.status_code == 302
    t1.refresh_from_db()
    t2.refresh_from_db()
    assert (t1.first_id, t2.first_id) == (b, a)


def test_the_bracket_and_the_tv_pages(client, drawn):
    assert (
        "data-match" in client.get(reverse("tournaments:bracket", args=[drawn.pk])).content.decode()
    )
    tv = client.get(reverse("tournaments:tv", args=[drawn.pk])).content.decode()
    assert "data-bracket" in tv
    # No reload: the page asks the version endpoint and redraws itself when it moves.
    assert 'http-equiv="refresh"' not in tv
    assert f'data-live-version-url="{reverse("tournaments:version", args=[drawn.pk])}"' in tv


def version_of(client, tournament, **headers):
    return client.get(reverse("tournaments:version", args=[tournament.pk]), **headers)


def test_the_version_moves_with_every_scorecard_and_a_304_answers_an_unchanged_poll(
    client, night, director, field, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        rnd = services.round_seat_next(user=director, tournament=night)
    seated = version_of(client, night)
    assert seated.status_code == 200
    etag = seated["ETag"]
    unchanged = version_of(client, night, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    game = rnd.games.order_by("table").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.scorecard_enter(
            user=user_of(game.first), game=game, winner=game.first, loser_score=100
        )
    scored = version_of(client, night, HTTP_IF_NONE_MATCH=etag)
    assert scored.status_code == 200
    assert scored.json()["version"] != seated.json()["version"]
    # The TV page carries the version it was drawn at: the poller compares the two.
    tv = client.get(reverse("tournaments:tv", args=[night.pk])).content.decode()
    assert f'data-version="{scored.json()["version"]}"' in tv


def test_a_version_lost_with_the_cache_starts_again_from_the_clock_not_from_one(
    client, night, director, field, django_capture_on_commit_callbacks
):
    from django.core.cache import cache

    with django_capture_on_commit_callbacks(execute=True):
        services.round_seat_next(user=director, tournament=night)
    before = version_of(client, night).json()["version"]
    cache.clear()  # Redis restarted
    after = version_of(client, night).json()["version"]
    assert after != before and after not in ("v0", "v1")


def test_with_the_cache_down_the_version_moves_on_the_old_reload_beat(night, monkeypatch):
    from league.kernel import cache as league_cache
    from tournaments.selectors import tournament_version

    monkeypatch.setattr(league_cache, "cache_paused", lambda: True)
    first, same, later = (
        tournament_version(night.pk, every=5, now=now) for now in (1000.0, 1000.1, 1006.0)
    )
    assert first == same != later  # a redraw every five seconds, as the page once reloaded


def test_an_unknown_tournament_has_no_version(client, db):
    assert client.get(reverse("tournaments:version", args=[999_999])).status_code == 404


def test_a_player_enters_a_scorecard_from_the_phone(client, night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.first()
    client.force_login(user_of(game.first))
    page = client.get(reverse("tournaments:tournament", args=[night.pk]))
    assert "data-scorecard-link" in page.content.decode()
    url = reverse("tournaments:scorecard", args=[game.pk])
    assert client.get(url).status_code == 200
    bad = client.post(url, {"winner": game.first_id, "loser_score": 125})
    assert "from 0 to 120" in bad.content.decode()
    client.post(url, {"winner": game.first_id, "loser_score": 99})
    client.force_login(user_of(game.second))
    client.post(url, {"winner": game.first_id, "loser_score": 99})
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED


def test_someone_elses_table_is_refused(client, night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    a, b = rnd.games.all()[:2]
    client.force_login(user_of(a.first))
    assert client.get(reverse("tournaments:scorecard", args=[b.pk])).status_code == 403


def test_the_checkers_queue_shows_both_entries_and_the_checker_settles(
    client, night, director, field, judge
):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.first()
    services.scorecard_enter(user=user_of(game.first), game=game, winner=game.first, loser_score=90)
    services.scorecard_enter(
        user=user_of(game.second), game=game, winner=game.second, loser_score=90
    )
    judge.is_staff = True  # the admin's door; the queue itself asks can()
    judge.save()
    client.force_login(judge)
    listing = client.get(reverse("admin:tournaments_checkersqueue_changelist")).content.decode()
    assert game.first.name in listing and "Card for " in listing
    url = reverse("admin:tournaments_checkersqueue_change", args=[game.pk])
    assert client.get(url).status_code == 200
    client.post(url, {"settle_winner": game.second_id, "settle_loser_score": 90})
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED and game.winner_id == game.second_id


def test_admin_actions_seat_and_draw(client, night, director, field):
    client.force_login(director)
    url = reverse("admin:tournaments_tournament_changelist")
    client.post(url, {"action": "seat_next_round", "_selected_action": [night.pk]})
    assert night.rounds.count() == 1
    page = client.post(url, {"action": "draw_bracket", "_selected_action": [night.pk]}, follow=True)
    assert "no verified result" in page.content.decode()
    assert not night.playoff_matches.exists()


def test_a_playoff_game_through_the_admin(client, drawn, director):
    final = drawn.playoff_matches.get()
    client.force_login(director)
    url = reverse("admin:tournaments_playoffmatch_change", args=[final.pk])
    for _ in range(2):
        client.post(url, {"game_winner": final.top_id, "game_loser_score": 100})
    final.refresh_from_db()
    assert final.winner_id == final.top_id
    assert (
        "Champion" in client.get(reverse("tournaments:bracket", args=[drawn.pk])).content.decode()
    )


def test_the_tournament_page_speaks_french(client, night, director, field):
    play_round(night, director)
    client.cookies["django_language"] = "fr"
    html = client.get(
        reverse("tournaments:tournament", args=[night.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "La coupe" in html and "premier éliminé" in html


@pytest.mark.parametrize("rounds", [1, 3])
def test_the_public_pages_query_counts_do_not_grow_with_the_field(
    client, night, director, field, rounds, django_assert_max_num_queries
):
    for _ in range(rounds):
        play_round(night, director)
    with django_assert_max_num_queries(12):
        client.get(reverse("tournaments:tournament", args=[night.pk]))
    with django_assert_max_num_queries(10):
        client.get(reverse("tournaments:round", args=[night.pk, 1]))
    if rounds == 3:
        services.bracket_draw(user=director, tournament=night)
    with django_assert_max_num_queries(10):
        client.get(reverse("tournaments:bracket", args=[night.pk]))
    with django_assert_max_num_queries(12):
        client.get(reverse("tournaments:tv", args=[night.pk]))
    with django_assert_max_num_queries(1):  # the poll: the tournament exists, the counter
        client.get(reverse("tournaments:version", args=[night.pk]))
