"""The venue's TV: every table's current game as a board with front and back pegs, the skunk
line, finished games with their winner and skunk, polled with a fixed number of queries."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.models import Deal
from league.selectors.scoreboard import week_boards
from league.services.games import game_confirm, game_start, game_void
from league.templatetags.pegboard import layout
from tests.factories import play

pytestmark = pytest.mark.django_db


def boards_url(week):
    return reverse("league:scoreboard_boards", args=[week.venue_id, week.pk])


def test_scoreboard_page_needs_no_login_and_polls_its_boards(client, venue_week, half_game):
    response = client.get(reverse("league:scoreboard", args=[venue_week.venue_id, venue_week.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert f'data-live-url="{boards_url(venue_week)}"' in body
    assert "js/live.js" in body


def test_venue_address_opens_the_week_being_played(client, venue_week, half_game):
    response = client.get(reverse("league:venue_scoreboard", args=[venue_week.venue_id]))
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "league:scoreboard", args=[venue_week.venue_id, venue_week.pk]
    )


def test_a_week_at_another_venue_is_not_found(client, venue_week, db):
    from league.models import Venue

    other = Venue.objects.create(name="Elsewhere")
    url = reverse("league:scoreboard", args=[other.pk, venue_week.pk])
    assert client.get(url).status_code == 404


def test_back_peg_is_the_score_before_the_last_deal(venue_week, half_game):
    previous = Deal.objects.get(game=half_game, number=half_game.deal_count - 1)
    (table,) = week_boards(venue_week, per_screen=32)["tables"]
    home, away = table["board"]["sides"]
    assert (home["score"], away["score"]) == (half_game.home_score, half_game.away_score)
    assert (home["back"], away["back"]) == (previous.home_after, previous.away_after)


def test_back_peg_starts_at_zero_after_the_first_deal(venue_week, game, ann):
    play(game, ann, deals=1)
    (table,) = week_boards(venue_week, per_screen=32)["tables"]
    assert [side["back"] for side in table["board"]["sides"]] == [0, 0]


def test_boards_draw_pegs_where_the_scores_are(client, venue_week, half_game):
    body = client.get(boards_url(venue_week)).content.decode()
    lay = layout(121)
    x, y = lay.position(0, half_game.home_score)
    assert re.search(rf'class="peg peg--front" cx="{x}" cy="{y}"', body)
    # each polled board draws its pegs over the holes the page carries once
    assert '<use href="#board-bg-121"' in body and 'class="hole' not in body
    page = client.get(boards_url(venue_week).replace("boards/", "")).content.decode()
    assert page.count('class="hole hole--0"') == 122  # two start holes and 1..120
    assert 'id="board-bg-121"' in page


def test_boards_mark_the_skunk_line_and_the_game_hole(client, venue_week, half_game, league):
    body = client.get(boards_url(venue_week)).content.decode()
    assert 'class="board-skunk"' in body
    line = league.target - league.skunk_margin
    assert f"Skunk line: the loser must pass {line}" in body
    page = client.get(boards_url(venue_week).replace("boards/", "")).content.decode()
    assert 'class="hole hole--game" data-h="121"' in page


def test_board_has_a_text_equivalent(client, venue_week, half_game):
    body = client.get(boards_url(venue_week)).content.decode()
    label = f"Fifteen Two {half_game.home_score}, Nobs {half_game.away_score}"
    assert f'aria-label="{label}"' in body
    assert f"<title>{label}</title>" in body


def test_finished_game_shows_winner_and_skunk(client, venue_week, finished_game):
    body = client.get(boards_url(venue_week)).content.decode()
    winner = finished_game.winner.name
    assert f"{winner} win by {finished_game.margin}" in body
    if finished_game.skunk_level:
        assert "SKUNK" in body
    assert "tv-table--over" in body


def test_a_confirmed_game_stays_on_the_board_until_the_next_starts(
    client, venue_week, finished_game, match
):
    game_confirm(game=finished_game, user=match.away.captain.user)
    body = client.get(boards_url(venue_week)).content.decode()
    assert "tv-table--over" in body


def test_boards_show_a_new_deal_at_the_next_poll(settings, client, venue_week, half_game, ann):
    settings.BOARDS_RECENT_SECONDS = 0  # no one-second sharing between pollers
    before = client.get(boards_url(venue_week))
    play(half_game, ann, start=4, deals=4)  # the fourth deal of the same legal game
    after = client.get(boards_url(venue_week))
    assert before["X-Boards-Signature"] != after["X-Boards-Signature"]
    half_game.refresh_from_db()
    assert f"Fifteen Two {half_game.home_score}" in after.content.decode()
    # Kept one second at most, by nginx's micro-cache or anyone else: a TV lags a second.
    assert after["Cache-Control"] == "max-age=1"


def test_a_poll_that_sends_back_its_etag_gets_an_empty_304_until_a_board_changes(
    settings, client, venue_week, half_game, ann
):
    settings.BOARDS_RECENT_SECONDS = 0
    first = client.get(boards_url(venue_week))
    etag = first["ETag"]
    same = client.get(boards_url(venue_week), HTTP_IF_NONE_MATCH=etag)
    assert same.status_code == 304
    assert same.content == b""
    assert same["ETag"] == etag
    play(half_game, ann, start=4, deals=4)
    changed = client.get(boards_url(venue_week), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    half_game.refresh_from_db()
    assert f"Fifteen Two {half_game.home_score}" in changed.content.decode()


def test_a_confirmation_and_a_void_give_the_boards_a_new_etag(
    settings, client, venue_week, finished_game, match, judge
):
    settings.BOARDS_RECENT_SECONDS = 0
    finished = client.get(boards_url(venue_week))["ETag"]
    game_confirm(game=finished_game, user=match.away.captain.user)
    confirmed = client.get(boards_url(venue_week), HTTP_IF_NONE_MATCH=finished)
    assert confirmed.status_code == 200  # the TV redraws the confirmed game
    game_void(game=finished_game, user=judge, reason="Played with a short deck.")
    voided = client.get(boards_url(venue_week), HTTP_IF_NONE_MATCH=confirmed["ETag"])
    assert voided.status_code == 200
    assert "tv-table--over" not in voided.content.decode()  # the voided game left the board


def test_the_boards_etag_differs_by_language(settings, client, venue_week, half_game):
    settings.BOARDS_RECENT_SECONDS = 0
    english = client.get(boards_url(venue_week), HTTP_ACCEPT_LANGUAGE="en")
    french = client.get(
        boards_url(venue_week), HTTP_ACCEPT_LANGUAGE="fr", HTTP_IF_NONE_MATCH=english["ETag"]
    )
    assert french.status_code == 200  # an English copy is no answer to a French TV


def test_an_unchanged_poll_within_the_second_costs_no_query(
    client, venue_week, half_game, django_assert_num_queries
):
    etag = client.get(boards_url(venue_week))["ETag"]
    with django_assert_num_queries(0):
        again = client.get(boards_url(venue_week), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304


def test_boards_poll_queries_do_not_grow_with_the_tables(
    client, venue_week, half_game, more_tables, django_assert_num_queries
):
    # Three tables, each with a game under way: the same five queries as one table (the week,
    # its matches and teams, the teams' player names, the games, the back pegs).
    with django_assert_num_queries(5):
        response = client.get(boards_url(venue_week))
    body = response.content.decode()
    assert body.count('<article class="tv-table') == 3
    for game in more_tables:
        for team in (game.match.home, game.match.away):
            names = " & ".join(team.players.order_by("name").values_list("name", flat=True))
            assert f"{team.name}<small>{names}</small>" in body


def test_boards_poll_queries_for_one_table(
    client, venue_week, half_game, django_assert_num_queries
):
    with django_assert_num_queries(5):
        client.get(boards_url(venue_week))


def test_pollers_share_one_answer_a_second(
    client, venue_week, half_game, ann, django_assert_num_queries
):
    first = client.get(boards_url(venue_week))
    with django_assert_num_queries(0):  # every TV at the venue polls: within a second, no query
        again = client.get(boards_url(venue_week))
    assert again.content == first.content


# --- A big venue: the boards in screens of at most PEGBOARD_TV_SCREEN_TABLES tables ---------


def page_url(week, screen=None):
    url = reverse("league:scoreboard", args=[week.venue_id, week.pk])
    return f"{url}?screen={screen}" if screen else url


def tables_of(body):
    return re.findall(r'<h2 id="tv-table-\d+">Table (\d+)</h2>', body)


def test_33_tables_make_two_screens_tables_1_to_32_then_33(client, venue_week, tables_33):
    first = client.get(boards_url(venue_week)).content.decode()
    assert tables_of(first) == [str(n) for n in range(1, 33)]
    assert "Screen 1 of 2: tables 1 to 32" in first
    second = client.get(boards_url(venue_week) + "?screen=2").content.decode()
    assert tables_of(second) == ["33"]
    assert "Screen 2 of 2: table 33" in second


def test_a_venue_that_fits_one_screen_has_no_screen_controls(
    client, venue_week, half_game, more_tables
):
    body = client.get(page_url(venue_week)).content.decode()
    assert len(tables_of(body)) == 3
    assert "tv-screens" not in body and "data-live-rotate" not in body
    assert "Screen 1" not in body and "in turn" not in body
    assert f'data-live-url="{boards_url(venue_week)}"' in body


def test_a_tv_without_a_screen_shows_the_first_and_turns_to_the_next(
    settings, client, venue_week, half_game, more_tables
):
    settings.PEGBOARD_TV_SCREEN_TABLES = 2
    body = client.get(page_url(venue_week)).content.decode()
    assert tables_of(body) == ["1", "2"]
    assert "Screen 1 of 2: tables 1 to 2" in body
    assert "Every screen in turn, 20 seconds each" in body
    assert f'data-live-url="{boards_url(venue_week)}"' in body
    assert 'data-live-rotate="20000"' in body
    # a link to each screen, which pins the TV there
    assert f'href="{page_url(venue_week, 2)}"' in body
    assert f'href="{page_url(venue_week, 1)}" aria-current="page"' in body


def test_a_tv_pinned_to_a_screen_polls_that_screen_and_does_not_turn(
    settings, client, venue_week, half_game, more_tables
):
    settings.PEGBOARD_TV_SCREEN_TABLES = 2
    body = client.get(page_url(venue_week, 2)).content.decode()
    assert tables_of(body) == ["3"]
    assert "Screen 2 of 2: table 3" in body
    assert f'data-live-url="{boards_url(venue_week)}?screen=2"' in body
    assert "data-live-rotate" not in body
    assert f'<a href="{page_url(venue_week)}">Show every screen in turn</a>' in body


def test_the_poll_of_one_screen_draws_only_its_tables(
    settings, client, venue_week, half_game, more_tables
):
    settings.PEGBOARD_TV_SCREEN_TABLES = 2
    body = client.get(boards_url(venue_week) + "?screen=2").content.decode()
    assert tables_of(body) == ["3"]
    assert body.count('<article class="tv-table') == 1
    assert "Fifteen Two" not in body  # table 1's team is on screen 1


def test_each_screen_has_its_own_etag_and_a_deal_changes_only_its_screen(
    settings, client, venue_week, half_game, more_tables
):
    settings.PEGBOARD_TV_SCREEN_TABLES = 2
    settings.BOARDS_RECENT_SECONDS = 0
    one = client.get(boards_url(venue_week))
    two = client.get(boards_url(venue_week) + "?screen=2")
    assert one["ETag"] != two["ETag"]
    wrong = client.get(boards_url(venue_week) + "?screen=2", HTTP_IF_NONE_MATCH=one["ETag"])
    assert wrong.status_code == 200  # screen 1's copy is no answer for screen 2
    table_3 = more_tables[1]
    play(table_3, table_3.match.home.captain.user, seed=3, start=3, deals=3)
    assert client.get(boards_url(venue_week), HTTP_IF_NONE_MATCH=one["ETag"]).status_code == 304
    changed = client.get(boards_url(venue_week) + "?screen=2", HTTP_IF_NONE_MATCH=two["ETag"])
    assert changed.status_code == 200


def test_a_screen_reads_only_its_tables_in_five_queries(
    client, venue_week, tables_33, half_game, django_assert_num_queries
):
    last = tables_33[-1]
    home, away = last.home, last.away
    seats = [home.captain, away.captain, *home.players.exclude(pk=home.captain_id)]
    seats.append(*away.players.exclude(pk=away.captain_id))
    play(
        game_start(match=last, user=home.captain.user, seats=seats, first_dealer=1),
        home.captain.user,
        deals=2,
    )
    # The same five queries as one table (the week, this screen's matches and teams with the
    # week's count of tables, the player names, the games, the back pegs), for 32 tables or 1.
    for screen in ("", "?screen=2"):
        with django_assert_num_queries(5):
            response = client.get(boards_url(venue_week) + screen)
        assert response.status_code == 200
    with django_assert_num_queries(5):
        client.get(page_url(venue_week, 2))


def test_a_screen_past_the_last_says_how_many_there_are(client, venue_week, tables_33):
    body = client.get(page_url(venue_week, 3)).content.decode()
    assert tables_of(body) == []
    assert "This week's tables fit on 2 screens." in body
    assert f'href="{page_url(venue_week, 1)}"' in body


@pytest.mark.parametrize("screen", ["0", "two", "-1", "²", "9" * 5000])
def test_a_screen_that_cannot_be_is_not_found(client, venue_week, half_game, screen):
    assert client.get(f"{page_url(venue_week)}?screen={screen}").status_code == 404
    assert client.get(f"{boards_url(venue_week)}?screen={screen}").status_code == 404


def test_the_venue_address_keeps_a_tv_on_its_screen(client, venue_week, half_game):
    url = reverse("league:venue_scoreboard", args=[venue_week.venue_id])
    response = client.get(f"{url}?screen=3")
    assert response.status_code == 302
    assert response["Location"] == page_url(venue_week, 3)


def test_the_screens_read_in_french(settings, client, venue_week, half_game, more_tables):
    settings.PEGBOARD_TV_SCREEN_TABLES = 2
    turning = client.get(page_url(venue_week), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Écran 1 sur 2 : tables 1 à 2" in turning
    assert "Chaque écran à son tour, 20 secondes chacun" in turning
    pinned = client.get(page_url(venue_week, 2), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Écran 2 sur 2 : table 3" in pinned
    assert "Montrer chaque écran à son tour" in pinned
    past = client.get(page_url(venue_week, 3), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Les tables de la semaine tiennent sur 2 écrans." in past
